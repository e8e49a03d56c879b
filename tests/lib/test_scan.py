"""gl.cumsum, gl.inclusive_scan, gl.exclusive_scan against NumPy on every device: lengths
around the chunk sizes (one chunk, full chunks, a tail), axes, views, dtypes, a user's
operator, bad arguments; the PTX of the scan kernels through ptxas."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gpuoff as go
import gpuoff.lib as gl
from codegen.nvptx import compile_ptx
from gpuoff import i32
from gpuoff.lib import _reduce_kernels as K
from tests.backends.test_ptx import assemble

RNG = np.random.default_rng(17)
# cpu chunks are 64 * 1024 elements, the others' 64 * 16
LENGTHS = [0, 1, 5, 1024, 1025, 65_536, 65_536 * 2 + 7]


@go.func
def bitwise_or(a: i32, b: i32) -> i32:
    return a | b


@pytest.mark.parametrize("n", LENGTHS)
def test_cumsum_matches_numpy(device: str, n: int) -> None:
    x = RNG.integers(-100, 100, n).astype(np.int32)
    got = gl.cumsum(x).numpy()
    assert got.dtype == np.int64  # NumPy's: i32 accumulates in the platform integer
    np.testing.assert_array_equal(got, np.cumsum(x))
    np.testing.assert_array_equal(gl.cumsum(x, dtype=np.int32).numpy(),
                                  np.cumsum(x, dtype=np.int32))  # fmt: skip


@pytest.mark.parametrize("n", [1, 1025, 65_536 + 3])
def test_user_scans_match_numpy(device: str, n: int) -> None:
    x = RNG.integers(0, 1 << 20, n).astype(np.int32)
    np.testing.assert_array_equal(gl.inclusive_scan(x, bitwise_or).numpy(),
                                  np.bitwise_or.accumulate(x))  # fmt: skip
    got = gl.exclusive_scan(x, bitwise_or, 1 << 30).numpy()
    want = np.bitwise_or.accumulate(np.concatenate([[1 << 30], x[:-1]]).astype(np.int32))
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(gl.inclusive_scan(x, K.maximum).numpy(),
                                  np.maximum.accumulate(x))  # fmt: skip


def test_float_and_bool_cumsum(device: str) -> None:
    f = RNG.random(70_000).astype(np.float32)
    got = gl.cumsum(f).numpy()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, np.cumsum(f.astype(np.float64)), rtol=1e-4)
    b = RNG.integers(0, 2, 3000).astype(bool)
    np.testing.assert_array_equal(gl.cumsum(b).numpy(), np.cumsum(b))


@settings(max_examples=10, deadline=None, derandomize=True)
@given(shape=st.lists(st.integers(0, 7), min_size=1, max_size=3).map(tuple), data=st.data())
def test_axes_and_views_match_numpy(shape: tuple[int, ...], data: st.DataObject) -> None:
    axis = data.draw(st.sampled_from([None, *range(-len(shape), len(shape))]))
    x = RNG.integers(-9, 9, shape).astype(np.int32)
    with go.on("cpu"):
        np.testing.assert_array_equal(gl.cumsum(x, axis=axis).numpy(), np.cumsum(x, axis=axis))
        view = go.array(x)[..., ::-1]  # reversed last axis: copied first
        np.testing.assert_array_equal(gl.cumsum(view, axis=axis).numpy(),
                                      np.cumsum(x[..., ::-1], axis=axis))  # fmt: skip


def test_out_and_bad_arguments(device: str) -> None:
    x = RNG.integers(0, 9, (4, 5)).astype(np.int32)
    out = np.zeros((4, 5), np.int64)
    gl.cumsum(x, axis=1, out=out)
    go.synchronize()
    np.testing.assert_array_equal(out, np.cumsum(x, axis=1))
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.cumsum: out= has shape"):
        gl.cumsum(x, out=np.zeros(5, np.int64))
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.cumsum: axis 3 is out of range"):
        gl.cumsum(x, axis=3)
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.inclusive_scan: op must be"):
        gl.inclusive_scan(x, np.add)  # type: ignore[arg-type]


KERNELS = (K.blocks, K.scan_offsets, K.scan_chunks, K.scan_columns)


def _modules() -> dict[int, Any]:
    return {
        id(plan.module): plan.module
        for k in KERNELS
        for child in (k._spec.children.values() if k._spec is not None else ())
        for plan in child._plans.values()
    }


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not on the PATH")
@pytest.mark.parametrize("sm", [80, 90])
def test_scan_kernels_assemble_to_ptx(sm: int, tmp_path: Path) -> None:
    with go.on("cpu"):
        x = RNG.integers(0, 9, (2, 65_536 + 5)).astype(np.int32)
        for axis in (0, 1):
            gl.cumsum(x, axis=axis)
            gl.exclusive_scan(x, bitwise_or, 0, axis=axis)
        go.synchronize()
    modules = _modules()
    assert len(modules) >= 6
    for module in modules.values():
        assemble(compile_ptx(module, sm=sm).ptx, sm, tmp_path)
