"""Taichi's CPU backend as a peer on the ``cpu`` device (kernels: ``taichi_kernels``).

``ti.init(arch=ti.cpu)`` once per process, with Taichi's offline cache under gpuoff's cache
folder (``<cache>/peers/taichi``) when that is on. The case's NumPy arrays are passed straight
to the kernels (``ti.types.ndarray()`` arguments are references, no copy on the CPU); each
run calls the kernel and ``ti.sync()``. Taichi compiles a kernel on its first call (the
suite's checked run). ``BenchSkip`` when Taichi is missing or broken.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from gpuoff.bench.harness import BenchSkip, Impl
from gpuoff.bench.peers.common import SEQUENTIAL_SUM_RTOL
from gpuoff.bench.peers.fpenv import preserved_fp_mode

Inputs = dict[str, Any]
Factory = Callable[[str, Inputs], Impl]

INSTALL = "pip install taichi (or 'gpuoff[bench]'; Taichi has wheels for Python < 3.14)"


@cache
def _load() -> tuple[Any, Any]:
    """(taichi, taichi_kernels), initialised on the CPU; BenchSkip saying why not."""
    # No banner on stdout (it would corrupt `--json -`), no info lines, and no wrapping of
    # every kernel call to flush a print buffer (Taichi does that whenever sys.stdout is not
    # the console's, as under pytest or a redirect; these kernels never print).
    for name, value in (("ENABLE_TAICHI_HEADER_PRINT", "0"), ("TI_LOG_LEVEL", "warn"),
                        ("TI_ENABLE_PYBUF", "0")):  # fmt: skip
        os.environ.setdefault(name, value)
    try:
        ti: Any = importlib.import_module("taichi")
        options: dict[str, Any] = {"arch": ti.cpu}
        folder = _cache_folder()
        if folder is not None:
            options["offline_cache_file_path"] = folder
        # "[Taichi] Starting on arch=x64" off stdout; and ti.init turns on flush-to-zero in
        # this (the main) thread, which every later thread would inherit (fpenv)
        with contextlib.redirect_stdout(sys.stderr), preserved_fp_mode():
            ti.init(**options)
        kernels = importlib.import_module("gpuoff.bench.peers.taichi_kernels")
    except ImportError as e:
        raise BenchSkip(f"Taichi is not installed ({INSTALL}): {e}") from e
    except Exception as e:  # noqa: BLE001 - a broken install is reported, not raised
        raise BenchSkip(f"Taichi does not start here: {type(e).__name__}: {e}") from e
    return ti, kernels


def _cache_folder() -> str | None:
    from gpuoff.runtime.cache import cache_dir

    base = cache_dir()
    return None if base is None else str(base / "peers" / "taichi")


def status() -> dict[str, Any]:
    """``{"version": ..., "device": "cpu"}``, or ``{"error": why}``."""
    try:
        ti, _ = _load()
    except BenchSkip as e:
        return {"error": str(e)}
    return {"version": ".".join(str(v) for v in ti.__version__), "device": "cpu (x64 threads)"}


def _caller(ti: Any, kernel: Any, *args: Any) -> Callable[[], None]:
    def run() -> None:
        kernel(*args)
        ti.sync()

    return run


def saxpy(device: str, inputs: Inputs) -> Impl:
    ti, k = _load()
    x, y = inputs["x"], inputs["y"].copy()
    return Impl(_caller(ti, k.saxpy, float(inputs["a"]), x, y), lambda: y)


def stencil2d(device: str, inputs: Inputs) -> Impl:
    ti, k = _load()
    src = inputs["src"]
    dst = np.zeros_like(src)
    return Impl(_caller(ti, k.stencil5, src, dst), lambda: dst)


def black_scholes(device: str, inputs: Inputs) -> Impl:
    ti, k = _load()
    price = inputs["price"]
    call, put = np.zeros_like(price), np.zeros_like(price)
    run = _caller(ti, k.black_scholes, price, inputs["strike"], inputs["years"],
                  float(inputs["rate"]), float(inputs["vol"]), call, put)  # fmt: skip
    return Impl(run, lambda: np.stack([call, put]))


def reduction(device: str, inputs: Inputs) -> Impl:
    ti, k = _load()
    out = ti.field(ti.f32, shape=())
    x = inputs["x"]
    run = _caller(ti, k.total, x, out)
    return Impl(run, lambda: np.array([out[None]], np.float32), keep=(out,),
                rtol=SEQUENTIAL_SUM_RTOL)


def sgemm(device: str, inputs: Inputs) -> Impl:
    ti, k = _load()
    a, b = inputs["a"], inputs["b"]
    c = np.zeros((a.shape[0], b.shape[1]), np.float32)
    return Impl(_caller(ti, k.sgemm, a, b, c), lambda: c)


def histogram(device: str, inputs: Inputs) -> Impl:
    ti, k = _load()
    bins = np.zeros(256, np.uint32)
    return Impl(_caller(ti, k.histogram256, inputs["data"], bins), lambda: bins)


def nbody(device: str, inputs: Inputs) -> Impl:
    ti, k = _load()
    ins = [inputs[n] for n in ("px", "py", "pz", "mass")]
    outs = [np.zeros_like(ins[0]) for _ in range(3)]
    return Impl(_caller(ti, k.nbody, *ins, *outs), lambda: np.stack(outs))


def scan(device: str, inputs: Inputs) -> Impl:
    ti, k = _load()
    x = inputs["x"]
    out = np.zeros_like(x)
    return Impl(_caller(ti, k.inclusive_scan, x, out), lambda: out)


def transpose(device: str, inputs: Inputs) -> Impl:
    ti, k = _load()
    a = inputs["a"]
    out = np.zeros((a.shape[1], a.shape[0]), a.dtype)
    return Impl(_caller(ti, k.transpose, a, out), lambda: out)


def softmax(device: str, inputs: Inputs) -> Impl:
    ti, k = _load()
    x = inputs["x"]
    out = np.zeros_like(x)
    return Impl(_caller(ti, k.softmax_rows, x, out), lambda: out)


def launch(device: str, inputs: Inputs) -> Impl:
    """``ops`` calls of the 64-item saxpy, then one ``ti.sync()``: Taichi's call cost."""
    ti, k = _load()
    x, y, a, ops = inputs["x"], inputs["y"].copy(), float(inputs["a"]), int(inputs["ops"])

    def run() -> None:
        for _ in range(ops):
            k.saxpy(a, x, y)
        ti.sync()

    return Impl(run, None, ops=ops)


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
}
"""Suite kernel -> Taichi factory."""
