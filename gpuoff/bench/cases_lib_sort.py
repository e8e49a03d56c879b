"""The lib suite's sorting and counting rows: ``gl.sort``, ``gl.histogram``, ``gl.bincount``,
against NumPy (and C/OpenMP for the counts) on ``cpu`` and, on ``opencl``, PyOpenCL's
``RadixSort`` and ``bitonic_sort`` for the sort and a hand-written OpenCL C twin for the counts
(PyOpenCL has no histogram).

- ``lib_sort``: 2^24 uniform u32; NumPy is ``np.sort(kind="stable")`` (its radix sort covers
  16-bit keys only: u32 takes its timsort); the PyOpenCL sorts run on gpuoff's own context and
  queue (they need Mako: without it they are reported as skipped, saying so).

- ``lib_histogram``: 2^24 f32 (a tenth outside the range) into 256 equal bins over
  ``(0, 1)``; C/OpenMP computes NumPy's bin rule (``baselines/lib_histogram.c``), NumPy is
  ``np.histogram``; the OpenCL twin counts the same rule into local memory with atomics.
- ``lib_bincount``: 2^24 skewed u8 into 256 counts; C/OpenMP is the suite's histogram256
  (private per thread), NumPy ``np.bincount``, OpenCL the suite's histogram256 twin.
  ``gl.bincount`` synchronises once per call (its length is ``max(x) + 1``): that is timed.
"""

from __future__ import annotations

import ctypes
import importlib
import importlib.util
from collections.abc import Callable
from typing import Any

import numpy as np

import gpuoff as go
from gpuoff.bench.cbuild import load_baseline
from gpuoff.bench.harness import Case, Impl
from gpuoff.bench.registry import Entry, Inputs, Table, make_case, on_device, pow2, rng

Factory = Callable[[str, Inputs], Impl]
BINS = 256


def _hist_inputs(quick: bool) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    n = 1 << (20 if quick else 24)
    x = (rng().random(n, dtype=np.float32) * np.float32(1.1)).astype(np.float32)
    edges = np.histogram_bin_edges(np.empty(0, np.float32), BINS, (0.0, 1.0))
    return x, edges


def c_histogram(device: str, inputs: Inputs) -> Impl:
    fn = load_baseline("lib_histogram").histogram_f32
    fn.argtypes = [ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p,
                   ctypes.c_void_p]  # fmt: skip
    fn.restype = None
    x, edges = inputs["x"], inputs["edges"]
    counts = np.zeros(BINS, np.int64)

    def run() -> None:
        fn(x.shape[0], x.ctypes.data, BINS, edges.ctypes.data, counts.ctypes.data)

    return Impl(run, lambda: counts, keep=(x, edges, counts))


def numpy_histogram(device: str, inputs: Inputs) -> Impl:
    x = inputs["x"]
    out = [np.zeros(BINS, np.int64)]

    def run() -> None:
        out[0] = np.histogram(x, BINS, (0.0, 1.0))[0]

    return Impl(run, lambda: out[0])


OPENCL_HISTOGRAM = """
__kernel void histogram_f32(__global const float* restrict x, __global const float* restrict e,
                            __global uint* restrict bins, const int n)
{
    __local uint local_bins[256];
    int lid = get_local_id(0);
    local_bins[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const float lo = e[0], hi = e[256], denom = hi - lo;
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
        float v = x[i];
        if (v >= lo && v <= hi) {
            int b = (int)((v - lo) / denom * 256.0f);
            if (b > 255) b = 255;
            if (v < e[b]) b--;
            else if (b != 255 && v >= e[b + 1]) b++;
            atomic_add(&local_bins[b], 1u);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&bins[lid], local_bins[lid]);
}
"""


def opencl_histogram(device: str, inputs: Inputs) -> Impl:
    from gpuoff.bench.opencl_baselines import GROUPS, I32, _device

    d = _device(device)
    k = d.kernel(OPENCL_HISTOGRAM, "histogram_f32", [None, None, None, I32])
    x, edges = inputs["x"], inputs["edges"]
    xb, eb = d.upload(x), d.upload(edges)
    zero = np.zeros(BINS, np.uint32)
    bins = d.upload(zero)

    def run() -> None:
        d.cl.enqueue_copy(d.queue, bins, zero)
        k(d.queue, (GROUPS * BINS,), (BINS,), xb, eb, bins, x.shape[0])
        d.queue.finish()

    return Impl(run, lambda: d.download(bins, zero), keep=(xb, eb, bins))


HISTOGRAM_BASELINES: Table = {
    "cpu": {"C/OpenMP": c_histogram, "NumPy": numpy_histogram},
    "opencl": {"OpenCL C": opencl_histogram},
}


