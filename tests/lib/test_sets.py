"""gl.unique against np.unique on every device."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gpuoff as go
import gpuoff.lib as gl
from tests.lib.ptx_support import assemble_all, needs_ptxas
from tests.lib.test_sort import keys_of

gu: Any = importlib.import_module("gpuoff.lib.sets")

FEW = settings(max_examples=10, deadline=None,
               suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip


def _same(x: Any) -> None:
    values, counts = gl.unique(x, return_counts=True)
    want_values, want_counts = np.unique(np.asarray(x), return_counts=True)
    assert values.dtype == want_values.dtype and counts.dtype == want_counts.dtype
    np.testing.assert_array_equal(values.numpy(), want_values)  # NaN: equal where both are
    np.testing.assert_array_equal(counts.numpy(), want_counts)
    np.testing.assert_array_equal(gl.unique(x).numpy(), want_values)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.int8, np.bool_,
                                   np.uint64], ids=lambda d: np.dtype(d).name)  # fmt: skip
def test_every_dtype(device: str, dtype: Any) -> None:
    x = keys_of(dtype, 2500, 1)
    if np.issubdtype(dtype, np.integer) and np.dtype(dtype).itemsize > 1:
        x = x % 40  # few values, many repeats
    _same(x)


@FEW
@given(n=st.integers(0, 1500), top=st.integers(1, 300), seed=st.integers(0, 2**16))
def test_sizes_and_repeats(device: str, n: int, top: int, seed: int) -> None:
    _same(np.random.default_rng(seed).integers(0, top, n).astype(np.int32))


def test_views_and_more_dimensions(device: str) -> None:
    x = keys_of(np.float32, 3000, 2)
    _same(x[::3])
    _same(x.reshape(30, 100)[:, 1::2])
    _same(go.array(x.reshape(60, 50))[5:, :10])
    _same(np.array([0.0, -0.0, np.nan, -np.nan, 1.0], np.float32))


def test_the_gpu_chunking(device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gu, "device_kind", lambda: "gpu")
    _same(np.random.default_rng(3).integers(0, 500, 9000).astype(np.int32))


def test_bad_input_is_refused_naming_the_function() -> None:
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.unique: x must be a go.Buffer"):
        gl.unique([1, 2, 2])


@needs_ptxas
@pytest.mark.parametrize("sm", [80, 90])
def test_every_specialisation_assembles_to_ptx(sm: int, tmp_path: Any) -> None:
    u8, u32, u64, i64 = "uint8", "uint32", "uint64", "int64"
    specs: list[tuple[Any, ...]] = [(gu._run_lengths, (i64, 1), i64, (i64, 1), {}, None)]
    for k, u in ((u32, u8), (u32, u32), (u64, u64)):
        specs.append((gu._count_runs, (k, 1), i64, (i64, 1), {gu.K: k}, None))
        for with_starts in (False, True):
            specs.append((gu._write_runs, (k, 1), (u, 1), i64, (i64, 1), (u, 1), (i64, 1),
                          {gu.K: k, gu.U: u}, with_starts))  # fmt: skip
    assemble_all([s for s in specs if s[-1] is None], sm, tmp_path, const_name="")
    assemble_all([s for s in specs if s[-1] is not None], sm, tmp_path,
                 const_name="with_starts")  # fmt: skip
