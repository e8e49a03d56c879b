"""Baselines on the ``cpu`` device: C/OpenMP (built at bench time), NumPy, and Numba if present.

``CPU_BASELINES[kernel][name]`` is a :data:`~gpuoff.bench.suite.BaselineFactory`:
``factory(device, inputs) -> Impl``, where ``inputs`` holds the case's NumPy inputs by name
(see each case in ``suite.py``) and the returned ``Impl.result`` gives the output the
reference checks. A factory raises ``BenchSkip`` when it cannot run here (no compiler, no
Numba); the case then simply has one baseline fewer.
"""

from __future__ import annotations

import ctypes
import importlib
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from gpuoff.bench.cbuild import load_baseline
from gpuoff.bench.harness import BenchSkip, Impl
from gpuoff.bench.references import black_scholes_ref

Inputs = dict[str, Any]
Factory = Callable[[str, Inputs], Impl]

c_i64 = ctypes.c_int64
c_f32 = ctypes.c_float
c_ptr = ctypes.c_void_p


def _ptr(a: np.ndarray[Any, Any]) -> int:
    return int(a.ctypes.data)


def _c_fn(lib: str, name: str, argtypes: list[Any]) -> Any:
    fn = getattr(load_baseline(lib), name)
    fn.argtypes = argtypes
    fn.restype = None
    return fn


# --- saxpy: inputs a, x, y (y is updated in place) ------------------------------------------


def c_saxpy(device: str, inputs: Inputs) -> Impl:
    fn = _c_fn("saxpy", "saxpy", [c_i64, c_f32, c_ptr, c_ptr])
    a, x, y = float(inputs["a"]), inputs["x"], inputs["y"].copy()
    n, px, py = x.shape[0], _ptr(x), _ptr(y)

    def run() -> None:
        fn(n, a, px, py)

    return Impl(run, lambda: y, keep=(x, y))


def c_saxpy_serial_calls(device: str, inputs: Inputs) -> Impl:
    """The floor of a launch: one ctypes call of a serial C saxpy per op."""
    fn = _c_fn("saxpy", "saxpy_serial", [c_i64, c_f32, c_ptr, c_ptr])
    a, x, y = float(inputs["a"]), inputs["x"], inputs["y"].copy()
    n, px, py, ops = x.shape[0], _ptr(x), _ptr(y), int(inputs["ops"])

    def run() -> None:
        for _ in range(ops):
            fn(n, a, px, py)

    return Impl(run, None, ops=ops, keep=(x, y))


def numpy_saxpy(device: str, inputs: Inputs) -> Impl:
    a, x, y = np.float32(inputs["a"]), inputs["x"], inputs["y"].copy()

    def run() -> None:
        y[:] += a * x

    return Impl(run, lambda: y)


# --- stencil: input src, output dst ----------------------------------------------------------


def c_stencil(device: str, inputs: Inputs) -> Impl:
    fn = _c_fn("stencil", "stencil5", [c_i64, c_i64, c_ptr, c_ptr])
    src = inputs["src"]
    dst = np.empty_like(src)
    rows, cols, ps, pd = src.shape[0], src.shape[1], _ptr(src), _ptr(dst)

    def run() -> None:
        fn(rows, cols, ps, pd)

    return Impl(run, lambda: dst, keep=(src, dst))


def numpy_stencil(device: str, inputs: Inputs) -> Impl:
    src = inputs["src"]
    dst = src.copy()
    inner = dst[1:-1, 1:-1]
    c, n, s = src[1:-1, 1:-1], src[:-2, 1:-1], src[2:, 1:-1]
    w, e = src[1:-1, :-2], src[1:-1, 2:]
    k = np.float32(0.2)

    def run() -> None:
        np.add(c, n, out=inner)
        np.add(inner, s, out=inner)
        np.add(inner, w, out=inner)
        np.add(inner, e, out=inner)
        np.multiply(inner, k, out=inner)

    return Impl(run, lambda: dst)


# --- Black-Scholes: inputs price, strike, years, rate, vol; result stack(call, put) ----------


