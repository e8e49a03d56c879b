"""A realistic pytest module of a gpuoff user: results, and that misuse raises.

Clean: the plugin must report nothing here, although several tests make exactly the mistakes
the plugin reports elsewhere. Code under ``pytest.raises(...)`` (or in a ``try`` whose
handler catches gpuoff's ownership errors) is deliberate misuse: a failed launch moves
nothing, and the test checks that the runtime refuses it. ``tests/mypy/test_real_cases.py``
runs this file under pytest. The tests mirror the runtime tests of PyOpenCL and Warp
(check that an invalid launch raises before touching memory), in gpuoff's terms.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Owned, f32


@go.kernel
def axpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


@go.kernel
def fill(x: Owned[Array[f32]], v: f32) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        x[i] = v


@go.kernel
def swap_add(x: BorrowMut[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        t = x[i]
        x[i] = y[i]
        y[i] = t + y[i]


@pytest.fixture
def ones() -> go.Buffer[f32]:
    return go.full(8, 1.0, go.f32)


@pytest.mark.parametrize("a", [0.0, 1.0, 2.5])
def test_axpy(ones: go.Buffer[f32], a: float) -> None:
    y = go.zeros(8, go.f32)
    axpy[8](a, ones, y)
    np.testing.assert_allclose(y.numpy(), a)


def test_axpy_accepts_numpy_input() -> None:
    x = np.arange(8, dtype=np.float32)
    y = go.zeros(8, go.f32)
    axpy[8](2.0, x, y)
    assert y.numpy()[3] == 6.0


def test_alias_is_refused(ones: go.Buffer[f32]) -> None:
    with pytest.raises(go.BorrowError, match="must not alias"):
        axpy[8](2.0, ones, ones)
    # nothing ran: the buffer is unchanged and still usable
    assert ones.numpy().sum() == 8.0


def test_alias_through_a_view_is_refused(ones: go.Buffer[f32]) -> None:
    with pytest.raises(go.BorrowError):
        axpy[4](1.0, ones[0:4], ones[2:6])


def test_disjoint_views_are_fine(ones: go.Buffer[f32]) -> None:
    axpy[4](1.0, ones[:4], ones[4:])
    assert ones.numpy().tolist() == [1.0] * 4 + [2.0] * 4


def test_two_exclusive_borrows_of_one_buffer() -> None:
    b = go.zeros(8, go.f32)
    with pytest.raises(go.BorrowError):
        swap_add[8](b, b)


def test_use_after_move_raises(ones: go.Buffer[f32]) -> None:
    filled = fill[8](ones, 3.0)
    assert filled.numpy()[0] == 3.0
    with pytest.raises(go.UseAfterMoveError):
        ones.numpy()
    with pytest.raises(go.UseAfterMoveError, match="moved"):
        axpy[8](1.0, ones, filled)


def test_rebinding_keeps_the_buffer() -> None:
    x = go.zeros(8, go.f32)
    for v in range(3):
        x = fill[8](x, float(v))
    assert x.numpy()[0] == 2.0


def test_failed_launch_moves_nothing() -> None:
    wrong: Any = go.zeros(8, go.f64)  # typed Any on purpose: the dtype is checked at launch
    with pytest.raises(go.LaunchTypeError):
        fill[8](wrong, 1.0)
    assert wrong.numpy().sum() == 0.0  # still alive


def test_alias_caught_by_hand() -> None:
    b = go.zeros(8, go.f32)
    try:
        axpy[8](1.0, b, b)
    except go.BorrowError as exc:
        assert "'y'" in str(exc)
    else:
        pytest.fail("the alias was not refused")


def test_host_view_blocks_a_writer() -> None:
    b = go.zeros(8, go.f32)
    x = go.zeros(8, go.f32)
    with b.host() as view:
        assert view[0] == 0.0
        with pytest.raises(go.BorrowError):
            axpy[8](1.0, x, b)
    axpy[8](1.0, x, b)


def test_copy_is_independent() -> None:
    a = go.full(8, 2.0, go.f32)
    axpy[8](1.0, a.copy(), a)
    assert a.numpy()[0] == 4.0
