"""Bounds checks: the one ``BoundsError`` message formatter, and redundant-check elimination.

``eliminate_redundant_checks`` drops ``check`` from accesses whose every index is proven to
lie in ``[0, shape[d])``. The proof is a forward walk over each function carrying the set of
facts that hold at the current point; a *term* is an INDEX variable (``("var", name)``) or a
work-item query (``("wi", name, dim)``: constant per work-item, never negative), a *base* is
an array dimension (``("shape", array, dim)``) or ``("zero",)``:

* ``("ge", term, m)``: ``term >= m``;
* ``("lt", term, base, k)``: ``term < base - k``;
* ``("eq", term, base, k)``: ``term == base - k`` (``rows = a.shape[0]``, ``n = 16``).

An index ``term + c`` is in range for dimension ``d`` of ``a`` when ``term >= m`` with
``m + c >= 0`` and ``term < a.shape[d] - k`` with ``c <= k`` (or ``term < -k`` with
``c - k <= static_shape[d]`` for shared arrays). So ``i`` under ``if i < a.shape[0]``,
``a[i - 1]`` under ``if i > 0`` and ``a[i + 1]`` under ``if i < rows - 1`` are proven.

Facts come from assignments (``v = global_id(0)``, ``v = a.shape[0]``, ``v = w - 1``), from
conditions (``<``, ``<=``, ``>``, ``>=``, ``not``, ``and``-conjunctions, the negation in
``else`` and after an early ``if ...: return``/``continue``/``break`` guard, the left operand
of ``and``/``or`` for the right one, a ``Select``'s condition for its arms), and from
``for v in range(start, stop, step)`` with a step positive by construction (a constant, the
grid's sizes: ``gpuoff.ir.uniform_exprs.positive_step``). Soundness: assigning a
variable kills every fact about it; entering a loop kills the facts about every variable the
loop body assigns, except a lower bound ``v >= m`` that every assignment of ``v`` in the body
preserves (``v = v + w`` with ``0 <= w`` a work-item size or a small constant while ``v`` is
below an array bound: grid-stride loops; work-item ids and sizes are assumed below 2**48);
facts learnt inside a branch end with it; offsets and constants are
limited to ``+-2**32`` and only forms that cannot wrap in i64 are used (``term - c`` for lower
bounds, ``term + c`` with ``c <= 0`` on the left of ``<``). Removed checks stay in
``Module.checks`` so ids are stable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import SupportsInt, TypeVar

from gpuoff.errors import BarrierError, BoundsError, GpuoffError
from gpuoff.ir import nodes as n
from gpuoff.ir.source_lines import caret_block
from gpuoff.ir.types import INDEX
from gpuoff.ir.uniform_exprs import positive_step

Term = tuple[str, ...]
Bound = tuple[object, ...]
Fact = tuple[object, ...]
Facts = frozenset[Fact]
_T = TypeVar("_T")


def bounds_error_message(
    module: n.Module,
    check_id: int,
    indices: Sequence[SupportsInt],
    shape: Sequence[SupportsInt],
) -> str:
    """The ``BoundsError`` message for check ``check_id`` failing with ``indices`` on an array
    of ``shape``, e.g. ``index (10,) out of range for x with shape (8,) in kernel saxpy at
    file.py:12: y[i] = a * x[i]``. Every backend formats its error record with this."""
    c = module.check(int(check_id))
    idx = tuple(int(i) for i in indices)
    shp = tuple(int(s) for s in (shape if c.shape is None else c.shape))
    if c.pairs:  # a complex element: its part's index is not the user's
        idx, shp = idx[:-1], shp[:-1]
    where = f"kernel {module.name}"
    if c.function != module.name:
        where = f"function {c.function} (called from kernel {module.name})"
    text = f"index {idx} out of range for {c.array} with shape {shp} in {where} at "
    text += f"{c.filename}:{c.line}"
    source = c.source.strip()
    text = f"{text}: {source}" if source else text
    return text + caret_block(c.filename, c.line, c.col, source)


def item_id(global_id: Sequence[int], global_size: Sequence[int]) -> int:
    """A work-item's linear id, ``x + sx * (y + sy * z)`` (dimension 0 fastest)."""
    return global_id[0] + global_size[0] * (global_id[1] + global_size[1] * global_id[2])


