"""SPEC §4: lazy residency and transfer counting, on fake devices with separate memory."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32
from gpuoff.runtime.devices import register
from gpuoff.runtime.devices.base import Allocation, DoneEvent, Event
from gpuoff.runtime.testing import FakeDevice, nd, py_kernel


@pytest.fixture
def dev() -> Iterator[FakeDevice]:
    device = FakeDevice("fake:resid")
    register(device)
    with go.on(device.name):
        yield device
    go.synchronize()


@py_kernel
def axpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    nd(y)[...] += a * nd(x)


@py_kernel
def fill(y: BorrowMut[Array[f32]], v: f32) -> None:
    nd(y)[...] = v


def test_a_loop_of_launches_moves_each_buffer_once_each_way(dev: FakeDevice) -> None:
    n = 1000
    x = go.array(np.ones(n, np.float32))
    y = go.zeros(n)
    go.reset_stats()
    for _ in range(100):
        axpy[n](1.0, x, y)
    out = y.numpy()
    s = go.stats()
    assert out.tolist() == [100.0] * n
    assert s.launches == 100
    assert s.transfers_to_device == 2 and s.bytes_to_device == 2 * 4 * n  # x and y, once
    assert s.transfers_to_host == 1 and s.bytes_to_host == 4 * n  # y only: x was never written
    y.numpy()
    x.numpy()
    assert go.stats().transfers_to_host == 1  # host copies are valid now


def test_never_written_buffer_has_nothing_to_copy(dev: FakeDevice) -> None:
    y = go.empty(64)
    go.reset_stats()
    fill[64](y, 3.0)
    assert go.stats().transfers_to_device == 0
    assert y.numpy().tolist() == [3.0] * 64
    assert go.stats().transfers_to_host == 1


def test_host_write_invalidates_the_device_copy(dev: FakeDevice) -> None:
    x = go.array(np.ones(8, np.float32))
    y = go.zeros(8)
    axpy[8](1.0, x, y)
    go.reset_stats()
    with x.host_mut() as a:
        a[:] = 2
    axpy[8](1.0, x, y)
    assert y.numpy().tolist() == [3.0] * 8
    s = go.stats()
    assert s.transfers_to_device == 1 and s.bytes_to_device == 32  # x again, y stays


def test_partial_host_write_copies_only_the_stale_range(dev: FakeDevice) -> None:
    x = go.array(np.ones(8, np.float32))
    y = go.zeros(8)
    axpy[8](1.0, x, y)
    go.reset_stats()
    with x[2:4].host_mut() as a:
        a[:] = 5
    axpy[8](1.0, x, y)
    assert go.stats().bytes_to_device == 8
    assert y.numpy().tolist() == [2, 2, 6, 6, 2, 2, 2, 2]


def test_numpy_arguments(dev: FakeDevice) -> None:
    x: Any = np.ones(4, np.float32)
    y: Any = np.zeros(4, np.float32)
    go.reset_stats()
    axpy[4](2.0, x, y)  # BorrowMut NumPy array: copied in, run, copied back before returning
    assert y.tolist() == [2.0] * 4
    s = go.stats()
    assert s.transfers_to_device == 2 and s.transfers_to_host == 1
    ys: Any = np.zeros(8, np.float32)[::2]  # non-contiguous: through a temporary, then copied back
    axpy[4](1.0, x, ys)
    assert ys.tolist() == [1.0] * 4


def test_two_devices_go_through_the_host() -> None:
    d1, d2 = FakeDevice("fake:a"), FakeDevice("fake:b")
    register(d1)
    register(d2)
    x = go.array(np.ones(4, np.float32))
    y = go.zeros(4)
    go.reset_stats()
    with go.on("fake:a"):
        axpy[4](1.0, x, y)
    with go.on("fake:b"):
        axpy[4](1.0, x, y)  # y's only valid copy is on fake:a
    assert y.numpy().tolist() == [2.0] * 4
    s = go.stats()
    assert s.transfers_to_device == 4  # x and y to each device
    assert s.transfers_to_host == 2  # y from a (for b), then from b


def test_host_memory_device_never_copies() -> None:
    d = FakeDevice("fake:shared", host_memory=True)
    register(d)
    x = go.array(np.ones(4, np.float32))
    y = go.zeros(4)
    go.reset_stats()
    with go.on(d.name):
        for _ in range(10):
            axpy[4](1.0, x, y)
    assert y.numpy().tolist() == [10.0] * 4
    s = go.stats()
    assert s.transfers_to_device == s.transfers_to_host == 0
    assert d.log == []


def test_storage_interval_map() -> None:
    y = go.zeros(8)
    st = y._st
    assert st.plain and st.valid_set(0, 32) == {"host"}
    dev = FakeDevice("fake:map")
    st.make_valid_on(dev, 8, 16)
    assert st.valid_set(8, 16) == {"host", "fake:map"}
    assert st.valid_set(0, 32) == {"host"}
    st.mark_written_on(dev, 12, 16)
    assert st.valid_set(12, 16) == {"fake:map"}
    assert st.valid_set(0, 8) == {"host"}
    assert st.valid_set(8, 12) == {"host", "fake:map"}
    assert st.valid_set(8, 16) == {"fake:map"}
    st.make_host_valid(0, 32)
    assert st.valid_set(0, 32) == {"host"}
    st.host_written()
    assert st.plain


class _PointerDevice(FakeDevice):
    """A fake 'cuda' device whose allocation handles are raw addresses, as CUDA's are."""

    backend = "cuda"

    def __init__(self) -> None:
        super().__init__("fake-cuda:0")
        self.memory: dict[int, np.ndarray[Any, Any]] = {}

    def allocate(self, nbytes: int) -> Allocation:
        mem = np.full(nbytes, 0xCD, np.uint8)
        ptr = int(mem.__array_interface__["data"][0])
        self.memory[ptr] = mem
        return Allocation(ptr, nbytes)

    def copy_from_host(
        self, dst: Allocation, dst_offset: int, src: np.ndarray[Any, Any], wait_for: Any
    ) -> Event:
        flat = src.reshape(-1).view(np.uint8)
        self.memory[dst.handle][dst_offset : dst_offset + flat.nbytes] = flat
        return DoneEvent()

    def copy_to_host(
        self, dst: np.ndarray[Any, Any], src: Allocation, src_offset: int, wait_for: Any
    ) -> Event:
        flat = dst.reshape(-1).view(np.uint8)
        flat[:] = self.memory[src.handle][src_offset : src_offset + flat.nbytes]
        return DoneEvent()


