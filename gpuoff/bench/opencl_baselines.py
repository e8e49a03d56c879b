"""Baselines on ``opencl:*`` devices: hand-written OpenCL C twins of the suite's kernels, run
through plain pyopencl on the same device (same context and queue as gpuoff's ``opencl:N``).

``OPENCL_BASELINES[kernel]`` is a :data:`~gpuoff.bench.registry.BaselineFactory`:
``factory(device, inputs) -> Impl``, where ``device`` is ``"opencl:N"`` and ``inputs`` holds the
case's NumPy inputs by name (see each case function's docstring in ``suite.py`` and
``cases_compute.py``). Each factory builds its program and uploads its inputs once; ``run``
enqueues the kernel and waits (``queue.finish()``), as the gpuoff side ends with
``go.synchronize()``; ``result`` copies the output back for the check against NumPy. The
kernels are the same algorithms as ``gpuoff.bench.kernels``, written the way a person writes
OpenCL C: ``restrict`` pointers, ``int``/``size_t`` indices, no bounds checks. A factory raises
``BenchSkip`` when pyopencl or the device is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from gpuoff.bench.harness import BenchSkip, Impl

Inputs = dict[str, Any]
Factory = Callable[[str, Inputs], Impl]

SAXPY = """
__kernel void saxpy(const float a, __global const float* restrict x,
                    __global float* restrict y, const int n)
{
    int i = get_global_id(0);
    if (i < n) y[i] = a * x[i] + y[i];
}
"""

STENCIL = """
__kernel void stencil5(__global const float* restrict src, __global float* restrict dst,
                       const int rows, const int cols)
{
    long j = get_global_id(0);  /* long: int indices cost PoCL a sign extension per access */
    long i = get_global_id(1);
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

BLACK_SCHOLES = """
__kernel void black_scholes(__global const float* restrict price,
                            __global const float* restrict strike,
                            __global const float* restrict years, const float rate,
                            const float vol, __global float* restrict call,
                            __global float* restrict put, const int n)
{
    int i = get_global_id(0);
    if (i >= n) return;
    float s = price[i], k = strike[i], t = years[i];
    float sqrt_t = sqrt(t);
    float d1 = (log(s / k) + (rate + 0.5f * vol * vol) * t) / (vol * sqrt_t);
    float d2 = d1 - vol * sqrt_t;
    float cnd1 = 0.5f * (1.0f + erf(d1 * 0.70710678f));
    float cnd2 = 0.5f * (1.0f + erf(d2 * 0.70710678f));
    float disc = k * exp(-rate * t);
    call[i] = s * cnd1 - disc * cnd2;
    put[i] = disc * (1.0f - cnd2) - s * (1.0f - cnd1);
}
"""

REDUCE = """
#define BLOCK 256
void atomic_add_float(volatile __global float* p, float v)
{
    volatile __global uint* q = (volatile __global uint*)p;
    uint seen = *q, expected;
    do {
        expected = seen;
        seen = atomic_cmpxchg(q, expected, as_uint(as_float(expected) + v));
    } while (seen != expected);
}

__kernel void sum_reduce(__global const float* restrict x, __global float* restrict out,
                         const int n)
{
    __local float tile[BLOCK];
    int lid = get_local_id(0);
    float acc = 0.0f;
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) acc += x[i];
    tile[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = BLOCK / 2; s > 0; s /= 2) {
        if (lid < s) tile[lid] += tile[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) atomic_add_float(out, tile[0]);
}
"""

SGEMM = """
__kernel void sgemm(__global const float* restrict a, __global const float* restrict b,
                    __global float* restrict c, const int n)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    if (i < n && j < n) {
        float acc = 0.0f;
        for (int k = 0; k < n; k++) acc += a[i * n + k] * b[k * n + j];
        c[i * n + j] = acc;
    }
}
"""

HISTOGRAM = """
__kernel void histogram256(__global const uchar* restrict data, __global uint* restrict bins,
                           const int n)
{
    __local uint local_bins[256];
    int lid = get_local_id(0);
    local_bins[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_add(&local_bins[data[i]], 1u);
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&bins[lid], local_bins[lid]);
}
"""

NBODY = """
float gravity(float dx, float dy, float dz, float m)
{
    float r2 = dx * dx + dy * dy + dz * dz + 0.001f;
    float inv = 1.0f / sqrt(r2);
    return m * inv * inv * inv;
}

__kernel void nbody(__global const float* restrict px, __global const float* restrict py,
                    __global const float* restrict pz, __global const float* restrict mass,
                    __global float* restrict ax, __global float* restrict ay,
                    __global float* restrict az, const int n)
{
    int i = get_global_id(0);
    if (i >= n) return;
    float xi = px[i], yi = py[i], zi = pz[i];
    float fx = 0.0f, fy = 0.0f, fz = 0.0f;
    for (int j = 0; j < n; j++) {
        float dx = px[j] - xi, dy = py[j] - yi, dz = pz[j] - zi;
        float s = gravity(dx, dy, dz, mass[j]);
        fx += dx * s;
        fy += dy * s;
        fz += dz * s;
    }
    ax[i] = fx;
    ay[i] = fy;
    az[i] = fz;
}
"""

GROUPS = 256  # work-groups of the grid-stride kernels, as in cases_compute.py


class _Device:
    """The pyopencl context and queue of gpuoff's ``opencl:N``, with built programs."""

    def __init__(self, name: str) -> None:
        try:
            import pyopencl as cl

            from gpuoff.runtime.devices import get_device
        except ImportError as exc:
            raise BenchSkip(f"pyopencl is not installed ({exc})") from exc
        try:
            dev = get_device(name)
        except Exception as exc:  # noqa: BLE001 - any failure to open is a skip here
            raise BenchSkip(f"{name} is unavailable: {exc}") from exc
        self.cl: Any = cl
        self.context: Any = getattr(dev, "context", None)
        self.queue: Any = getattr(dev, "queue", None)
        if self.context is None or self.queue is None:
            raise BenchSkip(f"{name} is not an OpenCL device")
        self._programs: dict[str, Any] = {}

    def kernel(self, source: str, name: str, dtypes: list[Any]) -> Any:
        prg = self._programs.get(source)
        if prg is None:
            prg = self._programs[source] = self.cl.Program(self.context, source).build()
        k = self.cl.Kernel(prg, name)
        k.set_scalar_arg_dtypes(dtypes)
        return k

    def upload(self, a: np.ndarray[Any, Any]) -> Any:
        flags = self.cl.mem_flags.READ_WRITE | self.cl.mem_flags.COPY_HOST_PTR
        return self.cl.Buffer(self.context, flags, hostbuf=np.ascontiguousarray(a))

    def download(self, buf: Any, like: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        out = np.empty_like(like)
        self.cl.enqueue_copy(self.queue, out, buf)
        return out


@cache
def _device(name: str) -> _Device:
    return _Device(name)


I32 = np.int32
F32 = np.float32


def saxpy(device: str, inputs: Inputs) -> Impl:
    d = _device(device)
    k = d.kernel(SAXPY, "saxpy", [F32, None, None, I32])
    x, y = inputs["x"], inputs["y"]
    xb, yb, n, a = d.upload(x), d.upload(y), x.shape[0], float(inputs["a"])

    def run() -> None:
        k(d.queue, (n,), None, a, xb, yb, n)
        d.queue.finish()

    return Impl(run, lambda: d.download(yb, y), keep=(xb, yb))


def launch(device: str, inputs: Inputs) -> Impl:
    """pyopencl's own launch cost: ``ops`` launches of the 64-item saxpy, then one wait."""
    d = _device(device)
    k = d.kernel(SAXPY, "saxpy", [F32, None, None, I32])
    x, y, ops = inputs["x"], inputs["y"], int(inputs["ops"])
    xb, yb, n, a = d.upload(x), d.upload(y), x.shape[0], float(inputs["a"])

    def run() -> None:
        for _ in range(ops):
            k(d.queue, (n,), None, a, xb, yb, n)
        d.queue.finish()

    return Impl(run, None, ops=ops, keep=(xb, yb))


def stencil2d(device: str, inputs: Inputs) -> Impl:
    d = _device(device)
    k = d.kernel(STENCIL, "stencil5", [None, None, I32, I32])
    src = inputs["src"]
    rows, cols = src.shape
    sb, db = d.upload(src), d.upload(np.zeros_like(src))

    def run() -> None:
        k(d.queue, (cols, rows), None, sb, db, rows, cols)
        d.queue.finish()

    return Impl(run, lambda: d.download(db, src), keep=(sb, db))


def black_scholes(device: str, inputs: Inputs) -> Impl:
    d = _device(device)
    k = d.kernel(BLACK_SCHOLES, "black_scholes", [None, None, None, F32, F32, None, None, I32])
    price = inputs["price"]
    n = price.shape[0]
    ins = [d.upload(inputs[name]) for name in ("price", "strike", "years")]
    call, put = d.upload(np.zeros_like(price)), d.upload(np.zeros_like(price))
    rate, vol = float(inputs["rate"]), float(inputs["vol"])

    def run() -> None:
        k(d.queue, (n,), None, *ins, rate, vol, call, put, n)
        d.queue.finish()

    def result() -> np.ndarray[Any, Any]:
        return np.stack([d.download(call, price), d.download(put, price)])

    return Impl(run, result, keep=(*ins, call, put))


def reduction(device: str, inputs: Inputs) -> Impl:
    d = _device(device)
    k = d.kernel(REDUCE, "sum_reduce", [None, None, I32])
    x = inputs["x"]
    xb, n = d.upload(x), x.shape[0]
    out = d.upload(np.zeros(1, np.float32))
    zero = np.zeros(1, np.float32)

    def run() -> None:
        d.cl.enqueue_copy(d.queue, out, zero)  # the gpuoff side allocates a zeroed result
        k(d.queue, (GROUPS * 256,), (256,), xb, out, n)
        d.queue.finish()

    return Impl(run, lambda: d.download(out, zero), keep=(xb, out))


def sgemm(device: str, inputs: Inputs) -> Impl:
    d = _device(device)
    k = d.kernel(SGEMM, "sgemm", [None, None, None, I32])
    a, b = inputs["a"], inputs["b"]
    n = a.shape[0]
    ab, bb, cb = d.upload(a), d.upload(b), d.upload(np.zeros_like(a))

    def run() -> None:
        k(d.queue, (n, n), None, ab, bb, cb, n)
        d.queue.finish()

    return Impl(run, lambda: d.download(cb, a), keep=(ab, bb, cb))


def histogram(device: str, inputs: Inputs) -> Impl:
    d = _device(device)
    k = d.kernel(HISTOGRAM, "histogram256", [None, None, I32])
    data = inputs["data"]
    db, n = d.upload(data), data.shape[0]
    zero = np.zeros(256, np.uint32)
    bins = d.upload(zero)

    def run() -> None:
        d.cl.enqueue_copy(d.queue, bins, zero)
        k(d.queue, (GROUPS * 256,), (256,), db, bins, n)
        d.queue.finish()

    return Impl(run, lambda: d.download(bins, zero), keep=(db, bins))


def nbody(device: str, inputs: Inputs) -> Impl:
    d = _device(device)
    k = d.kernel(NBODY, "nbody", [None] * 7 + [I32])
    px = inputs["px"]
    n = px.shape[0]
    ins = [d.upload(inputs[name]) for name in ("px", "py", "pz", "mass")]
    outs = [d.upload(np.zeros_like(px)) for _ in range(3)]

    def run() -> None:
        k(d.queue, (n,), None, *ins, *outs, n)
        d.queue.finish()

    def result() -> np.ndarray[Any, Any]:
        return np.stack([d.download(o, px) for o in outs])

    return Impl(run, result, keep=(*ins, *outs))


OPENCL_BASELINES: dict[str, Factory] = {
    "saxpy": saxpy,
    "stencil2d": stencil2d,
    "black_scholes": black_scholes,
    "launch": launch,
    "reduction": reduction,
    "sgemm": sgemm,
    "histogram": histogram,
    "nbody": nbody,
}
"""Kernel name (the suite entry's) -> factory of its hand-written OpenCL C baseline."""
