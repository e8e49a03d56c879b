"""What a race refusal says: the store, the ids two work-items may share, and an example.

``refusal`` turns a ``races.Failure`` into a ``Refusal`` whose message a user can act on:
which array and index, in words why two work-items may collide ("the index does not depend
on j = go.global_id(1), so work-items (i, j) and (i, j') write the same element"), a concrete
pair found by running the index on the first work-items of the launch that was refused, a
word on a 2-D launch that was probably meant as Numba's ``k[blocks, threads]``, and the fixes.
"""

from __future__ import annotations

import itertools
import linecache
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from gpuoff.ir import nodes as n
from gpuoff.ir import race_poly as P
from gpuoff.ir.race_poly import Atom, Poly
from gpuoff.ir.race_proof import Failure, Proof, Refusal, coordinates
from gpuoff.ir.race_walk import LaunchShape, Walk

FIXES = (
    "Make each work-item write elements no other one writes, use an atomic "
    "(go.atomic_add, ...), or, if the writes are distinct for a reason gpuoff cannot see "
    "(an index array that is a permutation), put the store in `with go.unsafe():` and run "
    "once with GPUOFF_SANITIZE=race to check it."
)
_ID_FUNCS = {"gid": "global_id", "lid": "local_id", "grp": "group_id"}
_EXAMPLE_ITEMS = 4096


def refusal(module: n.Module, shape: LaunchShape, walk: Walk, failure: Failure,
            example: Mapping[str, Any]) -> Refusal:  # fmt: skip
    """The ``Refusal`` of ``failure`` (``example``: ``grid``, ``block``, ``args`` of the launch)."""
    first, second = failure.first, failure.second
    site = second.site
    text = _source(site.filename, site.loc) or f"{site.array}[...]"
    where = f"kernel {module.name}"
    if site.function != module.name:
        where = f"function {site.function} (called from kernel {module.name})"
    memory = "shared array" if site.shared else "array"
    head = f"data race in {where}: two work-items may write the same element of {memory} "
    head += f"{site.array}"
    if first is second:
        why = _self_reason(walk, shape, second, failure.coordinate, text)
    else:
        other = _source(first.site.filename, first.site.loc) or f"{site.array}[...]"
        line = first.site.loc.line if first.site.loc is not None else "?"
        kinds = {first.site.kind, second.site.kind}
        what = "an atomic and a plain store" if kinds == {"atomic", "store"} else "two stores"
        why = (f"{text} here and {other} at line {line} ({what}) may reach the same element "
               "from different work-items")  # fmt: skip
        if site.shared:
            why += " in one barrier interval (no go.barrier() between them)"
    pair = _example(module, walk, failure, example)
    message = f"{head}: {why}"
    if pair:
        message += f"; for example {pair}"
    hint = _launch_hint(module, failure, example) + FIXES
    loc = site.loc or n.Loc(1, 0)
    return Refusal(message, site.filename, loc.line, loc.col, loc.end_col, hint)


def _source(filename: str, loc: n.Loc | None) -> str:
    if loc is None:
        return ""
    line = linecache.getline(filename, loc.line)
    if not line:
        return ""
    end = loc.end_col if loc.end_col is not None else len(line.rstrip())
    return line[loc.col : end].strip()


def id_name(walk: Walk, atom: Atom) -> str:
    """``j = go.global_id(1)``, or ``go.global_id(1)`` when the kernel gave it no name."""
    kind, d = atom[0], atom[1]
    call = f"go.{_ID_FUNCS.get(kind, kind)}({d})"
    name = walk.names.get(atom)
    return f"{name} = {call}" if name else call


def _mentions(p: Poly, x: Atom) -> bool:
    return any(a == x for a in P.all_atoms(p))


def _self_reason(walk: Walk, shape: LaunchShape, proof: Proof, x: Atom | None,
                 text: str) -> str:  # fmt: skip
    if x is None:
        return f"{text} is not one-to-one in the work-item ids"
    coords = coordinates(proof.shared, shape)
    group = " of one group" if proof.shared else ""
    data = _untracked(walk, proof)
    if data:
        return (f"{text} is computed from {data}, which gpuoff cannot follow: nothing shows "
                f"that two work-items{group} write different elements")  # fmt: skip
    if not any(_mentions(i, x) for i in proof.idx):
        if len(coords) == 1:
            return (f"{text} does not depend on {id_name(walk, x)}, so all work-items{group} "
                    "write the same element")  # fmt: skip
        names = [walk.names.get(c) or "ijk"[c[1]] for c in coords]
        primed = [f"{nm}'" if c == x else nm for nm, c in zip(names, coords, strict=True)]
        return (f"{text} does not depend on {id_name(walk, x)}, so work-items{group} "
                f"({', '.join(names)}) and ({', '.join(primed)}) write the same "
                "element")  # fmt: skip
    return (f"{text} is not one-to-one in {id_name(walk, x)}: two work-items{group} that "
            "differ in it may compute the same index")  # fmt: skip


def _untracked(walk: Walk, proof: Proof) -> str:
    """What the index holds that the analysis does not model (a value read from memory)."""
    whats = [walk.fresh_what[a[1]] for i in proof.idx for a in P.all_atoms(i)
             if a[0] == "free" and a[1] not in walk.counters]  # fmt: skip
    return ", ".join(dict.fromkeys(whats))


