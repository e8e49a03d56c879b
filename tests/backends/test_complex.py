"""Complex numbers (issue 15, item 7): ``complex64``/``complex128`` arrays (NumPy's, zero-copy
on cpu; buffers on every device) and values, ``complex(re, im)``, ``.real``/``.imag``,
``+ - * /`` (NumPy's division), ``abs``, ``conjugate``, ``cmath.exp``/``sqrt``/``log``/
``phase``, NEP 50 promotion with real operands, complex locals, device-function parameters
and results; on every device against the interpreter (bit for bit where no libm function is
involved) and NumPy; and in PTX (ptxas sm_80/sm_90)."""

from __future__ import annotations

import cmath
import itertools
import math
import shutil
from pathlib import Path
from typing import Any, TypeAlias

import numpy as np
import pytest

import gpuoff as go
from codegen.nvptx import compile_ptx
from gpuoff import Array, Borrow, BorrowMut, complex64, complex128, f32, f64, i32, i64
from tests.backends.agree import agree, arg_types, specialise
from tests.backends.test_ptx import assemble

NDArray = np.ndarray[Any, Any]
RNG = np.random.default_rng(7)
C: TypeAlias = complex64  # the complex and the real type each test substitutes (specialise)
R: TypeAlias = f32
EDGES = [0.0, -0.0, -2.5, np.inf, np.nan, 3e30]


def _random(n: int, dtype: Any) -> NDArray:
    return (RNG.normal(size=n) + 1j * RNG.normal(size=n)).astype(dtype)


def _edge_pairs(dtype: Any) -> tuple[NDArray, NDArray]:
    z = np.array([complex(x, y) for x, y in itertools.product(EDGES, EDGES)], dtype)
    a, b = np.meshgrid(z, z)
    return a.ravel(), b.ravel()


def _same(got: NDArray, want: NDArray) -> None:
    """Equal bit for bit, NaNs equal wherever both are NaN (and the signs of zeros)."""
    for part in ("real", "imag"):
        g, w = getattr(got, part), getattr(want, part)
        np.testing.assert_array_equal(g, w)
        both = ~np.isnan(g) & ~np.isnan(w)
        np.testing.assert_array_equal(np.signbit(g[both]), np.signbit(w[both]))


# -- arithmetic --------------------------------------------------------------------------------


def arith(a: Borrow[Array[C]], b: Borrow[Array[C]], x: Borrow[Array[R]],
          out: BorrowMut[Array[C]]) -> None:  # fmt: skip
    i = go.global_id(0)
    z, w = a[i], b[i]
    out[i, 0] = z + w
    out[i, 1] = z - w
    out[i, 2] = z * w
    out[i, 3] = z / w
    out[i, 4] = z.conjugate() - x[i]
    out[i, 5] = x[i] / w
    out[i, 6] = -z * 2.0 + 1j
    out[i, 7] = z ** 3


ARITH = {t: specialise(arith, C=t, R=r) for t, r in ((complex64, f32), (complex128, f64))}


def _mul(a: NDArray, b: NDArray) -> NDArray:
    """NumPy's scalar complex product (its array loops may contract to FMA on some CPUs)."""
    with np.errstate(all="ignore"):
        re = a.real * b.real - a.imag * b.imag
        im = a.real * b.imag + a.imag * b.real
    out: NDArray = (re + 1j * im).astype(a.dtype)
    out.real, out.imag = re, im  # (keeps NaN parts and signed zeros as computed)
    return out


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_arithmetic_is_numpys(device: str, dtype: Any) -> None:
    a, b = _edge_pairs(dtype)
    a = np.concatenate([a, _random(64, dtype)])
    b = np.concatenate([b, _random(64, dtype)])
    n = len(a)
    x = a.real.copy()
    t = complex64 if dtype == np.complex64 else complex128
    (out,) = agree(ARITH[t], n, a, b, x, np.zeros((n, 8), dtype))[3:]
    with np.errstate(all="ignore"):
        _same(out[:, 0], a + b)
        _same(out[:, 1], a - b)
        _same(out[:, 2], _mul(a, b))
        _same(out[:, 3], a / b)  # NumPy's Smith division, bit for bit
        _same(out[:, 4], np.conj(a) - x)
        _same(out[:, 5], x / b)
        _same(out[:, 6], _mul(-a, np.full(n, 2.0, dtype)) + 1j)
        fine = np.isfinite(a) & (abs(a) < 1e3)
        np.testing.assert_allclose(out[fine, 7], a[fine] ** 3, rtol=1e-5)


# -- math --------------------------------------------------------------------------------------


