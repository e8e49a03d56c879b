"""Terms and facts of the launch-time check analysis (``gpuoff.ir.launch_checks``).

A *term* is what facts are about:

* ``("var", name)``: an integer local or scalar parameter;
* ``("wi", dim)``: ``global_id(dim)``;
* ``("expr", e, names)``: a pure integer expression ``e`` that is neither (``start + j``: no
  load, atomic or call in it), with ``names`` the variables it reads. ``if start + j < n``
  bounds the value of that very expression, which an index ``x[start + j]`` computes again:
  the same value as long as none of ``names`` is assigned in between.

A fact is ``("lo" | "hi", term, form)``: the term is ``>= form`` / ``<= form``. ``kill`` drops
the facts about variables being assigned (and about expressions reading them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from gpuoff.ir import nodes as n
from gpuoff.ir.launch_predicate import Lin, keep_forms, lin, lin_add
from gpuoff.ir.types import INDEX, ScalarType

Term = tuple[object, ...]
Fact = tuple[str, Term, Lin]
Facts = frozenset[Fact]
Bounds = tuple[frozenset[Lin], frozenset[Lin]]
"""An expression's lower- and upper-bound forms."""

CONST_LIMIT = 1 << 32
"""Constants taking part in the analysis stay within ``+-CONST_LIMIT``."""

_PURE = (n.Var, n.Const, n.WorkItem, n.ShapeOf, n.Binary, n.Unary, n.Cast, n.MathCall)


def exact_int(t: ScalarType) -> bool:
    """An integer type whose every value is the same number as an i64 (not u64)."""
    return t.is_int and (t.is_signed or t.bits < 64)


def as_const(e: n.Expr) -> int | None:
    """``e``'s value when it is a small integer constant."""
    if isinstance(e, n.Const) and exact_int(e.type) and not isinstance(e.value, bool):
        v = int(e.value)
        return v if abs(v) <= CONST_LIMIT else None
    return None


def _reads(e: n.Expr) -> Iterator[n.Expr]:
    """``e`` and every expression under it."""
    yield e
    if isinstance(e, n.Binary):
        yield from _reads(e.lhs)
        yield from _reads(e.rhs)
    elif isinstance(e, n.Unary):
        yield from _reads(e.operand)
    elif isinstance(e, n.Cast):
        yield from _reads(e.value)
    elif isinstance(e, n.MathCall):
        for a in e.args:
            yield from _reads(a)


def expr_term(e: n.Expr) -> Term | None:
    """``("expr", e, names)`` for a pure i64 ``Binary`` (see the module doc), else None."""
    if not (isinstance(e, n.Binary) and e.type == INDEX):
        return None
    parts = list(_reads(e))
    if not all(isinstance(x, _PURE) for x in parts):
        return None
    return ("expr", e, frozenset(x.name for x in parts if isinstance(x, n.Var)))


def term(e: n.Expr) -> Term | None:
    """The variable or global id ``e`` is, else None."""
    if isinstance(e, n.Var) and exact_int(e.type):
        return ("var", e.name)
    if isinstance(e, n.WorkItem) and e.name == "global_id":
        return ("wi", e.dim)
    return None


def split(e: n.Expr) -> tuple[Term, int] | None:
    """``e`` as ``term + c`` with a small constant ``c`` (``i``, ``i + 1``, ``1 + i``,
    ``i - 1``), or as an expression term plus zero."""
    t = term(e)
    if t is not None:
        return t, 0
    if isinstance(e, n.Binary) and e.type == INDEX and e.op in ("add", "sub"):
        rc, lc = as_const(e.rhs), as_const(e.lhs)
        if rc is not None and (t := term(e.lhs)) is not None:
            return t, rc if e.op == "add" else -rc
        if e.op == "add" and lc is not None and (t := term(e.rhs)) is not None:
            return t, lc
    t = expr_term(e)
    return None if t is None else (t, 0)


def kill(facts: Facts, names: set[str]) -> Facts:
    """``facts`` without those about the variables ``names`` (or expressions reading one)."""
    if not names:
        return facts
    return frozenset(f for f in facts if not _about(f[1], names))


def _about(t: Term, names: set[str]) -> bool:
    if t[0] == "var":
        return t[1] in names
    if t[0] == "expr":
        return not names.isdisjoint(t[2])  # type: ignore[arg-type]
    return False


def exact_values(facts: Facts) -> dict[str, int]:
    """The variables ``facts`` pin to one constant (a constant low equal to a constant high)."""
    lows: dict[str, int] = {}
    highs: dict[str, int] = {}
    for kind, t, form in facts:
        if t[0] != "var" or form[0] or not isinstance(t[1], str):
            continue
        if kind == "lo":
            lows[t[1]] = max(form[1], lows.get(t[1], form[1]))
        else:
            highs[t[1]] = min(form[1], highs.get(t[1], form[1]))
    return {v: c for v, c in lows.items() if highs.get(v) == c}


def pinned(name: str, value: int) -> Facts:
    """The facts ``name == value``."""
    t: Term = ("var", name)
    return frozenset({("lo", t, lin(value)), ("hi", t, lin(value))})


# --------------------------------------------------------------------------------------------
# Bound sets and the rewrite
# --------------------------------------------------------------------------------------------


def combine(a: frozenset[Lin], b: frozenset[Lin], sign: int) -> frozenset[Lin]:
    """Every ``x + sign * y`` of ``x`` in ``a`` and ``y`` in ``b`` (the small ones)."""
    return keep_forms(lin_add(x, y, sign) for x in a for y in b)


def shared(x: frozenset[Lin], y: frozenset[Lin], best: Callable[[list[int]], int],
            pick: Callable[[int, int], int]) -> frozenset[Lin]:  # fmt: skip
    """Bounds that hold for both of two values with bound sets ``x`` and ``y``: the forms in
    both, and ``pick`` of each set's ``best`` constant (min of the max constant lows)."""
    out = set(x & y)
    cx, cy = [f[1] for f in x if not f[0]], [f[1] for f in y if not f[0]]
    if cx and cy:
        out.add(lin(pick(best(cx), best(cy))))
    return keep_forms(out)


def small_const(c: int) -> bool:
    """``|c| <= CONST_LIMIT``."""
    return abs(c) <= CONST_LIMIT


def exact(b: Bounds) -> int | None:
    """The one value bounds ``b`` allow (a constant low equal to a constant high), if any."""
    lows, highs = [f[1] for f in b[0] if not f[0]], [f[1] for f in b[1] if not f[0]]
    if lows and highs and max(lows) == min(highs) and abs(min(highs)) <= CONST_LIMIT:
        return min(highs)
    return None


def drop_checks(e: Any, ids: frozenset[int]) -> Any:
    """``e`` (an expression or statement) with the checks in ``ids`` removed."""
    if isinstance(e, tuple):
        return tuple(drop_checks(x, ids) for x in e)
    if not isinstance(e, n.Expr | n.Stmt):
        return e
    changes: dict[str, Any] = {}
    for name in e.__dataclass_fields__:
        if name == "loc":
            continue
        value = getattr(e, name)
        new = drop_checks(value, ids)
        if name == "check" and value in ids:
            new = None
        if new is not value:
            changes[name] = new
    return replace(e, **changes) if changes else e
