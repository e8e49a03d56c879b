"""Launch-time bounds-check specialisation: checks proven by a predicate over the launch.

``bounds.eliminate_redundant_checks`` proves checks from the kernel text alone. Many more
accesses are in range for a whole launch whenever some inequality between the grid, the array
shapes and the integer scalar arguments holds: in saxpy, ``x[i]`` (``i = global_id(0)`` under
``if i < y.shape[0]``) is in range when ``min(grid0, y.shape[0]) <= x.shape[0]``.
``specialise(module)`` finds those accesses and returns the kernel without their checks and
the ``Predicate`` under which that unchecked kernel behaves exactly like the checked one.

The analysis is a forward walk over the kernel (like ``bounds``) carrying facts
``("lo" | "hi", term, form)`` (``launch_terms``): the term (an integer local, a global id or a
tested pure expression such as ``start + j``) is ``>= form`` / ``<= form``, where a *form* is
an integer linear combination of launch quantities plus a constant (``Lin``). Launch
quantities are named ``grid0``..``grid2`` (the global size), ``block0``..``block2`` and
``groups0``..``groups2`` (upper bounds of the work-group size and group count, from the
launch's geometry header), ``shape:<array>:<dim>`` and ``arg:<param>`` (an integer scalar
parameter the kernel never assigns). Work-item ids are below the grid (a rounded-up grid's
surplus work-items return first; local and group ids are at most the global id), local ids
below the block and group ids below the group count. Each expression gets a set of
lower-bound and a set of upper-bound forms (``e >= each low``, ``e <= each high``) through i64
``+``, ``-``, multiplication by a constant (or by a value the facts pin to one), floor
division (``fdiv`` quantities, see ``launch_predicate``) and Python's modulo by a positive
constant, ``min``/``max`` and widening casts; comparisons (``<``, ``<=``, ``>``, ``>=``,
``not``, ``and``, the ``else`` of a test and early exits) add facts; ``for v in range(start,
stop, step)`` with a step positive by construction (``uniform_exprs.positive_step``) bounds
``v`` by ``start`` and ``stop - 1``; a ``while`` loop whose counters evolve from constants
(``launch_loops``) is analysed once per iteration with them pinned; assigning a variable
(or a loop assigning it) kills its facts.
Integer types narrower than i64 (``i32`` loop counters) take part through their variables,
constants, comparisons and casts to i64, never through their own (wrapping) arithmetic.

Soundness of the i64 arithmetic: every form kept has magnitude below ``2**62`` when each
quantity lies in ``[-2**40, 2**40]``, and the predicate requires exactly that of every quantity
the analysis read. Then no analysed expression wraps, so the facts about i64 values are facts
about integers, and an index whose low form is ``>= 0`` and high form ``<= shape - 1`` is in
range for every work-item.

A ``Predicate`` is a conjunction of clauses; a clause holds when any of its forms is ``>= 0``
(a form set's bound is a min or a max: ``min(a, b) <= s`` holds when ``a <= s`` or ``b <= s``).
``Predicate.compile`` turns it into a Python closure over ``(header, args)`` for the launch
path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from gpuoff.ir import nodes as n
from gpuoff.ir.bounds import always_exits, assigned
from gpuoff.ir.launch_loops import constant_trips
from gpuoff.ir.launch_predicate import (
    QUANTITY_LIMIT,
    Clause,
    Lin,
    Predicate,
    evaluate_lin,
    floor_div,
    format_lin,
    is_small,
    keep_forms,
    lin,
    lin_add,
    lin_scale,
    quantity,
)
from gpuoff.ir.launch_terms import (
    CONST_LIMIT,
    Bounds,
    Fact,
    Facts,
    Term,
    combine,
    drop_checks,
    exact,
    exact_int,
    exact_values,
    expr_term,
    kill,
    pinned,
    shared,
    small_const,
    split,
    term,
)
from gpuoff.ir.types import INDEX, ArrayType, ScalarType
from gpuoff.ir.uniform_exprs import positive_step

__all__ = ["Clause", "Lin", "Predicate", "evaluate_lin", "format_lin", "lin", "specialise"]


UNROLL_BUDGET = 4096
"""Loop iterations the analysis of one kernel may unroll (``launch_loops``) in all."""

_UNKNOWN: Bounds = (frozenset(), frozenset())
_LESS = {
    # op -> (swap operands, strict) for "lhs op rhs" true, and the same for it being false.
    True: {"lt": (False, True), "le": (False, False), "gt": (True, True), "ge": (True, False)},
    False: {"ge": (False, True), "gt": (False, False), "le": (True, True), "lt": (True, False)},
}


# --------------------------------------------------------------------------------------------
# The analysis
# --------------------------------------------------------------------------------------------


class _Analysis:
    def __init__(self, kernel: n.Function) -> None:
        changed = assigned(kernel.body)
        self.scalars = {
            p.name: p.type
            for p in kernel.params
            if isinstance(p.type, ScalarType) and p.name not in changed and exact_int(p.type)
        }
        self.arrays = {p.name for p in kernel.params if isinstance(p.type, ArrayType)}
        self.touched: set[str] = set()
        self.clauses: dict[int, list[Clause]] = {}
        self.failed: set[int] = set()
        self.budget = UNROLL_BUDGET

    # -- expressions ---------------------------------------------------------------------------

    def _leaf(self, name: str) -> Bounds:
        self.touched.add(name)
        f = quantity(name)
        return frozenset({f}), frozenset({f})

    def bounds(self, e: n.Expr, facts: Facts) -> Bounds:
        """Lower- and upper-bound forms of ``e``'s value for every work-item."""
        if isinstance(e, n.Const):
            if isinstance(e.value, bool) or not isinstance(e.value, int):
                return _UNKNOWN
            c = frozenset({lin(int(e.value))}) if abs(int(e.value)) <= CONST_LIMIT else frozenset()
            return c, c
        if isinstance(e, n.Cast):
            # widening to i64 keeps the value (narrowing would wrap)
            if e.type == INDEX and exact_int(e.value.type):
                return self.bounds(e.value, facts)
            return _UNKNOWN
        if not exact_int(e.type):
            return _UNKNOWN
        if isinstance(e, n.Var) and e.name in self.scalars:
            return self._leaf(f"arg:{e.name}")
        if isinstance(e, n.ShapeOf):
            if e.array.name in self.arrays:
                return self._leaf(f"shape:{e.array.name}:{e.dim}")
            static = e.array.type.static_shape
            if static is None:
                return _UNKNOWN
            c = frozenset({lin(static[e.dim])})
            return c, c
        if isinstance(e, n.WorkItem):
            return self._work_item(e, facts)
        t = term(e)
        if t is not None:
            return self._term_bounds(t, facts, frozenset(), frozenset())
        if isinstance(e, n.Binary):
            lows, highs = self._binary(e, facts)
            t = expr_term(e)  # and what a test of this very expression said
            return (lows, highs) if t is None else self._term_bounds(t, facts, lows, highs)
        if isinstance(e, n.MathCall) and e.name in ("min", "max") and len(e.args) == 2:
            return self._min_max(e.name == "min", e.args[0], e.args[1], facts)
        return _UNKNOWN

    def _min_max(self, is_min: bool, a: n.Expr, b: n.Expr, facts: Facts) -> Bounds:
        """``min(a, b)`` is at most every high of either and at least the lows both share
        (and the smaller of their best constant lows); ``max`` the other way round."""
        (la, ha), (lb, hb) = self.bounds(a, facts), self.bounds(b, facts)
        if is_min:
            return shared(la, lb, max, min), keep_forms(ha | hb)
        return keep_forms(la | lb), shared(ha, hb, min, max)

    def _work_item(self, e: n.WorkItem, facts: Facts) -> Bounds:
        if e.name == "global_size":
            return self._leaf(f"grid{e.dim}")
        zero = frozenset({lin(0)})
        if e.name not in ("global_id", "local_id", "group_id"):
            return zero, frozenset()  # sizes: never negative
        # A work-item that runs has global_id(d) < grid[d] (surplus ones of a rounded-up
        # grid return first), and its local and group ids are at most its global id.
        highs = {self._below(f"grid{e.dim}")}
        if e.name == "global_id":
            return self._term_bounds(("wi", e.dim), facts, zero, frozenset(highs))
        # ... and below the work-group size / number of groups (upper bounds of them: see
        # ``launch_predicate.header_quantity``; never used as their exact values)
        highs.add(self._below(f"{'block' if e.name == 'local_id' else 'groups'}{e.dim}"))
        return zero, frozenset(highs)

    def _below(self, name: str) -> Lin:
        """``name - 1``: the largest value below launch quantity ``name``."""
        self.touched.add(name)
        return lin_add(quantity(name), lin(-1))

    def _term_bounds(self, t: Term, facts: Facts, lows: frozenset[Lin],
                     highs: frozenset[Lin]) -> Bounds:  # fmt: skip
        lo = set(lows) | {f[2] for f in facts if f[0] == "lo" and f[1] == t}
        hi = set(highs) | {f[2] for f in facts if f[0] == "hi" and f[1] == t}
        return keep_forms(lo), keep_forms(hi)

    def _binary(self, e: n.Binary, facts: Facts) -> Bounds:
        if e.type != INDEX:
            return _UNKNOWN  # narrower integers wrap at their own width
        a = self.bounds(e.lhs, facts)
        b = self.bounds(e.rhs, facts)
        if e.op == "add":
            return combine(a[0], b[0], 1), combine(a[1], b[1], 1)
        if e.op == "sub":
            return combine(a[0], b[1], -1), combine(a[1], b[0], -1)
        if e.op == "mul":
            # by a constant, or by a value the facts pin to one (an unrolled loop's counter)
            for x, k in ((a, exact(b)), (b, exact(a))):
                if k is None:
                    continue
                lo, hi = (x[0], x[1]) if k >= 0 else (x[1], x[0])
                return keep_forms(lin_scale(f, k) for f in lo), keep_forms(
                    lin_scale(f, k) for f in hi
                )
        c = exact(b)  # a positive constant divisor (or one the facts pin)
        if c is None or c <= 0:
            return _UNKNOWN
        if e.op == "mod":  # floored: the remainder of a positive divisor is in [0, c - 1]
            return frozenset({lin(0)}), frozenset({lin(c - 1)})
        if e.op == "floordiv":  # monotone: floor(lo / c) <= e <= floor(hi / c)
            return self._floor_div(a[0], c), self._floor_div(a[1], c)
        return _UNKNOWN

    def _floor_div(self, forms: frozenset[Lin], c: int) -> frozenset[Lin]:
        out = [floor_div(f, c) for f in forms]
        self.touched.update(q for f in out for q, _ in f[0])
        return keep_forms(out)

    # -- conditions ----------------------------------------------------------------------------

    def cond_facts(self, cond: n.Expr, truth: bool, facts: Facts) -> Facts:
        """Facts implied by ``cond`` evaluating to ``truth``."""
        if isinstance(cond, n.Unary) and cond.op == "not":
            return self.cond_facts(cond.operand, not truth, facts)
        if isinstance(cond, n.Logical):
            if (cond.op == "and") == truth:
                first = self.cond_facts(cond.lhs, truth, facts)
                return first | self.cond_facts(cond.rhs, truth, facts | first)
            return frozenset()
        if isinstance(cond, n.Compare) and exact_int(cond.lhs.type):
            form = _LESS[truth].get(cond.op)
            if form is not None:
                swap, strict = form
                lhs, rhs = (cond.rhs, cond.lhs) if swap else (cond.lhs, cond.rhs)
                return self._less(lhs, rhs, 1 if strict else 0, facts)
        return frozenset()

    def _less(self, lhs: n.Expr, rhs: n.Expr, strict: int, facts: Facts) -> Facts:
        """Facts from ``lhs < rhs`` (``strict``) or ``lhs <= rhs``. ``t + c`` on the left
        only for ``c <= 0`` and on the right only for ``c >= 0``: a wrapped ``t + c`` would
        then make the comparison false (the other side is a small form)."""
        out: set[Fact] = set()
        sp = split(lhs)
        if sp is not None and sp[1] <= 0:
            for u in self.bounds(rhs, facts)[1]:
                out.add(("hi", sp[0], lin_add(u, lin(-sp[1] - strict))))
        sp = split(rhs)
        if sp is not None and sp[1] >= 0:
            for lo in self.bounds(lhs, facts)[0]:
                out.add(("lo", sp[0], lin_add(lo, lin(strict - sp[1]))))
        return frozenset(f for f in out if is_small(f[2]))

    # -- accesses ------------------------------------------------------------------------------

    def access(self, check: int | None, ref: n.ArrayRef, idx: Sequence[n.Expr],
               facts: Facts) -> None:  # fmt: skip
        if check is None:
            return
        clauses = self._access_clauses(ref, idx, facts)
        if clauses is None:
            self.failed.add(check)
        else:
            self.clauses.setdefault(check, []).extend(clauses)

    def _access_clauses(self, ref: n.ArrayRef, idx: Sequence[n.Expr],
                        facts: Facts) -> list[Clause] | None:  # fmt: skip
        """Clauses under which every index is in range, or None when there are none."""
        clauses: list[Clause] = []
        for d, e in enumerate(idx):
            if ref.name in self.arrays:
                self.touched.add(f"shape:{ref.name}:{d}")
                limit = lin_add(quantity(f"shape:{ref.name}:{d}"), lin(-1))
            elif ref.type.static_shape is not None:
                limit = lin(ref.type.static_shape[d] - 1)
            else:
                return None
            for forms in (*self._nonnegative(e, facts), *self._at_most(e, limit, facts)):
                if not forms:
                    return None
                if any(not f[0] and f[1] >= 0 for f in forms):
                    continue  # always true
                alive = tuple(sorted(f for f in forms if f[0]))
                if not alive:
                    return None  # always false: the check stays
                clauses.append(alive)
        return clauses

    def _nonnegative(self, e: n.Expr, facts: Facts) -> list[frozenset[Lin]]:
        """Form sets, one of each of which being ``>= 0`` makes ``e >= 0``. ``min(a, b)``
        needs both (a conjunction: clamped indices like ``max(min(i, n - 1), 0)``)."""
        if isinstance(e, n.MathCall) and e.name == "min" and e.type == INDEX:
            return [s for a in e.args for s in self._nonnegative(a, facts)]
        return [self.bounds(e, facts)[0]]

    def _at_most(self, e: n.Expr, limit: Lin, facts: Facts) -> list[frozenset[Lin]]:
        """Form sets, one of each of which being ``>= 0`` makes ``e <= limit``; ``max(a, b)``
        needs both."""
        if isinstance(e, n.MathCall) and e.name == "max" and e.type == INDEX:
            return [s for a in e.args for s in self._at_most(a, limit, facts)]
        return [frozenset(lin_add(limit, h, -1) for h in self.bounds(e, facts)[1])]

    # -- statements ----------------------------------------------------------------------------

    def expr(self, e: n.Expr, facts: Facts) -> None:
        """Visit the accesses in ``e`` under ``facts``."""
        if isinstance(e, n.Load | n.AtomicRMW):
            for i in e.indices:
                self.expr(i, facts)
            if isinstance(e, n.AtomicRMW):
                if e.compare is not None:
                    self.expr(e.compare, facts)
                self.expr(e.value, facts)
            self.access(e.check, e.array, e.indices, facts)
        elif isinstance(e, n.Logical):
            self.expr(e.lhs, facts)
            self.expr(e.rhs, facts | self.cond_facts(e.lhs, e.op == "and", facts))
        elif isinstance(e, n.Select):
            self.expr(e.cond, facts)
            self.expr(e.if_true, facts | self.cond_facts(e.cond, True, facts))
            self.expr(e.if_false, facts | self.cond_facts(e.cond, False, facts))
        elif isinstance(e, n.Unary):
            self.expr(e.operand, facts)
        elif isinstance(e, n.Binary | n.Compare):
            self.expr(e.lhs, facts)
            self.expr(e.rhs, facts)
        elif isinstance(e, n.Cast):
            self.expr(e.value, facts)
        elif isinstance(e, n.MathCall):
            for a in e.args:
                self.expr(a, facts)
        elif isinstance(e, n.Call):
            for arg in e.args:
                if isinstance(arg, n.Expr):
                    self.expr(arg, facts)

    def block(self, body: tuple[n.Stmt, ...], facts: Facts) -> Facts:
        for s in body:
            facts = self.stmt(s, facts)
        return facts

    def stmt(self, s: n.Stmt, facts: Facts) -> Facts:
        """Visit ``s`` under ``facts``; the facts that hold after it."""
        if isinstance(s, n.Assign):
            self.expr(s.value, facts)
            after = kill(facts, {s.target})
            if exact_int(s.value.type):
                lows, highs = self.bounds(s.value, facts)
                t: Term = ("var", s.target)
                after |= {("lo", t, f) for f in lows} | {("hi", t, f) for f in highs}
            return after
        if isinstance(s, n.Store):
            for i in s.indices:
                self.expr(i, facts)
            self.expr(s.value, facts)
            self.access(s.check, s.array, s.indices, facts)
        elif isinstance(s, n.If):
            return self._if(s, facts)
        elif isinstance(s, n.While):
            return self._while(s, facts)
        elif isinstance(s, n.ForRange):
            return self._for(s, facts)
        elif isinstance(s, n.Return) and s.value is not None:
            self.expr(s.value, facts)
        elif isinstance(s, n.ExprStmt):
            self.expr(s.expr, facts)
        return facts

    def _if(self, s: n.If, facts: Facts) -> Facts:
        self.expr(s.cond, facts)
        if_true = self.cond_facts(s.cond, True, facts)
        if_false = self.cond_facts(s.cond, False, facts)
        self.block(s.body, facts | if_true)
        self.block(s.orelse, facts | if_false)
        after = kill(facts, assigned(s.body) | assigned(s.orelse))
        # An early exit in one branch means the code after the If saw the other outcome.
        if always_exits(s.body) and not always_exits(s.orelse):
            after |= kill(if_false, assigned(s.orelse))
        elif always_exits(s.orelse) and not always_exits(s.body):
            after |= kill(if_true, assigned(s.body))
        return after

    def _while(self, s: n.While, facts: Facts) -> Facts:
        """Once per iteration with the counters pinned when the loop unrolls (see
        ``launch_loops``; a check is proven when every iteration's clauses are), else once
        with everything the body assigns unknown."""
        inside = kill(facts, assigned(s.body))
        trips = constant_trips(s, exact_values(facts))
        if trips is None or len(trips.entries) > self.budget:
            self.expr(s.cond, inside)
            self.block(s.body, inside | self.cond_facts(s.cond, True, inside))
            return inside
        self.budget -= len(trips.entries)
        for values in trips.entries:
            here = inside.union(*(pinned(v, c) for v, c in values.items() if small_const(c)))
            self.expr(s.cond, here)
            self.block(s.body, here | self.cond_facts(s.cond, True, here))
        if trips.exit is None:
            return inside
        return inside.union(*(pinned(v, c) for v, c in trips.exit.items() if small_const(c)))

    def _for(self, s: n.ForRange, facts: Facts) -> Facts:
        for e in (s.start, s.stop, s.step):
            self.expr(e, facts)
        changed = assigned(s.body) | {s.var}
        inside = kill(facts, changed)
        if positive_step(s.step) and exact_int(s.start.type):
            # start and stop are evaluated once, before the loop, under the outer facts; each
            # iteration's value lies in [start, stop - 1] (in-body assignments are killed).
            t: Term = ("var", s.var)
            inside |= {("lo", t, f) for f in self.bounds(s.start, facts)[0]}
            inside |= {("hi", t, lin_add(f, lin(-1))) for f in self.bounds(s.stop, facts)[1]}
        self.block(s.body, inside)
        return kill(facts, changed)


