"""Work-efficient inclusive prefix sum (``np.cumsum``) of any length: Blelloch per work-group,
then the scan of the work-groups' totals, then an add-back pass.

1. ``scan_blocks``: each work-group of ``BLOCK`` work-items scans ``2 * BLOCK`` elements in a
   ``go.shared`` tile -- an up-sweep that builds partial sums in a balanced tree, then a
   down-sweep that turns them into an exclusive scan (O(n) additions, not O(n log n)) -- and
   writes the tile's total to ``sums[group]``.
2. The totals are scanned by the same procedure (recursively: any length works).
3. ``add_block_offsets`` adds the scanned total of all earlier tiles to every element.

The library's ``gl.cumsum`` (``gpuoff.lib``) is the same result in one call (a two-pass
chunked scan, the shape that runs fastest on a CPU); the check runs both. i32 keeps it exact.

Run: ``python examples/scan.py [--device D] [-n N]``
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

import gpuoff as go
import gpuoff.lib as gl
from gpuoff import Array, Borrow, BorrowMut, i32

BLOCK = 256
"""Work-items per work-group (a power of two); each scans two elements."""
TILE = 2 * BLOCK
"""Elements scanned per work-group."""


@go.kernel
def scan_blocks(x: Borrow[Array[i32]], out: BorrowMut[Array[i32]],
                sums: BorrowMut[Array[i32]]) -> None:  # fmt: skip
    """Inclusive scan of each ``TILE``-element tile of ``x`` into ``out``; tile totals into
    ``sums``. Launch with ``groups * BLOCK`` work-items in blocks of ``BLOCK``."""
    lid = go.local_id(0)
    g = go.group_id(0)
    n = x.shape[0]
    a = g * TILE + lid
    b = a + BLOCK
    va = go.i32(0)
    vb = go.i32(0)
    if a < n:
        va = x[a]
    if b < n:
        vb = x[b]
    tile = go.shared(TILE, go.i32)
    tile[lid] = va
    tile[lid + BLOCK] = vb
    # Up-sweep: after the step with stride `offset`, tile[k*2*offset - 1] holds the sum of its
    # 2*offset-element span. `d` (active work-items) depends only on constants, so the barrier
    # is reached by the whole work-group at every step.
    offset = 1
    d = BLOCK
    while d > 0:
        go.barrier()
        if lid < d:
            tile[offset * (2 * lid + 2) - 1] += tile[offset * (2 * lid + 1) - 1]
        offset *= 2
        d //= 2
    go.barrier()
    if lid == 0:
        sums[g] = tile[TILE - 1]
        tile[TILE - 1] = 0
    # Down-sweep: each step swaps a left partial sum down and adds it to the right one.
    d = 1
    while d < TILE:
        offset //= 2
        go.barrier()
        if lid < d:
            left = offset * (2 * lid + 1) - 1
            right = offset * (2 * lid + 2) - 1
            t = tile[left]
            tile[left] = tile[right]
            tile[right] += t
        d *= 2
    go.barrier()
    # The tile now holds the exclusive scan; adding each element makes it inclusive.
    if a < n:
        out[a] = tile[lid] + va
    if b < n:
        out[b] = tile[lid + BLOCK] + vb


@go.kernel
def add_block_offsets(out: BorrowMut[Array[i32]], scanned_sums: Borrow[Array[i32]]) -> None:
    """``out[i] += (sum of every tile before i's)``; one work-item per element."""
    i = go.global_id(0)
    g = i // TILE
    if g > 0 and i < out.shape[0]:
        out[i] += scanned_sums[g - 1]


def tiles_for(n: int) -> int:
    """Work-groups of ``scan_blocks`` for ``n`` elements (at least one)."""
    return max(1, -(-n // TILE))


def inclusive_scan(x: go.Buffer[i32]) -> go.Buffer[i32]:
    """``np.cumsum`` of a 1-D i32 buffer on the current device, in a new buffer."""
    n = x.shape[0]
    groups = tiles_for(n)
    out = go.zeros(n, i32)
    sums = go.zeros(groups, i32)
    scan_blocks[(groups * BLOCK,), (BLOCK,)](x, out, sums)
    if groups > 1:
        offsets = inclusive_scan(sums)  # a tree of levels: TILE-fold fewer at each
        add_block_offsets[n](out, offsets)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--device", help="device to run on (default: gpuoff's default)")
    parser.add_argument("-n", type=int, default=1_000_003, help="number of elements")
    args = parser.parse_args(argv)
    if args.device:
        go.set_device(args.device)

    n: int = args.n
    host = np.random.default_rng(3).integers(-100, 100, n, dtype=np.int32)
    buf = go.array(host)
    result = inclusive_scan(buf).numpy()
    lib = gl.cumsum(buf, dtype=np.int32).numpy()  # the library call
    expected = np.cumsum(host, dtype=np.int32)
    ok = bool(np.array_equal(result, expected) and np.array_equal(lib, expected))
    print(f"scan of {n} i32 ({tiles_for(n)} tiles of {TILE}): "
          f"{'matches NumPy' if ok else 'DIFFERS from NumPy'} (and gl.cumsum); last = {result[-1]} "
          f"(NumPy {expected[-1]})")  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
