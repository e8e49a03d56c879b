"""Values of the race analysis's polynomials in one launch (``gpuoff.ir.race_poly``).

``LaunchValues(grid, block, args)`` gives the launch-invariant atoms of one launch their
numbers: sizes from the grid and block, scalar arguments, array shapes; ``evaluate`` computes
a polynomial from them (None when an atom has no value here: a work-item id, a value read from
memory, the block a backend chooses). The proof uses it to check a condition it could not prove
for every launch against the launch at hand (``race_proof.Assume``), the runtime to check the
same condition at later launches, and the report to find two colliding work-items.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from gpuoff.ir.race_poly import Atom, Poly

AtomValue = Callable[[Atom], "int | None"]


def evaluate(p: Poly, value: AtomValue) -> int | None:
    """``p``'s value with each atom's from ``value`` (None if one has none)."""
    total = 0
    for m, c in p:
        term = c
        for a in m:
            v = atom_value(a, value)
            if v is None:
                return None
            term *= v
        total += term
    return total


def atom_value(a: Atom, value: AtomValue) -> int | None:
    """A derived atom computed from its parts (IR semantics: ``x // 0 == x % 0 == 0``), any
    other from ``value``."""
    kind = a[0]
    if kind in ("div", "mod"):
        x, d = evaluate(a[1], value), evaluate(a[2], value)
        if x is None or d is None:
            return None
        if d == 0:
            return 0
        return x // d if kind == "div" else x % d
    if kind == "op":
        x, y = evaluate(a[2], value), evaluate(a[3], value)
        if x is None or y is None:
            return None
        ops: dict[str, Callable[[int, int], int]] = {
            "bitand": lambda p, q: p & q, "bitor": lambda p, q: p | q,
            "bitxor": lambda p, q: p ^ q,
        }  # fmt: skip
        fn = ops.get(a[1])
        return fn(x, y) if fn is not None else None
    return value(a)


class LaunchValues:
    """The invariant atoms' values in a launch over ``grid`` (padded to 3) with ``block`` (or
    None: then local sizes and group counts are unknown) and ``args`` by parameter name."""

    def __init__(self, grid: Sequence[int], block: Sequence[int] | None,
                 args: Mapping[str, Any]) -> None:  # fmt: skip
        self.grid = tuple((*grid, 1, 1)[:3])
        self.block = None if block is None else tuple((*block, 1, 1)[:3])
        self.args = args

    def __call__(self, a: Atom) -> int | None:
        kind = a[0]
        if kind == "gsize":
            return int(self.grid[a[1]])
        if kind in ("lsize", "ngroups"):
            if self.block is None:
                return None
            b = self.block[a[1]]
            return int(b) if kind == "lsize" else -(-int(self.grid[a[1]]) // int(b))
        if kind == "arg":
            v = self.args.get(a[1])
            return int(v) if isinstance(v, int | np.integer) and not isinstance(v, bool) else None
        if kind == "shape":
            shape = getattr(self.args.get(a[1]), "shape", None)
            return int(shape[a[2]]) if shape is not None and a[2] < len(shape) else None
        return None


def _text(p: Poly, index: Mapping[str, int]) -> str:
    """``p`` as a Python expression over ``g`` (grid), ``b`` (block) and ``a`` (arguments)."""
    terms = []
    for m, c in p:
        factors = [str(c)] + [_atom_text(x, index) for x in m]
        terms.append("*".join(factors))
    return "(" + " + ".join(terms) + ")" if terms else "0"


def _atom_text(x: Atom, index: Mapping[str, int]) -> str:
    kind = x[0]
    if kind == "gsize":
        return f"g[{x[1]}]"
    if kind == "lsize":
        return f"b[{x[1]}]"
    if kind == "ngroups":
        return f"(-(-g[{x[1]}] // b[{x[1]}]))"
    if kind == "arg":
        return f"int(a[{index[x[1]]}])"
    if kind == "shape":
        return f"a[{index[x[1]]}].shape[{x[2]}]"
    if kind in ("div", "mod"):
        return f"_{kind}({_text(x[1], index)}, {_text(x[2], index)})"
    if kind == "op":
        sym = {"bitand": "&", "bitor": "|", "bitxor": "^"}[x[1]]
        return f"({_text(x[2], index)} {sym} {_text(x[3], index)})"
    raise KeyError(kind)  # only invariant atoms with a launch value are ever assumed


def compile_conditions(conditions: Sequence[tuple[str, Poly, Poly]],
                       params: Sequence[str]) -> Callable[..., bool]:  # fmt: skip
    """``holds(g, b, a)``: whether every condition (``race_proof.Condition``) is true for a
    launch over grid ``g`` with block ``b`` (3-tuples) and arguments ``a`` in the order of
    ``params``; generated once, a few comparisons per launch."""
    index = {name: k for k, name in enumerate(params)}
    tests = []
    for kind, q, p in conditions:
        if kind == "ge0":
            tests.append(f"{_text(p, index)} >= 0")
        else:
            tests.append(f"_divides({_text(q, index)}, {_text(p, index)})")
    source = "def holds(g, b, a):\n    return " + (" and ".join(tests) or "True") + "\n"
    scope: dict[str, Any] = {
        "_div": lambda x, y: x // y if y else 0,
        "_mod": lambda x, y: x % y if y else 0,
        "_divides": lambda q, p: q != 0 and p % q == 0,
    }
    exec(compile(source, "<gpuoff race conditions>", "exec"), scope)  # noqa: S102 - our text
    fn: Callable[..., bool] = scope["holds"]
    return fn
