"""The race sanitizer's IR rewrite (gpuoff.ir.sanitize) on the reference interpreter: it finds
the races the static check cannot see, names both work-items and both lines, finds none in
race-free kernels, and changes nothing else a kernel does."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32
from gpuoff.cli import lower_for_show
from gpuoff.ir import interp, sanitize
from gpuoff.ir import nodes as n
from gpuoff.ir.verify import verify


def line_of(kernel: Any, needle: str) -> int:
    lines, start = inspect.getsourcelines(kernel.pyfunc)
    return start + next(k for k, text in enumerate(lines) if needle in text)


@go.kernel
def scatter(x: Borrow[Array[f32]], perm: Borrow[Array[i32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        with go.unsafe():
            out[perm[i]] = x[i]


@go.kernel
def tree_missing_barrier(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    sh = go.shared(64, go.f32)
    lid = go.local_id(0)
    sh[lid] = x[go.global_id(0)]
    go.barrier()
    s = 32
    while s > 0:
        if lid < s:
            sh[lid] += sh[lid + s]
        s //= 2  # the barrier that belongs here is missing
    if lid == 0:
        out[go.group_id(0)] = sh[0]


@go.kernel
def tree(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    sh = go.shared(64, go.f32)
    lid = go.local_id(0)
    sh[lid] = x[go.global_id(0)]
    go.barrier()
    s = 32
    while s > 0:
        if lid < s:
            sh[lid] += sh[lid + s]
        go.barrier()
        s //= 2
    if lid == 0:
        out[go.group_id(0)] = sh[0]


@go.kernel
def shift_in_place(x: BorrowMut[Array[f32]]) -> None:
    # each item writes its own element but reads its neighbour's: a read-write race
    i = go.global_id(0)
    if i + 1 < x.shape[0]:
        x[i] = x[i + 1]


@go.kernel
def histogram_mixed(data: Borrow[Array[i32]], hist: BorrowMut[Array[i32]]) -> None:
    i = go.global_id(0)
    if i < data.shape[0]:
        go.atomic_add(hist, data[i], 1)
        with go.unsafe():
            if data[i] == 3:
                hist[3] = 0  # a plain store racing with the other items' atomics


@go.func
def put(out: BorrowMut[Array[f32]], k: int, v: f32) -> None:
    out[k] = v


@go.kernel
def scatter_through_function(x: Borrow[Array[f32]], idx: Borrow[Array[i32]],
                             out: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    i = go.global_id(0)
    if i < x.shape[0]:
        with go.unsafe():
            put(out, idx[i], x[i])


def test_a_data_dependent_scatter_race_names_both_work_items_and_the_element() -> None:
    m = lower_for_show(scatter, "f32[:], i32[:], f32[:]", None, None)
    x = np.arange(8, dtype=np.float32)
    perm = np.array([0, 1, 2, 3, 3, 5, 6, 7], np.int32)  # items 3 and 4 both write out[3]
    with pytest.raises(go.RaceError) as info:
        sanitize.run(m, [x, perm, np.zeros(8, np.float32)], 8)
    text = str(info.value)
    line = line_of(scatter, "out[perm[i]] = x[i]")
    assert f"work-item 3 writes out[3] at line {line} and work-item 4 writes it at line {line}" in (
        text)
    assert "found by the race sanitizer" in text and "^^^^^^^^^^^^" in text
    # a permutation: no race, and the kernel's result
    out = np.zeros(8, np.float32)
    sanitize.run(m, [x, np.array([7, 6, 5, 4, 3, 2, 1, 0], np.int32), out], 8)
    assert out.tolist() == x[::-1].tolist()


def test_a_missing_barrier_in_a_tree_reduction_is_a_read_write_race_in_shared_memory() -> None:
    m = lower_for_show(tree_missing_barrier, "f32[:], f32[:]", None, None)
    with pytest.raises(go.RaceError) as info:
        sanitize.run(m, [np.ones(128, np.float32), np.zeros(2, np.float32)], 128, 64)
    text = str(info.value)
    line = line_of(tree_missing_barrier, "sh[lid] += sh[lid + s]")
    assert "on shared array sh" in text
    assert f"work-item 0 reads sh[1] at line {line} and work-item 1 writes it at line {line}" in (
        text)
    assert "in one barrier interval of their group" in text
    assert "A go.barrier() between the two accesses orders them." in text
    # with the barrier: nothing found, the right sums
    out = np.zeros(2, np.float32)
    sanitize.run(lower_for_show(tree, "f32[:], f32[:]", None, None),
                 [np.ones(128, np.float32), out], 128, 64)  # fmt: skip
    assert out.tolist() == [64.0, 64.0]


def test_a_read_of_what_another_work_item_writes_is_a_race() -> None:
    m = lower_for_show(shift_in_place, "f32[:]", None, None)
    with pytest.raises(go.RaceError, match=r"work-item 0 reads x\[1\] at line \d+ and work-item "
                                           r"1 writes it at line \d+"):  # fmt: skip
        sanitize.run(m, [np.arange(8, dtype=np.float32)], 8)


def test_a_plain_store_racing_with_atomics() -> None:
    m = lower_for_show(histogram_mixed, "i32[:], i32[:]", None, None)
    data = np.array([1, 3, 3, 2], np.int32)
    with pytest.raises(go.RaceError, match=r"writes hist\[3\] at line \d+ and work-item 2 "
                                           r"updates it atomically"):  # fmt: skip
        sanitize.run(m, [data, np.zeros(4, np.int32)], 4)
    # atomics alone never conflict
    hist = np.zeros(4, np.int32)
    sanitize.run(m, [np.array([1, 2, 2, 0], np.int32), hist], 4)
    assert hist.tolist() == [1, 1, 2, 0]


def test_accesses_in_device_functions_are_recorded_with_the_callers_array() -> None:
    m = lower_for_show(scatter_through_function, "f32[:], i32[:], f32[:]", None, None)
    idx = np.array([2, 2, 0, 1], np.int32)
    with pytest.raises(go.RaceError, match=r"on array out: work-item 0 writes out\[2\] .* "
                                           r"work-item 1 writes it"):  # fmt: skip
        sanitize.run(m, [np.ones(4, np.float32), idx, np.zeros(4, np.float32)], 4)


def test_bounds_errors_are_still_reported_under_the_sanitizer() -> None:
    m = lower_for_show(scatter, "f32[:], i32[:], f32[:]", None, None)
    with pytest.raises(go.BoundsError, match="out"):
        sanitize.run(m, [np.ones(4, np.float32), np.array([0, 1, 2, 9], np.int32),
                         np.zeros(4, np.float32)], 4)  # fmt: skip


# --------------------------------------------------------------------------------------------
# Race-free kernels: the rewrite verifies, finds nothing, and computes what the kernel does
# --------------------------------------------------------------------------------------------


def _race_free_cases() -> list[tuple[Any, str, Any, Any]]:
    from tests.unit import test_ir_races_accepted as T

    rng = np.random.default_rng(3)

    def f(*s: int) -> np.ndarray[Any, Any]:
        return rng.random(s, np.float32)

    return [
        (T.copy_2d, "f32[:, :], f32[:, :]", lambda: [f(8, 8), np.zeros((8, 8), np.float32)],
         ((8, 8), None)),
        (T.transpose, "f32[:, :], f32[:, :]", lambda: [f(3, 5), np.zeros((5, 3), np.float32)],
         ((3, 5), None)),
        (T.odd_slots, "f32[:], f32[:]", lambda: [f(16), np.zeros(32, np.float32)], (16, None)),
        (T.grid_stride_while, "f32[:], f32[:]", lambda: [f(50), np.zeros(50, np.float32)],
         (16, None)),
        (T.tree_reduce, "f32[:], f32[:]", lambda: [f(512), np.zeros(2, np.float32)],
         (512, 256)),
        (T.tiles, "f32[:, :], f32[:, :]", lambda: [f(32, 32), np.zeros((32, 32), np.float32)],
         ((32, 32), (16, 16))),
        (T.histogram_atomic, "i32[:], i32[:]",
         lambda: [rng.integers(0, 8, 100, dtype=np.int32), np.zeros(8, np.int32)], (100, None)),
        (T.rows_by_function, "f32[:], f32[:, :]", lambda: [f(6), np.zeros((6, 5), np.float32)],
         (6, None)),
        (T.bitonic_shared, "f32[:]", lambda: [f(512)], (256, 128)),
        (T.single_writer, "f32[:], f32[:]", lambda: [f(9), np.zeros(9, np.float32)], (9, None)),
    ]  # fmt: skip


@pytest.mark.parametrize("index", range(10))
def test_race_free_kernels_pass_and_compute_the_same(index: int) -> None:
    kernel, sig, make, (grid, block) = _race_free_cases()[index]
    m = lower_for_show(kernel, sig, None, None)
    verify(sanitize.instrument(m).module)
    plain, checked = make(), None
    checked = [a.copy() for a in plain]
    interp.run(m, plain, grid, block)
    sanitize.run(m, checked, grid, block)
    for a, b in zip(plain, checked, strict=True):
        np.testing.assert_array_equal(a, b)


def test_short_circuits_and_conditional_expressions_keep_their_meaning() -> None:
    @go.kernel
    def guarded(x: BorrowMut[Array[f32]], n: i32) -> None:
        i = go.global_id(0)
        # x[i + 100] is out of range: evaluated only when i >= n (it is not), never recorded
        ok = i < n or x[i + 100] > 0.0
        v = x[i] if ok else x[i + 100]
        while i < n and x[i] > 100.0:
            i += 1
        x[min(i, n - 1)] = v * 2.0 if x[min(i, n - 1)] >= 0.0 else 0.0

    m = lower_for_show(guarded, "f32[:], i32", None, None)
    a = np.arange(8, dtype=np.float32)
    b = a.copy()
    interp.run(m, [a, 8], 8)
    sanitize.run(m, [b, 8], 8)  # no BoundsError, no race: the skipped operands did not run
    np.testing.assert_array_equal(a, b)


# --------------------------------------------------------------------------------------------
# Quiet reads: shared reads in barrier intervals without writes to their array are left out
# --------------------------------------------------------------------------------------------


@go.kernel
def tile_reads(a: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    # a tiled loop (as examples/sgemm_tiled.py): load, barrier, read, barrier
    tile = go.shared((8, 8), go.f32)
    ly = go.local_id(0)
    lx = go.local_id(1)
    acc = f32(0.0)
    for t in range(2):
        tile[ly, lx] = a[go.global_id(0), go.global_id(1)] + f32(t)
        go.barrier()
        for k in range(8):
            acc += tile[ly, k]  # quiet: no write to tile between these two barriers
        go.barrier()
    out[go.global_id(0), go.global_id(1)] = acc


@go.kernel
def read_beside_a_write(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    sh = go.shared(64, go.f32)
    lid = go.local_id(0)
    sh[lid] = x[go.global_id(0)]
    go.barrier()
    if lid == 0:
        sh[1] = 0.0  # the other arm of the if: the same interval as the read below
    else:
        out[go.global_id(0)] = sh[lid]


def _quiet_lines(kernel: Any, sig: str) -> list[int]:
    from gpuoff.ir.sanitize import _nodes
    from gpuoff.ir.sanitize_quiet import quiet_reads

    module = lower_for_show(kernel, sig, None, None)
    quiet = quiet_reads(module.kernel)
    return sorted({x.loc.line for x in _nodes(module.kernel.body)
                   if isinstance(x, n.Load) and id(x) in quiet and x.loc is not None})


def test_reads_between_barriers_without_writes_are_quiet_and_the_rest_are_not() -> None:
    assert _quiet_lines(tile_reads, "f32[:, :], f32[:, :]") == [
        line_of(tile_reads, "acc += tile[ly, k]")]
    assert _quiet_lines(read_beside_a_write, "f32[:], f32[:]") == []
    # the tree reduction reads what its own interval writes, and its last read shares the
    # interval after the loop's barrier with the next iteration's writes (one label per barrier)
    assert _quiet_lines(tree, "f32[:], f32[:]") == []
    assert _quiet_lines(tree_missing_barrier, "f32[:], f32[:]") == []


def test_a_race_beside_quiet_reads_is_still_found() -> None:
    module = lower_for_show(read_beside_a_write, "f32[:], f32[:]", None, None)
    x = np.ones(64, np.float32)
    with pytest.raises(go.RaceError, match=r"sh\[1\]"):
        sanitize.run(module, [x, np.zeros(64, np.float32)], 64, 64)
    tiles = lower_for_show(tile_reads, "f32[:, :], f32[:, :]", None, None)
    a, out = np.ones((8, 8), np.float32), np.zeros((8, 8), np.float32)
    sanitize.run(tiles, [a, out], (8, 8), (8, 8))
    assert out.tolist() == [[8.0 + 8.0 * 2.0] * 8] * 8
