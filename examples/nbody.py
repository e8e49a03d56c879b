"""All-pairs n-body accelerations with a ``@go.func`` helper, checked against NumPy.

One work-item per body sums the pull of every other body; the pairwise force law lives in a
device function (``gravity``) that the kernel calls like any Python function. The bodies
are read through a shared-memory tile: each work-group loads ``BLOCK`` bodies at a time, so a
body's data is read from global memory once per work-group instead of once per work-item.

Run: ``python examples/nbody.py [--device D] [-n N]``
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32

BLOCK = 64
"""Work-items per work-group, and bodies per shared tile."""
SOFTENING = 0.001
"""Added to ``r^2`` so that a body's pull on itself is zero instead of a division by zero."""


@go.func
def gravity(dx: f32, dy: f32, dz: f32, m: f32) -> f32:
    """``m / r^3`` with softening: multiply by ``(dx, dy, dz)`` for the acceleration."""
    r2 = dx * dx + dy * dy + dz * dz + SOFTENING
    inv = go.rsqrt(r2)
    return m * inv * inv * inv


@go.kernel
def nbody(
    px: Borrow[Array[f32]],
    py: Borrow[Array[f32]],
    pz: Borrow[Array[f32]],
    mass: Borrow[Array[f32]],
    ax: BorrowMut[Array[f32]],
    ay: BorrowMut[Array[f32]],
    az: BorrowMut[Array[f32]],
) -> None:
    """Accelerations ``(ax, ay, az)`` of the bodies at ``(px, py, pz)`` with masses ``mass``.
    Launch with blocks of ``BLOCK`` over ``n`` rounded up to a multiple of ``BLOCK``."""
    i = go.global_id(0)
    lid = go.local_id(0)
    n = px.shape[0]
    tile = go.shared((4, BLOCK), go.f32)  # x, y, z, mass of BLOCK bodies
    xi = go.f32(0.0)
    yi = go.f32(0.0)
    zi = go.f32(0.0)
    if i < n:
        xi = px[i]
        yi = py[i]
        zi = pz[i]
    fx = go.f32(0.0)
    fy = go.f32(0.0)
    fz = go.f32(0.0)
    for start in range(0, n, BLOCK):
        j = start + lid
        tile[0, lid] = 0.0
        tile[1, lid] = 0.0
        tile[2, lid] = 0.0
        tile[3, lid] = 0.0  # bodies past the end have zero mass: they pull nothing
        if j < n:
            tile[0, lid] = px[j]
            tile[1, lid] = py[j]
            tile[2, lid] = pz[j]
            tile[3, lid] = mass[j]
        go.barrier()
        for k in range(BLOCK):
            dx = tile[0, k] - xi
            dy = tile[1, k] - yi
            dz = tile[2, k] - zi
            s = gravity(dx, dy, dz, tile[3, k])
            fx += dx * s
            fy += dy * s
            fz += dz * s
        go.barrier()  # the tile is read by everyone before the next load
    if i < n:
        ax[i] = fx
        ay[i] = fy
        az[i] = fz


def nbody_numpy(pos: np.ndarray[Any, np.dtype[np.float32]]) -> np.ndarray[Any, Any]:
    """The same sums in f64 with NumPy broadcasting."""
    p = pos.astype(np.float64)
    d = p[None, :, :3] - p[:, None, :3]  # d[i, j] = r_j - r_i
    r2 = (d * d).sum(axis=2) + SOFTENING
    s = p[None, :, 3] / (r2 * np.sqrt(r2))
    out: np.ndarray[Any, Any] = (d * s[:, :, None]).sum(axis=1)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--device", help="device to run on (default: gpuoff's default)")
    parser.add_argument("-n", type=int, default=1000, help="number of bodies")
    args = parser.parse_args(argv)
    if args.device:
        go.set_device(args.device)

    n: int = args.n
    rng = np.random.default_rng(9)
    pos = np.empty((n, 4), np.float32)
    pos[:, :3] = rng.standard_normal((n, 3), dtype=np.float32)
    pos[:, 3] = rng.uniform(0.5, 1.5, n).astype(np.float32)
    ins = [go.array(np.ascontiguousarray(pos[:, c])) for c in range(4)]
    outs = [go.zeros(n, f32) for _ in range(3)]
    nbody[(-(-n // BLOCK) * BLOCK,), (BLOCK,)](*ins, *outs)
    result = np.stack([o.numpy() for o in outs], axis=1)
    expected = nbody_numpy(pos)
    scale = float(np.abs(expected).max())
    err = float(np.abs(result - expected).max()) / scale
    ok = err < 1e-4
    print(f"n-body, {n} bodies: {'matches NumPy' if ok else 'DIFFERS from NumPy'} "
          f"(max error {err:.1e} of the largest acceleration {scale:.1f})")  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
