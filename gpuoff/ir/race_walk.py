"""The walk of the race analysis: every store's index as a polynomial over atoms.

``walk(module, shape)`` runs the kernel abstractly once, as every work-item runs it: each
integer value becomes a polynomial (``gpuoff.ir.race_poly``), each branch adds the facts its
condition implies, and every store and atomic to a global ``BorrowMut``/``Owned`` array or to
a shared array becomes a ``Site``: the indices, the facts that hold there, the barrier interval
it runs in. ``gpuoff.ir.races`` then decides from the sites whether two work-items may write
one element.

Values. A variable holds the polynomial of its last assignment; a branch that assigns it
differently from the other, or a value the analysis does not model (a load, a float cast, a
call's result), gives it a fresh atom. ``for v in range(start, stop, step)`` binds ``v`` to
``start + step * t`` with ``t >= 0`` a fresh iteration count (and ``v <= stop - 1`` for a
positive step); a variable the body changes only by ``v = v + s`` (``s`` not changed in the
loop: a grid-stride ``while``) is ``v0 + s * t`` likewise; anything else the body assigns is
fresh in it and after it. Facts are about atoms, which never change, so they stay true
wherever they were derived.

Launch shape. ``LaunchShape`` says per dimension whether the grid, a group and the launch's
groups may have more than one member; an id of a dimension that cannot vary is the constant 0
(``global_id(1)`` of a 1-D launch), so a proof holds for every launch of that shape.

Barrier intervals. Shared memory is private to a group, and a barrier orders the accesses of
its group, so two writes to shared memory can only race within one interval. The walk numbers
the intervals (a ``Barrier`` starts a new one) and joins those that control flow can connect
without a barrier (the two arms of an ``if``, a loop's end and its start, a ``break``). A loop
with a barrier whose trip count is a compile-time constant (``s = 128; while s > 0: ...;
s //= 2``, ``launch_loops.constant_trips``) is walked once per iteration with its counters
pinned, so each iteration's interval sees its own constants (a tree reduction, a Blelloch scan,
a bitonic sort in shared memory).

``with go.unsafe():`` stores (``Store.unsafe``) and the stores of calls made there
(``Call.unsafe``) are not sites.
"""

from __future__ import annotations

from typing import NamedTuple

from gpuoff.ir import nodes as n
from gpuoff.ir import race_poly as P
from gpuoff.ir.bounds import always_exits, assigned
from gpuoff.ir.launch_loops import constant_trips
from gpuoff.ir.launch_shape import LaunchShape

__all__ = ["LaunchShape", "Site", "Walk"]
from gpuoff.ir.race_poly import Atom, Facts, Poly
from gpuoff.ir.race_terms import (
    NEGATE,
    SYMBOLS,
    calls_in,
    converted,
    induction_steps,
    is_int,
    low_bits,
    narrow,
)
from gpuoff.ir.types import ArrayType
from gpuoff.ir.walk import stmt_exprs, walk_stmts

UNROLL_BUDGET = 1024
"""Loop iterations (of loops with a barrier) the walk of one kernel may unroll in all."""

# (NamedTuples and plain classes, not dataclasses: these modules are imported at the first
# launch of every kernel, and making a dataclass execs each of its methods.)


class Site(NamedTuple):
    """One store (``kind="store"``) or atomic (``"atomic"``) to a race-checked array."""

    kind: str
    array: str
    shared: bool
    indices: tuple[Poly, ...]
    facts: Facts
    segment: int
    loc: n.Loc | None
    filename: str
    function: str
    call_lines: tuple[int, ...] = ()
    """Lines of the calls (kernel first) that reached the function holding the access."""


class _Frame:
    """One function being walked: its array names' roots, its returns, the call's line."""

    __slots__ = ("fn", "arrays", "returns", "call_line")

    def __init__(self, fn: n.Function, arrays: dict[str, str], returns: list[Poly] | None = None,
                 call_line: int | None = None) -> None:  # fmt: skip
        self.fn, self.arrays, self.returns, self.call_line = fn, arrays, returns, call_line


class _Loop:
    """The barrier intervals a loop's ``break``s and ``continue``s leave from."""

    __slots__ = ("breaks", "continues")

    def __init__(self) -> None:
        self.breaks: list[int] = []
        self.continues: list[int] = []


