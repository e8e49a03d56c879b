"""Hand-written CUDA C twins of the benchmark kernels, for ``gpuoff bench --device cuda:N``.

``CUDA_BASELINES[kernel]`` is a :data:`~gpuoff.bench.suite.BaselineFactory`,
``factory(device, inputs) -> Impl`` (``inputs`` as each case in ``suite.py`` /
``cases_compute.py`` lists them). The CUDA C (``CUDA_SOURCE``, one kernel per benchmark, the
same algorithm and launch shape as the gpuoff kernel) is compiled once per device to PTX with
NVRTC (``cuda.bindings.nvrtc``) or, where libnvrtc is missing, ``nvcc -ptx``; it is loaded and
launched through the same driver API, context and stream as gpuoff's own CUDA kernels
(``gpuoff.runtime.devices.cuda``). A factory raises ``BenchSkip`` when it cannot run here.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from gpuoff.bench.harness import BenchSkip, Impl

Factory = Callable[[str, dict[str, Any]], Impl]

CUDA_SOURCE = r"""
extern "C" __global__ void saxpy(float a, const float* __restrict__ x, float* __restrict__ y,
                                 long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void stencil5(const float* __restrict__ src, float* __restrict__ dst,
                                    long long rows, long long cols) {
    long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long i = (long long)blockIdx.y * blockDim.y + threadIdx.y;
    if (i < rows && j < cols) {
        long long k = i * cols + j;
        if (i > 0 && i < rows - 1 && j > 0 && j < cols - 1)
            dst[k] = 0.2f * ((((src[k] + src[k - cols]) + src[k + cols]) + src[k - 1])
                             + src[k + 1]);
        else
            dst[k] = src[k];
    }
}

extern "C" __global__ void black_scholes(const float* __restrict__ S, const float* __restrict__ K,
                                         const float* __restrict__ T, float r, float v,
                                         float* __restrict__ call, float* __restrict__ put,
                                         long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = S[i], k = K[i], t = T[i];
        float sqrt_t = sqrtf(t);
        float d1 = (logf(s / k) + (r + 0.5f * v * v) * t) / (v * sqrt_t);
        float d2 = d1 - v * sqrt_t;
        float cnd1 = 0.5f * (1.0f + erff(d1 * 0.70710678f));
        float cnd2 = 0.5f * (1.0f + erff(d2 * 0.70710678f));
        float disc = k * expf(-r * t);
        call[i] = s * cnd1 - disc * cnd2;
        put[i] = disc * (1.0f - cnd2) - s * (1.0f - cnd1);
    }
}

extern "C" __global__ void sum_reduce(const float* __restrict__ x, float* out, long long n) {
    __shared__ float tile[256];
    unsigned lid = threadIdx.x;
    long long stride = (long long)gridDim.x * blockDim.x;
    float acc = 0.0f;
    for (long long i = (long long)blockIdx.x * blockDim.x + lid; i < n; i += stride) acc += x[i];
    tile[lid] = acc;
    __syncthreads();
    for (unsigned s = 128; s > 0; s >>= 1) {
        if (lid < s) tile[lid] += tile[lid + s];
        __syncthreads();
    }
    if (lid == 0) atomicAdd(out, tile[0]);
}

extern "C" __global__ void sgemm(const float* __restrict__ a, const float* __restrict__ b,
                                 float* __restrict__ c, long long n) {
    long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long i = (long long)blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        float acc = 0.0f;
        for (long long k = 0; k < n; k++) acc += a[i * n + k] * b[k * n + j];
        c[i * n + j] = acc;
    }
}

extern "C" __global__ void histogram256(const unsigned char* __restrict__ data,
                                        unsigned* bins, long long n) {
    __shared__ unsigned local[256];
    unsigned lid = threadIdx.x;
    local[lid] = 0;
    __syncthreads();
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + lid; i < n; i += stride)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    atomicAdd(&bins[lid], local[lid]);
}

__device__ __forceinline__ float gravity(float dx, float dy, float dz, float m) {
    float r2 = dx * dx + dy * dy + dz * dz + 0.001f;
    float inv = 1.0f / sqrtf(r2);
    return m * inv * inv * inv;
}

extern "C" __global__ void nbody(const float* __restrict__ px, const float* __restrict__ py,
                                 const float* __restrict__ pz, const float* __restrict__ mass,
                                 float* __restrict__ ax, float* __restrict__ ay,
                                 float* __restrict__ az, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float xi = px[i], yi = py[i], zi = pz[i], fx = 0.0f, fy = 0.0f, fz = 0.0f;
        for (long long j = 0; j < n; j++) {
            float dx = px[j] - xi, dy = py[j] - yi, dz = pz[j] - zi;
            float s = gravity(dx, dy, dz, mass[j]);
            fx += dx * s; fy += dy * s; fz += dz * s;
        }
        ax[i] = fx; ay[i] = fy; az[i] = fz;
    }
}
"""

KERNEL_PARAMS: dict[str, tuple[str, ...]] = {
    "saxpy": ("f32", "ptr", "ptr", "i64"),
    "stencil5": ("ptr", "ptr", "i64", "i64"),
    "black_scholes": ("ptr", "ptr", "ptr", "f32", "f32", "ptr", "ptr", "i64"),
    "sum_reduce": ("ptr", "ptr", "i64"),
    "sgemm": ("ptr", "ptr", "ptr", "i64"),
    "histogram256": ("ptr", "ptr", "i64"),
    "nbody": ("ptr",) * 7 + ("i64",),
}
"""Each kernel's parameters as ``ArgPacker`` kinds (the C ABI slots cuLaunchKernel reads)."""

