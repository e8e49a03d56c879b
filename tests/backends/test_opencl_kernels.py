"""Whole kernels on opencl:0 (PoCL): control flow, device functions, strided views, shared
memory, barriers, atomics, bounds errors and grids; each against the interpreter (and NumPy)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import gpuoff as go
from codegen.opencl import EXACT_GRID_OPTION
from gpuoff import Array, Borrow, BorrowMut, f32, f64, i32, i64
from gpuoff.ir import types as t
from gpuoff.ownership import Access
from tests.backends.test_opencl_support import (
    View,
    arg_type,
    has_opencl,
    lower,
    run_both,
    run_device,
)

pytestmark = pytest.mark.skipif(not has_opencl(), reason="no OpenCL device")
MUT = Access.BORROW_MUT


def control(n: i64, out: BorrowMut[Array[i64]]) -> None:
    i = go.global_id(0)
    if i >= out.shape[0]:
        return
    total = 0
    for k in range(n, -1, -3):  # negative step
        if k % 2 == 0:
            continue
        total += k
    k_after = 0
    for k_after in range(i, 2 * i, 2):  # noqa: B007 - its value after the loop is the test
        pass
    steps = 0
    j = i
    while True:
        if j <= 1:
            break
        j = j // 2 if j % 2 == 0 else 3 * j + 1
        steps += 1
    flag = i > 3 and (i % 3 == 0 or i == 5)
    out[i] = total * 1000000 + steps * 1000 + k_after * 10 + (1 if flag else 0)


def test_control_flow() -> None:
    out = np.zeros(40, np.int64)
    m = lower(control, [t.i64, arg_type(out, MUT)])
    run_both(m, [11, out], (40,))
    # i = 5: odd k in range(11, -1, -3) sum to 16; Collatz 5 takes 5 steps; the last k of
    # range(5, 10, 2) is 9; 5 > 3 and 5 == 5.
    assert out[5] == 16 * 1000000 + 5 * 1000 + 9 * 10 + 1
    assert out[0] == 16 * 1000000  # empty range leaves k_after at 0


@go.func
def weight(x: Borrow[Array[f64]], r: int, c: int) -> float:
    if r < 0 or c < 0:
        return 0.0
    return x[r, c] * 0.5


def rowsum(x: Borrow[Array[f64]], out: BorrowMut[Array[f64]]) -> None:
    r = go.global_id(0)
    if r < out.shape[0]:
        acc = 0.0
        for c in range(x.shape[1]):
            acc += weight(x, r, c) + weight(x, r - 1, c)
        out[r] = acc


def test_device_function_on_a_strided_view() -> None:
    base = np.arange(12 * 10, dtype=np.float64).reshape(12, 10)
    x = View(base, base[::2, 1::3])  # 6 x 3, non-contiguous, offset 1
    out = np.zeros(6, np.float64)
    m = lower(rowsum, [arg_type(x, None), arg_type(out, MUT)])
    assert not m.kernel.params[0].type.contiguous  # type: ignore[union-attr,unused-ignore]
    run_both(m, [x, out], (6,))
    v = x.view
    want = 0.5 * v.sum(axis=1) + 0.5 * np.concatenate([[0.0], v.sum(axis=1)[:-1]])
    np.testing.assert_allclose(out, want)


def block_sum(x: Borrow[Array[f32]], partial: BorrowMut[Array[f32]],
              total: BorrowMut[Array[f32]], hist: BorrowMut[Array[i32]],
              lo: BorrowMut[Array[i32]]) -> None:  # fmt: skip
    tile = go.shared(64, f32)
    lid = go.local_id(0)
    i = go.global_id(0)
    tile[lid] = x[i]
    go.barrier()
    s = go.local_size(0) // 2
    while s > 0:
        if lid < s:
            tile[lid] = tile[lid] + tile[lid + s]
        go.barrier()
        s = s // 2
    if lid == 0:
        partial[go.group_id(0)] = tile[0]
        go.atomic_add(total, 0, tile[0])
    go.atomic_add(hist, go.i32(x[i]) % 8, 1)
    go.atomic_min(lo, 0, go.i32(x[i]))
    go.atomic_max(lo, 1, go.i32(x[i]))


def test_shared_memory_barriers_and_atomics() -> None:
    x = np.random.default_rng(5).integers(0, 100, 64 * 6).astype(np.float32)
    partial = np.zeros(6, np.float32)
    total = np.zeros(1, np.float32)
    hist = np.zeros(8, np.int32)
    lo = np.array([1000, -1000], np.int32)
    args = [x, partial, total, hist, lo]
    m = lower(block_sum, [arg_type(x, None)] + [arg_type(a, MUT) for a in args[1:]])
    # Atomic float adds run in any order: compare with a tolerance (these sums are exact).
    run_both(m, args, (x.size,), (64,), rtol=1e-6)
    np.testing.assert_array_equal(partial, x.reshape(6, 64).sum(axis=1))
    assert total[0] == x.sum()
    np.testing.assert_array_equal(hist, np.bincount(x.astype(np.int32) % 8, minlength=8))
    assert (lo[0], lo[1]) == (x.min(), x.max())


def fmin_atomic(vals: Borrow[Array[f64]], out: BorrowMut[Array[f64]]) -> None:
    i = go.global_id(0)
    if i < vals.shape[0]:
        go.atomic_min(out, 0, vals[i])
        go.atomic_max(out, 1, vals[i])
        go.atomic_add(out, 2, vals[i])


def test_float64_atomics() -> None:
    vals = np.linspace(-3.0, 5.0, 101)
    out = np.array([math.inf, -math.inf, 0.0])
    m = lower(fmin_atomic, [arg_type(vals, None), arg_type(out, MUT)])
    run_both(m, [vals, out], (vals.size,), rtol=1e-12)
    assert (out[0], out[1]) == (-3.0, 5.0)


def count_items(hits: BorrowMut[Array[i32]]) -> None:
    i = go.global_id(0)
    j = go.global_id(1)
    k = go.global_id(2)
    nx = go.global_size(0)
    ny = go.global_size(1)
    go.atomic_add(hits, (k * ny + j) * nx + i, 1)


@pytest.mark.parametrize(("grid", "block"), [
    ((1000,), None), ((997,), None), ((13, 7, 3), None), ((96, 4), (32, 2)),
])  # fmt: skip
def test_work_items_run_over_exactly_the_grid(grid: tuple[int, ...],
                                              block: tuple[int, ...] | None) -> None:  # fmt: skip
    hits = np.zeros(int(np.prod(grid)) + 64, np.int32)  # room past the end shows overruns
    m = lower(count_items, [arg_type(hits, MUT)], boundscheck=False)
    run_both(m, [hits], grid, block)
    np.testing.assert_array_equal(hits[: np.prod(grid)], 1)
    assert not hits[np.prod(grid) :].any()


@pytest.mark.parametrize(("grid", "block"), [((50, 5, 3), (16, 4, 2)), ((64, 1, 1), (64, 2, 2))])
def test_a_block_that_does_not_divide_the_grid_runs_each_item_once(
    grid: tuple[int, ...], block: tuple[int, ...]
) -> None:
    # The device rounds the global size up to whole work-groups in every dimension; the
    # kernel's guard must stop the extra items in dims 1 and 2 as well as dim 0 (a kernel that
    # never reads global_id(1) would otherwise repeat its work). The interpreter refuses such
    # a block, so this runs on the device alone.
    hits = np.zeros(int(np.prod(grid)) + 64, np.int32)
    m = lower(count_items, [arg_type(hits, MUT)], boundscheck=False)
    run_device(m, [hits], grid, block)
    np.testing.assert_array_equal(hits[: np.prod(grid)], 1)
    assert not hits[np.prod(grid) :].any()


@pytest.mark.parametrize(
    ("grid", "block"), [((1024,), None), ((64, 3, 2), None), ((96, 4), (32, 2))]
)
def test_the_exact_grid_build_runs_each_item_once_on_exact_launches(
    grid: tuple[int, ...], block: tuple[int, ...] | None
) -> None:
    # Global size == grid (no rounding: a multiple of 64, or a dividing block): the program
    # built without the guard covers the grid exactly.
    hits = np.zeros(int(np.prod(grid)) + 64, np.int32)
    m = lower(count_items, [arg_type(hits, MUT)], boundscheck=False)
    run_device(m, [hits], grid, block, options=(EXACT_GRID_OPTION,))
    np.testing.assert_array_equal(hits[: np.prod(grid)], 1)
    assert not hits[np.prod(grid) :].any()


def test_the_exact_grid_build_has_no_guard_for_rounded_launches() -> None:
    # What the option changes: launched over 1000 items in groups of 64, the plain build stops
    # items 1000..1023 and the exact-grid build does not (so the runtime may use it only when
    # nothing is rounded). The overrun lands in the padding of ``hits``.
    for options, overrun in (((), 0), ((EXACT_GRID_OPTION,), 24)):
        hits = np.zeros(1000 + 64, np.int32)
        m = lower(count_items, [arg_type(hits, MUT)], boundscheck=False)
        run_device(m, [hits], (1000,), (64,), options=options)
        np.testing.assert_array_equal(hits[:1000], 1)
        assert int(hits[1000:].sum()) == overrun


def flags_kernel(on: go.boolean, src: Borrow[Array[go.boolean]],
                 dst: BorrowMut[Array[go.boolean]]) -> None:  # fmt: skip
    i = go.global_id(0)
    if i < dst.shape[0]:
        dst[i] = (src[i] != on) or (i == 0)


def test_bool_scalars_and_arrays() -> None:
    src = np.array([True, False, True, True, False])
    dst = np.zeros(5, np.bool_)
    m = lower(flags_kernel, [t.boolean, arg_type(src, None), arg_type(dst, MUT)])
    run_both(m, [True, src, dst], (5,))
    np.testing.assert_array_equal(dst, [True, True, False, False, True])


def saxpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    y[i] = a * x[i] + y[i]


def test_bounds_error_from_the_device() -> None:
    # One failing work-item (which of several fails first is up to the device).
    x = np.arange(11, dtype=np.float32)
    y = np.ones(12, np.float32)
    m = lower(saxpy, [t.f32, arg_type(x, None), arg_type(y, MUT)])
    message = run_both(m, [2.0, x, y], (12,))
    assert message is not None
    assert message.startswith("index (11,) out of range for x with shape (11,) in kernel saxpy")
    assert message.splitlines()[0].endswith("y[i] = a * x[i] + y[i]")  # then the caret block
    # The in-range work-items still ran; the failing one did not touch y.
    np.testing.assert_array_equal(y, np.append(2 * x + 1, 1))
    # A clean launch of the same program afterwards raises nothing (records are per launch).
    assert run_both(m, [2.0, x, y[:11].copy()], (11,)) is None


def stencil_at(src: Borrow[Array[f32]], dst: BorrowMut[Array[f32]], dr: i64) -> None:
    i = go.global_id(0)
    j = go.global_id(1)
    dst[i, j] = src[i + dr, j] + src[i, weight_index(j)]


@go.func
def weight_index(j: int) -> int:
    return j + 1


def test_bounds_error_reports_two_dimensions() -> None:
    src = np.ones((4, 5), np.float32)
    dst = np.zeros((4, 5), np.float32)
    m = lower(stencil_at, [arg_type(src, None), arg_type(dst, MUT), t.i64])
    message = run_both(m, [src, dst, 0], (1, 5))  # only (0, 4) reads past the end
    assert message is not None
    assert message.startswith("index (0, 5) out of range for src with shape (4, 5)")


@go.func
def put(tile: BorrowMut[Array[f32]], k: int, v: float) -> None:
    tile[k] = v


def reverse_in_groups(out: BorrowMut[Array[f32]]) -> None:
    tile = go.shared(8, f32)
    lid = go.local_id(0)
    put(tile, lid, go.f32(go.global_id(0)) * 2.0)
    go.barrier()
    out[go.global_id(0)] = tile[7 - lid]


def test_shared_array_passed_to_a_device_function() -> None:
    out = np.zeros(16, np.float32)
    m = lower(reverse_in_groups, [arg_type(out, MUT)])
    run_both(m, [out], (16,), (8,))
    np.testing.assert_array_equal(out, 2.0 * np.r_[7:-1:-1, 15:7:-1])
