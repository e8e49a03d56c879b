"""gpuoff kernels inside Dask (issue 18, item 4): ``dask.array.map_blocks`` (saxpy) and
``map_overlap`` (a 2-D five-point stencil, the halo exchange Dask does for us) on the threaded
scheduler, the processes scheduler and a two-worker ``distributed.LocalCluster`` on loopback,
each checked against NumPy; kernels from this (importable) module travel by reference, one
from a notebook-style cell by source. The stencil is the Jacobi step of PyOpenCL's and
Taichi's heat-equation examples, in our own words. Dask is in the ``interop`` extra.
"""

from __future__ import annotations

import linecache
import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")


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


def jacobi_numpy(u: np.ndarray) -> np.ndarray:
    ref = u.copy()
    ref[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return ref


N = 40_000
RNG = np.random.default_rng(7)
X = RNG.random(N, dtype=np.float32)
Y = RNG.random(N, dtype=np.float32)
U = RNG.random((200, 150), dtype=np.float32)


def graphs(block_fn: Callable[..., Any] = jacobi_block) -> tuple[Any, Any]:
    x = da.from_array(X, chunks=N // 4)
    y = da.from_array(Y, chunks=N // 4)
    u = da.from_array(U, chunks=(64, 50))  # uneven blocks: the last ones are smaller
    return (da.map_blocks(saxpy_block, x, y, dtype=np.float32),
            da.map_overlap(block_fn, u, depth=1, boundary="none", dtype=np.float32))  # fmt: skip


def check(results: tuple[np.ndarray, np.ndarray]) -> None:
    s, stencil = results
    np.testing.assert_allclose(s, 2.0 * X + Y, rtol=1e-6)
    np.testing.assert_allclose(stencil, jacobi_numpy(U), rtol=1e-6)


@pytest.mark.parametrize("scheduler", ["threads", "synchronous"])
def test_map_blocks_and_map_overlap_on_local_schedulers(scheduler: str) -> None:
    check(dask.compute(*graphs(), scheduler=scheduler))


def test_processes_scheduler() -> None:
    check(dask.compute(*graphs(), scheduler="processes", num_workers=2))


CELL = '''
import numpy as np
import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32

@go.kernel
def cell_jacobi(u: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    j = go.global_id(1)
    if i < u.shape[0] and j < u.shape[1]:
        if i == 0 or j == 0 or i == u.shape[0] - 1 or j == u.shape[1] - 1:
            out[i, j] = u[i, j]
        else:
            out[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])

def cell_block(u):
    out = np.empty_like(u)
    cell_jacobi[u.shape](u, out)
    return out
'''


def notebook_cell() -> dict[str, Any]:
    """``CELL`` run as IPython runs a cell (text in linecache, exec in ``__main__``'s name)."""
    name = "<ipython-input-3-5f0e1d2c3b4a>"
    linecache.cache[name] = (len(CELL), None, CELL.splitlines(True), name)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(CELL, name, "exec"), namespace)
    return namespace


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None,
                                  silence_logs=50) as cluster,  \
            distributed.Client(cluster) as c:  # fmt: skip
        yield c


def test_local_cluster_of_two_workers(client: Any) -> None:
    check(dask.compute(*graphs(), scheduler=client))
    assert len(client.scheduler_info()["workers"]) == 2


def test_a_kernel_from_a_notebook_cell_runs_on_the_cluster(client: Any) -> None:
    cell = notebook_cell()
    _, stencil = graphs(cell["cell_block"])
    np.testing.assert_allclose(stencil.compute(scheduler=client), jacobi_numpy(U), rtol=1e-6)


def pool_size_after_a_launch() -> tuple[int, int]:
    """In a worker: gpuoff's thread count, and its pool threads after a large launch."""
    big = np.ones(1 << 21, np.float32)
    saxpy_block(big, big)
    workers = sum(t.name.startswith("gpuoff-cpu-") for t in threading.enumerate())
    return go.get_num_threads(), workers


def test_workers_use_their_own_thread_count(client: Any) -> None:
    futures = [client.submit(pool_size_after_a_launch, pure=False, workers=[w])
               for w in client.scheduler_info()["workers"]]  # fmt: skip
    # one thread per worker: no pool, every launch on the task's thread
    assert [f.result() for f in futures] == [(1, 0), (1, 0)]
