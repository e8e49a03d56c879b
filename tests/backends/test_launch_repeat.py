"""The repeat path (``Plan.repeat``) on cpu and opencl:0, and held launches on opencl:0
(``OpenCLDevice.relaunch``).

A launch repeating the previous one with the very same argument objects, while the guard state
(``guards.EPOCH``) is unchanged, skips the checks; small repeated launches are held and handed
to the driver in bursts. Each test changes one thing between repeats and checks that the
launch after it sees the change: results, errors, ordering and what stays alive."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
import threading
import weakref
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Owned, f32, i32
from gpuoff.runtime import guards
from gpuoff.runtime.devices import get_device
from gpuoff.runtime.devices import opencl as ocl
from tests.backends.test_opencl_runtime import axpy
from tests.backends.test_opencl_support import has_opencl

pytestmark = pytest.mark.skipif(not has_opencl(), reason="no OpenCL device")
N = 64
DEVICES = ["cpu", "opencl:0"]


@go.kernel
def scale(s: f32, y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = s * y[i]


@go.kernel
def consume(x: Owned[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        x[i] = 0.0


@go.kernel
def shifted(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], k: i32) -> None:
    i = go.global_id(0)
    y[i] = x[i + k]  # no guard: k decides whether it is in range


class Spy:
    """Counts how the launches of a block went: repeats taken, held launches, flushes."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, flusher: bool = True) -> None:
        from gpuoff.runtime import plan

        self.repeats = 0
        self.flushes = 0
        dev = get_device("opencl:0")
        assert isinstance(dev, ocl.OpenCLDevice)
        self.device = dev
        real_repeat, real_flush = plan.Plan.repeat, ocl.OpenCLDevice._flush_locked

        def repeat(p: Any, launch: Any, rep: Any, args: Any) -> bool:
            taken: bool = real_repeat(p, launch, rep, args)
            self.repeats += taken
            return taken

        def flush(d: Any) -> None:
            self.flushes += 1
            real_flush(d)

        monkeypatch.setattr(plan.Plan, "repeat", repeat)
        monkeypatch.setattr(ocl.OpenCLDevice, "_flush_locked", flush)
        if not flusher:  # the flusher thread is never told of a batch: held until handed over
            monkeypatch.setattr(dev, "_batch_started", _Unheard(dev._batch_started))

    @property
    def holding(self) -> bool:
        return self.device._held_event is not None


class _Unheard:
    """The device's batch-started signal with ``set`` swallowed. The flusher thread may start
    while it is in place (the first held batch of the process starts it): it then waits on
    the real signal, and keeps working for later tests."""

    def __init__(self, real: threading.Event) -> None:
        self.real = real

    def set(self) -> None:
        pass

    def wait(self) -> None:
        self.real.wait()

    def clear(self) -> None:
        self.real.clear()


def bounds_errors_at_synchronize() -> int:
    """Synchronise until no error is left; how many ``BoundsError`` came out, one per call."""
    raised = 0
    while True:
        try:
            go.synchronize()
            return raised
        except go.BoundsError:
            raised += 1


def ones() -> go.Buffer[f32]:
    return go.array(np.ones(N, np.float32))


def test_a_loop_of_repeats_is_held_in_bursts_and_adds_up(monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch)
    x, y = ones(), go.zeros(N, f32)
    with go.on("opencl:0"):
        before = go.stats().launches
        for _ in range(100):
            axpy[N](2.0, x, y)
        assert spy.repeats >= 95  # the first goes the full way (and any found finished at once)
        assert 0 < spy.flushes < 10  # bursts of up to ocl.HOLD_LAUNCHES
        assert go.stats().launches - before == 100
        np.testing.assert_array_equal(y.numpy(), np.full(N, 200.0, np.float32))
    assert not spy.holding


@pytest.mark.parametrize("device", DEVICES)
def test_host_writes_between_repeats_reach_the_device(
    monkeypatch: pytest.MonkeyPatch, device: str
) -> None:
    spy = Spy(monkeypatch)
    x, y = ones(), go.zeros(N, f32)
    with go.on(device):
        for _ in range(3):
            axpy[N](1.0, x, y)
        with y.host_mut() as h:  # flushes the held launches first, then changes residency
            np.testing.assert_array_equal(h, np.full(N, 3.0, np.float32))
            h[:] = 10.0
        with x.host_mut() as h:
            h[:] = 5.0
        axpy[N](1.0, x, y)  # must copy both to the device again: no repeat
        assert spy.repeats >= 1
        np.testing.assert_array_equal(y.numpy(), np.full(N, 15.0, np.float32))


