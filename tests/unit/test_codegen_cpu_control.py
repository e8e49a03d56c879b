"""CPU codegen: control flow, grids, bounds checks, strided arrays, device functions."""

from __future__ import annotations

import numpy as np
import pytest

from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from tests.unit import irbuild as b
from tests.unit.test_codegen_cpu_loader import run_cpu
from tests.unit.test_codegen_cpu_ops import both

I = b.var("i")  # noqa: E741 - the work-item index, as in kernels


def _k(body: list[n.Stmt], params: list[n.Param], locals_: dict[str, t.ScalarType],
       checks: int = 0, *functions: n.Function) -> n.Module:  # fmt: skip
    return b.module(b.kernel("k", params, body, locals_), *functions, checks=checks)


OUT = b.ref("out", b.mut(t.i64))
P_OUT = b.param("out", OUT.type)


@pytest.mark.parametrize(
    "start,stop,step",
    [(0, 10, 1), (10, 0, -1), (0, 10, 3), (10, -5, -4), (5, 5, 1), (0, 10, 0), (3, 1, 1),
     (-(2**62), 2**62, 2**61), (2**63 - 3, 2**63 - 1, 5)],
)  # fmt: skip
def test_for_range_follows_python(start: int, stop: int, step: int) -> None:
    # out[0] = number of iterations, out[1] = sum of var (wrapping), out[2] = var after loop.
    j = b.var("j")
    body: list[n.Stmt] = [
        b.assign("j", b.c(-7)),
        b.assign("cnt", b.c(0)),
        b.assign("s", b.c(0)),
        b.for_("j", start, stop, step, [
            b.assign("cnt", b.bin_("add", b.var("cnt"), 1)),
            b.assign("s", b.bin_("add", b.var("s"), j)),
            b.assign("j", b.c(1000)),  # does not change the iteration
        ]),
        b.store(OUT, 0, b.var("cnt")),
        b.store(OUT, 1, b.var("s")),
        b.store(OUT, 2, j),
    ]  # fmt: skip
    out = np.zeros(3, dtype=np.int64)
    both(_k(body, [P_OUT], {"j": t.i64, "cnt": t.i64, "s": t.i64}), [out], 1)
    r = range(start, stop, step) if step else range(0)
    assert out[0] == len(r)
    assert out[2] == (1000 if len(r) else -7)


def test_for_range_i32_and_u8_vars() -> None:
    body: list[n.Stmt] = [
        b.assign("s", b.c(0, t.i32)),
        b.for_("j", 250, 3, -7, [b.assign("s", b.bin_("add", b.var("s", t.i32),
                                                       b.var("j", t.i32)))], t=t.i32),
        b.assign("u", b.c(0, t.u8)),
        b.for_("k", 250, 255, 2, [b.assign("u", b.bin_("add", b.var("u", t.u8),
                                                        b.var("k", t.u8)))], t=t.u8),
        b.store(OUT, 0, b.cast(t.i64, b.var("s", t.i32))),
        b.store(OUT, 1, b.cast(t.i64, b.var("u", t.u8))),
    ]  # fmt: skip
    out = np.zeros(2, dtype=np.int64)
    both(_k(body, [P_OUT], {"s": t.i32, "j": t.i32, "u": t.u8, "k": t.u8}), [out], 1)
    assert out[0] == sum(range(250, 3, -7))
    assert out[1] == sum(range(250, 255, 2)) % 256


def test_while_break_continue() -> None:
    # Sum of odd numbers below 20, stopping at the first above 13.
    k = b.var("k")
    body: list[n.Stmt] = [
        b.assign("k", b.c(0)),
        b.assign("s", b.c(0)),
        b.while_(b.lt(k, 20), [
            b.assign("k", b.bin_("add", k, 1)),
            b.if_(b.cmp("eq", b.bin_("mod", k, 2), 0), [n.Continue()]),
            b.if_(b.cmp("gt", k, 13), [n.Break()]),
            b.assign("s", b.bin_("add", b.var("s"), k)),
        ]),
        b.for_("j", 0, 10, 1, [
            b.if_(b.cmp("eq", b.var("j"), 3), [n.Continue()]),
            b.if_(b.cmp("eq", b.var("j"), 6), [n.Break()]),
            b.assign("s", b.bin_("add", b.var("s"), 100)),
        ]),
        b.store(OUT, I, b.var("s")),
    ]  # fmt: skip
    body.insert(0, b.assign("i", b.gid(0)))
    out = np.zeros(4, dtype=np.int64)
    both(_k(body, [P_OUT], {"i": t.i64, "k": t.i64, "s": t.i64, "j": t.i64}), [out], 4)
    assert (out == 1 + 3 + 5 + 7 + 9 + 11 + 13 + 500).all()


