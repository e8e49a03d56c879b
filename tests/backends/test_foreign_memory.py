"""Memory gpuoff does not own (SPEC §4, docs/memory.md), on every available device: NumPy
arrays passed to a launch, ``go.asarray`` wrappers of NumPy arrays, DLPack imports, and
gpuoff buffers exported through DLPack. The owner's copy and the device's stay coherent at
every synchronisation point, in both directions: no stale read, no lost write.

The scenarios are the ones a NumPy or PyTorch user writes (issue 20, item 3): edit an array
between two launches, read it after ``go.synchronize()``, write it after a kernel wrote it.
NumPy's own ``__dlpack__`` / ``np.from_dlpack`` is the DLPack producer and consumer here
(``test_foreign_torch.py`` repeats the DLPack cases with PyTorch where it is installed).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32
from gpuoff.runtime.devices import get_device


@go.kernel
def inc(z: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < z.shape[0]:
        z[i] = z[i] + 1.0


@go.kernel
def copy_into(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = x[i]


@go.kernel
def shifted_copy(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    y[i] = x[i + 2] + 1.0  # the last two work-items read past the end: BoundsError


def _wrappers() -> dict[str, Any]:
    """Ways to give gpuoff a NumPy array without a copy, by name."""
    return {
        "asarray": go.asarray,
        "from_dlpack": go.from_dlpack,
    }


# -- NumPy arrays passed directly (SPEC §4: Borrow copies in, BorrowMut copies in and back) --


def test_numpy_borrow_mut_edited_between_launches(device: str) -> None:
    z = np.zeros(4, np.float32)
    inc[4](z)
    z[:] = 100
    inc[4](z)
    assert z.tolist() == [101.0] * 4


def test_numpy_borrow_edited_between_launches(device: str) -> None:
    x = np.zeros(4, np.float32)
    y = go.zeros(4)
    copy_into[4](x, y)
    x[:] = 7
    copy_into[4](x, y)
    assert y.numpy().tolist() == [7.0] * 4
    x[2] = -1
    copy_into[4](x, y)
    assert y.numpy().tolist() == [7.0, 7.0, -1.0, 7.0]


def test_numpy_borrow_mut_keeps_in_range_writes_of_a_launch_with_a_bounds_error(
    device: str,
) -> None:
    # the IR's rule: an out-of-range load yields 0, an out-of-range store writes nothing, the
    # work-item goes on; the launch then raises; every in-range write has happened
    x = np.arange(6, dtype=np.float32)
    y = np.full(6, -5.0, np.float32)
    with pytest.raises(go.BoundsError):
        shifted_copy[6](x, y)
    assert y.tolist() == [3.0, 4.0, 5.0, 6.0, 1.0, 1.0]
    go.synchronize()  # reported once, at the launch


def test_numpy_arguments_written_by_the_host_many_times(device: str) -> None:
    z = np.zeros(16, np.float32)
    for k in range(5):
        inc[16](z)
        z[k] = 50
    inc[16](z)
    assert z.tolist() == [55.0, 54.0, 53.0, 52.0, 51.0] + [6.0] * 11


# -- go.asarray and DLPack imports: the owner's array and the buffer are one memory --


@pytest.mark.parametrize("wrap", sorted(_wrappers()))
def test_kernel_write_reaches_the_owner_at_synchronize(device: str, wrap: str) -> None:
    a = np.zeros(8, np.float32)
    b = _wrappers()[wrap](a)
    inc[8](b)
    go.synchronize()
    assert a.tolist() == [1.0] * 8  # without asking the buffer for anything


@pytest.mark.parametrize("wrap", sorted(_wrappers()))
def test_owner_write_reaches_the_next_launch(device: str, wrap: str) -> None:
    a = np.zeros(8, np.float32)
    b = _wrappers()[wrap](a)
    inc[8](b)
    go.synchronize()
    a[:] = 10  # the owner writes after the kernel did: not lost
    inc[8](b)
    go.synchronize()
    assert a.tolist() == [11.0] * 8
    assert b.numpy().tolist() == [11.0] * 8
    a[3] = 0
    out = go.zeros(8)
    copy_into[8](b, out)  # a shared borrow sees the owner's write too
    assert out.numpy().tolist() == [11.0] * 3 + [0.0] + [11.0] * 4


@pytest.mark.parametrize("wrap", sorted(_wrappers()))
def test_host_access_sees_the_owners_writes(device: str, wrap: str) -> None:
    a = np.zeros(4, np.float32)
    b = _wrappers()[wrap](a)
    inc[4](b)
    assert b.numpy().tolist() == [1.0] * 4
    a[:] = 3
    assert b.numpy().tolist() == [3.0] * 4
    with b.host() as view:
        assert view.tolist() == [3.0] * 4
    inc[4](b)
    with b.host_mut() as view:
        assert view.tolist() == [4.0] * 4
        view[0] = 9
    assert a.tolist() == [9.0, 4.0, 4.0, 4.0]


@pytest.mark.parametrize("wrap", sorted(_wrappers()))
def test_a_view_of_owner_memory_is_coherent(device: str, wrap: str) -> None:
    a = np.zeros(10, np.float32)
    b = _wrappers()[wrap](a)
    inc[4](b[3:7])
    go.synchronize()
    assert a.tolist() == [0.0] * 3 + [1.0] * 4 + [0.0] * 3
    a[:] = 5
    inc[4](b[3:7])
    go.synchronize()
    assert a.tolist() == [5.0] * 3 + [6.0] * 4 + [5.0] * 3


@pytest.mark.parametrize("wrap", sorted(_wrappers()))
def test_loop_of_launches_then_owner_read(device: str, wrap: str) -> None:
    a = np.zeros(64, np.float32)
    b = _wrappers()[wrap](a)
    for _ in range(10):
        inc[64](b)
    go.synchronize()
    assert (a == 10).all()
    a[:] = 0
    for _ in range(10):
        inc[64](b)
    go.synchronize()
    assert (a == 10).all()


# -- gpuoff buffers exported through DLPack: the consumer shares the memory from then on --


def test_dlpack_consumer_sees_kernel_writes_and_kernels_see_its_writes(device: str) -> None:
    b = go.zeros(6)
    inc[6](b)
    view = np.from_dlpack(b)
    assert view.tolist() == [1.0] * 6
    inc[6](b)
    go.synchronize()
    assert view.tolist() == [2.0] * 6  # the exported memory holds the kernel's write
    view[:] = 20
    inc[6](b)
    go.synchronize()
    assert view.tolist() == [21.0] * 6
    assert b.numpy().tolist() == [21.0] * 6


# -- what it costs: devices with their own memory copy owner memory in at every launch --


def test_owner_memory_moves_at_each_launch_on_a_device_with_its_own_memory(device: str) -> None:
    a = np.zeros(256, np.float32)
    b = go.asarray(a)
    inc[256](b)
    go.synchronize()
    go.reset_stats()
    for _ in range(3):
        inc[256](b)
        go.synchronize()
    s = go.stats()
    if get_device(device).host_memory:
        assert s.transfers_to_device == s.transfers_to_host == 0
    else:  # in at each launch (the owner may have written), back after each writing one
        assert s.transfers_to_device == 3 and s.transfers_to_host == 3
    assert (a == 4).all()


# -- other libraries' arrays passed directly (SPEC §4): stand-ins with only the protocol ------


class _Interface:
    """An array from a library that exports only ``__array_interface__`` (as CuPy's host
    arrays and many others do)."""

    def __init__(self, a: np.ndarray[Any, Any]) -> None:
        self.a = a

    @property
    def __array_interface__(self) -> dict[str, Any]:
        return self.a.__array_interface__


class _DLPack:
    """An array from a library that exports only DLPack (as JAX's CPU arrays do)."""

    def __init__(self, a: np.ndarray[Any, Any]) -> None:
        self.a = a

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.a.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        return self.a.__dlpack_device__()


@pytest.mark.parametrize("wrap", [_Interface, _DLPack])
def test_another_librarys_array_is_a_numpy_argument(device: str, wrap: Any) -> None:
    a = np.arange(6, dtype=np.float32)
    inc[6](wrap(a))
    assert a.tolist() == [float(k + 1) for k in range(6)]  # written back before returning
    a[:] = 10
    inc[6](wrap(a))
    assert a.tolist() == [11.0] * 6
    strided = np.zeros(12, np.float32)
    inc[6](wrap(strided[::2]))  # a strided view: copied for the launch, and back
    assert strided.tolist() == [1.0, 0.0] * 6
