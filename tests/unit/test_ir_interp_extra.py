"""The reference interpreter: calls, views, argument conversion, f16, control-flow corners."""

from __future__ import annotations

import numpy as np
import pytest

from gpuoff.errors import LaunchTypeError
from gpuoff.ir import interp
from gpuoff.ir import nodes as n
from gpuoff.ir.types import f16, f32, i32, i64, u8
from gpuoff.ir.verify import verify
from tests.unit import irbuild as b


def test_nested_calls_and_shared_array_arguments() -> None:
    sh_t = b.shared_t(f32, 4)
    arr_p = b.ref("s", sh_t)
    v = b.var("v", f32)
    inner = b.func("inner", [b.param("v", f32)], [n.Return(b.bin_("mul", v, 3.0))], ret=f32)
    fill = b.func(
        "fill",
        [b.param("s", sh_t), b.param("v", f32)],
        [b.store(arr_p, b.wi("local_id"), n.Call(f32, "inner", (v,)))],
    )
    sh = b.ref("tmp", sh_t)
    out = b.ref("out", b.mut(f32))
    body: list[n.Stmt] = [
        n.ExprStmt(n.Call(b.boolean, "fill", (sh, b.cast(f32, b.gid())))),
        n.Barrier(),
        b.store(out, b.gid(), b.load(sh, b.bin_("sub", 3, b.wi("local_id")))),
    ]
    k = b.kernel("k", [b.param("out", out.type)], body, shared=(n.SharedArray("tmp", sh_t),))
    m = b.module(k, inner, fill)
    verify(m)
    res = np.zeros(8, np.float32)
    interp.run(m, [res], 8, 4)
    assert res.tolist() == [9.0, 6.0, 3.0, 0.0, 21.0, 18.0, 15.0, 12.0]


def test_two_dimensional_transposed_views() -> None:
    src = b.ref("src", b.arr(f32, 2, contiguous=False))
    dst = b.ref("dst", b.mut(f32, 2, contiguous=False))
    i, j = b.gid(0), b.gid(1)
    body: list[n.Stmt] = [b.store(dst, (i, j), b.bin_("add", b.load(src, j, i), 0.5))]
    m = b.module(b.kernel("k", [b.param("src", src.type), b.param("dst", dst.type)], body))
    verify(m)
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    out_base = np.zeros((4, 6), np.float32)
    out = out_base[:, ::2]  # 4 x 3, strided
    interp.run(m, [a, out], (4, 3))  # out[i, j] = a[j, i] + 0.5
    assert (out == a.T + 0.5).all()
    assert (out_base[:, 1::2] == 0).all()


def test_scalar_arguments_are_converted_and_range_checked() -> None:
    out = b.ref("out", b.mut(i64))
    ps = [b.param("a", i32), b.param("f", f16), b.param("flag", b.boolean)]
    body: list[n.Stmt] = [
        b.store(out, 0, b.cast(i64, b.var("a", i32))),
        b.store(out, 1, b.cast(i64, b.bin_("mul", b.var("f", f16), b.c(2.0, f16)))),
        b.store(out, 2, b.cast(i64, b.var("flag", b.boolean))),
    ]
    m = b.module(b.kernel("k", [*ps, b.param("out", out.type)], body))
    verify(m)
    res = np.zeros(3, np.int64)
    interp.run(m, [np.int64(-5), np.float32(3.25), np.bool_(True), res], 1)
    assert res.tolist() == [-5, 6, 1]
    for bad in (2**31, 2.5, "3", np.zeros(1)):
        with pytest.raises(LaunchTypeError):
            interp.run(m, [bad, 1.0, False, res], 1)
    interp.run(m, [7.0, 1.0, 0, res], 1)  # an integral float is accepted for an int
    assert res.tolist() == [7, 2, 0]


def test_f16_arithmetic_rounds_to_half() -> None:
    out = b.ref("out", b.mut(f16))
    x = b.var("x", f16)
    body: list[n.Stmt] = [
        b.store(out, 0, b.bin_("add", x, b.c(2.0**-11, f16))),
        b.store(out, 1, b.math("sqrt", x)),
        b.store(out, 2, b.c(0.1, f16)),
    ]
    m = b.module(b.kernel("k", [b.param("x", f16), b.param("out", out.type)], body))
    verify(m)
    res = np.zeros(3, np.float16)
    interp.run(m, [1.0, res], 1)
    assert res[0] == np.float16(1.0)  # 1 + 2**-11 is a tie in f16, rounds to even
    assert res[1] == np.float16(1.0)
    assert res[2] == np.float16(0.1)


def test_u8_arithmetic_wraps_and_divides() -> None:
    out = b.ref("out", b.mut(u8))
    x, y = b.var("x", u8), b.var("y", u8)
    body: list[n.Stmt] = [
        b.store(out, 0, b.bin_("sub", x, y)),
        b.store(out, 1, b.bin_("floordiv", x, y)),
        b.store(out, 2, b.bin_("mod", x, y)),
        b.store(out, 3, b.bin_("mul", x, x)),
    ]
    m = b.module(
        b.kernel("k", [b.param("x", u8), b.param("y", u8), b.param("out", out.type)], body)
    )
    verify(m)
    res = np.zeros(4, np.uint8)
    interp.run(m, [7, 200, res], 1)
    assert res.tolist() == [63, 0, 7, 49]


def test_return_from_inside_loops_in_kernel_and_device_function() -> None:
    k_var = b.var("k")
    first = b.func(
        "first_over",
        [b.param("lim", i64)],
        [b.for_("k", 0, 100, 1, [b.if_(b.cmp("gt", b.bin_("mul", k_var, k_var), b.var("lim")),
                                      [n.Return(k_var)])]),
         n.Return(b.c(-1))],
        {"k": i64},
        ret=i64,
    )  # fmt: skip
    out = b.ref("out", b.mut(i64))
    body: list[n.Stmt] = [
        b.store(out, 0, n.Call(i64, "first_over", (b.c(50),))),
        b.while_(b.c(True), [b.store(out, 1, b.c(5)), n.Return(), b.store(out, 1, b.c(9))]),
        b.store(out, 2, b.c(9)),
    ]
    m = b.module(b.kernel("k", [b.param("out", out.type)], body), first)
    verify(m)
    res = np.zeros(3, np.int64)
    interp.run(m, [res], 1)
    assert res.tolist() == [8, 5, 0]


def test_missing_return_value_is_undefined() -> None:
    f = b.func("f", [], [], ret=i32)
    out = b.ref("out", b.mut(i32))
    m = b.module(
        b.kernel("k", [b.param("out", out.type)], [b.store(out, 0, n.Call(i32, "f", ()))]), f
    )
    verify(m)
    with pytest.raises(interp.UndefinedBehaviorError, match="returned no value"):
        interp.run(m, [np.zeros(1, np.int32)], 1)


def test_locals_start_at_zero_and_keep_values_per_work_item() -> None:
    out = b.ref("out", b.mut(i64))
    acc = b.var("acc")
    body: list[n.Stmt] = [
        b.assign("acc", b.bin_("add", acc, b.gid())),
        b.store(out, b.gid(), acc),
    ]
    m = b.module(b.kernel("k", [b.param("out", out.type)], body, {"acc": i64}))
    res = np.full(4, -1, np.int64)
    interp.run(m, [res], 4)
    assert res.tolist() == [0, 1, 2, 3]
