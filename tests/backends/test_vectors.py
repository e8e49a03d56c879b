"""Small vectors (issue 15, item 2): ``go.vec2``/``vec3``/``vec4`` (f32; ``d`` f64, ``i`` i32)
built from scalars, element-wise arithmetic with scalar broadcasting, ``go.dot``,
``go.cross``, ``go.length``, ``go.length_sq``, ``go.normalize``, components ``v.x``/``v[0]``,
loads and stores from the last axis of an (N, k) array, atomics on a row, vector locals,
device-function parameters and results, a captured host vector; on every device against the
interpreter and NumPy; and in PTX (ptxas sm_80/sm_90)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from codegen.nvptx import compile_ptx
from gpuoff import Array, Borrow, BorrowMut, f32, f64, i32, vec3, vec4
from tests.backends.agree import agree, arg_types
from tests.backends.test_ptx import assemble

NDArray = np.ndarray[Any, Any]
RNG = np.random.default_rng(11)
UP = go.vec3(0.0, 1.0, 0.0)


@go.func
def reflect(d: vec3, n: vec3) -> vec3:
    return d - n * (2.0 * go.dot(d, n))


@go.func
def spread(v: vec3):  # type: ignore[no-untyped-def]
    """An inferred result: a vector and a number."""
    return v * v, go.length_sq(v)


@go.kernel
def vector_ops(a: Borrow[Array[f32]], b: Borrow[Array[f32]], s: Borrow[Array[f32]],
               out: BorrowMut[Array[f32]], r: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    i = go.global_id(0)
    u = go.vec3.load(a, i)
    w = go.vec3.load(b, i)
    acc = go.vec3(0.0)
    acc += u * s[i] + 1.0
    acc -= w / 2.0
    out[i, 0] = acc
    out[i, 1] = go.cross(u, w)
    out[i, 2] = go.normalize(u - w)
    out[i, 3] = reflect(u, go.normalize(w)) + UP
    sq, ls = spread(-u)
    out[i, 4] = go.vec3(sq.x, sq[1], ls)
    r[i, 0] = go.dot(u, w)
    r[i, 1] = go.length(u)
    r[i, 2] = u.x * w.z - u[2]
    r[i, 3] = f32(u == w) + f32(u != w) * 2


def test_vector_arithmetic_and_functions(device: str) -> None:
    n = 32
    a, b = RNG.normal(size=(n, 3)).astype(np.float32), RNG.normal(size=(n, 3)).astype(np.float32)
    a[0] = b[0]  # one equal pair
    b[1] = a[1]
    s = RNG.normal(size=n).astype(np.float32)
    out, r = agree(vector_ops, n, a, b, s, np.zeros((n, 5, 3), np.float32),
                   np.zeros((n, 4), np.float32))[3:]  # fmt: skip
    f = np.float32
    np.testing.assert_array_equal(out[:, 0], (f(0) + (a * s[:, None] + f(1))) - b / f(2))
    cross = np.cross(a, b)
    np.testing.assert_allclose(out[:, 1], cross, rtol=1e-6, atol=1e-6)
    d = a - b
    norm = np.sqrt((d * d).sum(1, dtype=np.float32))[:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        want = np.where(norm > 0, d / np.where(norm > 0, norm, 1), 0)
    np.testing.assert_allclose(out[:, 2], want, rtol=1e-6, atol=1e-6)
    nb = b / np.linalg.norm(b, axis=1, keepdims=True)
    refl = a - nb * (2 * (a * nb).sum(1, keepdims=True)) + np.array([0, 1, 0], np.float32)
    np.testing.assert_allclose(out[:, 3], refl, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(out[:, 4, :2], (a * a)[:, :2])
    np.testing.assert_allclose(out[:, 4, 2], (a * a).sum(1), rtol=1e-6)
    np.testing.assert_allclose(r[:, 0], (a * b).sum(1), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(r[:, 1], np.linalg.norm(a, axis=1), rtol=1e-6)
    np.testing.assert_array_equal(r[:, 2], a[:, 0] * b[:, 2] - a[:, 2])
    np.testing.assert_array_equal(r[:, 3], np.where((a == b).all(1), 1, 2))


@go.kernel
def promote_and_store(x: Borrow[Array[f64]], k: Borrow[Array[i32]],
                      out: BorrowMut[Array[f64]], q: BorrowMut[Array[i32]]) -> None:  # fmt: skip
    i = go.global_id(0)
    v = go.vec4.load(x, i)  # f64 elements converted to the vector's f32
    out[i] = v * x[i, 0]  # f32 components times an f64: f64 components
    q[i] = go.vec3i.load(k, i) * 3 + 1


def test_promotion_loads_and_stores(device: str) -> None:
    n = 8
    x = RNG.normal(size=(n, 4))
    k = RNG.integers(-9, 9, (n, 3)).astype(np.int32)
    out, q = agree(promote_and_store, n, x, k, np.zeros((n, 4)), np.zeros((n, 3), np.int32))[2:]
    np.testing.assert_array_equal(out, x.astype(np.float32).astype(np.float64) * x[:, :1])
    np.testing.assert_array_equal(q, k * 3 + 1)


@go.kernel
def scatter(idx: Borrow[Array[i32]], f: Borrow[Array[f32]], acc: BorrowMut[Array[f32]],
            mine: BorrowMut[Array[f32]], old: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    e = go.global_id(0)
    force = go.vec3.load(f, e)
    go.atomic_sub(acc, idx[e], force)
    old[e] = go.atomic_add(mine, e, force)  # the old values, as a vector


def test_atomics_on_a_row(device: str) -> None:
    n = 64
    idx = RNG.integers(0, 6, n).astype(np.int32)
    f = RNG.integers(-4, 4, (n, 3)).astype(np.float32)  # integers: any order sums exactly
    mine = RNG.integers(-4, 4, (n, 3)).astype(np.float32)
    acc, after, old = agree(scatter, n, idx, f, np.zeros((8, 3), np.float32), mine,
                            np.zeros((n, 3), np.float32))[2:]  # fmt: skip
    want = np.zeros((8, 3), np.float32)
    np.subtract.at(want, idx, f)
    np.testing.assert_array_equal(acc, want)
    np.testing.assert_array_equal(old, mine)
    np.testing.assert_array_equal(after, mine + f)


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not on the PATH")
@pytest.mark.parametrize("sm", [80, 90])
def test_vector_kernels_assemble_to_ptx(sm: int, tmp_path: Path) -> None:
    from gpuoff.frontend import lower_kernel

    n = 4
    v3 = np.zeros((n, 3), np.float32)
    cases: list[tuple[Any, tuple[Any, ...]]] = [
        (vector_ops, (v3, v3, np.zeros(n, np.float32), np.zeros((n, 5, 3), np.float32),
                      np.zeros((n, 4), np.float32))),
        (scatter, (np.zeros(n, np.int32), v3, v3, v3, v3)),
    ]  # fmt: skip
    for kernel, args in cases:
        module = lower_kernel(kernel.pyfunc, arg_types(kernel, args))
        info = assemble(compile_ptx(module, sm=sm).ptx, sm, tmp_path)
        assert "0 bytes stack frame" in info, info  # vectors stay in registers


def test_host_vectors() -> None:
    v = go.vec3(1.0, 2.0, 3.0)
    assert (v.x, v.y, v.z, v[2], len(v)) == (1.0, 2.0, 3.0, 3.0, 3)
    assert go.vec3(2.0) == go.vec3(2.0, 2.0, 2.0)
    assert go.vec(3, go.f32) is go.vec3 and go.vec(4, np.float64) is go.vec4d
    with pytest.raises(TypeError, match="takes 3 components"):
        go.vec3(1.0, 2.0)
    _ = vec4
