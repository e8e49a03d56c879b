"""go.Buffer: constructors, metadata, views and their byte ranges, host access, interop."""

from __future__ import annotations

import numpy as np
import pytest

import gpuoff as go


def test_constructors_and_metadata() -> None:
    z = go.zeros((3, 4), go.f64)
    assert z.shape == (3, 4) and z.ndim == 2 and z.size == 12 and z.nbytes == 96
    assert z.dtype == np.float64 and z.strides == (32, 8)
    assert go.zeros(5).dtype == np.float32  # default dtype: f32
    assert go.full(3, 7, "int32").numpy().tolist() == [7, 7, 7]
    assert go.full(2, 1.5, np.float64).numpy().dtype == np.float64
    assert go.empty((2, 2), go.u8).shape == (2, 2)
    a = go.array([[1, 2], [3, 4]], dtype=go.i64)
    assert a.numpy().tolist() == [[1, 2], [3, 4]]
    assert go.array(np.arange(3, dtype=np.uint32)).dtype == np.uint32
    assert go.zeros(0).numpy().shape == (0,)


def test_unsupported_dtype_and_bad_shape() -> None:
    with pytest.raises(TypeError, match="not supported"):
        go.array(np.zeros(2, "U3"))
    with pytest.raises(ValueError) as info:
        go.zeros(-1)
    assert isinstance(info.value, go.GpuoffError)


def test_array_copies_asarray_wraps() -> None:
    host = np.arange(4, dtype=np.float32)
    copied = go.array(host)
    wrapped = go.asarray(host)
    host[0] = 42
    assert copied.numpy()[0] == 0
    assert wrapped.numpy()[0] == 42
    assert go.asarray(wrapped) is wrapped
    strided = go.asarray(np.arange(8, dtype=np.float32)[::2])  # not contiguous: copied
    assert strided.numpy().tolist() == [0, 2, 4, 6]


def test_numpy_is_a_copy() -> None:
    b = go.zeros(3)
    out = b.numpy()
    out[:] = 5
    assert b.numpy().tolist() == [0, 0, 0]
    assert np.asarray(b).tolist() == [0, 0, 0]
    assert np.asarray(b, dtype=np.float64).dtype == np.float64
    with pytest.raises(ValueError, match="always copies"):
        np.asarray(b, copy=False)


def test_views_share_the_allocation_and_know_their_bytes() -> None:
    b = go.array(np.arange(12, dtype=np.float32).reshape(3, 4))
    col = b[:, 1]
    assert col.shape == (3,) and col.strides == (16,)
    assert col.numpy().tolist() == [1, 5, 9]
    assert (col._lo, col._hi) == (4, 4 + 2 * 16 + 4)
    row = b[2]
    assert row.numpy().tolist() == [8, 9, 10, 11]
    assert (row._lo, row._hi) == (32, 48)
    rev = b[::-1, ::2]
    assert rev.numpy().tolist() == [[8, 10], [4, 6], [0, 2]]
    assert (rev._lo, rev._hi) == (0, 44)
    assert rev._key == ("float32", 2, False)
    assert b._key == ("float32", 2, True)
    assert b[1, 2] == 6.0
    with b[1:].host_mut() as a:
        a[:] = -1
    assert b.numpy()[0].tolist() == [0, 1, 2, 3]
    assert b.numpy()[1:].tolist() == [[-1] * 4] * 2
    assert b[0:0].size == 0 and b[0:0]._lo == b[0:0]._hi


def test_advanced_indexing_is_refused() -> None:
    b = go.zeros(4)
    with pytest.raises(IndexError, match="basic indexing"):
        b[[0, 2]]


def test_setitem_writes_through_host_mut() -> None:
    b = go.zeros(4)
    b[1:3] = 9
    assert b.numpy().tolist() == [0, 9, 9, 0]


def test_host_views() -> None:
    b = go.zeros(3)
    with b.host() as a:
        assert not a.flags.writeable
        with pytest.raises(ValueError):
            a[0] = 1
        with b.host() as again:  # two read views coexist
            assert again.tolist() == [0, 0, 0]
        with pytest.raises(go.BorrowError):
            b.host_mut().__enter__()
    with b.host_mut() as m:
        m[:] = 2
        with pytest.raises(go.BorrowError):
            b.host().__enter__()
    assert b.numpy().tolist() == [2, 2, 2]
    assert not b._st.host_views


def test_dlpack_roundtrip() -> None:
    b = go.array(np.arange(5, dtype=np.float32))
    assert b.__dlpack_device__() == (1, 0)
    view = np.from_dlpack(b)
    assert view.tolist() == [0, 1, 2, 3, 4]
    back = go.from_dlpack(np.arange(3, dtype=np.int32))
    assert isinstance(back, go.Buffer) and back.numpy().tolist() == [0, 1, 2]


def test_repr_len_and_moved_state() -> None:
    b = go.zeros((2, 3))
    assert len(b) == 2
    assert "shape=(2, 3)" in repr(b)
    new = b._moved_to("k", "here.py:1")
    assert "moved" in repr(b)
    with pytest.raises(go.UseAfterMoveError, match="moved into k at here.py:1"):
        b.numpy()
    assert new.numpy().shape == (2, 3)


def test_asarray_of_one_array_twice_is_one_buffer() -> None:
    host = np.zeros(4, np.float32)
    a = go.asarray(host)
    assert go.asarray(host) is a
    assert go.asarray(host[1:]) is not a  # another view: another wrapper (aliasing by address)
    moved = a._moved_to("k", "f.py:1")
    assert go.asarray(host) is not a
    assert moved.numpy().tolist() == [0.0] * 4


def test_typed_constructors() -> None:
    f = go.zeros(3)
    d = go.zeros(3, go.f64)
    i = go.full(2, 1, go.i32)
    assert [f.dtype.name, d.dtype.name, i.dtype.name] == ["float32", "float64", "int32"]
    assert go.empty(2, "uint8").dtype == np.uint8
    assert go.array([1, 2], go.u32).dtype == np.uint32


def test_cuda_array_interface_only_on_cuda() -> None:
    with go.on("cpu"):
        assert not hasattr(go.zeros(2), "__cuda_array_interface__")


def test_copy_is_a_new_allocation_with_the_contents() -> None:
    a = go.array(np.arange(6, dtype=np.float32).reshape(2, 3))
    b = a.copy()
    assert b.shape == (2, 3) and b.dtype == np.float32
    np.testing.assert_array_equal(b.numpy(), a.numpy())
    b[0, 0] = 42.0
    assert a.numpy()[0, 0] == 0.0  # independent: writes to the copy do not reach a
    col = a[:, 1].copy()  # a view's elements only, contiguous
    assert col.shape == (2,) and col.numpy().tolist() == [1.0, 4.0]
    assert col.strides == (4,)


def test_copy_is_not_an_alias_at_a_launch() -> None:
    from tests.mypy.cases.real_pytest import axpy

    a = go.full(8, 2.0, go.f32)
    with pytest.raises(go.BorrowError):
        axpy[8](1.0, a, a)
    axpy[8](1.0, a.copy(), a)  # reads a snapshot, writes a
    assert a.numpy().tolist() == [4.0] * 8
