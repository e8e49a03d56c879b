"""NVIDIA Warp's CPU backend as a peer on the ``cpu`` device (kernels: ``warp_kernels``).

Each factory copies the case's NumPy inputs into Warp arrays on ``"cpu"`` once (not timed),
and ``run`` launches with ``wp.launch(..., device="cpu")`` and waits
(``wp.synchronize_device``), as gpuoff's side ends with ``go.synchronize()``. Warp compiles a
module's kernels with its own bundled compiler on the first launch, into its kernel cache,
which is kept under gpuoff's cache folder (``<cache>/peers/warp``) when that is on, so that a
bench run leaves nothing in the user's home. ``BenchSkip`` when Warp is missing or broken.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from gpuoff.bench.harness import BenchSkip, Impl
from gpuoff.bench.peers.common import SEQUENTIAL_SUM_RTOL

Inputs = dict[str, Any]
Factory = Callable[[str, Inputs], Impl]

INSTALL = "pip install warp-lang (or 'gpuoff[bench]')"


@cache
def _load() -> tuple[Any, Any]:
    """(warp, warp_kernels), initialised quietly; BenchSkip saying why not."""
    try:
        with contextlib.redirect_stdout(sys.stderr):  # Warp prints a banner on init
            wp: Any = importlib.import_module("warp")
            wp.config.quiet = True  # no banner
            wp.config.log_level = wp.LOG_WARNING  # no "Module ... load took" line per module
            folder = _cache_folder()
            if folder is not None:
                wp.config.kernel_cache_dir = folder
            wp.init()
            kernels = importlib.import_module("gpuoff.bench.peers.warp_kernels")
    except ImportError as e:
        raise BenchSkip(f"Warp is not installed ({INSTALL}): {e}") from e
    except Exception as e:  # noqa: BLE001 - a broken install is reported, not raised
        raise BenchSkip(f"Warp does not start here: {type(e).__name__}: {e}") from e
    return wp, kernels


def _cache_folder() -> str | None:
    from gpuoff.runtime.cache import cache_dir

    base = cache_dir()
    return None if base is None else str(base / "peers" / "warp")


def status() -> dict[str, Any]:
    """``{"version": ..., "device": "cpu"}``, or ``{"error": why}``."""
    try:
        wp, _ = _load()
    except BenchSkip as e:
        return {"error": str(e)}
    return {"version": str(wp.config.version), "device": "cpu (one thread)"}


def _arrays(wp: Any, *arrays: np.ndarray[Any, Any]) -> list[Any]:
    return [wp.array(a, dtype=wp.dtype_from_numpy(a.dtype), device="cpu") for a in arrays]


def _launcher(wp: Any, kernel: Any, dim: Any, args: list[Any]) -> Callable[[], None]:
    def run() -> None:
        wp.launch(kernel, dim=dim, inputs=args, device="cpu")
        wp.synchronize_device("cpu")

    return run


def saxpy(device: str, inputs: Inputs) -> Impl:
    wp, k = _load()
    x, y = _arrays(wp, inputs["x"], inputs["y"])
    run = _launcher(wp, k.saxpy, x.shape[0], [float(inputs["a"]), x, y])
    return Impl(run, y.numpy, keep=(x, y))


def stencil2d(device: str, inputs: Inputs) -> Impl:
    wp, k = _load()
    src = inputs["src"]
    sb, db = _arrays(wp, src, np.zeros_like(src))
    return Impl(_launcher(wp, k.stencil5, src.shape, [sb, db]), db.numpy, keep=(sb, db))


def black_scholes(device: str, inputs: Inputs) -> Impl:
    wp, k = _load()
    price = inputs["price"]
    ins = _arrays(wp, price, inputs["strike"], inputs["years"])
    call, put = _arrays(wp, np.zeros_like(price), np.zeros_like(price))
    args = [*ins, float(inputs["rate"]), float(inputs["vol"]), call, put]
    run = _launcher(wp, k.black_scholes, price.shape[0], args)
    return Impl(run, lambda: np.stack([call.numpy(), put.numpy()]), keep=(*ins, call, put))


def reduction(device: str, inputs: Inputs) -> Impl:
    """``wp.utils.array_sum``: Warp's own reduction."""
    wp, _ = _load()
    (x,) = _arrays(wp, inputs["x"])
    out = wp.zeros(1, dtype=float, device="cpu")

    def run() -> None:
        wp.utils.array_sum(x, out=out)
        wp.synchronize_device("cpu")

    return Impl(run, out.numpy, keep=(x, out), rtol=SEQUENTIAL_SUM_RTOL)


