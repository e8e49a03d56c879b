"""Every integer width (i8, i16, i32, i64, u8, u16, u32, u64) as arrays, scalar parameters,
annotations and casts, on every device, against the interpreter and NumPy (NumPy's promotion
rules, C's wrap-around)."""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut
from gpuoff.ir import types as t
from tests.backends.agree import agree, specialise

A: TypeAlias = go.i64  # stand-ins the tests substitute (specialise)
B: TypeAlias = go.i64
C: TypeAlias = go.i64

WIDTHS = [s.np_dtype.name for s in t.INTEGERS]


def edges(dtype: str, n: int = 24) -> np.ndarray[Any, Any]:
    """The type's extremes, small values and a spread of others."""
    info = np.iinfo(dtype)
    vals = [0, 1, 2, 3, 7, int(info.max), int(info.max) - 1, int(info.min), int(info.min) + 1]
    if info.min < 0:
        vals += [-1, -2, -7]
    rng = np.random.default_rng(len(dtype))
    vals += [int(v) for v in rng.integers(int(info.min), int(info.max), n - len(vals),
                                          dtype=dtype, endpoint=True)]  # fmt: skip
    return np.array(vals[:n], dtype=dtype)


def mixed(a: Borrow[Array[A]], b: Borrow[Array[B]], out: BorrowMut[Array[C]]) -> None:
    i = go.global_id(0)
    if i < out.shape[1]:
        out[0, i] = a[i] + b[i]
        out[1, i] = a[i] - b[i]
        out[2, i] = a[i] * b[i]
        out[3, i] = max(a[i], b[i])
        out[4, i] = a[i] if a[i] < b[i] else b[i]


PAIRS = [("int8", "uint8"), ("int16", "uint16"), ("uint16", "int32"), ("uint64", "uint8"),
         ("int8", "int16"), ("uint64", "int64"), ("int8", "float32"), ("int16", "float16"),
         ("uint16", "uint16"), ("int8", "int8"), ("uint64", "uint64"),
         ("uint32", "int8")]  # fmt: skip


@pytest.mark.parametrize(("da", "db"), PAIRS)
def test_strong_operands_promote_as_numpy(device: str, da: str, db: str) -> None:
    a = edges(da) if np.dtype(da).kind in "iu" else np.linspace(-9, 9, 24).astype(da)
    b = np.roll(edges(db) if np.dtype(db).kind in "iu" else np.linspace(-5, 5, 24).astype(db), 5)
    dc = np.promote_types(da, db)
    if np.float16 in (np.dtype(da), np.dtype(db), dc) and device.startswith("opencl"):
        pytest.skip("f16 arrays need cl_khr_fp16")  # (f16 loads too, not only f16 results)
    k = specialise(mixed, A=go.lang.dtype_of(da), B=go.lang.dtype_of(db),
                   C=go.lang.dtype_of(dc))  # fmt: skip
    out = np.zeros((5, a.size), dc)
    (got,) = agree(k, a.size, a, b, out)[2:]
    with np.errstate(all="ignore"):
        want = [a.astype(dc) + b.astype(dc), a.astype(dc) - b.astype(dc),
                a.astype(dc) * b.astype(dc), np.maximum(a.astype(dc), b.astype(dc)),
                np.minimum(a.astype(dc), b.astype(dc))]  # fmt: skip
        assert (a + b).dtype == dc  # NumPy's own promotion is what the kernel computed in
    np.testing.assert_array_equal(got, np.array(want, dc))


def int_ops(a: Borrow[Array[A]], b: Borrow[Array[A]], out: BorrowMut[Array[A]]) -> None:
    i = go.global_id(0)
    if i < a.shape[0]:
        x = a[i]
        y = b[i]
        out[0, i] = x // y
        out[1, i] = x % y
        out[2, i] = x & y
        out[3, i] = x | y
        out[4, i] = x ^ y
        out[5, i] = x << (y & 7)
        out[6, i] = x >> (y & 7)
        out[7, i] = ~x
        out[8, i] = -x
        out[9, i] = abs(x)
        out[10, i] = x ** (y & 3)
        out[11, i] = x + 1
        out[12, i] = x * 3 - 2


@pytest.mark.parametrize("dtype", WIDTHS)
def test_every_operator_wraps_like_numpy(device: str, dtype: str) -> None:
    a, b = (g.ravel() for g in np.meshgrid(edges(dtype, 12), edges(dtype, 12)[::-1]))
    out = np.zeros((13, a.size), dtype)
    k = specialise(int_ops, A=go.lang.dtype_of(dtype))
    (got,) = agree(k, a.size, a, b, out)[2:]
    nz = b != 0
    with np.errstate(all="ignore"):
        s = (b & 7).astype(dtype)
        np.testing.assert_array_equal(got[0][nz], np.floor_divide(a, b)[nz])
        np.testing.assert_array_equal(got[1][nz], np.mod(a, b)[nz])
        np.testing.assert_array_equal(got[0][~nz], 0)  # integer division by zero gives 0
        np.testing.assert_array_equal(got[2:5], [a & b, a | b, a ^ b])
        np.testing.assert_array_equal(got[5], np.left_shift(a, s))
        np.testing.assert_array_equal(got[6], np.right_shift(a, s))
        np.testing.assert_array_equal(got[7:10], [~a, np.negative(a), np.abs(a)])
        np.testing.assert_array_equal(got[10], np.power(a, (b & 3).astype(dtype)))
        np.testing.assert_array_equal(got[11], a + a.dtype.type(1))
        np.testing.assert_array_equal(got[12], a * a.dtype.type(3) - a.dtype.type(2))


