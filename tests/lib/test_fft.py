"""gl.fft and gl.ifft on every device against np.fft: power-of-two lengths (Stockham passes),
any other length (Bluestein), batches along the last axis, real input, views, ``norm=``,
``out=``, the refusals; and their kernels' PTX through ptxas."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gpuoff as go
import gpuoff.lib as gl
from gpuoff.lib import _fft_kernels as K
from tests.lib.ptx_support import assemble_all, needs_ptxas

RNG = np.random.default_rng(16)
NDArray = np.ndarray[Any, Any]

FEW = settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
TWO_DEVICES = [d for d in ("cpu", "opencl:0") if d in [x.name for x in go.devices()
                                                       if x.available]]  # fmt: skip


def _complex(shape: tuple[int, ...], dtype: Any) -> NDArray:
    out: NDArray = (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(dtype)
    return out


def _check(got: NDArray, want: NDArray) -> None:
    """Close to NumPy's relative to the transform's magnitude: pocketfft's own error grows
    like ``log n`` ulps, so does ours (tables in f64, rounded once)."""
    assert got.dtype == want.dtype and got.shape == want.shape
    single = want.dtype == np.complex64
    tol = 2e-6 if single else 1e-14
    scale = max(float(np.abs(want).max(initial=0.0)), 1e-30)
    err = float(np.abs(got.astype(np.complex128) - want).max(initial=0.0)) / scale
    assert err < tol, f"relative error {err:.3g} over {tol:g}"


@FEW
@given(n=st.one_of(st.sampled_from([1, 2, 4, 8, 32, 64, 512]), st.integers(1, 300)),
       rows=st.integers(1, 3), dtype=st.sampled_from([np.complex64, np.complex128]),
       inverse=st.booleans())  # fmt: skip
def test_matches_numpy_on_every_device(
    device: str, n: int, rows: int, dtype: Any, inverse: bool
) -> None:
    x = _complex((rows, n), dtype)
    fn, ref = (gl.ifft, np.fft.ifft) if inverse else (gl.fft, np.fft.fft)
    _check(fn(x).numpy(), ref(x))


@pytest.mark.parametrize("device", TWO_DEVICES)
@pytest.mark.parametrize("n", [1, 2, 3, 16, 97, 128, 1000, 2048])
def test_lengths_and_norms(device: str, n: int) -> None:
    with go.on(device):
        for dtype in (np.complex64, np.complex128):
            x = _complex((n,), dtype)
            for norm in (None, "backward", "ortho", "forward"):
                _check(gl.fft(x, norm=norm).numpy(), np.fft.fft(x, norm=norm))
                _check(gl.ifft(x, norm=norm).numpy(), np.fft.ifft(x, norm=norm))


@pytest.mark.parametrize("device", TWO_DEVICES)
def test_real_input_views_batches_and_out(device: str) -> None:
    with go.on(device):
        for dtype in (np.float32, np.float16, np.float64, np.int32, np.bool_, np.int8):
            x = (RNG.standard_normal((2, 12)) * 4).astype(dtype)
            _check(gl.fft(x).numpy(), np.fft.fft(x))  # NumPy 2's dtypes: c64 for f32/f16
        big = _complex((4, 6, 40), np.complex64)
        _check(gl.fft(big).numpy(), np.fft.fft(big))  # along the last axis, 24 rows
        view = go.array(big)[1::2, :, ::2]  # strided: copied to rows first
        _check(gl.fft(view).numpy(), np.fft.fft(big[1::2, :, ::2]))
        _check(gl.ifft(big[..., ::-1]).numpy(), np.fft.ifft(big[..., ::-1]))
        out = go.empty((4, 6, 40), go.complex64)
        assert gl.fft(big, out=out) is out
        _check(out.numpy(), np.fft.fft(big))
        rt = gl.ifft(gl.fft(big)).numpy()  # round trip
        np.testing.assert_allclose(rt, big, atol=2e-5)
        assert gl.fft(np.zeros((0, 5), np.complex64)).shape == (0, 5)


def test_refusals_name_the_function() -> None:
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.fft: invalid number of FFT data"):
        gl.fft(np.zeros(0, np.complex64))
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.ifft: x must have at least one"):
        gl.ifft(np.complex64(1.0) * np.ones((), np.complex64))
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.fft: only n=None and axis=-1"):
        gl.fft(np.ones((2, 4), np.complex64), axis=0)
    with pytest.raises(ValueError, match=r"gpuoff.lib.fft: norm must be one of"):
        gl.fft(np.ones(4, np.complex64), norm="both")
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.fft: cannot transform an array of"):
        gl.fft(np.array(["a"]))
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.fft: out= has dtype complex128"):
        gl.fft(np.ones(4, np.complex64), out=go.empty((4,), go.complex128))


@needs_ptxas
@pytest.mark.parametrize("sm", [80, 90])
def test_fft_kernels_assemble_to_ptx(sm: int, tmp_path: Path) -> None:
    radix4, radix2 = K.passes()
    widen, chirp_in, chirp_out = K.elementwise()
    specs: list[tuple[Any, ...]] = []
    for c, r in (("complex64", "float32"), ("complex128", "float64")):
        arr2, arr1 = (c, 2), (c, 1)
        bind = {K.C: c, K.R: r}
        for inverse in (False, True):
            specs.append((radix4, arr2, arr2, arr1, "int64", r, bind, {"inverse": inverse}))
        specs += [
            (radix2, arr2, arr2, arr1, "int64", r, bind, None),
            (widen, ("float32", 2), arr2, r, {**bind, K.S: "float32"}, None),
            (chirp_in, arr2, arr1, arr2, {K.C: c}, None),
            (chirp_out, arr2, arr1, arr2, r, bind, None),
            (K.pointwise(), arr2, arr1, {K.C: c}, None),
        ]
    assemble_all(specs, sm, tmp_path, const_name="inverse")
