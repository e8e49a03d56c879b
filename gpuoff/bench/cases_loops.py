"""Rows for kernels written with loops inside: grid-stride loops and one work-group per row.

- ``saxpy_gridstride``: ``for i in range(global_id(0), n, global_size(0))`` over a fixed grid
  (NVIDIA's "CUDA Pro Tip: Write Flexible Kernels with Grid-Stride Loops"), the twin of
  ``saxpy`` (one work-item per element), whose baselines it shares;
- ``black_scholes_gridstride``: the cuda-samples ``BlackScholes`` shape, a fixed grid of 480
  blocks of 128 threads each looping over the options, the cumulative normal in a device
  function; the arithmetic is that of the suite's ``black_scholes`` (its twin), so that the
  pair measures the loop form alone;
- ``softmax``: a row-wise softmax with one work-group per row, the shape of Triton's fused
  softmax tutorial (one program per row: max, exponentials, sum, scale), against NumPy, C and
  the peers.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32
from gpuoff.bench.harness import Case, Impl
from gpuoff.bench.registry import Entry, Inputs, Table, checked, make_case, on_device, pow2, rng

Factory = Callable[[str, Inputs], Impl]

STRIDE_GRID = 256 * 256
"""Work-items of the grid-stride saxpy: 256 groups of 256, enough for any CPU or small GPU."""
BS_BLOCKS, BS_THREADS = 480, 128
"""The cuda-samples BlackScholes launch: 480 blocks of 128 threads."""
SOFTMAX_BLOCK = 256
"""Work-items per row of ``softmax_rows`` (a power of two: a tree reduction)."""


@go.kernel
def saxpy_gridstride(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    """``y = a * x + y``, each work-item striding over the array by the grid's size."""
    for i in range(go.global_id(0), y.shape[0], go.global_size(0)):
        y[i] = a * x[i] + y[i]


@go.func
def cnd(d: f32) -> f32:
    """The cumulative normal distribution, ``0.5 * (1 + erf(d / sqrt(2)))``."""
    return 0.5 * (1.0 + go.erf(d * 0.70710678))


@go.kernel
def black_scholes_gridstride(
    price: Borrow[Array[f32]],
    strike: Borrow[Array[f32]],
    years: Borrow[Array[f32]],
    rate: f32,
    vol: f32,
    call: BorrowMut[Array[f32]],
    put: BorrowMut[Array[f32]],
) -> None:
    """European call and put prices, cuda-samples style: a grid-stride loop over the options."""
    for i in range(go.global_id(0), call.shape[0], go.global_size(0)):
        s = price[i]
        k = strike[i]
        t = years[i]
        sqrt_t = go.sqrt(t)
        d1 = (go.log(s / k) + (rate + 0.5 * vol * vol) * t) / (vol * sqrt_t)
        d2 = d1 - vol * sqrt_t
        cnd1 = cnd(d1)
        cnd2 = cnd(d2)
        disc = k * go.exp(-rate * t)
        call[i] = s * cnd1 - disc * cnd2
        put[i] = disc * (1.0 - cnd2) - s * (1.0 - cnd1)


