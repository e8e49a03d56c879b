"""gl.map against NumPy's broadcasting on every device."""

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

gm: Any = importlib.import_module("gpuoff.lib.maps")

FEW = settings(max_examples=10, deadline=None,
               suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip


@go.func
def axpy(a: go.f32, x: go.f32, y: go.f32) -> go.f32:
    return a * x + y


@go.func
def hypot(x: go.f64, y: go.f64) -> go.f64:
    return go.sqrt(x * x + y * y)


@go.func
def widen_negate(x: go.i32) -> go.i64:
    return -go.i64(x)


@go.func
def untyped(x: go.f32):  # type: ignore[no-untyped-def]  # the refusal under test
    return x


def test_three_arrays_broadcast_with_a_scalar(device: str) -> None:
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    y = np.linspace(0, 1, 4, dtype=np.float32)
    got = gl.map(axpy, np.float32(2), x, y)
    assert got.dtype == np.float32 and got.shape == (3, 4)
    np.testing.assert_array_equal(got.numpy(), np.float32(2) * x + y)


@FEW
@given(shapes=st.sampled_from([((5, 1, 3), (4, 1)), ((7,), (7,)), ((1,), (6,)), ((0, 3), (3,)),
                               ((), (2, 2)), ((3, 1), (1, 5))]),
       seed=st.integers(0, 2**16))  # fmt: skip
def test_shapes_broadcast_as_numpy(device: str, shapes: Any, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a, b = rng.random(shapes[0]), rng.random(shapes[1])
    got = gl.map(hypot, a, b)
    assert got.shape == np.broadcast_shapes(a.shape, b.shape) and got.dtype == np.float64
    np.testing.assert_allclose(got.numpy(), np.hypot(a, b), rtol=1e-15)


def test_dtype_from_the_annotation_views_and_out(device: str) -> None:
    x = np.arange(-5, 15, dtype=np.int32)
    got = gl.map(widen_negate, x)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got.numpy(), -x.astype(np.int64))
    np.testing.assert_array_equal(gl.map(widen_negate, go.array(x)[::3]).numpy(), -x[::3])
    np.testing.assert_array_equal(gl.map(widen_negate, x.reshape(4, 5)[:, 1:]).numpy(),
                                  -x.reshape(4, 5)[:, 1:])  # fmt: skip
    out = go.zeros(20, go.i64)
    assert gl.map(widen_negate, x, out=out) is out
    np.testing.assert_array_equal(out.numpy(), -x)


def test_bad_input_is_refused_naming_the_function() -> None:
    x = np.zeros(4, np.float32)
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.map: the arrays' shapes"):
        gl.map(hypot, np.zeros(3), np.zeros(4))
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.map: untyped must declare its return"):
        gl.map(untyped, x)
    with pytest.raises(go.DTypeError, match=r"gpuoff.lib.map: fn must be a @go.func"):
        gl.map(np.sqrt, x)  # type: ignore[arg-type]
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.map: takes 1 to 3 arrays"):
        gl.map(axpy, x, x, x, x)
    with pytest.raises(go.ShapeError, match=r"gpuoff.lib.map: out= has shape"):
        gl.map(axpy, x, x, x, out=go.zeros(3, go.f32))


@needs_ptxas
@pytest.mark.parametrize("sm", [80, 90])
def test_every_specialisation_assembles_to_ptx(sm: int, tmp_path: Any) -> None:
    f32, f64, i32, i64 = "float32", "float64", "int32", "int64"
    specs: list[tuple[Any, ...]] = []
    for ndim in (0, 3):
        specs += [
            (gm._map1, (i32, 1), (i64, 1), (i64, 1), {gm.A: i32, gm.R: i64},
             {"fn": widen_negate, "ndim": ndim}),
            (gm._map2, (f64, 1), (f64, 1), (f64, 1), (i64, 1), {gm.A: f64, gm.B: f64, gm.R: f64},
             {"fn": hypot, "ndim": ndim}),
            (gm._map3, (f64, 1), (f32, 1), (f32, 1), (f32, 1), (i64, 1),
             {gm.A: f64, gm.B: f32, gm.C: f32, gm.R: f32}, {"fn": axpy, "ndim": ndim}),
        ]  # fmt: skip
    assemble_all(specs, sm, tmp_path, const_name="")
