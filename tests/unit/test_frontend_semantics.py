"""Lowered kernels mean what the Python source means: each kernel here also runs as plain
Python on NumPy arrays, and the IR reference interpreter must produce the same results."""

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, f64, i32, i64
from gpuoff.frontend import lower_kernel, parse_signature
from gpuoff.ir import interp
from gpuoff.ir import types as T
from gpuoff.ir.verify import verify

NDArray = np.ndarray[Any, Any]


def run_both(fn: Callable[..., None], *args: Any) -> tuple[list[Any], list[Any]]:
    """Run ``fn`` as Python and through the IR interpreter (one work-item) on copies of
    ``args``; return the array arguments after each run."""
    types: list[T.ScalarType | T.ArrayType] = []
    for d, a in zip(parse_signature(fn), args, strict=True):
        types.append(T.ArrayType(d.dtype, a.ndim) if d.is_array else d.dtype)
    module = lower_kernel(fn, types)
    verify(module)
    py_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    ir_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    with np.errstate(all="ignore"):
        fn(*py_args)
    interp.run(module, ir_args, 1)
    pick = [k for k, a in enumerate(args) if isinstance(a, np.ndarray)]
    return [py_args[k] for k in pick], [ir_args[k] for k in pick]


def assert_same(fn: Callable[..., None], *args: Any) -> None:
    py, ir = run_both(fn, *args)
    for p, r in zip(py, ir, strict=True):
        np.testing.assert_array_equal(r, p)


def k_int_division(a: i64, b: i64, out: BorrowMut[Array[i64]]) -> None:
    out[0] = a // b
    out[1] = a % b
    out[2] = -a // b
    out[3] = a % -b


@settings(max_examples=60, deadline=None)
@given(st.integers(-1000, 1000), st.integers(-50, 50).filter(lambda v: v != 0))
def test_integer_floor_division_and_modulo(a: int, b: int) -> None:
    assert_same(k_int_division, a, b, np.zeros(4, np.int64))


def k_float_division(a: f64, b: f64, out: BorrowMut[Array[f64]]) -> None:
    out[0] = a // b
    out[1] = a % b
    out[2] = a / b


@settings(max_examples=60, deadline=None)
@given(
    st.floats(-1e3, 1e3, allow_nan=False),
    st.floats(-50, 50, allow_nan=False).filter(lambda v: abs(v) > 1e-3),
)
def test_float_floor_division_and_modulo(a: float, b: float) -> None:
    py, ir = run_both(k_float_division, a, b, np.zeros(3))
    np.testing.assert_allclose(ir[0], py[0], rtol=1e-12, atol=1e-12)


def k_ranges(n: i32, s: i32, out: BorrowMut[Array[i64]]) -> None:
    total = 0
    for k in range(n):
        total += k
    out[0] = total
    total = 0
    for k in range(n, -n, -3):
        total = total * 3 + k
    out[1] = total
    total = 0
    k = 99  # kept when the loop below runs no iteration
    for k in range(-n, n, s):
        total += k
    out[2] = total
    out[3] = k


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 12), st.integers(1, 5))
def test_range_loops(n: int, s: int) -> None:
    assert_same(k_ranges, n, s, np.zeros(4, np.int64))


def k_while(n: i32, out: BorrowMut[Array[i64]]) -> None:
    k = 0
    found = -1
    while k < 100:
        k += 1
        if k % 3 == 0:
            continue
        if k * k > n:
            found = k
            break
    out[0] = found
    a, b = 0, 1
    for _ in range(n % 20):
        a, b = b, a + b
    out[1] = a


@pytest.mark.parametrize("n", [0, 5, 50, 999])
def test_while_break_continue_and_tuple_swap(n: int) -> None:
    assert_same(k_while, n, np.zeros(2, np.int64))


def k_logic(n: i32, x: Borrow[Array[f32]], out: BorrowMut[Array[go.boolean]]) -> None:
    # x has 5 elements: x[n + 5] is out of range, so evaluating it would be a BoundsError.
    out[0] = n < 0 and x[n + 5] > 0
    out[1] = n >= 0 or x[n + 5] > 0
    out[2] = 0 < n < 5
    out[3] = not n
    out[4] = (x[n] if n < 5 else x[n + 5]) > 0


@pytest.mark.parametrize("n", [0, 1, 3, 4])
def test_short_circuit_and_select_evaluate_only_what_python_does(n: int) -> None:
    x = np.array([1.0, -1.0, 2.0, -3.0, 0.0], np.float32)
    assert_same(k_logic, n, x, np.zeros(5, bool))


