"""Integer polynomials over symbolic atoms: the value domain of the race analysis.

``gpuoff.ir.races`` describes every integer a kernel computes as a polynomial with integer
coefficients over *atoms*, immutable symbolic values:

* work-item ids ``("gid", d)``, ``("lid", d)``, ``("grp", d)`` (``global_id``, ``local_id``,
  ``group_id``): what two work-items differ in;
* launch-invariant values, the same for every work-item of a launch: sizes ``("gsize", d)``,
  ``("lsize", d)``, ``("ngroups", d)``, scalar arguments ``("arg", name)``, array shapes
  ``("shape", array, d)``;
* fresh values ``("free", n)``: a loop's iteration count, a value read from memory, anything
  the analysis does not model. Two work-items (or two executions) may see different ones;
* derived atoms ``("div", p, q)`` (floor division), ``("mod", p, q)`` (Python's modulo),
  ``("op", name, p, q)`` (another integer operation) and ``("load", array, indices)`` (an
  element of a read-only array), invariant exactly when what they are made of is.

A *fact* is a polynomial known to be ``>= 0`` where it is used (``j < w`` gives
``w - j - 1 >= 0``); ``nonneg`` proves ``p >= 0`` from facts. The arithmetic is exact integer
arithmetic: the analysis assumes no index computation overflows its type (indices reaching a
store are below an array's size, far below ``2**62``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import combinations_with_replacement, product
from typing import Any

Atom = tuple[Any, ...]
Mono = tuple[Atom, ...]
"""A product of atoms (sorted, with repetition); ``()`` is the constant monomial."""
Poly = tuple[tuple[Mono, int], ...]
"""Monomials with their nonzero coefficients, sorted: a canonical, hashable form."""
Facts = frozenset[Poly]

ZERO: Poly = ()
WORK = frozenset({"gid", "lid", "grp"})
SIZES = frozenset({"gsize", "lsize", "ngroups"})
_INVARIANT = SIZES | {"arg", "shape"}
_NONNEG = WORK | SIZES | {"shape"}


def const(c: int) -> Poly:
    return (((), c),) if c else ZERO


def of(atom: Atom) -> Poly:
    return (((atom,), 1),)


def _norm(terms: dict[Mono, int]) -> Poly:
    # Atoms compare as tuples: a kind first, then parts of one type per kind (ints, names,
    # polynomials), so monomials and polynomials sort without a key.
    return tuple(sorted((m, c) for m, c in terms.items() if c))


def add(p: Poly, q: Poly, sign: int = 1) -> Poly:
    """``p + sign * q``."""
    out = dict(p)
    for m, c in q:
        out[m] = out.get(m, 0) + sign * c
    return _norm(out)


def sub(p: Poly, q: Poly) -> Poly:
    return add(p, q, -1)


def scale(p: Poly, k: int) -> Poly:
    return _norm({m: c * k for m, c in p}) if k else ZERO


def mul(p: Poly, q: Poly) -> Poly:
    out: dict[Mono, int] = {}
    for m1, c1 in p:
        for m2, c2 in q:
            m = tuple(sorted(m1 + m2))
            out[m] = out.get(m, 0) + c1 * c2
    return _norm(out)


def as_const(p: Poly) -> int | None:
    if not p:
        return 0
    if len(p) == 1 and not p[0][0]:
        return p[0][1]
    return None


def as_atom(p: Poly) -> Atom | None:
    """The atom ``p`` is (coefficient 1, alone), else None."""
    if len(p) == 1 and len(p[0][0]) == 1 and p[0][1] == 1:
        return p[0][0][0]
    return None


def atoms(p: Poly) -> Iterator[Atom]:
    """Every atom of ``p`` (top level, with repetition)."""
    for m, _ in p:
        yield from m


def all_atoms(p: Poly) -> Iterator[Atom]:
    """Every atom of ``p``, and those inside derived atoms."""
    for a in atoms(p):
        yield a
        for part in a[1:]:
            if _is_poly(part):
                yield from all_atoms(part)
            elif isinstance(part, tuple) and part and all(_is_poly(x) for x in part):
                for x in part:
                    yield from all_atoms(x)


def _is_poly(x: object) -> bool:
    return isinstance(x, tuple) and all(
        isinstance(t, tuple) and len(t) == 2 and isinstance(t[1], int) and isinstance(t[0], tuple)
        for t in x
    )


# --------------------------------------------------------------------------------------------
# Dependence on work-items
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def varies(atom: Atom, shared: bool) -> bool:
    """Whether ``atom`` may differ between two work-items (or two executions) of a launch;
    ``shared``: between two work-items of one group (group ids are then the same)."""
    kind = atom[0]
    if kind in _INVARIANT:
        return False
    if kind == "grp":
        return not shared
    if kind in WORK or kind == "free":
        return True
    parts = atom[1:] if kind != "load" else atom[2]
    return any(poly_varies(x, shared) for x in parts if _is_poly(x))


def poly_varies(p: Poly, shared: bool) -> bool:
    return any(varies(a, shared) for a in atoms(p))


def split_invariant(p: Poly, shared: bool) -> tuple[dict[Mono, Poly], Poly]:
    """``p`` as ``sum(coefficient * varying part) + invariant``: each monomial's varying atoms
    (a product, the key) with the invariant rest as its coefficient polynomial."""
    parts: dict[Mono, Poly] = {}
    rest: Poly = ZERO
    for m, c in p:
        var = tuple(a for a in m if varies(a, shared))
        inv = tuple(a for a in m if not varies(a, shared))
        coeff: Poly = (((inv), c),)
        if var:
            parts[var] = add(parts.get(var, ZERO), coeff)
        else:
            rest = add(rest, coeff)
    return {k: v for k, v in parts.items() if v}, rest


def divides(q: Poly, p: Poly) -> bool:
    """Whether ``p`` is ``q`` times an integer polynomial (``q`` a monomial, or ``p`` a
    constant multiple of ``q``)."""
    if not p:
        return True
    if not q:
        return False
    if len(q) == 1:
        qm, qc = q[0]
        for m, c in p:
            if c % qc:
                return False
            rest = list(m)
            for a in qm:
                if a not in rest:
                    return False
                rest.remove(a)
        return True
    lead_p, lead_q = dict(p), dict(q)
    m0 = q[0][0]
    if m0 not in lead_p or lead_p[m0] % lead_q[m0]:
        return False
    return sub(p, scale(q, lead_p[m0] // lead_q[m0])) == ZERO


def recombine(p: Poly) -> Poly:
    """``p`` with every ``d * (x // d) * m + (x % d) * m`` (equal coefficients) written as
    ``x * m``: ``TILE * group_id + local_id`` is the global id again."""
    terms = dict(p)
    again = True
    while again:
        again = False
        for m, c in list(terms.items()):
            for k, a in enumerate(m):
                if a[0] != "mod":
                    continue
                x, d = a[1], a[2]
                rest = m[:k] + m[k + 1 :]
                dc, da = as_const(d), as_atom(d)
                if dc is not None:
                    partner, need = tuple(sorted((*rest, ("div", x, d)))), c * dc
                elif da is not None:
                    partner, need = tuple(sorted((*rest, ("div", x, d), da))), c
                else:
                    continue
                if terms.get(partner) != need:
                    continue
                del terms[m], terms[partner]
                for xm, xc in x:
                    key = tuple(sorted(rest + xm))
                    terms[key] = terms.get(key, 0) + c * xc
                again = True
                break
            if again:
                break
    return _norm(terms)


# --------------------------------------------------------------------------------------------
# Bounds and proofs
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=16384)
def atom_bounds(a: Atom, facts: Facts) -> tuple[tuple[Poly, ...], tuple[Poly, ...]]:
    """Lower and upper bounds of atom ``a`` (polynomials not containing it): from the facts
    ``c * a + rest >= 0`` where ``a`` occurs only in that monomial (``c`` a constant), and from
    what ``a`` is (ids and sizes are never negative, ``x % d`` lies in ``[0, d - 1]``)."""
    lows: list[Poly] = []
    highs: list[Poly] = []
    if a[0] in _NONNEG or (a[0] == "div" and _never_negative(a, facts)):
        lows.append(ZERO)
    if a[0] == "mod" and nonneg(sub(a[2], const(1)), facts):
        lows.append(ZERO)
        highs.append(sub(a[2], const(1)))
    for f in facts:
        hit = [(m, c) for m, c in f if a in m]
        if len(hit) != 1 or hit[0][0] != (a,):
            continue
        c = hit[0][1]
        rest = tuple(t for t in f if t[0] != (a,))
        if c > 0:  # c*a + rest >= 0  ->  a >= -rest / c
            lows.append(scale(rest, -1) if c == 1 else scale(floor_div(rest, c), -1))
        else:  # a <= rest / |c|
            highs.append(rest if c == -1 else floor_div(rest, -c))
    return _unique(lows), _unique(highs)


def _unique(xs: Iterable[Poly]) -> tuple[Poly, ...]:
    return tuple(dict.fromkeys(xs))


def floor_div(p: Poly, c: int) -> Poly:
    """``floor(p / c)`` for a constant ``c > 0``: exact when ``c`` divides every coefficient,
    else the derived atom."""
    if all(k % c == 0 for _, k in p):
        return _norm({m: k // c for m, k in p})
    return of(("div", p, const(c)))


def _obvious(p: Poly, facts: Facts) -> bool:
    """``p >= 0`` because every coefficient is positive and every atom is never negative."""
    c = as_const(p)
    if c is not None:
        return c >= 0
    return all(k > 0 and all(_never_negative(a, facts) for a in m) for m, k in p)


def _never_negative(a: Atom, facts: Facts) -> bool:
    if a[0] in _NONNEG or of(a) in facts:
        return True
    if a[0] == "mod":
        return as_const(a[2]) is not None and (as_const(a[2]) or 0) > 0
    if a[0] == "div":
        return _obvious(a[1], facts) and _obvious(a[2], facts)
    return False


@lru_cache(maxsize=65536)
def nonneg(p: Poly, facts: Facts) -> bool:
    """A proof that ``p >= 0`` wherever ``facts`` hold: ``p`` is obviously non-negative, or is
    so after subtracting one fact or the sum of two (facts that cancel one of its
    monomials that are not obviously non-negative)."""
    if _obvious(p, facts):
        return True
    bad = {m for m, c in p if m and not (c > 0 and all(_never_negative(a, facts) for a in m))}
    if not bad and as_const(p) is None:
        bad = {()}  # only the constant is negative: any fact with a positive constant may do
    useful = [f for f in facts if f and any(m in bad for m, _ in f)]
    if not bad:
        useful = [f for f in facts if f]
    for f in useful:
        if _obvious(sub(p, f), facts):
            return True
    if PAIRS:
        for f, g in combinations_with_replacement(useful, 2):
            if _obvious(sub(sub(p, f), g), facts):
                return True
    return False


PAIRS = False


@lru_cache(maxsize=16384)
def poly_bounds(p: Poly, facts: Facts, shared: bool,
                limit: int = 8) -> tuple[tuple[Poly, ...], tuple[Poly, ...]]:  # fmt: skip
    """Invariant lower and upper bounds of ``p``: each varying monomial ``c * a`` (one varying
    atom, ``c`` of known sign) replaced by a bound of ``a``. ``([], [])`` when a monomial has
    more than one varying atom or an unbounded one."""
    parts, rest = split_invariant(p, shared)
    lo_terms: list[list[Poly]] = []
    hi_terms: list[list[Poly]] = []
    for var, coeff in parts.items():
        if len(var) != 1:
            return (), ()
        a_lows, a_highs = atom_bounds(var[0], facts)
        lows = [x for x in a_lows if not poly_varies(x, shared)]
        highs = [x for x in a_highs if not poly_varies(x, shared)]
        if nonneg(coeff, facts):
            lo_b, hi_b = lows, highs
        elif nonneg(scale(coeff, -1), facts):
            lo_b, hi_b = highs, lows
        else:
            return (), ()
        lo_terms.append([mul(coeff, b) for b in lo_b])
        hi_terms.append([mul(coeff, b) for b in hi_b])

    def sums(terms: list[list[Poly]]) -> tuple[Poly, ...]:
        if any(not t for t in terms):
            return ()
        out = []
        for combo in product(*terms):
            total = rest
            for t in combo:
                total = add(total, t)
            out.append(total)
            if len(out) >= limit:
                break
        return tuple(out)

    return sums(lo_terms), sums(hi_terms)
