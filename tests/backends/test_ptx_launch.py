"""The catalogue kernels and every math function launched on a real CUDA device through
``gpuoff.runtime.devices.cuda``, compared with the IR interpreter and NumPy.

Needs an NVIDIA GPU and driver (``scripts/gpu-check`` runs it there); elsewhere it skips,
saying why (the driver-free parts are covered by tests/unit/test_cuda_runtime.py)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import gpuoff.runtime.devices.cuda as cu
from gpuoff.errors import BoundsError
from gpuoff.ir import interp
from gpuoff.ir import nodes as n
from gpuoff.ir.types import ArrayType, ScalarType, f32, f64
from gpuoff.runtime.devices.base import ArrayArg
from tests.backends.ptx_kernels import KERNELS, irbuild

Arrays = list[np.ndarray[Any, Any]]


@pytest.fixture(scope="module")
def dev() -> Iterator[cu.CudaDevice]:
    infos = cu.discover()
    usable = [i for i in infos if i.available]
    if not usable:
        pytest.skip(f"no CUDA device here: {infos[0].reason}")
    device = cu.open_device(usable[0].name)
    yield device
    device.synchronize()


def launch(
    dev: cu.CudaDevice, module: n.Module, args: list[Any], grid: tuple[int, int, int],
    block: tuple[int, int, int] | None = None,
) -> Arrays:  # fmt: skip
    """Copy NumPy arrays in (views keep their strides), launch, copy every array back."""
    allocs, largs = [], []
    for a in args:
        if isinstance(a, np.ndarray):
            base = a.base if a.base is not None else a
            assert isinstance(base, np.ndarray) and base.flags.c_contiguous
            alloc = dev.allocate(base.nbytes)
            dev.copy_from_host(alloc, 0, base, [])
            offset = a.__array_interface__["data"][0] - base.__array_interface__["data"][0]
            strides = tuple(s // a.itemsize for s in a.strides)
            largs.append(ArrayArg(alloc, offset, a.shape, strides))
            allocs.append((alloc, base))
        else:
            largs.append(a)
    dev.launch(dev.compile(module), largs, grid, block, []).wait()
    out = []
    for alloc, base in allocs:
        host = np.empty_like(base)
        dev.copy_to_host(host, alloc, 0, []).wait()
        out.append(host)
        dev.free(alloc)
    return out


def oracle(module: n.Module, args: list[Any], grid: tuple[int, ...], block: Any = None) -> Arrays:
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    interp.run(module, copies, grid, block)
    return [a for a in copies if isinstance(a, np.ndarray)]


def test_saxpy(dev: cu.CudaDevice) -> None:
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, np.float32)
    [gx, gy] = launch(dev, KERNELS["saxpy"](), [2.0, x, y], (1000, 1, 1))
    np.testing.assert_array_equal(gy, 2 * x + 1)
    np.testing.assert_array_equal(gx, x)


def test_strided_matmul(dev: cu.CudaDevice) -> None:
    rng = np.random.default_rng(0)
    a = rng.random((17, 9))
    bt = rng.random((13, 9))  # b = bt.T: a transposed (non-contiguous) view
    out = np.zeros((17, 13))
    module = KERNELS["matmul_strided_f64"]()
    got = launch(dev, module, [a, bt.T, out], (17, 13, 1))
    np.testing.assert_allclose(got[2], a @ bt.T, rtol=1e-13)


@pytest.mark.parametrize("name", ["reduce_f32", "reduce_f64", "reduce_i32"])
def test_reduction_with_shared_memory_barriers_atomics(dev: cu.CudaDevice, name: str) -> None:
    module = KERNELS[name]()
    dt = module.kernel.params[0].type.dtype.np_dtype  # type: ignore[union-attr]
    x = (np.arange(1000) % 7).astype(dt)
    out = np.array([0, -1000, 1000], dtype=dt)
    counts, hi = np.zeros(4, np.int32), np.zeros(1, np.uint32)
    args = [x, out, counts, hi]
    got = launch(dev, module, args, (1024, 1, 1), (256, 1, 1))
    want = oracle(module, args, (1024,), (256,))
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-6)


def test_device_functions(dev: cu.CudaDevice) -> None:
    module = KERNELS["device_functions"]()
    x, out = np.full(8, 3.0, np.float32), np.zeros(64, np.float32)
    got = launch(dev, module, [x, out], (64, 1, 1))
    np.testing.assert_array_equal(got[1], 6.0 + np.arange(64, dtype=np.float32))


def test_three_d_grid(dev: cu.CudaDevice) -> None:
    out = np.zeros((3, 5, 7), np.int64)
    [got] = launch(dev, KERNELS["grid3"](), [out], (3, 5, 7))
    assert (got == 15).all()


def test_scalar_types(dev: cu.CudaDevice) -> None:
    module = KERNELS["scalar_types"]()
    args: list[Any] = []
    for p in module.kernel.params:
        if isinstance(p.type, ArrayType):
            args.append(np.ones(40, p.type.dtype.np_dtype))
        else:
            args.append(p.type.np_dtype.type(5 if not p.type.is_bool else True))
    got = launch(dev, module, args, (40, 1, 1))
    want = oracle(module, args, (40,))
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)


def test_bounds_error(dev: cu.CudaDevice) -> None:
    module = irbuild.saxpy(guarded=False)
    x, y = np.zeros(100, np.float32), np.zeros(100, np.float32)
    with pytest.raises(BoundsError, match=r"out of range for x with shape \(100,\)"):
        launch(dev, module, [1.0, x, y], (128, 1, 1))
    launch(dev, module, [1.0, x, y], (100, 1, 1))  # the next launch is clean


def _unary_kernel(name: str, st: ScalarType) -> n.Module:
    x, out = irbuild.ref("x", irbuild.arr(st)), irbuild.ref("out", irbuild.mut(st))
    i = irbuild.var("i")
    args = [irbuild.load(x, i)] * (2 if name in ("pow", "min", "max") else 1)
    body: list[n.Stmt] = [irbuild.assign("i", irbuild.gid()),
                          irbuild.store(out, i, irbuild.math(name, *args))]  # fmt: skip
    k = irbuild.kernel(f"m_{name}", [irbuild.param("x", x.type), irbuild.param("out", out.type)],
                       body, {"i": irbuild.i64})  # fmt: skip
    return n.Module(k)


_REFS: dict[str, Callable[..., Any]] = {
    "sqrt": np.sqrt, "exp": np.exp, "log": np.log, "log2": np.log2, "sin": np.sin,
    "cos": np.cos, "tan": np.tan, "tanh": np.tanh, "erf": np.vectorize(math.erf),
    "floor": np.floor, "ceil": np.ceil, "abs": np.abs, "rsqrt": lambda v: 1 / np.sqrt(v),
    "pow": lambda v: np.power(v, v),
}  # fmt: skip


@pytest.mark.parametrize("st", [f32, f64], ids=str)
@pytest.mark.parametrize("name", sorted(_REFS))
def test_math_on_the_gpu(dev: cu.CudaDevice, name: str, st: ScalarType) -> None:
    xs = np.linspace(0.01, 20.0, 4096) if name in ("sqrt", "log", "log2", "rsqrt", "pow") else \
        np.linspace(-20.0, 20.0, 4096)  # fmt: skip
    x = xs.astype(st.np_dtype)
    got = launch(dev, _unary_kernel(name, st), [x, np.zeros_like(x)], (4096, 1, 1))[1]
    want = _REFS[name](x.astype(np.float64))
    np.testing.assert_allclose(got, want, rtol=2e-6 if st is f32 else 1e-12, atol=1e-30)


def test_launch_geometry_handles_partial_blocks(dev: cu.CudaDevice) -> None:
    x = np.arange(1001, dtype=np.float32)
    y = np.zeros(1001, np.float32)
    got = launch(dev, KERNELS["saxpy"](), [1.0, x, y], (1001, 1, 1))
    np.testing.assert_array_equal(got[1], x)
