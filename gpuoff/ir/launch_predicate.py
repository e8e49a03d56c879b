"""Launch-time predicates: linear forms over named launch quantities, and their conjunction
of disjunctions (``Predicate``), evaluated per launch by a generated closure.

A *form* (``Lin``) is ``sum(coeff * quantity) + const`` over quantities named ``grid0``..
``grid2`` (the launch's global size), ``block0``..``block2`` and ``groups0``..``groups2`` (upper
bounds of the work-group size and of the number of groups, see ``header_quantity``),
``shape:<array>:<dim>`` and ``arg:<param>`` (an integer scalar argument) and
``fdiv:<c>:<form>``, the floor of another form divided by a positive constant ``c``
(``floor_div``: index arithmetic like ``i // TILE``). A ``Predicate`` holds when every clause
holds, and a clause holds when any of its forms is ``>= 0``. ``gpuoff.ir.launch_checks``
derives them; the runtime compiles each one once (``Predicate.compile``) into a function of
``(header, args)``, ``header`` being the launch's geometry ``(grid0, grid1, grid2, block0,
block1, block2, groups0, groups1, groups2)`` (``Launch.geometry``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Lin = tuple[tuple[tuple[str, int], ...], int]
"""``sum(coeff * quantity) + const``: terms sorted by quantity name, no zero coefficients."""
Clause = tuple[Lin, ...]
QUANTITY_LIMIT = 1 << 40
"""Every launch quantity the analysis read must lie in ``[-QUANTITY_LIMIT, QUANTITY_LIMIT]``
for the predicate to hold (real grids, shapes and sizes are far smaller)."""
FORM_LIMIT = 1 << 62
"""Forms whose value can reach this magnitude (given ``QUANTITY_LIMIT``) are dropped."""
MAX_FORMS = 4
"""At most this many forms per bound (the cheapest kept), so clauses stay short."""
IMPLICIT_BLOCK_ITEMS = 0
"""The predicate trusts a header's block (and group counts) when it has more work-items than
this. The runtime hands the predicate a header whose block and group counts are 0 when the
launch gave no block and the device may run another one than its ``default_block`` (OpenCL
lets the driver choose, CUDA picks its threads per block): ``Launch.geometry``. Any other
header's block is the one that runs. Tests in tests/backends/test_launch_checks.py check
that on every device."""
HEADER_QUANTITIES = {
    **{f"grid{d}": d for d in range(3)},
    **{f"block{d}": 3 + d for d in range(3)},
    **{f"groups{d}": 6 + d for d in range(3)},
}
"""Quantity name -> its slot in the launch's geometry header."""
# --------------------------------------------------------------------------------------------
# Linear forms
# --------------------------------------------------------------------------------------------


def header_quantity(q: str, header: Sequence[int]) -> int:
    """The value of header quantity ``q`` for a launch with geometry ``header``.

    ``grid<d>`` is exact. ``block<d>`` and ``groups<d>`` are *upper bounds* (the analysis
    only ever bounds ids from above by them): the header's values when its block has more than
    ``IMPLICIT_BLOCK_ITEMS`` work-items (the block that runs), else ``QUANTITY_LIMIT``, which
    bounds every real size and makes any clause needing a smaller value fail."""
    slot = HEADER_QUANTITIES[q]
    if slot < 3 or header[3] * header[4] * header[5] > IMPLICIT_BLOCK_ITEMS:
        return int(header[slot])
    return QUANTITY_LIMIT


def lin(const: int = 0, **terms: int) -> Lin:
    """A form from a constant and ``quantity=coefficient`` pairs (tests, readable goldens)."""
    return _norm(dict(terms), const)


def _norm(terms: Mapping[str, int], const: int) -> Lin:
    return tuple(sorted((q, c) for q, c in terms.items() if c)), const


def quantity(name: str) -> Lin:
    """The form ``1 * name``."""
    return ((name, 1),), 0