class Walk:
    """The state of one walk; ``run`` fills ``sites``."""

    def __init__(self, module: n.Module, shape: LaunchShape) -> None:
        self.module = module
        self.shape = shape
        self.tracked: dict[str, bool] = {}  # root array -> whether it is shared memory
        self.readonly: set[str] = set()
        for p in module.kernel.params:
            if isinstance(p.type, ArrayType):
                if p.type.access.writes:
                    self.tracked[p.name] = False
                else:
                    self.readonly.add(p.name)
        for sh in module.kernel.shared:
            self.tracked[sh.name] = True
        self.sites: list[Site] = []
        self.parent: list[int] = [0]
        self.segment = 0
        self.fresh_count = 0
        self.fresh_what: dict[int, str] = {}
        self.counters: set[int] = set()  # fresh atoms that count iterations (0: the first)
        self.names: dict[Atom, str] = {}
        self.unsafe = 0
        self.recording = True
        self.frames: list[_Frame] = []
        self.loops: list[_Loop] = []
        self.budget = UNROLL_BUDGET
        self.barrier_fns: dict[str, bool] = {}
        self.inherent: Facts = frozenset()  # what holds in every launch of the shape

    # -- segments (barrier intervals) ---------------------------------------------------------

    def find(self, s: int) -> int:
        while self.parent[s] != s:
            self.parent[s] = self.parent[self.parent[s]]
            s = self.parent[s]
        return s

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)

    def _new_segment(self) -> None:
        self.parent.append(len(self.parent))
        self.segment = len(self.parent) - 1

    # -- the walk ------------------------------------------------------------------------------

    def run(self) -> list[Site]:
        kernel = self.module.kernel
        self.frames.append(_Frame(kernel, {}))
        self.inherent = self.initial_facts()
        self.block(kernel.body, {}, self.inherent)
        return self.sites

    def initial_facts(self) -> Facts:
        out: set[Poly] = set()
        s = self.shape
        for d in range(3):
            if not s.grid[d]:
                continue
            size = self._global_size(d)
            out.add(P.sub(size, P.const(2)))  # more than one work-item in this dimension
            out.add(P.sub(P.sub(size, P.const(1)), P.of(("gid", d))))
            if s.block[d] and s.groups[d]:
                lsize, ngroups = P.of(("lsize", d)), P.of(("ngroups", d))
                if s.sizes is not None:
                    lsize = P.const(s.sizes[d])
                out.add(P.sub(lsize, P.const(1)))
                out.add(P.sub(ngroups, P.const(1)))
                out.add(P.sub(P.sub(lsize, P.const(1)), P.of(("lid", d))))
                out.add(P.sub(P.sub(ngroups, P.const(1)), P.of(("grp", d))))
        return frozenset(out)

    def fresh(self, what: str, counter: bool = False) -> Poly:
        self.fresh_count += 1
        self.fresh_what[self.fresh_count] = what
        if counter:
            self.counters.add(self.fresh_count)
        return P.of(("free", self.fresh_count))

    def block(self, body: tuple[n.Stmt, ...], env: dict[str, Poly], facts: Facts) -> Facts:
        """Walk ``body``; ``env`` is updated in place; the facts that hold after it."""
        for s in body:
            facts = self.stmt(s, env, facts)
        return facts

    def stmt(self, s: n.Stmt, env: dict[str, Poly], facts: Facts) -> Facts:
        if isinstance(s, n.Assign):
            value = self.ev(s.value, env, facts)
            env[s.target] = value
            a = P.as_atom(value)
            if a is not None and a[0] != "free":
                self.names.setdefault(a, s.target)
        elif isinstance(s, n.Store):
            idx = tuple(self.ev(i, env, facts) for i in s.indices)
            self.ev(s.value, env, facts)
            self._site("store", s.array, idx, facts, s.loc, s.unsafe)
        elif isinstance(s, n.If):
            return self._if(s, env, facts)
        elif isinstance(s, n.ForRange):
            self._for(s, env, facts)
        elif isinstance(s, n.While):
            self._while(s, env, facts)
        elif isinstance(s, n.Barrier):
            self._new_segment()
        elif isinstance(s, n.Break | n.Continue):
            if self.loops:
                loop = self.loops[-1]
                (loop.breaks if isinstance(s, n.Break) else loop.continues).append(self.segment)
        elif isinstance(s, n.Return):
            if s.value is not None:
                value = self.ev(s.value, env, facts)
                frame = self.frames[-1]
                if frame.returns is not None:
                    frame.returns.append(value)
        elif isinstance(s, n.ExprStmt):
            self.ev(s.expr, env, facts)
        return facts

    def _site(self, kind: str, ref: n.ArrayRef, idx: tuple[Poly, ...], facts: Facts,
              loc: n.Loc | None, unsafe: bool) -> None:  # fmt: skip
        frame = self.frames[-1]
        root = frame.arrays.get(ref.name, ref.name)
        if root not in self.tracked or unsafe or self.unsafe or not self.recording:
            return
        lines = tuple(f.call_line for f in self.frames[1:] if f.call_line is not None)
        self.sites.append(Site(kind, root, self.tracked[root], idx, facts, self.segment, loc,
                               frame.fn.filename, frame.fn.name, lines))  # fmt: skip

    # -- control flow --------------------------------------------------------------------------

    def _if(self, s: n.If, env: dict[str, Poly], facts: Facts) -> Facts:
        self.ev(s.cond, env, facts)
        if_true = self.cond_facts(s.cond, True, env, facts)
        if_false = self.cond_facts(s.cond, False, env, facts)
        start = self.segment
        env_t, env_f = dict(env), dict(env)
        self.block(s.body, env_t, facts | if_true)
        end_t, self.segment = self.segment, start
        self.block(s.orelse, env_f, facts | if_false)
        self.union(end_t, self.segment)
        self.segment = self.find(self.segment)
        exits_t, exits_f = always_exits(s.body), always_exits(s.orelse)
        env.clear()
        if exits_t and not exits_f:
            env.update(env_f)
            return facts | if_false
        if exits_f and not exits_t:
            env.update(env_t)
            return facts | if_true
        env.update(self._merge(env_t, env_f))
        return facts

    def _merge(self, a: dict[str, Poly], b: dict[str, Poly]) -> dict[str, Poly]:
        out: dict[str, Poly] = {}
        for v in a.keys() | b.keys():
            pa, pb = a.get(v), b.get(v)
            out[v] = pa if pa is not None and pa == pb else self.fresh(f"the value of {v}")
        return out

    def _has_barrier(self, body: tuple[n.Stmt, ...]) -> bool:
        for s in walk_stmts(body):
            if isinstance(s, n.Barrier):
                return True
            for e in stmt_exprs(s):
                for c in calls_in(e):
                    if self._fn_has_barrier(c.callee):
                        return True
        return False

    def _fn_has_barrier(self, name: str) -> bool:
        if name not in self.barrier_fns:
            self.barrier_fns[name] = False  # no recursion in device functions; be safe
            self.barrier_fns[name] = self._has_barrier(self.module.function(name).body)
        return self.barrier_fns[name]

    def _loop_entry(self, body: tuple[n.Stmt, ...], env: dict[str, Poly], facts: Facts,
                    changed: set[str]) -> tuple[dict[str, Poly], Facts]:  # fmt: skip
        """The environment and facts at the start of any iteration: induction variables as
        ``v0 + s * t`` (``t >= 0`` fresh), everything else the loop changes fresh."""
        inside = dict(env)
        new: set[Poly] = set()
        for v in sorted(changed):
            steps = induction_steps(v, body, changed)
            if steps is None or v not in env:
                inside[v] = self.fresh(f"the value of {v} in the loop")
                continue
            value = env[v]
            for step, sign in steps:
                t = self.fresh(f"the number of times {v} was stepped", counter=True)
                new.add(t)
                value = P.add(value, P.mul(self.ev(step, env, facts), t), sign)
            inside[v] = value
        return inside, facts | new

    def _loop_exit(self, body: tuple[n.Stmt, ...], env: dict[str, Poly], facts: Facts,
                   changed: set[str]) -> None:  # fmt: skip
        after, _ = self._loop_entry(body, env, facts, changed)
        env.update(after)

    def _enter_loop(self) -> int:
        self.loops.append(_Loop())
        return self.segment

    def _leave_loop(self, head: int) -> None:
        """A loop walked once for all its iterations: its end and its exits continue the
        interval of its start (the next iteration, or the code after a loop that ran none)."""
        loop = self.loops.pop()
        for seg in (*loop.breaks, *loop.continues, self.segment):
            self.union(head, seg)
        self.segment = self.find(head)

    def _for(self, s: n.ForRange, env: dict[str, Poly], facts: Facts) -> None:
        start, stop, step = (self.ev(e, env, facts) for e in (s.start, s.stop, s.step))
        c0, c1, c2 = (P.as_const(x) for x in (start, stop, step))
        if self._has_barrier(s.body) and c0 is not None and c1 is not None and c2:
            values = range(c0, c1, c2)
            if len(values) <= self.budget:
                self.budget -= len(values)
                self._unrolled(s.body, env, facts, [{s.var: v} for v in values], s.var)
                return
        changed = assigned(s.body) | {s.var}
        inside, in_facts = self._loop_entry(s.body, env, facts, changed - {s.var})
        t = self.fresh(f"the iteration of the loop over {s.var}", counter=True)
        var = P.add(start, P.mul(step, t))
        inside[s.var] = var
        more: set[Poly] = {t}
        c = P.as_const(step)
        if (c is not None and c > 0) or (c is None and P.nonneg(P.sub(step, P.const(1)), facts)):
            more.add(P.sub(P.sub(stop, P.const(1)), var))
        elif c is not None and c < 0:
            more.add(P.sub(P.sub(var, stop), P.const(1)))
        head = self._enter_loop()
        self.block(s.body, inside, in_facts | more)
        self._leave_loop(head)
        self._loop_exit(s.body, env, facts, changed)

    def _while(self, s: n.While, env: dict[str, Poly], facts: Facts) -> None:
        if self._has_barrier(s.body):
            known = {v: c for v, p in env.items() if (c := P.as_const(p)) is not None}
            trips = constant_trips(s, known)
            if trips is not None and len(trips.entries) <= self.budget:
                self.budget -= len(trips.entries)
                entries = [dict(e) for e in trips.entries]
                self._unrolled(s.body, env, facts, entries, None, s.cond)
                return
        changed = assigned(s.body)
        inside, in_facts = self._loop_entry(s.body, env, facts, changed)
        self.ev(s.cond, inside, in_facts)
        in_facts = in_facts | self.cond_facts(s.cond, True, inside, in_facts)
        head = self._enter_loop()
        self.block(s.body, inside, in_facts)
        self._leave_loop(head)
        self._loop_exit(s.body, env, facts, changed)

    def _unrolled(self, body: tuple[n.Stmt, ...], env: dict[str, Poly], facts: Facts,
                  entries: list[dict[str, int]], var: str | None,
                  cond: n.Expr | None = None) -> None:  # fmt: skip
        """A loop with a barrier walked once per iteration, ``entries`` pinning its counters
        (the ``for`` variable, or a ``while`` loop's counters) at each iteration's start."""
        exits = any(isinstance(x, n.Break | n.Return) for x in walk_stmts(body))
        breaks: list[int] = []
        for values in entries:
            env.update({v: P.const(c) for v, c in values.items()})
            here = facts
            if cond is not None:
                self.ev(cond, env, facts)
                here = facts | self.cond_facts(cond, True, env, facts)
            self.loops.append(_Loop())
            self.block(body, env, here)
            loop = self.loops.pop()
            for seg in loop.continues:  # continues where the next iteration starts
                self.union(seg, self.segment)
            breaks.extend(loop.breaks)
        for seg in breaks:  # continues after the loop
            self.union(seg, self.segment)
        self.segment = self.find(self.segment)
        changed = assigned(body) | ({var} if var else set())
        if exits or var is not None:  # a work-item may have left early; the for variable is
            for v in changed:  # the last value, or unchanged when no iteration ran
                env[v] = self.fresh(f"the value of {v} after the loop")

    # -- conditions ----------------------------------------------------------------------------

    def cond_facts(self, cond: n.Expr, truth: bool, env: dict[str, Poly],
                   facts: Facts) -> Facts:  # fmt: skip
        """Facts (polynomials ``>= 0``) implied by ``cond`` evaluating to ``truth``."""
        if isinstance(cond, n.Unary) and cond.op == "not":
            return self.cond_facts(cond.operand, not truth, env, facts)
        if isinstance(cond, n.Logical):
            if (cond.op == "and") == truth:
                return self.cond_facts(cond.lhs, truth, env, facts) | self.cond_facts(
                    cond.rhs, truth, env, facts)  # fmt: skip
            return frozenset()
        if not (isinstance(cond, n.Compare) and is_int(cond.lhs.type)):
            return frozenset()
        op = cond.op if truth else NEGATE[cond.op]
        was, self.recording = self.recording, False
        try:
            lhs, rhs = self.ev(cond.lhs, env, facts), self.ev(cond.rhs, env, facts)
        finally:
            self.recording = was
        d = P.sub(lhs, rhs)
        if op == "lt":
            return frozenset({P.sub(P.scale(d, -1), P.const(1))})
        if op == "le":
            return frozenset({P.scale(d, -1)})
        if op == "gt":
            return frozenset({P.sub(d, P.const(1))})
        if op == "ge":
            return frozenset({d})
        if op == "eq":
            return frozenset({d, P.scale(d, -1)})
        return frozenset()

    # -- expressions ---------------------------------------------------------------------------

    def ev(self, e: n.Expr, env: dict[str, Poly], facts: Facts) -> Poly:
        """The polynomial of integer expression ``e`` (fresh when not modelled); records the
        sites of the calls and atomics in it."""
        if isinstance(e, n.Const):
            if isinstance(e.value, bool):
                return P.const(int(e.value))
            if isinstance(e.value, int):
                return P.const(e.value)
            return self.fresh("a float")
        if isinstance(e, n.Var):
            if e.name in env:
                return env[e.name]
            if self.frames[-1].fn.is_kernel:
                return P.of(("arg", e.name))
            return self.fresh(f"the value of {e.name}")
        if isinstance(e, n.WorkItem):
            return self.work_item(e)
        if isinstance(e, n.ShapeOf):
            root = self.frames[-1].arrays.get(e.array.name, e.array.name)
            static = e.array.type.static_shape
            if static is not None:
                return P.const(static[e.dim])
            return P.of(("shape", root, e.dim))
        if isinstance(e, n.Binary):
            return self._binary(e, env, facts)
        if isinstance(e, n.Unary):
            v = self.ev(e.operand, env, facts)
            if e.op == "neg" and is_int(e.type):
                return P.scale(v, -1)
            if e.op == "invert" and is_int(e.type):
                return P.sub(P.scale(v, -1), P.const(1))
            return self.fresh("a value")
        if isinstance(e, n.Cast):
            v = self.ev(e.value, env, facts)
            if P.as_const(v) is not None and is_int(e.type):
                return v
            if is_int(e.type) and is_int(e.value.type) and not narrow(e.type):
                return v
            return self.fresh(converted(e.type))
        if isinstance(e, n.Load):
            idx = tuple(self.ev(i, env, facts) for i in e.indices)
            root = self.frames[-1].arrays.get(e.array.name, e.array.name)
            if root in self.readonly and not any(P.poly_varies(i, False) for i in idx):
                return P.of(("load", root, idx))
            return self.fresh(f"a value read from {root}")
        if isinstance(e, n.AtomicRMW):
            idx = tuple(self.ev(i, env, facts) for i in e.indices)
            if e.compare is not None:  # cas: indices, compare, value (the IR's order)
                self.ev(e.compare, env, facts)
            self.ev(e.value, env, facts)
            self._site("atomic", e.array, idx, facts, e.loc, False)
            return self.fresh("the old value of an atomic")
        if isinstance(e, n.Call):
            return self._call(e, env, facts)
        if isinstance(e, n.Logical):
            self.ev(e.lhs, env, facts)
            self.ev(e.rhs, env, facts | self.cond_facts(e.lhs, e.op == "and", env, facts))
            return self.fresh("a truth value")
        if isinstance(e, n.Select):
            self.ev(e.cond, env, facts)
            a = self.ev(e.if_true, env, facts | self.cond_facts(e.cond, True, env, facts))
            b = self.ev(e.if_false, env, facts | self.cond_facts(e.cond, False, env, facts))
            return a if a == b else self.fresh("a conditional value")
        if isinstance(e, n.Compare):
            self.ev(e.lhs, env, facts)
            self.ev(e.rhs, env, facts)
            return self.fresh("a truth value")
        if isinstance(e, n.MathCall):
            for arg in e.args:
                self.ev(arg, env, facts)
            return self.fresh(f"{e.name}(...)")
        return self.fresh("a value")

    def work_item(self, e: n.WorkItem) -> Poly:
        d, s = e.dim, self.shape
        g, b, m = s.grid[d], s.block[d], s.groups[d]
        if e.name == "global_id":
            return P.of(("gid", d)) if g else P.ZERO
        if e.name == "local_id":
            return P.ZERO if not b else P.of(("gid", d) if not m else ("lid", d))
        if e.name == "group_id":
            return P.ZERO if not m else P.of(("gid", d) if not b else ("grp", d))
        if e.name == "global_size":
            return self._global_size(d) if g else P.const(1)
        if e.name == "local_size":
            if s.sizes is not None:
                return P.const(s.sizes[d])
            return P.const(1) if not b else (self._global_size(d) if not m else P.of(("lsize", d)))
        if e.name == "num_groups":
            return P.const(1) if not m else P.of(("gsize", d) if not b else ("ngroups", d))
        return self.fresh(e.name)

    def _global_size(self, d: int) -> Poly:
        """``global_size(d)``: the block itself when the launch gives one and it is the only
        group of that dimension (a grid is a multiple of its block)."""
        s = self.shape
        if s.sizes is not None and not s.groups[d]:
            return P.const(s.sizes[d])
        return P.of(("gsize", d))

    def _binary(self, e: n.Binary, env: dict[str, Poly], facts: Facts) -> Poly:
        a = self.ev(e.lhs, env, facts)
        b = self.ev(e.rhs, env, facts)
        if not is_int(e.type):
            return self.fresh("a value")
        if narrow(e.type):  # it wraps: not the exact integer the polynomial would say
            return self.fresh(converted(e.type))
        op = e.op
        if op == "add":
            return P.add(a, b)
        if op == "sub":
            return P.sub(a, b)
        if op == "mul":
            return P.mul(a, b)
        cb = P.as_const(b)
        if op == "lshift" and cb is not None and 0 <= cb < 62:
            return P.scale(a, 1 << cb)
        if op == "rshift" and cb is not None and 0 <= cb < 62:
            op, b, cb = "floordiv", P.const(1 << cb), 1 << cb
        if op in ("bitor", "bitxor"):
            low = low_bits(a, cb) if cb is not None else None
            if low is None and P.as_const(a) is not None:
                low = low_bits(b, P.as_const(a))
            if low is not None:  # (i << 1) | 1: the constant sets bits the other has clear
                return P.add(a, b)
        if op == "bitand" and cb is not None and cb >= 0 and (cb + 1) & cb == 0:
            op, b, cb = "mod", P.const(cb + 1), cb + 1  # x & (2**k - 1) == x % 2**k
        if op in ("floordiv", "mod"):
            ca = P.as_const(a)
            if cb is not None and cb > 0:
                if ca is not None:
                    return P.const(ca // cb if op == "floordiv" else ca % cb)
                if cb == 1:
                    return a if op == "floordiv" else P.ZERO
                if op == "floordiv" and P.divides(b, a):
                    return P.floor_div(a, cb)
                if op == "mod" and P.divides(b, a):
                    return P.ZERO
            if not P.poly_varies(b, False) and (cb is None or cb > 0):
                return P.of(("div" if op == "floordiv" else "mod", a, b))
            return self.fresh("a quotient")
        if not P.poly_varies(a, False) and not P.poly_varies(b, False):
            return P.of(("op", op, a, b))
        return self.fresh(f"the result of {SYMBOLS.get(op, op)}")

    def _call(self, e: n.Call, env: dict[str, Poly], facts: Facts) -> Poly:
        fn = self.module.function(e.callee)
        caller = self.frames[-1]
        arrays: dict[str, str] = {}
        inner: dict[str, Poly] = {}
        for p, a in zip(fn.params, e.args, strict=True):
            if isinstance(a, n.ArrayRef):
                arrays[p.name] = caller.arrays.get(a.name, a.name)
            else:
                inner[p.name] = self.ev(a, env, facts)
        if not self.recording:
            return self.fresh(f"the result of {fn.name}")
        frame = _Frame(fn, arrays, [], e.loc.line if e.loc is not None else None)
        self.frames.append(frame)
        self.unsafe += e.unsafe
        try:
            self.block(fn.body, inner, facts)
        finally:
            self.unsafe -= e.unsafe
            self.frames.pop()
        rets = frame.returns or []
        if rets and all(r == rets[0] for r in rets):
            return rets[0]
        return self.fresh(f"the result of {fn.name}")
