"""Abstract values for the host-code analysis: which buffer an expression may denote.

A ``Site`` stands for one object the analysis can tell apart from others: a parameter, a
global, what one expression allocates, an attribute of another site, an element of a
container. A ``Ref`` is a site seen through a chain of views (``a[1:]``, ``m[:, 0]``). A move
kills every handle that shares bytes with the moved one (its views, and the base of a moved
view), so a moved ``Ref`` makes every overlapping one dead.

Overlap of two views of one site follows the runtime's test (``np.shares_memory``: the
element sets): two index tuples are disjoint when, in some dimension, their index sets are
provably disjoint. Bounds are constants or linear in integer variables (``a[:n]`` and
``a[n:]``, ``a[i]`` and ``a[i + 1]``); anything else may overlap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

Symbol = tuple[int, object]
"""An integer variable as a bound: (id of its ``Var``, the definition that reaches here)."""


@dataclass(frozen=True)
class Lin:
    """``const + sum(coef * symbol)``: an index bound."""

    const: int
    terms: tuple[tuple[Symbol, int], ...] = ()

    def __add__(self, other: Lin) -> Lin:
        merged = dict(self.terms)
        for s, c in other.terms:
            merged[s] = merged.get(s, 0) + c
        terms = tuple(sorted(((s, c) for s, c in merged.items() if c), key=repr))
        return Lin(self.const + other.const, terms)

    def scaled(self, k: int) -> Lin:
        return Lin(self.const * k, tuple((s, c * k) for s, c in self.terms if c * k))


@dataclass(frozen=True)
class Dim:
    """One position of an index: an integer (``lo`` only), a slice, or unknown (``kind``
    ``"any"``; ``"stop"`` for ``...`` and ``None``, after which positions shift)."""

    kind: Literal["int", "slice", "any", "stop"]
    lo: Lin | None = None
    hi: Lin | None = None
    step: int | None = 1


Index = tuple[Dim, ...]


@dataclass(frozen=True)
class Site:
    """One object the analysis tells apart. ``key`` is its identity; ``label`` and ``shape``
    (``buffer``, ``container``, ``launch``, ``other`` or ``?``) ride along for messages and
    for deciding what indexing it means."""

    kind: str
    key: object
    label: str = field(compare=False, default="?")
    shape: str = field(compare=False, default="?")
    typ: object = field(compare=False, default=None)  # its mypy type, when known


@dataclass(frozen=True)
class Ref:
    """A site through ``views`` (none: the whole object)."""

    site: Site
    views: tuple[Index, ...] = ()


Overlap = Literal["same", "may", "no"]


def overlap(a: Ref, b: Ref) -> Overlap:
    """Whether two references may share bytes: the same handle's buffer, maybe, or never."""
    if a.site != b.site:
        return "no"  # distinct sites are distinct objects (parameters, allocations, ...)
    if a.views == b.views:
        return "same" if not a.views else "may"
    p = 0
    while p < min(len(a.views), len(b.views)) and a.views[p] == b.views[p]:
        p += 1
    rest_a, rest_b = a.views[p:], b.views[p:]
    if len(rest_a) == 1 and len(rest_b) == 1 and indexes_disjoint(rest_a[0], rest_b[0]):
        return "no"
    return "may"


def indexes_disjoint(a: Index, b: Index) -> bool:
    """Some dimension where the two index tuples select provably disjoint sets."""
    for da, db in zip(a, b, strict=False):
        if da.kind == "stop" or db.kind == "stop":
            return False
        if dims_disjoint(da, db):
            return True
    return False


def _as_slice(d: Dim) -> tuple[Lin | None, Lin | None, int | None]:
    if d.kind == "int":
        assert d.lo is not None
        return d.lo, d.lo + Lin(1), 1
    return d.lo, d.hi, d.step


def _provably_le(x: Lin | None, y: Lin | None, x_is_hi: bool, y_is_hi: bool) -> bool:
    """``x <= y`` for Python slice bounds (None: 0 for a start, +inf for an end). Negative
    constants count from the end, so two constants compare only with the same sign."""
    if x is None and x_is_hi:
        return False  # +inf <= y never
    if y is None and y_is_hi:
        return True
    xs = x if x is not None else Lin(0)
    ys = y if y is not None else Lin(0)
    if xs.terms != ys.terms:
        return False
    if not xs.terms and (xs.const < 0) != (ys.const < 0):
        return False
    return xs.const <= ys.const


def dims_disjoint(a: Dim, b: Dim) -> bool:
    """Whether two index positions never select the same element."""
    if a.kind == "any" or b.kind == "any":
        return False
    lo_a, hi_a, step_a = _as_slice(a)
    lo_b, hi_b, step_b = _as_slice(b)
    if step_a is None or step_b is None or step_a <= 0 or step_b <= 0:
        return False
    if _provably_le(hi_a, lo_b, True, False) or _provably_le(hi_b, lo_a, True, False):
        return True
    if step_a == 1 and step_b == 1:
        return False
    # Interleaved strides (b[0::2], b[1::2]): the progressions never meet when their starts
    # differ by a non-multiple of gcd(steps).
    sa = lo_a if lo_a is not None else Lin(0)
    sb = lo_b if lo_b is not None else Lin(0)
    if sa.terms != sb.terms or (not sa.terms and (sa.const < 0) != (sb.const < 0)):
        return False
    return (sa.const - sb.const) % math.gcd(step_a, step_b) != 0
