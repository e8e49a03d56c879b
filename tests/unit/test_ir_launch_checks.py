"""Launch-time check specialisation (``gpuoff.ir.launch_checks``): what it proves. Its
soundness fuzz against the interpreter is in test_ir_launch_checks_fuzz.py."""

from __future__ import annotations

from typing import Any

import numpy as np

from gpuoff.ir import interp
from gpuoff.ir import nodes as n
from gpuoff.ir.bounds import eliminate_redundant_checks
from gpuoff.ir.launch_checks import Predicate, format_lin, lin, specialise
from gpuoff.ir.launch_loops import constant_trips
from gpuoff.ir.printer import format_module
from gpuoff.ir.types import f32, i32, i64
from gpuoff.ir.verify import verify
from tests.unit import irbuild as b

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