def failure_order(item: int, check: int) -> tuple[int, int]:
    """Which failed check a launch reports: the one that sorts first by this key. The lowest
    work-item (``item_id``) first: as if work-items ran one after another, in id order; of that
    work-item's failures, the lowest check id (the first access in the source); of that
    check's failures (a loop), the first. Every backend and the interpreter follow it: a
    record is replaced only by a failure whose key is strictly smaller."""
    return (item, check)


def barrier_error_message(module: n.Module, check_id: int) -> str:
    """The ``BarrierError`` message for the run-time uniformity check ``check_id`` (a check of
    kind ``"barrier"``, ``gpuoff.ir.barrier_votes``)."""
    c = module.check(int(check_id))
    text = (f"the condition at {c.filename}:{c.line} in kernel {module.name} had different "
            "values in the work-items of one work-group, and it decides whether they reach a "
            "barrier (or skip one): every work-item of a group must reach the same barriers. "
            "The group went on with its first work-item's value, so this launch's results "
            "are not meaningful")  # fmt: skip
    source = c.source.strip()
    text = f"{text}: {source}" if source else text
    return text + caret_block(c.filename, c.line, c.col, source)


def launch_error(
    module: n.Module,
    check_id: int,
    indices: Sequence[SupportsInt],
    shape: Sequence[SupportsInt],
) -> GpuoffError:
    """The error a launch raises for the error record of check ``check_id``: a
    ``BoundsError`` (``bounds_error_message``), or a ``BarrierError`` for a check of kind
    ``"barrier"``. Every backend turns its error record into an exception with this."""
    if module.check(int(check_id)).kind == "barrier":
        return BarrierError(barrier_error_message(module, check_id))
    return BoundsError(bounds_error_message(module, check_id, indices, shape))


# --------------------------------------------------------------------------------------------
# Facts from expressions
# --------------------------------------------------------------------------------------------


LIMIT = 1 << 32
"""Offsets and constant bounds used in proofs stay within +-LIMIT, and shapes are far below
2**62, so no i64 expression the proofs reason about can wrap."""

ZERO: Bound = ("zero",)


def _term(e: n.Expr) -> Term | None:
    if isinstance(e, n.Var) and e.type == INDEX:
        return ("var", e.name)
    if isinstance(e, n.WorkItem):
        return ("wi", e.name, str(e.dim))
    return None


def _const(e: n.Expr) -> int | None:
    if isinstance(e, n.Const) and e.type == INDEX and not isinstance(e.value, bool):
        v = int(e.value)
        return v if -LIMIT <= v <= LIMIT else None
    return None


def _split(e: n.Expr) -> tuple[Term, int] | None:
    """``e`` as ``term + c`` (``i``, ``i + 1``, ``1 + i``, ``i - 1``)."""
    t = _term(e)
    if t is not None:
        return t, 0
    if isinstance(e, n.Binary) and e.type == INDEX and e.op in ("add", "sub"):
        rc, lc = _const(e.rhs), _const(e.lhs)
        if rc is not None and (t := _term(e.lhs)) is not None:
            return t, rc if e.op == "add" else -rc
        if e.op == "add" and lc is not None and (t := _term(e.rhs)) is not None:
            return t, lc
    return None


