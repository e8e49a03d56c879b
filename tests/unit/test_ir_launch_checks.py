"""Launch-time check specialisation (``gpuoff.ir.launch_checks``): what it proves, and a
soundness fuzz against the interpreter.

The interpreter raises ``UndefinedBehaviorError`` on an unchecked out-of-range access, so a
check the predicate drops for a launch where some work-item is out of range shows up as that
error (or as a different result) when the unchecked module runs that launch.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from gpuoff.errors import BoundsError
from gpuoff.ir import interp
from gpuoff.ir import nodes as n
from gpuoff.ir.bounds import eliminate_redundant_checks
from gpuoff.ir.launch_checks import Predicate, format_lin, lin, specialise
from gpuoff.ir.launch_loops import constant_trips
from gpuoff.ir.printer import format_module
from gpuoff.ir.types import f32, i32, i64
from gpuoff.ir.verify import verify
from tests.unit import irbuild as b
from tests.unit.test_ir_bounds_fuzz import Gen as BoundsGen

X = b.ref("x", b.arr(f32))
Y = b.ref("y", b.mut(f32))
Z = b.ref("z", b.mut(f32, 2))


def spec_of(m: n.Module) -> tuple[n.Module, Predicate]:
    out = specialise(eliminate_redundant_checks(m))
    assert out is not None
    verify(out[0])
    return out


def header(grid: tuple[int, ...], block: tuple[int, ...] = (1,)) -> tuple[int, ...]:
    """A launch's geometry header: grid, block and group counts, three each; ``block=(0,)``
    gives the runtime's header for a block the device chooses (block and groups all 0)."""
    g, bl = (*grid, 1, 1)[:3], (*block, 1, 1)[:3]
    if block == (0,):
        return (*g, 0, 0, 0, 0, 0, 0)
    return (*g, *bl, *(-(-x // y) for x, y in zip(g, bl, strict=True)))


def holds(p: Predicate, grid: tuple[int, ...], block: tuple[int, ...] = (1,), /, **args: Any
          ) -> bool:  # fmt: skip
    g = header(grid, block)
    plain = p.evaluate(p.values(g, args))
    names = sorted(args)
    fast = p.compile(names)(g, [args[k] for k in names])
    assert plain == fast
    return plain


# --------------------------------------------------------------------------------------------
# What is proven
# --------------------------------------------------------------------------------------------


def test_saxpy_x_is_proven_by_grid_or_y() -> None:
    unchecked, p = spec_of(b.saxpy())
    assert p.removed == (1,)
    assert (lin(0, **{"shape:x:0": 1, "grid0": -1}), lin(0, **{"shape:x:0": 1, "shape:y:0": -1})) \
        in p.clauses  # fmt: skip
    assert "{c" not in format_module(unchecked).split("\n\n", 1)[1]
    x, y = np.zeros(8, np.float32), np.zeros(8, np.float32)
    assert holds(p, (8,), x=x, y=y)
    assert holds(p, (100,), x=x, y=y)  # extra work-items fail the y guard
    assert holds(p, (4,), x=x[:4], y=y)  # the grid alone keeps x in range
    assert not holds(p, (8,), x=x[:4], y=y)


def test_unguarded_saxpy_needs_the_grid_to_fit_both() -> None:
    _, p = spec_of(b.saxpy(guarded=False))
    assert p.removed == (1, 2, 3)
    x = np.zeros(8, np.float32)
    assert holds(p, (8,), x=x, y=x)
    assert not holds(p, (9,), x=x, y=x)
    assert not holds(p, (8,), x=x, y=x[:7])


def stencil(dst_guarded: bool) -> n.Module:
    """dst[i, j] = x-ish stencil on z; the guard covers src (z's own shape) only."""
    i, j = b.var("i"), b.var("j")
    rows, cols = b.shape(X), b.c(4)
    body: list[n.Stmt] = [b.assign("j", b.gid(0)), b.assign("i", b.gid(1))]
    inner = b.store(Z, (i, j), b.load(X, b.bin_("add", i, 1), check=1), check=2)
    guard = b.and_(b.lt(i, b.bin_("sub", rows, 1)), b.lt(j, cols))
    body.append(b.if_(guard, [inner]) if dst_guarded else inner)
    k = b.kernel("k", [b.param("x", X.type), b.param("z", Z.type)], body, {"i": i64, "j": i64})
    return b.module(k, checks=[b.check(1, "x"), b.check(2, "z", ndim=2)])


def test_two_dimensional_grid_fits_the_destination() -> None:
    _, p = spec_of(stencil(True))
    assert p.removed == (2,)  # x[i + 1] is proven statically
    z = np.zeros((6, 4), np.float32)
    assert holds(p, (4, 6), x=np.zeros(7, np.float32), z=z)
    assert holds(p, (9, 9), x=np.zeros(7, np.float32), z=z)  # guards: i < 6, j < 4
    assert not holds(p, (4, 6), x=np.zeros(7, np.float32), z=z[:5])
    _, p = spec_of(stencil(False))
    assert p.removed == (1, 2)
    assert holds(p, (4, 6), x=np.zeros(7, np.float32), z=z)
    assert not holds(p, (4, 6), x=np.zeros(6, np.float32), z=z)  # x[i + 1] with i = 5


def test_strided_index_and_scalar_loop_bound() -> None:
    i, k = b.var("i"), b.var("k")
    idx = b.bin_("add", b.bin_("mul", i, 3), 1)
    loop = b.for_("k", 0, b.cast(i64, b.var("m", i32)), 1, [
        b.store(Y, idx, b.load(X, k, check=2), check=1),
    ])  # fmt: skip
    body = [b.assign("i", b.gid(0)), loop]
    params = [b.param("m", i32), b.param("x", X.type), b.param("y", Y.type)]
    kern = b.kernel("k", params, body, {"i": i64, "k": i64})
    _, p = spec_of(b.module(kern, checks=[b.check(1, "y"), b.check(2, "x")]))
    assert p.removed == (1, 2)
    x, y = np.zeros(5, np.float32), np.zeros(10, np.float32)
    assert holds(p, (3,), m=5, x=x, y=y)  # y[3 * 2 + 1] = y[7]; x[4]
    assert not holds(p, (4,), m=5, x=x, y=y)  # y[10]
    assert not holds(p, (3,), m=6, x=x, y=y)  # x[5]
    assert holds(p, (3,), m=-(1 << 45), x=x, y=y) is False  # outside the quantity limit


def test_data_dependent_and_nonlinear_indices_stay_checked() -> None:
    i = b.var("i")
    body: list[n.Stmt] = [
        b.assign("i", b.gid(0)),
        b.store(Y, b.cast(i64, b.load(X, 0, check=1)), 1.0, check=2),
        b.store(Y, b.bin_("mul", i, i), 1.0, check=3),
        b.store(Y, b.wi("local_size"), 1.0, check=4),
    ]
    kern = b.kernel("k", [b.param("x", X.type), b.param("y", Y.type)], body, {"i": i64})
    _, p = spec_of(b.module(kern, checks=[b.check(1, "x"), b.check(2, "y"), b.check(3, "y"),
                                          b.check(4, "y")]))  # fmt: skip
    assert p.removed == (1,)  # x[0]: the array must not be empty
    assert holds(p, (1,), x=np.zeros(1, np.float32), y=np.zeros(1, np.float32))
    assert not holds(p, (1,), x=np.zeros(0, np.float32), y=np.zeros(1, np.float32))


def test_clamped_index() -> None:
    """``x[max(min(i + 1, n - 1), 0)]``: in range when the clamp's top fits and x is not
    empty, whatever the grid."""
    i, nn = b.var("i"), b.var("n")
    top = b.math("min", b.bin_("add", i, 1), b.bin_("sub", nn, 1))
    idx = b.math("max", top, b.c(0))
    body = [b.assign("i", b.gid(0)), b.store(Y, 0, b.load(X, idx, check=1))]
    params = [b.param("n", i64), b.param("x", X.type), b.param("y", Y.type)]
    kern = b.kernel("k", params, body, {"i": i64})
    _, p = spec_of(b.module(kern, checks=[b.check(1, "x")]))
    assert p.removed == (1,)
    x, y = np.zeros(5, np.float32), np.zeros(1, np.float32)
    assert holds(p, (1000,), n=5, x=x, y=y)
    assert holds(p, (4,), n=50, x=x, y=y)  # i + 1 <= 4
    assert not holds(p, (1000,), n=6, x=x, y=y)
    assert not holds(p, (1000,), n=-3, x=x[:0], y=y)  # x[0] of an empty x


def test_floor_division_of_the_global_id() -> None:
    """``add_block_offsets`` of the scan: ``sums[i // 8 - 1]`` under ``i // 8 > 0``."""
    i, g = b.var("i"), b.var("g")
    body = [b.assign("i", b.gid(0)), b.assign("g", b.bin_("floordiv", i, 8)),
            b.if_(b.and_(b.cmp("gt", g, 0), b.lt(i, b.shape(Y))), [
                b.store(Y, i, b.load(X, b.bin_("sub", g, 1), check=1), check=2)])]  # fmt: skip
    kern = b.kernel("k", [b.param("x", X.type), b.param("y", Y.type)], body, {"i": i64, "g": i64})
    unchecked, p = spec_of(b.module(kern, checks=[b.check(1, "x"), b.check(2, "y")]))
    assert p.removed == (1,)  # y[i] is proven from the kernel alone
    assert "x.shape[0] >= (grid[0] - 1) // 8" in str(p)
    y = np.zeros(100, np.float32)
    assert holds(p, (25,), x=np.zeros(3, np.float32), y=y)  # g - 1 <= 24 // 8 - 1 = 2
    assert not holds(p, (25,), x=np.zeros(2, np.float32), y=y)
    assert holds(p, (24,), x=np.zeros(2, np.float32), y=y)
    assert holds(p, (0,), x=np.zeros(0, np.float32), y=y)  # (-1) // 8 = -1: no work-item
    for grid, size in ((25, 3), (24, 2), (17, 2), (9, 1)):
        xs, ys = np.arange(size, dtype=np.float32), np.zeros(30, np.float32)
        interp.run(unchecked, [xs, ys], grid, 1)
        assert ys[:grid].tolist() == [0.0 if k < 8 else float(k // 8 - 1) for k in range(grid)]


def test_floor_division_of_a_possibly_negative_index() -> None:
    """``(i - 3) // 2`` is -2 for ``i = 0``: proven only under ``i >= 3``."""
    i = b.var("i")
    idx = b.bin_("floordiv", b.bin_("sub", i, 3), 2)
    body = [b.assign("i", b.gid(0)), b.store(Y, idx, 1.0, check=1),
            b.if_(b.ge(i, 3), [b.store(Y, idx, 2.0, check=2)])]  # fmt: skip
    kern = b.kernel("k", [b.param("y", Y.type)], body, {"i": i64})
    _, p = spec_of(b.module(kern, checks=[b.check(1, "y"), b.check(2, "y")]))
    assert p.removed == (2,)
    assert holds(p, (9,), y=np.zeros(4)) and not holds(p, (10,), y=np.zeros(3))


def test_modulo_and_nested_division() -> None:
    """``y[i % 4]`` needs ``len(y) >= 4`` whatever the grid; ``x[(i // 2) // 3]`` a derived
    quantity of a derived quantity; a negative divisor proves nothing."""
    i = b.var("i")
    body = [b.assign("i", b.gid(0)),
            b.store(Y, b.bin_("mod", i, 4), 1.0, check=1),
            b.store(Y, 0, b.load(X, b.bin_("floordiv", b.bin_("floordiv", i, 2), 3), check=2)),
            b.store(Y, b.bin_("floordiv", i, -1), 1.0, check=3),
            b.store(Y, b.bin_("mod", i, -4), 1.0, check=4)]  # fmt: skip
    kern = b.kernel("k", [b.param("x", X.type), b.param("y", Y.type)], body, {"i": i64})
    checks = [b.check(1, "y"), b.check(2, "x"), b.check(3, "y"), b.check(4, "y")]
    _, p = spec_of(b.module(kern, checks=checks))
    assert p.removed == (1, 2)
    x, y = np.zeros(3, np.float32), np.zeros(4, np.float32)
    assert holds(p, (18,), x=x, y=y)  # 17 // 2 // 3 = 2
    assert not holds(p, (18,), x=x, y=y[:3])
    assert not holds(p, (19,), x=x[:2], y=y)  # 18 // 2 // 3 = 3 > 1
    assert holds(p, (6,), x=x[:1], y=y) and not holds(p, (7,), x=x[:1], y=y)


def test_nothing_to_do() -> None:
    m = b.saxpy()
    assert specialise(n.Module(m.kernel, m.functions, m.checks, boundscheck=False)) is None
    i = b.var("i")
    body = [b.assign("i", b.load(b.ref("q", b.arr(i64)), 0)),  # unchecked: unknown i
            b.store(Y, i, 1.0, check=1)]  # fmt: skip
    params = [b.param("q", b.arr(i64)), b.param("y", Y.type)]
    kern = b.kernel("k", params, body, {"i": i64})
    assert specialise(b.module(kern, checks=[b.check(1, "y")])) is None


def test_reassigned_variables_lose_their_bounds() -> None:
    i = b.var("i")
    body: list[n.Stmt] = [
        b.assign("i", b.gid(0)),
        b.while_(b.lt(i, b.shape(Y)), [b.assign("i", b.bin_("add", i, 2))]),
        b.store(Y, b.bin_("sub", i, 1), 1.0, check=1),
    ]
    kern = b.kernel("k", [b.param("y", Y.type)], body, {"i": i64})
    assert specialise(b.module(kern, checks=[b.check(1, "y")])) is None


def test_format() -> None:
    assert format_lin(lin(-1, grid0=2, **{"shape:x:0": -1})) == "2*grid[0] >= x.shape[0] + 1"
    assert format_lin(lin(1 << 40, **{"arg:n": -1})) == "n <= 2**40"
    _, p = spec_of(b.saxpy(guarded=False))
    assert str(p) == (
        "x.shape[0] >= grid[0] and y.shape[0] >= grid[0] and grid[0] <= 2**40"
        " and x.shape[0] <= 2**40 and y.shape[0] <= 2**40"
    )
    _, p = spec_of(b.saxpy())
    assert str(p).startswith("(x.shape[0] >= grid[0] or x.shape[0] >= y.shape[0]) and ")


def limits_only(p: Predicate) -> bool:
    """The predicate asks nothing of a launch but that its quantities are below 2**40."""
    return all(len(c) == 1 and c[0][1] == 1 << 40 for c in p.clauses)


def test_local_and_group_ids_are_below_the_block_the_groups_and_the_grid() -> None:
    tile = b.ref("t", b.shared_t(f32, 256))
    body: list[n.Stmt] = [
        b.assign("lid", b.wi("local_id")),
        b.store(tile, b.var("lid"), 1.0, check=1),
        b.store(Y, b.wi("group_id"), 1.0, check=2),
    ]
    kern = b.kernel("k", [b.param("y", Y.type)], body, {"lid": i64},
                    (n.SharedArray("t", tile.type),))  # fmt: skip
    _, p = spec_of(b.module(kern, checks=[b.check(1, "t"), b.check(2, "y")]))
    assert p.removed == (1, 2)
    assert str(p).startswith(
        "(block[0] <= 256 or grid[0] <= 256) and (y.shape[0] >= grid[0] or y.shape[0] >= groups[0])"
    )
    y = np.zeros(4)
    assert holds(p, (1024,), (256,), y=y)
    assert not holds(p, (1024,), (256,), y=y[:3])  # four groups
    assert not holds(p, (1024,), (512,), y=y)  # lid up to 511
    # A block the device chooses (an OpenCL driver's choice, CUDA's threads: the runtime's
    # header has 0s there): then only the grid bounds the ids.
    assert not holds(p, (256,), (0,), y=np.zeros(8))
    assert holds(p, (256,), (0,), y=np.zeros(256))
    assert not holds(p, (1024,), (0,), y=np.zeros(1024))
    assert holds(p, (256,), (32,), y=np.zeros(8))  # a block given is the block that runs
    assert holds(p, (65 * 3,), (65,), y=np.zeros(3))


def test_a_tested_expression_bounds_the_same_expression() -> None:
    s, j = b.var("s"), b.var("j")
    total = b.bin_("add", s, j)
    body: list[n.Stmt] = [
        b.assign("s", b.cast(i64, b.load(b.ref("q", b.arr(i32)), 0))),  # data-dependent
        b.assign("j", b.gid(0)),
        b.if_(b.and_(b.ge(total, 0), b.lt(total, b.shape(X))), [
            b.store(Y, 0, b.load(X, total, check=1)),
            b.assign("j", b.bin_("add", j, 1)),
            b.store(Y, 0, b.load(X, total, check=2)),  # j changed: the test says nothing
        ]),
        b.if_(b.cmp("ge", b.bin_("sub", s, j), 0), [b.store(Y, b.bin_("sub", s, j), 1.0,
                                                           check=3)]),  # only a lower bound
    ]  # fmt: skip
    params = [b.param("q", b.arr(i32)), b.param("x", X.type), b.param("y", Y.type)]
    kern = b.kernel("k", params, body, {"s": i64, "j": i64})
    out = specialise(b.module(kern, checks=[b.check(1, "x"), b.check(2, "x"), b.check(3, "y")]))
    assert out is not None and out[1].removed == (1,)
    assert limits_only(out[1])


def scan_tree(size: int, guard: str = "lt", block_items: int = 8) -> n.Module:
    """A Blelloch up-sweep and down-sweep over a shared tile of ``size`` elements for
    ``2 * block_items`` values, like ``gpuoff.bench.cases_scan.scan_blocks``."""
    tile = b.ref("t", b.shared_t(f32, size))
    lid, off, d = b.var("lid"), b.var("off"), b.var("d")

    def at(k: int) -> n.Expr:  # off * (2 * lid + k) - 1
        return b.bin_("sub", b.bin_("mul", off, b.bin_("add", b.bin_("mul", 2, lid), k)), 1)

    checks = iter(range(1, 20))

    def swap() -> list[n.Stmt]:
        return [b.store(tile, at(2), b.load(tile, at(1), check=next(checks)), check=next(checks))]

    body: list[n.Stmt] = [
        b.assign("lid", b.wi("local_id")),
        b.assign("off", b.c(1)),
        b.assign("d", b.c(block_items)),
        b.while_(b.cmp("gt", d, 0), [
            b.if_(b.cmp(guard, lid, d), swap()),
            b.assign("off", b.bin_("mul", off, 2)),
            b.assign("d", b.bin_("floordiv", d, 2)),
        ]),
        b.store(tile, b.bin_("sub", off, 1), 0.0, check=next(checks)),  # off: 2 * block_items
        b.assign("d", b.c(1)),
        b.while_(b.cmp("lt", d, 2 * block_items), [
            b.assign("off", b.bin_("floordiv", off, 2)),
            b.if_(b.cmp(guard, lid, d), swap()),
            b.assign("d", b.bin_("mul", d, 2)),
        ]),
    ]  # fmt: skip
    kern = b.kernel("k", [b.param("y", Y.type)], body, {v: i64 for v in ("lid", "off", "d")},
                    (n.SharedArray("t", tile.type),))  # fmt: skip
    return b.module(kern, checks=[b.check(c, "t") for c in range(1, 10)])


def test_tree_loops_with_constant_counters_are_unrolled() -> None:
    unchecked, p = spec_of(scan_tree(16))
    assert p.removed == (1, 2, 3, 4, 5) and limits_only(p)
    assert "{c" not in format_module(unchecked).split("\n\n", 1)[1]
    # one element short, or a guard letting lid == d through: the tree leaves the tile
    _, p = spec_of(scan_tree(15))
    assert p.removed == (1, 4)  # the loads reach 14; the stores and t[off - 1] reach 15
    _, p = spec_of(scan_tree(16, "le"))  # in range only when lid is always 0
    assert p.removed == (1, 2, 3, 4, 5) and holds(p, (1,), (1,))
    assert not holds(p, (8,), (8,)) and not holds(p, (128,), (128,))
    # a loop of more than MAX_TRIPS iterations is analysed as before (t[d]: nothing known)
    for trips, proven in ((64, True), (65, False)):
        tile = b.ref("t", b.shared_t(f32, trips))
        d = b.var("d")
        body = [b.assign("d", b.c(0)), b.while_(b.lt(d, trips), [
            b.store(tile, d, 1.0, check=1), b.assign("d", b.bin_("add", d, 1))])]  # fmt: skip
        kern = b.kernel("k", [b.param("y", Y.type)], body, {"d": i64},
                        (n.SharedArray("t", tile.type),))  # fmt: skip
        assert (specialise(b.module(kern, checks=[b.check(1, "t")])) is not None) == proven


def test_constant_trips() -> None:
    d, a = b.var("d"), b.var("a")
    body: list[n.Stmt] = [b.assign("a", b.bin_("mul", a, 3)),
                          b.assign("d", b.bin_("floordiv", d, 2))]  # fmt: skip
    trips = constant_trips(b.while_(b.cmp("gt", d, 0), body), {"d": 5, "a": 1, "z": 9})
    assert trips is not None
    assert [dict(e) for e in trips.entries] == [{"d": 5, "a": 1, "z": 9}, {"d": 2, "a": 3, "z": 9},
                                               {"d": 1, "a": 9, "z": 9}]  # fmt: skip
    assert trips.exit == {"d": 0, "a": 27, "z": 9}
    # i32 counters wrap like the IR says; the condition reads them exactly
    w = b.var("w", i32)
    double: list[n.Stmt] = [b.assign("w", b.bin_("mul", w, b.c(2, i32)))]
    wrap = b.while_(b.cmp("gt", w, b.c(0, i32)), double)
    trips = constant_trips(wrap, {"w": 1})
    assert trips is not None and len(trips.entries) == 31 and trips.exit == {"w": -(1 << 31)}
    # unknowable: a counter read before known, a guarded update, a continue, too many trips
    assert constant_trips(b.while_(b.cmp("gt", d, 0), body), {"a": 1}) is None
    guarded = [b.if_(b.lt(a, 2), [b.assign("d", b.c(0))]), body[0]]
    assert constant_trips(b.while_(b.cmp("gt", d, 0), guarded), {"d": 1, "a": 1}) is None
    skip = [b.if_(b.lt(a, 2), [n.Continue()]), *body]
    assert constant_trips(b.while_(b.cmp("gt", d, 0), skip), {"d": 1, "a": 1}) is None
    count: list[n.Stmt] = [b.assign("d", b.bin_("add", d, 1))]
    assert constant_trips(b.while_(b.lt(d, 64), count), {"d": 0}) is not None
    assert constant_trips(b.while_(b.lt(d, 65), count), {"d": 0}) is None
    # a break: the iterations are a prefix, the counters after the loop unknown
    leave = [b.if_(b.lt(b.var("q"), 2), [n.Break()]), *body]
    trips = constant_trips(b.while_(b.cmp("gt", d, 0), leave), {"d": 1, "a": 1})
    assert trips is not None and len(trips.entries) == 1 and trips.exit is None


# --------------------------------------------------------------------------------------------
# Soundness fuzz
# --------------------------------------------------------------------------------------------


class AffineGen:
    """Random kernels whose indices are affine in work-item ids and range-loop variables,
    under guards against shapes, scalars, the grid and constants (off-by-one bait)."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.checks: list[n.BoundsCheck] = []

    def bound(self) -> n.Expr:
        pick = self.r.randrange(7)
        base: n.Expr = (b.shape(X), b.shape(Y), b.shape(Z, self.r.randrange(2)), b.var("n"),
                        b.cast(i64, b.var("m", i32)), b.wi("global_size", self.r.randrange(2)),
                        b.c(self.r.randint(0, 6)))[pick]  # fmt: skip
        off = self.r.randint(-2, 2)
        return base if off == 0 or pick == 6 else b.bin_("add", base, b.c(off))

    def term(self) -> n.Expr:
        return self.r.choice((b.gid(0), b.gid(1), b.var("i"), b.var("j"), b.var("k")))

    def affine(self) -> n.Expr:
        e = self.term()
        if self.r.random() < 0.3:
            e = b.bin_("mul", e, b.c(self.r.randint(1, 3)))
        if self.r.random() < 0.25:
            e = b.bin_(self.r.choice(("add", "sub")), e, self.term())
        e = self.clamp(e)
        if self.r.random() < 0.5:
            e = b.bin_("add", e, b.c(self.r.randint(-2, 2)))
        if self.r.random() < 0.2:  # floor division / modulo (a non-positive divisor: bait)
            op, c = self.r.choice(("floordiv", "floordiv", "mod")), self.r.randint(-1, 4)
            e = b.bin_(op, e, b.c(c))
            if self.r.random() < 0.3:
                e = b.bin_("add", e, b.c(self.r.randint(-1, 1)))
        return self.clamp(e)

    def clamp(self, e: n.Expr) -> n.Expr:
        if self.r.random() < 0.12:
            e = b.math("min", e, self.bound()) if self.r.random() < 0.6 else e
            e = b.math("max", e, b.c(self.r.randint(-1, 2))) if self.r.random() < 0.6 else e
        return e

    def access(self) -> n.Stmt:
        cid = len(self.checks) + 1
        pick = self.r.randrange(3)
        if pick == 0:
            self.checks.append(b.check(cid, "y"))
            return b.store(Y, self.affine(), 1.0, check=cid)
        if pick == 1:
            self.checks += [b.check(cid, "x"), b.check(cid + 1, "y")]
            return b.store(Y, 0, b.load(X, self.affine(), check=cid), check=cid + 1)
        self.checks.append(b.check(cid, "z", ndim=2))
        return b.store(Z, (self.affine(), self.affine()), 2.0, check=cid)

    def cond(self) -> n.Expr:
        lhs = self.term() if self.r.random() < 0.5 else self.affine()
        c: n.Expr = b.cmp(self.r.choice(("lt", "le", "gt", "ge")), lhs, self.bound())
        if self.r.random() < 0.3:
            c = b.and_(c, b.cmp(self.r.choice(("lt", "ge")), self.term(), self.bound()))
        return b.not_(c) if self.r.random() < 0.15 else c

    def access_at(self, term: n.Expr, low: int = 0) -> n.Stmt:
        """An access at ``term + off`` (off-by-one bait next to a guard ``term >= low``)."""
        off = self.r.choice((-low - 1, -low, -low + 1, -1, 0, 1))
        idx = term if off == 0 else b.bin_("add", term, b.c(off))
        cid = len(self.checks) + 1
        if self.r.random() < 0.5:
            self.checks.append(b.check(cid, "y"))
            return b.store(Y, idx, 1.0, check=cid)
        self.checks.append(b.check(cid, "z", ndim=2))
        other = self.term()
        return b.store(Z, (idx, other) if self.r.random() < 0.5 else (other, idx), 2.0, check=cid)

    def guarded(self, depth: int) -> n.Stmt:
        """A guard (or range loop) on one term, with accesses near its bounds inside."""
        t = self.r.choice(("i", "j", "k"))
        if self.r.random() < 0.6:
            op, low = self.r.choice(("gt", "ge")), self.r.randint(-1, 2)
            lower = b.cmp(op, b.var(t), b.c(low))
            low += op == "gt"
            upper = b.cmp(self.r.choice(("lt", "le")), b.var(t), self.bound())
            cond = self.r.choice((lower, upper, b.and_(lower, upper), b.and_(upper, lower)))
            if self.r.random() < 0.2:  # the same facts through the else branch
                return b.if_(b.not_(cond), [], [self.access_at(b.var(t), low)])
            return b.if_(cond, [self.access_at(b.var(t), low), *self.block(depth + 1)][:3])
        if self.r.random() < 0.3:  # an i32 counter (range over an i32 scalar), cast to i64
            k32 = b.var("k32", i32)
            stop = b.var("m", i32) if self.r.random() < 0.7 else b.c(self.r.randint(0, 6), i32)
            body = [self.access_at(b.cast(i64, k32)), self.access_at(b.cast(i64, k32))]
            return b.for_("k32", b.c(self.r.randint(-1, 1), i32), stop, b.c(1, i32), body, i32)
        start = b.c(self.r.randint(-1, 2)) if self.r.random() < 0.7 else self.bound()
        body = [self.access_at(b.var(t)), self.access_at(b.var(t))]
        return b.for_(t, start, self.bound(), b.c(self.r.choice((1, 2))), body)

    def stmt(self, depth: int) -> n.Stmt:
        if depth < 2 and self.r.random() < 0.35:
            return self.guarded(depth)
        pick = self.r.randrange(9 if depth < 2 else 4)
        if pick <= 1:
            return self.access()
        if pick == 2:
            value = self.affine() if self.r.random() < 0.7 else b.bin_("mul", b.var("i"), b.gid())
            return b.assign(self.r.choice(("i", "j")), value)
        if pick == 3:
            return b.if_(self.cond(), [n.Return()])
        if pick <= 5:
            orelse = self.block(depth + 1) if self.r.random() < 0.4 else []
            return b.if_(self.cond(), self.block(depth + 1), orelse)
        if pick <= 7:
            start = b.c(self.r.randint(-1, 2)) if self.r.random() < 0.7 else self.bound()
            step = b.c(self.r.choice((1, 2, -1)))
            return b.for_("k", start, self.bound(), step, self.block(depth + 1))
        w = b.var("w")
        body = [b.assign("w", b.bin_("add", w, 1)), *self.block(depth + 1),
                b.assign(self.r.choice(("i", "j")), b.bin_("add", self.term(), 1))]  # fmt: skip
        return n.While(b.and_(b.lt(w, 3), self.cond()), tuple(body))

    def block(self, depth: int) -> list[n.Stmt]:
        return [self.stmt(depth) for _ in range(self.r.randint(1, 3))]

    def module(self) -> n.Module:
        body = [b.assign("w", b.c(0)), b.assign("i", b.gid(0)), b.assign("j", b.gid(1)),
                b.assign("k", b.c(0)), *self.block(0)]  # fmt: skip
        params = [b.param("n", i64), b.param("m", i32), b.param("x", X.type),
                  b.param("y", Y.type), b.param("z", Z.type)]  # fmt: skip
        kern = b.kernel("k", params, body, {**{v: i64 for v in "wijk"}, "k32": i32})
        return b.module(kern, checks=self.checks)


def run(m: n.Module, grid: tuple[int, int], nval: int, mval: int, sizes: tuple[int, ...]
        ) -> tuple[list[Any], str]:  # fmt: skip
    x = np.arange(sizes[0], dtype=np.float32)
    y, z = np.zeros(sizes[1], np.float32), np.zeros(sizes[2:], np.float32)
    try:
        interp.run(m, [nval, mval, x, y, z], grid, (1, 1))
        err = ""
    except BoundsError as e:
        err = str(e)
    return [y.tolist(), z.tolist()], err


def launches(r: random.Random) -> list[tuple[tuple[int, int], int, int, tuple[int, ...]]]:
    """Random launches; half of them with every quantity near one value (boundary bait)."""
    out: list[tuple[tuple[int, int], int, int, tuple[int, ...]]] = []
    for k in range(16):
        base = r.randint(1, 6)

        def q(lo: int, hi: int, base: int = base, near: bool = k % 2 == 0) -> int:
            return max(lo, base + r.randint(-1, 1)) if near else r.randint(lo, hi)

        grid = (q(0, 6), q(1, 3))
        sizes = (q(0, 8), q(0, 8), q(0, 4), q(0, 5))
        out.append((grid, q(-2, 8), q(-2, 8), sizes))
    return out


def check_launches(m: n.Module, seed: int) -> int:
    """Run ``m`` and its unchecked variant where the predicate holds; the count run."""
    out = specialise(m)
    if out is None:
        return 0
    unchecked, p = out
    verify(unchecked)
    ran = 0
    for grid, nval, mval, sizes in launches(random.Random(seed)):
        arrays = {"x": np.zeros(sizes[0]), "y": np.zeros(sizes[1]), "z": np.zeros(sizes[2:])}
        if holds(p, grid, n=nval, m=mval, **arrays):
            ran += 1
            # an error from a check the predicate does not cover stays the same; a removed
            # access out of range raises UndefinedBehaviorError in the unchecked module
            assert run(unchecked, grid, nval, mval, sizes) == run(m, grid, nval, mval, sizes)
    return ran


@pytest.mark.parametrize("seed", range(250))
def test_predicate_is_sound_on_random_affine_kernels(seed: int) -> None:
    m = eliminate_redundant_checks(AffineGen(seed).module())
    verify(m)
    check_launches(m, seed)


@pytest.mark.parametrize("seed", range(60))
def test_predicate_is_sound_on_random_bounds_fuzz_kernels(seed: int) -> None:
    m = BoundsGen(seed).module()  # params n and y only: adapt the launch to them
    out = specialise(m)
    if out is None:
        return
    unchecked, p = out
    for nval, size, grid in ((3, 5, 7), (-2, 4, 3), (8, 8, 10), (0, 0, 2), (2, 6, 4)):
        if holds(p, (grid,), n=nval, y=np.zeros(size)):
            ys = [np.zeros(size, np.float32) for _ in range(2)]
            errors = []
            for module, y in ((m, ys[0]), (unchecked, ys[1])):
                try:
                    interp.run(module, [nval, y], grid, 1)
                    errors.append("")
                except BoundsError as e:
                    errors.append(str(e))
            assert ys[0].tolist() == ys[1].tolist() and errors[0] == errors[1]


def test_fuzz_is_not_vacuous() -> None:
    """Enough launches run unchecked that the soundness tests above mean something."""
    ran = divided = 0
    for s in range(250):
        m = eliminate_redundant_checks(AffineGen(s).module())
        count = check_launches(m, s)
        ran += count
        out = specialise(m)
        if out is not None and any(q.startswith("fdiv:") for q in out[1].quantities):
            divided += count  # launches that ran with a floor division proven
    assert ran >= 500 and divided >= 50
