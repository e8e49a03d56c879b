"""gl.softmax and gl.layer_norm on every device against NumPy references of PyTorch's."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gpuoff as go
import gpuoff.lib as gl
from gpuoff.lib import rows
from tests.lib.ptx import assemble_specialisation

RNG = np.random.default_rng(19)


def _softmax(x: np.ndarray[Any, Any], axis: int) -> Any:
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _layer_norm(x: Any, w: Any, b: Any, eps: float, nd: int) -> Any:
    axes = tuple(range(x.ndim - nd, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def _check(got: Any, want: Any, dtype: Any) -> None:
    tol = (2e-5, 2e-6) if dtype == np.float32 else (1e-12, 1e-13)
    np.testing.assert_allclose(got, want, rtol=tol[0], atol=tol[1])


NO_FIXTURE_CHECK = settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@NO_FIXTURE_CHECK
@given(shape=st.lists(st.integers(1, 37), min_size=1, max_size=3).map(tuple),
       axis=st.integers(-3, 2), dtype=st.sampled_from([np.float32, np.float64]))  # fmt: skip
def test_softmax_matches_numpy(device: str, shape: tuple[int, ...], axis: int, dtype: Any) -> None:
    axis = axis % len(shape)
    x = (RNG.standard_normal(shape) * 30).astype(dtype)  # large values: the max matters
    with go.on(device):
        got = gl.softmax(x, axis=axis).numpy()
    assert got.dtype == dtype
    _check(got, _softmax(x.astype(np.float64), axis), dtype)


def test_softmax_of_views_empty_rows_and_out(device: str) -> None:
    with go.on(device):
        big = RNG.standard_normal((6, 300)).astype(np.float32)
        view = go.array(big)[1::2, ::3]  # strided rows: copied to merge, same result
        _check(gl.softmax(view).numpy(), _softmax(big[1::2, ::3], -1), np.float32)
        assert gl.softmax(np.zeros((0, 4), np.float32)).shape == (0, 4)
        out = go.empty((6, 300), go.f32)
        assert gl.softmax(big, out=out) is out
        _check(out.numpy(), _softmax(big, -1), np.float32)
        inf = np.array([[-np.inf, -np.inf], [0.0, -np.inf]], np.float32)
        got = gl.softmax(inf).numpy()
        assert np.isnan(got[0]).all() and got[1].tolist() == [1.0, 0.0]


@NO_FIXTURE_CHECK
@given(rows_=st.integers(1, 9), n=st.integers(1, 400),
       dtype=st.sampled_from([np.float32, np.float64]))  # fmt: skip
def test_layer_norm_matches_numpy(device: str, rows_: int, n: int, dtype: Any) -> None:
    x = (RNG.standard_normal((rows_, n)) * 3 + 5).astype(dtype)  # an offset: centred variance
    w = RNG.standard_normal(n).astype(dtype)
    b = RNG.standard_normal(n).astype(dtype)
    with go.on(device):
        got = gl.layer_norm(x, w, b, eps=1e-5).numpy()
    ref = _layer_norm(x.astype(np.float64), w, b, 1e-5, 1)
    np.testing.assert_allclose(got, ref, rtol=1e-4 if dtype == np.float32 else 1e-10,
                               atol=1e-4 if dtype == np.float32 else 1e-10)  # fmt: skip


def test_layer_norm_over_two_axes_and_without_affine(device: str) -> None:
    x = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)
    w = RNG.standard_normal((4, 5)).astype(np.float32)
    b = RNG.standard_normal((4, 5)).astype(np.float32)
    with go.on(device):
        np.testing.assert_allclose(gl.layer_norm(x, w, b).numpy(),
                                   _layer_norm(x.astype(np.float64), w, b, 1e-5, 2),
                                   rtol=1e-4, atol=1e-4)  # fmt: skip
        np.testing.assert_allclose(gl.layer_norm(x, eps=0.1).numpy(),
                                   _layer_norm(x.astype(np.float64), 1.0, 0.0, 0.1, 1),
                                   rtol=1e-4, atol=1e-4)  # fmt: skip


def test_bad_inputs_are_refused_naming_the_function_and_argument() -> None:
    x = np.ones((3, 4), np.float32)
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.softmax: x must be float32"):
        gl.softmax(np.ones(3, np.int32))
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.softmax: axis 2 is out of range"):
        gl.softmax(x, axis=2)
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.layer_norm: bias has shape \(3,\)"):
        gl.layer_norm(x, np.ones(4, np.float32), np.ones(3, np.float32))
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.layer_norm: bias has dtype float64"):
        gl.layer_norm(x, None, np.ones(4))
    with pytest.raises(go.ShapeError, match=r"does not end with the normalised shape"):
        gl.layer_norm(x, np.ones((2, 4), np.float32))


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not on the PATH")
@pytest.mark.parametrize("sm", [80, 90])
def test_row_kernels_assemble_to_ptx(sm: int, tmp_path: Path) -> None:
    for dtype in (np.float32, np.float64):
        z1, z2, z3 = (np.zeros((1,) * d, dtype) for d in (1, 2, 3))
        softmax_rows, softmax_axis = rows._softmax_kernels(rows.BLOCKS[0])
        norm = rows._layer_norm_kernel(rows.BLOCKS[0])
        serial_softmax, serial_norm = rows._serial_kernels()
        eps = dtype(1e-5)
        for kernel, args in ((softmax_rows, (z2, z2)), (softmax_axis, (z3, z3)),
                             (norm, (z2, z1, z1, z2, eps)), (serial_softmax, (z2, z2, 0)),
                             (serial_norm, (z2, z1, z1, z2, eps, 0))):  # fmt: skip
            assemble_specialisation(kernel, args, sm, tmp_path)


def test_gpu_row_kernels_agree_too(device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The work-group-per-row kernels GPUs get, run here (every device is CPU-like)."""
    monkeypatch.setattr(rows, "on_cpu_like_device", lambda: False)
    x = (RNG.standard_normal((5, 300)) * 10).astype(np.float32)
    w = RNG.standard_normal(300).astype(np.float32)
    b = RNG.standard_normal(300).astype(np.float32)
    with go.on(device):
        _check(gl.softmax(x).numpy(), _softmax(x.astype(np.float64), -1), np.float32)
        np.testing.assert_allclose(gl.layer_norm(x, w, b).numpy(),
                                   _layer_norm(x.astype(np.float64), w, b, 1e-5, 1),
                                   rtol=1e-4, atol=1e-4)  # fmt: skip
