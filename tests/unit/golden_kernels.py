"""Kernels whose generated code is kept as goldens (``tests/golden/codegen``): one of each shape
the code generators treat differently. Each is written the way a user of the library would
write it; the comment names the classic it follows. Editing this file changes the goldens
(the OpenCL C points at its lines): regenerate them with ``GPUOFF_REGEN_GOLDEN=1``."""

from __future__ import annotations

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, u8, u32

REDUCE_BLOCK = 128
HISTOGRAM_BINS = 64


# Streaming, vectorised across work-items: numba-cuda's and the CUDA guide's first kernel.
@go.kernel
def saxpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


# A 2-D five-point Jacobi step over the interior (PyOpenCL's and cuda-samples' stencils):
# two-dimensional ids, row-major strides, neighbours whose checks the bounds pass removes.
@go.kernel
def jacobi5(src: Borrow[Array[f32]], dst: BorrowMut[Array[f32]]) -> None:
    col = go.global_id(0)
    row = go.global_id(1)
    if row >= 1 and row < src.shape[0] - 1 and col >= 1 and col < src.shape[1] - 1:
        around = src[row - 1, col] + src[row + 1, col] + src[row, col - 1] + src[row, col + 1]
        dst[row, col] = 0.25 * around


# A work-group tree sum in shared memory with barriers between the halving steps
# (cuda-samples' reduction, "sequential addressing" version).
@go.kernel
def tree_sum(x: Borrow[Array[f32]], partial: BorrowMut[Array[f32]]) -> None:
    tile = go.shared(REDUCE_BLOCK, go.f32)
    lid = go.local_id(0)
    i = go.global_id(0)
    v = f32(0.0)
    if i < x.shape[0]:
        v = x[i]
    tile[lid] = v
    go.barrier()
    step = REDUCE_BLOCK // 2
    while step > 0:
        if lid < step:
            tile[lid] += tile[lid + step]
        go.barrier()
        step //= 2
    if lid == 0:
        partial[go.group_id(0)] = tile[0]


# A device function whose reads keep their bounds checks (the index comes from the data), as
# Warp's @wp.func helpers are called from kernels: a gather with linear interpolation.
@go.func
def lerp_at(table: Borrow[Array[f32]], pos: f32) -> f32:
    k = go.i64(pos)
    frac = pos - f32(k)
    return table[k] * (1.0 - frac) + table[k + 1] * frac


@go.kernel
def resample(table: Borrow[Array[f32]], pos: Borrow[Array[f32]],
             out: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    i = go.global_id(0)
    if i < out.shape[0]:
        out[i] = lerp_at(table, pos[i])


# A histogram with atomics: per-group counts in shared memory, one global atomic per bin and
# group (PyOpenCL's and cuda-samples' histogram64), over a grid-stride loop.
@go.kernel
def histogram64(data: Borrow[Array[u8]], bins: BorrowMut[Array[u32]]) -> None:
    local = go.shared(HISTOGRAM_BINS, go.u32)
    lid = go.local_id(0)
    if lid < HISTOGRAM_BINS:
        local[lid] = u32(0)
    go.barrier()
    i = go.global_id(0)
    while i < data.shape[0]:
        go.atomic_add(local, data[i] % HISTOGRAM_BINS, 1)
        i += go.global_size(0)
    go.barrier()
    if lid < HISTOGRAM_BINS:
        go.atomic_add(bins, lid, local[lid])


SIGNATURES = {
    "saxpy": (saxpy, "f32, f32[:], f32[:]"),
    "jacobi5": (jacobi5, "f32[:, :], f32[:, :]"),
    "tree_sum": (tree_sum, "f32[:], f32[:]"),
    "resample": (resample, "f32[:], f32[:], f32[:]"),
    "histogram64": (histogram64, "u8[:], u32[:]"),
}
"""Golden name -> (kernel, signature as ``gpuoff show --sig`` reads it)."""
