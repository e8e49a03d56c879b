"""Array views inside kernels (issue 15, item 5): ``img[y]``, ``img[y, :]``, ``img[:, x]``,
``a[lo:hi]``, ``a[::2]`` and views of views, indexed, written, passed to device functions with
their ownership, bounds-checked against the view's own shape; on every device against the
interpreter and NumPy, and in PTX."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from codegen.nvptx import compile_ptx
from gpuoff import Array, Borrow, BorrowMut, CompileError, f32, i32, i64
from gpuoff.errors import BoundsError
from gpuoff.frontend import lower_kernel
from tests.backends.agree import agree, arg_types
from tests.backends.test_ptx import assemble

RNG = np.random.default_rng(5)
NDArray = np.ndarray[Any, Any]


@go.func
def dot(a: Borrow[Array[f32]], b: Borrow[Array[f32]]) -> f32:
    acc = f32(0.0)
    for k in range(len(a)):
        acc += a[k] * b[k]
    return acc


@go.func
def scale_into(dst: BorrowMut[Array[f32]], src: Borrow[Array[f32]], s: f32) -> None:
    for k in range(len(dst)):
        dst[k] = src[k] * s


@go.kernel
def rows(out: BorrowMut[Array[f32]], m: Borrow[Array[f32]], v: Borrow[Array[f32]]) -> None:
    """A matrix-vector product by rows, and a scaled copy of each row into out's row."""
    y = go.global_id(0)
    row = m[y, :]
    res = out[y, :]
    scale_into(res, row, 2.0)
    res[0] = dot(row, v)
    res[-1] += len(row) + row.shape[0]


def test_rows_are_views_passed_to_device_functions(device: str) -> None:
    m = RNG.random((12, 7)).astype(np.float32)
    v = RNG.random(7).astype(np.float32)
    out, _, _ = agree(rows, 12, np.zeros_like(m), m, v, rtol=1e-6)
    want = 2 * m
    want[:, 0] = m @ v
    want[:, -1] += 14
    np.testing.assert_allclose(out, want, rtol=1e-5)


@go.kernel
def short_rows(out: BorrowMut[Array[f32]], m: Borrow[Array[f32]]) -> None:
    """``m[y]`` of a 2-d ``m`` is its row (type checkers read it as an element)."""
    y = go.global_id(0)
    row = m[y]
    total = 0.0
    for k in range(len(row)):  # type: ignore[arg-type]
        total += row[k]  # type: ignore[index]
    out[y] = total


def test_fewer_indices_give_a_row(device: str) -> None:
    m = RNG.random((9, 5)).astype(np.float32)
    out, _ = agree(short_rows, 9, np.zeros(9, np.float32), m, rtol=1e-6)
    np.testing.assert_allclose(out, m.sum(1), rtol=1e-5)


@go.kernel
def windows(out: BorrowMut[Array[f32]], x: Borrow[Array[f32]], lo: i64, hi: i64) -> None:
    """Slices with run-time bounds (Python's clamping and negative bounds), steps, views of
    views, and a strided column."""
    i = go.global_id(0)
    if i == 0:
        w = x[lo:hi]
        out[0] = len(w)
        acc = 0.0
        for k in range(len(w)):
            acc += w[k]
        out[1] = acc
        evens = x[::2]
        out[2] = len(evens) + evens[1] + evens[-1]
        inner = w[1:-1]
        out[3] = len(inner) + (inner[0] if len(inner) > 0 else 0.0)
        tail = x[-3:]
        out[4] = tail[0] + tail[2]


def _windows_numpy(x: NDArray, lo: int, hi: int) -> NDArray:
    w = x[lo:hi]
    inner = w[1:-1]
    evens = x[::2]
    return np.array([len(w), w.sum(dtype=np.float64), len(evens) + evens[1] + evens[-1],
                     len(inner) + (inner[0] if len(inner) else 0.0), x[-3] + x[-1]],
                    np.float32)  # fmt: skip


@pytest.mark.parametrize(("lo", "hi"), [(2, 9), (-5, 100), (0, -1), (8, 3), (-100, 4)])
def test_slices_follow_python(device: str, lo: int, hi: int) -> None:
    x = RNG.random(16).astype(np.float32)
    out, _ = agree(windows, 1, np.zeros(5, np.float32), x, np.int64(lo), np.int64(hi),
                   rtol=1e-6)  # fmt: skip
    np.testing.assert_allclose(out, _windows_numpy(x, lo, hi), rtol=1e-5)


@go.func
def running_mean(dst: BorrowMut[Array[f32]], src: Borrow[Array[f32]]) -> None:
    acc = f32(0.0)
    for k in range(len(src)):
        acc += src[k]
        dst[k] = acc / (k + 1)