GROUPS = 256  # grid-stride kernels: as many groups as the gpuoff cases launch


def compile_source(sm: int) -> str:
    """PTX of ``CUDA_SOURCE`` for ``sm_<sm>``: NVRTC if it loads, else ``nvcc -ptx``."""
    try:
        return _nvrtc(sm)
    except Exception as e:  # noqa: BLE001 - libnvrtc missing: try the toolkit's nvcc
        nvcc = shutil.which("nvcc")
        if nvcc is None:
            raise BenchSkip(f"neither NVRTC ({e}) nor nvcc is available") from e
        with tempfile.TemporaryDirectory() as tmp:
            src, out = Path(tmp) / "baselines.cu", Path(tmp) / "baselines.ptx"
            src.write_text(CUDA_SOURCE)
            proc = subprocess.run(
                [nvcc, "-ptx", f"-arch=sm_{sm}", "-O3", str(src), "-o", str(out)],
                capture_output=True, text=True, check=False,
            )  # fmt: skip
            if proc.returncode != 0:
                raise BenchSkip(f"nvcc failed: {proc.stderr.strip()}") from e
            return out.read_text()


def _nvrtc(sm: int) -> str:
    from cuda.bindings import nvrtc

    def ok(result: Any) -> Any:
        if int(result[0]) != 0:
            raise RuntimeError(f"NVRTC error {result[0]}")
        return result[1] if len(result) > 1 else None

    prog = ok(nvrtc.nvrtcCreateProgram(CUDA_SOURCE.encode(), b"baselines.cu", 0, [], []))
    opts = [f"--gpu-architecture=compute_{sm}".encode(), b"-default-device"]
    result = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
    if int(result[0]) != 0:
        size = ok(nvrtc.nvrtcGetProgramLogSize(prog))
        log = b" " * size
        nvrtc.nvrtcGetProgramLog(prog, log)
        raise BenchSkip(f"NVRTC could not compile the baselines: {log.decode(errors='replace')}")
    size = ok(nvrtc.nvrtcGetPTXSize(prog))
    ptx = b" " * size
    ok(nvrtc.nvrtcGetPTX(prog, ptx))
    return bytes(ptx).rstrip(b"\0").decode()


