"""NumPy references and inputs of the benchmark and tour kernels (``kernels.py``).

They compute the same arithmetic as the kernels, in float32 and in the same order where float
rounding could differ, and import no gpuoff runtime (baselines and checks use them too).
"""

from __future__ import annotations

from typing import Any

import numpy as np

F32 = np.dtype(np.float32)
NDArrayF32 = np.ndarray[Any, np.dtype[np.float32]]


def saxpy_ref(a: float, x: NDArrayF32, y: NDArrayF32) -> NDArrayF32:
    """``a * x + y`` in float32."""
    return (np.float32(a) * x + y).astype(F32)


def stencil5_ref(src: NDArrayF32) -> NDArrayF32:
    """The 5-point stencil in float32, same summation order as the kernel."""
    out = src.copy()
    c = src[1:-1, 1:-1]
    total = (((c + src[:-2, 1:-1]) + src[2:, 1:-1]) + src[1:-1, :-2]) + src[1:-1, 2:]
    out[1:-1, 1:-1] = np.float32(0.2) * total
    return out


def erf_np(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """erf by Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7): NumPy has no erf of its own."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027
                                                                          + t * 1.061405429))))
    result: np.ndarray[Any, Any] = sign * (1.0 - poly * np.exp(-a * a))
    return result


def black_scholes_ref(
    price: np.ndarray[Any, Any],
    strike: np.ndarray[Any, Any],
    years: np.ndarray[Any, Any],
    rate: float,
    vol: float,
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Call and put prices computed with NumPy in the inputs' dtype."""
    sqrt_t = np.sqrt(years)
    d1 = (np.log(price / strike) + (rate + 0.5 * vol * vol) * years) / (vol * sqrt_t)
    d2 = d1 - vol * sqrt_t
    cnd1 = 0.5 * (1.0 + erf_np(d1 * 0.70710678))
    cnd2 = 0.5 * (1.0 + erf_np(d2 * 0.70710678))
    disc = strike * np.exp(-rate * years)
    return price * cnd1 - disc * cnd2, disc * (1.0 - cnd2) - price * (1.0 - cnd1)


def black_scholes_inputs(n: int, seed: int = 7) -> tuple[NDArrayF32, NDArrayF32, NDArrayF32]:
    """Spot prices, strikes and maturities in the ranges of the classic CUDA sample."""
    rng = np.random.default_rng(seed)
    price = rng.uniform(5.0, 30.0, n).astype(F32)
    strike = rng.uniform(1.0, 100.0, n).astype(F32)
    years = rng.uniform(0.25, 10.0, n).astype(F32)
    return price, strike, years


def mandelbrot_ref(
    rows: int, cols: int, x0: float, y0: float, step: float, max_iter: int
) -> np.ndarray[Any, np.dtype[np.int32]]:
    """Escape counts computed with NumPy in float32, same recurrence as the kernel."""
    cr = (np.float32(x0) + np.arange(cols, dtype=F32) * np.float32(step))[None, :]
    ci = (np.float32(y0) + np.arange(rows, dtype=F32) * np.float32(step))[:, None]
    cr = np.broadcast_to(cr, (rows, cols)).copy()
    ci = np.broadcast_to(ci, (rows, cols)).copy()
    zr = np.zeros((rows, cols), F32)
    zi = np.zeros((rows, cols), F32)
    count = np.zeros((rows, cols), np.int32)
    active = np.ones((rows, cols), bool)
    two = np.float32(2.0)
    for _ in range(max_iter):
        zr2 = zr * zr
        zi2 = zi * zi
        active &= (zr2 + zi2) <= 4.0
        if not active.any():
            break
        new_zi = two * zr * zi + ci
        new_zr = zr2 - zi2 + cr
        zi = np.where(active, new_zi, zi)
        zr = np.where(active, new_zr, zr)
        count += active
    return count


def nbody_inputs(n: int, seed: int = 11) -> tuple[NDArrayF32, ...]:
    """Positions in a unit cube and masses in [0.5, 1.5)."""
    rng = np.random.default_rng(seed)
    return tuple(rng.random(n, dtype=np.float32) + np.float32(off) for off in (0, 0, 0, 0.5))


def nbody_ref(
    px: np.ndarray[Any, Any], py: np.ndarray[Any, Any], pz: np.ndarray[Any, Any],
    mass: np.ndarray[Any, Any], chunk: int = 256,
) -> np.ndarray[Any, Any]:
    """Accelerations ``stack([ax, ay, az])`` in float64, ``chunk`` bodies at a time."""
    p = [a.astype(np.float64) for a in (px, py, pz)]
    m = mass.astype(np.float64)[None, :]
    out = np.empty((3, px.shape[0]))
    for lo in range(0, px.shape[0], chunk):
        d = [q[None, :] - q[lo : lo + chunk, None] for q in p]
        r2 = d[0] ** 2 + d[1] ** 2 + d[2] ** 2 + 0.001
        s = m / (r2 * np.sqrt(r2))
        for k in range(3):
            out[k, lo : lo + chunk] = (d[k] * s).sum(axis=1)
    return out
