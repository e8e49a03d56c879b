"""The ``lib`` suite's FFT row: ``gl.fft`` of 2^20 complex64 values.

Baselines:

- ``cpu``: ``np.fft.fft`` (pocketfft; NumPy 2 keeps complex64 in single precision).
- ``opencl``: an OpenCL C twin of ``gpuoff.lib._fft_kernels``' passes (PyOpenCL has no FFT and
  pyvkfft is not installable here): the same radix-4 (and one radix-2) Stockham passes over
  ``float2`` with the same f64-made twiddle table, one launch per pass, ping-ponging.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import gpuoff as go
import gpuoff.lib as gl
from gpuoff.bench.harness import Case, Impl
from gpuoff.bench.registry import Entry, Inputs, Table, make_case, on_device, rng
from gpuoff.lib import fourier

FFT_CL = r"""
float2 cmul(float2 a, float2 b) { return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }

__kernel void radix4(__global const float2 *x, __global float2 *y, __global const float2 *tw,
                     long n, long stride) {
    long i = get_global_id(0);
    long m = n / 4;
    if (i >= m) return;
    long q = i & (stride - 1), t = i - q;
    float2 a = x[i], b = x[i + m], c = x[i + 2 * m], d = x[i + 3 * m];
    float2 apc = a + c, amc = a - c, bpd = b + d, bmd = b - d;
    float2 rot = (float2)(bmd.y, -bmd.x);
    long o = q + 4 * t;
    y[o] = apc + bpd;
    y[o + stride] = cmul(tw[t], amc + rot);
    y[o + 2 * stride] = cmul(tw[2 * t], apc - bpd);
    y[o + 3 * stride] = cmul(tw[3 * t], amc - rot);
}

__kernel void radix2(__global const float2 *x, __global float2 *y, __global const float2 *tw,
                     long n, long stride) {
    long i = get_global_id(0);
    long m = n / 2;
    if (i >= m) return;
    long q = i & (stride - 1), t = i - q;
    float2 a = x[i], b = x[i + m];
    y[q + 2 * t] = a + b;
    y[q + 2 * t + stride] = cmul(tw[t], a - b);
}
"""
"""The OpenCL C twin of the forward Stockham passes (complex64, one row)."""


def opencl_fft(device: str, inputs: Inputs) -> Impl:
    from gpuoff.bench.opencl_baselines import _device

    d = _device(device)
    x = inputs["x"]
    n = x.size
    tw = np.exp(-2j * np.pi * np.arange(n) / n).astype(np.complex64)
    bufs = [d.upload(x), d.upload(np.zeros_like(x)), d.upload(np.zeros_like(x))]
    twb = d.upload(tw)
    types = [None, None, None, np.int64, np.int64]
    k4, k2 = d.kernel(FFT_CL, "radix4", types), d.kernel(FFT_CL, "radix2", types)
    radices = fourier._radices(n)
    last = [0]  # the buffer the last pass wrote

    def run() -> None:
        src, dst, stride = 0, 1, 1
        for r in radices:
            k = k4 if r == 4 else k2
            k(d.queue, (n // r,), None, bufs[src], bufs[dst], twb, n, stride)
            src, dst = dst, (2 if dst == 1 else 1)
            stride *= r
        last[0] = src
        d.queue.finish()

    return Impl(run, lambda: d.download(bufs[last[0]], x), keep=(bufs, twb))


def numpy_fft(device: str, inputs: Inputs) -> Impl:
    x = inputs["x"]
    out = [np.empty_like(x)]

    def run() -> None:
        out[0] = np.fft.fft(x)

    return Impl(run, lambda: out[0])


def _fft_case(log_n: int) -> Callable[[str, bool], Case]:
    def make(device: str, quick: bool) -> Case:
        n = 1 << (14 if quick else log_n)
        g = rng()
        x = (g.standard_normal(n) + 1j * g.standard_normal(n)).astype(np.complex64)
        with on_device(device):
            xb = go.asarray(x)
            yb = go.empty((n,), go.complex64)

        def run() -> None:
            with on_device(device):
                gl.fft(xb, out=yb)
                go.synchronize()

        extra: Table = {"cpu": {"NumPy": numpy_fft}, "opencl": {"OpenCL C": opencl_fft}}
        scale = float(np.sqrt(n))
        return make_case(
            "lib_fft", device, {"x": x}, Impl(run, yb.numpy), extra=extra,
            size=f"2^{log_n if not quick else 14} complex64", unit="GFLOP/s",
            work=5.0 * n * np.log2(n), rtol=0.0, atol=2e-6 * scale * np.log2(n),
            reference=lambda: np.fft.fft(x.astype(np.complex128)),
        )  # fmt: skip

    return make


ENTRIES = [
    Entry("lib_fft", "gl.fft complex64 2^20 (radix-4 Stockham passes)", _fft_case(20),
          repeats=5),
]  # fmt: skip
"""The FFT family's entries of the ``lib`` suite."""
