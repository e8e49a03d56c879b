"""The ``lib`` suite's dense rows: ``gl.matmul`` (f32, 1024² and 2048²), ``gl.softmax`` and
``gl.layer_norm`` (f32 rows of an attention-sized batch).

Baselines:

- ``cpu``: NumPy. For matmul that is OpenBLAS, run in a child process whose environment lacks
  ``OPENBLAS_CORETYPE`` and ``OPENBLAS_L2_SIZE`` (some machines here set them for old
  OpenBLAS builds; they slow a current one): the case's note says which kernel OpenBLAS chose
  there (threadpoolctl). Softmax and layer norm are NumPy's usual expressions.
- ``opencl``: OpenCL C twins of the library's own algorithms (PyOpenCL has no matmul, softmax
  or layer norm): the packing, register-blocked micro-kernel and unpacking of
  ``gpuoff.lib.dense``, and one work-group per row with a shared-memory tree for the rows.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import gpuoff as go
import gpuoff.lib as gl
from gpuoff.bench.harness import BenchSkip, Case, Impl
from gpuoff.bench.registry import Entry, Inputs, Table, make_case, on_device, rng
from gpuoff.lib import dense, rows
from gpuoff.lib._layout import on_cpu_like_device

Factory = Callable[[str, Inputs], Impl]
OPENBLAS_VARS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")

# --- NumPy's matmul in a child process --------------------------------------------------------

_CHILD = r"""
import sys, numpy as np
a, b = np.load(sys.argv[1]), np.load(sys.argv[2])
c = np.empty((a.shape[0], b.shape[1]), a.dtype)
try:
    import threadpoolctl
    info = [i for i in threadpoolctl.threadpool_info() if i.get("user_api") == "blas"]
    arch = ", ".join(f"{i['internal_api']} {i['version']} {i.get('architecture')}" for i in info)
except ImportError:
    arch = "threadpoolctl not installed"
print(arch, flush=True)
for line in sys.stdin:
    if line.strip() == "save":
        np.save(sys.argv[3], c)
    else:
        np.matmul(a, b, out=c)
    print("done", flush=True)
