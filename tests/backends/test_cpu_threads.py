"""How many threads ``cpu`` launches run on (issue 18, item 3): ``go.set_num_threads``,
``GPUOFF_NUM_THREADS`` and the default, counted as the pool's worker threads (the launching
thread is the n-th). Dask workers' counts are tested with the Dask tests (test_dask.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, BorrowMut, f32
from gpuoff.runtime import threads
from gpuoff.runtime.devices import cpu_pool, current_device
from gpuoff.runtime.devices.cpu import CpuDevice

N = 1 << 21  # large enough to go to the pool (small grids run inline on the caller)


@go.kernel
def scale(y: BorrowMut[Array[f32]], a: f32) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = y[i] * a


def cpu_device() -> CpuDevice:
    with go.on("cpu"):
        device = current_device()
    assert isinstance(device, CpuDevice)
    return device


@pytest.fixture
def default_threads() -> Iterator[None]:
    yield
    go.set_num_threads(None)


@pytest.fixture
def chunk_threads(monkeypatch: pytest.MonkeyPatch) -> set[int]:
    """The threads that run pooled work (each chunk of work-groups records its thread)."""
    seen: set[int] = set()
    real = cpu_pool.run_chunk

    def recording(chunk: Any, err: Any) -> None:
        seen.add(threading.get_ident())
        real(chunk, err)

    monkeypatch.setattr(cpu_pool, "run_chunk", recording)
    return seen


def run_once() -> np.ndarray:
    y = go.full(N, 2.0)
    with go.on("cpu"):
        scale[N](y, 3.0)
    return y.numpy()


def test_set_num_threads_sizes_the_pool(default_threads: None, chunk_threads: set[int]) -> None:
    go.set_num_threads(3)
    assert go.get_num_threads() == 3
    assert (run_once() == 6.0).all()
    pool = cpu_device().pool
    assert pool.workers == 2 and all(t.is_alive() for t in pool.started)  # + the caller
    assert 1 <= len(chunk_threads) <= 3
    assert chunk_threads <= {t.ident for t in pool.started} | {threading.get_ident()}
    go.set_num_threads(2)
    old = pool
    assert (run_once() == 6.0).all()
    pool = cpu_device().pool
    assert pool is not old and pool.workers == 1
    for _ in range(500):  # the old pool's workers leave once their queued work is done
        if not any(t.is_alive() for t in old.started):
            break
        threading.Event().wait(0.01)
    assert not any(t.is_alive() for t in old.started)


def test_one_thread_runs_every_launch_on_the_caller(
    default_threads: None, chunk_threads: set[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    go.set_num_threads(1)
    ran_on: set[int] = set()
    real = CpuDevice._run_here

    def recording(self: CpuDevice, *args: Any) -> Any:
        ran_on.add(threading.get_ident())
        return real(self, *args)

    monkeypatch.setattr(CpuDevice, "_run_here", recording)
    y = go.full(N, 1.0)
    with go.on("cpu"):
        for _ in range(3):
            scale[N](y, 2.0)  # each one after the other, on this thread
    assert (y.numpy() == 8.0).all()
    assert ran_on == {threading.get_ident()}
    assert chunk_threads == set()  # nothing went to a pool
    assert cpu_device()._pool is None


@pytest.mark.parametrize("bad", [0, -2, 1.5, True, "4"])
def test_set_num_threads_refuses_what_is_not_a_count(bad: object) -> None:
    with pytest.raises(go.ConfigError, match="whole number of threads"):
        go.set_num_threads(bad)  # type: ignore[arg-type]


def test_default_is_the_cores_this_process_may_use(
    default_threads: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GPUOFF_NUM_THREADS", raising=False)
    assert go.get_num_threads() == threads.available_cores()
    if hasattr(os, "sched_getaffinity"):
        assert threads.available_cores() == len(os.sched_getaffinity(0))


def _child(env_value: str) -> subprocess.CompletedProcess[str]:
    code = (
        "import threading, gpuoff as go\n"
        "from tests.backends.test_cpu_threads import cpu_device, run_once\n"
        "assert (run_once() == 6.0).all()\n"
        "print(go.get_num_threads(), cpu_device().pool.workers)\n"
    )
    env = {**os.environ, "GPUOFF_NUM_THREADS": env_value}
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=120, cwd=os.path.dirname(os.path.dirname(
                              os.path.dirname(os.path.abspath(__file__)))))  # fmt: skip


def test_gpuoff_num_threads_is_respected() -> None:
    out = _child("3")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["3", "2"]


@pytest.mark.parametrize("bad", ["zero", "0", "-1"])
def test_a_bad_gpuoff_num_threads_is_refused(bad: str) -> None:
    out = _child(bad)
    assert out.returncode != 0
    assert "ConfigError: GPUOFF_NUM_THREADS is a whole number of threads" in out.stderr
