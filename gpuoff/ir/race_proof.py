"""The proof of the race analysis (``gpuoff.ir.races``): a decoder for every store.

``find_failure(sites, shape, segment_of)`` returns None when no two distinct work-items can
write the same element through the ``sites`` the walk found, else the first pair of sites it
cannot tell apart.

The proof is a *decoder*: a function of the element's index, built from launch-invariant
values only, that gives back the writer's id. If every store to an array has one, and the
stores agree on it, two work-items writing one element would have the same id. The walk
(``race_walk``) gives each store's indices as polynomials over atoms; a component
``E = C * a + L + H + off`` gives back the id digit ``a`` when ``C >= 1``, the lower part ``L``
lies in ``[0, C - 1]``, the higher part ``H`` is a multiple of ``C * R`` with ``a`` in
``[lo, lo + R - 1]`` (or ``H`` is empty) and ``off`` is invariant: then
``a = lo + ((E - off - C*lo) // C) % R`` (or ``(E - off) // C``). That covers ``out[i]``,
``out[j, i]``, ``out[2*i + 1]``, ``out[i*w + j]`` (``0 <= j < w``), ``out[i, k]`` in a loop over
``k``, grid-stride loops (``k = i + G*t``: ``i = k % G``), ``out[g]`` with ``g = group_id``
under ``local_id == 0`` (a work-item id is ``group_id * local_size + local_id``: both digits
decoded or pinned) and ``lo = (t // j) * 2*j + t % j`` (both digits of ``t``). An id pinned to
one value where the store runs (``if i == 0``) needs no decoder. Two stores whose index ranges
are disjoint in one dimension never collide (``out[i]`` and ``out[i + n]`` with ``i < n``).

Global arrays are compared across the whole launch, shared arrays within a group (group ids
are then invariant) and only between stores of one barrier interval.

Where a step needs a condition on launch-invariant values it cannot prove for every launch
(``h >= 16 * num_groups(1)``, ``w % 16 == 0``: kernels written for grids that match their
arrays exactly, as CUDA samples are), ``Assume`` checks it against the launch being proven and
records it; the proof then holds for the launches where every recorded condition holds, which
the runtime checks at each one (``Assume.conditions``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, NamedTuple

from gpuoff.ir import race_poly as P
from gpuoff.ir.race_poly import Atom, Facts, Poly
from gpuoff.ir.race_values import AtomValue, evaluate
from gpuoff.ir.race_walk import LaunchShape, Site

__all__ = ["Assume", "Condition", "Failure", "LaunchShape", "Proof", "Refusal", "find_failure",
           "prove"]  # fmt: skip

Condition = tuple[str, Poly, Poly]
"""``("ge0", p, 0)``: ``p >= 0``; ``("divides", q, p)``: ``p % q == 0`` (invariant polys)."""


Conds = frozenset[Condition]


class Assume:
    """Conditions on launch-invariant values a proof may rest on: each is proven symbolically
    or, failing that, checked against the launch at hand (``values``; None: none may be
    assumed). The conditions an attempt makes are logged; ``attempt``/``made`` give them back
    for that attempt only, and ``conditions`` collects those of the steps the proof used."""

    def __init__(self, values: AtomValue | None = None) -> None:
        self.values = values
        self.log: list[Condition] = []
        self.conditions: set[Condition] = set()

    def attempt(self) -> int:
        """Start an attempt (a mark in the log)."""
        return len(self.log)

    def made(self, mark: int) -> Conds:
        """The conditions made since ``mark``, which are then forgotten."""
        out = frozenset(self.log[mark:])
        del self.log[mark:]
        return out

    def _holds(self, cond: Condition) -> bool:
        if self.values is None:
            return False
        kind, q, p = cond
        vp = evaluate(p, self.values)
        if vp is None:
            return False
        if kind == "ge0":
            ok = vp >= 0
        else:
            vq = evaluate(q, self.values)
            ok = vq is not None and vq != 0 and vp % vq == 0
        if ok:
            self.log.append(cond)
        return ok

    def nonneg(self, p: Poly, facts: Facts) -> bool:
        """``p >= 0`` where ``facts`` hold, or (``p`` invariant) in this launch."""
        return P.nonneg(p, facts) or (not P.poly_varies(p, False)
                                      and self._holds(("ge0", P.ZERO, p)))  # fmt: skip

    def signs(self, p: Poly, facts: Facts, shared: bool) -> Facts:
        """``facts`` and the signs of ``p``'s coefficients this launch fixes (``w >= 0`` for
        ``w * j``), so that ``race_poly.poly_bounds`` can bound ``p``."""
        parts, _ = P.split_invariant(p, shared)
        more = set()
        for coeff in parts.values():
            if P.nonneg(coeff, facts) or P.nonneg(P.scale(coeff, -1), facts):
                continue
            for signed in (coeff, P.scale(coeff, -1)):
                if self.nonneg(signed, facts):
                    more.add(signed)
                    break
        return facts | more if more else facts

    def divides(self, q: Poly, p: Poly) -> bool:
        """``q`` divides ``p`` as polynomials, or (both invariant) in this launch."""
        return P.divides(q, p) or (not P.poly_varies(p, False) and not P.poly_varies(q, False)
                                   and self._holds(("divides", q, p)))  # fmt: skip

Key = tuple[Any, ...]
"""A decoder: ``(component, sign, offset, coefficient, range or None, low or None)``."""


class Refusal(NamedTuple):
    """Why a kernel may race: the message, and the store it points at."""

    message: str
    filename: str
    line: int
    col: int
    end_col: int | None = None
    hint: str = ""
    """What to do about it (shown after the location)."""


class Proof:
    """What one site lets the analysis recover about its writer: per digit its decoders and
    the conditions each rests on (``keys``), the ids pinned to one value (``pins``), the facts
    about launch-invariant values only (they hold for any writer) and whether every index is
    the same for every writer (a single element)."""

    __slots__ = ("site", "idx", "facts", "keys", "pins", "invariant_facts", "invariant_idx")

    def __init__(self, site: Site, idx: tuple[Poly, ...], facts: Facts) -> None:
        self.site, self.idx, self.facts = site, idx, facts
        self.keys: dict[Atom, dict[Key, Conds]] = {}
        self.pins: dict[Atom, Poly] = {}
        self.invariant_facts: Facts = frozenset()
        self.invariant_idx = False

    @property
    def shared(self) -> bool:
        return self.site.shared


class Failure(NamedTuple):
    """A pair of sites that may collide, and the id they may differ in (None: the pair's
    indices are simply not told apart)."""

    first: Proof
    second: Proof
    coordinate: Atom | None


def find_failure(sites: list[Site], shape: LaunchShape, segment_of: Callable[[int], int],
                 ctx: Assume | None = None) -> Failure | None:  # fmt: skip
    """The first pair of sites (in program order) that the proof cannot tell apart
    (``ctx``: the conditions it may assume and records)."""
    ctx = ctx or Assume()
    ctx.conditions.clear()
    # per array, and for shared arrays per barrier interval: the sites that may run together
    groups: dict[tuple[str, int], list[Proof]] = {}
    seen: set[tuple[Any, ...]] = set()
    for s in sites:
        interval = segment_of(s.segment) if s.shared else 0
        dedupe = (s.kind, s.array, s.indices, s.facts, interval, s.loc)
        if dedupe in seen:
            continue
        seen.add(dedupe)
        groups.setdefault((s.array, interval), []).append(prove(s, shape, ctx))
    failures = []
    for proofs in groups.values():
        bad = _group_failure(proofs, shape, ctx)
        if bad is not None:
            failures.append(bad)
    if not failures:
        return None
    return min(failures, key=lambda f: _order(f.second.site))


def _order(site: Site) -> tuple[int, int]:
    return (site.loc.line, site.loc.col) if site.loc is not None else (0, 0)


def _group_failure(proofs: list[Proof], shape: LaunchShape, ctx: Assume) -> Failure | None:
    for j, second in enumerate(proofs):
        for first in proofs[: j + 1]:
            if first.site.kind == second.site.kind == "atomic":
                continue
            bad = _pair_failure(first, second, shape, ctx)
            if bad is not None:
                return bad
    return None


# --------------------------------------------------------------------------------------------
# Scopes: the ids two work-items differ in
# --------------------------------------------------------------------------------------------


def coordinates(shared: bool, shape: LaunchShape) -> list[Atom]:
    """The ids that tell two work-items apart: global ids of the dimensions with more than
    one work-item; for shared memory, local ids within one group."""
    out: list[Atom] = []
    for d in range(3):
        if not shared:
            if shape.grid[d]:
                out.append(("gid", d))
        elif shape.block[d]:
            out.append(("lid", d) if shape.groups[d] else ("gid", d))
    return out


def scoped(p: Poly, shared: bool, shape: LaunchShape, memo: dict[Any, Poly]) -> Poly:
    """``p`` in the atoms of the scope: for global arrays ``local_id = global_id % lsize`` and
    ``group_id = global_id // lsize``; for shared ones ``global_id = group_id * lsize +
    local_id`` (a group id of a dimension whose groups hold one work-item is invariant)."""
    out: Poly = P.ZERO
    for m, c in p:
        term = P.const(c)
        for a in m:
            term = P.mul(term, _scoped_atom(a, shared, shape, memo))
        out = P.add(out, term)
    return out


def _scoped_atom(a: Atom, shared: bool, shape: LaunchShape, memo: dict[Any, Poly]) -> Poly:
    key = (a, shared)
    hit = memo.get(key)
    if hit is not None:
        return hit
    kind = a[0]
    out: Poly = P.of(a)
    if kind in ("div", "mod"):
        out = P.of((kind, scoped(a[1], shared, shape, memo), scoped(a[2], shared, shape, memo)))
    elif kind == "op":
        out = P.of(("op", a[1], scoped(a[2], shared, shape, memo),
                    scoped(a[3], shared, shape, memo)))  # fmt: skip
    elif kind == "load":
        out = P.of(("load", a[1], tuple(scoped(x, shared, shape, memo) for x in a[2])))
    elif kind in P.WORK:
        d = a[1]
        gid = P.of(("gid", d))
        lsize = P.of(("lsize", d)) if shape.sizes is None else P.const(shape.sizes[d])
        if not shared and kind == "lid":
            out = P.of(("mod", gid, lsize))
        elif not shared and kind == "grp":
            out = P.of(("div", gid, lsize))
        elif shared and kind == "gid" and not shape.block[d]:
            out = P.of(("grp", d))  # one work-item per group: the global id names the group
        elif shared and kind == "gid" and shape.groups[d]:
            out = P.add(P.mul(P.of(("grp", d)), lsize), P.of(("lid", d)))
    memo[key] = out
    return out


def _coordinate_of(a: Atom, coords: list[Atom]) -> Atom | None:
    """The coordinate ``a`` is, or is a digit of (``x // d``, ``x % d``)."""
    if a in coords:
        return a
    if a[0] in ("div", "mod"):
        inner = P.as_atom(a[1])
        if inner in coords:
            return inner
    return None


# --------------------------------------------------------------------------------------------
# Decoders
# --------------------------------------------------------------------------------------------


def prove(site: Site, shape: LaunchShape, ctx: Assume | None = None) -> Proof:
    """The decoders and pinned ids of one site."""
    memo: dict[Any, Poly] = {}
    sh = site.shared
    coords = coordinates(sh, shape)
    idx = tuple(_digits(P.recombine(scoped(i, sh, shape, memo)), coords, sh)
                for i in site.indices)  # fmt: skip
    facts = frozenset(P.recombine(scoped(f, sh, shape, memo)) for f in site.facts)
    proof = Proof(site, idx, facts)
    proof.invariant_facts = frozenset(f for f in facts if not P.poly_varies(f, sh))
    proof.invariant_idx = not any(P.poly_varies(i, sh) for i in idx)
    digits: set[Atom] = set()
    for k, e in enumerate(idx):
        parts, inv = P.split_invariant(e, sh)
        for var, coeff in parts.items():
            if len(var) != 1 or _coordinate_of(var[0], coords) is None:
                continue
            digits.add(var[0])
            found = proof.keys.setdefault(var[0], {})
            for key, conds in _digit_keys(var[0], coeff, parts, inv, k, sh, facts,
                                          ctx or Assume()):  # fmt: skip
                if key not in found or len(conds) < len(found[key]):
                    found[key] = conds
    for f in facts:
        digits.update(a for a in P.atoms(f) if _coordinate_of(a, coords) is not None)
    digits.update(coords)
    for a in digits:
        pin = _pinned(a, facts, sh)
        if pin is not None:
            proof.pins[a] = pin
    return proof


def _digits(e: Poly, coords: list[Atom], shared: bool) -> Poly:
    """``e`` with a coordinate ``x`` written as ``d * (x // d) + x % d`` where ``e`` also uses
    one of those digits (``2*t - t % s`` is ``2*s*(t // s) + t % s``: both digits show)."""
    for x in coords:
        if not any(a == x for a in P.atoms(e)):
            continue
        ds = [a[2] for a in P.atoms(e) if a[0] in ("div", "mod") and P.as_atom(a[1]) == x
              and not P.poly_varies(a[2], shared)]  # fmt: skip
        if not ds:
            continue
        d = ds[0]
        parts = P.add(P.mul(d, P.of(("div", P.of(x), d))), P.of(("mod", P.of(x), d)))
        out: Poly = P.ZERO
        for m, c in e:
            term = P.const(c)
            for a in m:
                term = P.mul(term, parts if a == x else P.of(a))
            out = P.add(out, term)
        e = out
    return e


def _invariant(xs: tuple[Poly, ...], shared: bool) -> list[Poly]:
    return [x for x in xs if not P.poly_varies(x, shared)]


def _pinned(a: Atom, facts: Facts, shared: bool) -> Poly | None:
    lows, highs = (_invariant(x, shared) for x in P.atom_bounds(a, facts))
    for lo in lows:
        for hi in highs:
            c = P.as_const(P.sub(lo, hi))
            if c is not None and c >= 0:
                return lo
    return None


def _digit_keys(a: Atom, coeff: Poly, parts: dict[P.Mono, Poly], inv: Poly, k: int,
                shared: bool, facts: Facts,
                ctx: Assume) -> Iterator[tuple[Key, Conds]]:  # fmt: skip
    """Every decoder of digit ``a`` from component ``k`` (``coeff * a`` plus the rest), with
    the conditions it rests on."""
    sign = P.as_const(coeff)
    for s in (1, -1) if sign is None else ((1,) if sign > 0 else (-1,)):
        mark = ctx.attempt()
        c = P.scale(coeff, s)
        if not ctx.nonneg(P.sub(c, P.const(1)), facts):
            ctx.made(mark)
            continue
        base = ctx.made(mark)
        others = {v: P.scale(x, s) for v, x in parts.items() if v != (a,)}
        rest = P.scale(inv, s)
        for key, conds in _finite_keys(a, c, s, others, rest, k, shared, facts, ctx):
            yield key, base | conds
        for off in _offsets(rest, c):  # the top digit: everything else is below it
            mark = ctx.attempt()
            if _fits(_poly(others, P.sub(rest, off)), c, facts, shared, ctx):
                yield (k, s, off, c, None, None), base | ctx.made(mark)
                break
            ctx.made(mark)


def _finite_keys(a: Atom, c: Poly, s: int, others: dict[P.Mono, Poly], rest: Poly, k: int,
                 shared: bool, facts: Facts,
                 ctx: Assume) -> Iterator[tuple[Key, Conds]]:  # fmt: skip
    """Decoders ``lo + ((E - off) // c) % r`` of digit ``a`` in ``[lo, hi]``: ``r`` is its
    range ``hi - lo + 1`` or, where that fits in it, the ratio of a higher coefficient to
    ``c`` (``j`` of ``i*w + j`` is ``E % w`` once ``j < w``)."""
    lows, highs = (_invariant(x, shared)[:3] for x in P.atom_bounds(a, facts))
    ratios = _ratios(c, others)
    for lo in lows:
        for hi in highs:
            span = P.add(P.sub(hi, lo), P.const(1))
            for r in (*ratios, span):
                mark = ctx.attempt()
                if r != span and not ctx.nonneg(P.sub(r, span), facts):
                    ctx.made(mark)
                    continue
                cr = P.mul(c, r)
                lower = {v: x for v, x in others.items() if not ctx.divides(cr, x)}
                rest_low = tuple(t for t in rest if not ctx.divides(cr, (t,)))
                base = ctx.made(mark)
                for off in _offsets(rest_low, c):
                    inner = ctx.attempt()
                    if _fits(_poly(lower, P.sub(rest_low, off)), c, facts, shared, ctx):
                        key = (k, s, _modulo(P.add(off, P.mul(c, lo)), cr), c, r, lo)
                        yield key, base | ctx.made(inner)
                        break
                    ctx.made(inner)


def _ratios(c: Poly, others: dict[P.Mono, Poly]) -> list[Poly]:
    """The higher coefficients of the component divided by ``c``, when exactly."""
    out: list[Poly] = []
    cc = P.as_const(c)
    for x in others.values():
        if cc == 1:
            r: Poly | None = x
        elif cc is not None and cc > 0 and all(v % cc == 0 for _, v in x):
            r = P.floor_div(x, cc)
        else:
            r = None
        if r is not None and r not in out and P.as_const(r) != 1:
            out.append(r)
    return out


def _poly(parts: Mapping[P.Mono, Poly], inv: Poly) -> Poly:
    out = inv
    for var, coeff in parts.items():
        out = P.add(out, P.mul(coeff, ((var, 1),)))
    return out


def _offsets(rest: Poly, c: Poly) -> list[Poly]:
    """Candidate invariant offsets: none (the rest is part of the lower digits), all of it,
    and all but the constant's remainder modulo a constant coefficient."""
    out = [P.ZERO, rest]
    cc = P.as_const(c)
    k = dict(rest).get((), 0)
    if cc is not None and k:
        out.append(P.sub(rest, P.const(k % cc)))
    return list(dict.fromkeys(out))


def _modulo(off: Poly, cr: Poly) -> Poly:
    a, m = P.as_const(off), P.as_const(cr)
    return P.const(a % m) if a is not None and m is not None and m > 0 else off


def _fits(lower: Poly, c: Poly, facts: Facts, shared: bool, ctx: Assume) -> bool:
    """``0 <= lower <= c - 1`` wherever ``facts`` hold."""
    facts = ctx.signs(lower, facts, shared)
    lows, highs = P.poly_bounds(lower, facts, shared)
    if not any(ctx.nonneg(x, facts) for x in lows):
        return False
    top = P.sub(c, P.const(1))
    return any(ctx.nonneg(P.sub(top, x), facts) for x in highs)


def decode(key: Key, idx: tuple[Poly, ...]) -> Poly | None:
    """The id ``key`` decodes from invariant indices ``idx``, when it can be computed."""
    k, s, off, c, r, lo = key
    val = P.sub(P.scale(idx[k], s), off)
    cv, cc = P.as_const(val), P.as_const(c)
    if cc == 1:
        q: Poly | None = val
    elif cv is not None and cc is not None and cc > 0:
        q = P.const(cv // cc)
    elif val == P.ZERO:
        q = P.ZERO
    else:
        return None
    if r is None or q is None:
        return q
    qv, rv = P.as_const(q), P.as_const(r)
    if qv is not None and rv is not None and rv > 0:
        return P.add(P.const(qv % rv), lo)
    return P.add(q, lo) if q == P.ZERO else None


# --------------------------------------------------------------------------------------------
# Pairs
# --------------------------------------------------------------------------------------------


def _pair_failure(a: Proof, b: Proof, shape: LaunchShape, ctx: Assume) -> Failure | None:
    used: set[Condition] = set()
    for x in coordinates(a.shared, shape):
        conds = _recovered(a, b, x, ctx)
        if conds is None:
            mark = ctx.attempt()
            if a is not b and _disjoint(a, b, ctx):
                ctx.conditions |= ctx.made(mark)
                return None
            ctx.made(mark)
            return Failure(a, b, x)
        used |= conds
    ctx.conditions |= used
    return None


def _recovered(a: Proof, b: Proof, x: Atom, ctx: Assume) -> Conds | None:
    """How the pair tells coordinate ``x`` apart (the conditions that rests on), or None."""
    direct = _digit_recovered(a, b, x)
    if direct is not None:
        return direct
    divisors = {d[2] for p in (a, b) for d in (*p.keys, *p.pins) if d[0] == "div"
                and P.as_atom(d[1]) == x}  # fmt: skip
    facts = a.invariant_facts | b.invariant_facts
    for d in divisors:
        mark = ctx.attempt()
        if not ctx.nonneg(P.sub(d, P.const(1)), facts):
            ctx.made(mark)
            continue  # x // 0 and x % 0 are both 0: no information
        conds = ctx.made(mark)
        high = _digit_recovered(a, b, ("div", P.of(x), d))
        low = _digit_recovered(a, b, ("mod", P.of(x), d))
        if high is not None and low is not None:
            return conds | high | low
    return None


def _digit_recovered(a: Proof, b: Proof, digit: Atom) -> Conds | None:
    """How the pair agrees on ``digit``: a decoder both have (the one resting on the weakest
    conditions), one pinned value, or one's pinned value decoded from its own indices."""
    ka, kb = a.keys.get(digit, {}), b.keys.get(digit, {})
    common = [ka[k] | kb[k] for k in ka.keys() & kb.keys()]
    if common:  # a divisibility is the stronger assumption: fewest of those first
        return min(common, key=lambda c: (sum(x[0] == "divides" for x in c), len(c), repr(c)))
    pa, pb = a.pins.get(digit), b.pins.get(digit)
    if pa is not None and pb is not None and pa == pb:
        return frozenset()
    for pin, mine, keys in ((pa, a, kb), (pb, b, ka)):
        if pin is None or not mine.invariant_idx:
            continue
        for key, conds in keys.items():
            if decode(key, mine.idx) == pin:
                return conds
    return None


def _disjoint(a: Proof, b: Proof, ctx: Assume) -> bool:
    """Some index dimension where one site's values all lie below the other's."""
    facts = a.invariant_facts | b.invariant_facts
    for ea, eb in zip(a.idx, b.idx, strict=True):
        lo_a, hi_a = P.poly_bounds(ea, ctx.signs(ea, a.facts, a.shared), a.shared)
        lo_b, hi_b = P.poly_bounds(eb, ctx.signs(eb, b.facts, b.shared), b.shared)
        for hi, lo in ((hi_a, lo_b), (hi_b, lo_a)):
            if any(ctx.nonneg(P.sub(P.sub(x, y), P.const(1)), facts) for x in lo for y in hi):
                return True
    return False
