"""gl.matmul and gl.gemm on every device against NumPy (float64 references)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gpuoff as go
import gpuoff.lib as gl
from gpuoff.lib import dense
from tests.lib.ptx import assemble_specialisation

RNG = np.random.default_rng(16)


def _rand(shape: tuple[int, ...], dtype: Any) -> np.ndarray[Any, Any]:
    return RNG.standard_normal(shape).astype(dtype)


def _close(got: np.ndarray[Any, Any], want: np.ndarray[Any, Any], k: int) -> None:
    tol = 1e-5 if got.dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, want, rtol=tol * 10, atol=tol * 4 * max(k, 1) ** 0.5)


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(m=st.integers(0, 40), k=st.integers(0, 70), n=st.integers(0, 40),
       dtype=st.sampled_from([np.float32, np.float64]))  # fmt: skip
def test_matmul_2d_matches_numpy(device: str, m: int, k: int, n: int, dtype: Any) -> None:
    with go.on(device):
        a, b = _rand((m, k), dtype), _rand((k, n), dtype)
        got = gl.matmul(a, b).numpy()
    assert got.dtype == dtype and got.shape == (m, n)
    _close(got, a.astype(np.float64) @ b, k)


def test_matmul_batches_broadcast_and_mixed_dtypes(device: str) -> None:
    with go.on(device):
        a = _rand((3, 7, 20), np.float32)
        b = _rand((20, 9), np.float64)
        got = gl.matmul(a, b).numpy()
        assert got.dtype == np.float64 and got.shape == (3, 7, 9)
        _close(got, a.astype(np.float64) @ b, 20)
        b3 = _rand((1, 20, 5), np.float32)
        _close(gl.matmul(a, b3).numpy(), a.astype(np.float64) @ b3, 20)
        a1 = _rand((3, 4, 20), np.float32)
        b1 = _rand((3, 20, 6), np.float32)
        _close(gl.matmul(a1, b1).numpy(), a1.astype(np.float64) @ b1, 20)


def test_matmul_reads_views_and_writes_out(device: str) -> None:
    with go.on(device):
        big = _rand((30, 40), np.float32)
        a = go.array(big)[::2, 1:31]  # a strided view: (15, 30)
        b = big[:30, ::3].T  # a NumPy transpose, not contiguous: (14, 30) -> b.T (30, 14)
        out = go.empty((15, 14), go.f32)
        res = gl.matmul(a, np.ascontiguousarray(b.T), out=out)
        assert res is out
        _close(out.numpy(), big[::2, 1:31].astype(np.float64) @ b.T, 30)


def test_gemm_alpha_beta_transposes_in_place(device: str) -> None:
    with go.on(device):
        a = _rand((12, 9), np.float32)  # op(a) = a.T: (9, 12)
        b = _rand((5, 12), np.float32)  # op(b) = b.T: (12, 5)
        c0 = _rand((9, 5), np.float32)
        c = go.array(c0)
        res = gl.gemm(a, b, c, alpha=0.5, beta=-2.0, trans_a=True, trans_b=True)
        assert res is c
        want = 0.5 * (a.T.astype(np.float64) @ b.T) - 2.0 * c0
        _close(c.numpy(), want, 12)
        host = np.full((9, 5), np.nan, np.float32)  # beta = 0: c is not read (NaN stays out)
        gl.gemm(a.T.copy(), b.T.copy(), host)
        go.synchronize()
        _close(host, a.T.astype(np.float64) @ b.T, 12)


def test_empty_inner_dimension_gives_zeros_and_scales_c(device: str) -> None:
    with go.on(device):
        assert np.array_equal(gl.matmul(np.ones((3, 0), np.float32),
                                        np.ones((0, 2), np.float32)).numpy(), np.zeros((3, 2)))
        c = go.array(np.ones((3, 2), np.float32))
        gl.gemm(np.ones((3, 0), np.float32), np.ones((0, 2), np.float32), c, beta=3.0)
        assert np.array_equal(c.numpy(), np.full((3, 2), 3.0))


def test_bad_operands_are_refused_naming_the_function_and_argument() -> None:
    a = np.ones((3, 4), np.float32)
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.matmul: the inner dimensions differ"):
        gl.matmul(a, a)
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.matmul: b must be 2-d or 3-d"):
        gl.matmul(a, np.ones(4, np.float32))
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.matmul: a must be float32 or float64"):
        gl.matmul(np.ones((3, 4), np.int32), a.T.copy())
    with pytest.raises(go.ShapeError, match=r"batch sizes 2 and 3 do not broadcast"):
        gl.matmul(np.ones((2, 3, 4), np.float32), np.ones((3, 4, 3), np.float32))
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.gemm: c has shape \(4, 4\)"):
        gl.gemm(a, a.T.copy(), go.zeros((4, 4), go.f32))
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.gemm: c must be a go.Buffer"):
        gl.gemm(a, a.T.copy(), cast(Any, [[0.0]]))
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.matmul: out= has shape"):
        gl.matmul(a, a.T.copy(), out=go.zeros((4, 4), go.f32))


def _ptx_cases() -> list[tuple[Any, tuple[Any, ...], bool]]:
    """(kernel, sample arguments, whether to assemble the fully checked variant too): the
    micro-kernel's checked variant (96 accumulators, each access checked) takes LLVM's NVPTX
    backend about 40 s and never runs from gl.matmul, whose launches all satisfy the
    predicate of the launch-proven variant (its panels are sized for the grid)."""
    cases: list[tuple[Any, tuple[Any, ...], bool]] = []
    for dtype in (np.float32, np.float64):
        tile = dense.VARIANTS[np.dtype(dtype).name][0]
        z4 = np.zeros((1, 1, 1, 1), dtype)
        z3 = np.zeros((1, 1, 1), dtype)
        pack_a, pack_b = dense._packers(tile.mr, tile.nr)
        micro, unpack = dense._product(tile.mr, tile.nr)
        cases += [(pack_a, (z3, z4), True), (pack_b, (z3, z4), True),
                  (micro, (z4, z4, z4, 0, 0, 0), False),
                  (unpack, (z4, z3, dtype(1.0), dtype(0.0)), True)]  # fmt: skip
        lanes = dense.LANE_VARIANTS[np.dtype(dtype).name][0]
        cases.append((dense._lanes_micro(lanes.mr, lanes.nr), (z4, z4, z4, 0, 0, 0), True))
    z2, z3 = np.zeros((1, 1), np.int32), np.zeros((1, 1, 1), np.int32)
    cases += [(dense._transpose_tiles, (z2, z2), True), (dense._copy3, (z3, z3), True)]
    return cases


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not on the PATH")
@pytest.mark.parametrize("sm", [80, 90])
def test_dense_kernels_assemble_to_ptx(sm: int, tmp_path: Path) -> None:
    for kernel, args, checked in _ptx_cases():
        assemble_specialisation(kernel, args, sm, tmp_path, checked)


@pytest.mark.parametrize("shape", [(5, 7), (33, 17), (1, 1), (3, 4, 5), (6,), ()])
def test_transpose_matches_numpy(device: str, shape: tuple[int, ...]) -> None:
    a = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    with go.on(device):
        got = gl.transpose(a).numpy()
        view = go.array(np.arange(60.0).reshape(6, 10))[::2, 1::3]
        got_view = gl.transpose(view).numpy()
    assert got.shape == a.T.shape and np.array_equal(got, a.T)
    assert np.array_equal(got_view, np.arange(60.0).reshape(6, 10)[::2, 1::3].T)


def test_transpose_refuses_four_dimensions() -> None:
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.transpose: a must have at most 3"):
        gl.transpose(np.zeros((1, 2, 3, 4), np.float32))


def test_tilings_per_device_and_size(device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Small products take the default tiling of the device's table (no timing); large ones
    the tuned choice, which is the default with GPUOFF_AUTOTUNE=0."""
    monkeypatch.setenv("GPUOFF_AUTOTUNE", "0")
    table = dense.VARIANTS if device == "cpu" else dense.LANE_VARIANTS
    f32 = np.dtype(np.float32)
    with go.on(device):
        assert dense._tiling(f32, 1000) == table["float32"][0]
        assert dense._tiling(f32, 1 << 30) == table["float32"][0]
    assert all(t.mr % 2 == 0 for ts in (*dense.VARIANTS.values(), *dense.LANE_VARIANTS.values())
               for t in ts)  # fmt: skip (the accumulators are declared in pairs)