def test_cuda_array_interface_exports_valid_device_memory() -> None:
    dev = _PointerDevice()
    register(dev)
    buf = go.array(np.arange(8, dtype=np.float32))
    view = buf[::2]
    with go.on(dev.name):
        cai = view.__cuda_array_interface__
    assert cai["shape"] == (4,) and cai["typestr"] == "<f4" and cai["strides"] == (8,)
    ptr, readonly = cai["data"]
    base = next(iter(dev.memory))
    assert not readonly and ptr == base  # view starts at element 0
    raw = dev.memory[base].view(np.float32)
    # the view's byte range was copied in (its device copy was stale), nothing beyond it
    assert raw[:7].tolist() == list(range(7)) and raw[7] != 7
    raw[0] = 42  # the consumer writes on the device ...
    assert buf.numpy()[0] == 42  # ... so the device copy was marked as the valid one
    assert go.stats().transfers_to_host >= 1


def test_copy_to_a_device_waits_for_a_writer_running_elsewhere() -> None:
    shared = FakeDevice("fake:slow-host", host_memory=True, delay=0.2)
    other = FakeDevice("fake:other")
    register(shared)
    register(other)
    x = go.full(8, 1.0)
    y = go.zeros(8)
    with go.on(shared.name):
        fill[8](y, 5.0)  # still running (host memory) when the next launch copies y
    with go.on(other.name):
        axpy[8](1.0, x, y)  # must copy y's bytes after the writer finished
    assert y.numpy().tolist() == [6.0] * 8
