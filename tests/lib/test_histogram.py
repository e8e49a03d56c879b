"""gl.histogram and gl.bincount against NumPy on every device (gpuoff.lib.histogram)."""

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

gh: Any = importlib.import_module("gpuoff.lib.histogram")

FEW = settings(max_examples=12, deadline=None,
               suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip


def _data(rng: np.random.Generator, n: int, dtype: Any) -> np.ndarray[Any, Any]:
    return (rng.random(n) * 60 - 10).astype(dtype)


def _same(got: tuple[go.Buffer[Any], go.Buffer[Any]], want: tuple[Any, Any]) -> None:
    counts, edges = got
    assert counts.dtype == want[0].dtype and edges.dtype == want[1].dtype
    np.testing.assert_array_equal(counts.numpy(), want[0])
    np.testing.assert_array_equal(edges.numpy(), want[1])


@FEW
@given(n=st.integers(0, 300), bins=st.integers(1, 40), ranged=st.booleans(),
       dtype=st.sampled_from([np.float32, np.int16]), seed=st.integers(0, 2**16))  # fmt: skip
def test_equal_bins_match_numpy(device: str, n: int, bins: int, ranged: bool, dtype: Any,
                                seed: int) -> None:  # fmt: skip
    x = _data(np.random.default_rng(seed), n, dtype)
    rng = (0.5, 30.25) if ranged else None
    _same(gl.histogram(x, bins, rng), np.histogram(x, bins, rng))


def test_views_and_arrays_of_more_dimensions_are_flattened(device: str) -> None:
    x = _data(np.random.default_rng(1), 2 * 3 * 41, np.float64).reshape(6, 41)
    _same(gl.histogram(x, 12), np.histogram(x, 12))
    _same(gl.histogram(x[:, ::3], 5, (0.0, 20.0)), np.histogram(x[:, ::3], 5, (0.0, 20.0)))
    buf = go.array(x)
    _same(gl.histogram(buf[1:, 2:], 7), np.histogram(x[1:, 2:], 7))
    _same(gl.histogram(buf[::2], 9, (0.0, 50.0)), np.histogram(x[::2], 9, (0.0, 50.0)))


def test_edges_the_last_bin_and_what_is_left_out(device: str) -> None:
    # values exactly on edges, on the last edge (counted), outside, NaN and infinities
    edges = np.histogram_bin_edges(np.empty(0, np.float32), 10, (0.1, 0.9))
    x = np.concatenate([edges, edges + np.float32(1e-8), [np.nan, np.inf, -np.inf, 0.0, 2.0]])
    x = x.astype(np.float32)
    _same(gl.histogram(x, 10, (0.1, 0.9)), np.histogram(x, 10, (0.1, 0.9)))
    # many bins (more than a work-group's shared histogram holds)
    y = _data(np.random.default_rng(2), 5000, np.float32)
    _same(gl.histogram(y, 2000, (0, 40)), np.histogram(y, 2000, (0, 40)))


def test_explicit_edges(device: str) -> None:
    rng = np.random.default_rng(3)
    x = _data(rng, 777, np.float32)
    for bins in (np.array([-5, 0, 1, 7, 40]), np.array([0.5, 0.5, 3.0, 3.25]), np.array([2.0])):
        _same(gl.histogram(x, bins), np.histogram(x, bins))
    ints = rng.integers(-3, 20, 500).astype(np.int16)
    edges = np.array([0, 4, 5, 19])
    _same(gl.histogram(ints, edges), np.histogram(ints, edges))
    _same(gl.histogram(ints, go.array(edges)), np.histogram(ints, edges))


def test_the_shared_memory_variant(device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # the GPU variant (work-groups, shared atomics) runs on every device too
    monkeypatch.setattr(gh, "device_kind", lambda: "gpu")  # gh: the module, not gl.histogram
    x = _data(np.random.default_rng(4), 70_001, np.float32)
    _same(gl.histogram(x, 64, (0, 40)), np.histogram(x, 64, (0, 40)))
    ints = np.random.default_rng(5).integers(0, 300, 9000).astype(np.int32)
    np.testing.assert_array_equal(gl.bincount(ints).numpy(), np.bincount(ints))


@FEW
@given(n=st.integers(0, 400), top=st.integers(0, 3000), minlength=st.integers(0, 50),
       dtype=st.sampled_from([np.int32, np.uint8, np.bool_]),
       seed=st.integers(0, 2**16))  # fmt: skip
def test_bincount_matches_numpy(device: str, n: int, top: int, minlength: int, dtype: Any,
                                seed: int) -> None:  # fmt: skip
    x = np.random.default_rng(seed).integers(0, top + 1, n).astype(dtype)
    got, want = gl.bincount(x, minlength=minlength), np.bincount(x, minlength=minlength)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.numpy(), want)


def test_bincount_of_a_strided_view(device: str) -> None:
    x = np.random.default_rng(6).integers(0, 50, 301).astype(np.int32)
    np.testing.assert_array_equal(gl.bincount(go.array(x)[::3]).numpy(), np.bincount(x[::3]))
    np.testing.assert_array_equal(gl.bincount(x[::2]).numpy(), np.bincount(x[::2]))


def test_bad_input_is_refused_naming_the_function() -> None:
    with pytest.raises(ValueError, match=r"gpuoff.lib.bincount: x must have no negative"):
        gl.bincount(np.array([1, -1, 2], np.int32))
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.bincount: x has dtype float32"):
        gl.bincount(np.zeros(3, np.float32))
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.bincount: x must be 1-d"):
        gl.bincount(np.zeros((2, 2), np.int32))
    with pytest.raises(ValueError, match="minlength must be non-negative"):
        gl.bincount(np.zeros(3, np.int32), minlength=-1)
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.histogram: bins='auto'"):
        gl.histogram(np.zeros(3, np.float32), "auto")
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.histogram: x has dtype bool"):
        gl.histogram(np.zeros(3, np.bool_))
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.histogram: x must be a go.Buffer"):
        gl.histogram([1.0, 2.0])
    with pytest.raises(ValueError, match="autodetected range of"):
        gl.histogram(np.array([1.0, np.nan]))
    with pytest.raises(ValueError, match="max must be larger than min"):  # NumPy's own checks
        gl.histogram(np.zeros(3, np.float32), 4, (2.0, 1.0))
    with pytest.raises(ValueError, match="must increase monotonically"):
        gl.histogram(np.zeros(3, np.float32), np.array([2.0, 1.0]))


@needs_ptxas
@pytest.mark.parametrize("sm", [80, 90])
def test_every_specialisation_assembles_to_ptx(sm: int, tmp_path: Any) -> None:
    f32, f64, i16, i32, i64 = "float32", "float64", "int16", "int32", "int64"
    specs: list[tuple[Any, ...]] = []
    for t, b, mode in ((f32, f32, gh.UNIFORM), (i16, f64, gh.UNIFORM), (f32, f64, gh.EDGES),
                       (i32, i64, gh.INTS)):  # fmt: skip
        binding = {gh.T: t, gh.B: b}
        specs.append((gh._count_rows, (t, 1), (b, 1), i64, (i32, 2), binding, mode))
        specs.append((gh._count_shared, (t, 1), (b, 1), (i32, 2), binding, mode))
    for t in (f32, i16, i32):
        specs.append((gh._minmax, (t, 1), i64, (t, 1), (t, 1), (i32, 1), {gh.T: t}, None))
    specs.append((gh._merge, (i32, 2), (i64, 1), {}, None))
    assemble_all(specs, sm, tmp_path, const_name="mode")