def _base(e: n.Expr, facts: Facts) -> tuple[Bound, int] | None:
    """``e`` as ``base - k``: an array dimension (or zero) minus a small constant."""
    if isinstance(e, n.ShapeOf):
        return ("shape", e.array.name, e.dim), 0
    c = _const(e)
    if c is not None:
        return ZERO, -c
    t = _term(e)
    if t is not None:
        for f in facts:
            if f[0] == "eq" and f[1] == t:
                return f[2], int(f[3])  # type: ignore[return-value,call-overload]
        return None
    if isinstance(e, n.Binary) and e.type == INDEX and e.op in ("add", "sub"):
        rc, lc = _const(e.rhs), _const(e.lhs)
        if rc is not None and (inner := _base(e.lhs, facts)) is not None:
            k = inner[1] + (rc if e.op == "sub" else -rc)
            return (inner[0], k) if -LIMIT <= k <= LIMIT else None
        if e.op == "add" and lc is not None and (inner := _base(e.rhs, facts)) is not None:
            k = inner[1] - lc
            return (inner[0], k) if -LIMIT <= k <= LIMIT else None
    return None


def _lower(e: n.Expr, facts: Facts) -> int | None:
    """A lower bound of ``e``'s value (within +-LIMIT), or None."""
    if isinstance(e, n.WorkItem | n.ShapeOf):
        return 0
    c = _const(e)
    if c is not None:
        return c
    sp = _split(e)
    if sp is None or sp[1] > 0:
        return None  # term + c could wrap for c > 0; term - c from a small bound cannot
    lo = _term_lower(sp[0], facts)
    return None if lo is None or lo + sp[1] < -LIMIT else lo + sp[1]


def _term_lower(t: Term, facts: Facts) -> int | None:
    if t[0] == "wi":
        return 0
    best = [int(f[2]) for f in facts if f[0] == "ge" and f[1] == t]  # type: ignore[call-overload]
    best += [-int(f[3]) for f in facts if f[0] == "eq" and f[1] == t]  # type: ignore[call-overload]
    return max(best) if best else None


def _less(lhs: n.Expr, rhs: n.Expr, strict: bool, facts: Facts) -> Facts:
    """Facts implied by ``lhs < rhs`` (``strict``) or ``lhs <= rhs`` being true."""
    out: set[Fact] = set()
    sp, bound = _split(lhs), _base(rhs, facts)
    # term + c < base - k  =>  term < base - (k + c); only for c <= 0 (term - |c| never
    # wraps past the bound, term + c could).
    if sp is not None and bound is not None and sp[1] <= 0:
        k = bound[1] + sp[1] - (0 if strict else 1)
        if -LIMIT <= k <= LIMIT:
            out.add(("lt", sp[0], bound[0], k))
    # lo <= lhs < term + c  =>  term >= lo + 1 - c; only for c >= 0 (term + c never wraps
    # below a small lower bound, term - c could).
    sp_r, lo = _split(rhs), _lower(lhs, facts)
    if sp_r is not None and lo is not None and sp_r[1] >= 0:
        m = lo + (1 if strict else 0) - sp_r[1]
        if -LIMIT <= m <= LIMIT:
            out.add(("ge", sp_r[0], m))
    return frozenset(out)


_COMPARE_AS_LESS = {
    # op -> (swap operands, strict) for "lhs op rhs" true, and the same for it being false.
    True: {"lt": (False, True), "le": (False, False), "gt": (True, True), "ge": (True, False)},
    False: {"ge": (False, True), "gt": (False, False), "le": (True, True), "lt": (True, False)},
}


def cond_facts(cond: n.Expr, truth: bool, facts: Facts = frozenset()) -> Facts:
    """Facts implied by ``cond`` evaluating to ``truth`` (``facts``: what held before)."""
    if isinstance(cond, n.Unary) and cond.op == "not":
        return cond_facts(cond.operand, not truth, facts)
    if isinstance(cond, n.Logical):
        if (cond.op == "and") == truth:
            # "a and b" true, or "a or b" false: both sides' facts hold (b saw a's).
            first = cond_facts(cond.lhs, truth, facts)
            return first | cond_facts(cond.rhs, truth, facts | first)
        return frozenset()
    if isinstance(cond, n.Compare) and cond.lhs.type == INDEX:
        form = _COMPARE_AS_LESS[truth].get(cond.op)
        if form is not None:
            swap, strict = form
            lhs, rhs = (cond.rhs, cond.lhs) if swap else (cond.lhs, cond.rhs)
            return _less(lhs, rhs, strict, facts)
    return frozenset()


