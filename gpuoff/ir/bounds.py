"""Bounds checks: the one ``BoundsError`` message formatter, and redundant-check elimination.

``eliminate_redundant_checks`` drops ``check`` from accesses whose every index is proven to
lie in ``[0, shape[d])``. The proof is a forward walk over each function carrying a set of
facts that hold at the current point:

* ``("nonneg", term)``: the term's value is >= 0;
* ``("lt", term, bound)``: the term's value is < ``bound``.

A term is a variable (``("var", name)``) or a work-item query (``("wi", name, dim)``, constant
for a work-item and never negative). A bound is an array dimension (``("shape", array, dim)``)
or an integer constant (``("const", c)``, useful for shared arrays of static shape).

Facts come from work-item ids (``v = global_id(0)``), from conditions (``if v < a.shape[0]``,
``not (v >= len(a))``, ``and``-conjunctions, the negation in ``else`` and after an early
``if v >= a.shape[0]: return`` guard), and from ``for v in range(start, a.shape[k], step)`` with
a positive constant step and a non-negative start. Soundness: assigning a variable kills every
fact about it; entering a loop kills the facts about every variable the loop body assigns (its
value may come from an earlier iteration); facts learnt inside a branch end with the branch.
Removed checks stay in ``Module.checks`` so ids are stable.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import SupportsInt

from gpuoff.ir import nodes as n
from gpuoff.ir.types import INDEX

Term = tuple[str, ...]
Bound = tuple[object, ...]
Fact = tuple[object, ...]
Facts = frozenset[Fact]


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
    shp = tuple(int(s) for s in shape)
    where = f"kernel {module.name}"
    if c.function != module.name:
        where = f"function {c.function} (called from kernel {module.name})"
    text = f"index {idx} out of range for {c.array} with shape {shp} in {where} at "
    text += f"{c.filename}:{c.line}"
    source = c.source.strip()
    return f"{text}: {source}" if source else text


# --------------------------------------------------------------------------------------------
# Facts from expressions
# --------------------------------------------------------------------------------------------


def _term(e: n.Expr) -> Term | None:
    if isinstance(e, n.Var) and e.type == INDEX:
        return ("var", e.name)
    if isinstance(e, n.WorkItem):
        return ("wi", e.name, str(e.dim))
    return None


def _bound(e: n.Expr) -> Bound | None:
    if isinstance(e, n.ShapeOf):
        return ("shape", e.array.name, e.dim)
    if isinstance(e, n.Const) and e.type == INDEX and not isinstance(e.value, bool):
        return ("const", int(e.value))
    return None


def _less(lhs: n.Expr, rhs: n.Expr) -> Facts:
    """Facts implied by ``lhs < rhs`` being true."""
    t, b = _term(lhs), _bound(rhs)
    if t is None or b is None:
        return frozenset()
    return frozenset({("lt", t, b)})


def cond_facts(cond: n.Expr, truth: bool) -> Facts:
    """Facts implied by ``cond`` evaluating to ``truth``."""
    if isinstance(cond, n.Unary) and cond.op == "not":
        return cond_facts(cond.operand, not truth)
    if isinstance(cond, n.Logical):
        if (cond.op == "and") == truth:
            # "a and b" true, or "a or b" false: both sides' facts hold.
            return cond_facts(cond.lhs, truth) | cond_facts(cond.rhs, truth)
        return frozenset()
    if isinstance(cond, n.Compare):
        lt_true = {"lt": (0, 1), "gt": (1, 0)}
        lt_false = {"ge": (0, 1), "le": (1, 0)}
        table = lt_true if truth else lt_false
        if cond.op in table:
            a, b = table[cond.op]
            ops = (cond.lhs, cond.rhs)
            return _less(ops[a], ops[b])
    return frozenset()


def _nonneg(e: n.Expr, facts: Facts) -> bool:
    if isinstance(e, n.WorkItem | n.ShapeOf):
        return True
    if isinstance(e, n.Const) and not isinstance(e.value, bool):
        return int(e.value) >= 0
    t = _term(e)
    return t is not None and ("nonneg", t) in facts


def _in_range(e: n.Expr, ref: n.ArrayRef, dim: int, facts: Facts) -> bool:
    if not _nonneg(e, facts):
        return False
    static = ref.type.static_shape
    if isinstance(e, n.Const) and static is not None:
        return int(e.value) < static[dim]
    t = _term(e)
    if t is None:
        return False
    if ("lt", t, ("shape", ref.name, dim)) in facts:
        return True
    if static is not None:
        return any(f[0] == "lt" and f[1] == t and _const_le(f[2], static[dim]) for f in facts)
    return False


def _const_le(b: object, limit: int) -> bool:
    return isinstance(b, tuple) and b[0] == "const" and int(b[1]) <= limit


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


def _always_exits(body: tuple[n.Stmt, ...]) -> bool:
    """True when control never falls off the end of ``body``."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, n.Return | n.Break | n.Continue):
        return True
    if isinstance(last, n.If):
        return _always_exits(last.body) and _always_exits(last.orelse)
    return False


