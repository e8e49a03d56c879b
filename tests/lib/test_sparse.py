"""gl.spmv on every device against a NumPy reference of scipy.sparse's CSR product."""

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
from gpuoff.lib import sparse
from tests.lib.ptx import assemble_specialisation


def _csr(rows: int, cols: int, density: float, seed: int) -> tuple[Any, Any, Any]:
    """A random CSR matrix (unsorted columns and duplicates allowed, as CSR allows)."""
    rng = np.random.default_rng(seed)
    counts = rng.binomial(cols, density, size=rows)
    indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)
    indices = rng.integers(0, cols, size=int(indptr[-1])).astype(np.int32)
    data = rng.standard_normal(int(indptr[-1]))
    return indptr, indices, data


def _ref(indptr: Any, indices: Any, data: Any, x: Any) -> Any:
    out = np.zeros(len(indptr) - 1)
    for row in range(len(out)):
        a, b = indptr[row], indptr[row + 1]
        out[row] = np.dot(data[a:b].astype(np.float64), x[indices[a:b]])
    return out


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(rows=st.integers(0, 70), cols=st.integers(1, 30), density=st.floats(0.0, 0.6),
       seed=st.integers(0, 99), wide=st.booleans())  # fmt: skip
def test_spmv_matches_numpy(device: str, rows: int, cols: int, density: float, seed: int,
                            wide: bool) -> None:  # fmt: skip
    indptr, indices, data = _csr(rows, cols, density, seed)
    x = np.random.default_rng(seed).standard_normal(cols).astype(np.float32)
    if wide:
        indptr, data = indptr.astype(np.int64), data.astype(np.float32)
    with go.on(device):
        got = gl.spmv(indptr, indices, data, x).numpy()
    assert got.dtype == np.result_type(data.dtype, x.dtype) and got.shape == (rows,)
    np.testing.assert_allclose(got, _ref(indptr, indices, data, x), rtol=1e-5, atol=1e-5)


def test_an_index_outside_x_is_a_bounds_error(device: str) -> None:
    with go.on(device), pytest.raises(go.BoundsError):
        gl.spmv(np.array([0, 1], np.int32), np.array([5], np.int32), np.ones(1),
                np.ones(3)).numpy()  # fmt: skip


def test_bad_inputs_are_refused_naming_the_function_and_argument() -> None:
    ptr, idx, x = np.array([0, 1], np.int32), np.array([0], np.int32), np.ones(2)
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.spmv: indices must be one of"):
        gl.spmv(ptr, idx.astype(np.float32), np.ones(1), x)
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.spmv: indices has shape \(1,\)"):
        gl.spmv(ptr, idx, np.ones(2), x)
    with pytest.raises(go.ShapeError, match=r"indptr must have at least one entry"):
        gl.spmv(np.zeros(0, np.int32), idx, np.ones(1), x)


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not on the PATH")
@pytest.mark.parametrize("sm", [80, 90])
def test_spmv_kernel_assembles_to_ptx(sm: int, tmp_path: Path) -> None:
    i, f = np.zeros(1, np.int32), np.zeros(1, np.float32)
    assemble_specialisation(sparse._csr_rows, (i, i, f, f, f), sm, tmp_path)