@go.kernel
def softmax_rows(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    """``out[r] = exp(x[r] - max(x[r])) / sum(...)``, one work-group of ``SOFTMAX_BLOCK`` per
    row: each work-item strides over the row, partial maxima and sums meet in a shared tree.
    Launch ``(rows * SOFTMAX_BLOCK,)`` in blocks of ``SOFTMAX_BLOCK``."""
    row = go.group_id(0)
    lid = go.local_id(0)
    cols = x.shape[1]
    part = go.shared(SOFTMAX_BLOCK, go.f32)
    top = x[row, 0]
    for j in range(lid, cols, SOFTMAX_BLOCK):
        top = max(top, x[row, j])
    part[lid] = top
    go.barrier()
    s = SOFTMAX_BLOCK // 2
    while s > 0:
        if lid < s:
            part[lid] = max(part[lid], part[lid + s])
        go.barrier()
        s //= 2
    top = part[0]
    go.barrier()  # everyone has read the maximum before the tile is reused
    acc = go.f32(0.0)
    for j in range(lid, cols, SOFTMAX_BLOCK):
        e = go.exp(x[row, j] - top)
        out[row, j] = e
        acc += e
    part[lid] = acc
    go.barrier()
    s = SOFTMAX_BLOCK // 2
    while s > 0:
        if lid < s:
            part[lid] += part[lid + s]
        go.barrier()
        s //= 2
    inv = 1.0 / part[0]
    for j in range(lid, cols, SOFTMAX_BLOCK):
        out[row, j] *= inv


# --- cases ------------------------------------------------------------------------------------


def saxpy_gridstride_case(device: str, quick: bool) -> Case:
    """inputs: as ``saxpy``."""
    from gpuoff.bench.references import saxpy_ref

    n = 1 << (20 if quick else 24)
    x = rng().random(n, dtype=np.float32)
    y = rng().random(n, dtype=np.float32) + np.float32(1.0)
    a = 2.0
    with on_device(device):
        xb = go.asarray(x)

    def impl(checks: bool) -> Impl:
        k = checked(saxpy_gridstride, checks)
        with on_device(device):
            yb = go.array(y)

        def run() -> None:
            with on_device(device):
                k[STRIDE_GRID](a, xb, yb)
                go.synchronize()

        return Impl(run, yb.numpy)

    return make_case(
        "saxpy_gridstride", device, {"a": a, "x": x, "y": y}, impl(True),
        unchecked=impl(False), baselines_of="saxpy", extra=SAXPY_GRIDSTRIDE_BASELINES,
        twin="saxpy", size=f"{pow2(n)} f32, {STRIDE_GRID} items", unit="GB/s", work=12.0 * n,
        reference=lambda: saxpy_ref(a, x, y),
    )  # fmt: skip


def black_scholes_gridstride_case(device: str, quick: bool) -> Case:
    """inputs: as ``black_scholes``."""
    from gpuoff.bench.references import black_scholes_inputs, black_scholes_ref

    n = 1 << (18 if quick else 22)
    price, strike, years = black_scholes_inputs(n)
    rate, vol = 0.02, 0.30
    with on_device(device):
        pb, sb, yb = go.asarray(price), go.asarray(strike), go.asarray(years)

    def impl(checks: bool) -> Impl:
        k = checked(black_scholes_gridstride, checks)
        with on_device(device):
            call, put = go.zeros(n, go.f32), go.zeros(n, go.f32)

        def run() -> None:
            with on_device(device):
                k[(BS_BLOCKS * BS_THREADS,), (BS_THREADS,)](pb, sb, yb, rate, vol, call, put)
                go.synchronize()

        return Impl(run, lambda: np.stack([call.numpy(), put.numpy()]))

    def reference() -> np.ndarray[Any, Any]:
        wide = [a.astype(np.float64) for a in (price, strike, years)]
        return np.stack(black_scholes_ref(wide[0], wide[1], wide[2], rate, vol))

    inputs = {"price": price, "strike": strike, "years": years, "rate": rate, "vol": vol}
    return make_case(
        "black_scholes_gridstride", device, inputs, impl(True), unchecked=impl(False),
        baselines_of="black_scholes", extra=BS_GRIDSTRIDE_BASELINES, twin="black_scholes",
        size=f"{pow2(n)} f32, {BS_BLOCKS}x{BS_THREADS} items", unit="options/s",
        work=float(n), reference=reference, rtol=1e-3, atol=2e-3,
    )  # fmt: skip


def softmax_reference(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Row-wise softmax in float64."""
    wide = x.astype(np.float64)
    e = np.exp(wide - wide.max(axis=1, keepdims=True))
    result: np.ndarray[Any, Any] = e / e.sum(axis=1, keepdims=True)
    return result


def softmax_case(device: str, quick: bool) -> Case:
    """inputs: ``x`` (f32[rows, cols]); result: its row-wise softmax."""
    rows, cols = (1024, 1024) if quick else (4096, 1024)
    x = (rng().standard_normal((rows, cols)) * 4.0).astype(np.float32)
    with on_device(device):
        xb = go.asarray(x)

    def impl(checks: bool) -> Impl:
        k = checked(softmax_rows, checks)
        with on_device(device):
            ob = go.zeros((rows, cols), go.f32)

        def run() -> None:
            with on_device(device):
                k[(rows * SOFTMAX_BLOCK,), (SOFTMAX_BLOCK,)](xb, ob)
                go.synchronize()

        return Impl(run, ob.numpy)

    return make_case(
        "softmax", device, {"x": x}, impl(True), unchecked=impl(False),
        extra=SOFTMAX_BASELINES, size=f"{rows}x{cols} f32, a work-group per row",
        unit="GB/s", work=8.0 * rows * cols, reference=lambda: softmax_reference(x),
        rtol=1e-4, atol=1e-8,
    )  # fmt: skip


# --- baselines --------------------------------------------------------------------------------


def _c_softmax(lib: str) -> Factory:
    def factory(device: str, inputs: Inputs) -> Impl:
        from gpuoff.bench.cbuild import load_baseline

        fn = load_baseline(lib).softmax_rows
        fn.argtypes = [ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p]
        fn.restype = None
        x = inputs["x"]
        out = np.empty_like(x)
        args = (x.shape[0], x.shape[1], int(x.ctypes.data), int(out.ctypes.data))

        def run() -> None:
            fn(*args)

        return Impl(run, lambda: out, keep=(x, out))

    return factory


def numpy_softmax(device: str, inputs: Inputs) -> Impl:
    """The usual NumPy spelling, into preallocated arrays (no temporaries per run)."""
    x = inputs["x"]
    out = np.empty_like(x)
    top = np.empty((x.shape[0], 1), x.dtype)
    total = np.empty((x.shape[0], 1), x.dtype)

    def run() -> None:
        np.max(x, axis=1, keepdims=True, out=top)
        np.subtract(x, top, out=out)
        np.exp(out, out=out)
        np.sum(out, axis=1, keepdims=True, out=total)
        np.divide(out, total, out=out)

    return Impl(run, lambda: out)


LOOPS_CL = f"""
#define SB {SOFTMAX_BLOCK}
__kernel void saxpy_gridstride(const float a, __global const float* restrict x,
                               __global float* restrict y, const int n)
{{
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        y[i] = a * x[i] + y[i];
}}

float cnd(float d) {{ return 0.5f * (1.0f + erf(d * 0.70710678f)); }}

__kernel void black_scholes_gridstride(__global const float* restrict price,
                                       __global const float* restrict strike,
                                       __global const float* restrict years, const float rate,
                                       const float vol, __global float* restrict call,
                                       __global float* restrict put, const int n)
{{
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) {{
        float s = price[i], k = strike[i], t = years[i];
        float sqrt_t = sqrt(t);
        float d1 = (log(s / k) + (rate + 0.5f * vol * vol) * t) / (vol * sqrt_t);
        float d2 = d1 - vol * sqrt_t;
        float cnd1 = cnd(d1), cnd2 = cnd(d2);
        float disc = k * exp(-rate * t);
        call[i] = s * cnd1 - disc * cnd2;
        put[i] = disc * (1.0f - cnd2) - s * (1.0f - cnd1);
    }}
}}

__kernel void softmax_rows(__global const float* restrict x, __global float* restrict out,
                           const int cols)
{{
    __local float part[SB];
    int lid = get_local_id(0);
    long base = (long)get_group_id(0) * cols;
    float top = x[base];
    for (int j = lid; j < cols; j += SB) top = fmax(top, x[base + j]);
    part[lid] = top;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = SB / 2; s > 0; s >>= 1) {{
        if (lid < s) part[lid] = fmax(part[lid], part[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }}
    top = part[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    float acc = 0.0f;
    for (int j = lid; j < cols; j += SB) {{
        float e = exp(x[base + j] - top);
        out[base + j] = e;
        acc += e;
    }}
    part[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = SB / 2; s > 0; s >>= 1) {{
        if (lid < s) part[lid] += part[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }}
    float inv = 1.0f / part[0];
    for (int j = lid; j < cols; j += SB) out[base + j] *= inv;
}}
"""
"""The hand-written OpenCL C twins of this module's kernels."""


def opencl_saxpy_gridstride(device: str, inputs: Inputs) -> Impl:
    from gpuoff.bench.opencl_baselines import _device

    d = _device(device)
    k = d.kernel(LOOPS_CL, "saxpy_gridstride", [np.float32, None, None, np.int32])
    x, y = inputs["x"], inputs["y"]
    xb, yb, n, a = d.upload(x), d.upload(y), x.shape[0], float(inputs["a"])

    def run() -> None:
        k(d.queue, (STRIDE_GRID,), None, a, xb, yb, n)
        d.queue.finish()

    return Impl(run, lambda: d.download(yb, y), keep=(xb, yb))


def opencl_black_scholes_gridstride(device: str, inputs: Inputs) -> Impl:
    from gpuoff.bench.opencl_baselines import _device

    d = _device(device)
    f32_, i32_ = np.float32, np.int32
    k = d.kernel(LOOPS_CL, "black_scholes_gridstride",
                 [None, None, None, f32_, f32_, None, None, i32_])  # fmt: skip
    price = inputs["price"]
    n = price.shape[0]
    ins = [d.upload(inputs[name]) for name in ("price", "strike", "years")]
    call, put = d.upload(np.zeros_like(price)), d.upload(np.zeros_like(price))
    rate, vol = float(inputs["rate"]), float(inputs["vol"])

    def run() -> None:
        k(d.queue, (BS_BLOCKS * BS_THREADS,), (BS_THREADS,), *ins, rate, vol, call, put, n)
        d.queue.finish()

    def result() -> np.ndarray[Any, Any]:
        return np.stack([d.download(call, price), d.download(put, price)])

    return Impl(run, result, keep=(*ins, call, put))


def opencl_softmax(device: str, inputs: Inputs) -> Impl:
    from gpuoff.bench.opencl_baselines import _device

    d = _device(device)
    k = d.kernel(LOOPS_CL, "softmax_rows", [None, None, np.int32])
    x = inputs["x"]
    rows, cols = x.shape
    xb, ob = d.upload(x), d.upload(np.zeros_like(x))

    def run() -> None:
        k(d.queue, (rows * SOFTMAX_BLOCK,), (SOFTMAX_BLOCK,), xb, ob, cols)
        d.queue.finish()

    return Impl(run, lambda: d.download(ob, x), keep=(xb, ob))


SAXPY_GRIDSTRIDE_BASELINES: Table = {
    "opencl": {"OpenCL C, grid-stride": opencl_saxpy_gridstride}}  # fmt: skip
"""Beyond ``saxpy``'s own baselines: the hand-written grid-stride OpenCL C."""
BS_GRIDSTRIDE_BASELINES: Table = {
    "opencl": {"OpenCL C, grid-stride": opencl_black_scholes_gridstride}}  # fmt: skip
SOFTMAX_BASELINES: Table = {
    "cpu": {"C/OpenMP": _c_softmax("softmax"), "C/OpenMP+libmvec": _c_softmax("softmax_libmvec"),
            "NumPy": numpy_softmax},
    "opencl": {"OpenCL C": opencl_softmax},
}  # fmt: skip


ENTRIES = [
    Entry("saxpy_gridstride", "saxpy as a grid-stride loop over a fixed grid",
          saxpy_gridstride_case),
    Entry("black_scholes_gridstride", "Black-Scholes as cuda-samples writes it (grid-stride)",
          black_scholes_gridstride_case),
    Entry("softmax", "row-wise softmax, one work-group per row (Triton's tutorial shape)",
          softmax_case),
]  # fmt: skip
"""The suite entries of this module (registered by ``suite.py``)."""