def floor_div(a: Lin, c: int) -> Lin:
    """``floor(a / c)`` for ``c > 0``: a constant when ``a`` is one, else the derived quantity
    ``fdiv:<c>:<a>`` (monotone in ``a``, so it carries ``a``'s bounds over)."""
    assert c > 0
    if not a[0]:
        return lin(a[1] // c)
    return quantity(f"fdiv:{c}:{a!r}")


def derived(q: str) -> tuple[int, Lin] | None:
    """``(c, form)`` of a ``fdiv`` quantity, else None."""
    kind, _, rest = q.partition(":")
    if kind != "fdiv":
        return None
    c, _, text = rest.partition(":")
    form: Lin = ast.literal_eval(text)
    return int(c), form


def closure(quantities: Iterable[str]) -> list[str]:
    """``quantities`` and every quantity their derived ones read, each after what it reads."""
    out: dict[str, None] = {}

    def visit(q: str) -> None:
        if q in out:
            return
        d = derived(q)
        if d is not None:
            for inner, _ in d[1][0]:
                visit(inner)
        out[q] = None

    for q in sorted(quantities):
        visit(q)
    return list(out)


def lin_add(a: Lin, b: Lin, sign: int = 1) -> Lin:
    """``a + sign * b``."""
    terms = dict(a[0])
    for q, c in b[0]:
        terms[q] = terms.get(q, 0) + sign * c
    return _norm(terms, a[1] + sign * b[1])


def lin_scale(a: Lin, k: int) -> Lin:
    """``k * a``."""
    return _norm({q: c * k for q, c in a[0]}, a[1] * k)


def is_small(a: Lin) -> bool:
    """``|a| < FORM_LIMIT`` whenever every quantity is within ``QUANTITY_LIMIT``."""
    return sum(abs(c) for _, c in a[0]) * QUANTITY_LIMIT + abs(a[1]) < FORM_LIMIT


def keep_forms(forms: Iterable[Lin]) -> frozenset[Lin]:
    """The small ones of ``forms``, at most ``MAX_FORMS`` (fewest quantities first)."""
    ok = sorted({f for f in forms if is_small(f)}, key=lambda f: (len(f[0]), repr(f)))
    return frozenset(ok[:MAX_FORMS])


def evaluate_lin(form: Lin, values: Mapping[str, int]) -> int:
    """The value of ``form`` with each quantity taken from ``values``."""
    return sum(c * values[q] for q, c in form[0]) + form[1]


def readable(q: str) -> str:
    """A quantity as the user writes it: ``grid[0]``, ``x.shape[1]``, ``n``."""
    kind, _, rest = q.partition(":")
    d = derived(q)
    if d is not None:
        return f"({_value(d[1], {p: readable(p) for p, _ in d[1][0]})}) // {d[0]}"
    if kind in HEADER_QUANTITIES:
        return f"{kind[:-1]}[{kind[-1]}]"
    if kind == "shape":
        name, _, dim = rest.rpartition(":")
        return f"{name}.shape[{dim}]"
    return rest


def format_lin(form: Lin) -> str:
    """``form >= 0`` as readable text, e.g. ``x.shape[0] >= grid[0]``, ``n <= 2**40``."""
    text = _expr(form, {q: readable(q) for q, _ in form[0]})
    return text.replace(str(QUANTITY_LIMIT), "2**40")


# --------------------------------------------------------------------------------------------
# The predicate
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Predicate:
    """When every clause holds (some form of it is ``>= 0``), the checks ``removed`` cannot
    fail in a launch. ``quantities``: every launch quantity named, sorted."""

    clauses: tuple[Clause, ...]
    removed: tuple[int, ...]
    quantities: tuple[str, ...]

    def evaluate(self, values: Mapping[str, int]) -> bool:
        """Whether the predicate holds for these quantity values (the slow, plain form)."""
        return all(any(evaluate_lin(f, values) >= 0 for f in cl) for cl in self.clauses)

    def values(self, header: Sequence[int], args: Mapping[str, Any]) -> dict[str, int]:
        """The quantity values of a launch with geometry ``header`` (grid, block, groups) and
        arguments named in ``args`` (arrays: anything with ``.shape``; scalars: ints)."""
        out: dict[str, int] = {}
        for q in closure(self.quantities):
            kind, _, rest = q.partition(":")
            d = derived(q)
            if d is not None:
                out[q] = evaluate_lin(d[1], out) // d[0]
            elif kind in HEADER_QUANTITIES:
                out[q] = header_quantity(kind, header)
            elif kind == "shape":
                name, _, dim = rest.rpartition(":")
                out[q] = int(args[name].shape[int(dim)])
            else:
                out[q] = int(args[rest])
        return out

    def compile(self, params: Sequence[str]) -> Callable[[Sequence[int], Sequence[Any]], bool]:
        """A closure ``(header, args) -> bool`` (``header``: the launch's geometry, ``args`` in
        the order of ``params``, arrays with ``.shape``), generated once: a few comparisons
        per launch."""
        index = {p: i for i, p in enumerate(params)}
        names = {q: f"q{k}" for k, q in enumerate(closure(self.quantities))}
        lines = ["def holds(g, a):"]
        if any(q[:-1] in ("block", "groups") for q in names):
            # a header block of 0s: the block that runs is not known (IMPLICIT_BLOCK_ITEMS)
            lines.append(f"    exact = g[3] * g[4] * g[5] > {IMPLICIT_BLOCK_ITEMS}")
        for q, v in names.items():
            kind, _, rest = q.partition(":")
            d = derived(q)
            if d is not None:  # after the quantities it reads (``closure``'s order)
                lines.append(f"    {v} = ({_value(d[1], names)}) // {d[0]}")
            elif kind.startswith("grid"):
                lines.append(f"    {v} = g[{int(kind[4:])}]")
            elif kind in HEADER_QUANTITIES:
                slot = HEADER_QUANTITIES[kind]
                lines.append(f"    {v} = g[{slot}] if exact else {QUANTITY_LIMIT}")
            elif kind == "shape":
                name, _, dim = rest.rpartition(":")
                lines.append(f"    {v} = a[{index[name]}].shape[{int(dim)}]")
            else:
                lines.append(f"    {v} = int(a[{index[rest]}])")
        terms = []
        for cl in self.clauses:
            alts = [_expr(f, names) for f in cl]
            terms.append(alts[0] if len(alts) == 1 else "(" + " or ".join(alts) + ")")
        lines.append("    return " + (" and ".join(terms) if terms else "True"))
        scope: dict[str, Any] = {}
        exec("\n".join(lines), scope)  # noqa: S102 - generated from our own forms only
        fn: Callable[[Sequence[int], Sequence[Any]], bool] = scope["holds"]
        return fn

    def __str__(self) -> str:
        parts = [" or ".join(format_lin(f) for f in cl) for cl in self.clauses]
        return (
            " and ".join(
                f"({p})" if len(cl) > 1 else p for p, cl in zip(parts, self.clauses, strict=True)
            )
            or "true"
        )


def _value(form: Lin, names: Mapping[str, str]) -> str:
    """``form``'s value as a Python expression: ``q0 - 1``, ``2*q1 + q0``."""
    parts = [names[q] if c == 1 else f"{c}*{names[q]}" for q, c in form[0]]
    text = " + ".join(parts).replace("+ -", "- ") or "0"
    if form[1]:
        text += f" {'+' if form[1] > 0 else '-'} {abs(form[1])}"
    return text


def _expr(form: Lin, names: Mapping[str, str]) -> str:
    """``form >= 0`` as a short Python comparison: ``q1 >= q0``, ``q0 <= 1099511627776``."""

    def side(terms: list[tuple[str, int]], const: int) -> str:
        text = " + ".join(names[q] if c == 1 else f"{c}*{names[q]}" for q, c in terms)
        if not text:
            return str(const)
        return text if const == 0 else f"{text} {'+' if const > 0 else '-'} {abs(const)}"

    pos = [(q, c) for q, c in form[0] if c > 0]
    neg = [(q, -c) for q, c in form[0] if c < 0]
    if not pos:
        return f"{side(neg, 0)} <= {form[1]}"
    return f"{side(pos, 0)} >= {side(neg, -form[1])}"
