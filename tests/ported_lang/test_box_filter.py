"""A box filter passing row and column views to device functions, ported from NVIDIA's
cuda-samples, on every device against the interpreter and NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i64
from tests.backends.agree import agree

NDArray = np.ndarray[Any, Any]

# Source: cuda-samples, Samples/2_Concepts_and_Techniques/boxFilter (boxFilter_kernel.cu):
# d_boxfilter_x / d_boxfilter_y filter one row (one column) with a running sum, clamping at the
# edges; the kernels pass &id[y * w] (a row) or &id[x] with a stride of w (a column). Here the
# kernels pass row views img[y, :] and column views img[:, x].


@go.func
def box_line(src: Borrow[Array[f32]], dst: BorrowMut[Array[f32]], r: i64) -> None:
    n = len(src)
    scale = 1.0 / float(2 * r + 1)
    t = src[0] * r
    for x in range(r + 1):
        t += src[x]
    dst[0] = t * scale
    for x in range(1, r + 1):  # the left edge: src[0] repeats
        t += src[x + r]
        t -= src[0]
        dst[x] = t * scale
    for x in range(r + 1, n - r):
        t += src[x + r]
        t -= src[x - r - 1]
        dst[x] = t * scale
    for x in range(n - r, n):  # the right edge: src[n - 1] repeats
        t += src[n - 1]
        t -= src[x - r - 1]
        dst[x] = t * scale


@go.kernel
def box_rows(dst: BorrowMut[Array[f32]], src: Borrow[Array[f32]], r: i64) -> None:
    y = go.global_id(0)
    box_line(src[y, :], dst[y, :], r)


@go.kernel
def box_columns(dst: BorrowMut[Array[f32]], src: Borrow[Array[f32]], r: i64) -> None:
    x = go.global_id(0)
    box_line(src[:, x], dst[:, x], r)


def _box_numpy(img: NDArray, r: int, axis: int) -> NDArray:
    pad = [(0, 0), (0, 0)]
    pad[axis] = (r, r)
    p = np.pad(img.astype(np.float64), pad, mode="edge")
    n = img.shape[axis]
    out = np.zeros(img.shape)
    for k in range(2 * r + 1):
        out += np.take(p, range(k, k + n), axis=axis)
    result: NDArray = out / (2 * r + 1)
    return result


def test_box_filter_over_row_and_column_views(device: str) -> None:
    img = np.random.default_rng(9).random((24, 40)).astype(np.float32)
    r = 3
    (tmp, _) = agree(box_rows, img.shape[0], np.zeros_like(img), img, np.int64(r),
                    rtol=1e-5, atol=1e-6)  # fmt: skip
    np.testing.assert_allclose(tmp, _box_numpy(img, r, 1), rtol=1e-5, atol=1e-6)
    (out, _) = agree(box_columns, img.shape[1], np.zeros_like(img), tmp, np.int64(r),
                    rtol=1e-5, atol=1e-6)  # fmt: skip
    np.testing.assert_allclose(out, _box_numpy(_box_numpy(img, r, 1), r, 0), rtol=1e-4,
                               atol=1e-5)  # fmt: skip
