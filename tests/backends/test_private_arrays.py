"""Private per-work-item arrays (issue 15, item 3): ``go.local_array(shape, dtype)``,
``[x] * N`` and ``[a, b, c]``, indexed with run-time indices, passed to device functions,
kept across barriers, bounds-checked; on every device against the interpreter and NumPy, and
in PTX (ptxas sm_80/sm_90: in registers where every index is a constant)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from codegen.nvptx import compile_ptx
from gpuoff import Array, Borrow, BorrowMut, f32, i32, i64
from gpuoff.errors import BoundsError
from gpuoff.frontend import lower_kernel
from tests.backends.agree import agree, arg_types
from tests.backends.test_ptx import assemble

RNG = np.random.default_rng(3)
WINDOW = 9


@go.func
def insertion_sort(v: BorrowMut[Array[f32]], n: i64) -> None:
    for k in range(1, n):
        key = v[k]
        j = k - 1
        while j >= 0 and v[j] > key:
            v[j + 1] = v[j]
            j -= 1
        v[j + 1] = key


@go.kernel
def median(out: BorrowMut[Array[f32]], x: Borrow[Array[f32]]) -> None:
    """A 1-D median filter: each work-item sorts its window in a private array."""
    i = go.global_id(0)
    n = len(x)
    window = go.local_array(WINDOW, go.f32)  # (a type checker sees [0.0] * N as a list)
    for k in range(WINDOW):
        window[k] = x[min(max(i + k - WINDOW // 2, 0), n - 1)]
    insertion_sort(window, WINDOW)
    out[i] = window[WINDOW // 2]


def test_median_filter_sorts_a_private_window(device: str) -> None:
    n = 100
    x = RNG.standard_normal(n).astype(np.float32)
    out, _ = agree(median, n, np.zeros(n, np.float32), x)
    padded = np.pad(x, WINDOW // 2, mode="edge")
    want = np.median(np.lib.stride_tricks.sliding_window_view(padded, WINDOW), axis=1)
    np.testing.assert_array_equal(out, want.astype(np.float32))


@go.kernel
def matrices(out: BorrowMut[Array[f32]], a: Borrow[Array[f32]]) -> None:
    """3x3 matrix square per work-item (go.local_array with a tuple shape), a list literal
    and an integer list whose dtype comes from what it holds."""
    i = go.global_id(0)
    m = go.local_array((3, 3), go.f32)
    sq = go.local_array((3, 3), dtype=go.f32)
    for r in range(3):
        for c in range(3):
            m[r, c] = a[i, r * 3 + c]
    for r in range(3):
        for c in range(3):
            acc = 0.0
            for k in range(3):
                acc += m[r, k] * m[k, c]
            sq[r, c] = acc
    diag = [sq[0, 0], sq[1, 1], sq[2, 2]]
    counts = [0] * 3
    for k in range(3):
        if diag[k] > 1.0:
            counts[k] += 1
    for k in range(9):
        out[i, k] = sq[k // 3, k % 3]
    out[i, 9] = diag[0] + diag[1] + diag[2] + counts[0] + counts[1] * 10 + counts[2] * 100


def test_two_dimensional_and_literal_private_arrays(device: str) -> None:
    n = 32
    a = RNG.uniform(-1, 1, (n, 9)).astype(np.float32)
    out, _ = agree(matrices, n, np.zeros((n, 10), np.float32), a, rtol=1e-5, atol=1e-6)
    m = a.reshape(n, 3, 3)
    sq = m @ m
    np.testing.assert_allclose(out[:, :9], sq.reshape(n, 9), rtol=1e-5, atol=1e-6)
    d = np.diagonal(sq, axis1=1, axis2=2)
    np.testing.assert_allclose(out[:, 9], d.sum(1) + (d > 1) @ np.array([1, 10, 100]),
                               rtol=1e-5, atol=1e-5)  # fmt: skip


@go.kernel
def fresh(out: BorrowMut[Array[i32]], x: Borrow[Array[i32]]) -> None:
    """A declaration inside a loop starts afresh each time (Python makes a new list)."""
    i = go.global_id(0)
    total = 0
    for rep in range(3):
        hist = [0] * 4
        for k in range(x.shape[1]):
            hist[x[i, k] % 4] += rep + 1
        total += hist[0] * 1000 + hist[1] * 100 + hist[2] * 10 + hist[3]
    out[i] = total


def test_private_arrays_start_afresh(device: str) -> None:
    n = 20
    x = RNG.integers(0, 100, (n, 5)).astype(np.int32)
    out, _ = agree(fresh, n, np.zeros(n, np.int32), x)
    h = np.stack([(x % 4 == v).sum(1) for v in range(4)], 1)
    want = (h @ np.array([1000, 100, 10, 1])) * (1 + 2 + 3)
    np.testing.assert_array_equal(out, want)


@go.kernel
def across_barrier(out: BorrowMut[Array[f32]], x: Borrow[Array[f32]]) -> None:
    """Private arrays survive barriers (the CPU keeps one per item of the group)."""
    i = go.global_id(0)
    lid = go.local_id(0)
    tile = go.shared(64, go.f32)
    mine = go.local_array(4, go.f32)
    for k in range(4):
        mine[k] = x[i] * (k + 1)
    tile[lid] = x[i]
    go.barrier()
    left = tile[(lid + 63) % 64]
    go.barrier()
    tile[lid] = mine[3] + left
    go.barrier()
    out[i] = tile[(lid + 1) % 64] + mine[0] + mine[lid % 4]


def test_private_arrays_survive_barriers(device: str) -> None:
    n = 256
    x = RNG.random(n).astype(np.float32)
    out, _ = agree(across_barrier, n, np.zeros(n, np.float32), x, block=(64,), rtol=1e-6)
    g = x.reshape(-1, 64)
    left = np.roll(g, 1, axis=1)
    t = 4 * g + left
    lid = np.arange(64)
    want = np.roll(t, -1, axis=1) + g + g * (lid % 4 + 1)
    np.testing.assert_allclose(out, want.reshape(-1), rtol=1e-6)


@go.kernel
def overrun(out: BorrowMut[Array[f32]], k: i64) -> None:
    i = go.global_id(0)
    buf = [1.0] * 4
    buf[k] = 2.0
    out[i] = buf[k % 4]


def test_private_arrays_are_bounds_checked(device: str) -> None:
    out = go.array(np.zeros(8, np.float32))
    overrun[8](out, 3)
    go.synchronize()
    assert out.numpy().tolist() == [2.0] * 8
    with pytest.raises(BoundsError, match=r"buf with shape \(4,\)") as info:
        overrun[8](out, 4)
        go.synchronize()
    assert "buf[k] = 2.0" in str(info.value)


def _ptx_args(kernel: Any) -> tuple[Any, ...]:
    n = 8
    table = {
        median: (np.zeros(n, np.float32), np.zeros(n, np.float32)),
        matrices: (np.zeros((n, 10), np.float32), np.zeros((n, 9), np.float32)),
        fresh: (np.zeros(n, np.int32), np.zeros((n, 5), np.int32)),
        across_barrier: (np.zeros(n, np.float32), np.zeros(n, np.float32)),
    }
    return table[kernel]


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not on the PATH")
@pytest.mark.parametrize("sm", [80, 90])
def test_private_array_kernels_assemble_to_ptx(sm: int, tmp_path: Path) -> None:
    for kernel in (median, matrices, fresh, across_barrier):
        module = lower_kernel(kernel.pyfunc, arg_types(kernel, _ptx_args(kernel)))
        info = assemble(compile_ptx(module, sm=sm).ptx, sm, tmp_path)
        if kernel is matrices:  # every index a constant once unrolled: all in registers
            assert "0 bytes stack frame" in info, info