@pytest.mark.parametrize("device", DEVICES)
def test_other_launches_between_repeats_keep_their_order(
    monkeypatch: pytest.MonkeyPatch, device: str
) -> None:
    spy = Spy(monkeypatch)
    x, y = ones(), go.zeros(N, f32)
    want = np.zeros(N, np.float32)
    with go.on(device):
        for step in range(40):
            axpy[N](1.0, x, y)
            want += 1.0
            if step % 7 == 6:  # another kernel on the same buffer: ordered after the held ones
                scale[N](0.5, y)
                want *= 0.5
        np.testing.assert_array_equal(y.numpy(), want)
    assert spy.repeats > 0


@pytest.mark.parametrize("device", DEVICES)
def test_a_moved_buffer_is_not_launched_again(monkeypatch: pytest.MonkeyPatch, device: str) -> None:
    Spy(monkeypatch)
    x, y = ones(), go.zeros(N, f32)
    with go.on(device):
        axpy[N](1.0, x, y)
        axpy[N](1.0, x, y)
        consume[N](x)
        with pytest.raises(go.UseAfterMoveError):
            axpy[N](1.0, x, y)
        np.testing.assert_array_equal(y.numpy(), np.full(N, 2.0, np.float32))


def test_the_current_device_decides_not_the_previous_launch() -> None:
    x, y = ones(), go.zeros(N, f32)
    launch = axpy[N]
    with go.on("opencl:0"):
        launch(1.0, x, y)
        launch(1.0, x, y)
    with go.on("cpu"):
        launch(1.0, x, y)
        assert y._st.valid_set(0, y.nbytes) == {"host"}  # it ran on the cpu
    with go.on("opencl:0"):
        launch(1.0, x, y)
    np.testing.assert_array_equal(y.numpy(), np.full(N, 4.0, np.float32))


@pytest.mark.parametrize("device", DEVICES)
def test_new_scalar_or_buffer_objects_take_the_full_path(
    monkeypatch: pytest.MonkeyPatch, device: str
) -> None:
    spy = Spy(monkeypatch)
    x, y = ones(), go.zeros(N, f32)
    with go.on(device):
        for k in range(5):
            axpy[N](float(k) + 0.5, x, y)  # a new float each time
        y2 = go.zeros(N, f32)
        axpy[N](2.0, x, y2)
        assert spy.repeats == 0
        np.testing.assert_array_equal(y.numpy(), np.full(N, 12.5, np.float32))
        np.testing.assert_array_equal(y2.numpy(), np.full(N, 2.0, np.float32))


def launch_until_held(spy: Spy, x: go.Buffer[f32], y: go.Buffer[f32]) -> int:
    """Launch ``axpy`` until one is held (a launch found finished at once leaves no repeat
    record, so the next one is not a repeat); how many ran."""
    for count in range(1, 50):
        axpy[N](1.0, x, y)
        if spy.holding:
            return count
    pytest.fail("no launch was held")


def test_polling_a_held_launch_sees_it_finish(monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch, flusher=False)
    x, y = ones(), go.zeros(N, f32)
    with go.on("opencl:0"):
        count = launch_until_held(spy, x, y)
        event = y._st.uses[-1].event
        for _ in range(100_000):  # the loop a user's "is it done yet" makes
            if event.done():
                break
        else:
            pytest.fail("a held launch never finished")
        assert not spy.holding
        np.testing.assert_array_equal(y.numpy(), np.full(N, count, np.float32))


def test_a_synchronize_hands_held_launches_over(monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch, flusher=False)
    x, y = ones(), go.zeros(N, f32)
    with go.on("opencl:0"):
        count = launch_until_held(spy, x, y)
        go.synchronize()
        assert not spy.holding
        assert not y._st.uses or all(u.event.done() for u in y._st.uses)
        np.testing.assert_array_equal(y.numpy(), np.full(N, count, np.float32))


