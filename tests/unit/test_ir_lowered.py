"""The IR tools on kernels lowered by the front end: verify, print, interpret, drop checks."""

from __future__ import annotations

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32
from gpuoff.errors import BoundsError
from gpuoff.frontend import lower_kernel
from gpuoff.ir import interp
from gpuoff.ir import nodes as n
from gpuoff.ir import types as T
from gpuoff.ir.bounds import eliminate_redundant_checks
from gpuoff.ir.printer import format_module
from gpuoff.ir.verify import verify

A1 = T.ArrayType(T.f32, 1)
A2 = T.ArrayType(T.f32, 2)
I1 = T.ArrayType(T.i32, 1)


@go.kernel
def saxpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


@go.kernel
def copy_len(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < len(x) and i < len(y):
        y[i] = x[i]


@go.kernel
def copy_early_return(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i >= x.shape[0] or i >= y.shape[0]:
        return
    y[i] = x[i] * 2.0


@go.kernel
def row_sums(m: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    r = go.global_id(0)
    if r < m.shape[0] and r < out.shape[0]:
        acc = f32(0.0)
        for c in range(m.shape[1]):
            acc += m[r, c]
        out[r] = acc


@go.kernel
def unguarded(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    y[i] = x[i]


@go.kernel
def shifted(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        i = i + 1
        y[i] = x[0]


@go.kernel
def reduce(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    tmp = go.shared(64, go.f32)
    lid = go.local_id(0)
    tmp[lid] = x[go.global_id(0)]
    go.barrier()
    s = go.local_size(0) // 2
    while s > 0:
        if lid < s:
            tmp[lid] += tmp[lid + s]
        go.barrier()
        s //= 2
    if lid == 0:
        out[go.group_id(0)] = tmp[0]


@go.func
def fdiv(a: i32, b: i32) -> i32:
    return a // b


@go.kernel
def divmod_kernel(x: Borrow[Array[i32]], q: BorrowMut[Array[i32]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        q[2 * i] = fdiv(x[i], i32(3))
        q[2 * i + 1] = x[i] % -3


def lowered(fn: object, types: list[T.ScalarType | T.ArrayType]) -> n.Module:
    m = lower_kernel(fn, types)  # type: ignore[arg-type]
    verify(m)
    opt = eliminate_redundant_checks(m)
    verify(opt)
    format_module(opt)  # prints without error
    return m


def live(m: n.Module) -> list[str]:
    """The arrays of the checks still attached to accesses, in check-id order."""
    text = format_module(eliminate_redundant_checks(m))
    return [c.array for c in m.checks if f"{{c{c.id}}}" in text]


def test_saxpy_matches_numpy_and_keeps_only_x_check() -> None:
    m = lowered(saxpy, [T.f32, A1, A1])
    x = np.arange(10, dtype=np.float32)
    y = np.ones(10, dtype=np.float32)
    interp.run(eliminate_redundant_checks(m), [2.0, x, y], 16)
    assert y.tolist() == (2 * np.arange(10) + 1).tolist()
    assert live(m) == ["x"]


@pytest.mark.parametrize("kernel", [copy_len, copy_early_return])
def test_guard_styles_remove_every_check(kernel: object) -> None:
    m = lowered(kernel, [A1, A1])
    assert live(m) == []
    x = np.arange(5, dtype=np.float32)
    y = np.zeros(7, dtype=np.float32)
    interp.run(eliminate_redundant_checks(m), [x, y], 9)
    scale = 2.0 if kernel is copy_early_return else 1.0
    assert y.tolist() == [*(scale * np.arange(5)).tolist(), 0.0, 0.0]


def test_range_loop_over_shape() -> None:
    m = lowered(row_sums, [A2, A1])
    assert live(m) == []
    mat = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = np.zeros(3, dtype=np.float32)
    interp.run(eliminate_redundant_checks(m), [mat[:, ::-1], out], 4)
    assert out.tolist() == mat.sum(axis=1).tolist()


def test_unguarded_and_reassigned_keep_checks_and_report_the_line() -> None:
    assert live(lowered(unguarded, [A1, A1])) == ["x", "y"]
    m = lowered(shifted, [A1, A1])
    assert "y" in live(m)
    y = np.zeros(3, dtype=np.float32)
    with pytest.raises(BoundsError) as info:
        interp.run(eliminate_redundant_checks(m), [np.ones(1, np.float32), y], 3)
    msg = str(info.value)
    assert msg.startswith("index (3,) out of range for y with shape (3,) in kernel shifted at ")
    assert msg.splitlines()[0].endswith(f"{__file__}:{shifted_line()}: y[i] = x[0]")
    assert y.tolist() == [0.0, 1.0, 1.0]


def shifted_line() -> int:
    """The line of ``y[i] = x[0]`` in this file."""
    with open(__file__) as f:
        return next(k for k, line in enumerate(f, 1) if line.strip() == "y[i] = x[0]")


def test_lowered_reduction_with_barriers() -> None:
    m = lowered(reduce, [A1, A1])
    x = np.random.default_rng(0).random(256).astype(np.float32)
    out = np.zeros(4, dtype=np.float32)
    interp.run(eliminate_redundant_checks(m), [x, out], 256, 64)
    # A tree sum in f32, exactly as the kernel orders it.
    expect = x.reshape(4, 64).copy()
    width = 32
    while width:
        expect[:, :width] += expect[:, width : 2 * width]
        width //= 2
    assert out.tolist() == expect[:, 0].tolist()


def test_device_function_floor_division() -> None:
    m = lowered(divmod_kernel, [I1, I1])
    x = np.array([7, -7, 0, -1], dtype=np.int32)
    q = np.zeros(8, dtype=np.int32)
    interp.run(m, [x, q], 4)
    assert q.tolist() == [v for xi in x.tolist() for v in (xi // 3, xi % -3)]
