"""saxpy: ``y = a * x + y`` over a million floats, checked against NumPy.

Run: ``python examples/saxpy.py [--device cpu|opencl:0|cuda:0]``
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32


@go.kernel
def saxpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--device", help="device to run on (default: gpuoff's default)")
    parser.add_argument("-n", type=int, default=1 << 20, help="number of elements")
    args = parser.parse_args(argv)
    if args.device:
        go.set_device(args.device)

    n: int = args.n
    x_host = np.linspace(0.0, 1.0, n, dtype=np.float32)
    y_host = np.ones(n, dtype=np.float32)
    x = go.array(x_host)
    y = go.array(y_host)

    start = time.perf_counter()
    saxpy[n](2.0, x, y)  # asynchronous: the first launch traces and compiles the kernel
    go.synchronize()
    first = time.perf_counter() - start

    result = y.numpy()  # waits for the kernel, copies back only if the data is elsewhere
    expected = np.float32(2.0) * x_host + y_host
    ok = np.allclose(result, expected, rtol=1e-6)
    print(f"saxpy of {n} floats: {'matches NumPy' if ok else 'DIFFERS from NumPy'} "
          f"(first launch {first * 1e3:.1f} ms incl. compile); y[:4] = {result[:4]}")  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
