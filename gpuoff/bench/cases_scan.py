"""The scan case of the suite: inclusive prefix sum (``np.cumsum``) of i32, work-efficient.

The gpuoff side is the Blelloch scan of ``examples/scan.py`` with more elements per work-item
(each sums ``ITEMS`` consecutive elements before the tree): one work-group scans ``TILE``
elements and writes its total, the totals are scanned the same way (one level
per ``TILE``-fold reduction), and a last pass per level adds the scanned totals back. Its
baselines live here too (the suite's per-backend tables are keyed by the older cases):

- ``cpu``: a two-pass C/OpenMP scan (``baselines/scan.c``) and NumPy's ``cumsum``;
- ``opencl``: the same three-kernel Blelloch scan hand-written in OpenCL C.

i32 keeps every implementation exact, so the check against NumPy is equality. ``work`` counts
the bytes a scan must move at least (read ``x``, write the result): 8 per element.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, i32
from gpuoff.bench.harness import BenchSkip, Case, Impl
from gpuoff.bench.registry import Entry, Inputs, backend_of, on_device, pow2, rng

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
        outs = [go.zeros(m, i32) for m in sizes]
        sums = [go.zeros(tiles_for(m), i32) for m in sizes]
        ins = [go.array(x), *sums[:-1]]  # level k > 0 scans level k - 1's tile totals

    def blocks(k: int) -> None:
        scan_blocks[(tiles_for(sizes[k]) * BLOCK,), (BLOCK,)](ins[k], outs[k], sums[k])

    def add(k: int) -> None:
        add_block_offsets[sizes[k]](outs[k], outs[k + 1])

    def run() -> None:
        with on_device(device):
            scan_levels(blocks, add, len(sizes))
            go.synchronize()

    inputs: Inputs = {"x": x}
    baselines, skipped = scan_baselines(device, inputs)
    return Case(
        kernel="scan", size=f"{pow2(n)} i32, {len(sizes)} levels", device=device,
        unit="GB/s", work=8.0 * n, gpuoff=Impl(run, outs[0].numpy), baselines=baselines,
        skipped=skipped, reference=lambda: np.cumsum(x, dtype=np.int32), rtol=0.0, atol=0.0,
    )  # fmt: skip


# --- baselines --------------------------------------------------------------------------------


def c_scan(device: str, inputs: Inputs) -> Impl:
    """The two-pass OpenMP scan of ``baselines/scan.c``."""
    from gpuoff.bench.cbuild import load_baseline

    fn = load_baseline("scan").scan_i32
    fn.argtypes = [ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p]
    fn.restype = None
    x = inputs["x"]
    out = np.empty_like(x)
    n, px, po = x.shape[0], int(x.ctypes.data), int(out.ctypes.data)

    def run() -> None:
        fn(n, px, po)

    return Impl(run, lambda: out, keep=(x, out))


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


SCAN_BASELINES: dict[str, dict[str, Callable[[str, Inputs], Impl]]] = {
    "cpu": {"C/OpenMP": c_scan, "NumPy": numpy_scan},
    "opencl": {"OpenCL C": opencl_scan},
}
"""Backend -> baseline name -> factory, as the suite's per-backend tables."""


def scan_baselines(device: str, inputs: Inputs) -> tuple[dict[str, Impl], list[str]]:
    """Build the scan baselines of ``device``'s backend; say which could not run and why."""
    out: dict[str, Impl] = {}
    skipped: list[str] = []
    for name, factory in SCAN_BASELINES.get(backend_of(device), {}).items():
        try:
            out[name] = factory(device, inputs)
        except BenchSkip as e:
            skipped.append(f"scan on {device}: baseline {name} skipped: {e}")
    return out, skipped


ENTRIES = [
    Entry("scan", "inclusive prefix sum of i32 (Blelloch, shared memory)", scan_case),
]
"""The suite entries of this module (registered by ``suite.py``)."""