def casts(x: Borrow[Array[go.f64]], n: Borrow[Array[go.i64]], out: BorrowMut[Array[A]],
          back: BorrowMut[Array[go.f64]]) -> None:  # fmt: skip
    i = go.global_id(0)
    if i < x.shape[0]:
        out[0, i] = A(x[i])  # float -> int: truncates toward zero, saturates, NaN -> 0
        out[1, i] = A(n[i])  # int -> int: wraps
        out[2, i] = A(go.f32(x[i]))
        back[i] = go.f64(A(n[i]))


@pytest.mark.parametrize("dtype", WIDTHS)
def test_casts_saturate_from_floats_and_wrap_from_ints(device: str, dtype: str) -> None:
    x = np.array([0.0, -0.7, 0.7, 2.9, -2.9, 127.9, 128.0, -129.0, 255.5, 256.0, 40000.0,
                  -40000.0, 3e9, -3e9, 1e19, 2e19, -1e19, np.inf, -np.inf, np.nan])  # fmt: skip
    nvals = np.array([0, -1, 1, 127, 128, 255, 256, -129, 65535, 65536, -32769, 2**31,
                      -(2**31) - 1, 2**32 + 3, 2**63 - 1, -(2**63), 12345678901, -5, 77,
                      300], dtype=np.int64)  # fmt: skip
    out = np.zeros((3, x.size), dtype)
    back = np.zeros(x.size)
    k = specialise(casts, A=go.lang.dtype_of(dtype))
    got, back_got = agree(k, x.size, x, nvals, out, back)[2:]
    info = np.iinfo(dtype)
    want = [0 if np.isnan(v) else int(min(max(np.trunc(v), float(info.min)), float(info.max)))
            for v in x]  # fmt: skip
    want = [min(max(w, int(info.min)), int(info.max)) for w in want]
    assert got[0].tolist() == want
    np.testing.assert_array_equal(got[1], nvals.astype(dtype))  # NumPy wraps the same way
    np.testing.assert_array_equal(back_got, nvals.astype(dtype).astype(np.float64))


def scalars(a: A, b: B, out: BorrowMut[Array[go.f64]]) -> None:
    if go.global_id(0) == 0:
        out[0] = go.f64(a)
        out[1] = go.f64(b)
        out[2] = go.f64(a + b)


@pytest.mark.parametrize("dtype", WIDTHS)
def test_scalar_parameters_of_every_width(device: str, dtype: str) -> None:
    info = np.iinfo(dtype)
    k = specialise(scalars, A=go.lang.dtype_of(dtype), B=go.lang.dtype_of(dtype))
    out = np.zeros(3)
    k[1](int(info.max), int(info.min), out)
    wide = int(info.max) + int(info.min)
    assert out.tolist() == [float(info.max), float(info.min),
                            float(np.array(wide).astype(dtype))]  # fmt: skip
    k[1](np.dtype(dtype).type(5), 3, out)
    assert out.tolist() == [5.0, 3.0, 8.0]
    for bad in (int(info.max) + 1, int(info.min) - 1):
        with pytest.raises(go.LaunchTypeError, match="out of range"):
            k[1](bad, 0, out)
    with pytest.raises(go.LaunchTypeError, match="a float for an integer parameter"):
        k[1](1.5, 0, out)


@go.kernel
def wrapping_counter(
    n: go.i64, out: BorrowMut[Array[go.u16]], sums: BorrowMut[Array[go.i8]]
) -> None:
    i = go.global_id(0)
    if i < out.shape[0]:
        acc = go.u16(0)  # a local keeps the width it starts with
        small = go.i8(0)
        for k in range(n * i):
            acc += go.u16(k)
            small += 3
        out[i] = acc
        sums[i] = small


def test_locals_keep_their_width_and_wrap(device: str) -> None:
    out = np.zeros(8, np.uint16)
    sums = np.zeros(8, np.int8)
    got, got_sums = agree(wrapping_counter, 8, 100, out, sums)
    for i in range(8):
        m = 100 * i
        assert got[i] == (m * (m - 1) // 2) % 2**16
        assert got_sums[i] == np.array(3 * m).astype(np.int8)


@go.kernel
def big_unsigned(x: Borrow[Array[go.u64]], limit: go.u64, out: BorrowMut[Array[go.u64]],
                 flags: BorrowMut[Array[go.boolean]]) -> None:  # fmt: skip
    i = go.global_id(0)
    if i < x.shape[0]:
        v = x[i]
        out[i] = (v >> 1) + (v & 1) * limit  # above 2**63: unsigned all the way
        flags[i] = v > limit


def test_u64_above_the_signed_range(device: str) -> None:
    x = np.array([0, 1, 2**63, 2**64 - 1, 2**63 + 7, 12345], dtype=np.uint64)
    limit = 2**63 + 3
    out = np.zeros_like(x)
    flags = np.zeros(x.size, np.bool_)
    got, got_flags = agree(big_unsigned, x.size, x, limit, out, flags)[1:]
    want = (x >> np.uint64(1)) + (x & np.uint64(1)) * np.uint64(limit)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got_flags, x > np.uint64(limit))


@pytest.mark.parametrize("dtype", WIDTHS)
def test_every_width_is_a_buffer_dtype(device: str, dtype: str) -> None:
    assert go.zeros(4, go.lang.dtype_of(dtype)).dtype == np.dtype(dtype)
    assert go.zeros(4, getattr(np, dtype)).dtype == np.dtype(dtype)
    assert go.array(np.arange(4, dtype=dtype)).numpy().tolist() == [0, 1, 2, 3]
