"""A realistic unittest module of a gpuoff user (``python -m unittest``), misuse included.

Clean: the plugin must report nothing here. ``self.assertRaises(...)`` blocks are deliberate
misuse, as ``pytest.raises`` is. The layout follows numba-cuda's ``CUDATestCase`` suites
(a ``setUp`` that allocates, one assertion per behaviour), written anew for gpuoff.
"""

from __future__ import annotations

import unittest

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Owned, f32, i32


@go.kernel
def add_into(x: Borrow[Array[f32]], y: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < out.shape[0]:
        out[i] = x[i] + y[i]


@go.kernel
def count_positive(x: Borrow[Array[f32]], total: BorrowMut[Array[i32]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0] and x[i] > 0.0:
        go.atomic_add(total, 0, 1)


@go.kernel
def negate(x: Owned[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        x[i] = -x[i]


class LaunchTests(unittest.TestCase):
    def setUp(self) -> None:
        self.x = go.array(np.arange(16, dtype=np.float32))
        self.y = go.full(16, 1.0, go.f32)
        self.out = go.zeros(16, go.f32)

    def test_add(self) -> None:
        add_into[16](self.x, self.y, self.out)
        self.assertEqual(self.out.numpy()[5], 6.0)

    def test_same_input_twice_is_fine(self) -> None:
        add_into[16](self.x, self.x, self.out)  # two shared borrows
        self.assertEqual(self.out.numpy()[5], 10.0)

    def test_output_aliasing_an_input_is_refused(self) -> None:
        with self.assertRaises(go.BorrowError):
            add_into[16](self.x, self.y, self.x)
        with self.assertRaisesRegex(go.BorrowError, "must not alias"):
            add_into[16](self.out, self.y, self.out)

    def test_atomic_count(self) -> None:
        total = go.zeros(1, go.i32)
        count_positive[16](self.x, total)
        self.assertEqual(int(total.numpy()[0]), 15)


class OwnershipTests(unittest.TestCase):
    def test_negate_returns_the_buffer(self) -> None:
        x = go.array(np.ones(4, dtype=np.float32))
        x = negate[4](x)
        self.assertTrue(bool((x.numpy() == -1.0).all()))

    def test_moved_buffer_is_dead(self) -> None:
        x = go.array(np.ones(4, dtype=np.float32))
        y = negate[4](x)
        with self.assertRaises(go.UseAfterMoveError):
            x.numpy()
        self.assertEqual(float(y.numpy()[0]), -1.0)

    def test_moving_twice_is_refused(self) -> None:
        x = go.array(np.ones(4, dtype=np.float32))
        negate[4](x)
        with self.assertRaises(go.UseAfterMoveError):
            negate[4](x)


if __name__ == "__main__":
    unittest.main()
