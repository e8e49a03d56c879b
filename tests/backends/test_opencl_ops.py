"""Scalar operations on opencl:0 (PoCL) against the reference interpreter, bit for bit.

Each kernel computes many operations at once so that PoCL compiles few programs."""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut
from gpuoff.ir import types as t
from gpuoff.ownership import Access
from tests.backends.test_opencl_support import has_opencl, lower, run_both, with_dtype

T: TypeAlias = go.i64  # stands for the element type each test substitutes (with_dtype)

pytestmark = pytest.mark.skipif(not has_opencl(), reason="no OpenCL device")

INT_EDGES = {
    "int32": [0, 1, -1, 2, -2, 7, -7, 3, -3, 2**31 - 1, -(2**31)],
    "int64": [0, 1, -1, 5, -5, 13, -13, 2**63 - 1, -(2**63)],
    "uint32": [0, 1, 2, 3, 7, 2**32 - 1, 2**31],
    "uint8": [0, 1, 2, 3, 200, 255],
    "int8": [0, 1, -1, 3, -3, 7, 127, -128, 100],
    "int16": [0, 1, -1, 3, -3, 255, 32767, -32768, 300],
    "uint16": [0, 1, 2, 3, 7, 255, 300, 65535, 32768],
    "uint64": [0, 1, 2, 3, 7, 2**64 - 1, 2**63, 2**32 + 5],
}


def int_ops(a: Borrow[Array[T]], b: Borrow[Array[T]], out: BorrowMut[Array[T]]) -> None:
    i = go.global_id(0)
    if i < a.shape[0]:
        x = a[i]
        y = b[i]
        out[0, i] = x + y
        out[1, i] = x - y
        out[2, i] = x * y
        out[3, i] = x // y
        out[4, i] = x % y
        out[5, i] = x & y
        out[6, i] = x | y
        out[7, i] = x ^ y
        out[8, i] = x << y
        out[9, i] = x >> y
        out[10, i] = min(x, y)
        out[11, i] = max(x, y)
        out[12, i] = abs(x)
        out[13, i] = ~x
        out[14, i] = x ** (y & 3)
        if x < y:
            out[15, i] = x
        if x == y or x >= y:
            out[16, i] = y


@pytest.mark.parametrize("dtype", list(INT_EDGES))
def test_integer_operations(dtype: str) -> None:
    vals = np.array(INT_EDGES[dtype], dtype=dtype)
    a, b = (g.ravel() for g in np.meshgrid(vals, vals))
    out = np.zeros((17, a.size), dtype)
    st = t.scalar_from_numpy(np.dtype(dtype))
    types = [t.ArrayType(st, 1), t.ArrayType(st, 1), t.ArrayType(st, 2, access=Access.BORROW_MUT)]
    run_both(lower(with_dtype(int_ops, st.lang_type), types), [a, b, out], (a.size,))
    # Spot-check Python's rules directly too (not only "agrees with the interpreter").
    if dtype == "int32":
        k = list(zip(a.tolist(), b.tolist(), strict=True)).index((-7, 2))
        assert (out[3, k], out[4, k]) == (-4, 1)
        k = list(zip(a.tolist(), b.tolist(), strict=True)).index((7, 0))
        assert (out[3, k], out[4, k]) == (0, 0)


def float_ops(a: Borrow[Array[T]], b: Borrow[Array[T]],
              out: BorrowMut[Array[T]], flags: BorrowMut[Array[go.boolean]],
              ints: BorrowMut[Array[go.i64]]) -> None:  # fmt: skip
    i = go.global_id(0)
    if i < a.shape[0]:
        x = a[i]
        y = b[i]
        out[0, i] = x + y
        out[1, i] = x - y
        out[2, i] = x * y
        out[3, i] = x / y
        out[4, i] = x // y
        out[5, i] = x % y
        out[6, i] = -x
        out[7, i] = go.min(x, y)
        out[8, i] = go.max(x, y)
        out[9, i] = go.abs(x)
        out[10, i] = go.floor(x)
        out[11, i] = go.ceil(x)
        out[12, i] = go.fma(x, y, x)
        flags[0, i] = x < y
        flags[1, i] = x <= y
        flags[2, i] = x == y
        flags[3, i] = x != y
        flags[4, i] = go.isnan(x)
        flags[5, i] = go.isinf(x)
        flags[6, i] = not (x > y)
        ints[0, i] = int(x)
        ints[1, i] = go.i32(x)
        ints[2, i] = go.u8(x)
        ints[3, i] = go.u32(y)


FLOAT_EDGES = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 7.0, -3.0, 1e30, -1e30, 3e9, -3e9, 300.0,
               float("inf"), float("-inf"), float("nan")]  # fmt: skip


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_operations(dtype: str) -> None:
    a, b = (g.ravel().astype(dtype) for g in np.meshgrid(FLOAT_EDGES, FLOAT_EDGES))
    out = np.zeros((13, a.size), dtype)
    flags = np.zeros((7, a.size), np.bool_)
    ints = np.zeros((4, a.size), np.int64)
    st = t.scalar_from_numpy(np.dtype(dtype))
    mut = Access.BORROW_MUT
    types = [t.ArrayType(st, 1), t.ArrayType(st, 1), t.ArrayType(st, 2, access=mut),
             t.ArrayType(t.boolean, 2, access=mut), t.ArrayType(t.i64, 2, access=mut)]  # fmt: skip
    with np.errstate(all="ignore"):
        module = lower(with_dtype(float_ops, st.lang_type), types)
        run_both(module, [a, b, out, flags, ints], (a.size,))
        np.testing.assert_array_equal(flags[0], a < b)
        np.testing.assert_array_equal(flags[3], a != b)
        np.testing.assert_array_equal(out[4], np.floor_divide(a, b))
        np.testing.assert_array_equal(out[5], np.mod(a, b))
    # Saturating, truncating float -> int casts, NaN -> 0.
    k = int(np.flatnonzero(np.isnan(a))[0])
    assert ints[0, k] == 0
    k = int(np.flatnonzero(a == 1e30)[0])
    assert (ints[0, k], ints[1, k], ints[2, k]) == (2**63 - 1, 2**31 - 1, 255)


def math_ops(a: Borrow[Array[T]], out: BorrowMut[Array[T]]) -> None:
    i = go.global_id(0)
    if i < a.shape[0]:
        x = a[i]
        out[0, i] = go.sqrt(x)
        out[1, i] = go.rsqrt(x)
        out[2, i] = go.exp(x)
        out[3, i] = go.log(x)
        out[4, i] = go.log2(x)
        out[5, i] = go.sin(x)
        out[6, i] = go.cos(x)
        out[7, i] = go.tan(x)
        out[8, i] = go.tanh(x)
        out[9, i] = go.pow(x, 1.5)
        out[10, i] = go.erf(x)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_math_functions_agree_within_device_accuracy(dtype: str) -> None:
    a = np.linspace(0.05, 8.0, 257).astype(dtype)
    out = np.zeros((11, a.size), dtype)
    st = t.scalar_from_numpy(np.dtype(dtype))
    types = [t.ArrayType(st, 1), t.ArrayType(st, 2, access=Access.BORROW_MUT)]
    rtol = 4e-6 if dtype == "float32" else 1e-13
    module = lower(with_dtype(math_ops, st.lang_type), types)
    run_both(module, [a, out], (a.size,), rtol=rtol, atol=rtol)
    np.testing.assert_allclose(out[0], np.sqrt(a), rtol=rtol)
    np.testing.assert_allclose(out[2], np.exp(a), rtol=rtol)
