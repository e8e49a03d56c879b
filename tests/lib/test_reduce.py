"""gl.sum, gl.prod, gl.min, gl.max, gl.reduce, gl.argmin, gl.argmax against NumPy on every
device: shapes from hypothesis (empty, size 1, non-power-of-two, more than one chunk, views),
NaN, NumPy's dtypes, bad arguments; the PTX of every specialisation through ptxas."""

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
from gpuoff import f32
from gpuoff.lib import _reduce_kernels as K
from tests.backends.test_ptx import assemble

RNG = np.random.default_rng(16)
# lengths around the cpu chunk (64 * 64) and the GPU one (256 * 16): full chunks, tails, levels
LENGTHS = [0, 1, 7, 4096, 4097, 3 * 4096 + 5, 70_001]
SETTINGS = settings(max_examples=12, deadline=None, derandomize=True)


def _data(shape: tuple[int, ...], dtype: Any) -> np.ndarray[Any, Any]:
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return RNG.standard_normal(shape).astype(dt)
    if dt.kind == "b":
        return RNG.integers(0, 2, shape).astype(bool)
    return RNG.integers(-50 if dt.kind == "i" else 0, 50, shape).astype(dt)


def _close(got: np.ndarray[Any, Any], want: Any, n: int) -> None:
    want = np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind == "f":
        scale = np.sqrt(max(n, 1)) * np.finfo(want.dtype).eps * 8
        np.testing.assert_allclose(got, want, rtol=scale, atol=scale * 4)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("n", LENGTHS)
def test_sum_of_a_vector_matches_numpy(device: str, n: int) -> None:
    for dtype in (np.float32, np.int32):
        x = _data((n,), dtype)
        _close(gl.sum(x).numpy(), np.sum(x), n)


def test_result_dtypes_are_numpys(device: str) -> None:
    for dtype in (np.bool_, np.uint8, np.int32, np.float64):  # i64, u64, i64, f64
        x = _data((37,), dtype)
        _close(gl.sum(x).numpy(), np.sum(x), 37)
        if dtype in (np.bool_, np.float64):
            _close(gl.min(x).numpy(), np.min(x), 37)
            _close(gl.max(x).numpy(), np.max(x), 37)
    i = _data((5,), np.int32)
    _close(gl.prod(i).numpy(), np.prod(i), 5)
    h = _data((300,), np.float16)  # f16 accumulates in f32: at least NumPy's accuracy
    with go.on("cpu"):  # (an OpenCL device without cl_khr_fp16 refuses f16: CompileError)
        got = gl.sum(h).numpy()
    assert got.dtype == np.float16
    exact = h.astype(np.float64).sum()
    assert abs(float(got) - exact) <= abs(float(np.sum(h)) - exact) + 0.05
    assert gl.sum(np.array(3.5, np.float32)).numpy() == 3.5  # a 0-d input


@SETTINGS
@given(shape=st.lists(st.integers(0, 9), min_size=1, max_size=3).map(tuple),
       data=st.data())  # fmt: skip
def test_axes_match_numpy(shape: tuple[int, ...], data: st.DataObject) -> None:
    axis = data.draw(st.sampled_from([None, *range(-len(shape), len(shape))]))
    for name in ("cpu", "opencl:0") if _has_opencl() else ("cpu",):
        with go.on(name):
            x = _data(shape, np.float32)
            _close(gl.sum(x, axis=axis).numpy(), np.sum(x, axis=axis), x.size)
            i = _data(shape, np.int32)
            n = x.size if axis is None else shape[axis]
            if n > 0:
                _close(gl.max(i, axis=axis).numpy(), np.max(i, axis=axis), 0)
                _close(gl.argmin(x, axis=axis).numpy(), np.argmin(x, axis=axis), 0)


def _has_opencl() -> bool:
    return any(d.name == "opencl:0" and d.available for d in go.devices())


def test_long_rows_and_many_rows(device: str) -> None:
    x = _data((3, 9001), np.float32)
    _close(gl.sum(x, axis=1).numpy(), x.sum(axis=1), 9001)
    _close(gl.min(x, axis=-1).numpy(), x.min(axis=-1), 0)
    _close(gl.argmax(x, axis=1).numpy(), x.argmax(axis=1), 0)
    y = _data((9001, 3), np.int32)
    _close(gl.sum(y, axis=0).numpy(), y.sum(axis=0), 0)
    _close(gl.argmin(y, axis=0).numpy(), y.argmin(axis=0), 0)


