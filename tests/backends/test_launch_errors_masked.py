"""NumPy masked arrays are refused, not read as their data: gpuoff has no masks, and
ignoring one silently would compute over the masked-out values."""

from __future__ import annotations

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32
from gpuoff.lib import _common


@go.kernel
def double(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = 2.0 * x[i]


def test_a_masked_argument_is_refused_before_anything_runs(device: str) -> None:
    x = np.ma.masked_array(np.arange(4, dtype=np.float32), mask=[False, True, False, False])
    y = np.full(4, 7.0, np.float32)
    with pytest.raises(go.LaunchTypeError, match=r"parameter 'x' .*\(a masked array: .*filled"):
        double[4](x, y)
    assert (y == 7.0).all()  # nothing ran
    double[4](x.filled(0.0), y)  # what the message suggests works
    assert y.tolist() == [0.0, 0.0, 4.0, 6.0]


def test_a_masked_array_makes_no_buffer() -> None:
    x = np.ma.masked_array(np.arange(4, dtype=np.float32), mask=[False, True, False, False])
    for make in (go.asarray, go.array):
        with pytest.raises(go.DTypeError, match="masked array"):
            make(x)
    with pytest.raises(go.DTypeError, match="masked array"):
        _common.as_buffer(x, "sum", "x")
