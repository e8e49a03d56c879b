"""Mandelbrot set: a ``while`` loop that leaves early with ``break``, one work-item per pixel.

Prints the set as characters and checks the escape counts against NumPy.

Run: ``python examples/mandelbrot.py [--device D] [--width W] [--height H] [--iters N]``
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, BorrowMut, f32, i32

CHARS = " .:-=+*#%@"


@go.kernel
def mandelbrot(out: BorrowMut[Array[i32]], x0: f32, y0: f32, step: f32, max_iter: i32) -> None:
    px = go.global_id(0)
    py = go.global_id(1)
    if py < out.shape[0] and px < out.shape[1]:
        cr = x0 + go.f32(px) * step
        ci = y0 + go.f32(py) * step
        zr = cr * 0.0
        zi = cr * 0.0
        n = 0
        while n < max_iter:
            zr2 = zr * zr
            zi2 = zi * zi
            if zr2 + zi2 > 4.0:
                break  # escaped: this pixel is done early
            zi = 2.0 * zr * zi + ci
            zr = zr2 - zi2 + cr
            n += 1
        out[py, px] = n


def mandelbrot_numpy(
    rows: int, cols: int, x0: float, y0: float, step: float, max_iter: int
) -> np.ndarray[Any, np.dtype[np.int32]]:
    f = np.float32
    cr = np.broadcast_to(f(x0) + np.arange(cols, dtype=f) * f(step), (rows, cols))
    ci = np.broadcast_to((f(y0) + np.arange(rows, dtype=f) * f(step))[:, None], (rows, cols))
    zr = np.zeros((rows, cols), f)
    zi = np.zeros((rows, cols), f)
    count = np.zeros((rows, cols), np.int32)
    active = np.ones((rows, cols), bool)
    for _ in range(max_iter):
        zr2, zi2 = zr * zr, zi * zi
        active &= (zr2 + zi2) <= 4.0
        zi = np.where(active, f(2.0) * zr * zi + ci, zi)
        zr = np.where(active, zr2 - zi2 + cr, zr)
        count += active
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--device", help="device to run on (default: gpuoff's default)")
    parser.add_argument("--width", type=int, default=480)
    parser.add_argument("--height", type=int, default=240)
    parser.add_argument("--iters", type=int, default=100)
    args = parser.parse_args(argv)
    if args.device:
        go.set_device(args.device)

    rows, cols, iters = args.height, args.width, args.iters
    step = 3.0 / cols
    x0, y0 = -2.2, -step * rows / 2
    out = go.zeros((rows, cols), go.i32)
    mandelbrot[cols, rows](out, x0, y0, step, iters)
    counts = out.numpy()

    for r in range(0, rows, max(rows // 20, 1)):
        row = counts[r, :: max(cols // 72, 1)]
        print("".join(CHARS[min(int(c) * (len(CHARS) - 1) // iters, len(CHARS) - 1)] for c in row))
    expected = mandelbrot_numpy(rows, cols, x0, y0, step, iters)
    # Without fastmath every device computes + - * in IEEE f32 as written (no fused multiply-
    # add), as NumPy does: every pixel must match. (Allowing "a handful" hid the OpenCL
    # driver's contractions, which changed 0.16% of the pixels.)
    mismatch = float(np.mean(counts != expected))
    ok = mismatch == 0.0
    inside = float(np.mean(counts == iters))
    print(f"mandelbrot {cols}x{rows}, <= {iters} iterations: "
          f"{'matches NumPy' if ok else 'DIFFERS from NumPy'} ({mismatch:.4%} pixels differ); "
          f"{inside:.1%} of pixels inside the set")  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
