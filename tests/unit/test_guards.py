"""SPEC §3 at run time, one passing and one failing case per rule, on a fake async device."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Owned, f32
from gpuoff.runtime.devices import register
from gpuoff.runtime.testing import FakeDevice, nd, py_kernel


@pytest.fixture(params=[False, True], ids=["separate-memory", "host-memory"])
def dev(request: pytest.FixtureRequest) -> Iterator[FakeDevice]:
    device = FakeDevice(f"fake:{int(request.param)}", host_memory=request.param)
    register(device)
    with go.on(device.name):
        yield device
    device.release()
    go.synchronize()


@py_kernel
def add_one(y: BorrowMut[Array[f32]]) -> None:
    nd(y)[...] += 1


@py_kernel
def copy(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    nd(y)[...] = nd(x)


@py_kernel
def read2(x: Borrow[Array[f32]], z: Borrow[Array[f32]]) -> None:
    pass


@py_kernel
def consume(x: Owned[Array[f32]]) -> None:
    nd(x)[...] *= 2


@py_kernel
def consume2(a: Owned[Array[f32]], x: Borrow[Array[f32]], b: Owned[Array[f32]]) -> None:
    nd(a)[...] += nd(x)
    nd(b)[...] -= nd(x)


# -- rule: exclusive arguments must not alias ----------------------------------------------------


def test_disjoint_views_of_one_buffer_may_be_mut_and_shared(dev: FakeDevice) -> None:
    buf = go.array(np.arange(20, dtype=np.float32))
    copy[10](buf[0:10], buf[10:20])
    assert buf.numpy().tolist() == list(range(10)) * 2


def test_overlapping_views_are_refused(dev: FakeDevice) -> None:
    buf = go.array(np.arange(20, dtype=np.float32))
    with pytest.raises(go.BorrowError, match="'x'.*'y'"):
        copy[10](buf[2:10], buf[5:15])
    assert dev.launched == 0


def test_same_buffer_twice_is_refused(dev: FakeDevice) -> None:
    buf = go.zeros(8)
    with pytest.raises(go.BorrowError, match="BorrowMut"):
        copy[8](buf, buf)


def test_row_and_column_views_overlap(dev: FakeDevice) -> None:
    m = go.zeros((4, 4))
    with pytest.raises(go.BorrowError):
        copy[4](m[0, :], m[:, 0])
    copy[4](m[0, :], m[1, :])  # disjoint rows are fine


def test_interleaved_strided_views_are_disjoint(dev: FakeDevice) -> None:
    # even and odd elements: their byte ranges interleave but they share no byte
    buf = go.array(np.arange(8, dtype=np.float32))
    copy[4](buf[0::2], buf[1::2])
    assert buf.numpy().tolist() == [0, 0, 2, 2, 4, 4, 6, 6]
    m = go.array(np.arange(12, dtype=np.float32).reshape(3, 4))
    copy[3](m[:, 0], m[:, 3])  # two columns
    assert m.numpy()[:, 3].tolist() == [0, 4, 8]
    with pytest.raises(go.BorrowError):
        copy[3](m[:, 0], m[::2, 0])  # every other element of the same column


def test_host_view_of_one_column_and_a_launch_on_another(dev: FakeDevice) -> None:
    m = go.zeros((3, 4))
    with m[:, 0].host_mut() as col:
        col[:] = 1
        if dev.host_memory:  # exact: the columns share no byte
            add_one[3](m[:, 1])
        else:  # separate memory: validity is per byte range, and the ranges interleave
            with pytest.raises(go.BorrowError):
                add_one[3](m[:, 1])
        with pytest.raises(go.BorrowError):
            add_one[3](m[1:, 0])
        with m[:, 2].host_mut() as other:  # disjoint host views coexist
            other[:] = 2
    add_one[3](m[:, 3])
    ones = 1 if dev.host_memory else 0
    assert m.numpy()[0].tolist() == [1, ones, 2, 1]
    assert m.numpy()[:, 1].tolist() == [ones] * 3


def test_two_shared_borrows_of_one_buffer(dev: FakeDevice) -> None:
    buf = go.zeros(8)
    read2[8](buf, buf)


def test_numpy_arrays_sharing_memory_are_refused(dev: FakeDevice) -> None:
    a = np.zeros(16, np.float32)
    with pytest.raises(go.BorrowError):
        copy[8](nd(a[:8]), nd(a[4:12]))


# -- rule: a launch holds its borrows until the device finishes -----------------------------------


def test_conflicting_launch_is_ordered_after_the_inflight_one(dev: FakeDevice) -> None:
    y = go.zeros(4)
    dev.hold()
    for _ in range(5):
        add_one[4](y)  # each one must wait for the previous: no lost update
    assert y.size == 4
    dev.release()
    assert y.numpy().tolist() == [5.0] * 4


def test_shared_borrows_run_concurrently(dev: FakeDevice) -> None:
    x = go.array(np.ones(4, np.float32))
    dev.hold()
    read2[4](x, x)
    # does not wait for the first (which is held): both are in flight at once (another launch
    # configuration: the very same launch again would take the repeat path, which a device
    # runs after the previous one, as an in-order queue does)
    read2[(4,)](x, x)
    events = {id(u.event): u.event for u in x._st.uses}
    assert len(events) == 2
    assert not any(e.done() for e in events.values())
    dev.release()
    go.synchronize()


def test_numpy_waits_for_pending_writer(dev: FakeDevice) -> None:
    y = go.zeros(4)
    add_one[4](y)
    assert y.numpy().tolist() == [1.0] * 4


# -- host views ------------------------------------------------------------------------------


def test_launch_conflicting_with_open_host_view_raises_at_once(dev: FakeDevice) -> None:
    y = go.zeros(4)
    with y.host() as a:
        assert not a.flags.writeable
        with pytest.raises(go.BorrowError, match="open on the host"):
            add_one[4](y)
        read2[4](y, y)  # shared use alongside a read view is fine
    add_one[4](y)
    assert y.numpy().tolist() == [1.0] * 4


def test_host_mut_blocks_even_shared_launches(dev: FakeDevice) -> None:
    y = go.zeros(4)
    with y.host_mut() as a:
        a[:] = 7
        with pytest.raises(go.BorrowError):
            read2[4](y, y)
    add_one[4](y)
    assert y.numpy().tolist() == [8.0] * 4


def test_host_view_of_a_disjoint_part_does_not_conflict(dev: FakeDevice) -> None:
    y = go.zeros(8)
    with y[:4].host_mut() as a:
        a[:] = 3
        add_one[4](y[4:])
    assert y.numpy().tolist() == [3.0] * 4 + [1.0] * 4


def test_host_mut_waits_for_pending_readers(dev: FakeDevice) -> None:
    x = go.array(np.ones(4, np.float32))
    y = go.zeros(4)
    dev.hold()
    copy[4](x, y)
    events = [u.event for u in x._st.uses]
    dev.release()
    with x.host_mut() as a:
        assert all(e.done() for e in events)
        a[:] = 5
    assert y.numpy().tolist() == [1.0] * 4


def test_host_read_does_not_wait_for_readers(dev: FakeDevice) -> None:
    x = go.array(np.ones(4, np.float32))
    dev.hold()
    read2[4](x, x)
    with x.host() as a:  # would deadlock if it waited for the held reader
        assert a.tolist() == [1.0] * 4
    dev.release()


# -- moves -----------------------------------------------------------------------------------


def test_owned_returns_a_new_handle_and_kills_the_old(dev: FakeDevice) -> None:
    x = go.array(np.ones(4, np.float32))
    new = consume[4](x)
    assert isinstance(new, go.Buffer)
    assert new.numpy().tolist() == [2.0] * 4
    uses: list[Callable[[], object]] = [
        lambda: consume[4](x),
        lambda: x.numpy(),
        lambda: x[1:],
        lambda: x[0],
        lambda: x.host().__enter__(),
        lambda: x.host_mut().__enter__(),
        lambda: np.asarray(x),
        lambda: len(x),
    ]
    for use in uses:
        with pytest.raises(go.UseAfterMoveError) as info:
            use()
        assert "consume" in str(info.value)
        assert f"{__file__}:" in str(info.value)


def test_several_owned_return_a_tuple_in_parameter_order(dev: FakeDevice) -> None:
    a, x, b = go.zeros(4), go.array(np.ones(4, np.float32)), go.zeros(4)
    out = consume2[4](a, x, b)
    assert isinstance(out, tuple) and len(out) == 2
    assert out[0].numpy().tolist() == [1.0] * 4
    assert out[1].numpy().tolist() == [-1.0] * 4
    assert x.numpy().tolist() == [1.0] * 4  # a Borrow is not moved


def test_numpy_array_as_owned_is_refused(dev: FakeDevice) -> None:
    with pytest.raises(go.LaunchTypeError, match="cannot be moved"):
        consume[4](nd(np.zeros(4, np.float32)))


# -- failed launches change nothing -------------------------------------------------------------


def test_failed_launch_leaves_everything_as_it_was(dev: FakeDevice) -> None:
    a = go.array(np.arange(4, dtype=np.float32))
    x = go.array(np.ones(4, np.float32))
    with pytest.raises(go.BorrowError):
        consume2[4](a, x, a)  # a aliases itself
    assert a._moved is None and x._moved is None
    assert not a._st.uses and not x._st.uses
    assert a._st.plain
    assert a.numpy().tolist() == [0.0, 1.0, 2.0, 3.0]
    assert dev.launched == 0
    with pytest.raises(go.LaunchTypeError):
        consume2[4](a, nd(1.0), x)
    assert a._moved is None and x._moved is None
    out = consume2[4](a, x, go.zeros(4))
    assert out[0].numpy().tolist() == [1.0, 2.0, 3.0, 4.0]


# -- errors from the device --------------------------------------------------------------------


@py_kernel
def bad(y: BorrowMut[Array[f32]]) -> None:
    nd(y)[100] = 1


def test_device_error_surfaces_at_the_next_synchronisation(dev: FakeDevice) -> None:
    y = go.zeros(4)
    bad[1](y)  # asynchronous: returns before the error happens
    with pytest.raises(go.BoundsError):
        y.numpy()
    y.numpy()  # reported once


def test_device_error_surfaces_at_synchronize(dev: FakeDevice) -> None:
    bad[1](go.zeros(4))
    with pytest.raises(go.BoundsError):
        go.synchronize()
    go.synchronize()
