"""The static race check (gpuoff.ir.races): racy kernels are refused at the store with the
colliding work-items named (the provable patterns it accepts: test_ir_races_accepted)."""

from __future__ import annotations

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32
from tests.unit.race_support import line_of, verdict

# --------------------------------------------------------------------------------------------
# Racy kernels: refused at the right line, naming the work-items
# --------------------------------------------------------------------------------------------


@go.kernel
def all_to_zero(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    out[0] = x[i]


@go.kernel
def halves(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        out[i // 2] = x[i]


@go.kernel
def histogram_plain(x: Borrow[Array[i32]], hist: BorrowMut[Array[i32]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        hist[x[i]] += 1


@go.kernel
def saxpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


@go.kernel
def shifted_pair(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i + 1 < out.shape[0]:
        out[i] = x[i]
        out[i + 1] = x[i]


@go.kernel
def loop_not_owned(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    for k in range(out.shape[0]):
        out[k] = x[i]


@go.kernel
def modulo(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    out[i % 4] = x[i]


@go.kernel
def store_and_atomic(x: Borrow[Array[i32]], out: BorrowMut[Array[i32]]) -> None:
    i = go.global_id(0)
    if i < out.shape[0]:
        out[i] = 0
        go.atomic_add(out, x[i], 1)


@go.kernel
def shared_no_guard(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    sh = go.shared(64, go.f32)
    sh[0] = x[go.global_id(0)]
    go.barrier()
    if go.local_id(0) == 0:
        out[go.group_id(0)] = sh[0]


@go.kernel
def shared_overlap(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    sh = go.shared(65, go.f32)
    lid = go.local_id(0)
    sh[lid] = x[go.global_id(0)]
    sh[lid + 1] = 0.0
    go.barrier()
    out[go.global_id(0)] = sh[lid]


@go.kernel
def row_writer_wrong(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    j = go.global_id(1)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, 0] = x[i, j]


def test_every_work_item_writing_one_element_is_refused_at_the_store() -> None:
    r = verdict(all_to_zero, "f32[:], f32[:]", (64,), x=None)
    assert r is not None
    assert r.line == line_of(all_to_zero, "out[0] = x[i]")
    assert r.col == 4 and r.end_col == 10  # the caret covers out[0]
    assert "out[0] does not depend on i = go.global_id(0)" in r.message
    assert "work-items 0 and 1 both write out[0]" in r.message


def test_a_many_to_one_index_names_a_colliding_pair() -> None:
    r = verdict(halves, "f32[:], f32[:]", (16,), x=go.zeros(16))
    assert r is not None and r.line == line_of(halves, "out[i // 2]")
    assert "out[i // 2] is not one-to-one in i = go.global_id(0)" in r.message
    assert "work-items 0 and 1 both write out[0]" in r.message


def test_a_histogram_without_atomics_is_refused() -> None:
    r = verdict(histogram_plain, "i32[:], i32[:]", (256,))
    assert r is not None and r.line == line_of(histogram_plain, "hist[x[i]] += 1")
    assert "hist[x[i]] is computed from a value read from x" in r.message
    assert "go.atomic_add" in r.hint and "go.unsafe()" in r.hint


def test_the_numba_habit_launch_is_refused_saying_what_the_launch_meant() -> None:
    n_items = 1000
    grid = ((n_items + 255) // 256, 256)  # what k[(n + 255) // 256, 256] gives gpuoff
    y = go.zeros(n_items)
    r = verdict(saxpy, "f32, f32[:], f32[:]", grid, a=2.0, x=y, y=y)
    assert r is not None and r.line == line_of(saxpy, "y[i] = a * x[i] + y[i]")
    assert "y[i] does not depend on go.global_id(1)" in r.message
    assert "work-items (i, j) and (i, j') write the same element" in r.message
    assert "work-items (0, 0) and (0, 1) both write y[0]" in r.message
    assert "saxpy[4, 256], is a 2-D grid of 4 x 256 work-items" in r.hint
    assert "not Numba's [blocks, threads]" in r.hint and "saxpy[1024, (256,)]" in r.hint
    # the same kernel launched as meant is fine
    assert verdict(saxpy, "f32, f32[:], f32[:]", (1024,), (256,)) is None
    assert verdict(saxpy, "f32, f32[:], f32[:]", (1000,)) is None


def test_two_stores_reaching_one_element_name_both_lines() -> None:
    r = verdict(shifted_pair, "f32[:], f32[:]", (8,), x=go.zeros(8), out=go.zeros(8))
    assert r is not None and r.line == line_of(shifted_pair, "out[i + 1] = x[i]")
    first = line_of(shifted_pair, "out[i] = x[i]")
    assert f"out[i + 1] here and out[i] at line {first} (two stores)" in r.message
    assert f"work-item 1 writes out[1] at line {first} and work-item 0 writes it here" in (
        r.message
    )


def test_a_loop_over_elements_no_work_item_owns_is_refused() -> None:
    r = verdict(loop_not_owned, "f32[:], f32[:]", (32,), out=go.zeros(4))
    assert r is not None and r.line == line_of(loop_not_owned, "out[k] = x[i]")
    assert "work-items 0 and 1 both write out[0]" in r.message


def test_modulo_by_a_constant_collides() -> None:
    r = verdict(modulo, "f32[:], f32[:]", (16,))
    assert r is not None and "work-items 0 and 4 both write out[0]" in r.message


def test_an_atomic_and_a_plain_store_on_one_array_conflict() -> None:
    r = verdict(store_and_atomic, "i32[:], i32[:]", (16,))
    assert r is not None
    assert "(an atomic and a plain store)" in r.message
    assert r.line == line_of(store_and_atomic, "go.atomic_add(out, x[i], 1)")


@go.kernel
def every_atomic_on_one_element(x: Borrow[Array[go.u32]], out: BorrowMut[Array[go.u32]],
                                 locks: BorrowMut[Array[go.i64]]) -> None:  # fmt: skip
    # every CUDA atomic, all work-items on element 0: atomics never race with each other
    i = go.global_id(0)
    v = x[i]
    go.atomic_add(out, 0, v)
    go.atomic_sub(out, 0, v)
    go.atomic_exch(out, 0, v)
    go.atomic_and(out, 0, v)
    go.atomic_or(out, 0, v)
    go.atomic_xor(out, 0, v)
    go.atomic_min(out, 0, v)
    go.atomic_max(out, 0, v)
    go.atomic_inc(out, 0, v)
    go.atomic_dec(out, 0, v)
    go.atomic_cas(locks, 0, go.i64(0), go.i64(i))


@go.kernel
def cas_then_store(x: Borrow[Array[go.i16]], out: BorrowMut[Array[go.i64]]) -> None:
    i = go.global_id(0)
    if i < out.shape[0]:
        go.atomic_cas(out, go.i64(x[i]), go.i64(0), go.i64(1))
        out[i] = go.i64(x[i])


def test_every_atomic_is_race_free_and_a_cas_still_conflicts_with_a_plain_store() -> None:
    assert verdict(every_atomic_on_one_element, "u32[:], u32[:], i64[:]", (64,)) is None
    assert verdict(every_atomic_on_one_element, "u32[:], u32[:], i64[:]", (64,), (8,)) is None
    r = verdict(cas_then_store, "i16[:], i64[:]", (16,))
    assert r is not None and "(an atomic and a plain store)" in r.message
    assert r.line == line_of(cas_then_store, "out[i] = go.i64(x[i])")


@go.kernel
def narrow_widths(x: Borrow[Array[go.i8]], out: BorrowMut[Array[go.u16]]) -> None:
    i = go.global_id(0)
    if i < out.shape[0]:
        out[go.u64(i)] = go.u16(x[i])  # an index cast to another width names the same element


@go.kernel
def wrapped_index(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    out[go.u8(i)] = x[i]  # work-items 0 and 256 both write out[0]


@go.kernel
def interleave_bits(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    out[(i << 1) | 1] = x[i]  # odd slots, as bit operations (each work-item its own)
    out[(i << 1) ^ 0] = -x[i]


@go.kernel
def or_that_collides(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    out[i | 1] = x[i]  # work-items 0 and 1 both write out[1]


def test_a_constant_or_into_clear_low_bits_is_an_add() -> None:
    assert verdict(interleave_bits, "f32[:], f32[:]", (64,)) is None
    r = verdict(or_that_collides, "f32[:], f32[:]", (64,))
    assert r is not None and "computed from the result of |" in r.message


def test_indices_of_every_integer_width_are_proven_and_narrow_ones_may_wrap() -> None:
    assert verdict(narrow_widths, "i8[:], u16[:]", (64,)) is None
    r = verdict(wrapped_index, "f32[:], f32[:]", (512,))
    assert r is not None and r.line == line_of(wrapped_index, "out[go.u8(i)] = x[i]")
    assert "u8" in r.message, r.message


def test_shared_memory_written_by_every_work_item_of_a_group() -> None:
    r = verdict(shared_no_guard, "f32[:], f32[:]", (256,), (64,))
    assert r is not None and r.line == line_of(shared_no_guard, "sh[0] = x[")
    assert "shared array sh" in r.message
    assert "so all work-items of one group write the same element" in r.message


def test_shared_memory_overlap_within_one_interval_and_not_across_a_barrier() -> None:
    r = verdict(shared_overlap, "f32[:], f32[:]", (128,), (64,))
    assert r is not None and r.line == line_of(shared_overlap, "sh[lid + 1] = 0.0")
    assert "in one barrier interval (no go.barrier() between them)" in r.message


def test_a_2d_kernel_whose_index_drops_a_dimension() -> None:
    r = verdict(row_writer_wrong, "f32[:, :], f32[:, :]", (4, 8))
    assert r is not None and r.line == line_of(row_writer_wrong, "out[i, 0] = x[i, j]")
    assert "does not depend on j = go.global_id(1)" in r.message
