"""End-to-end launches on every available device: results vs NumPy, configs, arguments,
moves, NumPy arguments, bounds errors, asynchrony and threads."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Owned, f32, f64, i32, u8
from gpuoff.runtime.testing import nd


@go.kernel
def saxpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


@go.kernel
def add2d(a: Borrow[Array[f64]], b: Borrow[Array[f64]], out: BorrowMut[Array[f64]]) -> None:
    i = go.global_id(0)
    j = go.global_id(1)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = a[i, j] + b[i, j] * 10.0


@go.kernel
def incr(y: BorrowMut[Array[i32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = y[i] + 1


@go.kernel
def scale_owned(s: f32, y: Owned[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = y[i] * s


@go.kernel
def store_u8(v: u8, n: i32, out: BorrowMut[Array[u8]]) -> None:
    i = go.global_id(0)
    if i < n:
        out[i] = v


@go.kernel
def unguarded(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    y[i] = x[i + 1]


@go.kernel(boundscheck=False)
def nocheck_copy(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = x[i]


def test_saxpy_small_and_large(device: str) -> None:
    for n in (10, 300_000):
        xs = np.random.default_rng(n).random(n, dtype=np.float32)
        ys = np.random.default_rng(n + 1).random(n, dtype=np.float32)
        x, y = go.array(xs), go.array(ys)
        saxpy[n](2.0, x, y)
        np.testing.assert_allclose(y.numpy(), 2.0 * xs + ys, rtol=1e-6)


def test_grid_larger_than_the_buffer_with_a_guard(device: str) -> None:
    x = go.array(np.ones(10, np.float32))
    y = go.zeros(10)
    saxpy[1000](1.0, x, y)
    assert y.numpy().tolist() == [1.0] * 10


def test_two_dimensional_grid_with_block_and_views(device: str) -> None:
    a = np.arange(64, dtype=np.float64).reshape(8, 8)
    b = np.ones((8, 8))
    out = go.zeros((8, 8), go.f64)
    add2d[(8, 8), (4, 4)](go.array(a), go.array(b), out)
    np.testing.assert_array_equal(out.numpy(), a + 10.0)
    # non-contiguous views: reversed rows, every other column
    big = go.array(np.arange(128, dtype=np.float64).reshape(8, 16))
    view = big[::-1, ::2]
    out2 = go.zeros((8, 8), go.f64)
    add2d[(8, 8)](view, go.array(b), out2)
    np.testing.assert_array_equal(out2.numpy(), np.arange(128.0).reshape(8, 16)[::-1, ::2] + 10)


@go.kernel
def add4(out: BorrowMut[Array[f64]], a: Borrow[Array[f64]], b: Borrow[Array[f64]],
         c: Borrow[Array[f64]], d: Borrow[Array[f64]]) -> None:  # fmt: skip
    i = go.global_id(0)
    j = go.global_id(1)
    k = go.global_id(2)
    if i < out.shape[0] and j < out.shape[1] and k < out.shape[2]:
        out[i, j, k] = a[i, j, k] + 10.0 * b[i, j, k] + 100.0 * c[i, j, k] + 1000.0 * d[i, j, k]


def test_many_strided_views_each_get_their_offset_shape_and_strides(device: str) -> None:
    # five 3-D views with offsets and strides of their own: 38 longs on OpenCL, more than
    # one packed vector holds (codegen.opencl's gpuoff_meta0..2)
    rng = np.random.default_rng(5)
    base = [rng.integers(0, 9, size=(9, 7, 6)).astype(np.float64) for _ in range(4)]
    picks = [(slice(1, 9, 2), slice(None, None, -2), slice(1, 3)),
             (slice(None, 4), slice(2, 6), slice(None, None, 3)),
             (slice(7, None, -2), slice(0, 7, 2), slice(4, 6)),
             (slice(5, 9), slice(None, 4), slice(0, 6, 3))]  # fmt: skip
    views = [b[p] for b, p in zip(base, picks, strict=True)]
    assert all(v.shape == (4, 4, 2) for v in views)
    big_out = go.zeros((6, 8, 5), go.f64)
    out = big_out[1:5, ::2, 3:]
    bufs = [go.array(b)[p] for b, p in zip(base, picks, strict=True)]
    add4[(4, 4, 2)](out, *bufs)
    want = views[0] + 10.0 * views[1] + 100.0 * views[2] + 1000.0 * views[3]
    np.testing.assert_array_equal(out.numpy(), want)
    whole = np.zeros((6, 8, 5))
    whole[1:5, ::2, 3:] = want
    np.testing.assert_array_equal(big_out.numpy(), whole)  # nothing written outside the view


def test_write_through_a_column_view(device: str) -> None:
    m = go.zeros((4, 3), go.i32)
    incr[4](m[:, 1])
    assert m.numpy().tolist() == [[0, 1, 0]] * 4


def test_keyword_arguments(device: str) -> None:
    y = go.zeros(4)
    saxpy[4](y=y, x=go.array(np.ones(4, np.float32)), a=3.0)
    assert y.numpy().tolist() == [3.0] * 4


def test_zero_size_grid_launches_nothing(device: str) -> None:
    y = go.zeros(4, go.i32)
    incr[0](y)
    incr[(0, 5)](y)
    assert y.numpy().tolist() == [0] * 4


def test_numpy_scalars_and_integer_scalars(device: str) -> None:
    out = go.zeros(5, go.u8)
    store_u8[5](nd(np.uint8(200)), 3, out)
    assert out.numpy().tolist() == [200, 200, 200, 0, 0]
    saxpy[2](nd(np.float32(2)), nd(np.ones(2, np.float32)), nd(np.zeros(2, np.float32)))


def test_owned_argument_is_moved_and_returned(device: str) -> None:
    y = go.array(np.ones(6, np.float32))
    y2 = scale_owned[6](3.0, y)
    with pytest.raises(go.UseAfterMoveError, match="scale_owned"):
        y.numpy()
    y3 = scale_owned[6](2.0, y2)
    assert y3.numpy().tolist() == [6.0] * 6


def test_numpy_borrow_mut_is_updated_before_return(device: str) -> None:
    x: Any = np.arange(8, dtype=np.float32)
    y: Any = np.ones(8, np.float32)
    saxpy[8](2.0, x, y)
    assert y.tolist() == (2 * np.arange(8) + 1).tolist()


def test_bounds_error_names_kernel_array_index_and_shape(device: str) -> None:
    x = go.array(np.ones(8, np.float32))
    y = go.zeros(8)
    with pytest.raises(go.BoundsError) as info:
        unguarded[8](x, y)
        go.synchronize()
    text = str(info.value)
    assert "unguarded" in text and "index (8,)" in text and "x with shape (8,)" in text
    assert f"{__file__}:" in text and "x[i + 1]" in text  # the source line
    assert isinstance(info.value, IndexError)
    # the in-range accesses happened, the bad one did not
    assert y.numpy().tolist() == [1.0] * 7 + [0.0]


def test_bounds_error_of_an_async_launch_surfaces_at_synchronisation(device: str) -> None:
    n = 200_000
    x = go.array(np.ones(n, np.float32))
    y = go.zeros(n)
    try:
        unguarded[n](x, y)
    except go.BoundsError:
        pytest.fail("a pooled launch reports bounds errors at the next synchronisation")
    with pytest.raises(go.BoundsError):
        y.numpy()
    go.synchronize()  # reported once


def test_boundscheck_false(device: str) -> None:
    y = go.zeros(4)
    nocheck_copy[4](go.array(np.full(4, 2, np.float32)), y)
    assert y.numpy().tolist() == [2.0] * 4


def test_launches_in_flight_are_ordered(device: str) -> None:
    n = 100_000
    y = go.zeros(n, go.i32)
    for _ in range(20):
        incr[n](y)  # each waits for the previous writer
    assert (y.numpy() == 20).all()


def test_threads_launching_on_a_shared_buffer_lose_no_update(device: str) -> None:
    n = 50_000
    y = go.zeros(n, go.i32)
    errors: list[BaseException] = []

    def work() -> None:
        try:
            with go.on(device):
                for _ in range(25):
                    incr[n](y)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert (y.numpy() == 100).all()


def test_launch_is_asynchronous_on_large_grids(device: str) -> None:
    n = 2_000_000
    y = go.zeros(n, go.i32)
    incr[n](y)
    go.synchronize()
    assert not any(not u.event.done() for u in y._st.uses)
    assert (y.numpy() == 1).all()


@go.kernel
def broken(y: Owned[Array[f32]]) -> None:
    i = go.global_id(0)
    y[i] = [1.0][0]  # type: ignore[gpuoff-unsupported]  # a list: not in the subset


def test_compile_error_at_first_launch_changes_nothing(device: str) -> None:
    y = go.array(np.arange(4, dtype=np.float32))
    before = go.stats()
    with pytest.raises(go.CompileError):
        broken[4](y)
    assert y._moved is None and y.numpy().tolist() == [0.0, 1.0, 2.0, 3.0]
    assert (go.stats() - before).launches == 0
    with pytest.raises(go.CompileError):  # not cached as a success
        broken[4](y)


def test_readers_never_see_a_half_written_buffer(device: str) -> None:
    n = 100_000
    y = go.zeros(n, go.i32)
    done: list[int] = []
    problems: list[str] = []

    def writer() -> None:
        with go.on(device):
            count = 0
            while count < 15:
                try:
                    incr[n](y)
                    count += 1
                except go.BorrowError:  # a reader's host view is open: try again
                    continue
            done.append(count)

    def reader() -> None:
        for k in range(15):
            if k % 2:
                with y.host() as a:
                    if not (a == a[0]).all():
                        problems.append("torn host view")
            else:
                v = y.numpy()
                if not (v == v[0]).all():
                    problems.append("torn numpy()")

    threads = [threading.Thread(target=writer) for _ in range(2)]
    threads += [threading.Thread(target=reader) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads)
    assert not problems
    assert done == [15, 15] and (y.numpy() == 30).all()
