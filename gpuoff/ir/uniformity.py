"""Which values and which control flow may differ between the work-items of one work-group,
and the barriers a kernel's control flow can let some work-items of a group miss.

Every value and every point of a kernel gets one of three *levels*, ordered:

* ``UNIFORM``: the same in every work-item of a group: constants, scalar parameters, shapes,
  ``group_id``, the sizes, loads of ``Borrow`` arrays at uniform indices (nothing writes them
  during a launch), and anything computed from those alone;
* ``RUNTIME``: uniform unless memory that work-items write says otherwise: a load of a shared,
  private, ``BorrowMut`` or ``Owned`` array (another work-item may write the element between two
  reads), a call of a device function that reads such memory. Only a run can tell;
* ``DIVERGENT``: depends on ``global_id`` / ``local_id`` or on an atomic's result.

A variable gets the level of what is assigned to it joined with the level of the control flow
it is assigned under (so ``if local_id(0) == 0: flag = 1`` makes ``flag`` divergent after the
``if``); a loop's variables after it also get the level of its trip count and of its breaks.
An exit under a condition makes the rest of its block run under that condition's level.

``analyse(kernel)`` reports each ``Barrier`` reached under non-uniform control and each exit
(``return``, ``break``, ``continue``) under non-uniform control that skips a barrier other
work-items of the group can still reach:

* ``return``: any barrier after it in program order, or in a loop around it (the next
  iteration's);
* ``break``: any barrier in its loop's body (the iterations it skips);
* ``continue``: a barrier after it in its loop's body.

It also gives the level of every ``If``/``While``/``ForRange`` condition, for
``gpuoff.ir.barrier_votes``, which makes the ``RUNTIME`` ones that matter uniform at run time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from gpuoff.ir import nodes as n
from gpuoff.ir.types import AddressSpace
from gpuoff.ir.walk import child_bodies, child_exprs, walk_exprs, walk_stmts


@dataclass(frozen=True, order=True)
class Level:
    """A uniformity level (``rank`` 0, 1, 2) and, for the message, what causes it."""

    rank: int
    why: str = field(default="", compare=False)

    def __bool__(self) -> bool:
        return self.rank > 0


UNIFORM = Level(0)
RUNTIME = 1
DIVERGENT = 2


def _max(*levels: Level) -> Level:
    out = UNIFORM
    for lv in levels:
        if lv.rank > out.rank:
            out = lv
    return out


Env = dict[str, Level]


def _join(a: Env, b: Env) -> Env:
    out = dict(a)
    for k, v in b.items():
        out[k] = _max(out.get(k, UNIFORM), v)
    return out


@dataclass(frozen=True)
class Finding:
    """A barrier reached, or an exit taken, under control of a non-uniform ``level``.

    ``kind`` is ``"barrier"``, ``"return"``, ``"break"`` or ``"continue"``; ``stmt`` the
    statement; ``skipped`` (exits) the first barrier that work-items taking the exit miss."""

    kind: str
    stmt: n.Stmt
    level: Level
    skipped: n.Barrier | None = None


@dataclass
class Analysis:
    """What ``analyse`` found: the findings in program order (exits and barriers under
    non-uniform control), the level of each condition (by ``id`` of its statement) and the
    statements whose condition decides whether a barrier is reached."""

    findings: list[Finding]
    conditions: dict[int, Level]
    controls_barrier: set[int]
    range_parts: dict[int, tuple[Level, Level, Level]] = field(default_factory=dict)


def first_barrier(stmts: Sequence[n.Stmt]) -> n.Barrier | None:
    """The first ``Barrier`` of ``stmts`` in program order (nested bodies included)."""
    for s in stmts:
        if isinstance(s, n.Barrier):
            return s
        for body in child_bodies(s):
            found = first_barrier(body)
            if found is not None:
                return found
    return None


@dataclass(frozen=True)
class _Where:
    """Where a statement stands: the first barrier after it in program order (without loop
    back edges), the first after it inside the innermost loop's body, and, per enclosing
    loop (outermost first), the first barrier of that loop's body."""

    after: n.Barrier | None = None
    after_in_loop: n.Barrier | None = None
    loops: tuple[n.Barrier | None, ...] = ()


