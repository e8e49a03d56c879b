"""Generic kernels on every device: one source specialised per dtype (``go.DTypeVar``), per
compile-time value (``go.Const``) and per device function passed as a parameter, against
NumPy and the IR interpreter; the launch-time proofs see the constants; PTX of a kernel
specialised twice assembles with ptxas."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from codegen.nvptx import compile_ptx
from gpuoff.frontend import lower_specialised
from gpuoff.ir import interp
from gpuoff.ir import types as T
from gpuoff.ownership import Access
from tests.backends.test_ptx import assemble
from tests.unit.generic_support import F, add, bigger, block_sum, fold, group_reduce, scaled
from tests.unit.generic_support import T as TV

NDArray = np.ndarray[Any, Any]


def _interp(pyfunc: Any, binding: dict[object, T.ScalarType], consts: dict[str, object],
            grid: int, block: tuple[int, ...] | None, *args: Any) -> list[Any]:  # fmt: skip
    """The interpreter's results for the specialisation (array arguments copied)."""
    types: list[T.ScalarType | T.ArrayType] = []
    for a, access in zip(args, _accesses(pyfunc), strict=False):
        if isinstance(a, np.ndarray):
            types.append(T.ArrayType(T.scalar_from_numpy(a.dtype), a.ndim, access=access))
        else:
            types.append(binding[next(iter(binding))])
    module = lower_specialised(pyfunc, types, binding, consts)
    ref = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    interp.run(module, ref, grid, block)
    return ref


def _accesses(pyfunc: Any) -> list[Access]:
    from gpuoff.frontend import parse_signature

    return [d.access or Access.BORROW for d in parse_signature(pyfunc) if not d.const]


@pytest.mark.parametrize(("dtype", "block"), [(np.float32, 32), (np.float64, 64), (np.uint8, 8)])
def test_block_sum(device: str, dtype: Any, block: int) -> None:
    n = 4 * block
    x = (np.arange(n) % 7).astype(dtype)
    out = np.zeros(4, dtype)
    block_sum[n, (block,)](x, out, block)
    go.synchronize()
    want = x.reshape(4, block).sum(1, dtype=dtype)
    np.testing.assert_array_equal(out, want)
    ref = _interp(block_sum.pyfunc, {TV: T.scalar_from_numpy(np.dtype(dtype))},
                  {"block": block}, n, (block,), x, np.zeros(4, dtype))  # fmt: skip
    np.testing.assert_array_equal(out, ref[1])


def test_block_size_reaches_the_launch_proofs(device: str) -> None:
    """With the block size a constant, the bounds proof drops the tile's checks for a
    launch with that block (the unchecked variant runs) and the race proof holds."""
    x = np.ones(64, np.float32)
    out = np.zeros(2, np.float32)
    block_sum[64, (32,)](x, out, 32)
    go.synchronize()
    assert block_sum._spec is not None
    child = next(c for c in block_sum._spec.children.values()
                 if c._spec_tag == ",spec[T=f32;block=32]")  # fmt: skip
    (plan,) = [p for p in child._plans.values() if p.device.name == device]
    assert plan.variants is not None and plan.variants.programs[True] is not None
    np.testing.assert_array_equal(out, [32, 32])


@pytest.mark.parametrize(("op", "dtype"), [(add, np.float32), (bigger, np.int64)])
def test_device_function_parameter(device: str, op: Any, dtype: Any) -> None:
    x = np.array([3, -9, 12, 7, 0], dtype)
    out = np.zeros(1, dtype)
    fold[1](x, out, dtype(-100), op)
    go.synchronize()
    want = x.sum() - 100 if op is add else x.max()
    assert out[0] == want
    ref = _interp(fold.pyfunc, {TV: T.scalar_from_numpy(np.dtype(dtype))}, {"op": op}, 1, None,
                  x, np.zeros(1, dtype), dtype(-100))  # fmt: skip
    assert ref[1][0] == out[0]


@pytest.mark.parametrize(("op", "dtype"), [(add, np.int32), (bigger, np.float32)])
def test_device_function_with_const_parameters(device: str, op: Any, dtype: Any) -> None:
    x = ((np.arange(96) * 7) % 23).astype(dtype)
    out = np.zeros(3, dtype)
    group_reduce[96, (32,)](x, out, 32, op)
    go.synchronize()
    rows = x.reshape(3, 32)
    np.testing.assert_array_equal(out, rows.sum(1) if op is add else rows.max(1))
    ref = _interp(group_reduce.pyfunc, {TV: T.scalar_from_numpy(np.dtype(dtype))},
                  {"block": 32, "op": op}, 96, (32,), x, np.zeros(3, dtype))  # fmt: skip
    np.testing.assert_array_equal(out, ref[1])


@pytest.mark.parametrize("dtype", [np.float64])
def test_consts_unrolled_and_private(device: str, dtype: Any) -> None:
    x = np.linspace(-2, 2, 37).astype(dtype)
    y = np.zeros_like(x)
    scaled[x.size](x, y, dtype(0.5), 3, True)
    go.synchronize()
    want = -(x * dtype(0.5) + x * dtype(0.5) + x * dtype(0.5))
    np.testing.assert_allclose(y, want, rtol=1e-6)
    ref = _interp(scaled.pyfunc, {F: T.scalar_from_numpy(np.dtype(dtype))},
                  {"taps": 3, "flip": True}, x.size, None, x, np.zeros_like(x), dtype(0.5))
    np.testing.assert_array_equal(y, ref[1])


needs_ptxas = pytest.mark.skipif(shutil.which("ptxas") is None,
                                 reason="ptxas (CUDA toolkit) is not on the PATH")  # fmt: skip


@needs_ptxas
@pytest.mark.parametrize("sm", [80, 90])
def test_ptx_of_two_specialisations_assembles(sm: int, tmp_path: Path) -> None:
    texts = []
    for dtype, block in ((T.f32, 128), (T.f64, 256)):
        types: list[T.ScalarType | T.ArrayType] = [
            T.ArrayType(dtype, 1, access=Access.BORROW),
            T.ArrayType(dtype, 1, access=Access.BORROW_MUT),
        ]
        module = lower_specialised(block_sum.pyfunc, types, {TV: dtype}, {"block": block})
        ptx = compile_ptx(module, sm=sm).ptx
        assemble(ptx, sm, tmp_path)
        texts.append(ptx)
    assert texts[0] != texts[1] and ".f64" in texts[1]
