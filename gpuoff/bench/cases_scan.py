"""The scan case of the suite (inclusive prefix sum of i32, work-efficient) and tiled sgemm.

The gpuoff side is the Blelloch scan of ``examples/scan.py`` with more elements per work-item
(each sums ``ITEMS`` consecutive elements before the tree): one work-group scans ``TILE``
elements and writes its total, the totals are scanned the same way (one level
per ``TILE``-fold reduction), and a last pass per level adds the scanned totals back. Its
baselines live here too (the suite's per-backend tables are keyed by the older cases):

- ``cpu``: a two-pass C/OpenMP scan (``baselines/scan.c``) and NumPy's ``cumsum``;
- ``opencl``: the same three-kernel Blelloch scan hand-written in OpenCL C.

``sgemm_tiled`` (the shared-memory tiles of ``examples/sgemm_tiled.py``) is here because the
suite's own sgemm is the naive kernel; its CPU baselines are the suite's C/OpenMP sgemm and
NumPy (OpenBLAS), its OpenCL baseline a hand-written tiled kernel.

i32 keeps every scan implementation exact, so the check against NumPy is equality. ``work`` counts
the bytes a scan must move at least (read ``x``, write the result): 8 per element.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32
from gpuoff.bench.harness import Case, Impl
from gpuoff.bench.registry import (
    Entry,
    Inputs,
    checked,
    device_baselines,
    make_case,
    on_device,
    pow2,
    rng,
)

Factory = Callable[[str, Inputs], Impl]

BLOCK = 256
"""Work-items per work-group of ``scan_blocks`` (a power of two)."""
ITEMS = 8
"""Consecutive elements each work-item scans sequentially before the tree."""
TILE = BLOCK * ITEMS
"""Elements scanned per work-group."""


@go.kernel
def scan_blocks(x: Borrow[Array[i32]], out: BorrowMut[Array[i32]],
                sums: BorrowMut[Array[i32]]) -> None:  # fmt: skip
    """Inclusive scan of each ``TILE``-element tile of ``x`` into ``out``; tile totals into
    ``sums``. Launch with ``tiles * BLOCK`` work-items in blocks of ``BLOCK``.

    Each work-item sums its ``ITEMS`` consecutive elements, a Blelloch tree in shared memory
    turns the ``BLOCK`` sums into an exclusive scan, and each work-item rescans its elements
    from its offset. The per-item loop divides the number of tree steps (barriers) per element
    by ``ITEMS``: 5x faster on the CPU than two elements per work-item."""
    lid = go.local_id(0)
    g = go.group_id(0)
    n = x.shape[0]
    start = g * TILE + lid * ITEMS
    total = go.i32(0)
    for j in range(ITEMS):
        if start + j < n:
            total += x[start + j]
    tile = go.shared(BLOCK, go.i32)
    tile[lid] = total
    offset = 1
    d = BLOCK // 2
    while d > 0:  # up-sweep: partial sums in a balanced tree
        go.barrier()
        if lid < d:
            tile[offset * (2 * lid + 2) - 1] += tile[offset * (2 * lid + 1) - 1]
        offset *= 2
        d //= 2
    go.barrier()
    if lid == 0:
        sums[g] = tile[BLOCK - 1]
        tile[BLOCK - 1] = 0
    d = 1
    while d < BLOCK:  # down-sweep: the tree becomes an exclusive scan
        offset //= 2
        go.barrier()
        if lid < d:
            left = offset * (2 * lid + 1) - 1
            right = offset * (2 * lid + 2) - 1
            t = tile[left]
            tile[left] = tile[right]
            tile[right] += t
        d *= 2
    go.barrier()
    acc = tile[lid]
    for j in range(ITEMS):
        if start + j < n:
            acc += x[start + j]
            out[start + j] = acc


@go.kernel
def add_block_offsets(out: BorrowMut[Array[i32]], scanned_sums: Borrow[Array[i32]]) -> None:
    """``out[i] += (sum of every tile before i's)``; one work-item per element."""
    i = go.global_id(0)
    g = i // TILE
    if g > 0 and i < out.shape[0]:
        out[i] += scanned_sums[g - 1]


def tiles_for(n: int) -> int:
    """Work-groups of ``scan_blocks`` for ``n`` elements (at least one)."""
    return max(1, -(-n // TILE))


def level_sizes(n: int) -> list[int]:
    """Lengths scanned at each level: ``n``, then its tile totals, ... down to one tile."""
    sizes = [n]
    while tiles_for(sizes[-1]) > 1:
        sizes.append(tiles_for(sizes[-1]))
    return sizes


def scan_levels(run_blocks: Callable[[int], None], run_add: Callable[[int], None],
                levels: int) -> None:  # fmt: skip
    """The launch order of a multi-level scan: every level's tiles top-down, then the
    add-back passes bottom-up (level ``k`` needs level ``k + 1`` complete)."""
    for k in range(levels):
        run_blocks(k)
    for k in reversed(range(levels - 1)):
        run_add(k)


# --- the case ---------------------------------------------------------------------------------


def scan_case(device: str, quick: bool) -> Case:
    """inputs: ``x`` (i32[n], small non-negative values); result: ``np.cumsum(x)`` (i32)."""
    n = 1 << (20 if quick else 24)
    x = rng().integers(0, 4, n, dtype=np.int32)
    sizes = level_sizes(n)
    with on_device(device):
        xb = go.asarray(x)

    def impl(checks: bool) -> Impl:
        k_blocks, k_add = checked(scan_blocks, checks), checked(add_block_offsets, checks)
        with on_device(device):
            outs = [go.zeros(m, i32) for m in sizes]
            sums = [go.zeros(tiles_for(m), i32) for m in sizes]
            ins = [xb, *sums[:-1]]  # level k > 0 scans level k - 1's tile totals

        def blocks(k: int) -> None:
            k_blocks[(tiles_for(sizes[k]) * BLOCK,), (BLOCK,)](ins[k], outs[k], sums[k])

        def add(k: int) -> None:
            k_add[sizes[k]](outs[k], outs[k + 1])

        def run() -> None:
            with on_device(device):
                scan_levels(blocks, add, len(sizes))
                go.synchronize()

        return Impl(run, outs[0].numpy)

    return make_case(
        "scan", device, {"x": x}, impl(True), unchecked=impl(False), extra=SCAN_BASELINES,
        size=f"{pow2(n)} i32, {len(sizes)} levels", unit="GB/s", work=8.0 * n,
        reference=lambda: np.cumsum(x, dtype=np.int32), rtol=0.0, atol=0.0,
    )  # fmt: skip


# --- baselines --------------------------------------------------------------------------------


def _c_scan(lib: str) -> Factory:
    """The two-pass OpenMP scan of ``baselines/<lib>.c`` (running sum, or ``inscan`` simd)."""

    def factory(device: str, inputs: Inputs) -> Impl:
        from gpuoff.bench.cbuild import load_baseline

        fn = load_baseline(lib).scan_i32
        fn.argtypes = [ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p]
        fn.restype = None
        x = inputs["x"]
        out = np.empty_like(x)
        n, px, po = x.shape[0], int(x.ctypes.data), int(out.ctypes.data)

        def run() -> None:
            fn(n, px, po)

        return Impl(run, lambda: out, keep=(x, out))

    return factory


c_scan = _c_scan("scan")
c_scan_inscan = _c_scan("scan_inscan")


def numpy_scan(device: str, inputs: Inputs) -> Impl:
    x = inputs["x"]
    out = np.empty_like(x)

    def run() -> None:
        np.cumsum(x, out=out)

    return Impl(run, lambda: out)


SCAN_CL = f"""
#define BLOCK {BLOCK}
#define ITEMS {ITEMS}
#define TILE {TILE}
__kernel void scan_blocks(__global const int* restrict x, __global int* restrict out,
                          __global int* restrict sums, const int n)
{{
    __local int tile[BLOCK];
    int lid = get_local_id(0), g = get_group_id(0);
    int start = g * TILE + lid * ITEMS;
    int total = 0;
    for (int j = 0; j < ITEMS; j++)
        if (start + j < n) total += x[start + j];
    tile[lid] = total;
    int offset = 1;
    for (int d = BLOCK / 2; d > 0; d >>= 1) {{
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) tile[offset * (2 * lid + 2) - 1] += tile[offset * (2 * lid + 1) - 1];
        offset <<= 1;
    }}
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {{
        sums[g] = tile[BLOCK - 1];
        tile[BLOCK - 1] = 0;
    }}
    for (int d = 1; d < BLOCK; d <<= 1) {{
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {{
            int l = offset * (2 * lid + 1) - 1, r = offset * (2 * lid + 2) - 1;
            int t = tile[l];
            tile[l] = tile[r];
            tile[r] += t;
        }}
    }}
    barrier(CLK_LOCAL_MEM_FENCE);
    int acc = tile[lid];
    for (int j = 0; j < ITEMS; j++)
        if (start + j < n) {{
            acc += x[start + j];
            out[start + j] = acc;
        }}
}}

__kernel void add_block_offsets(__global int* restrict out,
                                __global const int* restrict scanned, const int n)
{{
    int i = get_global_id(0);
    int g = i / TILE;
    if (g > 0 && i < n) out[i] += scanned[g - 1];
}}
"""
"""The OpenCL C twin of ``scan_blocks`` and ``add_block_offsets``."""


def opencl_scan(device: str, inputs: Inputs) -> Impl:
    """The same multi-level Blelloch scan, hand-written in OpenCL C, on gpuoff's queue."""
    from gpuoff.bench.opencl_baselines import _device

    d = _device(device)
    i32_t = np.int32
    k_blocks = d.kernel(SCAN_CL, "scan_blocks", [None, None, None, i32_t])
    k_add = d.kernel(SCAN_CL, "add_block_offsets", [None, None, i32_t])
    x = inputs["x"]
    sizes = level_sizes(x.shape[0])
    outs = [d.upload(np.zeros(m, np.int32)) for m in sizes]
    sums = [d.upload(np.zeros(tiles_for(m), np.int32)) for m in sizes]
    ins = [d.upload(x), *sums[:-1]]

    def blocks(k: int) -> None:
        m = sizes[k]
        k_blocks(d.queue, (tiles_for(m) * BLOCK,), (BLOCK,), ins[k], outs[k], sums[k], m)

    def add(k: int) -> None:
        k_add(d.queue, (sizes[k],), None, outs[k], outs[k + 1], sizes[k])

    def run() -> None:
        scan_levels(blocks, add, len(sizes))
        d.queue.finish()

    return Impl(run, lambda: d.download(outs[0], x), keep=(*ins, *outs, *sums))


SCAN_BASELINES: dict[str, dict[str, Factory]] = {
    "cpu": {"C/OpenMP": c_scan, "C/OpenMP+inscan": c_scan_inscan, "NumPy": numpy_scan},
    "opencl": {"OpenCL C": opencl_scan},
}
"""Backend -> baseline name -> factory, as the suite's per-backend tables."""


def scan_baselines(device: str, inputs: Inputs) -> tuple[dict[str, Impl], list[str]]:
    """Build the scan baselines of ``device``'s backend; say which could not run and why."""
    return device_baselines("scan", device, inputs, SCAN_BASELINES)


# --- tiled sgemm -------------------------------------------------------------------------------

SGEMM_TILE = 16
"""Side of the square work-group and of the shared tiles of ``sgemm_tiled``."""


@go.kernel
def sgemm_tiled(a: Borrow[Array[f32]], b: Borrow[Array[f32]], c: BorrowMut[Array[f32]]) -> None:
    """``c = a @ b`` with shared ``SGEMM_TILE``-square tiles (``examples/sgemm_tiled.py``).
    Grid ``(cols, rows)`` rounded up to the tile, block ``(SGEMM_TILE, SGEMM_TILE)``."""
    tx = go.local_id(0)
    ty = go.local_id(1)
    col = go.global_id(0)
    row = go.global_id(1)
    rows = c.shape[0]
    cols = c.shape[1]
    inner = a.shape[1]
    a_tile = go.shared((SGEMM_TILE, SGEMM_TILE), go.f32)
    b_tile = go.shared((SGEMM_TILE, SGEMM_TILE), go.f32)
    acc = go.f32(0.0)
    for t in range((inner + SGEMM_TILE - 1) // SGEMM_TILE):
        ak = t * SGEMM_TILE + tx
        bk = t * SGEMM_TILE + ty
        av = go.f32(0.0)
        bv = go.f32(0.0)
        if row < rows and ak < inner:
            av = a[row, ak]
        if bk < inner and col < cols:
            bv = b[bk, col]
        a_tile[ty, tx] = av
        b_tile[ty, tx] = bv
        go.barrier()
        for k in range(SGEMM_TILE):
            acc += a_tile[ty, k] * b_tile[k, tx]
        go.barrier()
    if row < rows and col < cols:
        c[row, col] = acc


def sgemm_tiled_case(device: str, quick: bool) -> Case:
    """inputs: ``a``, ``b`` (f32[n, n]); result: ``a @ b``. Baselines: the suite's C/OpenMP
    sgemm and NumPy (OpenBLAS) on the CPU, a hand-written tiled OpenCL C kernel on OpenCL."""
    n = 256 if quick else 1024
    a = rng().random((n, n), dtype=np.float32)
    b = rng().random((n, n), dtype=np.float32) + np.float32(0.5)
    with on_device(device):
        ab, bb = go.asarray(a), go.asarray(b)  # inputs shared
    side = -(-n // SGEMM_TILE) * SGEMM_TILE

    def impl(checks: bool) -> Impl:
        k = checked(sgemm_tiled, checks)
        with on_device(device):
            cb = go.zeros((n, n), f32)

        def run() -> None:
            with on_device(device):
                k[(side, side), (SGEMM_TILE, SGEMM_TILE)](ab, bb, cb)
                go.synchronize()

        return Impl(run, cb.numpy)

    return make_case(
        "sgemm_tiled", device, {"a": a, "b": b}, impl(True), unchecked=impl(False),
        extra=SGEMM_BASELINES, size=f"{n}x{n} f32, {SGEMM_TILE}x{SGEMM_TILE} tiles",
        unit="GFLOP/s", work=2.0 * n**3,
        reference=lambda: a.astype(np.float64) @ b.astype(np.float64), rtol=1e-4, atol=1e-2,
    )  # fmt: skip


SGEMM_CL = f"""
#define T {SGEMM_TILE}
__kernel void sgemm_tiled(__global const float* restrict a, __global const float* restrict b,
                          __global float* restrict c, const int rows, const int inner,
                          const int cols)
{{
    __local float at[T][T];
    __local float bt[T][T];
    int tx = get_local_id(0), ty = get_local_id(1);
    int col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    for (int t = 0; t < (inner + T - 1) / T; t++) {{
        int ak = t * T + tx, bk = t * T + ty;
        at[ty][tx] = (row < rows && ak < inner) ? a[row * inner + ak] : 0.0f;
        bt[ty][tx] = (bk < inner && col < cols) ? b[bk * cols + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < T; k++) acc += at[ty][k] * bt[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }}
    if (row < rows && col < cols) c[row * cols + col] = acc;
}}
"""
"""The OpenCL C twin of ``sgemm_tiled``."""


def opencl_sgemm_tiled(device: str, inputs: Inputs) -> Impl:
    from gpuoff.bench.opencl_baselines import _device

    d = _device(device)
    k = d.kernel(SGEMM_CL, "sgemm_tiled", [None, None, None, np.int32, np.int32, np.int32])
    a, b = inputs["a"], inputs["b"]
    rows, inner, cols = a.shape[0], a.shape[1], b.shape[1]
    c = np.zeros((rows, cols), np.float32)
    ab, bb, cb = d.upload(a), d.upload(b), d.upload(c)
    t = SGEMM_TILE
    grid = (-(-cols // t) * t, -(-rows // t) * t)

    def run() -> None:
        k(d.queue, grid, (t, t), ab, bb, cb, rows, inner, cols)
        d.queue.finish()

    return Impl(run, lambda: d.download(cb, c), keep=(ab, bb, cb))


def _cpu_sgemm(name: str) -> Factory:
    def factory(device: str, inputs: Inputs) -> Impl:
        from gpuoff.bench import cpu_baselines

        made: Impl = getattr(cpu_baselines, name)(device, inputs)
        return made

    return factory


SGEMM_BASELINES: dict[str, dict[str, Factory]] = {
    "cpu": {"C/OpenMP": _cpu_sgemm("c_sgemm"), "NumPy": _cpu_sgemm("numpy_sgemm")},
    "opencl": {"OpenCL C": opencl_sgemm_tiled},
}
"""Backend -> baseline name -> factory for ``sgemm_tiled``."""


ENTRIES = [
    Entry("scan", "inclusive prefix sum of i32 (Blelloch, shared memory)", scan_case),
    Entry(
        "sgemm_tiled", "matrix multiply with shared-memory tiles", sgemm_tiled_case, repeats=5
    ),  # fmt: skip
]
"""The suite entries of this module (registered by ``suite.py``)."""
