"""Copies, pickles and moves of buffers on every device (issue 20, item 5): ``buf.copy()``,
``copy.copy`` and ``copy.deepcopy`` make a new, independent buffer holding the contents (after
waiting for writers); pickling waits for writers and stores the contents (a view: its own
elements only); and nothing gives a second live handle to a moved buffer's memory.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, BorrowMut, Owned, f32


@go.kernel
def add_one(z: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < z.shape[0]:
        z[i] = z[i] + 1.0


@go.kernel
def take(z: Owned[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < z.shape[0]:
        z[i] = z[i] * 2.0


def _pickled(b: go.Buffer[Any]) -> Any:
    return pickle.loads(pickle.dumps(b))


COPIERS: dict[str, Callable[[go.Buffer[Any]], Any]] = {
    "method": go.Buffer.copy,
    "copy.copy": copy.copy,
    "copy.deepcopy": copy.deepcopy,
    "pickle": _pickled,
}


@pytest.mark.parametrize("how", sorted(COPIERS))
def test_a_copy_is_an_independent_buffer_with_the_contents(device: str, how: str) -> None:
    b = go.array(np.arange(64, dtype=np.float32))
    add_one[64](b)  # pending (or done) writer: the copy waits for it
    c = COPIERS[how](b)
    assert isinstance(c, go.Buffer) and c is not b
    assert c.dtype == b.dtype and c.shape == b.shape
    np.testing.assert_array_equal(c.numpy(), np.arange(1, 65, dtype=np.float32))
    add_one[64](c)  # no aliasing: each has its own memory
    add_one[64](b)
    add_one[64](b)
    np.testing.assert_array_equal(c.numpy(), np.arange(2, 66, dtype=np.float32))
    np.testing.assert_array_equal(b.numpy(), np.arange(3, 67, dtype=np.float32))


@pytest.mark.parametrize("how", sorted(COPIERS))
def test_a_copy_of_a_view_holds_only_the_view(device: str, how: str) -> None:
    base = go.array(np.arange(20, dtype=np.float32).reshape(4, 5))
    view = base[1:3, ::2]
    c = COPIERS[how](view)
    assert c.shape == (2, 3) and c.nbytes == 6 * 4
    np.testing.assert_array_equal(c.numpy(), np.array([[5, 7, 9], [10, 12, 14]], np.float32))
    add_one[3](c[0])  # writes the copy, not the base
    assert c.numpy()[0].tolist() == [6.0, 8.0, 10.0]
    np.testing.assert_array_equal(base.numpy(), np.arange(20, dtype=np.float32).reshape(4, 5))


def test_a_pickled_view_stores_only_its_elements() -> None:
    base = go.array(np.zeros(1_000_000, np.float32))
    small = pickle.dumps(base[10:20])
    assert len(small) < 1000


@pytest.mark.parametrize("how", sorted(COPIERS))
def test_a_moved_buffer_cannot_be_copied(device: str, how: str) -> None:
    b = go.array(np.ones(8, np.float32))
    take[8](b)
    with pytest.raises(go.UseAfterMoveError):
        COPIERS[how](b)


@pytest.mark.parametrize("how", sorted(COPIERS))
def test_a_copy_made_before_the_move_is_its_own_buffer(device: str, how: str) -> None:
    b = go.array(np.ones(8, np.float32))
    c = COPIERS[how](b)
    back = take[8](b)
    add_one[8](c)  # the copy is not the moved buffer: it stays usable and unchanged by the move
    assert c.numpy().tolist() == [2.0] * 8
    assert back.numpy().tolist() == [2.0] * 8


def test_a_view_made_before_the_move_is_moved_with_it(device: str) -> None:
    b = go.array(np.ones(8, np.float32))
    head, tail = b[:4], b[4:]
    back = take[8](b)
    for handle in (head, tail):
        with pytest.raises(go.UseAfterMoveError, match="moved into take"):
            handle.numpy()
        with pytest.raises(go.UseAfterMoveError):
            add_one[4](handle)
    assert back.numpy().tolist() == [2.0] * 8


def test_moving_a_view_moves_the_buffer_it_came_from_but_not_disjoint_views(device: str) -> None:
    b = go.array(np.ones(8, np.float32))
    left, right = b[:4], b[4:]
    back = take[4](left)
    with pytest.raises(go.UseAfterMoveError):
        b.numpy()  # shares the moved bytes
    assert right.numpy().tolist() == [1.0] * 4  # shares none of them
    add_one[4](right)
    assert back.numpy().tolist() == [2.0] * 4
    assert right.numpy().tolist() == [2.0] * 4


def test_buffer_copy_is_documented() -> None:
    assert go.Buffer.copy.__doc__ and "independent" in go.Buffer.copy.__doc__
