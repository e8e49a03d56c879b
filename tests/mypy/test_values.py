"""The plugin's view-overlap rule (mypy_plugin/values.py) against NumPy's exact answer.

For constant indexes the plugin's "disjoint" must never be wrong: np.shares_memory decides
the same pairs of views of one array (the runtime's test). Where it says "may overlap" for
views NumPy finds disjoint, the plugin is only more careful (negative and positive bounds
mixed, unknown lengths)."""

from __future__ import annotations

import itertools

import numpy as np

from mypy_plugin.values import Dim, Index, Lin, Ref, Site, indexes_disjoint, overlap

SLICES: list[tuple[int | None, int | None, int | None]] = [
    (None, None, None), (0, 4, None), (4, 8, None), (4, None, None), (None, 4, None),
    (0, 5, None), (0, None, 2), (1, None, 2), (2, None, 4), (None, -1, None), (-1, None, None),
    (-2, None, None), (1, 3, None),
]  # fmt: skip
INTS = [0, 1, 3, -1]


def _dim(item: object) -> Dim:
    if isinstance(item, slice):
        lo = Lin(item.start) if item.start is not None else None
        hi = Lin(item.stop) if item.stop is not None else None
        return Dim("slice", lo, hi, item.step if item.step is not None else 1)
    assert isinstance(item, int)
    return Dim("int", Lin(item))


def _items() -> list[object]:
    return [slice(*s) for s in SLICES] + list(INTS)


def test_disjoint_is_never_wrong_in_one_dimension() -> None:
    base = np.arange(12)
    checked = 0
    for a, b in itertools.product(_items(), repeat=2):
        va, vb = base[a], base[b]  # type: ignore[call-overload]
        if indexes_disjoint((_dim(a),), (_dim(b),)):
            assert not np.shares_memory(va, vb), (a, b)
            checked += 1
    assert checked > 30


def test_disjoint_is_never_wrong_in_two_dimensions() -> None:
    base = np.arange(36).reshape(6, 6)
    items = [slice(None), slice(0, 2), slice(2, 4), 0, 1, slice(1, None, 2), slice(0, None, 2)]
    for a0, a1, b0, b1 in itertools.product(items, repeat=4):
        ia: Index = (_dim(a0), _dim(a1))
        ib: Index = (_dim(b0), _dim(b1))
        if indexes_disjoint(ia, ib):
            assert not np.shares_memory(base[a0, a1], base[b0, b1]), (a0, a1, b0, b1)  # type: ignore[index]


def test_symbolic_bounds() -> None:
    n = ((1, 0), 1)  # the symbol n (one definition)
    n_then = Lin(0, (n,))
    n_plus_4 = Lin(4, (n,))
    head = Dim("slice", None, n_then, 1)
    tail = Dim("slice", n_then, None, 1)
    assert indexes_disjoint((head,), (tail,))  # a[:n] and a[n:]
    assert indexes_disjoint((Dim("int", n_then),), (Dim("int", n_then + Lin(1)),))  # a[i], a[i+1]
    other = Lin(0, (((1, 99), 1),))  # n after it was assigned again
    assert not indexes_disjoint((head,), (Dim("slice", other, None, 1),))
    assert not indexes_disjoint((Dim("slice", n_then, n_plus_4, 1),),
                                (Dim("slice", Lin(2, (n,)), None, 1),))  # fmt: skip


def test_overlap_of_references() -> None:
    a, b = Site("var", 1, "a"), Site("var", 2, "b")
    whole = Ref(a)
    first = Ref(a, ((_dim(slice(0, 4)),),))
    second = Ref(a, ((_dim(slice(4, 8)),),))
    assert overlap(whole, Ref(a)) == "same"
    assert overlap(whole, Ref(b)) == "no"
    assert overlap(first, second) == "no"
    assert overlap(first, whole) == "may"
    nested = Ref(a, ((_dim(slice(4, 8)),), (_dim(slice(0, 2)),)))
    assert overlap(nested, second) == "may"  # a view of a view: inside its base
