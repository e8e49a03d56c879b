"""gl.compress, gl.nonzero and gl.segmented_reduce against NumPy on every device: lengths
around the chunk sizes, densities from none to all, n-d inputs and views, empty segments,
bad arguments; the PTX of their kernels through ptxas."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gpuoff as go
import gpuoff.lib as gl
from codegen.nvptx import compile_ptx
from gpuoff import f32
from gpuoff.lib import _reduce_kernels as K
from gpuoff.lib import segmented, select
from tests.backends.test_ptx import assemble

RNG = np.random.default_rng(18)


@pytest.mark.parametrize("n", [0, 1, 1025, 65_536 * 2 + 9])
@pytest.mark.parametrize("density", [0.0, 0.3, 1.0])
def test_compress_matches_boolean_indexing(device: str, n: int, density: float) -> None:
    x = RNG.random(n).astype(np.float32)
    mask = RNG.random(n) < density
    got = gl.compress(mask, x).numpy()
    np.testing.assert_array_equal(got, x[mask])
    b = RNG.integers(0, 2, n).astype(bool)
    np.testing.assert_array_equal(gl.compress(mask, b).numpy(), b[mask])


@settings(max_examples=10, deadline=None, derandomize=True)
@given(shape=st.lists(st.integers(0, 6), min_size=1, max_size=3).map(tuple),
       density=st.sampled_from([0.0, 0.4, 1.0]))  # fmt: skip
def test_nonzero_matches_numpy(shape: tuple[int, ...], density: float) -> None:
    x = np.where(RNG.random(shape) < density, RNG.integers(1, 9, shape), 0).astype(np.int32)
    with go.on("cpu"):
        got = gl.nonzero(x)
        want = np.nonzero(x)
        assert len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(g.numpy(), w)
        view = go.array(x)[..., ::2]
        for g, w in zip(gl.nonzero(view), np.nonzero(x[..., ::2]), strict=True):
            np.testing.assert_array_equal(g.numpy(), w)
        np.testing.assert_array_equal(gl.compress(x > 3, x).numpy(), x[x > 3])


def test_nonzero_of_floats_and_bools(device: str) -> None:
    f = np.where(RNG.random((300, 7)) < 0.1, 1.5, 0.0).astype(np.float32)
    f[3, 3] = np.nan  # NaN is not zero
    for g, w in zip(gl.nonzero(f), np.nonzero(f), strict=True):
        np.testing.assert_array_equal(g.numpy(), w)
    b = RNG.random(70_000) < 0.5
    np.testing.assert_array_equal(gl.nonzero(b)[0].numpy(), np.nonzero(b)[0])


@pytest.mark.parametrize("offsets", [[0], [0, 0, 0], [0, 3, 3, 10, 700, 1000], [0, 1000]])
def test_segmented_reduce_matches_numpy(device: str, offsets: list[int]) -> None:
    offs = np.array(offsets, np.int64)
    v = RNG.random(offs[-1]).astype(np.float32)
    pairs = list(zip(offs[:-1], offs[1:], strict=True))
    got = gl.segmented_reduce(v, offs, "sum").numpy()
    np.testing.assert_allclose(got, [v[a:b].sum() for a, b in pairs], rtol=1e-5)
    i = RNG.integers(-50, 50, offs[-1]).astype(np.int32)
    got_i = gl.segmented_reduce(i, offs.astype(np.int32), "max").numpy()
    floor = np.iinfo(np.int32).min  # an empty segment: the identity of max
    np.testing.assert_array_equal(got_i, [i[a:b].max() if b > a else floor for a, b in pairs])
    if offs[-1] and all(b > a for a, b in pairs):  # reduceat agrees where no segment is empty
        np.testing.assert_allclose(got, np.add.reduceat(v, offs[:-1]), rtol=1e-5)


def test_segmented_reduce_with_a_user_operator(device: str) -> None:
    @go.func
    def sum_of_squares(a: f32, b: f32) -> f32:
        return a + b * b

    v = RNG.random(50).astype(np.float32)
    offs = np.array([0, 10, 10, 50], np.int64)
    got = gl.segmented_reduce(v, offs, sum_of_squares, initial=0.0).numpy()
    want = np.array([np.sum(v[:10] ** 2), 0.0, np.sum(v[10:] ** 2)])
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_bad_arguments_are_refused() -> None:
    x = np.zeros(4, np.float32)
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.compress: mask must be bool"):
        gl.compress(np.ones(4, np.int32), x)
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.compress: mask has shape \(3,\)"):
        gl.compress(np.ones(3, bool), x)
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.nonzero: x must have at least one"):
        gl.nonzero(np.zeros((), np.float32))
    offs = np.array([0, 4], np.int64)
    with pytest.raises(go.DTypeError, match=r"segmented_reduce: op 'mean' is not one of"):
        gl.segmented_reduce(x, offs, "mean")
    with pytest.raises(go.DTypeError, match=r"segmented_reduce: a @go.func op needs initial="):
        gl.segmented_reduce(x, offs, K.add)
    with pytest.raises(go.DTypeError, match=r"segmented_reduce: offsets must be i32 or i64"):
        gl.segmented_reduce(x, offs.astype(np.float32), "sum")
    with pytest.raises(go.ShapeError, match=r"segmented_reduce: values and offsets must be 1-d"):
        gl.segmented_reduce(x.reshape(2, 2), offs, "sum")


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not on the PATH")
@pytest.mark.parametrize("sm", [80, 90])
def test_selection_kernels_assemble_to_ptx(sm: int, tmp_path: Path) -> None:
    with go.on("cpu"):
        x = RNG.random((2, 40_000)).astype(np.float32)
        gl.compress(x > 0.5, x)
        gl.nonzero(x > 0.5)
        gl.nonzero(x)
        gl.segmented_reduce(x[0], np.array([0, 5, 40_000], np.int32), "min")
        go.synchronize()
    kernels = (select.select_offsets, select.compact, select.flags, select.compact_indices,
               segmented.segments)  # fmt: skip
    modules = {
        id(plan.module): plan.module
        for k in kernels
        for child in (k._spec.children.values() if k._spec is not None else (k,))
        for plan in child._plans.values()
    }
    assert len(modules) >= 5
    for module in modules.values():
        assemble(compile_ptx(module, sm=sm).ptx, sm, tmp_path)
