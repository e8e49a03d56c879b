"""Launch-time errors on every device: LaunchTypeError cases and launch configurations."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32, u8
from gpuoff.runtime.testing import nd


@go.kernel
def k(a: f32, n: i32, b: u8, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0] and i < x.shape[0] and i < n:
        y[i] = x[i] * a + b


@go.kernel
def no_wrapper(x: Array[f32]) -> None:  # type: ignore[gpuoff-signature]  # noqa: ARG001
    pass


def _args() -> list[Any]:
    return [1.0, 4, 2, go.full(4, 1.0), go.zeros(4)]


@pytest.mark.parametrize(
    ("index", "value", "match"),
    [
        (3, go.zeros(4, go.f64), r"parameter 'x' expects Borrow\[Array\[f32\]\], got .*float64"),
        (3, np.zeros(4, np.int32), r"'x' expects .*int32"),
        (3, 1.0, r"'x' expects Borrow\[Array\[f32\]\], got float 1.0"),
        (0, go.zeros(4), r"'a' expects f32, got a go.Buffer.*array for a scalar"),
        (0, np.zeros(4, np.float32), r"'a' expects f32.*array for a scalar"),
        (2, 300, r"'b' expects u8, got int 300 \(out of range \[0, 255\]\)"),
        (2, -1, r"'b' expects u8.*out of range"),
        (1, 2**40, r"'n' expects i32.*out of range"),
        (1, 1.5, r"'n' expects i32, got float 1.5 \(a float for an integer parameter\)"),
        (0, 1e300, r"'a' expects f32.*out of range for f32"),
        (0, "1.0", r"'a' expects f32, got a str"),
        (0, True, r"'a' expects f32, got bool"),
    ],
)
def test_launch_type_errors(device: str, index: int, value: object, match: str) -> None:
    args = _args()
    args[index] = value
    with pytest.raises(go.LaunchTypeError, match=match) as info:
        k[4](*args)
    assert isinstance(info.value, TypeError)
    assert "k()" in str(info.value)


def test_errors_after_a_successful_launch_too(device: str) -> None:
    args = _args()
    k[4](*args)  # the plan exists now: the warm path must check as well
    args[2] = 256
    with pytest.raises(go.LaunchTypeError, match="'b'"):
        k[4](*args)
    args[2] = 1
    args[3] = go.zeros(4, go.f64)
    with pytest.raises(go.LaunchTypeError, match="'x'"):
        k[4](*args)


def test_argument_count_and_names(device: str) -> None:
    args = _args()
    with pytest.raises(go.LaunchTypeError, match="takes 5 arguments, got 6"):
        k[4](*args, 1)  # type: ignore[call-arg]
    with pytest.raises(go.LaunchTypeError, match="missing arguments: y"):
        k[4](*args[:4])
    with pytest.raises(go.LaunchTypeError, match="no parameter 'z'"):
        k[4](*args, z=1)  # type: ignore[call-arg]
    with pytest.raises(go.LaunchTypeError, match="multiple values for 'a'"):
        k[4](*args[:4], a=1.0)  # type: ignore[misc]


def test_read_only_numpy_array_for_borrow_mut(device: str) -> None:
    args = _args()
    ro = np.zeros(4, np.float32)
    ro.flags.writeable = False
    args[4] = ro
    with pytest.raises(go.LaunchTypeError, match="'y'.*read-only"):
        k[4](*args)
    args[3], args[4] = ro, go.zeros(4)  # read-only is fine for a Borrow
    k[4](*args)
    assert args[4].numpy().tolist() == [2.0] * 4


def test_missing_wrapper(device: str) -> None:
    with pytest.raises(go.LaunchTypeError, match="'x'"):
        no_wrapper[1](go.zeros(1))


@pytest.mark.parametrize(
    ("config", "error"),
    [
        ((8, 1), None),  # a 2-D grid
        ((8, 3), go.RaceError),  # a 2-D grid: three work-items write each y[i]
        ((8, (3,)), ValueError),  # grid 8 not a multiple of block 3
        (((8, 6), (4, 4)), ValueError),
        (((4, 4), (4,)), ValueError),  # dims differ
        ((1, 2, 3, 4), ValueError),
        ((), ValueError),
        (-1, ValueError),
        ((4, (0,)), ValueError),
        (2.5, TypeError),
        ("4", TypeError),
        (((8,), (4,)), None),
        ((8, (4,)), None),
    ],
)
def test_launch_configurations(device: str, config: object, error: type | None) -> None:
    y = go.zeros(8)
    x = go.full(8, 1.0)
    if error is None:
        k[config](1.0, 8, 0, x, y)
        assert y.numpy().tolist() == [1.0] * 8
    else:
        with pytest.raises(error) as info:
            k[config](1.0, 8, 0, x, y)
        assert isinstance(info.value, go.GpuoffError)


def test_kernel_called_without_a_grid() -> None:
    with pytest.raises(go.LaunchTypeError, match=r"k\[n\]"):
        k(nd(1.0), nd(1), nd(1), go.zeros(1), go.zeros(1))
