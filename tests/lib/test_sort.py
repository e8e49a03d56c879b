"""gl.sort, gl.argsort, gl.sort_pairs against NumPy's stable sort on every device."""

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

gs: Any = importlib.import_module("gpuoff.lib.sort")  # the module (gl.sort is the function)

FEW = settings(max_examples=10, deadline=None,
               suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip

DTYPES = [np.uint32, np.int32, np.float32, np.float64, np.int8, np.uint16, np.int64,
          np.float16, np.bool_]  # fmt: skip


def keys_of(dtype: Any, n: int, seed: int) -> np.ndarray[Any, Any]:
    """Keys with ties, both extremes and, for floats, NaN of both signs, -0.0 and +0.0."""
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.integers(0, 2, n).astype(dtype)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        x = rng.integers(info.min, info.max, n, endpoint=True, dtype=dtype)
        x[::7] = x[:1]
        x[1:2], x[2:3] = info.min, info.max
        return x
    x = (rng.standard_normal(n) * 100).astype(dtype)
    x[::5] = np.round(x[::5])
    x[::11], x[::19] = np.nan, -np.nan
    x[::13], x[::17] = -0.0, 0.0
    x[2:3], x[3:4] = np.inf, -np.inf
    return x


def _bits(a: Any) -> bytes:
    return bytes(np.ascontiguousarray(a).tobytes())


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_every_dtype_sorts_as_numpy_stable(device: str, dtype: Any) -> None:
    x = keys_of(dtype, 3001, 0)
    want = np.sort(x, kind="stable")
    got = gl.sort(x)
    assert got.dtype == want.dtype
    assert _bits(got.numpy()) == _bits(want)  # NaN payloads, -0.0 vs 0.0: bit for bit
    np.testing.assert_array_equal(gl.argsort(x).numpy(), np.argsort(x, kind="stable"))
    values = np.arange(x.shape[0], dtype=np.float32) * 0.5
    k, v = gl.sort_pairs(x, values)
    assert _bits(k.numpy()) == _bits(want)
    np.testing.assert_array_equal(v.numpy(), values[np.argsort(x, kind="stable")])


@FEW
@given(n=st.integers(0, 2000), dtype=st.sampled_from([np.uint32, np.float32, np.int64]),
       seed=st.integers(0, 2**16), few=st.booleans())  # fmt: skip
def test_sizes_and_ties(device: str, n: int, dtype: Any, seed: int, few: bool) -> None:
    x = keys_of(dtype, n, seed)
    if few:  # many equal keys: stability shows
        x = x[np.random.default_rng(seed).integers(0, max(1, min(n, 3)), n)] if n else x
    assert _bits(gl.sort(x).numpy()) == _bits(np.sort(x, kind="stable"))
    np.testing.assert_array_equal(gl.argsort(x).numpy(), np.argsort(x, kind="stable"))


def test_views_buffers_and_axis_none(device: str) -> None:
    x = keys_of(np.float32, 4000, 3)
    buf = go.array(x)
    assert _bits(gl.sort(buf[::3]).numpy()) == _bits(np.sort(x[::3], kind="stable"))
    assert _bits(gl.sort(x[1::2]).numpy()) == _bits(np.sort(x[1::2], kind="stable"))
    grid = x[:3999].reshape(31, 129)
    got = gl.argsort(grid, axis=None).numpy()
    np.testing.assert_array_equal(got, np.argsort(grid, axis=None, kind="stable"))
    k, v = gl.sort_pairs(buf[::2], go.array(np.arange(2000, dtype=np.int16)))
    order = np.argsort(x[::2], kind="stable")
    np.testing.assert_array_equal(v.numpy(), np.arange(2000, dtype=np.int16)[order])


@pytest.mark.parametrize("shape", [(7, 300), (300, 5), (2, 3, 41), (1, 9), (4, 0)])
def test_rows_of_arrays_of_more_dimensions(device: str, shape: tuple[int, ...]) -> None:
    x = keys_of(np.float32, int(np.prod(shape)), 5).reshape(shape)
    x[..., :2] = x[..., 2:4]  # ties inside rows
    got = gl.sort(x)
    assert got.shape == shape and _bits(got.numpy()) == _bits(np.sort(x, kind="stable"))
    order = gl.argsort(go.array(x))
    np.testing.assert_array_equal(order.numpy(), np.argsort(x, kind="stable"))
    ints = np.random.default_rng(6).integers(-50, 50, shape).astype(np.int16)
    np.testing.assert_array_equal(gl.sort(ints, axis=-1).numpy(), np.sort(ints, kind="stable"))


def test_the_gpu_chunking(device: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # many small chunks, as a GPU gets them
    monkeypatch.setattr(gs, "device_kind", lambda: "gpu")
    x = keys_of(np.int32, 5000, 4)
    assert _bits(gl.sort(x).numpy()) == _bits(np.sort(x, kind="stable"))
    np.testing.assert_array_equal(gl.argsort(x).numpy(), np.argsort(x, kind="stable"))


def test_bad_input_is_refused_naming_the_function() -> None:
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.sort: axis must be -1"):
        gl.sort(np.zeros((2, 3), np.float32), axis=0)
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.argsort: axis must be"):
        gl.argsort(np.zeros(3, np.float32), axis=1)
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.sort: keys is 0-d"):
        gl.sort(np.zeros((), np.float32))
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.sort_pairs: keys must be 1-d"):
        gl.sort_pairs(np.zeros((2, 2), np.int32), np.zeros((2, 2), np.int32))
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.sort_pairs: values has shape"):
        gl.sort_pairs(np.zeros(3, np.int32), np.zeros(4, np.int32))
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.sort: keys must be a go.Buffer"):
        gl.sort([3, 1, 2])


@needs_ptxas
@pytest.mark.parametrize("sm", [80, 90])
def test_every_specialisation_assembles_to_ptx(sm: int, tmp_path: Any) -> None:
    u8, u32, u64, i64, f32 = "uint8", "uint32", "uint64", "int64", "float32"
    specs: list[tuple[Any, ...]] = []
    for u, k, kind in ((u32, u32, gs.FLOAT), (u8, u32, gs.SIGNED), (u64, u64, gs.UNSIGNED)):
        specs.append((gs._to_keys, (u, 1), (k, 1), k, k, {gs.U: u, gs.K: k}, kind))
        specs.append((gs._from_keys, (k, 1), (u, 1), k, {gs.U: u, gs.K: k}, None))
    for k in (u32, u64):
        specs.append((gs._digit_counts, (k, 1), i64, i64, (i64, 2), {gs.K: k}, None))
        for v, mode in ((u8, gs.KEYS_ONLY), (u32, gs.PAIRS), (i64, gs.INDICES)):
            specs.append((gs._scatter, (k, 1), (v, 1), i64, i64, (i64, 2), (i64, 1), (k, 1),
                          (v, 1), {gs.K: k, gs.V: v}, mode))  # fmt: skip
    specs.append((gs._scan_digits, (i64, 2), (i64, 2), (i64, 1), {}, None))
    specs.append((gs._column_of, (i64, 1), i64, (i64, 1), {}, None))
    for k in (u32, u64):
        specs.append((gs._row_keys, (i64, 1), i64, (k, 1), {gs.K: k}, None))
    for v in (u32, f32):
        specs.append((gs._gather, (v, 1), (i64, 1), (v, 1), {gs.V: v}, None))
        specs.append((gs._copy, (v, 1), (v, 1), {gs.V: v}, None))
    assemble_all([s for s in specs if s[-1] is None], sm, tmp_path, const_name="")
    assemble_all([s for s in specs if s[0] is gs._to_keys], sm, tmp_path, const_name="kind")
    assemble_all([s for s in specs if s[0] is gs._scatter], sm, tmp_path, const_name="mode")