class CudaBaseline:
    """The baselines loaded on one CUDA device: buffers, and launches on gpuoff's stream."""

    def __init__(self, device: str) -> None:
        from gpuoff.runtime.devices import get_device
        from gpuoff.runtime.devices.cuda import ArgPacker, CudaDevice, check

        dev = get_device(device)
        if not isinstance(dev, CudaDevice):
            raise BenchSkip(f"{device} is not a CUDA device")
        self.dev = dev
        self.check = functools.partial(check, dev.drv, device=dev.name)
        dev.current()
        ptx = compile_source(dev.sm).encode() + b"\0"
        module = self.check(dev.drv.cuModuleLoadData(ptx), what="cuModuleLoadData")
        self.functions = {
            name: self.check(
                dev.drv.cuModuleGetFunction(module, name.encode()), what="cuModuleGetFunction"
            )  # fmt: skip
            for name in KERNEL_PARAMS
        }
        self.packers = {name: ArgPacker(kinds, []) for name, kinds in KERNEL_PARAMS.items()}

    def upload(self, a: np.ndarray[Any, Any]) -> int:
        """A device copy of ``a``; returns its device pointer."""
        alloc = self.dev.allocate(a.nbytes)
        self.dev.copy_from_host(alloc, 0, np.ascontiguousarray(a), []).wait()
        return int(alloc.handle)

    def zeros(self, nbytes: int) -> int:
        ptr = int(self.dev.allocate(nbytes).handle)
        self.clear(ptr, nbytes)
        return ptr

    def clear(self, ptr: int, nbytes: int) -> None:
        self.check(self.dev.drv.cuMemsetD8(ptr, 0, nbytes), what="cuMemsetD8")

    def download(self, ptr: int, like: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        from gpuoff.runtime.devices.base import Allocation

        out = np.empty_like(like)
        self.dev.copy_to_host(out, Allocation(ptr, out.nbytes), 0, []).wait()
        return out

    def launch(self, name: str, blocks: tuple[int, int, int], threads: tuple[int, int, int],
               *args: Any) -> None:  # fmt: skip
        """``cuLaunchKernel`` with the C-ABI slots of ``args`` (asynchronous)."""
        packer = self.packers[name]
        packer.struct.pack_into(packer.buffer, 0, *args)
        d = self.dev
        fn = self.functions[name]
        result = d.drv.cuLaunchKernel(fn, *blocks, *threads, 0, d.stream, packer.kernel_params, 0)
        self.check(result, what="cuLaunchKernel")

    def sync(self) -> None:
        self.dev.synchronize()


@functools.cache
def baseline(device: str) -> CudaBaseline:
    """The loaded baselines for ``device`` (compiled once per process)."""
    return CudaBaseline(device)


def _blocks(n: int, block: int = 256) -> tuple[int, int, int]:
    return (-(-n // block), 1, 1)


def cuda_saxpy(device: str, inputs: dict[str, Any]) -> Impl:
    b = baseline(device)
    x, y = inputs["x"], inputs["y"]
    n = x.shape[0]
    dx, dy = b.upload(x), b.upload(y)

    def run() -> None:
        b.launch("saxpy", _blocks(n), (256, 1, 1), inputs["a"], dx, dy, n)
        b.sync()

    return Impl(run, lambda: b.download(dy, y))


def cuda_launch(device: str, inputs: dict[str, Any]) -> Impl:
    b = baseline(device)
    x, y, ops = inputs["x"], inputs["y"], int(inputs["ops"])
    n = x.shape[0]
    dx, dy = b.upload(x), b.upload(y)

    def run() -> None:
        for _ in range(ops):
            b.launch("saxpy", _blocks(n, 64), (64, 1, 1), inputs["a"], dx, dy, n)
        b.sync()

    return Impl(run, None, ops=ops)


def cuda_stencil(device: str, inputs: dict[str, Any]) -> Impl:
    b = baseline(device)
    src = inputs["src"]
    rows, cols = src.shape
    ds, dd = b.upload(src), b.zeros(src.nbytes)
    grid = (-(-cols // 32), -(-rows // 8), 1)

    def run() -> None:
        b.launch("stencil5", grid, (32, 8, 1), ds, dd, rows, cols)
        b.sync()

    return Impl(run, lambda: b.download(dd, src))


def cuda_black_scholes(device: str, inputs: dict[str, Any]) -> Impl:
    b = baseline(device)
    price = inputs["price"]
    n = price.shape[0]
    ins = [b.upload(inputs[k]) for k in ("price", "strike", "years")]
    call, put = b.zeros(price.nbytes), b.zeros(price.nbytes)

    def run() -> None:
        b.launch("black_scholes", _blocks(n), (256, 1, 1), *ins, inputs["rate"], inputs["vol"],
                 call, put, n)  # fmt: skip
        b.sync()

    return Impl(run, lambda: np.stack([b.download(call, price), b.download(put, price)]))


def cuda_sum(device: str, inputs: dict[str, Any]) -> Impl:
    b = baseline(device)
    x = inputs["x"]
    dx, out = b.upload(x), b.zeros(4)

    def run() -> None:
        b.clear(out, 4)
        b.launch("sum_reduce", (GROUPS, 1, 1), (256, 1, 1), dx, out, x.shape[0])
        b.sync()

    return Impl(run, lambda: b.download(out, np.zeros(1, np.float32)))


def cuda_sgemm(device: str, inputs: dict[str, Any]) -> Impl:
    b = baseline(device)
    a, bm = inputs["a"], inputs["b"]
    n = a.shape[0]
    da, db, dc = b.upload(a), b.upload(bm), b.zeros(a.nbytes)
    grid = (-(-n // 32), -(-n // 8), 1)

    def run() -> None:
        b.launch("sgemm", grid, (32, 8, 1), da, db, dc, n)
        b.sync()

    return Impl(run, lambda: b.download(dc, a))


def cuda_histogram(device: str, inputs: dict[str, Any]) -> Impl:
    b = baseline(device)
    data = inputs["data"]
    dd, bins = b.upload(data), b.zeros(256 * 4)

    def run() -> None:
        b.clear(bins, 256 * 4)
        b.launch("histogram256", (GROUPS, 1, 1), (256, 1, 1), dd, bins, data.shape[0])
        b.sync()

    return Impl(run, lambda: b.download(bins, np.zeros(256, np.uint32)))


def cuda_nbody(device: str, inputs: dict[str, Any]) -> Impl:
    b = baseline(device)
    px = inputs["px"]
    n = px.shape[0]
    ins = [b.upload(inputs[k]) for k in ("px", "py", "pz", "mass")]
    outs = [b.zeros(px.nbytes) for _ in range(3)]

    def run() -> None:
        b.launch("nbody", _blocks(n), (256, 1, 1), *ins, *outs, n)
        b.sync()

    return Impl(run, lambda: np.stack([b.download(o, px) for o in outs]))


CUDA_BASELINES: dict[str, Factory] = {
    "saxpy": cuda_saxpy,
    "stencil2d": cuda_stencil,
    "black_scholes": cuda_black_scholes,
    "reduction": cuda_sum,
    "sgemm": cuda_sgemm,
    "histogram": cuda_histogram,
    "nbody": cuda_nbody,
    "launch": cuda_launch,
}
"""Kernel name -> factory (shown as the backend's "CUDA C" baseline)."""
