"""Complex numbers in kernels: what the front end accepts, the plugin accepts (clean), and
the misuse both refuse is reported here too."""
# ruff: noqa: E501

from __future__ import annotations

import cmath

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, complex64, f32


@go.func
def rotate(z: complex64, angle: f32) -> complex64:
    return z * complex64(cmath.exp(complex(f32(0.0), angle)))


@go.kernel
def spectrum(x: Borrow[Array[complex64]], out: BorrowMut[Array[complex64]],
             mag: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    i = go.global_id(0)
    z = x[i]
    w = rotate(z, f32(0.5)).conjugate() / (1.0 + 2j)
    out[i] = cmath.sqrt(w) + np.conj(z) - z.real * 1j + z ** 2
    mag[i] = abs(z) + cmath.phase(z) + w.imag


@go.kernel
def misuse(x: Borrow[Array[complex64]], mag: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    x[i] = 1j  # E: cannot write to 'x': it is a shared Borrow (declare it BorrowMut to write)  [gpuoff-borrow-write]


@go.kernel
def misuse_math(x: Borrow[Array[complex64]], mag: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    mag[i] = abs(cmath.cos(x[i]))  # E: calling the Python function 'cos' is not supported in kernels: only gpuoff intrinsics, math functions, the builtins abs, bool, enumerate, float, int, len, max, min, pow, range, reversed, round, sum and zip, and @go.func device functions can be called  [gpuoff-unsupported]


def launch() -> np.ndarray[tuple[int], np.dtype[np.complex64]]:
    x = (np.arange(4) + 1j).astype(np.complex64)
    out, mag = np.zeros(4, np.complex64), np.zeros(4, np.float32)
    spectrum[4](x, out, mag)
    return out