def test_a_pause_in_launching_hands_held_launches_over(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    spy = Spy(monkeypatch)
    x, y = ones(), go.zeros(N, f32)
    with go.on("opencl:0"):
        count = launch_until_held(spy, x, y)
        event = y._st.uses[-1].event
        deadline = time.monotonic() + 5.0
        while spy.holding and time.monotonic() < deadline:
            time.sleep(0.001)  # no gpuoff call: the flusher thread alone hands it over
        assert not spy.holding and spy.flushes >= 1
        assert isinstance(event, ocl.OpenCLEvent) and event.cl_event is not None
        np.testing.assert_array_equal(y.numpy(), np.full(N, count, np.float32))


def test_large_launches_are_not_held(monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch)
    n = ocl.HOLD_ITEMS * 2
    x, y = go.array(np.ones(n, np.float32)), go.zeros(n, f32)
    with go.on("opencl:0"):
        for _ in range(6):
            axpy[n](1.0, x, y)
            assert not spy.holding
        # (a launch found finished at once leaves no repeat record: the next is a full one)
        assert spy.repeats >= 1
        np.testing.assert_array_equal(y.numpy(), np.full(n, 6.0, np.float32))


def test_a_repeated_checked_launch_still_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch)
    x, y = go.array(np.arange(N, dtype=np.float32)), go.zeros(N, f32)
    with go.on("opencl:0"):
        for _ in range(5):
            shifted[N](x, y, 0)
        go.synchronize()
        k = 1  # one past the end for the last work-item
        for _ in range(20):
            shifted[N](x, y, k)  # repeats of a checked launch: each has its own error record
        raised = bounds_errors_at_synchronize()
        assert raised == 20  # one error per failed launch, raised one by one
        # a launch whose event is found finished at once leaves no repeat record behind
        assert spy.repeats >= 10


def test_a_repeated_launch_on_cpu_runs_here_and_raises_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spy = Spy(monkeypatch)
    x, y = go.array(np.arange(N, dtype=np.float32)), go.zeros(N, f32)
    with go.on("cpu"):
        for _ in range(10):
            axpy[N](1.0, x, y)
        assert spy.repeats >= 5
        assert not y._st.uses  # inline: nothing in flight, nothing recorded
        shifted[N](x, y, 0)
        shifted[N](x, y, 0)
        for _ in range(3):  # each failing launch raises at its call, repeat or not
            with pytest.raises(go.BoundsError):
                shifted[N](x, y, 1)
        go.synchronize()
    # the other work-items ran (SPEC: the out-of-range access alone is not performed; the
    # load it stood for gives 0)
    want = np.arange(1, N + 1, dtype=np.float32)
    want[-1] = 0.0
    np.testing.assert_array_equal(y.numpy(), want)


@pytest.mark.parametrize("device", DEVICES)
def test_the_repeat_record_keeps_no_buffer_alive(device: str) -> None:
    x, y = ones(), go.zeros(N, f32)
    with go.on(device):
        axpy[N](1.0, x, y)
        axpy[N](1.0, x, y)
        go.synchronize()
    dead = weakref.ref(y)
    del y
    gc.collect()
    assert dead() is None


def test_threads_on_two_devices_share_a_launch_object() -> None:
    launch = axpy[N]
    results: dict[str, np.ndarray[Any, Any]] = {}
    errors: list[BaseException] = []

    def work(device: str) -> None:
        try:
            x, y = ones(), go.zeros(N, f32)
            with go.on(device):
                for _ in range(300):
                    launch(1.0, x, y)
                results[device] = y.numpy()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(d,)) for d in ("cpu", "opencl:0")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for device in ("cpu", "opencl:0"):
        np.testing.assert_array_equal(results[device], np.full(N, 300.0, np.float32))


def test_the_epoch_moves_with_every_state_change() -> None:
    x = ones()
    seen = {guards.EPOCH}

    def changed() -> None:
        assert guards.EPOCH not in seen
        seen.add(guards.EPOCH)

    with go.on("opencl:0"):
        axpy[N](1.0, x, go.zeros(N, f32))
        changed()
    with x.host():
        changed()
    changed()  # closing the view
    with x.host_mut() as h:
        h[0] = 2.0
    changed()
    x.numpy()  # nothing to copy, no use to drop: reading changes nothing
    assert guards.EPOCH in seen


