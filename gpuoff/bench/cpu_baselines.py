"""Baselines on the ``cpu`` device: C/OpenMP (built at bench time) and NumPy (peers: ``peers``).

``CPU_BASELINES[kernel][name]`` is a :data:`~gpuoff.bench.suite.BaselineFactory`:
``factory(device, inputs) -> Impl``, where ``inputs`` holds the case's NumPy inputs by name
(see each case in ``suite.py``) and the returned ``Impl.result`` gives the output the
reference checks. A factory raises ``BenchSkip`` when it cannot run here (no compiler, no
libmvec); the case reports it among the skipped.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

import numpy as np

from gpuoff.bench.cbuild import load_baseline
from gpuoff.bench.harness import Impl
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


def _c_black_scholes(lib: str) -> Factory:
    """The C Black-Scholes of ``baselines/<lib>.c`` (scalar libm, or vectorised libmvec)."""

    def factory(device: str, inputs: Inputs) -> Impl:
        fn = _c_fn(
            lib, "black_scholes", [c_i64, c_ptr, c_ptr, c_ptr, c_f32, c_f32, c_ptr, c_ptr],
        )  # fmt: skip
        price, strike, years = inputs["price"], inputs["strike"], inputs["years"]
        rate, vol = float(inputs["rate"]), float(inputs["vol"])
        call, put = np.empty_like(price), np.empty_like(price)
        args = (price.shape[0], _ptr(price), _ptr(strike), _ptr(years), rate, vol)
        pc, pp = _ptr(call), _ptr(put)

        def run() -> None:
            fn(*args, pc, pp)

        return Impl(run, lambda: np.stack([call, put]), keep=(price, strike, years, call, put))

    return factory


c_black_scholes = _c_black_scholes("blackscholes")
c_black_scholes_libmvec = _c_black_scholes("blackscholes_libmvec")


def numpy_black_scholes(device: str, inputs: Inputs) -> Impl:
    f32 = np.float32
    args = (inputs["price"], inputs["strike"], inputs["years"])
    rate, vol = f32(inputs["rate"]), f32(inputs["vol"])
    out: list[np.ndarray[Any, Any]] = []

    def run() -> None:
        out[:] = black_scholes_ref(*args, rate, vol)  # type: ignore[arg-type]

    return Impl(run, lambda: np.stack(out))


# --- reduction: input x; result [sum] -------------------------------------------------------


def c_sum(device: str, inputs: Inputs) -> Impl:
    fn = load_baseline("reduction").sum_f32
    fn.argtypes = [c_i64, c_ptr]
    fn.restype = c_f32
    x = inputs["x"]
    n, px = x.shape[0], _ptr(x)
    out = np.zeros(1, np.float32)

    def run() -> None:
        out[0] = fn(n, px)

    return Impl(run, lambda: out, keep=(x,))


def numpy_sum(device: str, inputs: Inputs) -> Impl:
    x = inputs["x"]
    out = np.zeros(1, np.float32)

    def run() -> None:
        out[0] = np.sum(x)

    return Impl(run, lambda: out)


# --- sgemm: inputs a, b (square); result a @ b ----------------------------------------------


def c_sgemm(device: str, inputs: Inputs) -> Impl:
    fn = _c_fn("sgemm", "sgemm", [c_i64, c_ptr, c_ptr, c_ptr])
    a, b = inputs["a"], inputs["b"]
    c = np.empty_like(a)
    n, pa, pb, pc = a.shape[0], _ptr(a), _ptr(b), _ptr(c)

    def run() -> None:
        fn(n, pa, pb, pc)

    return Impl(run, lambda: c, keep=(a, b, c))


def numpy_sgemm(device: str, inputs: Inputs) -> Impl:
    """NumPy's matmul: OpenBLAS (or whatever BLAS NumPy links)."""
    a, b = inputs["a"], inputs["b"]
    c = np.empty_like(a)

    def run() -> None:
        np.matmul(a, b, out=c)

    return Impl(run, lambda: c)


# --- histogram: input data (u8); result 256 counts (u32) ------------------------------------


def c_histogram(device: str, inputs: Inputs) -> Impl:
    fn = _c_fn("histogram", "histogram256", [c_i64, c_ptr, c_ptr])
    data = inputs["data"]
    bins = np.zeros(256, np.uint32)
    n, pd, pb = data.shape[0], _ptr(data), _ptr(bins)

    def run() -> None:
        fn(n, pd, pb)

    return Impl(run, lambda: bins, keep=(data, bins))


def numpy_histogram(device: str, inputs: Inputs) -> Impl:
    data = inputs["data"]
    out: list[np.ndarray[Any, Any]] = [np.zeros(256, np.uint32)]

    def run() -> None:
        out[0] = np.bincount(data, minlength=256).astype(np.uint32)

    return Impl(run, lambda: out[0])


# --- n-body: inputs px, py, pz, mass; result stack([ax, ay, az]) ----------------------------


def c_nbody(device: str, inputs: Inputs) -> Impl:
    fn = _c_fn("nbody", "nbody", [c_i64] + [c_ptr] * 7)
    ins = [inputs[k] for k in ("px", "py", "pz", "mass")]
    outs = [np.empty_like(ins[0]) for _ in range(3)]
    args = [ins[0].shape[0], *(_ptr(a) for a in ins), *(_ptr(a) for a in outs)]

    def run() -> None:
        fn(*args)

    return Impl(run, lambda: np.stack(outs), keep=(*ins, *outs))


CPU_BASELINES: dict[str, dict[str, Factory]] = {
    "saxpy": {"C/OpenMP": c_saxpy, "NumPy": numpy_saxpy},
    "stencil2d": {"C/OpenMP": c_stencil, "NumPy": numpy_stencil},
    "black_scholes": {
        "C/OpenMP": c_black_scholes, "C/OpenMP+libmvec": c_black_scholes_libmvec,
        "NumPy": numpy_black_scholes,
    },
    "reduction": {"C/OpenMP": c_sum, "NumPy": numpy_sum},
    "sgemm": {"C/OpenMP": c_sgemm, "NumPy": numpy_sgemm},
    "histogram": {"C/OpenMP": c_histogram, "NumPy": numpy_histogram},
    "nbody": {"C/OpenMP": c_nbody},
    "launch": {"ctypes call": c_saxpy_serial_calls},
}
"""Kernel -> baseline name -> factory; the peers (Numba, Warp, Taichi) are ``peers``'."""
