"""What the race walk (``race_walk``) asks of single expressions and loop bodies: the
sub-expressions and calls of a value, whether it is pure, a variable's induction steps
(``v = v + s`` in a loop), and the integer facts of bitwise operators and narrow types."""

from __future__ import annotations

from collections.abc import Iterator

from gpuoff.ir import nodes as n
from gpuoff.ir import race_poly as P
from gpuoff.ir.race_poly import Poly
from gpuoff.ir.walk import walk_stmts

NEGATE = {"lt": "ge", "le": "gt", "gt": "le", "ge": "lt", "eq": "ne", "ne": "eq"}


def is_int(t: object) -> bool:
    """Whether ``t`` is an integer type."""
    return getattr(t, "is_int", False) is True


SYMBOLS = {"bitor": "|", "bitxor": "^", "bitand": "&", "lshift": "<<", "rshift": ">>",
            "pow": "**", "floordiv": "//", "mod": "%"}
"""Python's operator for an IR operator, for the words of a refusal."""


def low_bits(p: Poly, c: int | None) -> int | None:
    """``c`` when ``0 <= c < 2**k`` and ``p`` is a multiple of ``2**k`` (``p | c`` and
    ``p ^ c`` are then ``p + c``), else None."""
    if c is None or c < 0:
        return None
    return c if c == 0 or P.divides(P.const(1 << c.bit_length()), p) else None


def narrow(t: object) -> bool:
    """An 8- or 16-bit integer: its values wrap within the sizes of real grids (two
    work-items 256 apart get one i8), so it is not modelled as an exact integer. (32- and
    64-bit values are, as the bounds analysis takes them: a grid has fewer than 2**31
    work-items.)"""
    return is_int(t) and getattr(t, "bits", 64) < 32


def converted(t: object) -> str:
    """How a refusal names a value converted to ``t``."""
    return f"a value converted to {t}" if narrow(t) else "a converted value"


def subexprs(e: n.Expr) -> Iterator[n.Expr]:
    """``e`` and every expression inside it (by its fields: new node kinds are covered)."""
    yield e
    for name in e.__dataclass_fields__:
        v = getattr(e, name)
        if isinstance(v, n.Expr):
            yield from subexprs(v)
        elif isinstance(v, tuple):
            for x in v:
                if isinstance(x, n.Expr):
                    yield from subexprs(x)


def calls_in(e: n.Expr) -> Iterator[n.Call]:
    """The device-function calls inside ``e``."""
    for x in subexprs(e):
        if isinstance(x, n.Call):
            yield x


def induction_steps(v: str, body: tuple[n.Stmt, ...],
                     changed: set[str]) -> list[tuple[n.Expr, int]] | None:  # fmt: skip
    """The steps ``(s, +1 | -1)`` of ``v`` when every assignment of ``v`` in ``body`` is
    ``v = v + s`` / ``v = s + v`` / ``v = v - s`` with ``s`` pure and unchanged by the loop."""
    steps: list[tuple[n.Expr, int]] = []
    for s in walk_stmts(body):
        if isinstance(s, n.ForRange) and s.var == v:
            return None
        if not (isinstance(s, n.Assign) and s.target == v):
            continue
        e = s.value
        if not (isinstance(e, n.Binary) and e.op in ("add", "sub") and is_int(e.type)):
            return None
        me = n.Var(e.type, v)
        if e.lhs == me:
            step, sign = e.rhs, 1 if e.op == "add" else -1
        elif e.rhs == me and e.op == "add":
            step, sign = e.lhs, 1
        else:
            return None
        if not pure(step, changed):
            return None
        if (step, sign) not in steps:
            steps.append((step, sign))
    return steps


def pure(e: n.Expr, changed: set[str]) -> bool:
    """Whether ``e`` loads nothing, calls nothing and reads no variable in ``changed``."""
    for x in subexprs(e):
        if isinstance(x, n.Load | n.Call | n.AtomicRMW):
            return False
        if isinstance(x, n.Var) and x.name in changed:
            return False
    return True

