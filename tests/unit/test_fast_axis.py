"""The work-item dimension that walks the contiguous axis (gpuoff.ir.fast_axis)."""

from __future__ import annotations

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut
from gpuoff.bench.cases_layout import stencil5_rows, transpose_tiled, transpose_tiled_rows
from gpuoff.bench.kernels import stencil5
from gpuoff.frontend import lower_kernel
from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from gpuoff.ir.fast_axis import fast_dim, permute_dims, unit_stride_votes
from gpuoff.ir.walk import walk_exprs
from tests.unit import irbuild as b

F2, F2M = b.arr(t.f32, 2), b.mut(t.f32, 2)
F1, F1M = b.arr(t.f32), b.mut(t.f32)


def _module(kernel: object, *types: t.ArrayType) -> n.Module:
    return lower_kernel(kernel.pyfunc, types)  # type: ignore[attr-defined]


@go.kernel
def flat_rows(a: Borrow[Array[go.f32]], out: BorrowMut[Array[go.f32]]) -> None:
    """A 2-D grid over flattened 1-D arrays, id 0 as the row: ``a[i * w + j]``."""
    i = go.global_id(0)
    j = go.global_id(1)
    w = go.global_size(1)
    out[i * w + j] = 2.0 * a[i * w + j]


@go.kernel
def column_sums(a: Borrow[Array[go.f32]], out: BorrowMut[Array[go.f32]]) -> None:
    """One work-item per column (1-D), looping down the rows: dimension 0 stays."""
    j = go.global_id(0)
    acc = go.f32(0.0)
    for r in range(a.shape[0]):
        acc += a[r, j]
    out[j] = acc


def test_the_id_indexing_the_last_axis_is_the_fast_one() -> None:
    assert fast_dim(_module(stencil5, F2, F2M)) == 0
    assert fast_dim(_module(stencil5_rows, F2, F2M)) == 1
    assert fast_dim(_module(transpose_tiled, F2, F2M)) == 0
    assert fast_dim(_module(transpose_tiled_rows, F2, F2M)) == 1
    assert fast_dim(_module(flat_rows, F1, F1M)) == 1
    assert fast_dim(_module(column_sums, F2, F1M)) == 0


def test_votes_count_unit_stride_uses_only() -> None:
    votes = unit_stride_votes(_module(stencil5_rows, F2, F2M))
    assert votes.get(1, 0) >= 5 and votes.get(0, 0) == 0
    # a[i * w + j]: i is scaled, j is the unit-stride term
    assert unit_stride_votes(_module(flat_rows, F1, F1M)) == {1: 2}


def test_permuting_exchanges_every_query_of_the_two_dims() -> None:
    m = _module(transpose_tiled_rows, F2, F2M)
    swapped = permute_dims(m, 1)
    before = sorted((e.name, e.dim) for e in walk_exprs(m.kernel.body)
                    if isinstance(e, n.WorkItem))  # fmt: skip
    after = sorted((e.name, 1 - e.dim) for e in walk_exprs(swapped.kernel.body)
                   if isinstance(e, n.WorkItem))  # fmt: skip
    assert before == after and before
    assert swapped.checks == m.checks and permute_dims(m, 0) is m
    assert fast_dim(swapped) == 0


def test_opencl_renders_the_fast_dimension_as_dimension_0() -> None:
    from codegen.opencl import render_opencl

    m = _module(stencil5_rows, F2, F2M)
    plain, swapped = render_opencl(m), render_opencl(m, fast=1)
    assert plain.fast == 0 and swapped.fast == 1
    # the kernel's global_id(1) (the column) is the rendered dimension 0 ...
    assert "get_global_id(0)" in swapped.text and plain.text != swapped.text
    # ... and a bounds record still names the work-item in the kernel's own order
    assert "ulong item = get_global_id(1) + get_global_size(1) * (get_global_id(0)" in swapped.text
    assert "ulong item = get_global_id(0) + get_global_size(0) * (get_global_id(1)" in plain.text
