"""A 2-D 5-point stencil (Jacobi smoothing) iterated on a grid, checked against NumPy.

The grid's first dimension (``go.global_id(0)``) runs along columns, so neighbouring work-items
touch neighbouring memory. Two buffers swap roles every step: each launch borrows one
(``Borrow``) and exclusively borrows the other (``BorrowMut``).

Run: ``python examples/stencil2d.py [--device D] [--size N] [--steps K]``
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32


@go.kernel
def smooth(src: Borrow[Array[f32]], dst: BorrowMut[Array[f32]]) -> None:
    j = go.global_id(0)
    i = go.global_id(1)
    rows = src.shape[0]
    cols = src.shape[1]
    if i < rows and j < cols:
        if 0 < i < rows - 1 and 0 < j < cols - 1:
            total = src[i, j] + src[i - 1, j] + src[i + 1, j] + src[i, j - 1] + src[i, j + 1]
            dst[i, j] = 0.2 * total
        else:
            dst[i, j] = src[i, j]


def smooth_numpy(src: np.ndarray[Any, np.dtype[np.float32]]) -> np.ndarray[Any, Any]:
    out = src.copy()
    total = (src[1:-1, 1:-1] + src[:-2, 1:-1] + src[2:, 1:-1] + src[1:-1, :-2]
             + src[1:-1, 2:])  # fmt: skip
    out[1:-1, 1:-1] = np.float32(0.2) * total
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--device", help="device to run on (default: gpuoff's default)")
    parser.add_argument("--size", type=int, default=512, help="grid side")
    parser.add_argument("--steps", type=int, default=10, help="smoothing steps")
    args = parser.parse_args(argv)
    if args.device:
        go.set_device(args.device)

    side: int = args.size
    field = np.zeros((side, side), dtype=np.float32)
    field[side // 4 : 3 * side // 4, side // 4 : 3 * side // 4] = 1.0  # a hot square
    a = go.array(field)
    b = go.zeros((side, side), go.f32)
    expected = field
    for _ in range(args.steps):
        smooth[side, side](a, b)
        a, b = b, a
        expected = smooth_numpy(expected)

    result = a.numpy()
    ok = np.allclose(result, expected, rtol=1e-5, atol=1e-6)
    print(f"stencil2d {side}x{side}, {args.steps} steps: "
          f"{'matches NumPy' if ok else 'DIFFERS from NumPy'}; "
          f"total heat {result.sum():.3f} (NumPy {expected.sum():.3f})")  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