def k_promotions(x: Borrow[Array[f32]], n: i32, out32: BorrowMut[Array[f32]],
                 out64: BorrowMut[Array[f64]]) -> None:  # fmt: skip
    out32[0] = x[0] * 2.5 + 1
    out32[1] = x[0] / 3
    out64[0] = x[0] * n
    out64[1] = n / 7
    out64[2] = int(x[1]) + float(n) + bool(x[2])
    out32[2] = abs(x[1]) + min(x[0], x[1], 0.5) + max(n, 1)


def test_promotions_match_numpy_scalars() -> None:
    x = np.array([1.25, -2.75, 0.0], np.float32)
    assert_same(k_promotions, x, 3, np.zeros(3, np.float32), np.zeros(3))


def k_math(x: Borrow[Array[f64]], out: BorrowMut[Array[f64]]) -> None:
    out[0] = math.sqrt(x[0]) + math.exp(x[1]) + math.log(x[0])
    out[1] = math.floor(x[1]) + math.ceil(x[1]) + math.fabs(x[1])
    out[2] = math.sin(x[0]) * math.cos(x[0]) + math.tanh(x[1]) + math.pow(x[0], 1.5)
    out[3] = math.pi * math.erf(x[1])


def test_math_functions() -> None:
    x = np.array([2.0, -0.75])
    py, ir = run_both(k_math, x, np.zeros(4))
    np.testing.assert_allclose(ir[0], py[0], rtol=1e-12)


def run_both_ir(fn: Callable[..., None], *args: NDArray) -> tuple[None, list[NDArray]]:
    types: list[T.ScalarType | T.ArrayType] = [
        T.ArrayType(d.dtype, a.ndim) for d, a in zip(parse_signature(fn), args, strict=True)
    ]
    module = lower_kernel(fn, types)
    verify(module)
    ir_args = [a.copy() for a in args]
    interp.run(module, ir_args, 1)
    return None, ir_args


@go.func
def poly(v: f64, c: f64) -> f64:
    acc = 0.0
    for k in range(3):
        acc = acc * v + c + k
    return acc  # type: ignore[return-value]


@go.func
def bump(buf: BorrowMut[Array[f64]], k: i64, by: f64) -> None:
    buf[k] += by


def k_device(x: Borrow[Array[f64]], out: BorrowMut[Array[f64]]) -> None:
    for k in range(len(x)):
        out[k] = poly(x[k], 0.5)
        bump(out, k, 1)


def test_device_functions_run_like_python() -> None:
    x = np.array([0.5, -1.0, 2.0])
    # Device functions raise when called on the host: use their plain Python functions.
    expected = np.array([poly.pyfunc(v, f64(0.5)) + 1 for v in x])
    _, ir = run_both_ir(k_device, x, np.zeros(3))
    np.testing.assert_allclose(ir[1], expected)


def k_2d(a: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    for i in range(a.shape[0]):
        for j in range(a.shape[-1]):
            out[j, i] += a[i, j] * 2


def test_two_dimensional_transpose() -> None:
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert_same(k_2d, a, np.ones((3, 2), np.float32))


def k_shared_reverse(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    tile = go.shared(8, f32)
    lid = go.local_id(0)
    tile[lid] = x[go.global_id(0)]
    go.barrier()
    y[go.global_id(0)] = tile[go.local_size(0) - 1 - lid]
    go.atomic_add(y, 0, 1.0)


def test_shared_memory_and_barrier_through_interpreter() -> None:
    module = lower_kernel(k_shared_reverse, [T.ArrayType(T.f32, 1)] * 2)
    verify(module)
    x = np.arange(16, dtype=np.float32)
    y = np.zeros(16, np.float32)
    interp.run(module, [x, y], 16, 8)
    expected = np.concatenate([x[:8][::-1], x[8:][::-1]])
    # The interpreter runs items in order: item 0 stores y[0] = x[7] first, then all 16
    # work-items add 1 to it.
    expected[0] += 16
    assert y.tolist() == expected.tolist()


def k_bounds(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = x[len(x)]


def test_out_of_range_access_reports_the_source_line() -> None:
    module = lower_kernel(k_bounds, [T.ArrayType(T.f32, 1)] * 2)
    with pytest.raises(go.BoundsError) as info:
        interp.run(module, [np.zeros(3, np.float32), np.zeros(1, np.float32)], 1)
    assert "x[len(x)]" in str(info.value)


def k_last(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[-1] = x[-1] + x[-3]


def test_negative_constant_index_like_numpy() -> None:
    assert_same(k_last, np.arange(4, dtype=np.float32), np.zeros(2, np.float32))