def _launch_hint(module: n.Module, failure: Failure, example: Mapping[str, Any]) -> str:
    """A 2-D launch ``k[a, b]`` of a kernel that never reads a dimension-1 id was probably
    meant as Numba's ``k[blocks, threads]``."""
    grid, block = example.get("grid"), example.get("block")
    if grid is None or block is not None or failure.coordinate != ("gid", 1):
        return ""
    g = tuple(grid)
    if len(g) < 2 or g[1] <= 1 or (len(g) > 2 and g[2] > 1):
        return ""
    if any(isinstance(e, n.WorkItem) and e.dim >= 1 for e in _module_exprs(module)):
        return ""
    name = module.name
    total = g[0] * g[1]
    return (f"This launch, {name}[{g[0]}, {g[1]}], is a 2-D grid of {g[0]} x {g[1]} work-items: "
            "two ints are a grid of two dimensions, not Numba's [blocks, threads]. For "
            f"{total} work-items in groups of {g[1]} write {name}[{total}, ({g[1]},)]; for n "
            f"work-items, {name}[n].\n")  # fmt: skip


def _module_exprs(module: n.Module) -> Iterator[n.Node]:
    stack: list[object] = [f.body for f in (module.kernel, *module.functions)]
    while stack:
        cur = stack.pop()
        if isinstance(cur, tuple):
            stack.extend(cur)
        elif isinstance(cur, n.Node):
            yield cur
            stack.extend(getattr(cur, f) for f in cur.__dataclass_fields__ if f != "loc")


# --------------------------------------------------------------------------------------------
# A concrete pair of colliding work-items
# --------------------------------------------------------------------------------------------


def _example(module: n.Module, walk: Walk, failure: Failure, example: Mapping[str, Any]) -> str:
    grid = example.get("grid")
    if grid is None:
        return ""
    g3 = tuple((*grid, 1, 1)[:3])
    block = example.get("block")
    b3 = tuple((*block, 1, 1)[:3]) if block is not None else None
    args = example.get("args", {})
    a, b = failure.first.site, failure.second.site
    ndim = max((d + 1 for d in range(3) if g3[d] > 1), default=1)
    seen: dict[tuple[int, ...], tuple[int, ...]] = {}
    if a is not b:
        for w in _items(g3, b3, a.shared):
            elem = _Env(w, g3, b3, args, walk).site(a)
            if elem is not None:
                seen.setdefault(elem, w)
    for w in _items(g3, b3, b.shared):
        env = _Env(w, g3, b3, args, walk)
        elem = env.site(b)
        if elem is None:
            continue
        other = seen.get(elem)
        if other is not None and other != w:
            where = f"{b.array}[{', '.join(map(str, elem))}]"
            if a is b:
                return f"work-items {_fmt(other, ndim)} and {_fmt(w, ndim)} both write {where}"
            line = a.loc.line if a.loc is not None else "?"
            return (f"work-item {_fmt(other, ndim)} writes {where} at line {line} and "
                    f"work-item {_fmt(w, ndim)} writes it here")  # fmt: skip
        if a is b:
            seen.setdefault(elem, w)
    return ""


def _fmt(w: tuple[int, ...], ndim: int) -> str:
    return str(w[0]) if ndim == 1 else f"({', '.join(map(str, w[:ndim]))})"


def _items(g3: tuple[int, ...], b3: tuple[int, ...] | None,
           shared: bool) -> Iterator[tuple[int, ...]]:  # fmt: skip
    """The first work-items of the launch (of its first group, for shared memory)."""
    limits = b3 if shared and b3 is not None else g3
    ranges = [range(min(x, 64)) for x in limits]
    yield from itertools.islice(
        (tuple(reversed(t)) for t in itertools.product(*reversed(ranges))), _EXAMPLE_ITEMS
    )


class _Env:
    """Atom values for one work-item of the example launch (None: unknown)."""

    def __init__(self, w: tuple[int, ...], g3: tuple[int, ...], b3: tuple[int, ...] | None,
                 args: Mapping[str, Any], walk: Walk) -> None:  # fmt: skip
        self.w, self.g3, self.b3, self.args, self.walk = w, g3, b3, args, walk

    def site(self, site: Any) -> tuple[int, ...] | None:
        for f in site.facts - self.walk.inherent:
            v = self.poly(f)
            if v is None or v < 0:
                return None
        out = []
        for i in site.indices:
            v = self.poly(i)
            if v is None:
                return None
            out.append(v)
        return tuple(out)

    def poly(self, p: Poly) -> int | None:
        total = 0
        for m, c in p:
            term = c
            for a in m:
                v = self.atom(a)
                if v is None:
                    return None
                term *= v
            total += term
        return total

    def atom(self, a: Atom) -> int | None:
        kind = a[0]
        b3 = self.b3
        if kind == "gid":
            return self.w[a[1]]
        if kind == "gsize":
            return self.g3[a[1]]
        if kind in ("lid", "grp", "lsize", "ngroups"):
            if b3 is None:
                return None
            d = a[1]
            return {"lid": self.w[d] % b3[d], "grp": self.w[d] // b3[d], "lsize": b3[d],
                    "ngroups": -(-self.g3[d] // b3[d])}[kind]  # fmt: skip
        if kind == "arg":
            v = self.args.get(a[1])
            return int(v) if isinstance(v, int | np.integer) else None
        if kind == "shape":
            v = self.args.get(a[1])
            shape = getattr(v, "shape", None)
            return int(shape[a[2]]) if shape is not None else None
        if kind in ("div", "mod"):
            x, y = self.poly(a[1]), self.poly(a[2])
            if x is None or y is None:
                return None
            if y == 0:
                return 0
            return x // y if kind == "div" else x % y
        if kind == "free":
            return 0 if a[1] in self.walk.counters else None
        return None
