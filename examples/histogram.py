"""256-bin histogram of bytes with atomics: per-work-group counts in shared memory, then one
global atomic add per bin and work-group.

Many work-items hit the same bin at once (all of them, for uniform data); ``go.atomic_add`` is
the only write that several work-items may make to one element without a race. Counting into
a ``go.shared`` array first keeps the contended atomics inside the work-group, and the global
array then sees ``BINS`` adds per work-group instead of one per byte.

Run: ``python examples/histogram.py [--device D] [-n N]``
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, u8, u32

BINS = 256
"""Bins, and work-items per work-group (one bin each to clear and to flush)."""
GROUPS = 64
"""Work-groups; each walks the data with a grid-stride loop."""


@go.kernel
def histogram256(data: Borrow[Array[u8]], bins: BorrowMut[Array[u32]]) -> None:
    """Add the counts of ``data``'s byte values to ``bins`` (zeroed by the caller). Launch
    with blocks of ``BINS`` work-items."""
    lid = go.local_id(0)
    local = go.shared(BINS, go.u32)  # owned by this work-group; starts undefined
    local[lid] = 0
    go.barrier()
    i = go.global_id(0)
    stride = go.global_size(0)
    while i < data.shape[0]:
        go.atomic_add(local, data[i], 1)
        i += stride
    go.barrier()
    if local[lid] > 0:
        go.atomic_add(bins, lid, local[lid])


def histogram(data: go.Buffer[u8]) -> go.Buffer[u32]:
    """The 256 counts of a 1-D u8 buffer, on the current device."""
    bins = go.zeros(BINS, u32)
    histogram256[(GROUPS * BINS,), (BINS,)](data, bins)
    return bins


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--device", help="device to run on (default: gpuoff's default)")
    parser.add_argument("-n", type=int, default=1 << 20, help="number of bytes")
    args = parser.parse_args(argv)
    if args.device:
        go.set_device(args.device)

    n: int = args.n
    # Skewed data (hot low bins) plus a run of one value: the worst case for contention.
    skewed = np.minimum(np.random.default_rng(5).exponential(30.0, n), 255).astype(np.uint8)
    skewed[: n // 4] = 7
    result = histogram(go.array(skewed)).numpy()
    expected = np.bincount(skewed, minlength=BINS).astype(np.uint32)
    ok = bool(np.array_equal(result, expected))
    print(f"histogram of {n} bytes: {'matches NumPy' if ok else 'DIFFERS from NumPy'}; "
          f"hottest bin {int(result.argmax())} with {int(result.max())} "
          f"(NumPy {int(expected.max())})")  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
