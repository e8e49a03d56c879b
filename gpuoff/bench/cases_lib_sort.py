"""The lib suite's sorting and counting rows: ``gl.histogram``, ``gl.bincount`` (and
``gl.sort`` once it lands), against C/OpenMP and NumPy on ``cpu`` and a hand-written OpenCL C
twin (PyOpenCL has no histogram) on ``opencl``.

- ``lib_histogram``: 2^24 f32 (a tenth outside the range) into 256 equal bins over
  ``(0, 1)``; C/OpenMP computes NumPy's bin rule (``baselines/lib_histogram.c``), NumPy is
  ``np.histogram``; the OpenCL twin counts the same rule into local memory with atomics.
- ``lib_bincount``: 2^24 skewed u8 into 256 counts; C/OpenMP is the suite's histogram256
  (private per thread), NumPy ``np.bincount``, OpenCL the suite's histogram256 twin.
  ``gl.bincount`` synchronises once per call (its length is ``max(x) + 1``): that is timed.
"""

from __future__ import annotations

import ctypes
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


ENTRIES = [
    Entry("lib_histogram", "gl.histogram: f32 into 256 equal bins (NumPy's rule)",
          histogram_case),  # fmt: skip
    Entry("lib_bincount", "gl.bincount: u8 into 256 counts", bincount_case),
]
