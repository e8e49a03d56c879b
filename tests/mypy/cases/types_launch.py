# fmt: off
"""Types at launches: inline buffers, what a launch returns, messages that name the kernel."""
# ruff: noqa: E501
from __future__ import annotations

from typing import assert_type

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, Owned, f32, i32
from gpuoff.runtime.buffer import Buffer
from tests.mypy.cases.kernels_lib import consume, merge, scale, take_two


@go.kernel
def normalise(img: Owned[Array[f32]], lo: f32, hi: f32) -> None:
    i = go.global_id(0)
    img[i] = (img[i] - lo) / (hi - lo)


@go.kernel
def count(x: Borrow[Array[f32]], out: Owned[Array[i32]]) -> None:
    out[0] = i32(x.shape[0])


def inline_buffers(x: Buffer[f32]) -> None:
    scale[4](2.0, x, go.zeros(4, go.f32))
    scale[4](2.0, x, go.zeros(4))
    scale[4](2.0, x, go.zeros(16, go.i32))  # E: Argument 2 to "zeros" has incompatible type "type[i32]"; expected "type[f32]"  [arg-type]
    scale[4](2.0, go.full(4, 1.0, go.i32), x)  # E: Argument 3 to "full" has incompatible type "type[i32]"; expected "type[f32]"  [arg-type]
    scale[4](2.0, go.empty(4, np.float32), x)
    scale[4](2.0, go.array(np.ones(4, np.float32)), x)


def wrong_dtypes(x: Buffer[f32], d: Buffer[go.f64]) -> None:
    scale[4](2.0, d, x)  # E: Argument 2 to "scale" has incompatible type "Buffer[f64]"; expected "Borrow[Array[f32]] | ndarray[Any, Any]"  [arg-type]
    consume[4](d, 1)  # E: Argument 1 to "consume" has incompatible type "Buffer[f64]"; expected "Owned[Array[f32]]"  [arg-type]
    f = scale[4]
    f(2.0, x, d)  # E: Argument 3 to "__call__" of "Launch" has incompatible type "Buffer[f64]"; expected "BorrowMut[Array[f32]] | ndarray[Any, Any]"  [arg-type]


def launch_results(img: Buffer[f32], x: Buffer[f32], y: Buffer[f32]) -> None:
    img = normalise[16](img, 0.0, 1.0)
    assert_type(img, Buffer[f32])
    fresh = normalise[16](go.zeros(16), 0.0, 1.0)
    assert_type(fresh, Buffer[f32])
    n = count[1](x, go.zeros(1, go.i32))
    assert_type(n, Buffer[i32])
    pair = take_two[4](x, y)
    assert_type(pair, tuple[Buffer[f32], Buffer[f32]])
    x2 = merge[4](pair[0], pair[1])
    assert_type(x2, Buffer[f32])
    nothing = scale[4](1.0, x2, img)
    assert_type(nothing, None)


def launch_result_misused(img: Buffer[f32]) -> None:
    out = normalise[16](img, 0.0, 1.0)
    out.numpy()
    out.no_such_method()  # E: "Buffer[f32]" has no attribute "no_such_method"  [attr-defined]
    count_out = count[1](out, go.zeros(1, go.i32))
    scale[4](1.0, count_out, out)  # E: Argument 2 to "scale" has incompatible type "Buffer[i32]"; expected "Borrow[Array[f32]] | ndarray[Any, Any]"  [arg-type]


def numpy_arguments(y: Buffer[f32]) -> None:
    a = np.ones(4, np.float32)
    scale[4](np.float32(2.0), a, y)
    consume[4](a, np.int32(3))  # E: Argument 1 to "consume" has incompatible type "ndarray[tuple[int], dtype[floating[_32Bit]]]"; expected "Owned[Array[f32]]"  [arg-type]


def scalar_arguments(x: Buffer[f32], y: Buffer[f32]) -> None:
    scale[4](2, x, y)
    scale[4](go.f32(2.0), x, y)
    scale[4]("two", x, y)  # E: Argument 1 to "scale" has incompatible type "str"; expected "float | floating[Any]"  [arg-type]
    scale[4](2.0, x)  # E: Missing positional argument "y" in call to "scale"  [call-arg]


def results_of_launches_without_owned(x: Buffer[f32], y: Buffer[f32]) -> None:
    out = scale[4](1.0, x, y)  # a launch without Owned parameters returns None
    out.numpy()  # E: "None" has no attribute "numpy"  [attr-defined]
    pair = take_two[4](x, y)
    pair.numpy()  # E: "tuple[Buffer[f32], Buffer[f32]]" has no attribute "numpy"  [attr-defined]
    first, second = pair
    assert_type(second, Buffer[f32])


def keyword_and_count_errors(x: Buffer[f32], y: Buffer[f32]) -> None:
    scale[4](2.0, x, z=y)  # E: Unexpected keyword argument "z" for "scale"  [call-arg]
    scale[4](2.0, x, y, y)  # E: Too many arguments for "scale"  [call-arg]
    consume[4](x, 1.5)  # E: Argument 2 to "consume" has incompatible type "float"; expected "int | integer[Any]"  [arg-type]
