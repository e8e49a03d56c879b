"""The axis-order rows of the suite: which work-item id walks the contiguous axis.

A GPU programmer writes a 2-D kernel with ``global_id(0)`` as the column (the unit-stride
axis: neighbouring work-items touch neighbouring addresses, as CUDA's ``threadIdx.x``); the
README's launch table suggests the other order, ``k[(rows, cols)]`` with ``global_id(0)`` as
the row. Both must be fast. Each pair here is the same algorithm in both orders, and the
report compares their gpuoff times (``Case.twin``):

- ``stencil2d_rows``: the suite's 5-point stencil with ``global_id(0)`` as the row (the twin of
  ``stencil2d``, whose baselines it shares, plus on OpenCL the hand-written kernel in the same
  id order);
- ``transpose`` / ``transpose_rows``: the tiled transpose of NVIDIA's "An Efficient Matrix
  Transpose in CUDA C/C++" (a square tile through shared memory, one column of padding), with
  ``global_id(0)`` as the column, and the same kernel with the ids swapped.

Baselines: a blocked C/OpenMP transpose (``baselines/transpose.c``), NumPy (``copyto`` of
``a.T``), the peers, and hand-written OpenCL C in each id order.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut
from gpuoff.bench.harness import Case, Impl
from gpuoff.bench.registry import Entry, Inputs, Table, checked, make_case, on_device, rng

Factory = Callable[[str, Inputs], Impl]

TILE = 32
"""Side of the square work-group and shared tile of the transposes."""


@go.kernel
def stencil5_rows(src: Borrow[Array[go.f32]], dst: BorrowMut[Array[go.f32]]) -> None:
    """``stencil5`` with ``global_id(0)`` as the row. Grid: ``(rows, cols)``."""
    i = go.global_id(0)
    j = go.global_id(1)
    rows = src.shape[0]
    cols = src.shape[1]
    if i < rows and j < cols:
        if i > 0 and i < rows - 1 and j > 0 and j < cols - 1:
            dst[i, j] = 0.2 * ((((src[i, j] + src[i - 1, j]) + src[i + 1, j]) + src[i, j - 1])
                               + src[i, j + 1])
        else:
            dst[i, j] = src[i, j]


@go.kernel
def transpose_tiled(a: Borrow[Array[go.f32]], out: BorrowMut[Array[go.f32]]) -> None:
    """``out = a.T`` through a shared tile, ``global_id(0)`` as the column of ``a``.
    Grid ``(cols, rows)`` rounded up to ``TILE``, block ``(TILE, TILE)``."""
    tx = go.local_id(0)
    ty = go.local_id(1)
    x = go.global_id(0)
    y = go.global_id(1)
    tile = go.shared((TILE, TILE + 1), go.f32)  # + 1: no shared-memory bank conflicts
    if y < a.shape[0] and x < a.shape[1]:
        tile[ty, tx] = a[y, x]
    go.barrier()
    ox = go.group_id(1) * TILE + tx  # column of out = row of a
    oy = go.group_id(0) * TILE + ty
    if oy < out.shape[0] and ox < out.shape[1]:
        out[oy, ox] = tile[tx, ty]


@go.kernel
def transpose_tiled_rows(a: Borrow[Array[go.f32]], out: BorrowMut[Array[go.f32]]) -> None:
    """``transpose_tiled`` with the ids swapped: ``global_id(0)`` as the row of ``a``.
    Grid ``(rows, cols)`` rounded up to ``TILE``, block ``(TILE, TILE)``."""
    ty = go.local_id(0)
    tx = go.local_id(1)
    y = go.global_id(0)
    x = go.global_id(1)
    tile = go.shared((TILE, TILE + 1), go.f32)
    if y < a.shape[0] and x < a.shape[1]:
        tile[ty, tx] = a[y, x]
    go.barrier()
    ox = go.group_id(0) * TILE + tx
    oy = go.group_id(1) * TILE + ty
    if oy < out.shape[0] and ox < out.shape[1]:
        out[oy, ox] = tile[tx, ty]


# --- cases ------------------------------------------------------------------------------------


def stencil_rows_case(device: str, quick: bool) -> Case:
    """inputs: ``src`` (f32[rows, cols]), as ``stencil2d``."""
    from gpuoff.bench.references import stencil5_ref

    side = 1024 if quick else 4096
    src = rng().random((side, side), dtype=np.float32)
    with on_device(device):
        sb = go.asarray(src)

    def impl(checks: bool) -> Impl:
        k = checked(stencil5_rows, checks)
        with on_device(device):
            db = go.zeros((side, side), go.f32)

        def run() -> None:
            with on_device(device):
                k[side, side](sb, db)
                go.synchronize()

        return Impl(run, db.numpy)

    return make_case(
        "stencil2d_rows", device, {"src": src}, impl(True), unchecked=impl(False),
        baselines_of="stencil2d", extra=STENCIL_ROWS_BASELINES, twin="stencil2d",
        size=f"{side}x{side} f32, id 0 = row", unit="GB/s", work=8.0 * side * side,
        reference=lambda: stencil5_ref(src),
    )  # fmt: skip


def _transpose_case(rows_first: bool) -> Callable[[str, bool], Case]:
    name = "transpose_rows" if rows_first else "transpose"
    kernel = transpose_tiled_rows if rows_first else transpose_tiled

    def make(device: str, quick: bool) -> Case:
        """inputs: ``a`` (f32[rows, cols]); result: ``a.T`` (contiguous)."""
        rows, cols = (1024, 2048) if quick else (4096, 4096)
        a = rng().random((rows, cols), dtype=np.float32)
        with on_device(device):
            ab = go.asarray(a)
        up = -(-rows // TILE) * TILE, -(-cols // TILE) * TILE
        grid = up if rows_first else (up[1], up[0])

        def impl(checks: bool) -> Impl:
            k = checked(kernel, checks)
            with on_device(device):
                ob = go.zeros((cols, rows), go.f32)

            def run() -> None:
                with on_device(device):
                    k[grid, (TILE, TILE)](ab, ob)
                    go.synchronize()

            return Impl(run, ob.numpy)

        order = "id 0 = row" if rows_first else "id 0 = column"
        return make_case(
            name, device, {"a": a}, impl(True), unchecked=impl(False),
            baselines_of="transpose",
            extra=TRANSPOSE_ROWS_BASELINES if rows_first else TRANSPOSE_BASELINES,
            twin="transpose" if rows_first else "transpose_rows",
            size=f"{rows}x{cols} f32, {TILE}x{TILE} tiles, {order}", unit="GB/s",
            work=8.0 * rows * cols, reference=lambda: np.ascontiguousarray(a.T),
            rtol=0.0, atol=0.0,
        )  # fmt: skip

    return make


# --- baselines --------------------------------------------------------------------------------


def c_transpose(device: str, inputs: Inputs) -> Impl:
    """The blocked OpenMP transpose of ``baselines/transpose.c``."""
    from gpuoff.bench.cbuild import load_baseline

    fn = load_baseline("transpose").transpose
    fn.argtypes = [ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p]
    fn.restype = None
    a = inputs["a"]
    out = np.empty((a.shape[1], a.shape[0]), a.dtype)
    args = (a.shape[0], a.shape[1], int(a.ctypes.data), int(out.ctypes.data))

    def run() -> None:
        fn(*args)

    return Impl(run, lambda: out, keep=(a, out))


def numpy_transpose(device: str, inputs: Inputs) -> Impl:
    a = inputs["a"]
    out = np.empty((a.shape[1], a.shape[0]), a.dtype)

    def run() -> None:
        np.copyto(out, a.T)

    return Impl(run, lambda: out)


STENCIL_ROWS_CL = """
__kernel void stencil5_rows(__global const float* restrict src, __global float* restrict dst,
                            const int rows, const int cols)
{
    long i = get_global_id(0);  /* the row: the same id order as the gpuoff kernel */
    long j = get_global_id(1);
    if (i < rows && j < cols) {
        long c = i * cols + j;
        if (i > 0 && i < rows - 1 && j > 0 && j < cols - 1) {
            float sum = (((src[c] + src[c - cols]) + src[c + cols]) + src[c - 1]) + src[c + 1];
            dst[c] = 0.2f * sum;
        } else
            dst[c] = src[c];
    }
}
"""

TRANSPOSE_CL = f"""
#define T {TILE}
__kernel void transpose_tiled(__global const float* restrict a, __global float* restrict out,
                              const int rows, const int cols)
{{
    __local float tile[T][T + 1];
    int tx = get_local_id(0), ty = get_local_id(1);
    int x = get_global_id(0), y = get_global_id(1);
    if (y < rows && x < cols) tile[ty][tx] = a[(long)y * cols + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = get_group_id(1) * T + tx, oy = get_group_id(0) * T + ty;
    if (oy < cols && ox < rows) out[(long)oy * rows + ox] = tile[tx][ty];
}}

__kernel void transpose_tiled_rows(__global const float* restrict a,
                                   __global float* restrict out, const int rows,
                                   const int cols)
{{
    __local float tile[T][T + 1];
    int ty = get_local_id(0), tx = get_local_id(1);
    int y = get_global_id(0), x = get_global_id(1);
    if (y < rows && x < cols) tile[ty][tx] = a[(long)y * cols + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = get_group_id(0) * T + tx, oy = get_group_id(1) * T + ty;
    if (oy < cols && ox < rows) out[(long)oy * rows + ox] = tile[tx][ty];
}}
"""


def opencl_stencil_rows(device: str, inputs: Inputs) -> Impl:
    from gpuoff.bench.opencl_baselines import _device

    d = _device(device)
    k = d.kernel(STENCIL_ROWS_CL, "stencil5_rows", [None, None, np.int32, np.int32])
    src = inputs["src"]
    rows, cols = src.shape
    sb, db = d.upload(src), d.upload(np.zeros_like(src))

    def run() -> None:
        k(d.queue, (rows, cols), None, sb, db, rows, cols)
        d.queue.finish()

    return Impl(run, lambda: d.download(db, src), keep=(sb, db))


def _opencl_transpose(rows_first: bool) -> Factory:
    def factory(device: str, inputs: Inputs) -> Impl:
        from gpuoff.bench.opencl_baselines import _device

        d = _device(device)
        name = "transpose_tiled_rows" if rows_first else "transpose_tiled"
        k = d.kernel(TRANSPOSE_CL, name, [None, None, np.int32, np.int32])
        a = inputs["a"]
        rows, cols = a.shape
        like: np.ndarray[Any, Any] = np.zeros((cols, rows), a.dtype)
        ab, ob = d.upload(a), d.upload(like)
        up = -(-rows // TILE) * TILE, -(-cols // TILE) * TILE
        grid = up if rows_first else (up[1], up[0])

        def run() -> None:
            k(d.queue, grid, (TILE, TILE), ab, ob, rows, cols)
            d.queue.finish()

        return Impl(run, lambda: d.download(ob, like), keep=(ab, ob))

    return factory


STENCIL_ROWS_BASELINES: Table = {"opencl": {"OpenCL C, same ids": opencl_stencil_rows}}
"""Beyond ``stencil2d``'s own: the hand-written OpenCL C in the gpuoff kernel's id order."""

TRANSPOSE_BASELINES: Table = {
    "cpu": {"C/OpenMP": c_transpose, "NumPy": numpy_transpose},
    "opencl": {"OpenCL C": _opencl_transpose(False)},
}
TRANSPOSE_ROWS_BASELINES: Table = {
    "cpu": TRANSPOSE_BASELINES["cpu"],
    "opencl": {"OpenCL C": _opencl_transpose(False),
               "OpenCL C, same ids": _opencl_transpose(True)},
}  # fmt: skip


ENTRIES = [
    Entry("stencil2d_rows", "stencil2d with global_id(0) as the row", stencil_rows_case),
    Entry("transpose", "tiled transpose through shared memory, id 0 = column",
          _transpose_case(False)),
    Entry("transpose_rows", "the tiled transpose with id 0 = row", _transpose_case(True)),
]  # fmt: skip
"""The suite entries of this module (registered by ``suite.py``)."""
