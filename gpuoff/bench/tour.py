"""``gpuoff tour`` / ``python -m gpuoff``: a short guided run on the default device.

Three kernels (saxpy, a 2-D stencil, Mandelbrot with an early-exit ``while`` loop) run on the
default device (or ``--device``); each result is checked against NumPy, and the first launch
(which compiles) is timed apart from a warm one. The exit status is 0 when every check passes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import nullcontext
from typing import Any

import numpy as np

MANDEL_CHARS = " .:-=+*#%@"


def _timed(fn: Callable[[], None]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _report(name: str, what: str, ok: bool, first: float, warm: float) -> str:
    mark = "ok  " if ok else "FAIL"
    return (f"  {mark} {name:<11} {what:<34} first launch {first * 1e3:7.1f} ms "
            f"(compile+run), warm {warm * 1e3:7.2f} ms")  # fmt: skip


def _saxpy() -> tuple[bool, float, float, str]:
    import gpuoff as go
    from gpuoff.bench.kernels import saxpy
    from gpuoff.bench.references import saxpy_ref

    n = 1 << 20
    x = np.linspace(0.0, 1.0, n, dtype=np.float32)
    y0 = np.ones(n, np.float32)
    xb, yb = go.array(x), go.array(y0)

    def launch() -> None:
        saxpy[n](2.0, xb, yb)
        go.synchronize()

    first = _timed(launch)
    ok = np.allclose(yb.numpy(), saxpy_ref(2.0, x, y0), rtol=1e-6)
    warm = _timed(launch)
    return bool(ok), first, warm, "y = 2*x + y, 2^20 f32"


def _stencil() -> tuple[bool, float, float, str]:
    import gpuoff as go
    from gpuoff.bench.kernels import stencil5
    from gpuoff.bench.references import stencil5_ref

    side = 1024
    src = np.random.default_rng(0).random((side, side), dtype=np.float32)
    sb, db = go.array(src), go.zeros((side, side), go.f32)

    def launch() -> None:
        stencil5[side, side](sb, db)
        go.synchronize()

    first = _timed(launch)
    ok = np.allclose(db.numpy(), stencil5_ref(src), rtol=1e-5, atol=1e-6)
    warm = _timed(launch)
    return bool(ok), first, warm, f"5-point stencil, {side}x{side} f32"


def mandelbrot_image(rows: int, cols: int, max_iter: int) -> tuple[np.ndarray[Any, Any], float]:
    """Escape counts over [-2.2, 0.8] x [-1.2, 1.2] (aspect kept), and the launch time."""
    import gpuoff as go
    from gpuoff.bench.kernels import mandelbrot

    step = 3.0 / cols
    x0, y0 = -2.2, -step * rows / 2
    out = go.zeros((rows, cols), go.i32)

    def launch() -> None:
        mandelbrot[cols, rows](out, x0, y0, step, max_iter)
        go.synchronize()

    elapsed = _timed(launch)
    return out.numpy(), elapsed


def _mandelbrot() -> tuple[bool, float, float, str, list[str]]:
    from gpuoff.bench.references import mandelbrot_ref

    rows, cols, max_iter = 256, 512, 200
    img, first = mandelbrot_image(rows, cols, max_iter)
    step = 3.0 / cols
    ref = mandelbrot_ref(rows, cols, -2.2, -step * rows / 2, step, max_iter)
    # Without fastmath every device computes + - * in IEEE f32 as written (no fused multiply-
    # add), as NumPy does: every pixel must match (a tolerance hid the OpenCL contractions).
    ok = bool((img == ref).all())
    _, warm = mandelbrot_image(rows, cols, max_iter)
    art = []
    for r in range(0, rows, rows // 16):
        line = img[r, :: cols // 64]
        idx = np.minimum(line * (len(MANDEL_CHARS) - 1) // max_iter, len(MANDEL_CHARS) - 1)
        art.append("    " + "".join(MANDEL_CHARS[int(k)] for k in idx))
    return ok, first, warm, f"while + break, {cols}x{rows}, <= {max_iter} it", art


def run_tour(device: str | None = None) -> int:
    """Run the tour on ``device`` (default: gpuoff's default device); 0 if all checks pass."""
    import gpuoff as go
    from gpuoff.runtime.devices import current_device

    with go.on(device) if device else nullcontext():
        dev = current_device()
        print(f"gpuoff {go.__version__} tour on device {dev.name!r}")
        results = []
        for name, step in (("saxpy", _saxpy), ("stencil2d", _stencil)):
            ok, first, warm, what = step()
            results.append(ok)
            print(_report(name, what, ok, first, warm))
        ok, first, warm, what, art = _mandelbrot()
        results.append(ok)
        print(_report("mandelbrot", what, ok, first, warm))
        print("\n".join(art))
    if all(results):
        print("all results match NumPy.")
        return 0
    print("some results differ from NumPy (see FAIL above).")
    return 1