def maths(a: Borrow[Array[C]], z_out: BorrowMut[Array[C]], r_out: BorrowMut[Array[R]]) -> None:
    i = go.global_id(0)
    z = a[i]
    z_out[i, 0] = cmath.exp(z)
    z_out[i, 1] = cmath.sqrt(z)
    z_out[i, 2] = cmath.log(z)
    z_out[i, 3] = np.exp(z)
    z_out[i, 4] = cmath.rect(z.real, z.imag)
    r_out[i, 0] = abs(z)
    r_out[i, 1] = cmath.phase(z)
    r_out[i, 2] = z.real
    r_out[i, 3] = z.imag
    r_out[i, 4] = go.f32(cmath.isfinite(z))


MATHS = {t: specialise(maths, C=t, R=r) for t, r in ((complex64, f32), (complex128, f64))}


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_math_is_numpys(device: str, dtype: Any) -> None:
    a = np.concatenate([_random(48, dtype), np.array([0, -0.0, 2, -2, 1j, -1j, 1e-3 - 4j,
                                                      complex(-3, -0.0)], dtype)])  # fmt: skip
    n = len(a)
    real = a.real.dtype
    t = complex64 if dtype == np.complex64 else complex128
    tol = 2e-6 if dtype == np.complex64 else 1e-14
    z, r = agree(MATHS[t], n, a, np.zeros((n, 5), dtype), np.zeros((n, 5), real),
                 rtol=tol, atol=tol)[1:]  # fmt: skip
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(z[:, 0], np.exp(a), rtol=4 * tol, atol=tol)
        np.testing.assert_allclose(z[:, 1], np.sqrt(a), rtol=4 * tol, atol=tol)
        ok = a != 0
        np.testing.assert_allclose(z[ok, 2], np.log(a[ok]), rtol=4 * tol, atol=tol)
        np.testing.assert_allclose(z[:, 3], np.exp(a), rtol=4 * tol, atol=tol)
        rect = a.real * np.exp(1j * a.imag)
        np.testing.assert_allclose(z[:, 4], rect, rtol=4 * tol, atol=tol)
        np.testing.assert_allclose(r[:, 0], np.abs(a), rtol=tol)
        np.testing.assert_allclose(r[:, 1], np.angle(a), rtol=tol, atol=tol)
    np.testing.assert_array_equal(r[:, 2], a.real)
    np.testing.assert_array_equal(r[:, 3], a.imag)
    # the signs of zeros where the C99 functions fix them
    assert np.signbit(z[n - 1, 1].imag) and not np.signbit(z[n - 7, 1].real)


# -- promotion (NEP 50 on the complex dtypes) -------------------------------------------------


@go.kernel
def promoted(a: Borrow[Array[complex64]], x: Borrow[Array[f64]], k: Borrow[Array[i32]],
             out: BorrowMut[Array[complex128]],
             low: BorrowMut[Array[complex64]]) -> None:  # fmt: skip
    i = go.global_id(0)
    z = a[i]
    out[i, 0] = z * x[i]  # complex64 with f64: complex128
    out[i, 1] = z + k[i]  # with i32: complex128
    out[i, 2] = z / 3  # a Python int stays weak: complex64 arithmetic
    low[i, 0] = z * 0.1  # a Python float: complex64
    low[i, 1] = complex(go.f32(x[i]), go.f32(1.5))  # parts of f32: complex64
    low[i, 2] = go.complex64(x[i], x[i])  # the dtype as a constructor (rounds to f32)


def test_promotion_follows_numpy(device: str) -> None:
    n = 16
    a, x = _random(n, np.complex64), RNG.normal(size=n)
    k = RNG.integers(-5, 5, n).astype(np.int32)
    out, low = agree(promoted, n, a, x, k, np.zeros((n, 3), np.complex128),
                     np.zeros((n, 3), np.complex64))[3:]  # fmt: skip
    _same(out[:, 0], _mul(a.astype(np.complex128), x.astype(np.complex128)))
    _same(out[:, 1], a + k)
    assert (a / 3).dtype == np.complex64
    _same(out[:, 2], (a / np.complex64(3)).astype(np.complex128))
    _same(low[:, 0], _mul(a, np.full(n, np.complex64(0.1))))
    _same(low[:, 1], (x.astype(np.float32) + 1.5j).astype(np.complex64))
    _same(low[:, 2], np.complex64(1) * (x.astype(np.float32) + 1j * x.astype(np.float32)))


# -- locals, loops, device functions -----------------------------------------------------------


@go.func
def twiddle(k: i64, n: i64) -> complex64:
    return complex64(cmath.exp(complex(f32(0.0), f32(-2.0 * math.pi * k / n))))


@go.func
def multiply(a: complex64, b: complex64) -> complex64:
    return a * b


@go.func
def split(z: complex64):  # type: ignore[no-untyped-def]
    """An inferred result: a tuple holding a real and a complex number."""
    return z.real, z


