"""Tree reduction in shared memory: the sum of a long array, in f32 and in f64, from one
generic kernel.

Each work-group loads ``BLOCK`` elements into a ``go.shared`` tile (zeros past the end, so any
length works), halves the number of active work-items at every step with a ``go.barrier()``
between steps, and writes its partial sum. The partial sums are reduced again by the same
kernel until one value is left: no atomics, so the result does not depend on scheduling.

The kernel is written once over a dtype variable (``F``: f32 or f64) with the block size a
compile-time parameter (``go.Const[int]``); each launch's dtype and block pick (and on first
use compile) the specialisation. The library's ``gl.sum`` (``gpuoff.lib``, docs/library.md)
computes the same sum in one call, without a shared-memory tree (a blocked order that
vectorises on the CPU); the check runs both.

Run: ``python examples/reduction.py [--device D] [-n N]``
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np

import gpuoff as go
import gpuoff.lib as gl
from gpuoff import Array, Borrow, BorrowMut, Const, f32, f64

BLOCK = 256
"""Work-items per work-group: a power of two (the tree halves it at every step)."""

F = go.DTypeVar("F", go.f32, go.f64)


@go.kernel
def block_sum(x: Borrow[Array[F]], partial: BorrowMut[Array[F]], block: Const[int]) -> None:
    """``partial[g] = sum(x[g * block : (g + 1) * block])`` for each work-group ``g``."""
    lid = go.local_id(0)
    i = go.global_id(0)
    tile = go.shared(block, type(x[0]))  # a tile of F (type checkers take no F as a value)
    v = type(x[0])(0)
    if i < x.shape[0]:
        v = x[i]
    tile[lid] = v
    go.barrier()
    s = block // 2
    while s > 0:  # the loop bound is the same for every work-item: the barrier is uniform
        if lid < s:
            tile[lid] += tile[lid + s]
        go.barrier()
        s //= 2
    if lid == 0:
        partial[go.group_id(0)] = tile[0]


def groups_for(n: int) -> int:
    """Work-groups needed to cover ``n`` elements (at least one)."""
    return max(1, -(-n // BLOCK))


def total(x: go.Buffer[Any]) -> float:
    """Sum a 1-D f32 or f64 buffer on the current device: one launch per level of partial
    sums."""
    cur = x
    while True:
        groups = groups_for(cur.shape[0])
        partial = go.zeros(groups, cur.dtype)
        block_sum[(groups * BLOCK,), (BLOCK,)](cur, partial, BLOCK)
        if groups == 1:
            return float(partial.numpy()[0])
        cur = partial


def check(n: int, dtype: type[f32] | type[f64], rng: np.random.Generator) -> tuple[bool, str]:
    """Sum ``n`` random values of ``dtype`` on the device with the kernel above and with
    ``gl.sum``; compare both with NumPy in f64."""
    host = rng.random(n, dtype=np.float32 if dtype is f32 else np.float64)
    buf = go.array(host)
    got = total(buf)
    lib = float(gl.sum(buf).numpy())  # the library call: one line, any dtype
    want = float(host.astype(np.float64).sum())
    rtol = 1e-5 if dtype is f32 else 1e-12
    ok = all(np.isclose(v, want, rtol=rtol, atol=0.0) for v in (got, lib))
    return ok, f"{dtype.__name__}[{n}]: {got:.6f}, gl.sum {lib:.6f} (NumPy {want:.6f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--device", help="device to run on (default: gpuoff's default)")
    parser.add_argument("-n", type=int, default=1_000_003, help="number of elements")
    args = parser.parse_args(argv)
    if args.device:
        go.set_device(args.device)

    rng = np.random.default_rng(7)
    results = [check(args.n, dtype, rng) for dtype in (f32, f64)]
    ok = all(r[0] for r in results)
    print(f"reduction: {'matches NumPy' if ok else 'DIFFERS from NumPy'}; "
          + "; ".join(r[1] for r in results))  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
