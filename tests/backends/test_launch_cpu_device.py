"""The cpu device's own interface (as the OpenCL and CUDA devices offer it): compile, the
generic ``launch`` with ``ArrayArg``s, the pool, completion events and error records."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32
from gpuoff.frontend import lower_kernel
from gpuoff.ir import types as T
from gpuoff.ir.nodes import Module
from gpuoff.ownership import Access
from gpuoff.runtime.devices import get_device
from gpuoff.runtime.devices.base import Allocation, ArrayArg
from gpuoff.runtime.devices.cpu import INLINE_ITEMS, CpuDevice, CpuProgram
from gpuoff.runtime.devices.cpu_pool import CpuEvent


def shift(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    y[i] = x[i + 1] + a


def _module() -> Module:
    vec = T.ArrayType(T.f32, 1, access=Access.BORROW)
    out = T.ArrayType(T.f32, 1, access=Access.BORROW_MUT)
    return lower_kernel(shift, (T.f32, vec, out))


def _arg(a: np.ndarray[Any, Any]) -> ArrayArg:
    return ArrayArg(Allocation(a.view(np.uint8), a.nbytes), 0, a.shape, (1,))


@pytest.mark.parametrize("n", [16, INLINE_ITEMS * 4])
def test_generic_launch_inline_and_pooled(n: int) -> None:
    dev = get_device("cpu")
    assert isinstance(dev, CpuDevice) and dev.host_memory
    program = dev.compile(_module())
    x = np.arange(n + 1, dtype=np.float32)
    y = np.zeros(n, np.float32)
    event = dev.launch(program, [0.5, _arg(x), _arg(y)], (n, 1, 1), None, [])
    event.wait()
    assert event.done()
    np.testing.assert_array_equal(y, x[1:] + 0.5)
    if n > INLINE_ITEMS:
        assert isinstance(event, CpuEvent)


@pytest.mark.parametrize("n", [16, INLINE_ITEMS * 4])
def test_generic_launch_reports_the_bounds_error_once(n: int) -> None:
    dev = get_device("cpu")
    program = dev.compile(_module())
    x = np.ones(n, dtype=np.float32)  # one short: the last work-item reads x[n]
    y = np.zeros(n, np.float32)
    event = dev.launch(program, [0.0, _arg(x), _arg(y)], (n, 1, 1), (16, 1, 1), [])
    with pytest.raises(go.BoundsError, match=rf"\({n},\).*x.*\({n},\)"):
        event.wait()
    event.wait()
    assert y[: n - 1].tolist() == [1.0] * (n - 1) and y[n - 1] == 0.0


def test_pooled_launch_waits_for_its_dependencies() -> None:
    dev = get_device("cpu")
    program = dev.compile(_module())
    n = INLINE_ITEMS * 4
    x = np.zeros(n + 1, dtype=np.float32)
    y = np.zeros(n + 1, np.float32)
    z = np.zeros(n, np.float32)
    first = dev.launch(program, [1.0, _arg(x), _arg(y[:n])], (n, 1, 1), None, [])
    y[n] = 1.0
    second = dev.launch(program, [1.0, _arg(y), _arg(z)], (n, 1, 1), None, [first])
    second.wait()
    assert (z[: n - 1] == 2.0).all()


def test_copies_between_host_and_cpu_memory() -> None:
    dev = get_device("cpu")
    alloc = dev.allocate(16)
    dev.copy_from_host(alloc, 4, np.arange(3, dtype=np.float32), []).wait()
    back = np.zeros(3, np.float32)
    dev.copy_to_host(back, alloc, 4, []).wait()
    assert back.tolist() == [0.0, 1.0, 2.0]
    assert dev.host_view(alloc).nbytes == 16
    dev.free(alloc)


def test_discovery() -> None:
    cpu = [d for d in go.devices() if d.name == "cpu"]
    assert len(cpu) == 1 and cpu[0].available and cpu[0].backend == "cpu"
    with pytest.raises(go.DeviceError):
        get_device("cpu:1")


def _child_launch(conn: Any) -> None:
    y = go.zeros(INLINE_ITEMS * 4, go.i32)
    with go.on("cpu"):
        bump_all[y.shape[0]](y)
        conn.send(int(y.numpy().sum()))


@go.kernel
def bump_all(y: BorrowMut[Array[go.i32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = y[i] + 1


def test_pooled_launches_work_in_a_forked_child() -> None:
    import multiprocessing

    y = go.zeros(INLINE_ITEMS * 4, go.i32)
    with go.on("cpu"):
        bump_all[y.shape[0]](y)  # the parent's pool exists now
        go.synchronize()
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=_child_launch, args=(child,))
    proc.start()
    assert parent.poll(120), "the child's pooled launch never finished"
    assert parent.recv() == INLINE_ITEMS * 4
    proc.join(30)


@go.kernel
def spin(n: go.i32, y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        acc = 0.0
        for _k in range(n):
            acc = acc + 1.0
        y[i] = acc


def test_heavy_small_grids_move_to_the_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpuoff.runtime.devices import cpu

    y = go.zeros(4096)
    with go.on("cpu"):
        # light: stays inline (the first run of new code may take its page faults on a busy
        # machine: the light launch gets a whole second, the heavy one the usual limit)
        with monkeypatch.context() as patch:
            patch.setattr(cpu, "INLINE_SECONDS", 1.0)
            spin[4096, (64,)](1, y)
        plan = next(iter(spin._plans.values()))
        program = plan.program
        assert isinstance(program, CpuProgram)
        assert program.inline_items == INLINE_ITEMS
        spin[4096, (64,)](20_000, y)  # heavy: took long inline, so ...
        assert program.inline_items < 4096  # ... such grids run on every core from now on
        spin[4096, (64,)](3, y)
        assert y.numpy().tolist() == [3.0] * 4096


def test_a_large_grid_runs_on_every_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """The grid is split over long-lived workers (one per core but one), joined by the thread
    that waits for the launch: every one of them runs a share."""
    import os
    import threading

    dev = get_device("cpu")
    assert isinstance(dev, CpuDevice)
    pool = dev.pool
    assert pool.workers == max(1, (os.cpu_count() or 1) - 1)
    ran_on: set[str] = set()
    started = threading.Barrier(pool.workers + 1, timeout=30)  # + the waiting thread
    real_submit = pool.submit

    def submit(event: Any, entry: Any, block: Any, n_groups: int, ndim_of: Any) -> None:
        def traced(blk: Any, lo: int, hi: int, err: Any) -> None:
            if threading.current_thread().name not in ran_on:
                ran_on.add(threading.current_thread().name)
                started.wait()  # each worker holds its first chunk until all have one
            entry(blk, lo, hi, err)

        real_submit(event, traced, block, n_groups, ndim_of)

    monkeypatch.setattr(pool, "submit", submit)
    n = INLINE_ITEMS * 16
    y = go.zeros(n, go.i32)
    with go.on("cpu"):
        bump_all[n, (256,)](y)
        assert y.numpy().tolist() == [1] * n
    workers = {f"gpuoff-cpu-{i}" for i in range(pool.workers)}
    assert ran_on == workers | {threading.current_thread().name}


def test_the_waiting_thread_runs_the_work_when_every_worker_is_busy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With every worker held busy, waiting for a launch queued behind another one completes:
    the waiting thread runs both launches' chunks itself, woken when the second is queued."""
    import threading

    dev = get_device("cpu")
    assert isinstance(dev, CpuDevice)
    pool = dev.pool
    gate, all_busy = threading.Event(), threading.Event()
    busy = [0]
    lock = threading.Lock()

    def hold(blk: Any, lo: int, hi: int, err: Any) -> None:
        with lock:
            busy[0] += 1
            if busy[0] == pool.workers:
                all_busy.set()
        gate.wait(60)  # released below (or by the timeout, and then the test fails)

    holder = CpuEvent(None, pool)
    pool.submit(holder, hold, None, pool.workers, lambda check: 1)
    assert all_busy.wait(30)
    ran_on: set[str] = set()
    real_submit = pool.submit

    def submit(event: Any, entry: Any, block: Any, n_groups: int, ndim_of: Any) -> None:
        def traced(blk: Any, lo: int, hi: int, err: Any) -> None:
            ran_on.add(threading.current_thread().name)
            entry(blk, lo, hi, err)

        real_submit(event, traced, block, n_groups, ndim_of)

    monkeypatch.setattr(pool, "submit", submit)
    program = dev.compile(_module())
    n = INLINE_ITEMS * 4
    x = np.arange(n + 1, dtype=np.float32)
    y = np.zeros(n + 1, np.float32)
    z = np.zeros(n, np.float32)
    try:
        first = dev.launch(program, [1.0, _arg(x), _arg(y[:n])], (n, 1, 1), None, [])
        second = dev.launch(program, [1.0, _arg(y), _arg(z)], (n, 1, 1), None, [first])
        second.wait()
        assert first.done() and not gate.is_set()
    finally:
        gate.set()
        holder.wait()
    assert ran_on == {threading.current_thread().name}
    np.testing.assert_array_equal(z[: n - 1], x[2:] + 2.0)  # z[i] = y[i + 1] + 1 = x[i + 2] + 2