# --------------------------------------------------------------------------------------------
# The rewrite
# --------------------------------------------------------------------------------------------


def _implies(a: Clause, b: Clause) -> bool:
    """Each form of ``a`` is at most some form of ``b`` with the same terms."""
    return all(any(g[0] == f[0] and g[1] >= f[1] for g in b) for f in a)


def _simplify(clause: Clause) -> Clause:
    """Drop each form another one of the clause dominates (same terms, larger constant)."""
    best: dict[tuple[tuple[str, int], ...], int] = {}
    for terms, const in clause:
        best[terms] = max(const, best.get(terms, const))
    return tuple(sorted(best.items()))


def specialise(module: n.Module) -> tuple[n.Module, Predicate] | None:
    """``(unchecked_module, predicate)``: the kernel without the checks ``predicate`` proves
    for a launch (ids and ``Module.checks`` unchanged), or None when it proves none (or the
    module has no checks). Device functions keep theirs."""
    if not module.boundscheck:
        return None
    analysis = _Analysis(module.kernel)
    analysis.block(module.kernel.body, frozenset())
    removed = sorted(set(analysis.clauses) - analysis.failed)
    if not removed:
        return None
    clauses: set[Clause] = set()
    for check in removed:
        clauses.update(_simplify(c) for c in analysis.clauses[check])
    clauses = {c for c in clauses if not any(o != c and _implies(o, c) for o in clauses)}
    quantities = sorted(analysis.touched)
    # every quantity read stays small (so nothing the analysis reasoned about wrapped)
    limits: list[Clause] = [(lin(QUANTITY_LIMIT, **{q: -1}),) for q in quantities]
    signed = ("arg:", "fdiv:")  # grids and shapes are never negative
    limits += [(lin(QUANTITY_LIMIT, **{q: 1}),) for q in quantities if q.startswith(signed)]
    ordered = sorted(clauses, key=lambda c: (len(c), repr(c)))
    predicate = Predicate(tuple(ordered + limits), tuple(removed), tuple(quantities))
    kernel = replace(module.kernel, body=drop_checks(module.kernel.body, frozenset(removed)))
    return replace(module, kernel=kernel), predicate