@dataclass
class _Escape:
    """Exits leaving a statement: per kind, the control level it is taken under (absent when
    the statement has none), and the variables' levels there."""

    levels: dict[str, Level] = field(default_factory=dict)
    envs: dict[str, Env] = field(default_factory=dict)

    def add(self, kind: str, level: Level, env: Env) -> None:
        self.levels[kind] = _max(self.levels.get(kind, UNIFORM), level)
        self.envs[kind] = _join(self.envs.get(kind, {}), env)

    def merge(self, other: _Escape) -> None:
        for kind, level in other.levels.items():
            self.add(kind, level, other.envs[kind])

    def level(self, *kinds: str) -> Level:
        return _max(*(self.levels.get(k, UNIFORM) for k in kinds))


class _Analyser:
    def __init__(self, module: n.Module) -> None:
        self.module = module
        self.summaries: dict[str, Level] = {}
        for fn in module.functions:  # callees come first
            self.summaries[fn.name] = self._summary(fn)
        self.findings: dict[int, Finding] = {}
        self.order: list[int] = []
        self.conditions: dict[int, Level] = {}
        self.controls_barrier: set[int] = set()
        self.range_parts: dict[int, tuple[Level, Level, Level]] = {}

    # -- expressions ----------------------------------------------------------------------

    def _summary(self, fn: n.Function) -> Level:
        """The level a call of ``fn`` adds to its arguments' (what it reads by itself)."""
        out = UNIFORM
        for e in walk_exprs(fn.body):
            if isinstance(e, n.WorkItem | n.AtomicRMW | n.Load | n.Call):
                out = _max(out, self._own_level(e))
        return out

    def _own_level(self, e: n.Expr) -> Level:
        if isinstance(e, n.WorkItem):
            if e.name in ("global_id", "local_id"):
                return Level(DIVERGENT, e.name)
            return UNIFORM
        if isinstance(e, n.AtomicRMW):
            return Level(DIVERGENT, "the result of an atomic")
        if isinstance(e, n.Load):
            t = e.array.type
            if t.space is AddressSpace.PRIVATE:
                # Each work-item's own copy: uniform when every item stored the same values,
                # which only a run can tell (this analysis does not follow stores).
                return Level(RUNTIME, f"the contents of private array {e.array.name!r}")
            if t.space is AddressSpace.SHARED or t.access.writes:
                return Level(RUNTIME, f"the contents of {e.array.name!r}, which work-items write")
            return UNIFORM
        if isinstance(e, n.Call):
            return self.summaries.get(e.callee, UNIFORM)
        return UNIFORM

    def level(self, e: n.Expr, env: Mapping[str, Level]) -> Level:
        """The level of expression ``e`` with the variables' levels ``env``."""
        if isinstance(e, n.Var):
            return env.get(e.name, UNIFORM)
        own = self._own_level(e)
        return _max(own, *(self.level(c, env) for c in child_exprs(e)))

    # -- statements -----------------------------------------------------------------------

    def _note(self, f: Finding) -> None:
        key = id(f.stmt)
        old = self.findings.get(key)
        if old is None:
            self.order.append(key)
            self.findings[key] = f
        elif f.level.rank > old.level.rank:
            self.findings[key] = f

    def _cond(self, s: n.Stmt, level: Level) -> None:
        self.conditions[id(s)] = _max(self.conditions.get(id(s), UNIFORM), level)

    def block(
        self, stmts: Sequence[n.Stmt], env: Env, ctl: Level, where: _Where
    ) -> tuple[Env, _Escape]:
        escape = _Escape()
        later: list[n.Barrier | None] = [None] * len(stmts)
        nxt: n.Barrier | None = None
        for k in range(len(stmts) - 1, -1, -1):
            later[k] = nxt
            nxt = first_barrier(stmts[k : k + 1]) or nxt
        for k, s in enumerate(stmts):
            here = _Where(later[k] or where.after, later[k] or where.after_in_loop, where.loops)
            env, esc = self.stmt(s, env, ctl, here)
            escape.merge(esc)
            # Work-items that left take no part in the rest of the block.
            ctl = _max(ctl, *esc.levels.values())
        return env, escape

    def stmt(self, s: n.Stmt, env: Env, ctl: Level, where: _Where) -> tuple[Env, _Escape]:
        esc = _Escape()
        if isinstance(s, n.Assign):
            env = {**env, s.target: _max(self.level(s.value, env), ctl)}
        elif isinstance(s, n.If):
            c = self.level(s.cond, env)
            self._cond(s, c)
            inner = _max(ctl, c)
            env1, e1 = self.block(s.body, env, inner, where)
            env2, e2 = self.block(s.orelse, env, inner, where)
            env = _join(env1, env2)
            esc.merge(e1)
            esc.merge(e2)
        elif isinstance(s, n.ForRange | n.While):
            env, esc = self._loop(s, env, ctl, where)
        elif isinstance(s, n.Barrier):
            if ctl:
                self._note(Finding("barrier", s, ctl))
        elif isinstance(s, n.Return | n.Break | n.Continue):
            kind = type(s).__name__.lower()
            esc.add(kind, ctl, env)
            skipped = self._skipped(kind, where)
            if skipped is not None and ctl:
                self._note(Finding(kind, s, ctl, skipped))
        return env, esc

    @staticmethod
    def _skipped(kind: str, where: _Where) -> n.Barrier | None:
        if kind == "continue":
            return where.after_in_loop
        if kind == "break":
            return where.loops[-1] if where.loops else None
        if where.after is not None:
            return where.after
        return next((b for b in reversed(where.loops) if b is not None), None)

    def _loop(
        self, s: n.ForRange | n.While, env: Env, ctl: Level, where: _Where
    ) -> tuple[Env, _Escape]:
        body_where = _Where(where.after, None, (*where.loops, first_barrier(s.body)))
        head = dict(env)
        if isinstance(s, n.ForRange):
            parts = (self.level(s.start, env), self.level(s.stop, env), self.level(s.step, env))
            self.range_parts[id(s)] = parts
            trip = _max(*parts)
            self._cond(s, trip)
        exits = _Escape()
        while True:
            if isinstance(s, n.While):
                trip = self.level(s.cond, head)
                self._cond(s, trip)
            # Work-items that broke out or returned run no further iteration.
            inner = _max(ctl, trip, exits.level("break", "return"))
            start = head
            if isinstance(s, n.ForRange):
                start = {**head, s.var: _max(head.get(s.var, UNIFORM), inner)}
            before = dict(exits.levels)
            out, exits = self.block(s.body, start, inner, body_where)
            new_head = _join(_join(head, out), exits.envs.get("continue", {}))
            if new_head == head and exits.levels == before:
                break
            head = new_head
        after = _join(head, exits.envs.get("break", {}))
        # Items that left at different iterations (or ran different trip counts) hold
        # different values of everything the loop assigns.
        spread = _max(trip, exits.level("break", "return"))
        if spread:
            for name in _assigned(s):
                after[name] = _max(after.get(name, UNIFORM), spread)
        if first_barrier(s.body) is not None or any(
            self.findings.get(id(x)) is not None for x in walk_stmts((s,))
        ):
            self.controls_barrier.add(id(s))
        escape = _Escape()
        if "return" in exits.levels:
            escape.add("return", exits.levels["return"], exits.envs["return"])
        return after, escape


def _assigned(s: n.Stmt) -> set[str]:
    out = {x.target for x in walk_stmts((s,)) if isinstance(x, n.Assign)}
    out |= {x.var for x in walk_stmts((s,)) if isinstance(x, n.ForRange)}
    return out


def analyse(module: n.Module) -> Analysis:
    """Uniformity of ``module``'s kernel (see the module docstring)."""
    a = _Analyser(module)
    a.block(module.kernel.body, {}, UNIFORM, _Where())
    # A condition controls a barrier when its statement holds one, or an exit that skips one.
    flagged = {id(f.stmt) for f in a.findings.values()}
    for s in walk_stmts(module.kernel.body):
        if isinstance(s, n.If) and (
            first_barrier(s.body + s.orelse) is not None
            or any(id(x) in flagged for x in walk_stmts(s.body + s.orelse))
        ):
            a.controls_barrier.add(id(s))
    return Analysis([a.findings[k] for k in a.order], a.conditions, a.controls_barrier,
                    a.range_parts)