def test_joins_race_host_views_on_another_thread_and_lose_nothing() -> None:
    """Held launches join their batch without the guard lock (``OpenCLDevice.join``): a
    thread opening views of the same buffer meanwhile must still see every launch before
    its view or none during it, and no update of either side is lost."""
    x, y = ones(), go.zeros(N, f32)
    views = 40
    launched = [0, 0]  # launches made, refused (the view was open: a BorrowError, no change)
    errors: list[BaseException] = []
    before = go.stats().launches

    def launch() -> None:
        try:
            with go.on("opencl:0"):
                while launched[0] < 3000:
                    try:
                        axpy[N](1.0, x, y)
                        launched[0] += 1
                    except go.BorrowError:
                        launched[1] += 1
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    def view() -> None:
        try:
            for _ in range(views):
                with y.host_mut() as h:
                    assert (h == h[0]).all(), "a launch ran while the view was open"
                    h += 1000.0
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=launch), threading.Thread(target=view)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    np.testing.assert_array_equal(y.numpy(), np.full(N, 3000 + 1000.0 * views, np.float32))
    assert go.stats().launches - before == 3000


def test_launches_still_held_at_exit_go_to_the_driver() -> None:
    """A script that ends right after a loop of small launches, with no synchronisation:
    the batch still held then is handed to the driver as the interpreter exits."""
    script = textwrap.dedent("""
        import atexit
        import numpy as np
        import gpuoff as go
        from gpuoff.runtime.devices import get_device
        from gpuoff.runtime.devices import opencl as ocl
        from tests.backends.test_opencl_runtime import axpy

        # neither the clock nor the flusher thread hands the batch over: only the exit can
        ocl.HOLD_SECONDS = ocl.HOLD_LATE_SECONDS = 3600.0
        def report() -> None:  # registered before the device's handler: runs after it
            dev = get_device("opencl:0")
            print("held at exit:", dev._held_count if dev._held_event is not None else 0)
        atexit.register(report)
        x, y = go.array(np.ones(64, np.float32)), go.zeros(64, go.f32)
        with go.on("opencl:0"):
            for _ in range(10):
                axpy[64](1.0, x, y)
            print("held before exit:", get_device("opencl:0")._held_count)
    """)
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True,
                         text=True, timeout=120, check=True).stdout  # fmt: skip
    held = int(out.split("held before exit: ")[1].split()[0])
    assert held >= 5  # the first launches go the full way (and build the exact-grid kernel)
    assert "held at exit: 0" in out


BIG = 1 << 18  # past the cpu device's inline limit: these launches go to its worker pool


def test_pooled_repeats_on_cpu_run_in_order_and_track_their_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Large repeated launches on cpu take the repeat path too: each starts after the one
    before (they all write ``y``), and the uses follow the newest, so host access waits."""
    from gpuoff.runtime.devices import cpu_pool

    spy = Spy(monkeypatch)
    submitted: list[Any] = []
    early: list[int] = []  # launches whose work reached the pool before the previous finished
    real_submit = cpu_pool.Pool.submit

    def submit(pool: Any, event: Any, *rest: Any) -> None:
        if submitted and not submitted[-1].done():
            early.append(len(submitted))
        submitted.append(event)
        real_submit(pool, event, *rest)

    monkeypatch.setattr(cpu_pool.Pool, "submit", submit)
    x = go.array(np.ones(BIG, np.float32))
    y = go.zeros(BIG, f32)
    with go.on("cpu"):
        for _ in range(30):
            axpy[BIG](1.0, x, y)
        assert spy.repeats >= 25
        with y.host() as h:  # waits for every launch, the repeated ones included
            np.testing.assert_array_equal(h, np.full(BIG, 30.0, np.float32))
        # each reached the pool only once the one before had finished
        assert len(submitted) == 30 and not early
        with x.host_mut() as h:  # a host write between repeats: the next launch sees it
            h[:] = 2.0
        for _ in range(5):
            axpy[BIG](1.0, x, y)
        go.synchronize()
    np.testing.assert_array_equal(y.numpy(), np.full(BIG, 40.0, np.float32))


def test_a_pooled_repeat_on_cpu_reports_its_bounds_error_at_synchronize(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spy = Spy(monkeypatch)
    x = go.array(np.arange(BIG, dtype=np.float32))
    y = go.zeros(BIG, f32)
    with go.on("cpu"):
        for _ in range(3):
            shifted[BIG](x, y, 0)
        go.synchronize()
        for _ in range(4):
            shifted[BIG](x, y, 1)  # the last work-item reads one past the end
        raised = bounds_errors_at_synchronize()
        assert raised == 4
        assert spy.repeats >= 4
    want = np.arange(1, BIG + 1, dtype=np.float32)
    want[-1] = 0.0
    np.testing.assert_array_equal(y.numpy(), want)