def _in_range(e: n.Expr, ref: n.ArrayRef, dim: int, facts: Facts) -> bool:
    static = ref.type.static_shape
    c = _const(e)
    if c is not None:
        return static is not None and 0 <= c < static[dim]
    sp = _split(e)
    if sp is None:
        return False
    t, off = sp
    lo = _term_lower(t, facts)
    if lo is None or lo + off < 0:
        return False
    for f in facts:
        if f[0] != "lt" or f[1] != t:
            continue
        base, k = f[2], int(f[3])  # type: ignore[call-overload]
        if base == ("shape", ref.name, dim) and off <= k:
            return True
        if base == ZERO and static is not None and off - k <= static[dim]:
            return True
    return False


def _kill(facts: Facts, names: set[str]) -> Facts:
    return frozenset(f for f in facts if not (f[1][0] == "var" and f[1][1] in names))  # type: ignore[index]


# --------------------------------------------------------------------------------------------
# Assigned variables
# --------------------------------------------------------------------------------------------


def _walk_stmts(body: tuple[n.Stmt, ...]) -> Iterator[n.Stmt]:
    for s in body:
        yield s
        if isinstance(s, n.If):
            yield from _walk_stmts(s.body)
            yield from _walk_stmts(s.orelse)
        elif isinstance(s, n.ForRange | n.While):
            yield from _walk_stmts(s.body)


def assigned(body: tuple[n.Stmt, ...]) -> set[str]:
    """Every variable assigned (``Assign`` target or ``ForRange`` variable) in ``body``."""
    out: set[str] = set()
    for s in _walk_stmts(body):
        if isinstance(s, n.Assign):
            out.add(s.target)
        elif isinstance(s, n.ForRange):
            out.add(s.var)
    return out