# --------------------------------------------------------------------------------------------
# The rewrite
# --------------------------------------------------------------------------------------------


class _Eliminator:
    def __init__(self) -> None:
        self.removed: set[int] = set()

    def expr(self, e: n.Expr, facts: Facts) -> n.Expr:
        if isinstance(e, n.Load | n.AtomicRMW):
            idx = tuple(self.expr(i, facts) for i in e.indices)
            check = self._check(e.check, e.array, idx, facts)
            if isinstance(e, n.AtomicRMW):
                return replace(e, indices=idx, value=self.expr(e.value, facts), check=check)
            return replace(e, indices=idx, check=check)
        if isinstance(e, n.Logical):
            lhs = self.expr(e.lhs, facts)
            # The rhs runs only when the lhs did not decide: true for "and", false for "or".
            rhs = self.expr(e.rhs, facts | cond_facts(e.lhs, e.op == "and"))
            return replace(e, lhs=lhs, rhs=rhs)
        if isinstance(e, n.Select):
            return replace(
                e,
                cond=self.expr(e.cond, facts),
                if_true=self.expr(e.if_true, facts | cond_facts(e.cond, True)),
                if_false=self.expr(e.if_false, facts | cond_facts(e.cond, False)),
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
            after = _kill(facts, {s.target})
            if _nonneg(value, facts):
                after |= {("nonneg", ("var", s.target))}
            return replace(s, value=value), after
        if isinstance(s, n.Store):
            idx = tuple(self.expr(i, facts) for i in s.indices)
            check = self._check(s.check, s.array, idx, facts)
            return replace(s, indices=idx, value=self.expr(s.value, facts), check=check), facts
        if isinstance(s, n.If):
            return self._if(s, facts)
        if isinstance(s, n.While):
            inside = _kill(facts, assigned(s.body))
            cond = self.expr(s.cond, inside)
            body = self.block(s.body, inside | cond_facts(s.cond, True))
            return replace(s, cond=cond, body=body), inside
        if isinstance(s, n.ForRange):
            return self._for(s, facts)
        if isinstance(s, n.Return) and s.value is not None:
            return replace(s, value=self.expr(s.value, facts)), facts
        if isinstance(s, n.ExprStmt):
            return replace(s, expr=self.expr(s.expr, facts)), facts
        return s, facts

    def _if(self, s: n.If, facts: Facts) -> tuple[n.Stmt, Facts]:
        cond = self.expr(s.cond, facts)
        body = self.block(s.body, facts | cond_facts(s.cond, True))
        orelse = self.block(s.orelse, facts | cond_facts(s.cond, False))
        after = _kill(facts, assigned(s.body) | assigned(s.orelse))
        # An early exit in one branch means the code after the If saw the other outcome.
        if _always_exits(s.body) and not _always_exits(s.orelse):
            after |= _kill(cond_facts(s.cond, False), assigned(s.orelse))
        elif _always_exits(s.orelse) and not _always_exits(s.body):
            after |= _kill(cond_facts(s.cond, True), assigned(s.body))
        return replace(s, cond=cond, body=body, orelse=orelse), after

    def _for(self, s: n.ForRange, facts: Facts) -> tuple[n.Stmt, Facts]:
        start = self.expr(s.start, facts)
        stop = self.expr(s.stop, facts)
        step = self.expr(s.step, facts)
        changed = assigned(s.body) | {s.var}
        inside = _kill(facts, changed)
        positive_step = (
            isinstance(s.step, n.Const) and not isinstance(s.step.value, bool) and s.step.value > 0
        )
        if positive_step and s.start.type == INDEX:
            var = n.Var(INDEX, s.var)
            # start/stop were evaluated before the loop, so judge them with the outer facts;
            # a start naming a variable the body changes is not trusted.
            start_ok = _nonneg(s.start, facts) and not (
                isinstance(s.start, n.Var) and s.start.name in changed
            )
            if start_ok:
                inside |= {("nonneg", ("var", s.var))}
            inside |= _less(var, s.stop)
        body = self.block(s.body, inside)
        return replace(s, start=start, stop=stop, step=step, body=body), _kill(facts, changed)


def eliminate_redundant_checks(module: n.Module) -> n.Module:
    """``module`` with ``check`` removed from every access proven in range (see module doc)."""
    functions = []
    for fn in (module.kernel, *module.functions):
        el = _Eliminator()
        functions.append(replace(fn, body=el.block(fn.body, frozenset())))
    return replace(module, kernel=functions[0], functions=tuple(functions[1:]))
