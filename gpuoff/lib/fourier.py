"""Discrete Fourier transforms: ``gl.fft``, ``gl.ifft`` (``np.fft.fft``/``ifft``).

A transform runs along the last axis of its input, one transform per position of the axes
before it. A power-of-two length runs as Stockham passes (``gpuoff/lib/_fft_kernels.py``):
radix 4, and one radix-2 pass when ``log2 n`` is odd, ping-ponging between the result and one
scratch buffer so that the last pass lands in the result. Any other length runs Bluestein's
algorithm: the DFT written as a convolution with the chirp ``c_k = exp(-+ i pi k^2 / n)``,
computed as a power-of-two FFT of length ``m >= 2n - 1``, a product with the chirp's spectrum
and an inverse FFT of length ``m``.

The result's dtype is NumPy 2's: complex64 for complex64, float32 and float16 input,
complex128 for everything else (NumPy 2's ``np.fft`` keeps single precision, as scipy.fft
and CuPy do). Tables — twiddles ``exp(-+2 pi i k / n)``, Bluestein's chirp and its spectrum —
are computed on the host in float64 once per (length, direction, dtype, device), cast to the
result's dtype and kept as device buffers, so the error stays near NumPy's (pocketfft's).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import gpuoff as go
from gpuoff.errors import DTypeError, ShapeError
from gpuoff.lib import _fft_kernels as K
from gpuoff.lib._common import Operand, as_buffer, result
from gpuoff.lib._layout import reshaped
from gpuoff.runtime.buffer import Buffer
from gpuoff.runtime.devices import current_device
from gpuoff.runtime.tracebacks import entry_point

_NORMS = ("backward", "ortho", "forward")
_SINGLE = (np.dtype(np.complex64), np.dtype(np.float32), np.dtype(np.float16))

_TABLES: dict[tuple[Any, ...], Buffer[Any]] = {}
"""Device buffers of the tables, by (kind, length, inverse, dtype, device name)."""


def _table(kind: str, n: int, inverse: bool, dtype: np.dtype[Any]) -> Buffer[Any]:
    """The table ``kind`` for length ``n`` on the current device, made once."""
    key = (kind, n, inverse, dtype.str, current_device().name)
    buf = _TABLES.get(key)
    if buf is None:
        sign = 1.0 if inverse else -1.0
        k = np.arange(n, dtype=np.int64)
        if kind == "twiddle":
            host = np.exp(sign * 2j * np.pi * k / max(n, 1))
        else:
            host = _chirp(kind, n, sign)
        buf = go.array(np.ascontiguousarray(host.astype(dtype)))
        _TABLES[key] = buf
    return buf


def _chirp(kind: str, n: int, sign: float) -> np.ndarray[Any, Any]:
    """Bluestein's chirp ``c_k = exp(sign i pi k^2 / n)`` (``kind="chirp"``, length ``n``), or
    the spectrum of its conjugate, wrapped to the power-of-two length of ``kind`` ``"spec:m"``
    and divided by ``m`` (the inverse FFT's scale, folded in)."""
    k = np.arange(n, dtype=np.int64)
    # k^2 mod 2n keeps the angle exact for large k (pi k^2 / n is periodic in 2n)
    c: np.ndarray[Any, Any] = np.exp(sign * 1j * np.pi * ((k * k) % (2 * n)) / n)
    if kind == "chirp":
        return c
    m = int(kind.split(":")[1])
    b = np.zeros(m, np.complex128)
    b[:n] = np.conj(c)
    b[m - n + 1 :] = np.conj(c[1:])[::-1]
    spec: np.ndarray[Any, Any] = np.fft.fft(b) / m
    return spec


def _result_dtype(dtype: np.dtype[Any], func: str) -> np.dtype[Any]:
    if dtype.kind not in "biufc" or dtype.itemsize > 16:
        raise DTypeError(f"gpuoff.lib.{func}: cannot transform an array of dtype {dtype}")
    return np.dtype(np.complex64) if dtype in _SINGLE else np.dtype(np.complex128)


def _scale(n: int, norm: str | None, inverse: bool, func: str) -> float:
    """The factor NumPy's ``norm=`` applies to the unnormalised transform."""
    norm = "backward" if norm is None else norm
    if norm not in _NORMS:
        raise ValueError(
            f"gpuoff.lib.{func}: norm must be one of {_NORMS} or None, not {norm!r}"
        )
    if norm == "ortho":
        return 1.0 / math.sqrt(n)
    return 1.0 / n if (norm == "forward") != inverse else 1.0


def _rows(buf: Buffer[Any], n: int) -> Buffer[Any]:
    """``buf`` as ``(rows, n)`` (a view when its strides allow, else a contiguous copy)."""
    shape = (buf.size // n if n else 0, n)
    view = reshaped(buf, shape)
    if view is None:
        view = reshaped(buf.copy(), shape)
        assert view is not None
    return view


def _transform(
    x: Operand, n: int | None, axis: int, norm: str | None, out: object, inverse: bool,
    func: str,
) -> go.Buffer[Any]:  # fmt: skip
    if isinstance(x, np.ndarray):
        _result_dtype(x.dtype, func)  # refused naming the function, before any copy
    buf = as_buffer(x, func, "x")
    if buf.ndim == 0:
        raise ShapeError(f"gpuoff.lib.{func}: x must have at least one dimension")
    if n is not None or axis not in (-1, buf.ndim - 1):
        raise ShapeError(
            f"gpuoff.lib.{func}: only n=None and axis=-1 are supported (transform along the "
            "last axis; pad or move the axis first)"
        )
    length = int(buf.shape[-1])
    if length < 1:
        raise ShapeError(
            f"gpuoff.lib.{func}: invalid number of FFT data points ({length}): the last axis "
            "is empty"
        )
    cdt = _result_dtype(buf.dtype, func)
    sc = _scale(length, norm, inverse, func)
    res = result(out, tuple(buf.shape), cdt, func)
    if buf.size == 0:
        return res
    src = _rows(buf, length)
    dst = reshaped(res, src.shape)
    if dst is None:
        raise ShapeError(f"gpuoff.lib.{func}: out= must be C-contiguous")
    if buf.dtype != cdt:
        src = _widened(src, cdt)
    _run(src, dst, inverse, sc)
    return res


def _part(cdt: np.dtype[Any], value: float) -> Any:
    return np.float32(value) if cdt == np.complex64 else np.float64(value)


def _grid(count: int, rows: int) -> tuple[tuple[int, int], tuple[int, int]]:
    block = 64
    return (-(-count // block) * block, rows), (block, 1)


def _widened(src: Buffer[Any], cdt: np.dtype[Any]) -> Buffer[Any]:
    """A real (or other complex) input as a new buffer of the result's dtype."""
    y = go.empty(tuple(src.shape), cdt)
    grid, block = _grid(src.shape[1], src.shape[0])
    K.elementwise()[0][grid, block](src, y, _part(cdt, 1.0))
    return y


def _run(src: Buffer[Any], dst: Buffer[Any], inverse: bool, sc: float) -> None:
    """``dst = sc * DFT(src)`` row by row (``src`` is not written)."""
    n = src.shape[1]
    if n & (n - 1) == 0:
        _stockham(src, dst, inverse, sc)
    else:
        _bluestein(src, dst, inverse, sc)


def _radices(n: int) -> list[int]:
    """The passes for a power-of-two ``n``: radix 4, a radix-2 pass first when odd."""
    log = n.bit_length() - 1
    return ([2] if log % 2 else []) + [4] * (log // 2)


def _stockham(src: Buffer[Any], dst: Buffer[Any], inverse: bool, sc: float) -> None:
    """``dst = sc * DFT(src)`` for a power-of-two length; ``src`` is only read."""
    rows, n = src.shape
    cdt = dst.dtype
    radices = _radices(n)
    if not radices:  # n == 1: the transform is the identity
        grid, block = _grid(n, rows)
        K.elementwise()[0][grid, block](src, dst, _part(cdt, sc))
        return
    tw = _table("twiddle", n, inverse, cdt)
    radix4, radix2 = K.passes()
    scratch = go.empty((rows, n), cdt) if len(radices) > 1 else dst
    # the buffer each pass writes: alternating so that the last one is dst
    targets = [dst if (len(radices) - j) % 2 == 1 else scratch for j in range(len(radices))]
    cur, stride = src, 1
    for j, r in enumerate(radices):
        part = _part(cdt, sc if j == len(radices) - 1 else 1.0)
        shape = (stride, n // (r * stride), rows)
        if r == 4:
            radix4[shape](cur, targets[j], tw, stride, part, inverse)
        else:
            radix2[shape](cur, targets[j], tw, stride, part)
        cur = targets[j]
        stride *= r


def _bluestein(src: Buffer[Any], dst: Buffer[Any], inverse: bool, sc: float) -> None:
    """``dst = sc * DFT(src)`` for any length, by a convolution of power-of-two length."""
    rows, n = src.shape
    cdt = dst.dtype
    m = 1 << (2 * n - 2).bit_length()  # the smallest power of two >= 2n - 1
    chirp = _table("chirp", n, inverse, cdt)
    spec = _table(f"spec:{m}", n, inverse, cdt)
    widen, chirp_in, chirp_out = K.elementwise()
    a = go.empty((rows, m), cdt)
    grid, block = _grid(m, rows)
    chirp_in[grid, block](src, chirp, a)
    fa = go.empty((rows, m), cdt)
    _stockham(a, fa, False, 1.0)
    K.pointwise()[grid, block](fa, spec)
    _stockham(fa, a, True, 1.0)
    grid, block = _grid(n, rows)
    chirp_out[grid, block](a, chirp, dst, _part(cdt, sc))


@entry_point
def fft(
    x: Operand, n: int | None = None, axis: int = -1, norm: str | None = None,
    out: object = None,
) -> go.Buffer[Any]:  # fmt: skip
    """``np.fft.fft(x, axis=-1, norm=norm)``: the DFT along the last axis, any length.
    Complex64 for complex64/float32/float16 input, complex128 otherwise (NumPy 2's). A new
    buffer, or ``out=``."""
    return _transform(x, n, axis, norm, out, False, "fft")


@entry_point
def ifft(
    x: Operand, n: int | None = None, axis: int = -1, norm: str | None = None,
    out: object = None,
) -> go.Buffer[Any]:  # fmt: skip
    """``np.fft.ifft(x, axis=-1, norm=norm)``: the inverse DFT along the last axis (divided
    by the length for ``norm="backward"``). A new buffer, or ``out=``."""
    return _transform(x, n, axis, norm, out, True, "ifft")


__all__ = ["fft", "ifft"]