@go.kernel
def columns(out: BorrowMut[Array[f32]], img: Borrow[Array[f32]]) -> None:
    x = go.global_id(0)
    running_mean(out[:, x], img[:, x])


def test_columns_are_strided_views(device: str) -> None:
    img = RNG.random((10, 6)).astype(np.float32)
    out, _ = agree(columns, 6, np.zeros_like(img), img, rtol=1e-6)
    want = np.cumsum(img, 0) / np.arange(1, 11)[:, None]
    np.testing.assert_allclose(out, want, rtol=1e-5)


@go.kernel
def overrun(out: BorrowMut[Array[f32]], k: i64) -> None:
    w = out[2:6]
    w[k] = 1.0


def test_views_are_bounds_checked_against_their_own_shape(device: str) -> None:
    out = go.array(np.zeros(8, np.float32))
    overrun[1](out, 3)
    go.synchronize()
    assert out.numpy().tolist() == [0, 0, 0, 0, 0, 1, 0, 0]
    with pytest.raises(BoundsError, match="w\\[k\\] = 1.0"):
        overrun[1](out, 4)  # inside out, outside the view
        go.synchronize()
    assert out.numpy().tolist() == [0, 0, 0, 0, 0, 1, 0, 0]


@go.kernel
def atomics(hist: BorrowMut[Array[i32]], keys: Borrow[Array[i32]]) -> None:
    i = go.global_id(0)
    row = hist[i % 2, :]
    go.atomic_add(row, keys[i] % 4, 1)


def test_atomics_through_a_view(device: str) -> None:
    keys = RNG.integers(0, 100, 64).astype(np.int32)
    hist, _ = agree(atomics, 64, np.zeros((2, 4), np.int32), keys)
    for r in range(2):
        np.testing.assert_array_equal(hist[r], np.bincount(keys[r::2] % 4, minlength=4))


@go.kernel
def writes_borrow(out: BorrowMut[Array[f32]], x: Borrow[Array[f32]]) -> None:
    row = x[0, :]
    row[1] = 2.0  # type: ignore[gpuoff-borrow-write]


@go.kernel
def passes_borrow_as_mut(out: BorrowMut[Array[f32]], x: Borrow[Array[f32]]) -> None:
    scale_into(x[0, :], out[0, :], 2.0)  # type: ignore[arg-type]


@go.kernel
def view_as_number(out: BorrowMut[Array[f32]], x: Borrow[Array[f32]]) -> None:
    out[0, 0] = x[0, 1:] + 1.0  # type: ignore[operator]


@go.kernel
def view_step(out: BorrowMut[Array[f32]], x: Borrow[Array[f32]]) -> None:
    w = x[0, ::-1]
    out[0, 0] = w[0]


@go.kernel
def two_rows_of_one(out: BorrowMut[Array[f32]], x: Borrow[Array[f32]]) -> None:
    scale_into(out[0, :], out[1, :], 2.0)


@pytest.mark.parametrize(("kernel", "words"), [
    (writes_borrow, "cannot write to 'x'"),
    (two_rows_of_one, "argument 'dst' is passed as BorrowMut and also as 'src' (Borrow) to "
     "scale_into: a BorrowMut argument must not alias any other argument (the caller passes "
     "'out' to both)"),
    (passes_borrow_as_mut, "cannot pass 'x' (Borrow) to parameter 'dst'"),
    (view_as_number, "is a view (an array, not a number)"),
    (view_step, "a view's step must be a positive compile-time constant integer"),
])  # fmt: skip
def test_view_misuse_is_a_compile_error(kernel: Any, words: str) -> None:
    z = np.zeros((2, 2), np.float32)
    with pytest.raises(CompileError, match=words.replace("(", r"\(").replace(")", r"\)")):
        lower_kernel(kernel.pyfunc, arg_types(kernel, (z, z)))


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not on the PATH")
@pytest.mark.parametrize("sm", [80, 90])
def test_view_kernels_assemble_to_ptx(sm: int, tmp_path: Path) -> None:
    m2, v1 = np.zeros((4, 4), np.float32), np.zeros(4, np.float32)
    cases: list[tuple[Any, tuple[Any, ...]]] = [
        (rows, (m2, m2, v1)), (windows, (v1, v1, np.int64(0), np.int64(0))),
        (columns, (m2, m2)),
    ]  # fmt: skip
    for kernel, args in cases:
        module = lower_kernel(kernel.pyfunc, arg_types(kernel, args))
        assemble(compile_ptx(module, sm=sm).ptx, sm, tmp_path)
