"""Numba on the ``cpu`` device: ``njit(parallel=True)`` with ``prange`` over the outer loop,
the way Numba's "Automatic parallelization with @jit" guide writes parallel loops (reductions
as ``total += ...`` in a ``prange`` loop, which Numba recognises; a private histogram per chunk,
since a ``prange`` body may not race on an array element).

Each factory gets the case's NumPy inputs (the names each case lists) and returns an ``Impl``
whose result the suite checks against NumPy before timing. Numba is imported when a factory
runs: ``BenchSkip`` with the reason when it is not installed or does not import.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from gpuoff.bench.harness import BenchSkip, Impl
from gpuoff.bench.peers.common import SEQUENTIAL_SUM_RTOL

Inputs = dict[str, Any]
Factory = Callable[[str, Inputs], Impl]

INSTALL = "pip install 'gpuoff[bench]'"


def _numba() -> Any:
    try:
        return importlib.import_module("numba")
    except ImportError as e:
        raise BenchSkip(f"numba is not installed ({INSTALL})") from e
    except Exception as e:  # noqa: BLE001 - a broken install is reported, not raised
        raise BenchSkip(f"numba does not import: {type(e).__name__}: {e}") from e


def status() -> dict[str, Any]:
    """``{"version": ...}``, or ``{"error": why}`` when Numba cannot run here."""
    try:
        return {"version": str(_numba().__version__)}
    except BenchSkip as e:
        return {"error": str(e)}


def _parallel(fn: Callable[..., Any]) -> Any:
    return _numba().njit(parallel=True)(fn)


def saxpy(device: str, inputs: Inputs) -> Impl:
    numba = _numba()

    def py_saxpy(a: float, x: Any, y: Any) -> None:
        for i in numba.prange(x.shape[0]):
            y[i] = a * x[i] + y[i]

    kernel = _parallel(py_saxpy)
    a, x, y = np.float32(inputs["a"]), inputs["x"], inputs["y"].copy()

    def run() -> None:
        kernel(a, x, y)

    return Impl(run, lambda: y)


def stencil2d(device: str, inputs: Inputs) -> Impl:
    numba = _numba()

    def py_stencil(src: Any, dst: Any) -> None:
        rows, cols = src.shape
        k = np.float32(0.2)
        for i in numba.prange(rows):
            for j in range(cols):
                if 0 < i < rows - 1 and 0 < j < cols - 1:
                    dst[i, j] = k * ((((src[i, j] + src[i - 1, j]) + src[i + 1, j])
                                      + src[i, j - 1]) + src[i, j + 1])
                else:
                    dst[i, j] = src[i, j]

    kernel = _parallel(py_stencil)
    src = inputs["src"]
    dst = np.empty_like(src)

    def run() -> None:
        kernel(src, dst)

    return Impl(run, lambda: dst)


def black_scholes(device: str, inputs: Inputs) -> Impl:
    numba = _numba()

    def py_bs(s_: Any, k_: Any, t_: Any, rate: float, vol: float, call: Any, put: Any) -> None:
        for i in numba.prange(s_.shape[0]):
            s, k, t = s_[i], k_[i], t_[i]
            sqrt_t = math.sqrt(t)
            d1 = (math.log(s / k) + (rate + 0.5 * vol * vol) * t) / (vol * sqrt_t)
            d2 = d1 - vol * sqrt_t
            cnd1 = 0.5 * (1.0 + math.erf(d1 * 0.70710678))
            cnd2 = 0.5 * (1.0 + math.erf(d2 * 0.70710678))
            disc = k * math.exp(-rate * t)
            call[i] = s * cnd1 - disc * cnd2
            put[i] = disc * (1.0 - cnd2) - s * (1.0 - cnd1)

    kernel = _parallel(py_bs)
    price, strike, years = inputs["price"], inputs["strike"], inputs["years"]
    rate, vol = np.float32(inputs["rate"]), np.float32(inputs["vol"])
    call, put = np.empty_like(price), np.empty_like(price)

    def run() -> None:
        kernel(price, strike, years, rate, vol, call, put)

    return Impl(run, lambda: np.stack([call, put]))


def reduction(device: str, inputs: Inputs) -> Impl:
    numba = _numba()

    def py_sum(x: Any) -> Any:
        total = np.float32(0.0)
        for i in numba.prange(x.shape[0]):
            total += x[i]
        return total

    kernel = _parallel(py_sum)
    x = inputs["x"]
    out = np.zeros(1, np.float32)

    def run() -> None:
        out[0] = kernel(x)

    return Impl(run, lambda: out, rtol=SEQUENTIAL_SUM_RTOL)


def sgemm(device: str, inputs: Inputs) -> Impl:
    """Rows of ``c`` over threads, i-k-j order (the inner loop streams rows of b and c)."""
    numba = _numba()

    def py_sgemm(a: Any, b: Any, c: Any) -> None:
        n, inner = a.shape
        m = b.shape[1]
        for i in numba.prange(n):
            for j in range(m):
                c[i, j] = 0.0
            for k in range(inner):
                aik = a[i, k]
                for j in range(m):
                    c[i, j] += aik * b[k, j]

    kernel = _parallel(py_sgemm)
    a, b = inputs["a"], inputs["b"]
    c = np.empty((a.shape[0], b.shape[1]), np.float32)

    def run() -> None:
        kernel(a, b, c)

    return Impl(run, lambda: c)


HIST_CHUNKS = 64
"""Private histograms of the Numba histogram: enough chunks for every core."""


def histogram(device: str, inputs: Inputs) -> Impl:
    numba = _numba()

    def py_hist(data: Any, chunks: int) -> Any:
        n = data.shape[0]
        local = np.zeros((chunks, 256), np.uint32)
        for c in numba.prange(chunks):
            for i in range(c * n // chunks, (c + 1) * n // chunks):
                local[c, data[i]] += 1
        return local.sum(axis=0).astype(np.uint32)

    kernel = _parallel(py_hist)
    data = inputs["data"]
    out: list[Any] = [np.zeros(256, np.uint32)]

    def run() -> None:
        out[0] = kernel(data, HIST_CHUNKS)

    return Impl(run, lambda: out[0])


def nbody(device: str, inputs: Inputs) -> Impl:
    numba = _numba()

    def py_nbody(px: Any, py: Any, pz: Any, m: Any, ax: Any, ay: Any, az: Any) -> None:
        n = px.shape[0]
        for i in numba.prange(n):
            fx = np.float32(0.0)
            fy = np.float32(0.0)
            fz = np.float32(0.0)
            for j in range(n):
                dx, dy, dz = px[j] - px[i], py[j] - py[i], pz[j] - pz[i]
                r2 = dx * dx + dy * dy + dz * dz + np.float32(0.001)
                inv = np.float32(1.0) / math.sqrt(r2)
                s = m[j] * inv * inv * inv
                fx += dx * s
                fy += dy * s
                fz += dz * s
            ax[i], ay[i], az[i] = fx, fy, fz

    kernel = _parallel(py_nbody)
    ins = [inputs[k] for k in ("px", "py", "pz", "mass")]
    outs = [np.empty_like(ins[0]) for _ in range(3)]

    def run() -> None:
        kernel(*ins, *outs)

    return Impl(run, lambda: np.stack(outs))


def scan(device: str, inputs: Inputs) -> Impl:
    """Two passes over chunks in ``prange`` (each chunk's running sum, then its offset)."""
    numba = _numba()

    def py_scan(x: Any, out: Any, chunks: int) -> None:
        n = x.shape[0]
        totals = np.zeros(chunks + 1, np.int32)
        for c in numba.prange(chunks):
            acc = np.int32(0)
            for i in range(c * n // chunks, (c + 1) * n // chunks):
                acc += x[i]
                out[i] = acc
            totals[c + 1] = acc
        offsets = np.cumsum(totals)
        for c in numba.prange(chunks):
            off = offsets[c]
            for i in range(c * n // chunks, (c + 1) * n // chunks):
                out[i] += off

    kernel = _parallel(py_scan)
    x = inputs["x"]
    out = np.empty_like(x)

    def run() -> None:
        kernel(x, out, HIST_CHUNKS)

    return Impl(run, lambda: out)


def transpose(device: str, inputs: Inputs) -> Impl:
    numba = _numba()

    def py_transpose(a: Any, out: Any) -> None:
        rows, cols = a.shape
        for i in numba.prange(rows):
            for j in range(cols):
                out[j, i] = a[i, j]

    kernel = _parallel(py_transpose)
    a = inputs["a"]
    out = np.empty((a.shape[1], a.shape[0]), a.dtype)

    def run() -> None:
        kernel(a, out)

    return Impl(run, lambda: out)


def softmax(device: str, inputs: Inputs) -> Impl:
    numba = _numba()

    def py_softmax(x: Any, out: Any) -> None:
        rows, cols = x.shape
        for i in numba.prange(rows):
            top = x[i, 0]
            for j in range(1, cols):
                top = max(top, x[i, j])
            total = np.float32(0.0)
            for j in range(cols):
                e = np.exp(x[i, j] - top)
                out[i, j] = e
                total += e
            inv = np.float32(1.0) / total
            for j in range(cols):
                out[i, j] *= inv

    kernel = _parallel(py_softmax)
    x = inputs["x"]
    out = np.empty_like(x)

    def run() -> None:
        kernel(x, out)

    return Impl(run, lambda: out)


def launch(device: str, inputs: Inputs) -> Impl:
    """A serial Numba saxpy called ``ops`` times: Numba's own call overhead (unguarded)."""
    numba = _numba()

    def py_saxpy(a: float, x: Any, y: Any) -> None:
        for i in range(x.shape[0]):
            y[i] = a * x[i] + y[i]

    kernel = numba.njit(py_saxpy)
    a, x, y, ops = np.float32(inputs["a"]), inputs["x"], inputs["y"].copy(), int(inputs["ops"])

    def run() -> None:
        for _ in range(ops):
            kernel(a, x, y)

    return Impl(run, None, ops=ops)


def first_launch(device: str, inputs: Inputs) -> Impl:
    """Numba's first call of a small function in a new process (no cache)."""
    from gpuoff.bench.coldstart import numba_cold_start_impl

    _numba()
    return numba_cold_start_impl(cached=False)


def cached_launch(device: str, inputs: Inputs) -> Impl:
    """Numba's first call in a new process with its on-disk cache (``cache=True``) warm."""
    from gpuoff.bench.coldstart import numba_cold_start_impl

    _numba()
    return numba_cold_start_impl(cached=True)


KERNELS: dict[str, Factory] = {
    "saxpy": saxpy,
    "stencil2d": stencil2d,
    "black_scholes": black_scholes,
    "reduction": reduction,
    "sgemm": sgemm,
    "sgemm_tiled": sgemm,
    "histogram": histogram,
    "nbody": nbody,
    "scan": scan,
    "transpose": transpose,
    "softmax": softmax,
    "launch": launch,
    "first_launch": first_launch,
    "cached_launch": cached_launch,
}
"""Suite kernel -> Numba factory (the twins of these rows reuse them: ``baselines_of``)."""