def test_return_ends_only_this_work_item() -> None:
    body: list[n.Stmt] = [
        b.assign("i", b.gid(0)),
        b.if_(b.cmp("eq", b.bin_("mod", I, 3), 0), [n.Return()]),
        b.store(OUT, I, b.bin_("add", I, 1)),
    ]
    out = np.zeros(10, dtype=np.int64)
    both(_k(body, [P_OUT], {"i": t.i64}), [out], 10)
    np.testing.assert_array_equal(out, [0 if i % 3 == 0 else i + 1 for i in range(10)])


def test_logical_and_select_short_circuit_skip_checked_loads() -> None:
    # `i < n and x[i] > 0` and `x[i] if i < n else -1` must not touch x out of range.
    x = b.ref("x", b.arr(t.i64))
    in_range = b.lt(I, b.shape(x))
    cond = b.and_(in_range, b.cmp("gt", b.load(x, I, check=1), 0))
    alt = b.or_(b.not_(in_range), b.cmp("gt", b.load(x, I, check=2), 0))
    sel = n.Select(t.i64, in_range, b.load(x, I, check=3), b.c(-1))
    body: list[n.Stmt] = [
        b.assign("i", b.gid(0)),
        b.store(OUT, (I, 0), b.cast(t.i64, cond)),
        b.store(OUT, (I, 1), b.cast(t.i64, alt)),
        b.store(OUT, (I, 2), sel),
    ]
    out_t = b.mut(t.i64, 2)
    body = [s if not isinstance(s, n.Store) else n.Store(b.ref("out", out_t), s.indices, s.value)
            for s in body]  # fmt: skip
    m = _k(body, [b.param("x", x.type), b.param("out", out_t)], {"i": t.i64}, 3)
    xs = np.array([5, -2, 0], dtype=np.int64)
    out = np.zeros((6, 3), dtype=np.int64)
    err, msg = both(m, [xs, out], 6)
    assert msg is None and not err.any()
    np.testing.assert_array_equal(out[:, 0], [1, 0, 0, 0, 0, 0])
    np.testing.assert_array_equal(out[:, 1], [1, 0, 0, 1, 1, 1])
    np.testing.assert_array_equal(out[:, 2], [5, -2, 0, -1, -1, -1])


@pytest.mark.parametrize(
    "grid,block",
    [((37,), None), ((96,), (16,)), ((9, 7), None), ((12, 6), (4, 3)), ((5, 4, 3), None),
     ((4, 6, 2), (2, 3, 2)), ((70, 3), None), ((1, 1, 1), None)],
)  # fmt: skip
def test_work_item_queries_on_1_2_3d_grids(grid: tuple[int, ...],
                                           block: tuple[int, ...] | None) -> None:  # fmt: skip
    # Every work-item writes its 18 query values at its flattened global position.
    out_t = b.mut(t.i64, 2)
    out = b.ref("out", out_t)
    flat = b.bin_("add", b.gid(0), b.bin_("mul", b.wi("global_size", 0),
                  b.bin_("add", b.gid(1), b.bin_("mul", b.wi("global_size", 1), b.gid(2)))))
    body: list[n.Stmt] = [b.assign("f", flat)]
    for q, name in enumerate(n.WORK_ITEM_FUNCS):
        for d in range(3):
            body.append(b.store(out, (b.var("f"), q * 3 + d), b.wi(name, d)))
    m = _k(body, [b.param("out", out_t)], {"f": t.i64})
    res = np.full((int(np.prod(grid)), 18), -1, dtype=np.int64)
    both(m, [res], grid, block)
    assert (res >= 0).all()  # every work-item ran exactly where expected


def test_partial_groups_run_each_item_once() -> None:
    x = b.ref("x", b.mut(t.i64))
    body: list[n.Stmt] = [b.store(x, b.gid(0), b.bin_("add", b.load(x, b.gid(0)), 1))]
    m = _k(body, [b.param("x", x.type)], {})
    xs = np.zeros(1000, dtype=np.int64)
    run_cpu(m, [xs], 1000, (64,))  # last group is partial (1000 = 15 * 64 + 40)
    assert (xs == 1).all()


def _copy_2d(checked: bool, contiguous: bool = True) -> n.Module:
    src = b.ref("src", b.arr(t.f32, 2, contiguous=contiguous))
    dst = b.ref("dst", b.mut(t.f32, 2, contiguous=contiguous))
    c = 1 if checked else None
    idx = (b.gid(1), b.gid(0))
    body: list[n.Stmt] = [b.store(dst, idx, b.bin_("mul", b.load(src, *idx, check=c), 2.0),
                                  check=2 if checked else None)]  # fmt: skip
    checks = [b.check(1, "src", ndim=2), b.check(2, "dst", ndim=2)]
    return b.module(b.kernel("k", [b.param("src", src.type), b.param("dst", dst.type)], body),
                    checks=checks)  # fmt: skip