def sgemm(device: str, inputs: Inputs) -> Impl:
    wp, k = _load()
    a, b = inputs["a"], inputs["b"]
    ab, bb, cb = _arrays(wp, a, b, np.zeros((a.shape[0], b.shape[1]), np.float32))
    run = _launcher(wp, k.sgemm, (a.shape[0], b.shape[1]), [ab, bb, cb])
    return Impl(run, cb.numpy, keep=(ab, bb, cb))


def histogram(device: str, inputs: Inputs) -> Impl:
    """``wp.atomic_add`` per element into int32 bins (Warp's atomics on integers)."""
    wp, k = _load()
    (data,) = _arrays(wp, inputs["data"])
    bins = wp.zeros(256, dtype=wp.int32, device="cpu")

    def run() -> None:
        bins.zero_()
        wp.launch(k.histogram256, dim=data.shape[0], inputs=[data, bins], device="cpu")
        wp.synchronize_device("cpu")

    return Impl(run, lambda: bins.numpy().astype(np.uint32), keep=(data, bins))


def nbody(device: str, inputs: Inputs) -> Impl:
    wp, k = _load()
    px = inputs["px"]
    ins = _arrays(wp, *(inputs[n] for n in ("px", "py", "pz", "mass")))
    outs = _arrays(wp, *(np.zeros_like(px) for _ in range(3)))
    run = _launcher(wp, k.nbody, px.shape[0], [*ins, *outs])
    return Impl(run, lambda: np.stack([o.numpy() for o in outs]), keep=(*ins, *outs))


def scan(device: str, inputs: Inputs) -> Impl:
    """``wp.utils.array_scan(..., inclusive=True)``: Warp's own prefix sum."""
    wp, _ = _load()
    x = inputs["x"]
    xb, out = _arrays(wp, x, np.zeros_like(x))

    def run() -> None:
        wp.utils.array_scan(xb, out, inclusive=True)
        wp.synchronize_device("cpu")

    return Impl(run, out.numpy, keep=(xb, out))


def transpose(device: str, inputs: Inputs) -> Impl:
    wp, k = _load()
    a = inputs["a"]
    ab, ob = _arrays(wp, a, np.zeros((a.shape[1], a.shape[0]), a.dtype))
    return Impl(_launcher(wp, k.transpose, a.shape, [ab, ob]), ob.numpy, keep=(ab, ob))


def softmax(device: str, inputs: Inputs) -> Impl:
    wp, k = _load()
    x = inputs["x"]
    xb, ob = _arrays(wp, x, np.zeros_like(x))
    return Impl(_launcher(wp, k.softmax_rows, x.shape[0], [xb, ob]), ob.numpy, keep=(xb, ob))


def launch(device: str, inputs: Inputs) -> Impl:
    """``ops`` launches of the 64-item saxpy, then one wait: Warp's launch cost."""
    wp, k = _load()
    x, y = _arrays(wp, inputs["x"], inputs["y"])
    a, ops, n = float(inputs["a"]), int(inputs["ops"]), x.shape[0]

    def run() -> None:
        for _ in range(ops):
            wp.launch(k.saxpy, dim=n, inputs=[a, x, y], device="cpu")
        wp.synchronize_device("cpu")

    return Impl(run, None, ops=ops, keep=(x, y))


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
"""Suite kernel -> Warp factory."""