def histogram_case(device: str, quick: bool) -> Case:
    """inputs: ``x`` (f32[n]), ``edges`` (f32[257]); result: the 256 counts."""
    import gpuoff.lib as gl

    x, edges = _hist_inputs(quick)
    xb = go.asarray(x)
    last: list[go.Buffer[Any]] = []

    def run() -> None:
        with on_device(device):
            last[:] = [gl.histogram(xb, BINS, (0.0, 1.0))[0]]
            go.synchronize()

    return make_case(
        "lib_histogram", device, {"x": x, "edges": edges}, Impl(run, lambda: last[0].numpy()),
        extra=HISTOGRAM_BASELINES, size=f"{pow2(x.shape[0])} f32, {BINS} bins", unit="GB/s",
        work=4.0 * x.shape[0], reference=lambda: np.histogram(x, BINS, (0.0, 1.0))[0],
        rtol=0.0, atol=0.0,
    )  # fmt: skip


def bincount_case(device: str, quick: bool) -> Case:
    """inputs: ``data`` (u8[n]); result: the 256 counts (the suite's histogram inputs)."""
    import gpuoff.lib as gl

    n = 1 << (20 if quick else 24)
    data = np.minimum(rng().exponential(40.0, n), 255).astype(np.uint8)
    db = go.asarray(data)
    last: list[go.Buffer[Any]] = []

    def run() -> None:
        with on_device(device):
            last[:] = [gl.bincount(db, minlength=BINS)]
            go.synchronize()

    return make_case(
        "lib_bincount", device, {"data": data}, Impl(run, lambda: last[0].numpy()),
        baselines_of="histogram", size=f"{pow2(n)} u8, {BINS} bins", unit="GB/s",
        work=float(n), reference=lambda: np.bincount(data, minlength=BINS), rtol=0.0, atol=0.0,
    )  # fmt: skip


def numpy_sort(device: str, inputs: Inputs) -> Impl:
    x = inputs["x"]
    out = [x]

    def run() -> None:
        out[0] = np.sort(x, kind="stable")

    return Impl(run, lambda: out[0])


def _pyopencl(device: str) -> tuple[Any, Any]:
    from gpuoff.bench.harness import BenchSkip
    from gpuoff.bench.opencl_baselines import _device

    d = _device(device)
    if importlib.util.find_spec("mako") is None:  # PyOpenCL's sorts are Mako templates
        raise BenchSkip("PyOpenCL's sorts need Mako, which is not installed (pip install mako)")
    return d, d.queue


def pyopencl_radix_sort(device: str, inputs: Inputs) -> Impl:
    """``pyopencl.algorithm.RadixSort`` of the keys (its own scan and scatter kernels)."""
    import pyopencl.array as cla
    from pyopencl.algorithm import RadixSort

    d, queue = _pyopencl(device)
    x = inputs["x"]
    sorter = RadixSort(d.context, "unsigned int *keys", key_expr="keys[i]",
                       sort_arg_names=["keys"], key_dtype=np.uint32)  # fmt: skip
    xa = cla.to_device(queue, x)
    last: list[Any] = [xa]

    def run() -> None:
        (last[0],), _ = sorter(xa, key_bits=32, queue=queue)
        queue.finish()

    return Impl(run, lambda: last[0].get(), keep=(xa,))


def pyopencl_bitonic_sort(device: str, inputs: Inputs) -> Impl:
    """``pyopencl.bitonic_sort.BitonicSort`` (in place, not stable: the keys alone agree);
    each run sorts a fresh device copy of the keys (the copy is timed: one read and write)."""
    import pyopencl.array as cla

    d, queue = _pyopencl(device)
    x = inputs["x"]
    sorter = importlib.import_module("pyopencl.bitonic_sort").BitonicSort(d.context)
    xa = cla.to_device(queue, x)
    work = xa.copy()

    def run() -> None:
        d.cl.enqueue_copy(queue, work.data, xa.data)
        sorter(work, queue=queue)
        queue.finish()

    return Impl(run, lambda: work.get(), keep=(xa, work))


SORT_PEERS: Table = {
    "cpu": {"NumPy": numpy_sort},
    "opencl": {"PyOpenCL RadixSort": pyopencl_radix_sort,
               "PyOpenCL bitonic_sort": pyopencl_bitonic_sort},
}  # fmt: skip


def sort_case(device: str, quick: bool) -> Case:
    """inputs: ``x`` (u32[n], uniform); result: ``np.sort(x, kind="stable")``."""
    import gpuoff.lib as gl

    n = 1 << (20 if quick else 24)
    x = rng().integers(0, 2**32, n, dtype=np.uint32)
    xb = go.asarray(x)
    last: list[go.Buffer[Any]] = []

    def run() -> None:
        with on_device(device):
            last[:] = [gl.sort(xb)]
            go.synchronize()

    return make_case(
        "lib_sort", device, {"x": x}, Impl(run, lambda: last[0].numpy()), extra=SORT_PEERS,
        size=f"{pow2(n)} u32", unit="Mkeys/s", work=n / 1e6,
        reference=lambda: np.sort(x, kind="stable"), rtol=0.0, atol=0.0,
    )  # fmt: skip


ENTRIES = [
    Entry("lib_sort", "gl.sort: 2^24 u32 keys, stable LSD radix sort", sort_case, repeats=3),
    Entry("lib_histogram", "gl.histogram: f32 into 256 equal bins (NumPy's rule)",
          histogram_case),  # fmt: skip
    Entry("lib_bincount", "gl.bincount: u8 into 256 counts", bincount_case),
]