"""


class _ChildMatmul:
    """``np.matmul(a, b)`` in a child process without the OpenBLAS variables; ``run`` asks it
    for one product and waits for it (a pipe round trip, tens of microseconds)."""

    def __init__(self, a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> None:
        self.dir = tempfile.TemporaryDirectory(prefix="gpuoff-bench-")
        paths = [str(Path(self.dir.name) / f) for f in ("a.npy", "b.npy", "c.npy")]
        np.save(paths[0], a)
        np.save(paths[1], b)
        self.out = paths[2]
        env = {k: v for k, v in os.environ.items() if k not in OPENBLAS_VARS}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _CHILD, *paths], env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )  # fmt: skip
        assert self.proc.stdout is not None
        self.kernel = self.proc.stdout.readline().strip()

    def ask(self, what: str) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(what + "\n")
        self.proc.stdin.flush()
        if self.proc.stdout.readline().strip() != "done":
            raise RuntimeError("the NumPy matmul child process died")

    def result(self) -> np.ndarray[Any, Any]:
        self.ask("save")
        out: np.ndarray[Any, Any] = np.load(self.out)
        return out

    def __del__(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()


_children: dict[int, _ChildMatmul] = {}


def numpy_matmul(device: str, inputs: Inputs) -> Impl:
    child = _ChildMatmul(inputs["a"], inputs["b"])
    _children[id(inputs)] = child
    return Impl(lambda: child.ask("run"), child.result, keep=(child,))


# --- OpenCL C twins ------------------------------------------------------------------------------

MATMUL_CL = """
#define MR {mr}
#define NR {nr}
__kernel void pack_a(__global const float* restrict a, __global float* restrict ap,
                     const int m, const int k, const int panels) {{
    int kk = get_global_id(0), p = get_global_id(1);
    if (kk >= k || p >= panels) return;
    for (int r = 0; r < MR; r++) {{
        int row = p * MR + r;
        ap[((long)p * k + kk) * MR + r] = row < m ? a[(long)row * k + kk] : 0.0f;
    }}
}}
__kernel void pack_b(__global const float* restrict b, __global float* restrict bp,
                     const int k, const int n, const int panels) {{
    int q = get_global_id(0), kk = get_global_id(1);
    if (q >= panels || kk >= k) return;
    for (int j = 0; j < NR; j++) {{
        int col = q * NR + j;
        bp[((long)q * k + kk) * NR + j] = col < n ? b[(long)kk * n + col] : 0.0f;
    }}
}}
__kernel void micro(__global const float* restrict ap, __global const float* restrict bp,
                    __global float* restrict cp, const int k, const int k0, const int k1,
                    const int first) {{
    int j = get_local_id(0), q = get_group_id(0), p = get_global_id(1);
    int npan = get_num_groups(0);
    __global float* c = cp + ((long)p * npan + q) * (MR * NR) + j;
    float acc[MR];
    for (int r = 0; r < MR; r++) acc[r] = first ? 0.0f : c[r * NR];
    __global const float* a = ap + (long)p * k * MR;
    __global const float* b = bp + (long)q * k * NR + j;
    for (int kk = k0; kk < k1; kk++) {{
        float bv = b[kk * NR];
        for (int r = 0; r < MR; r++) acc[r] = fma(a[kk * MR + r], bv, acc[r]);
    }}
    for (int r = 0; r < MR; r++) c[r * NR] = acc[r];
}}
__kernel void unpack(__global const float* restrict cp, __global float* restrict c,
                     const int m, const int n, const int npan) {{
    int col = get_global_id(0), row = get_global_id(1);
    if (col >= n || row >= m) return;
    c[(long)row * n + col] = cp[(((long)(row / MR) * npan + col / NR) * MR + row % MR) * NR
                                + col % NR];
}}
"""
"""The OpenCL C twin of ``gpuoff.lib.dense``'s product on OpenCL devices (float32, one
matrix, a ``lanes`` tiling: work-item ``j`` of a group computes column ``j`` of a block)."""


def opencl_matmul(device: str, inputs: Inputs) -> Impl:
    from gpuoff.bench.opencl_baselines import _device

    a, b = inputs["a"], inputs["b"]
    m, k = a.shape
    n = b.shape[1]
    with on_device(device):  # the tiling gpuoff runs here (autotuned for large products)
        tile = dense._tiling(np.dtype(np.float32), m * n * k)
    if not tile.lanes:
        raise BenchSkip(f"gpuoff runs a non-lanes tiling on {device}; this twin is of lanes")
    d = _device(device)
    src = MATMUL_CL.format(mr=tile.mr, nr=tile.nr)
    i32 = np.int32
    pack_a = d.kernel(src, "pack_a", [None, None, i32, i32, i32])
    pack_b = d.kernel(src, "pack_b", [None, None, i32, i32, i32])
    micro = d.kernel(src, "micro", [None, None, None, i32, i32, i32, i32])
    unpack = d.kernel(src, "unpack", [None, None, i32, i32, i32])
    mp, np_ = -(-m // tile.mr), -(-n // tile.nr)
    c = np.zeros((m, n), np.float32)
    ab, bb, cb = d.upload(a), d.upload(b), d.upload(c)
    apb = d.upload(np.zeros(mp * k * tile.mr, np.float32))
    bpb = d.upload(np.zeros(np_ * k * tile.nr, np.float32))
    cpb = d.upload(np.zeros(mp * np_ * tile.mr * tile.nr, np.float32))

    def run() -> None:
        q = d.queue
        pack_a(q, (k, mp), (1, 1), ab, apb, m, k, mp)
        pack_b(q, (np_, k), (1, 1), bb, bpb, k, n, np_)
        for k0 in range(0, k, tile.kc):
            micro(q, (np_ * tile.nr, mp), (tile.nr, 1), apb, bpb, cpb, k, k0,
                  min(k, k0 + tile.kc), int(k0 == 0))  # fmt: skip
        unpack(q, (n, m), (1, 1), cpb, cb, m, n, np_)
        q.finish()

    return Impl(run, lambda: d.download(cb, c), keep=(ab, bb, cb, apb, bpb, cpb))


ROWS_CL = """
#define B {block}
float tree_max(__local float* part, int lid, float v) {{
    part[lid] = v; barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = B / 2; s > 0; s >>= 1) {{
        if (lid < s) part[lid] = fmax(part[lid], part[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }}
    float r = part[0]; barrier(CLK_LOCAL_MEM_FENCE); return r;
}}
float tree_sum(__local float* part, int lid, float v) {{
    part[lid] = v; barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = B / 2; s > 0; s >>= 1) {{
        if (lid < s) part[lid] += part[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }}
    float r = part[0]; barrier(CLK_LOCAL_MEM_FENCE); return r;
}}
__kernel void softmax(__global const float* restrict x, __global float* restrict y, const int n) {{
    __local float part[B];
    int lid = get_local_id(0);
    __global const float* xr = x + (long)get_group_id(0) * n;
    __global float* yr = y + (long)get_group_id(0) * n;
    float m = -INFINITY;
    for (int i = lid; i < n; i += B) m = fmax(m, xr[i]);
    m = tree_max(part, lid, m);
    float s = 0.0f;
    for (int i = lid; i < n; i += B) {{ float e = exp(xr[i] - m); yr[i] = e; s += e; }}
    s = tree_sum(part, lid, s);
    for (int i = lid; i < n; i += B) yr[i] = yr[i] / s;
}}
__kernel void layer_norm(__global const float* restrict x, __global const float* restrict w,
                         __global const float* restrict b, __global float* restrict y,
                         const int n, const float eps) {{
    __local float part[B];
    int lid = get_local_id(0);
    __global const float* xr = x + (long)get_group_id(0) * n;
    __global float* yr = y + (long)get_group_id(0) * n;
    float s = 0.0f;
    for (int i = lid; i < n; i += B) s += xr[i];
    float mean = tree_sum(part, lid, s) / n;
    float q = 0.0f;
    for (int i = lid; i < n; i += B) {{ float d = xr[i] - mean; q += d * d; }}
    float rstd = 1.0f / sqrt(tree_sum(part, lid, q) / n + eps);
    for (int i = lid; i < n; i += B) yr[i] = (xr[i] - mean) * rstd * w[i] + b[i];
}}
"""
"""The OpenCL C twins of ``gpuoff.lib.rows``' row kernels (float32)."""

ROWS_SERIAL_CL = """
#define L 16
__kernel void softmax(__global const float* restrict x, __global float* restrict y,
                      const int n) {
    int row = get_global_id(0);
    if (row >= get_global_size(0)) return;
    __global const float* xr = x + (long)row * n;
    __global float* yr = y + (long)row * n;
    int nch = n / L;
    float part[L];
    for (int j = 0; j < L; j++) part[j] = -INFINITY;
    for (int c = 0; c < nch; c++)
        for (int j = 0; j < L; j++) part[j] = fmax(part[j], xr[c * L + j]);
    float m = -INFINITY;
    for (int j = 0; j < L; j++) m = fmax(m, part[j]);
    for (int i = nch * L; i < n; i++) m = fmax(m, xr[i]);
    for (int i = 0; i < n; i++) yr[i] = exp(xr[i] - m);
    for (int j = 0; j < L; j++) part[j] = 0.0f;
    for (int c = 0; c < nch; c++)
        for (int j = 0; j < L; j++) part[j] += yr[c * L + j];
    float s = 0.0f;
    for (int j = 0; j < L; j++) s += part[j];
    for (int i = nch * L; i < n; i++) s += yr[i];
    for (int i = 0; i < n; i++) yr[i] = yr[i] / s;
}
__kernel void layer_norm(__global const float* restrict x, __global const float* restrict w,
                         __global const float* restrict b, __global float* restrict y,
                         const int n, const float eps) {
    int row = get_global_id(0);
    __global const float* xr = x + (long)row * n;
    __global float* yr = y + (long)row * n;
    int nch = n / L;
    float part[L];
    for (int j = 0; j < L; j++) part[j] = 0.0f;
    for (int c = 0; c < nch; c++)
        for (int j = 0; j < L; j++) part[j] += xr[c * L + j];
    float s = 0.0f;
    for (int j = 0; j < L; j++) s += part[j];
    for (int i = nch * L; i < n; i++) s += xr[i];
    float mean = s / n;
    for (int j = 0; j < L; j++) part[j] = 0.0f;
    for (int c = 0; c < nch; c++)
        for (int j = 0; j < L; j++) { float d = xr[c * L + j] - mean; part[j] += d * d; }
    float q = 0.0f;
    for (int j = 0; j < L; j++) q += part[j];
    for (int i = nch * L; i < n; i++) { float d = xr[i] - mean; q += d * d; }
    float rstd = 1.0f / sqrt(q / n + eps);
    for (int i = 0; i < n; i++) yr[i] = (xr[i] - mean) * rstd * w[i] + b[i];
}
"""
"""The OpenCL C twins of the row kernels ``gpuoff.lib.rows`` runs on CPU-like devices (one
work-item per row, 16 partial results; float32)."""


def _opencl_rows(name: str) -> Factory:
    def factory(device: str, inputs: Inputs) -> Impl:
        from gpuoff.bench.opencl_baselines import _device

        d = _device(device)
        with on_device(device):
            serial = on_cpu_like_device()
            block = rows.SERIAL_BLOCK if serial else rows._block()
        src = ROWS_SERIAL_CL if serial else ROWS_CL.format(block=block)
        x = inputs["x"]
        nrows, n = x.shape
        y = np.zeros_like(x)
        xb, yb = d.upload(x), d.upload(y)
        if name == "softmax":
            k = d.kernel(src, "softmax", [None, None, np.int32])
            args: tuple[Any, ...] = (xb, yb, n)
            keep: tuple[object, ...] = (xb, yb)
        else:
            k = d.kernel(src, "layer_norm", [None, None, None, None, np.int32, np.float32])
            wb, bb = d.upload(inputs["w"]), d.upload(inputs["b"])
            args, keep = (xb, wb, bb, yb, n, 1e-5), (xb, yb, wb, bb)

        grid = nrows if serial else nrows * block
        local = None if serial else (block,)  # rows need not divide into groups of 4

        def run() -> None:
            k(d.queue, (grid,), local, *args)
            d.queue.finish()

        return Impl(run, lambda: d.download(yb, y), keep=keep)

    return factory


# --- NumPy rows ----------------------------------------------------------------------------------


def numpy_softmax(device: str, inputs: Inputs) -> Impl:
    x = inputs["x"]
    out = np.empty_like(x)

    def run() -> None:
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        np.divide(e, e.sum(axis=-1, keepdims=True), out=out)

    return Impl(run, lambda: out)


def numpy_layer_norm(device: str, inputs: Inputs) -> Impl:
    x, w, b = inputs["x"], inputs["w"], inputs["b"]
    out = np.empty_like(x)

    def run() -> None:
        mean = x.mean(axis=-1, keepdims=True)
        var = x.var(axis=-1, keepdims=True)
        np.add((x - mean) / np.sqrt(var + np.float32(1e-5)) * w, b, out=out)

    return Impl(run, lambda: out)


# --- cases ---------------------------------------------------------------------------------------


def _matmul_case(n: int) -> Callable[[str, bool], Case]:
    def make(device: str, quick: bool) -> Case:
        size = 256 if quick else n
        a = rng().standard_normal((size, size), dtype=np.float32)
        b = rng().standard_normal((size, size), dtype=np.float32)
        with on_device(device):
            ab, bb = go.asarray(a), go.asarray(b)
            cb = go.empty((size, size), go.f32)

        def run() -> None:
            with on_device(device):
                gl.matmul(ab, bb, out=cb)
                go.synchronize()

        baselines: Table = {"cpu": {"NumPy": numpy_matmul}, "opencl": {"OpenCL C": opencl_matmul}}
        inputs = {"a": a, "b": b}
        case = make_case(
            f"lib_matmul_{n}", device, inputs, Impl(run, cb.numpy),
            baselines_of="lib_matmul", extra=baselines, size=f"{size}x{size} f32",
            unit="GFLOP/s", work=2.0 * size**3, rtol=1e-3, atol=1e-3 * size**0.5,
            reference=lambda: a.astype(np.float64) @ b.astype(np.float64),
        )  # fmt: skip
        child = _children.pop(id(inputs), None)
        if child is None:
            return case
        note = f"NumPy: {child.kernel}, without {' and '.join(OPENBLAS_VARS)}"
        return dataclasses.replace(case, note=note)

    return make


ROWS_SHAPE = (4096, 384)
"""Rows of softmax and layer norm: MiniLM's hidden size, a batch of 4096 tokens."""


def _rows_case(name: str) -> Callable[[str, bool], Case]:
    def make(device: str, quick: bool) -> Case:
        shape = (256, 384) if quick else ROWS_SHAPE
        x = rng().standard_normal(shape, dtype=np.float32) * np.float32(3)
        w = rng().standard_normal(shape[1], dtype=np.float32)
        b = rng().standard_normal(shape[1], dtype=np.float32)
        inputs = {"x": x, "w": w, "b": b}
        with on_device(device):
            xb, wb, bb = go.asarray(x), go.asarray(w), go.asarray(b)
            yb = go.empty(shape, go.f32)

        def run() -> None:
            with on_device(device):
                if name == "softmax":
                    gl.softmax(xb, out=yb)
                else:
                    gl.layer_norm(xb, wb, bb, out=yb)
                go.synchronize()

        x64 = x.astype(np.float64)

        def reference() -> np.ndarray[Any, Any]:
            if name == "softmax":
                e = np.exp(x64 - x64.max(axis=-1, keepdims=True))
                out: np.ndarray[Any, Any] = e / e.sum(axis=-1, keepdims=True)
                return out
            mean = x64.mean(axis=-1, keepdims=True)
            std = np.sqrt(x64.var(axis=-1, keepdims=True) + 1e-5)
            norm: np.ndarray[Any, Any] = (x64 - mean) / std
            return norm * w + b

        numpy_impl = numpy_softmax if name == "softmax" else numpy_layer_norm
        extra: Table = {"cpu": {"NumPy": numpy_impl}, "opencl": {"OpenCL C": _opencl_rows(name)}}
        return make_case(
            f"lib_{name}", device, inputs, Impl(run, yb.numpy), extra=extra,
            size=f"{shape[0]}x{shape[1]} f32", unit="GB/s", work=8.0 * x.size,
            reference=reference, rtol=1e-4, atol=1e-5,
        )  # fmt: skip

    return make


ENTRIES = [
    Entry("lib_matmul_1024", "gl.matmul f32 1024x1024 (packed panels, register blocks)",
          _matmul_case(1024), backends=frozenset({"cpu", "opencl", "cuda"}), repeats=5),
    Entry("lib_matmul_2048", "gl.matmul f32 2048x2048", _matmul_case(2048), repeats=3),
    Entry("lib_softmax", "gl.softmax f32 rows of 384 (max-subtracted)", _rows_case("softmax")),
    Entry("lib_layer_norm", "gl.layer_norm f32 rows of 384", _rows_case("layer_norm")),
]  # fmt: skip
"""The dense family's entries of the ``lib`` suite."""
