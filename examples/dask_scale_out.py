"""gpuoff kernels as Dask tasks: saxpy with ``map_blocks`` and a 2-D Jacobi step with
``map_overlap`` (Dask exchanges the one-cell halo between blocks), on the threaded scheduler
or a local cluster of worker processes, checked against NumPy; ``--measure`` times both
against the same graph with NumPy blocks on the same workers (docs/scale-out.md).

    python examples/dask_scale_out.py                       # threaded scheduler, small
    python examples/dask_scale_out.py --workers 2 --measure --n 16777216

The kernels live in this file: run as a script they are pickled by source to the workers
(gpuoff.shipping), and each worker compiles them once (or finds them in the disk cache).
Each worker sizes gpuoff's thread pool by its own thread count (``--threads``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32


@go.kernel
def saxpy(a: f32, x: Borrow[Array[f32]], y: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < out.shape[0]:
        out[i] = a * x[i] + y[i]


@go.kernel
def jacobi(u: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    j = go.global_id(1)
    h = u.shape[0]
    w = u.shape[1]
    if i < h and j < w:
        if i == 0 or j == 0 or i == h - 1 or j == w - 1:
            out[i, j] = u[i, j]  # a block's edge: Dask trims it, or it is the array's edge
        else:
            out[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])


def saxpy_block(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    out = np.empty_like(x)
    saxpy[x.size](2.0, x, y, out)
    return out


def jacobi_block(u: np.ndarray) -> np.ndarray:
    out = np.empty_like(u)
    jacobi[u.shape](u, out)
    return out


def saxpy_numpy(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.float32(2.0) * x + y
    return out


def jacobi_numpy(u: np.ndarray) -> np.ndarray:
    out = u.copy()
    out[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return out


def graphs(da: Any, x: Any, y: Any, u: Any, numpy: bool) -> tuple[Any, Any]:
    s = da.map_blocks(saxpy_numpy if numpy else saxpy_block, x, y, dtype=np.float32)
    j = da.map_overlap(jacobi_numpy if numpy else jacobi_block, u, depth=1, boundary="none",
                       dtype=np.float32)  # fmt: skip
    return s, j


def median_seconds(fn: Any, repeats: int) -> float:
    fn()  # warm: compile (or load), first touches
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=1 << 18, help="saxpy elements (stencil: n cells)")
    ap.add_argument("--chunks", type=int, default=4, help="blocks per array (per side: 2-D)")
    ap.add_argument("--workers", type=int, default=0,
                    help="a LocalCluster of this many worker processes (0: threaded scheduler)")
    ap.add_argument("--threads", type=int, default=1, help="threads per worker")
    ap.add_argument("--measure", action="store_true", help="time gpuoff blocks against NumPy's")
    ap.add_argument("--repeats", type=int, default=5, help="timed runs per figure (median)")
    args = ap.parse_args()

    import dask
    import dask.array as da

    side = int(np.sqrt(args.n))
    x = da.random.random(args.n, chunks=-(-args.n // args.chunks)).astype(np.float32)
    y = da.random.random(args.n, chunks=-(-args.n // args.chunks)).astype(np.float32)
    u = da.random.random((side, side), chunks=-(-side // args.chunks)).astype(np.float32)
    client = None
    if args.workers:
        from distributed import Client, LocalCluster

        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=args.threads,
                               host="127.0.0.1", dashboard_address=None)  # fmt: skip
        client = Client(cluster)
        x, y, u = client.persist([x, y, u])  # generated on the workers, kept there
    else:
        x, y, u = dask.persist(x, y, u)
    scheduler = client if client is not None else "threads"

    s, j = graphs(da, x, y, u, numpy=False)
    s_ref, j_ref = graphs(da, x, y, u, numpy=True)
    got = dask.compute(s, j, scheduler=scheduler)
    want = dask.compute(s_ref, j_ref, scheduler=scheduler)
    ok = all(np.allclose(g, w, rtol=1e-6) for g, w in zip(got, want, strict=True))
    where = f"{args.workers} workers" if args.workers else "the threaded scheduler"
    print(f"saxpy ({args.n} elements) and jacobi ({side}x{side}) on {where}: "
          f"{'matches NumPy' if ok else 'DIFFERS from NumPy'}")  # fmt: skip

    if args.measure and ok:
        # reduce on the workers, so that the figure is the blocks' work, not the transfer
        pairs = (("saxpy map_blocks", s, s_ref), ("jacobi map_overlap", j, j_ref))
        for name, ours, theirs in pairs:
            t_go = median_seconds(lambda g=ours: g.sum().compute(scheduler=scheduler),
                                  args.repeats)  # fmt: skip
            t_np = median_seconds(lambda g=theirs: g.sum().compute(scheduler=scheduler),
                                  args.repeats)  # fmt: skip
            print(f"{name:20s} gpuoff {t_go * 1e3:8.1f} ms   NumPy {t_np * 1e3:8.1f} ms   "
                  f"NumPy/gpuoff {t_np / t_go:5.2f}x")  # fmt: skip
    if client is not None:
        client.close()
        cluster.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
