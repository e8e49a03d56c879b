"""CPU codegen: math functions, atomics, shared memory and barriers."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from tests.unit import irbuild as b
from tests.unit.test_codegen_cpu_loader import run_cpu
from tests.unit.test_codegen_cpu_ops import both, elementwise, eps

UNARY_MATH: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "sqrt": np.sqrt, "rsqrt": lambda x: 1 / np.sqrt(x), "exp": np.exp, "log": np.log,
    "log2": np.log2, "sin": np.sin, "cos": np.cos, "tan": np.tan, "tanh": np.tanh,
    "abs": np.abs, "floor": np.floor, "ceil": np.ceil,
    "erf": np.vectorize(math.erf, otypes=[np.float64]),
}  # fmt: skip


def math_of(name: str, st: t.ScalarType | None = None) -> Callable[[list[n.Expr]], n.Expr]:
    """``MathCall(name, *operands)`` as an ``elementwise`` body."""
    return lambda v: b.math(name, *v, t=st)


@pytest.mark.parametrize("st", [t.f32, t.f64], ids=str)
@pytest.mark.parametrize("name", list(UNARY_MATH))
def test_unary_math_matches_numpy(name: str, st: t.ScalarType) -> None:
    rng = np.random.default_rng(1)
    a = rng.uniform(0.01, 8.0, 1003).astype(st.np_dtype)
    if name in ("sin", "cos", "tan", "tanh", "erf", "abs", "floor", "ceil"):
        a = (a - 4.0).astype(st.np_dtype)
    out = np.zeros_like(a)
    run_cpu(elementwise(name, [st], st, lambda v: b.math(name, v[0])), [a, out], a.size)
    want = UNARY_MATH[name](a.astype(np.float64))
    np.testing.assert_allclose(out, want, rtol=8 * eps(st), atol=1e-30)


@pytest.mark.parametrize("st", [t.f32, t.f64], ids=str)
def test_binary_and_ternary_math(st: t.ScalarType) -> None:
    vals = [1.0, -2.0, np.nan, 0.5, -0.0, np.inf]
    a, c = (x.ravel().astype(st.np_dtype) for x in np.meshgrid(vals, vals))
    for name, ref in (("min", np.minimum), ("max", np.maximum)):  # docs/semantics.md
        out = np.zeros_like(a)
        both(elementwise(name, [st, st], st, math_of(name)), [a, c, out], a.size)
        np.testing.assert_array_equal(out, ref(a, c))
        np.testing.assert_array_equal(np.signbit(out), np.signbit(ref(a, c)))  # -0.0 vs 0.0
    x = np.array([1.5, 2.0, -3.0], dtype=st.np_dtype)
    out = np.zeros_like(x)
    run_cpu(elementwise("fma", [st, st, st], st, lambda v: b.math("fma", *v)),
            [x, x, x, out], 3)  # fmt: skip
    np.testing.assert_allclose(out, x * x + x)
    flags = np.zeros(a.size, dtype=np.bool_)
    for name, pred in (("isnan", np.isnan), ("isinf", np.isinf)):
        both(elementwise(name, [st], t.boolean, math_of(name, t.boolean)),
             [a, flags], a.size)  # fmt: skip
        np.testing.assert_array_equal(flags, pred(a))


@pytest.mark.parametrize("st", [t.i32, t.i64, t.u32], ids=str)
def test_integer_abs_min_max(st: t.ScalarType) -> None:
    vals = [0, 1, 5, 2**31 - 1] + ([] if st == t.u32 else [-1, -7])
    a, c = (x.ravel().astype(st.np_dtype) for x in np.meshgrid(vals, vals))
    for name in ("min", "max"):
        out = np.zeros_like(a)
        both(elementwise(name, [st, st], st, math_of(name)), [a, c, out], a.size)
    out = np.zeros_like(a)
    both(elementwise("abs", [st], st, lambda v: b.math("abs", v[0])), [a, out], a.size)


@pytest.mark.parametrize("st", [t.i32, t.u32, t.i64, t.f32, t.f64], ids=str)
def test_atomic_histogram_and_min_max(st: t.ScalarType) -> None:
    keys = b.ref("keys", b.arr(t.i64))
    hist = b.ref("hist", b.mut(st))
    lo = b.ref("lo", b.mut(st))
    hi = b.ref("hi", b.mut(st))
    k = b.load(keys, b.gid(0))
    val = b.cast(st, b.bin_("mod", b.bin_("mul", b.gid(0), 7919), 1000))
    body: list[n.Stmt] = [
        n.ExprStmt(b.atomic("add", hist, k, b.c(1, st) if not st.is_float else b.c(1.0, st),
                            check=1)),
        n.ExprStmt(b.atomic("min", lo, b.c(0), val)),
        n.ExprStmt(b.atomic("max", hi, b.c(0), val)),
    ]  # fmt: skip
    params = [b.param(r.name, r.type) for r in (keys, hist, lo, hi)]
    m = b.module(b.kernel("hist", params, body), checks=1)
    rng = np.random.default_rng(0)
    ks = rng.integers(0, 16, 5000).astype(np.int64)
    ks[17] = 16  # one key out of range: the atomic is skipped and recorded
    h = np.zeros(16, dtype=st.np_dtype)
    lo_v = np.full(1, 10**6, dtype=st.np_dtype)
    hi_v = np.zeros(1, dtype=st.np_dtype)
    err = run_cpu(m, [ks, h, lo_v, hi_v], 5000, chunks=3)
    np.testing.assert_array_equal(h, np.bincount(ks[ks < 16], minlength=16))
    vals = (np.arange(5000) * 7919) % 1000
    assert lo_v[0] == vals.min() and hi_v[0] == vals.max()
    assert err[0] == 1 and err[1] == 16


def test_atomic_returns_old_value() -> None:
    ctr = b.ref("ctr", b.mut(t.i64))
    out = b.ref("out", b.mut(t.i64))
    body: list[n.Stmt] = [b.store(out, b.gid(0), b.atomic("add", ctr, 0, 1))]
    m = b.module(b.kernel("ticket", [b.param("ctr", ctr.type), b.param("out", out.type)], body))
    c = np.zeros(1, dtype=np.int64)
    o = np.full(300, -1, dtype=np.int64)
    run_cpu(m, [c, o], 300)
    assert c[0] == 300 and sorted(o.tolist()) == list(range(300))


def _reverse_in_group(block: int) -> n.Module:
    """out[g*B + l] = x[g*B + (B-1-l)] through a shared array, with a barrier."""
    x = b.ref("x", b.arr(t.f32))
    out = b.ref("out", b.mut(t.f32))
    tile = b.ref("tile", b.shared_t(t.f32, block))
    lid = b.var("lid")
    body: list[n.Stmt] = [
        b.assign("lid", b.wi("local_id", 0)),
        b.assign("v", b.bin_("add", b.load(x, b.gid(0)), 1.0)),  # live across the barrier
        b.store(tile, lid, b.load(x, b.gid(0))),
        n.Barrier(),
        b.store(out, b.gid(0), b.bin_("add", b.var("v", t.f32),
                                      b.load(tile, b.bin_("sub", block - 1, lid)))),
    ]  # fmt: skip
    shared = (n.SharedArray("tile", tile.type),)
    k = b.kernel("rev", [b.param("x", x.type), b.param("out", out.type)], body,
                 {"lid": t.i64, "v": t.f32}, shared)  # fmt: skip
    return b.module(k)


def test_barrier_and_shared_array_reverse() -> None:
    xs = np.arange(256, dtype=np.float32)
    out = np.zeros_like(xs)
    both(_reverse_in_group(32), [xs, out], 256, (32,))
    want = xs.reshape(8, 32)[:, ::-1].ravel() + xs + 1
    np.testing.assert_array_equal(out, want)


def _tree_sum(block: int) -> n.Module:
    """Per-group sum with a barrier inside a uniform while loop and a uniform if."""
    x = b.ref("x", b.arr(t.f64))
    out = b.ref("out", b.mut(t.f64))
    sh = b.ref("sh", b.shared_t(t.f64, block))
    lid = b.var("lid")
    s = b.var("s")
    body: list[n.Stmt] = [
        b.assign("lid", b.wi("local_id", 0)),
        b.store(sh, lid, b.load(x, b.gid(0))),
        n.Barrier(),
        b.assign("s", b.bin_("floordiv", b.wi("local_size", 0), 2)),
        b.while_(b.cmp("gt", s, 0), [
            b.if_(b.lt(lid, s), [
                b.store(sh, lid, b.bin_("add", b.load(sh, lid), b.load(sh, b.bin_("add", lid, s)))),
            ]),
            n.Barrier(),
            b.assign("s", b.bin_("floordiv", s, 2)),
        ]),
        b.if_(b.cmp("gt", b.wi("local_size", 0), 0), [
            n.Barrier(),
            b.if_(b.cmp("eq", lid, 0), [b.store(out, b.wi("group_id", 0), b.load(sh, 0))]),
        ]),
    ]  # fmt: skip
    k = b.kernel("tsum", [b.param("x", x.type), b.param("out", out.type)], body,
                 {"lid": t.i64, "s": t.i64}, (n.SharedArray("sh", sh.type),))  # fmt: skip
    return b.module(k)


def test_tree_reduction_with_barriers_in_uniform_loop() -> None:
    xs = np.random.default_rng(3).uniform(size=64 * 6)
    out = np.zeros(6)
    both(_tree_sum(64), [xs, out], 64 * 6, (64,))
    np.testing.assert_allclose(out, xs.reshape(6, 64).sum(axis=1))


def test_barrier_in_uniform_for_loop_2d_groups() -> None:
    # Each (4 x 2) group accumulates, over 3 rounds, the sum of its shared tile.
    out = b.ref("out", b.mut(t.i64, 2))
    sh = b.ref("sh", b.shared_t(t.i64, 2, 4))
    ly, lx = b.wi("local_id", 1), b.wi("local_id", 0)
    body: list[n.Stmt] = [
        b.assign("acc", b.c(0)),
        b.for_("r", 0, 3, 1, [
            b.store(sh, (ly, lx), b.bin_("add", b.var("r"), b.bin_("add", lx, ly))),
            n.Barrier(),
            b.for_("j", 0, 8, 1, [
                b.assign("acc", b.bin_("add", b.var("acc"), b.load(
                    sh, b.bin_("floordiv", b.var("j"), 4), b.bin_("mod", b.var("j"), 4)))),
            ]),
            n.Barrier(),
        ]),
        b.store(out, (b.gid(1), b.gid(0)), b.var("acc")),
    ]  # fmt: skip
    k = b.kernel("rounds", [b.param("out", out.type)], body,
                 {"acc": t.i64, "r": t.i64, "j": t.i64}, (n.SharedArray("sh", sh.type),))
    res = np.zeros((4, 8), dtype=np.int64)
    both(b.module(k), [res], (8, 4), (4, 2))
    tile_sum = sum(x + y for x in range(4) for y in range(2))
    assert (res == 3 * tile_sum + 8 * (0 + 1 + 2)).all()


def test_break_out_of_a_uniform_loop_with_barriers() -> None:
    # while True: tile[lid] = r; barrier; acc += tile[(lid+1) % B]; barrier; r += 1;
    #             if r == 4: break      (uniform break at group level)
    out = b.ref("out", b.mut(t.i64))
    sh = b.ref("sh", b.shared_t(t.i64, 8))
    lid = b.wi("local_id", 0)
    r = b.var("r")
    body: list[n.Stmt] = [
        b.assign("r", b.c(0)),
        b.assign("acc", b.c(0)),
        b.while_(b.c(True), [
            b.store(sh, lid, b.bin_("add", r, lid)),
            n.Barrier(),
            b.assign("acc", b.bin_("add", b.var("acc"),
                                   b.load(sh, b.bin_("mod", b.bin_("add", lid, 1), 8)))),
            n.Barrier(),
            b.assign("r", b.bin_("add", r, 1)),
            b.if_(b.cmp("eq", r, 4), [n.Break()]),
            b.if_(b.cmp("eq", r, 2), [n.Continue()]),
        ]),
        b.store(out, b.gid(0), b.var("acc")),
    ]  # fmt: skip
    k = b.kernel("brk", [b.param("out", out.type)], body, {"r": t.i64, "acc": t.i64},
                 (n.SharedArray("sh", sh.type),))  # fmt: skip
    res = np.zeros(16, dtype=np.int64)
    both(b.module(k), [res], 16, (8,))
    want = [sum(rr + (lx + 1) % 8 for rr in range(4)) for lx in range(8)] * 2
    np.testing.assert_array_equal(res, want)


def test_barrier_in_device_function_is_a_compile_error() -> None:
    from gpuoff.errors import CompileError

    f = b.func("sync", [], [n.Barrier()])
    out = b.ref("out", b.mut(t.i64))
    k = b.kernel("k", [b.param("out", out.type)], [n.ExprStmt(n.Call(t.boolean, "sync", ()))])
    with pytest.raises(CompileError, match="device function 'sync'"):
        run_cpu(b.module(k, f), [np.zeros(1, dtype=np.int64)], 1)
