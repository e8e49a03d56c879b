"""The opencl device itself: discovery, build errors, fp64, the binary cache, asynchronous
copies and launches, error records."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, f64
from gpuoff.errors import BoundsError, CompileError, DeviceError
from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from gpuoff.ownership import Access
from gpuoff.runtime.devices import opencl as ocl
from gpuoff.runtime.devices import opencl_program
from gpuoff.runtime.devices.base import ArrayArg, DoneEvent, LaunchArg
from tests.backends.test_opencl_support import arg_type, device, has_opencl, lower, run_device

pytestmark = pytest.mark.skipif(not has_opencl(), reason="no OpenCL device")
MUT = Access.BORROW_MUT


def scale(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


def _scale_module() -> n.Module:
    x = np.zeros(1, np.float32)
    module: n.Module = lower(scale, [t.f32, arg_type(x, None), arg_type(x, MUT)])
    return module


def test_discover_lists_pocl_with_fp64() -> None:
    infos = ocl.discover()
    assert infos[0].name == "opencl:0" and infos[0].available
    assert infos[0].backend == "opencl" and "fp64" in infos[0].description
    assert any(i.name == "opencl:0" for i in go.devices())
    with pytest.raises(DeviceError, match="no device opencl:99"):
        ocl.open_device("opencl:99")
    with pytest.raises(DeviceError, match="expected 'opencl:N'"):
        ocl.open_device("opencl")


def test_discover_without_pyopencl_is_an_unavailable_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> None:
        raise ImportError("No module named 'pyopencl'")

    from gpuoff.runtime.devices import opencl_discovery

    monkeypatch.setattr(opencl_discovery, "cl_module", missing)
    [info] = ocl.discover()
    assert not info.available and "pyopencl is not installed" in info.reason


def test_driver_rejecting_the_code_is_a_compile_error_with_the_log(tmp_path: Path) -> None:
    dev = device()
    module = _scale_module()
    src = dev.render(module)
    broken = dataclasses.replace(src, text=src.text.replace("y[i] =", "y[i] = undeclared_name +"))
    with pytest.raises(CompileError) as info:
        opencl_program.build_program(dev, module, broken, tmp_path / "x.bin")
    message = str(info.value)
    assert "rejected the code generated for kernel 'scale'" in message
    assert "undeclared_name" in message  # the driver's own build log
    assert not (tmp_path / "x.bin").exists()


def needs_f64(x: BorrowMut[Array[f64]]) -> None:
    x[0] = x[0] * 2.0


def test_f64_on_a_device_without_fp64_names_the_device() -> None:
    m = lower(needs_f64, [arg_type(np.zeros(1), MUT)])
    dev = device()
    fp64, dev.fp64 = dev.fp64, False
    try:
        with pytest.raises(CompileError, match="'opencl:0' has no cl_khr_fp64"):
            dev.compile(m)
    finally:
        dev.fp64 = fp64
    x = np.array([1.5])
    run_device(m, [x], (1,))  # and where it has fp64, it runs
    assert x[0] == 3.0


def test_binary_cache_on_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPUOFF_CACHE_DIR", str(tmp_path))
    dev = device()
    module = _scale_module()
    first = dev.compile(module)
    binaries = list((tmp_path / "opencl").glob("*.bin"))
    assert len(binaries) == 1 and binaries[0].stat().st_size > 0
    assert dev.compile(module) is first  # in-memory hit
    dev._programs.clear()
    again = dev.compile(module)  # from the driver binary
    assert again is not first and again.build_log == ""
    x = np.arange(4, dtype=np.float32)
    y = np.ones(4, np.float32)
    # A corrupt entry is rebuilt from source, not an error.
    binaries[0].write_bytes(b"not a binary")
    dev._programs.clear()
    run_device(module, [3.0, x, y], (4,))
    np.testing.assert_array_equal(y, 3 * x + 1)


def test_launches_and_copies_are_ordered_and_asynchronous() -> None:
    dev = device()
    program = dev.compile(_scale_module())
    n = 1 << 16
    x = np.arange(n, dtype=np.float32)
    xa, ya = dev.allocate(x.nbytes), dev.allocate(x.nbytes)
    events = [dev.copy_from_host(xa, 0, x, []), dev.copy_from_host(ya, 0, np.zeros_like(x), [])]
    xs, ys = ArrayArg(xa, 0, (n,), (1,)), ArrayArg(ya, 0, (n,), (1,))
    launches = [dev.launch(program, [1.0, xs, ys], (n, 1, 1), None, events) for _ in range(20)]
    out = np.empty_like(x)
    back = dev.copy_to_host(out, ya, 0, launches[-1:])
    back.wait()
    assert back.done() and all(e.done() for e in launches)
    np.testing.assert_array_equal(out, 20 * x)
    for e in launches:
        e.wait()  # no errors, and waiting twice is fine
    # A view with an offset (element 5 onwards) through the offset argument.
    tail = ArrayArg(ya, 5 * 4, (n - 5,), (1,))
    head = ArrayArg(xa, 0, (n - 5,), (1,))
    dev.launch(program, [-1.0, head, tail], (n - 5, 1, 1), None, []).wait()
    dev.copy_to_host(out, ya, 0, []).wait()
    np.testing.assert_array_equal(out[5:], 20 * x[5:] - x[: n - 5])
    np.testing.assert_array_equal(out[:5], 20 * x[:5])
    dev.free(xa)
    dev.free(ya)


@pytest.mark.parametrize("copy_records", ["0", "1"])
def test_error_records_survive_the_ring_wrapping(monkeypatch: pytest.MonkeyPatch,
                                                 copy_records: str) -> None:  # fmt: skip
    # Both ways of reading records: in place (unified memory, as on PoCL) and by copying.
    monkeypatch.setenv("GPUOFF_OPENCL_COPY_RECORDS", copy_records)
    monkeypatch.setattr(ocl, "_ERR_SLOTS", 4)
    dev = ocl.open_device("opencl:0")  # a fresh device with a ring of 4 records
    program = dev.compile(_scale_module())
    xa, ya = dev.allocate(64), dev.allocate(64)
    ok: list[LaunchArg] = [1.0, ArrayArg(xa, 0, (16,), (1,)), ArrayArg(ya, 0, (16,), (1,))]
    bad: list[LaunchArg] = [1.0, ArrayArg(xa, 0, (15,), (1,)), ArrayArg(ya, 0, (16,), (1,))]
    events = [dev.launch(program, bad if k in (2, 7) else ok, (16, 1, 1), None, [])
              for k in range(11)]  # fmt: skip
    failed = []
    for k, e in enumerate(events):
        try:
            e.wait()
        except BoundsError as exc:
            failed.append(k)
            assert "index (15,) out of range for x with shape (15,)" in str(exc)
    assert failed == [2, 7]
    events[2].wait()  # raised once only
    assert (dev._err_host is None) == (copy_records == "1")


def test_barrier_kernels_need_whole_groups() -> None:
    from gpuoff.bench.kernels import sum_reduce

    x = np.zeros(16, np.float32)
    m = lower(sum_reduce.pyfunc, [arg_type(x, None), arg_type(x[:1], MUT)])
    dev = device()
    program = dev.compile(m)
    xa, oa = dev.allocate(64), dev.allocate(4)
    args: list[LaunchArg] = [ArrayArg(xa, 0, (16,), (1,)), ArrayArg(oa, 0, (1,), (1,))]
    with pytest.raises(ValueError, match="must be a multiple of the block"):
        dev.launch(program, args, (300, 1, 1), (256, 1, 1), [])


def _launch_scale(
    dev: ocl.OpenCLDevice, n: int = 64
) -> tuple[list[ocl.OpenCLEvent], np.ndarray[Any, Any]]:
    """Five launches of ``y += 1.0 * x`` over ``n`` items (x = 0..n-1, y = 0); their events
    and the allocation of y, read back by the caller."""
    program = dev.compile(_scale_module())
    x = np.arange(n, dtype=np.float32)
    xa, ya = dev.allocate(x.nbytes), dev.allocate(x.nbytes)
    dev.copy_from_host(xa, 0, x, [])
    dev.copy_from_host(ya, 0, np.zeros_like(x), [])
    args: list[LaunchArg] = [1.0, ArrayArg(xa, 0, (n,), (1,)), ArrayArg(ya, 0, (n,), (1,))]
    events = [dev.launch(program, args, (n, 1, 1), None, []) for _ in range(5)]
    out = np.empty_like(x)
    dev.copy_to_host(out, ya, 0, events[-1:]).wait()
    assert all(isinstance(e, ocl.OpenCLEvent) for e in events)
    return events, out  # type: ignore[return-value]


def test_done_asks_the_driver_only_now_and_then_and_never_for_older_commands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dev = ocl.open_device("opencl:0")
    program = dev.compile(_scale_module())
    xa, ya = dev.allocate(256), dev.allocate(256)
    args: list[LaunchArg] = [1.0, ArrayArg(xa, 0, (64,), (1,)), ArrayArg(ya, 0, (64,), (1,))]
    first = dev.launch(program, args, (64, 1, 1), None, [])
    last = dev.launch(program, args, (64, 1, 1), None, [])
    assert isinstance(last, ocl.OpenCLEvent)
    queries = []
    real_status = dev._status
    monkeypatch.setattr(dev, "_status", real_status)

    class Spy:  # counts get_info calls on the last launch's cl.Event
        def __init__(self, event: object) -> None:
            self.event = event

        def get_info(self, what: object) -> object:
            queries.append(what)
            return self.event.get_info(what)  # type: ignore[attr-defined]

        def wait(self) -> None:
            self.event.wait()  # type: ignore[attr-defined]

    last.cl_event = Spy(last.cl_event)
    # A polling loop terminates: every _POLL_EVERY-th unresolved call asks the driver.
    calls, give_up = 0, time.monotonic() + 60.0  # a loaded machine may start the work late
    while not last.done():
        calls += 1
        assert time.monotonic() < give_up
    assert len(queries) >= 1 and calls + 1 >= ocl._POLL_EVERY
    assert len(queries) == (calls + 1) // ocl._POLL_EVERY
    # In order: the last command done means the first is, with no further driver call.
    asked = len(queries)
    assert first.done() and len(queries) == asked
    first.wait()  # no driver wait either: known complete
    dev.free(xa)
    dev.free(ya)


def test_known_done_never_asks_the_driver() -> None:
    dev = ocl.open_device("opencl:0")
    program = dev.compile(_scale_module())
    xa, ya = dev.allocate(256), dev.allocate(256)
    args: list[LaunchArg] = [1.0, ArrayArg(xa, 0, (64,), (1,)), ArrayArg(ya, 0, (64,), (1,))]
    event = dev.launch(program, args, (64, 1, 1), None, [])
    assert isinstance(event, ocl.OpenCLEvent)
    real = event.cl_event

    class NoQueries:  # what guards.wait_all checks before it waits: no get_info
        def get_info(self, what: object) -> object:
            raise AssertionError("known_done asked the driver")

        def wait(self) -> None:
            real.wait()

    event.cl_event = NoQueries()
    for _ in range(4 * ocl._POLL_EVERY):
        assert not event.known_done()  # unknown until someone waits (or done() learns it)
    event.wait()
    assert event.known_done()
    dev.free(xa)
    dev.free(ya)


def test_waiting_for_a_command_completes_every_earlier_one() -> None:
    dev = ocl.open_device("opencl:0")
    events, out = _launch_scale(dev)
    np.testing.assert_array_equal(out, 5 * np.arange(64, dtype=np.float32))
    before = dev._unresolved
    assert all(e.done() for e in events)  # by queue order alone
    assert dev._unresolved == before


def test_implies_follows_the_in_order_queue() -> None:
    dev = ocl.open_device("opencl:0")
    other = ocl.open_device("opencl:0")  # another context and queue: no order between them
    events, _ = _launch_scale(dev)
    theirs, _ = _launch_scale(other)
    assert events[3].implies(events[1]) and events[3].implies(events[3])
    assert not events[1].implies(events[3])
    assert not events[3].implies(theirs[0]) and not theirs[4].implies(events[0])
    assert not events[3].implies(DoneEvent())
    unqueued = ocl.OpenCLEvent(None, dev)
    assert not unqueued.implies(events[0])


def test_a_loop_of_checked_launches_sets_only_the_record_slot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dev = ocl.open_device("opencl:0")
    program = dev.compile(_scale_module())
    assert program.checked
    full, slot_only = [], []
    kernel = program.kernel

    class CountingKernel:  # wraps the cl.Kernel: counts the two ways arguments are set
        def __getattr__(self, name: str) -> object:
            return getattr(kernel, name)

        def set_args(self, *vals: object) -> None:
            full.append(vals)
            kernel.set_args(*vals)

        def _set_arg_buf(self, index: int, data: bytes) -> None:
            slot_only.append((index, int.from_bytes(data, "little")))
            kernel._set_arg_buf(index, data)

    monkeypatch.setattr(program, "kernel", CountingKernel())
    monkeypatch.setattr(program, "exact_builder", None)  # the counted kernel is the one used
    enqueue = program._enqueue_nd_range
    monkeypatch.setattr(program, "_enqueue_nd_range",
                        lambda queue, _, *rest: enqueue(queue, kernel, *rest))  # fmt: skip
    program._last = []
    n = 16
    x = np.arange(n, dtype=np.float32)
    xa, ya = dev.allocate(x.nbytes), dev.allocate(x.nbytes)
    dev.copy_from_host(xa, 0, x, [])
    dev.copy_from_host(ya, 0, np.zeros_like(x), [])
    args: list[LaunchArg] = [2.0, ArrayArg(xa, 0, (n,), (1,)), ArrayArg(ya, 0, (n,), (1,))]
    events = [dev.launch(program, args, (n, 1, 1), None, []) for _ in range(4)]
    seqs = []
    for e in events:
        e.wait()
        assert isinstance(e, ocl.OpenCLEvent)
        seqs.append(e.seq % ocl._ERR_SLOTS)
    assert len(full) == 1 and [s for _, s in slot_only] == seqs[1:]
    assert all(i == len(program.source.args) - 1 for i, _ in slot_only)
    out = np.empty_like(x)
    dev.copy_to_host(out, ya, 0, []).wait()
    np.testing.assert_array_equal(out, 8 * x)
    # New arguments (a different scalar) set everything again.
    args[0] = 1.0
    dev.launch(program, args, (n, 1, 1), None, []).wait()
    assert len(full) == 2
    dev.copy_to_host(out, ya, 0, []).wait()
    np.testing.assert_array_equal(out, 9 * x)
