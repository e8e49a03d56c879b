"""The ``lib`` suite's reductions, scans and selections: ``gl.sum``, ``gl.cumsum``,
``gl.compress`` against C/OpenMP (sum, cumsum) and NumPy on ``cpu`` and PyOpenCL's own
library kernels on ``opencl:N`` (``ReductionKernel``, ``InclusiveScanKernel``,
``pyopencl.algorithm.copy_if``), all on the same device and the same inputs.

C baselines (``cpu``): ``baselines/reduction.c`` -- ``#pragma omp parallel for simd
reduction(+:total)``, ``-O3 -march=native -fno-math-errno``: each thread sums its static share
in SIMD lanes, then OpenMP combines the threads' partial sums (an order that depends on the
thread count, unlike gl.sum's) -- and the two-pass OpenMP scans of ``cases_scan``
(``baselines/scan.c``, ``scan_inscan.c``). PyOpenCL's kernels need Mako (the bench extra).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import gpuoff as go
from gpuoff.bench.harness import BenchSkip, Case, Impl
from gpuoff.bench.registry import Entry, Inputs, make_case, on_device, pow2, rng

Factory = Callable[[str, Inputs], Impl]


def _pyopencl(device: str) -> tuple[Any, Any, Any]:
    """(pyopencl, its array module, gpuoff's queue on ``device``), or BenchSkip saying why."""
    from gpuoff.bench.opencl_baselines import _device

    d = _device(device)
    try:
        import pyopencl.array as cl_array
    except ImportError as exc:
        raise BenchSkip(f"pyopencl.array is unavailable ({exc})") from exc
    return d.cl, cl_array, d.queue


# --- gl.sum ---------------------------------------------------------------------------------


def sum_case(device: str, quick: bool) -> Case:
    """inputs: ``x`` (f32[n]); result: ``[sum(x)]``."""
    import gpuoff.lib as gl

    n = 1 << (20 if quick else 24)
    x = rng().random(n, dtype=np.float32)
    with on_device(device):
        xb, out = go.asarray(x), go.zeros((), go.f32)

    def run() -> None:
        with on_device(device):
            gl.sum(xb, out=out)
            go.synchronize()

    return make_case(
        "lib_sum", device, {"x": x}, Impl(run, lambda: out.numpy().reshape(1)),
        baselines_of="reduction", extra=SUM_BASELINES, size=f"{pow2(n)} f32", unit="GB/s",
        work=4.0 * n, reference=lambda: np.array([x.astype(np.float64).sum()]), rtol=1e-5,
        atol=0.0,
    )  # fmt: skip


def pyopencl_reduction(device: str, inputs: Inputs) -> Impl:
    """PyOpenCL's ``ReductionKernel`` (its own two-stage tree) summing the same array."""
    cl, cl_array, queue = _pyopencl(device)
    try:
        from pyopencl.reduction import ReductionKernel
    except ImportError as exc:
        raise BenchSkip(f"pyopencl.reduction needs Mako ({exc})") from exc
    k = ReductionKernel(queue.context, np.float32, neutral="0", reduce_expr="a+b",
                        map_expr="x[i]", arguments="__global const float *x")  # fmt: skip
    xd = cl_array.to_device(queue, inputs["x"])
    last: list[Any] = []

    def run() -> None:
        last[:] = [k(xd, queue=queue, return_event=False)]
        queue.finish()

    return Impl(run, lambda: np.asarray(last[0].get()).reshape(1), keep=(xd,))


SUM_BASELINES: dict[str, dict[str, Factory]] = {"opencl": {"PyOpenCL": pyopencl_reduction}}
"""Beyond the ``reduction`` entry's own baselines (C/OpenMP, NumPy; the OpenCL C twin)."""


# --- gl.cumsum --------------------------------------------------------------------------------


def cumsum_case(device: str, quick: bool) -> Case:
    """inputs: ``x`` (i32[n]); result: ``np.cumsum(x, dtype=np.int32)``."""
    import gpuoff.lib as gl
    from gpuoff.bench.cases_scan import c_scan, c_scan_inscan, numpy_scan

    n = 1 << (20 if quick else 24)
    x = rng().integers(0, 4, n, dtype=np.int32)
    with on_device(device):
        xb, out = go.asarray(x), go.zeros(n, go.i32)

    def run() -> None:
        with on_device(device):
            gl.cumsum(xb, dtype=np.int32, out=out)
            go.synchronize()

    table: dict[str, dict[str, Factory]] = {
        "cpu": {"C/OpenMP": c_scan, "C/OpenMP+inscan": c_scan_inscan, "NumPy": numpy_scan},
        "opencl": {"PyOpenCL": pyopencl_scan},
    }
    return make_case(
        "lib_cumsum", device, {"x": x}, Impl(run, out.numpy), baselines_of="lib_cumsum",
        extra=table, size=f"{pow2(n)} i32", unit="GB/s", work=8.0 * n,
        reference=lambda: np.cumsum(x, dtype=np.int32), rtol=0.0, atol=0.0,
    )  # fmt: skip


def pyopencl_scan(device: str, inputs: Inputs) -> Impl:
    """PyOpenCL's ``InclusiveScanKernel`` (a ``GenericScanKernel``) over the same array."""
    cl, cl_array, queue = _pyopencl(device)
    try:
        from pyopencl.scan import InclusiveScanKernel
    except ImportError as exc:
        raise BenchSkip(f"pyopencl.scan needs Mako ({exc})") from exc
    k = InclusiveScanKernel(queue.context, np.dtype(np.int32), "a+b", neutral="0")
    xd = cl_array.to_device(queue, inputs["x"])
    od = cl_array.empty_like(xd)

    def run() -> None:
        k(xd, od, queue=queue)
        queue.finish()

    return Impl(run, od.get, keep=(xd, od))


# --- gl.compress ------------------------------------------------------------------------------


def compress_case(device: str, quick: bool) -> Case:
    """inputs: ``x`` (f32[n]), ``mask`` (bool[n], about half set); result: ``x[mask]``."""
    import gpuoff.lib as gl

    n = 1 << (20 if quick else 24)
    x = rng().random(n, dtype=np.float32)
    mask = rng().random(n) < 0.5
    with on_device(device):
        xb, mb = go.asarray(x), go.asarray(mask)
    last: list[go.Buffer[Any]] = []

    def run() -> None:
        with on_device(device):
            last[:] = [gl.compress(mb, xb)]  # it synchronises: the count sizes the result
            go.synchronize()

    table: dict[str, dict[str, Factory]] = {
        "cpu": {"NumPy": numpy_compress},
        "opencl": {"PyOpenCL": pyopencl_compress},
    }
    return make_case(
        "lib_compress", device, {"x": x, "mask": mask}, Impl(run, lambda: last[0].numpy()),
        baselines_of="lib_compress", extra=table, size=f"{pow2(n)} f32, half kept",
        unit="GB/s", work=5.0 * n + 2.0 * n, reference=lambda: x[mask], rtol=0.0, atol=0.0,
    )  # fmt: skip


def numpy_compress(device: str, inputs: Inputs) -> Impl:
    x, mask = inputs["x"], inputs["mask"]
    last: list[np.ndarray[Any, Any]] = []

    def run() -> None:
        last[:] = [x[mask]]

    return Impl(run, lambda: last[0])


def pyopencl_compress(device: str, inputs: Inputs) -> Impl:
    """``pyopencl.algorithm.copy_if`` with the mask as an extra argument (its scan-based
    stream compaction), reading the count back as gl.compress does."""
    cl, cl_array, queue = _pyopencl(device)
    try:
        from pyopencl.algorithm import copy_if
    except ImportError as exc:
        raise BenchSkip(f"pyopencl.algorithm needs Mako ({exc})") from exc
    xd = cl_array.to_device(queue, inputs["x"])
    md = cl_array.to_device(queue, inputs["mask"].astype(np.uint8))
    last: list[Any] = []

    def run() -> None:
        out, count, _ = copy_if(xd, "mask[i] != 0", extra_args=[("mask", md)], queue=queue)
        last[:] = [out, int(count.get())]
        queue.finish()

    return Impl(run, lambda: last[0].get()[: last[1]], keep=(xd, md))


ENTRIES = [
    Entry("lib_sum", "gl.sum of f32 (blocked, deterministic)", sum_case,
          backends=frozenset({"cpu", "opencl"})),
    Entry("lib_cumsum", "gl.cumsum of i32 (two-pass, chunked)", cumsum_case,
          backends=frozenset({"cpu", "opencl"})),
    Entry("lib_compress", "gl.compress of f32 by a bool mask (stream compaction)",
          compress_case, backends=frozenset({"cpu", "opencl"})),
]  # fmt: skip
"""The suite entries of this module (gathered by ``cases_lib``)."""