def c_black_scholes(device: str, inputs: Inputs) -> Impl:
    fn = _c_fn(
        "blackscholes", "black_scholes",
        [c_i64, c_ptr, c_ptr, c_ptr, c_f32, c_f32, c_ptr, c_ptr],
    )  # fmt: skip
    price, strike, years = inputs["price"], inputs["strike"], inputs["years"]
    rate, vol = float(inputs["rate"]), float(inputs["vol"])
    call, put = np.empty_like(price), np.empty_like(price)
    args = (price.shape[0], _ptr(price), _ptr(strike), _ptr(years), rate, vol)
    pc, pp = _ptr(call), _ptr(put)

    def run() -> None:
        fn(*args, pc, pp)

    return Impl(run, lambda: np.stack([call, put]), keep=(price, strike, years, call, put))


def numpy_black_scholes(device: str, inputs: Inputs) -> Impl:
    f32 = np.float32
    args = (inputs["price"], inputs["strike"], inputs["years"])
    rate, vol = f32(inputs["rate"]), f32(inputs["vol"])
    out: list[np.ndarray[Any, Any]] = []

    def run() -> None:
        out[:] = black_scholes_ref(*args, rate, vol)  # type: ignore[arg-type]

    return Impl(run, lambda: np.stack(out))


# --- Numba (optional extra "bench") ----------------------------------------------------------


def _numba() -> Any:
    try:
        return importlib.import_module("numba")
    except ImportError as e:
        raise BenchSkip("numba is not installed (pip install 'gpuoff[bench]')") from e


def numba_saxpy(device: str, inputs: Inputs) -> Impl:
    numba = _numba()

    def py_saxpy(a: float, x: Any, y: Any) -> None:
        for i in numba.prange(x.shape[0]):
            y[i] = a * x[i] + y[i]

    kernel = numba.njit(parallel=True)(py_saxpy)

    a, x, y = np.float32(inputs["a"]), inputs["x"], inputs["y"].copy()

    def run() -> None:
        kernel(a, x, y)

    return Impl(run, lambda: y)


def numba_stencil(device: str, inputs: Inputs) -> Impl:
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

    kernel = numba.njit(parallel=True)(py_stencil)

    src = inputs["src"]
    dst = np.empty_like(src)

    def run() -> None:
        kernel(src, dst)

    return Impl(run, lambda: dst)


def numba_launch(device: str, inputs: Inputs) -> Impl:
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


def numba_black_scholes(device: str, inputs: Inputs) -> Impl:
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

    kernel = numba.njit(parallel=True)(py_bs)
    price, strike, years = inputs["price"], inputs["strike"], inputs["years"]
    rate, vol = np.float32(inputs["rate"]), np.float32(inputs["vol"])
    call, put = np.empty_like(price), np.empty_like(price)

    def run() -> None:
        kernel(price, strike, years, rate, vol, call, put)

    return Impl(run, lambda: np.stack([call, put]))


def numba_first_launch(device: str, inputs: Inputs) -> Impl:
    """Numba's first call of a small function in a new process (no cache)."""
    from gpuoff.bench.coldstart import numba_cold_start_impl

    _numba()
    return numba_cold_start_impl(cached=False)


def numba_cached_launch(device: str, inputs: Inputs) -> Impl:
    """Numba's first call in a new process with its on-disk cache (``cache=True``) warm."""
    from gpuoff.bench.coldstart import numba_cold_start_impl

    _numba()
    return numba_cold_start_impl(cached=True)


CPU_BASELINES: dict[str, dict[str, Factory]] = {
    "saxpy": {"C/OpenMP": c_saxpy, "NumPy": numpy_saxpy, "Numba": numba_saxpy},
    "stencil2d": {"C/OpenMP": c_stencil, "NumPy": numpy_stencil, "Numba": numba_stencil},
    "black_scholes": {
        "C/OpenMP": c_black_scholes, "NumPy": numpy_black_scholes, "Numba": numba_black_scholes,
    },
    "launch": {"ctypes call": c_saxpy_serial_calls, "Numba": numba_launch},
    "first_launch": {"Numba": numba_first_launch},
    "cached_launch": {"Numba": numba_cached_launch},
}