def always_exits(body: tuple[n.Stmt, ...]) -> bool:
    """True when control never falls off the end of ``body``."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, n.Return | n.Break | n.Continue):
        return True
    if isinstance(last, n.If):
        return always_exits(last.body) and always_exits(last.orelse)
    return False


# --------------------------------------------------------------------------------------------
# The rewrite
# --------------------------------------------------------------------------------------------


class _Eliminator:
    def __init__(self) -> None:
        self.removed: set[int] = set()
        # Loop invariants being assumed ("v >= m" for v the loop body assigns) and the
        # variables whose assignments were found not to preserve theirs.
        self.assumed: dict[str, int] = {}
        self.violated: set[str] = set()

    def loop(
        self, facts: Facts, changed: set[str], analyse: Callable[[Facts], _T]
    ) -> tuple[_T, Facts]:
        """Run ``analyse`` on a loop body with the entry facts minus what the body changes,
        plus each surviving lower bound ``v >= m`` that every assignment of ``v`` in the body
        provably preserves (``v = v + w``, ``0 <= w`` small, ``v`` below an array bound so it
        cannot wrap). Assume them all, drop the violated ones, repeat until none is."""
        candidates = {v: lo for v in changed if (lo := _term_lower(("var", v), facts)) is not None}
        outer_assumed, outer_violated = self.assumed, self.violated
        while True:
            self.assumed = {**outer_assumed, **candidates}
            self.violated = set()
            inside = _kill(facts, changed) | {("ge", ("var", v), m) for v, m in candidates.items()}
            result = analyse(inside)
            bad = self.violated & set(candidates)
            if not bad:
                break
            candidates = {v: m for v, m in candidates.items() if v not in bad}
        self.assumed = outer_assumed
        self.violated = outer_violated | self.violated
        return result, inside

    def _assign(self, s: n.Assign, facts: Facts) -> Facts:
        after = _assign_facts(s, facts)
        m = self.assumed.get(s.target)
        if m is None:
            return after
        if _safe_increment(s, facts):
            return after | {("ge", ("var", s.target), m)}
        self.violated.add(s.target)
        return after

    def expr(self, e: n.Expr, facts: Facts) -> n.Expr:
        if isinstance(e, n.Load | n.AtomicRMW):
            idx = tuple(self.expr(i, facts) for i in e.indices)
            check = self._check(e.check, e.array, idx, facts)
            if isinstance(e, n.AtomicRMW):
                cmp = None if e.compare is None else self.expr(e.compare, facts)
                return replace(e, indices=idx, value=self.expr(e.value, facts), check=check,
                               compare=cmp)  # fmt: skip
            return replace(e, indices=idx, check=check)
        if isinstance(e, n.Logical):
            lhs = self.expr(e.lhs, facts)
            # The rhs runs only when the lhs did not decide: true for "and", false for "or".
            rhs = self.expr(e.rhs, facts | cond_facts(e.lhs, e.op == "and", facts))
            return replace(e, lhs=lhs, rhs=rhs)
        if isinstance(e, n.Select):
            return replace(
                e,
                cond=self.expr(e.cond, facts),
                if_true=self.expr(e.if_true, facts | cond_facts(e.cond, True, facts)),
                if_false=self.expr(e.if_false, facts | cond_facts(e.cond, False, facts)),
            )
        if isinstance(e, n.Unary):
            return replace(e, operand=self.expr(e.operand, facts))
        if isinstance(e, n.Binary | n.Compare):
            return replace(e, lhs=self.expr(e.lhs, facts), rhs=self.expr(e.rhs, facts))
        if isinstance(e, n.Cast):
            return replace(e, value=self.expr(e.value, facts))
        if isinstance(e, n.MathCall):
            return replace(e, args=tuple(self.expr(a, facts) for a in e.args))
        if isinstance(e, n.Call):
            args = tuple(a if isinstance(a, n.ArrayRef) else self.expr(a, facts) for a in e.args)
            return replace(e, args=args)
        return e

    def _check(
        self, check: int | None, ref: n.ArrayRef, idx: tuple[n.Expr, ...], facts: Facts
    ) -> int | None:
        if check is None:
            return None
        if all(_in_range(i, ref, d, facts) for d, i in enumerate(idx)):
            self.removed.add(check)
            return None
        return check

    def block(self, body: tuple[n.Stmt, ...], facts: Facts) -> tuple[n.Stmt, ...]:
        out: list[n.Stmt] = []
        for s in body:
            new, facts = self.stmt(s, facts)
            out.append(new)
        return tuple(out)

    def stmt(self, s: n.Stmt, facts: Facts) -> tuple[n.Stmt, Facts]:
        """Rewrite ``s`` under ``facts``; return it with the facts that hold after it."""
        if isinstance(s, n.Assign):
            value = self.expr(s.value, facts)
            return replace(s, value=value), self._assign(s, facts)
        if isinstance(s, n.Store):
            idx = tuple(self.expr(i, facts) for i in s.indices)
            check = self._check(s.check, s.array, idx, facts)
            return replace(s, indices=idx, value=self.expr(s.value, facts), check=check), facts
        if isinstance(s, n.If):
            return self._if(s, facts)
        if isinstance(s, n.While):

            def analyse(inside: Facts) -> n.Stmt:
                cond = self.expr(s.cond, inside)
                body = self.block(s.body, inside | cond_facts(s.cond, True, inside))
                return replace(s, cond=cond, body=body)

            changed = assigned(s.body)
            new, _ = self.loop(facts, changed, analyse)
            return new, _kill(facts, changed)
        if isinstance(s, n.ForRange):
            return self._for(s, facts)
        if isinstance(s, n.Return) and s.value is not None:
            return replace(s, value=self.expr(s.value, facts)), facts
        if isinstance(s, n.ExprStmt):
            return replace(s, expr=self.expr(s.expr, facts)), facts
        return s, facts

    def _if(self, s: n.If, facts: Facts) -> tuple[n.Stmt, Facts]:
        cond = self.expr(s.cond, facts)
        if_true, if_false = cond_facts(s.cond, True, facts), cond_facts(s.cond, False, facts)
        body = self.block(s.body, facts | if_true)
        orelse = self.block(s.orelse, facts | if_false)
        after = _kill(facts, assigned(s.body) | assigned(s.orelse))
        # An early exit in one branch means the code after the If saw the other outcome.
        if always_exits(s.body) and not always_exits(s.orelse):
            after |= _kill(if_false, assigned(s.orelse))
        elif always_exits(s.orelse) and not always_exits(s.body):
            after |= _kill(if_true, assigned(s.body))
        return replace(s, cond=cond, body=body, orelse=orelse), after

    def _for(self, s: n.ForRange, facts: Facts) -> tuple[n.Stmt, Facts]:
        start = self.expr(s.start, facts)
        stop = self.expr(s.stop, facts)
        step = self.expr(s.step, facts)
        changed = assigned(s.body) | {s.var}
        if s.var in self.assumed:
            self.violated.add(s.var)  # an inner range loop rebinds an assumed variable
        loop_facts: Facts = frozenset()
        if positive_step(s.step) and s.start.type == INDEX:
            # start and stop are evaluated once, before the loop: judge them with the outer
            # facts. Each iteration's value lies in [start, stop) and is reassigned by the
            # loop itself, so in-body assignments only matter after them (killed there).
            t: Term = ("var", s.var)
            lo = _lower(s.start, facts)
            if lo is not None:
                loop_facts |= {("ge", t, lo)}
            bound = _base(s.stop, facts)
            if bound is not None:
                loop_facts |= {("lt", t, bound[0], bound[1])}
        # The loop variable is rebound by the loop each iteration: never an invariant.
        others = assigned(s.body) - {s.var}
        entry = _kill(facts, {s.var})
        body, _ = self.loop(entry, others, lambda inside: self.block(s.body, inside | loop_facts))
        return replace(s, start=start, stop=stop, step=step, body=body), _kill(facts, changed)


SMALL = 1 << 48
"""Work-item ids and sizes are assumed below this (real grids are far smaller), so adding one
to an index below an array bound (< 2**62) cannot wrap an i64."""


def _small(e: n.Expr, facts: Facts) -> bool:
    """``0 <= e < SMALL``: a work-item query, a small constant, or a variable holding one."""
    if isinstance(e, n.WorkItem):
        return True
    c = _const(e)
    if c is not None:
        return c >= 0
    t = _term(e)
    return t is not None and ("small", t) in facts


def _safe_increment(s: n.Assign, facts: Facts) -> bool:
    """``v = v + w`` (or ``w + v``) with small ``w >= 0`` while ``v`` is below an array
    bound: the new value is >= the old one and cannot wrap."""
    v, e = s.target, s.value
    if not (isinstance(e, n.Binary) and e.op == "add" and e.type == INDEX):
        return False
    if e.lhs == n.Var(INDEX, v):
        w = e.rhs
    elif e.rhs == n.Var(INDEX, v):
        w = e.lhs
    else:
        return False
    bounded = any(f[0] == "lt" and f[1] == ("var", v) for f in facts)
    return bounded and _small(w, facts)


def _assign_facts(s: n.Assign, facts: Facts) -> Facts:
    """Facts after ``s``: the old ones about the target die; its new value's bounds hold."""
    after = _kill(facts, {s.target})
    if s.value.type != INDEX:
        return after
    t: Term = ("var", s.target)
    lo = _lower(s.value, facts)
    if lo is not None:
        after |= {("ge", t, lo)}
    base = _base(s.value, facts)
    if base is not None:
        after |= {("eq", t, base[0], base[1])}
    if _small(s.value, facts):
        after |= {("small", t)}
    return after


def eliminate_redundant_checks(module: n.Module) -> n.Module:
    """``module`` with ``check`` removed from every access proven in range (see module doc)."""
    functions = []
    for fn in (module.kernel, *module.functions):
        el = _Eliminator()
        functions.append(replace(fn, body=el.block(fn.body, frozenset())))
    return replace(module, kernel=functions[0], functions=tuple(functions[1:]))