def test_bounds_error_records_id_and_indices_and_skips_access() -> None:
    src = np.arange(12, dtype=np.float32).reshape(3, 4)
    dst = np.zeros((3, 5), dtype=np.float32)
    # grid (5, 3): column 4 is out of range for src (check 1) but not for dst.
    err, msg = both(_copy_2d(True), [src, dst], (5, 3))
    assert err[0] == 1 and err[2] == 4 and 0 <= err[1] < 3
    assert msg is not None and "src" in msg
    np.testing.assert_array_equal(dst[:, :4], src * 2)
    np.testing.assert_array_equal(dst[:, 4], 0)  # the failing load yielded 0


def test_checked_store_out_of_range_writes_nothing() -> None:
    src = np.ones((3, 5), dtype=np.float32)
    backing = np.full((3, 6), 7, dtype=np.float32)
    dst = backing[:, :4]  # a view: a stray write would land in backing[:, 4]
    err = run_cpu(_copy_2d(True, contiguous=False), [src, dst], (5, 3))
    assert err[0] == 2 and err[2] == 4
    assert (backing[:, 4:] == 7).all()
    assert (backing[:, :4] == 2).all()


def test_unchecked_module_records_nothing() -> None:
    src = np.ones((3, 4), dtype=np.float32)
    dst = np.zeros((3, 4), dtype=np.float32)
    err = run_cpu(_copy_2d(False), [src, dst], (4, 3))
    assert not err.any() and (dst == 2).all()


def test_first_record_wins_in_one_err_block() -> None:
    x = b.ref("x", b.mut(t.i64))
    body: list[n.Stmt] = [b.store(x, b.gid(0), b.c(1), check=1)]
    m = _k(body, [b.param("x", x.type)], {}, 1)
    xs = np.zeros(4, dtype=np.int64)
    err = run_cpu(m, [xs], 16, (4,), chunks=4)  # groups 1..3 fail, one call each
    assert err[0] == 1 and 4 <= err[1] < 8  # the first call's record stays


@pytest.mark.parametrize("checked", [False, True])
def test_strided_and_negative_stride_views(checked: bool) -> None:
    base = np.arange(60, dtype=np.float32).reshape(6, 10)
    src = base[::-2, 1::3]  # negative and non-unit strides
    dst_base = np.zeros((4, 6), dtype=np.float32)
    dst = dst_base[:3, ::2]
    m = _copy_2d(checked, contiguous=False)
    err, _ = both(m, [src, dst], (src.shape[1], src.shape[0]))
    assert not err.any()
    np.testing.assert_array_equal(dst, src * 2)
    assert (dst_base[:, 1::2] == 0).all()


def _device_functions() -> tuple[n.Function, n.Function]:
    v = b.ref("v", b.arr(t.f64))
    # helper(v, j) -> v[j] * 2 + global_id(0) ; bounds-checked (check 1)
    helper = b.func("helper", [b.param("v", v.type), b.param("j", t.i64)], [
        n.Return(b.bin_("add", b.bin_("mul", b.load(v, b.var("j"), check=1), 2.0),
                        b.cast(t.f64, b.gid(0)))),
    ], ret=t.f64)  # fmt: skip
    call = n.Call(t.f64, "helper", (v, b.var("j")))
    outer = b.func("outer", [b.param("v", v.type), b.param("j", t.i64)], [
        b.if_(b.lt(b.var("j"), 0), [n.Return(b.c(-1.0, t.f64))]),
        n.Return(b.bin_("add", call, 1.0)),
    ], ret=t.f64)  # fmt: skip
    return helper, outer


def test_device_functions_with_arrays_work_items_and_checks() -> None:
    helper, outer = _device_functions()
    v = b.ref("v", b.arr(t.f64))
    out = b.ref("out", b.mut(t.f64))
    j = b.bin_("sub", b.gid(0), 1)
    body: list[n.Stmt] = [b.store(out, b.gid(0), n.Call(t.f64, "outer", (v, j)))]
    checks = [b.check(1, "v", function="helper")]
    k = b.kernel("k", [b.param("v", v.type), b.param("out", out.type)], body)
    m = b.module(k, helper, outer, checks=checks)
    vs = np.arange(4, dtype=np.float64) * 10
    res = np.zeros(6)
    err, msg = both(m, [vs, res], 6)
    np.testing.assert_array_equal(res, [-1, 1 + 0 + 1, 21 + 2, 41 + 3, 61 + 4, 1 + 5])
    assert err[0] == 1 and err[1] == 4 and msg is not None


def test_void_device_function_stores_through_array() -> None:
    out = b.ref("o", b.mut(t.i32))
    setter = b.func("setter", [b.param("o", out.type), b.param("j", t.i64)],
                    [b.store(out, b.var("j"), b.cast(t.i32, b.var("j")))])  # fmt: skip
    body: list[n.Stmt] = [n.ExprStmt(n.Call(t.boolean, "setter", (out, b.gid(0))))]
    m = b.module(b.kernel("k", [b.param("o", out.type)], body), setter)
    res = np.zeros(9, dtype=np.int32)
    both(m, [res], 9)
    np.testing.assert_array_equal(res, np.arange(9))
