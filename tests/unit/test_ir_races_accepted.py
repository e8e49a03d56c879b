"""The static race check (gpuoff.ir.races): every provable pattern is accepted, for every
launch shape, and conditions on the launch's values decide where they must."""

from __future__ import annotations

from typing import Any

import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32
from gpuoff.cli import lower_for_show
from gpuoff.ir import nodes as n
from gpuoff.ir.races import LaunchShape
from tests.unit.race_support import verdict

# --------------------------------------------------------------------------------------------
# Provable patterns: accepted under every launch shape
# --------------------------------------------------------------------------------------------


@go.kernel
def copy_2d(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    j = go.global_id(1)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = x[i, j]


@go.kernel
def transpose(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    j = go.global_id(1)
    if i < x.shape[0] and j < x.shape[1]:
        out[j, i] = x[i, j]


@go.kernel
def odd_slots(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    out[2 * i + 1] = x[i]
    out[2 * i] = -x[i]


@go.kernel
def flat_guarded(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]], w: i32) -> None:
    i = go.global_id(0)
    j = go.global_id(1)
    if j < w:
        out[i * w + j] = x[i * w + j]


@go.kernel
def flat_by_grid(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    j = go.global_id(1)
    w = go.global_size(1)
    out[i * w + j] = x[i * w + j]


@go.kernel
def one_per_group(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    if go.local_id(0) == 0:
        out[go.group_id(0)] = x[go.global_id(0)]


@go.kernel
def row_loop(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < out.shape[0]:
        for k in range(out.shape[1]):
            out[i, k] = x[i, k] * 2.0


@go.kernel
def flat_row_loop(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]], m: i32) -> None:
    i = go.global_id(0)
    for k in range(m):
        out[i * m + k] = x[i]


@go.kernel
def grid_stride_for(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    for k in range(go.global_id(0), out.shape[0], go.global_size(0)):
        out[k] = x[k] + 1.0


@go.kernel
def grid_stride_while(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    k = go.global_id(0)
    while k < out.shape[0]:
        out[k] = x[k] + 1.0
        k += go.global_size(0)


@go.kernel
def single_writer(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i == 0:
        out[0] = x[0]
    if i < out.shape[0] - 1:
        out[i + 1] = x[i]


@go.kernel
def tree_reduce(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    sh = go.shared(256, go.f32)
    lid = go.local_id(0)
    i = go.global_id(0)
    sh[lid] = x[i] if i < x.shape[0] else 0.0
    go.barrier()
    s = 128
    while s > 0:
        if lid < s:
            sh[lid] += sh[lid + s]
        go.barrier()
        s //= 2
    if lid == 0:
        out[go.group_id(0)] = sh[0]


@go.kernel
def tiles(a: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    tile = go.shared((16, 17), go.f32)
    lx = go.local_id(0)
    ly = go.local_id(1)
    i = go.global_id(0)
    j = go.global_id(1)
    tile[ly, lx] = a[i, j]
    go.barrier()
    out[i, j] = tile[ly, lx] + tile[lx, ly]


@go.kernel
def histogram_atomic(x: Borrow[Array[i32]], hist: BorrowMut[Array[i32]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        go.atomic_add(hist, x[i], 1)


@go.kernel
def halves_disjoint(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    h = out.shape[0] // 2
    if i < h:
        out[i] = x[i]
        out[i + h] = -x[i]


@go.func
def fill_row(dst: BorrowMut[Array[f32]], y: int, v: float) -> None:
    for k in range(dst.shape[1]):
        dst[y, k] = v


@go.kernel
def rows_by_function(x: Borrow[Array[f32]], dst: BorrowMut[Array[f32]]) -> None:
    y = go.global_id(0)
    if y < dst.shape[0]:
        fill_row(dst, y, x[y])


@go.kernel
def bitonic_shared(keys: BorrowMut[Array[f32]]) -> None:
    # cuda-samples' bitonicSortShared pairs: work-item t compares pos and pos + stride,
    # pos = 2 * t - (t & (stride - 1)); one barrier interval per stride.
    sh = go.shared(256, go.f32)
    t = go.local_id(0)
    base = go.group_id(0) * 256
    sh[t] = keys[base + t]
    sh[t + 128] = keys[base + t + 128]
    size = 2
    while size <= 256:
        stride = size // 2
        while stride > 0:
            go.barrier()
            pos = 2 * t - (t & (stride - 1))
            up = ((t & (size // 2)) == 0)
            a = sh[pos]
            b = sh[pos + stride]
            if (a > b) == up:
                sh[pos] = b
                sh[pos + stride] = a
            stride //= 2
        size *= 2
    go.barrier()
    keys[base + t] = sh[t]
    keys[base + t + 128] = sh[t + 128]


ACCEPTED = [
    (copy_2d, "f32[:, :], f32[:, :]",
     [(8, 8), (1, 8), (8, 1), ((8, 8), (4, 4)), ((16, 8), (16, 1))]),
    (transpose, "f32[:, :], f32[:, :]", [(8, 8), (3, 5), ((8, 8), (2, 8))]),
    (odd_slots, "f32[:], f32[:]", [(16,), ((16,), (4,))]),
    (flat_guarded, "f32[:], f32[:], i32", [(8, 8), ((8, 8), (8, 8)), (1, 8)]),
    (flat_by_grid, "f32[:], f32[:]", [(8, 8), ((8, 8), (4, 2))]),
    (one_per_group, "f32[:], f32[:]", [((256,), (64,)), (256,), ((64,), (64,))]),
    (row_loop, "f32[:, :], f32[:, :]", [(8,), ((8,), (8,))]),
    (flat_row_loop, "f32[:], f32[:], i32", [(8,), ((16,), (4,))]),
    (grid_stride_for, "f32[:], f32[:]", [(64,), ((64,), (16,))]),
    (grid_stride_while, "f32[:], f32[:]", [(64,), ((64,), (16,))]),
    (single_writer, "f32[:], f32[:]", [(64,), ((64,), (8,))]),
    (tree_reduce, "f32[:], f32[:]", [((1024,), (256,)), ((256,), (256,))]),
    (tiles, "f32[:, :], f32[:, :]", [((32, 32), (16, 16)), ((16, 16), (16, 16))]),
    (histogram_atomic, "i32[:], i32[:]", [(1000,), ((1024,), (256,))]),
    (halves_disjoint, "f32[:], f32[:]", [(64,), ((64,), (8,))]),
    (rows_by_function, "f32[:], f32[:, :]", [(16,), ((16,), (4,))]),
    (bitonic_shared, "f32[:]", [((256,), (128,)), ((1024,), (128,))]),
]  # fmt: skip


@pytest.mark.parametrize(("kernel", "sig", "launches"), ACCEPTED,
                         ids=[k.__name__ for k, _, _ in ACCEPTED])  # type: ignore[attr-defined]
def test_provable_patterns_are_accepted_in_every_launch_shape(
    kernel: Any, sig: str, launches: list[Any]
) -> None:
    for launch in launches:
        grid, block = (launch if isinstance(launch[0], tuple) else (launch, None))
        r = verdict(kernel, sig, grid, block)
        assert r is None, f"{kernel.__name__}[{grid}, {block}]: {r and r.message}"


def test_a_1d_kernel_is_accepted_in_1d_and_refused_in_2d() -> None:
    assert verdict(grid_stride_for, "f32[:], f32[:]", (64, 1)) is None
    r = verdict(grid_stride_for, "f32[:], f32[:]", (64, 2))
    assert r is not None and "does not depend on go.global_id(1)" in r.message


def test_group_writers_need_the_local_guard() -> None:
    @go.kernel
    def every_item(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
        out[go.group_id(0)] = x[go.global_id(0)]

    r = verdict(every_item, "f32[:], f32[:]", (256,), (64,))
    assert r is not None and "work-items 0 and 1 both write out[0]" in r.message
    # a block of one work-item: each group is one work-item, so the group id is injective
    assert verdict(every_item, "f32[:], f32[:]", (256,), (1,)) is None


def test_a_flat_index_without_a_bound_on_the_inner_id_is_refused() -> None:
    @go.kernel
    def unbounded(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]], w: i32) -> None:
        i = go.global_id(0)
        j = go.global_id(1)
        out[i * w + j] = x[i]

    r = verdict(unbounded, "f32[:], f32[:], i32", (4, 8), w=4)
    assert r is not None
    assert "work-items (1, 0) and (0, 4) both write out[4]" in r.message


# --------------------------------------------------------------------------------------------
# go.unsafe: lifts the race check, and nothing else
# --------------------------------------------------------------------------------------------


@go.kernel
def scatter(x: Borrow[Array[f32]], perm: Borrow[Array[i32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        out[perm[i]] = x[i]


@go.kernel
def scatter_unsafe(x: Borrow[Array[f32]], perm: Borrow[Array[i32]],
                   out: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    i = go.global_id(0)
    if i < x.shape[0]:
        with go.unsafe():
            out[perm[i]] = x[i]


@go.func
def put(out: BorrowMut[Array[f32]], k: int, v: float) -> None:
    out[k] = v


@go.kernel
def scatter_call_unsafe(x: Borrow[Array[f32]], perm: Borrow[Array[i32]],
                        out: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    i = go.global_id(0)
    if i < x.shape[0]:
        with go.unsafe():
            put(out, perm[i], x[i])
        out[i] = out[i]  # outside the block: still checked (and provable)


def test_unsafe_lifts_the_race_check() -> None:
    sig = "f32[:], i32[:], f32[:]"
    r = verdict(scatter, sig, (16,))
    assert r is not None and "out[perm[i]] is computed from a value read from perm" in r.message
    assert verdict(scatter_unsafe, sig, (16,)) is None
    assert verdict(scatter_call_unsafe, sig, (16,)) is None


def test_unsafe_changes_nothing_but_the_flag() -> None:
    sig = "f32[:], i32[:], f32[:]"
    plain = lower_for_show(scatter, sig, None, None)
    marked = lower_for_show(scatter_unsafe, sig, None, None)
    stores = [s for s in _walk(marked.kernel.body) if isinstance(s, n.Store)]
    assert len(stores) == 1 and stores[0].unsafe and stores[0].check is not None  # still checked
    same = [s for s in _walk(plain.kernel.body) if isinstance(s, n.Store)]
    assert same[0].check is not None and not same[0].unsafe
    assert same[0].indices == stores[0].indices and same[0].value == stores[0].value


def test_gpuoff_show_marks_what_unsafe_covers() -> None:
    from gpuoff.ir.printer import format_module

    sig = "f32[:], i32[:], f32[:]"
    shown = format_module(lower_for_show(scatter_unsafe, sig, None, None))
    assert "unsafe out[" in shown
    assert "unsafe " not in format_module(lower_for_show(scatter, sig, None, None))
    called = format_module(lower_for_show(scatter_call_unsafe, sig, None, None))
    assert any(line.strip().startswith("unsafe ") and "(" in line for line in called.splitlines())


def test_unsafe_outside_a_with_or_with_a_name_is_a_compile_error() -> None:
    # not decorated: the mypy plugin would report them too (tests/mypy/cases/unsafe.py)
    def bare(out: BorrowMut[Array[f32]]) -> None:
        go.unsafe()

    def named(out: BorrowMut[Array[f32]]) -> None:
        with go.unsafe() as u:  # noqa: F841
            out[0] = 1.0

    def other(out: BorrowMut[Array[f32]]) -> None:
        with open("x"):
            out[0] = 1.0

    with pytest.raises(go.CompileError, match=r"only a block: `with go.unsafe\(\):`"):
        lower_for_show(bare, "f32[:]", None, None)
    with pytest.raises(go.CompileError, match="binds no name"):
        lower_for_show(named, "f32[:]", None, None)
    with pytest.raises(go.CompileError, match=r"with statement \(only `with go.unsafe\(\):`"):
        lower_for_show(other, "f32[:]", None, None)


def test_unsafe_on_the_host_raises() -> None:
    with pytest.raises(RuntimeError, match="go.unsafe"):
        with go.unsafe():
            pass


def _walk(body: tuple[n.Stmt, ...]) -> list[n.Stmt]:
    out: list[n.Stmt] = []
    for s in body:
        out.append(s)
        if isinstance(s, n.If):
            out += _walk(s.body) + _walk(s.orelse)
        elif isinstance(s, n.ForRange | n.While):
            out += _walk(s.body)
    return out


# --------------------------------------------------------------------------------------------
# Conditions on the launch's values
# --------------------------------------------------------------------------------------------


@go.kernel
def flat_unguarded(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]], w: i32) -> None:
    # written for a grid whose second dimension is exactly w wide (no guard on j)
    i = go.global_id(0)
    j = go.global_id(1)
    out[i * w + j] = x[i]


def test_a_proof_may_rest_on_the_launch_values_and_says_which() -> None:
    from gpuoff.ir.race_values import compile_conditions
    from gpuoff.ir.races import analyse

    module = lower_for_show(flat_unguarded, "f32[:], f32[:], i32", None, None)
    shape = LaunchShape.of((4, 8, 1), None)
    refusal, conditions = analyse(module, shape, {"grid": (4, 8, 1), "block": None,
                                                  "args": {"w": 8}})  # fmt: skip
    assert refusal is None and conditions
    holds = compile_conditions(sorted(conditions, key=repr), ["x", "out", "w"])
    assert holds((4, 8, 1), None, (None, None, 8))
    assert holds((4, 8, 1), None, (None, None, 9))  # wider rows: still distinct
    assert not holds((4, 8, 1), None, (None, None, 7))  # narrower: rows overlap
    # without the launch's values nothing is assumed, and the kernel is refused
    assert analyse(module, shape)[0] is not None


def test_a_launch_breaking_the_conditions_is_analysed_again_and_refused() -> None:
    x, out = go.zeros(4), go.zeros(64)
    flat_unguarded[(4, 8)](x, out, 8)
    flat_unguarded[(4, 8)](x, out, 16)
    with pytest.raises(go.RaceError, match=r"work-items \(1, 0\) and \(0, 4\) both write out\[4\]"):
        flat_unguarded[(4, 8)](x, out, 4)
    flat_unguarded[(4, 8)](x, out, 8)  # and a good one again
