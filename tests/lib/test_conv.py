"""gl.convolve and gl.conv2d on every device against NumPy (conv2d: a NumPy reference of
PyTorch's cross-correlation, so torch is not needed)."""

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
from gpuoff.lib import conv
from tests.lib.ptx import assemble_specialisation

RNG = np.random.default_rng(23)


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(n=st.integers(1, 40), m=st.integers(1, 40),
       dtypes=st.sampled_from([(np.float64, np.float32), (np.float32, np.float32),
                               (np.int32, np.int64)]))  # fmt: skip
def test_convolve_matches_numpy_in_every_mode(device: str, n: int, m: int,
                                              dtypes: tuple[Any, Any]) -> None:  # fmt: skip
    x = (RNG.standard_normal(n) * 4).astype(dtypes[0])
    k = (RNG.standard_normal(m) * 4).astype(dtypes[1])
    with go.on(device):
        for mode in ("full", "same", "valid"):
            got = gl.convolve(x, k, mode).numpy()
            want = np.convolve(x, k, mode)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


def _conv2d_ref(x: Any, w: Any, s: tuple[int, int], p: tuple[int, int]) -> Any:
    n, _, h, wd = x.shape
    o, _, kh, kw = w.shape
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])))
    oh, ow = (h + 2 * p[0] - kh) // s[0] + 1, (wd + 2 * p[1] - kw) // s[1] + 1
    out = np.zeros((n, o, oh, ow))
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, :, i : i + s[0] * oh : s[0], j : j + s[1] * ow : s[1]]
            out += np.einsum("nchw,oc->nohw", patch, w[:, :, i, j])
    return out


@pytest.mark.parametrize(("stride", "padding"), [(1, 0), (2, 1), ((1, 3), (2, 0))])
def test_conv2d_matches_a_numpy_reference(device: str, stride: Any, padding: Any) -> None:
    x = RNG.standard_normal((2, 3, 9, 11)).astype(np.float32)
    w = RNG.standard_normal((4, 3, 3, 2)).astype(np.float32)
    s = stride if isinstance(stride, tuple) else (stride, stride)
    p = padding if isinstance(padding, tuple) else (padding, padding)
    with go.on(device):
        got = gl.conv2d(x, w, stride=stride, padding=padding).numpy()
        got64 = gl.conv2d(x.astype(np.float64), w, stride=stride, padding=padding).numpy()
    want = _conv2d_ref(x, w, s, p)
    assert got.dtype == np.float32 and got.shape == want.shape and got64.dtype == np.float64
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(got64, want, rtol=1e-6, atol=1e-6)


def test_bad_inputs_are_refused_naming_the_function_and_argument() -> None:
    x = np.ones(4, np.float32)
    with pytest.raises(ValueError, match=r"gpuoff.lib.convolve: mode must be"):
        gl.convolve(x, x, "circular")
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.convolve: k must be 1-d and not empty"):
        gl.convolve(x, np.ones(0, np.float32))
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.convolve: x must be one of"):
        gl.convolve(np.ones(3, np.uint8), x)
    img = np.ones((1, 2, 5, 5), np.float32)
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.conv2d: x has 2 channels, w expects 3"):
        gl.conv2d(img, np.ones((1, 3, 2, 2), np.float32))
    with pytest.raises(go.ShapeError, match=r"larger than the padded input"):
        gl.conv2d(img, np.ones((1, 2, 6, 2), np.float32))
    with pytest.raises(ValueError, match=r"gpuoff.lib.conv2d: stride must be an int >= 1"):
        gl.conv2d(img, np.ones((1, 2, 2, 2), np.float32), stride=0)


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not on the PATH")
@pytest.mark.parametrize("sm", [80, 90])
def test_conv_kernels_assemble_to_ptx(sm: int, tmp_path: Path) -> None:
    f1, f4 = np.zeros(1, np.float32), np.zeros((1, 1, 1, 1), np.float32)
    assemble_specialisation(conv._convolve, (f1, np.zeros(1), np.zeros(1), 0), sm, tmp_path)
    assemble_specialisation(conv._conv2d, (f4, f4, f4, 1, 1, 0, 0), sm, tmp_path)