def test_views_and_buffers(device: str) -> None:
    base = _data((40, 30), np.float32)
    buf = go.array(base)
    view = buf[::2, 3:]  # strided: copied first
    _close(gl.sum(view).numpy(), base[::2, 3:].sum(), base.size)
    _close(gl.max(view, axis=0).numpy(), base[::2, 3:].max(axis=0), 0)
    _close(gl.argmax(base.T).numpy(), np.argmax(base.T), 0)


@pytest.mark.parametrize("n", [1, 9, 4096 * 3 + 11])
def test_nan_wins_as_in_numpy(device: str, n: int) -> None:
    x = _data((n,), np.float32)
    x[n // 3] = np.nan
    x[n - 1] = np.nan
    assert np.isnan(gl.min(x).numpy()) and np.isnan(gl.max(x).numpy())
    assert gl.argmin(x).numpy() == np.argmin(x) == n // 3
    assert gl.argmax(x).numpy() == np.argmax(x)
    ties = np.zeros(n, np.float32)
    ties[n // 2 :] = -1.0
    assert gl.argmin(ties).numpy() == np.argmin(ties)
    assert gl.argmax(ties).numpy() == 0


def test_reduce_with_a_user_operator(device: str) -> None:
    @go.func
    def bigger_magnitude(a: f32, b: f32) -> f32:
        return a if abs(a) >= abs(b) else b

    x = _data((5000, 3), np.float32)
    got = gl.reduce(x, bigger_magnitude, 0.0, axis=0).numpy()
    want = x[np.abs(x).argmax(axis=0), np.arange(3)]
    np.testing.assert_array_equal(got, want)
    assert gl.reduce(x, K.add, 100.0).numpy() == pytest.approx(x.sum() + 100.0, rel=1e-4)
    assert gl.reduce(np.zeros(0, np.float32), K.add, 7.0).numpy() == 7.0  # empty: initial


def test_out_is_written(device: str) -> None:
    x = _data((6, 5), np.int32)
    out = np.zeros(5, np.int64)
    assert gl.sum(x, axis=0, out=out) is not None
    go.synchronize()
    np.testing.assert_array_equal(out, x.sum(axis=0))
    buf = go.zeros((), np.int32)
    gl.max(x, out=buf)
    assert buf.numpy() == x.max()


def test_bad_arguments_are_refused_at_the_callers_line() -> None:
    x = np.zeros((3, 4), np.float32)
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.sum: axis 2 is out of range"):
        gl.sum(x, axis=2)
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.min: zero-size array"):
        gl.min(np.zeros(0, np.float32))
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.argmax: zero-size array"):
        gl.argmax(np.zeros((0, 3), np.float32), axis=0)
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.sum: out= has shape"):
        gl.sum(x, axis=0, out=np.zeros(3, np.float32))
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.reduce: op must be a @go.func"):
        gl.reduce(x, max, 0.0)  # type: ignore[arg-type]
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.sum: x must be a go.Buffer"):
        gl.sum([1, 2, 3])  # type: ignore[arg-type]
    assert gl.min(np.zeros((0, 3), np.float32), axis=1).shape == (0,)  # nothing to reduce


KERNELS = (K.blocks, K.copy_tail, K.final, K.columns, K.arg_blocks, K.arg_copy_tail,
           K.arg_final, K.arg_columns)  # fmt: skip


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not on the PATH")
@pytest.mark.parametrize("sm", [80, 90])
def test_every_specialisation_assembles_to_ptx(sm: int, tmp_path: Path) -> None:
    with go.on("cpu"):  # the specialisations the tests above use (most already compiled)
        for dtype in (np.float32, np.int32):
            x = _data((3, 4096 * 5 + 3), dtype)
            for f in (gl.sum, gl.min, gl.argmax):
                f(x)
                f(x, axis=0)
                f(x, axis=1)
        go.synchronize()
    modules = {
        id(plan.module): plan.module
        for k in KERNELS
        for child in (k._spec.children.values() if k._spec is not None else ())
        for plan in child._plans.values()
    }
    assert len(modules) >= 12
    for module in modules.values():
        assemble(compile_ptx(module, sm=sm).ptx, sm, tmp_path)
