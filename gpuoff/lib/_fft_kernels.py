"""The kernels of ``gl.fft``: Stockham autosort passes (radix 4 and 2) and the element-wise
steps of Bluestein's algorithm, each written once over the complex dtype.

Every kernel sees its operands as 2-d ``(rows, n)`` complex arrays (one transform per row,
rows along work-item dimension 1) and runs one work-item per butterfly (pass kernels) or per
element (the others). The Stockham formulation follows OTFFT's description (Takuya Okahisa,
"OTFFT: Stockham FFT" notes), written here in gpuoff's terms: a pass of radix ``r`` over
sub-transforms of length ``len = n / stride`` reads the ``r`` elements ``i + k * n / r`` and
writes them, combined and multiplied by the twiddles ``W_len^(k p)``, to
``q + stride * (r p + k)``, where ``q = i mod stride`` and ``p = i / stride``. Reads are
contiguous in ``i`` (every work-item's are ``n / r`` apart), so the cpu vectorises them and a
GPU coalesces them; the output is in natural order after the last pass (no bit reversal).

The twiddle table ``tw[k] = exp(-+2 pi i k / n)`` is one for all passes of one length
(``W_len^(p) = W_n^(p * stride)``), made on the host in f64 (``gpuoff.lib.fourier``).
"""

from __future__ import annotations

import functools
from typing import Any

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut

C = go.DTypeVar("C", go.complex64, go.complex128)
"""The complex dtype of a transform."""
R = go.DTypeVar("R", go.f32, go.f64)
"""Its part type (the scale factor's)."""
S = go.DTypeVar(
    "S", go.boolean, go.i8, go.i16, go.i32, go.i64, go.u8, go.u16, go.u32, go.u64, go.f16,
    go.f32, go.f64, go.complex64, go.complex128,
)
"""The dtype of an input that is widened to ``C`` first."""


@functools.cache
def passes() -> tuple[Any, Any]:
    """The radix-4 and radix-2 Stockham passes."""

    @go.kernel
    def radix4(
        x: Borrow[Array[C]], y: BorrowMut[Array[C]], tw: Borrow[Array[C]],
        stride: int, sc: R, inverse: go.Const[bool],
    ) -> None:  # fmt: skip
        """One radix-4 pass over sub-transforms of stride ``stride``, scaled by ``sc``; grid
        ``(stride, n / (4 stride), rows)``: work-item ``(q, p, row)`` takes butterfly
        ``i = p * stride + q``."""
        q = go.global_id(0)
        p = go.global_id(1)
        row = go.global_id(2)
        m = x.shape[1] // 4
        if q < stride and p < m // stride:
            t = p * stride  # the twiddle's index
            i = t + q
            a = x[row, i]
            b = x[row, i + m]
            c = x[row, i + 2 * m]
            d = x[row, i + 3 * m]
            apc = a + c
            amc = a - c
            bpd = b + d
            bmd = b - d
            # (b - d) times -i (forward) or +i (inverse), by its parts: no multiplication
            if inverse:
                rot = complex(-bmd.imag, bmd.real)
            else:
                rot = complex(bmd.imag, -bmd.real)
            v0 = apc + bpd
            v1 = tw[t] * (amc + rot)
            v2 = tw[2 * t] * (apc - bpd)
            v3 = tw[3 * t] * (amc - rot)
            y[row, (4 * p) * stride + q] = complex(v0.real * sc, v0.imag * sc)
            y[row, (4 * p + 1) * stride + q] = complex(v1.real * sc, v1.imag * sc)
            y[row, (4 * p + 2) * stride + q] = complex(v2.real * sc, v2.imag * sc)
            y[row, (4 * p + 3) * stride + q] = complex(v3.real * sc, v3.imag * sc)

    @go.kernel
    def radix2(
        x: Borrow[Array[C]], y: BorrowMut[Array[C]], tw: Borrow[Array[C]],
        stride: int, sc: R,
    ) -> None:  # fmt: skip
        """One radix-2 pass, as ``radix4``; grid ``(stride, n / (2 stride), rows)``."""
        q = go.global_id(0)
        p = go.global_id(1)
        row = go.global_id(2)
        m = x.shape[1] // 2
        if q < stride and p < m // stride:
            t = p * stride
            a = x[row, t + q]
            b = x[row, t + q + m]
            v0 = a + b
            v1 = tw[t] * (a - b)
            y[row, (2 * p) * stride + q] = complex(v0.real * sc, v0.imag * sc)
            y[row, (2 * p + 1) * stride + q] = complex(v1.real * sc, v1.imag * sc)

    return radix4, radix2


@functools.cache
def elementwise() -> tuple[Any, Any, Any]:
    """``widen`` (any input to the complex dtype, scaled), ``chirp_in`` and ``chirp_out``
    (Bluestein's products with the chirp, zero-padded or cut to length)."""

    @go.kernel
    def widen(x: Borrow[Array[S]], y: BorrowMut[Array[C]], sc: R) -> None:
        """``y = x * sc`` as complex; grid ``(n, rows)``."""
        i = go.global_id(0)
        row = go.global_id(1)
        if i < y.shape[1]:
            v = x[row, i] + 0j  # the input made complex as NumPy does (imag +0)
            y[row, i] = complex(v.real * sc, v.imag * sc)

    @go.kernel
    def chirp_in(x: Borrow[Array[C]], w: Borrow[Array[C]], y: BorrowMut[Array[C]]) -> None:
        """``y[:, :n] = x * w``, ``y[:, n:] = 0`` (``n = x.shape[1]``); grid
        ``(y.shape[1], rows)``."""
        i = go.global_id(0)
        row = go.global_id(1)
        if i < y.shape[1]:
            if i < x.shape[1]:
                y[row, i] = x[row, i] * w[i]
            else:
                y[row, i] = complex(w[0].real * 0, w[0].real * 0)

    @go.kernel
    def chirp_out(x: Borrow[Array[C]], w: Borrow[Array[C]], y: BorrowMut[Array[C]], sc: R) -> None:
        """``y = x[:, :n] * w * sc`` (``n = y.shape[1]``); grid ``(n, rows)``."""
        i = go.global_id(0)
        row = go.global_id(1)
        if i < y.shape[1]:
            v = x[row, i] * w[i]
            y[row, i] = complex(v.real * sc, v.imag * sc)

    return widen, chirp_in, chirp_out


@functools.cache
def pointwise() -> Any:
    """``a *= b`` row by row (Bluestein's spectrum times the chirp's)."""

    @go.kernel
    def multiply(a: BorrowMut[Array[C]], b: Borrow[Array[C]]) -> None:
        """``a[row] *= b``; grid ``(n, rows)``."""
        i = go.global_id(0)
        row = go.global_id(1)
        if i < a.shape[1]:
            a[row, i] = a[row, i] * b[i]

    return multiply