@go.kernel
def dft(x: Borrow[Array[complex64]], out: BorrowMut[Array[complex64]]) -> None:
    """A direct DFT: a complex accumulator over a loop, device functions taking and returning
    complex numbers, ``+=``/``*=`` on locals and on elements."""
    k = go.global_id(0)
    n = len(x)
    acc: complex64 = complex64(0)
    for j in range(n):
        acc += multiply(x[j], twiddle(j * k % n, n))
    re, z = split(acc)
    out[k] = z
    out[k] *= 1.0 + 0j
    if re != z.real or z != acc:
        out[k] = 0


def test_a_dft_with_complex_locals_and_functions(device: str) -> None:
    n = 32
    x = _random(n, np.complex64)
    (out,) = agree(dft, n, x, np.zeros(n, np.complex64), rtol=1e-5, atol=1e-5)[1:]
    np.testing.assert_allclose(out, np.fft.fft(x), rtol=1e-4, atol=1e-4)


@go.kernel
def scale(z: BorrowMut[Array[complex128]], s: f64) -> None:
    i, j = go.global_id(0), go.global_id(1)
    z[i, j] = z[i, j] * s


def test_buffers_and_strided_arrays(device: str) -> None:
    host = _random(24, np.complex128).reshape(4, 6)
    buf = go.array(host)
    scale[4, 6](buf, 2.0)
    np.testing.assert_array_equal(buf.numpy(), host * 2.0)
    assert buf.dtype == np.complex128 and buf.shape == (4, 6)
    strided = host.copy()
    view = strided[:, ::2]  # every other column: not contiguous
    scale[4, 3](view, 0.5)
    want = host.copy()
    want[:, ::2] *= 0.5
    np.testing.assert_array_equal(strided, want)
    zeros = go.zeros((2, 3), go.complex128)
    scale[2, 3](zeros, 3.0)
    np.testing.assert_array_equal(zeros.numpy(), np.zeros((2, 3)))


@go.kernel
def conj_into(a: Borrow[Array[complex64]], out: BorrowMut[Array[complex64]]) -> None:
    i = go.global_id(0)
    out[i] = a[i].conjugate()


def test_a_numpy_array_passes_zero_copy_on_cpu() -> None:
    a = _random(8, np.complex64)
    out = np.zeros(8, np.complex64)
    with go.on("cpu"):
        buf = go.asarray(out)  # over the NumPy array's memory
        conj_into[8](a, buf)
        go.synchronize()
    np.testing.assert_array_equal(out, np.conj(a))


def test_a_bounds_error_names_the_complex_array() -> None:
    with go.on("cpu"):
        with pytest.raises(go.BoundsError, match=r"index \(8,\) out of range for a with "
                                                 r"shape \(8,\)"):
            conj_into[9](np.zeros(8, np.complex64), np.zeros(9, np.complex64))


def test_a_wrong_dtype_is_a_launch_type_error() -> None:
    with pytest.raises(go.LaunchTypeError, match="complex64"):
        conj_into[4](np.zeros(4, np.complex128), np.zeros(4, np.complex64))
    with pytest.raises(go.LaunchTypeError, match="complex64"):
        conj_into[4](np.zeros(4, np.float32), np.zeros(4, np.complex64))


# -- PTX ---------------------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not on the PATH")
@pytest.mark.parametrize("sm", [80, 90])
def test_complex_kernels_assemble_to_ptx(sm: int, tmp_path: Path) -> None:
    from gpuoff.frontend import lower_kernel

    n = 4
    c64, c128 = np.zeros(n, np.complex64), np.zeros(n, np.complex128)
    cases: list[tuple[Any, tuple[Any, ...]]] = [
        (ARITH[complex64], (c64, c64, np.zeros(n, np.float32), np.zeros((n, 8), np.complex64))),
        (MATHS[complex128], (c128, np.zeros((n, 5), np.complex128), np.zeros((n, 5)))),
        (dft, (c64, c64)),
    ]
    for kernel, args in cases:
        module = lower_kernel(kernel.pyfunc, arg_types(kernel, args))
        info = assemble(compile_ptx(module, sm=sm).ptx, sm, tmp_path)
        assert "0 bytes stack frame" in info, info  # complex values stay in registers


@go.kernel
def reverse_in_group(x: Borrow[Array[complex64]], out: BorrowMut[Array[complex64]]) -> None:
    """A complex shared array across a barrier, and a complex private array."""
    i, li = go.global_id(0), go.local_id(0)
    s = go.shared(8, complex64)
    p = go.local_array(2, complex64)
    p[1] = x[i] * 1j
    s[li] = p[0] + p[1]
    go.barrier()
    out[i] = s[7 - li]


def test_shared_and_private_complex_arrays(device: str) -> None:
    x = _random(16, np.complex64)
    (out,) = agree(reverse_in_group, 16, x, np.zeros(16, np.complex64), block=(8,))[1:]
    want = (x * 1j).reshape(2, 8)[:, ::-1].ravel()
    _same(out, want.astype(np.complex64))
