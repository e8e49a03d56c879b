"""The argument handling every library function shares (gpuoff.lib._common)."""

from __future__ import annotations

import numpy as np
import pytest

import gpuoff as go
from gpuoff.lib import _common


def test_numpy_arrays_become_buffers_without_a_copy() -> None:
    a = np.arange(8, dtype=np.float32)
    buf = _common.as_buffer(a, "sum", "x")
    assert isinstance(buf, go.Buffer)
    assert buf is _common.as_buffer(a, "sum", "x")  # one array, one buffer (one set of guards)
    b = go.zeros(4, go.i32)
    assert _common.as_buffer(b, "sum", "x") is b


def test_non_arrays_are_refused_with_the_function_and_argument_named() -> None:
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.sum: x must be a go.Buffer"):
        _common.as_buffer([1, 2, 3], "sum", "x")


@pytest.mark.parametrize(("axis", "ndim", "want"), [(None, 2, None), (0, 2, 0), (-1, 2, 1),
                                                     (2, 3, 2), (-3, 3, 0)])
def test_axes_follow_numpy(axis: int | None, ndim: int, want: int | None) -> None:
    assert _common.normalize_axis(axis, ndim, "sum") == want


def test_bad_axes_are_refused() -> None:
    with pytest.raises(go.ShapeError, match="axis 2 is out of range .* 2 dimensions"):
        _common.normalize_axis(2, 2, "sum")
    with pytest.raises(go.ShapeError):
        _common.normalize_axis(-3, 2, "sum")
    with pytest.raises(go.DTypeError, match="axis must be an int"):
        _common.normalize_axis(1.0, 2, "sum")  # type: ignore[arg-type]


def test_out_is_checked_before_anything_runs() -> None:
    f4 = np.dtype(np.float32)
    made = _common.result(None, (3, 2), f4, "matmul")
    assert made.shape == (3, 2) and made.dtype == f4
    given = go.zeros((3, 2), go.f32)
    assert _common.result(given, (3, 2), f4, "matmul") is given
    with pytest.raises(go.ShapeError, match=r"out= has shape \(2, 3\), the result has \(3, 2\)"):
        _common.result(go.zeros((2, 3), go.f32), (3, 2), f4, "matmul")
    with pytest.raises(go.ShapeError, match="out= has dtype float64"):
        _common.result(go.zeros((3, 2), go.f64), (3, 2), f4, "matmul")
    host = np.zeros((3, 2), np.float32)
    with _common.result(host, (3, 2), f4, "matmul").host() as view:
        assert np.shares_memory(view, host)  # results land in the caller's array
    with pytest.raises(go.ShapeError, match="out= must be a writeable, C-contiguous"):
        _common.result(np.zeros((2, 3), np.float32).T, (3, 2), f4, "matmul")
    frozen = np.zeros((3, 2), np.float32)
    frozen.flags.writeable = False
    with pytest.raises(go.ShapeError, match="out= must be a writeable"):
        _common.result(frozen, (3, 2), f4, "matmul")
