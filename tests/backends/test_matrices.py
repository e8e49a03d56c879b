"""Small matrices (issue 15, item 2): ``go.mat22``/``mat33``/``mat44`` (f32; ``d`` f64) and
``go.mat(rows, cols, dtype)`` built from numbers, row vectors, ``go.identity``, ``go.diag``,
``go.outer`` and ``go.matrix_from_rows``/``cols``; element-wise ``+ -``, ``*``/``/`` by a
number, ``@`` (and ``go.mul``) between matrices and vectors, ``go.transpose``,
``go.determinant``, ``go.inverse``, ``go.trace``; ``m[i, j]`` and ``m[i]``; loads and stores
from the last two axes of an (N, r, c) array, ``a[i] += m``, atomics on a matrix, matrix locals
(``m @= n``), device-function parameters and results, a captured host matrix; on cpu and
opencl:0 against the interpreter (bit for bit) and NumPy; and in PTX (ptxas sm_80/sm_90)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from codegen.nvptx import compile_ptx
from gpuoff import Array, Borrow, BorrowMut, f32, f64, mat22d, mat33, vec3
from tests.backends.agree import agree, arg_types
from tests.backends.conftest import available_devices
from tests.backends.test_ptx import assemble

NDArray = np.ndarray[Any, Any]
RNG = np.random.default_rng(12)
SHEAR = go.mat33(1.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
M23 = go.mat(2, 3, go.f32)


# cpu and the first OpenCL device: the lowering is the front end's, PoCL adds nothing to it
@pytest.fixture(params=[d for d in available_devices() if d in ("cpu", "opencl:0")])
def device(request: pytest.FixtureRequest) -> Iterator[str]:
    name: str = request.param
    with go.on(name):
        yield name
        go.synchronize()


@go.func
def rotate(m: mat33, v: vec3) -> vec3:
    return m @ v


@go.func
def sandwich(r: mat33, s: mat33) -> mat33:
    """R S R^T, a change of basis."""
    return r @ s @ go.transpose(r)


@go.func
def pieces(m: mat33):  # type: ignore[no-untyped-def]
    """An inferred result: a matrix and a number."""
    return -m / 2.0, go.trace(m)


@go.kernel
def matrix_ops(a: Borrow[Array[f32]], b: Borrow[Array[f32]], v: Borrow[Array[f32]],
               out: BorrowMut[Array[f32]], r: BorrowMut[Array[f32]],
               s: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    i = go.global_id(0)
    m = go.mat33.load(a, i)
    n = go.mat33.load(b, i)
    x = go.vec3.load(v, i)
    out[i, 0] = m + n * 2.0 - 0.5 * go.identity(3, go.f32)
    out[i, 1] = go.transpose(m) @ n
    out[i, 2] = go.inverse(m)
    out[i, 3] = sandwich(m, n) + SHEAR
    half, tr = pieces(m)
    out[i, 4] = half
    acc: mat33 = go.mat33(x, x * 2.0, go.vec3(1.0, 2.0, 3.0))
    acc @= n
    acc -= go.outer(x, go.vec3.load(v, i))
    out[i, 5] = acc
    out[i, 6] = go.matrix_from_cols(m[0], m[1], x) + go.diag(x)
    out[i, 7] = go.mul(m, n) - go.mul(2.0, m)
    r[i, 0] = rotate(m, x)
    r[i, 1] = x @ m
    r[i, 2] = m[1] + go.mul(n, x)
    s[i, 0] = go.determinant(m)
    s[i, 1] = tr + m[2, 1] + x @ x
    t = f32(0.0)
    for j in range(3):  # an unrolled loop variable is a constant index
        t += m[j, j] * n[j][2 - j]
    s[i, 2] = t
    s[i, 3] = f32(m == m) + f32(m != n) * 2


def test_matrix_arithmetic_and_functions(device: str) -> None:
    k = 16
    a, b = (RNG.normal(size=(k, 3, 3)).astype(np.float32) for _ in range(2))
    v = RNG.normal(size=(k, 3)).astype(np.float32)
    out, r, s = agree(matrix_ops, k, a, b, v, np.zeros((k, 8, 3, 3), np.float32),
                      np.zeros((k, 3, 3), np.float32), np.zeros((k, 4), np.float32))[3:]
    close: dict[str, Any] = {"rtol": 1e-5, "atol": 1e-5}
    np.testing.assert_array_equal(out[:, 0], a + b * np.float32(2) - np.float32(0.5) * np.eye(3,
                                  dtype=np.float32))  # fmt: skip
    np.testing.assert_allclose(out[:, 1], a.transpose(0, 2, 1) @ b, **close)
    np.testing.assert_allclose(out[:, 2], np.linalg.inv(a), rtol=1e-4, atol=1e-3)
    shear = np.array([[1, 0.5, 0], [0, 1, 0], [0, 0, 1]], np.float32)
    np.testing.assert_allclose(out[:, 3], a @ b @ a.transpose(0, 2, 1) + shear, **close)
    np.testing.assert_array_equal(out[:, 4], -a / np.float32(2))
    rows = np.stack([v, v * 2, np.broadcast_to(np.array([1, 2, 3], np.float32), v.shape)], axis=1)
    want = rows @ b - v[:, :, None] * v[:, None, :]
    np.testing.assert_allclose(out[:, 5], want, **close)
    cols = np.stack([a[:, 0], a[:, 1], v], axis=2)
    np.testing.assert_array_equal(out[:, 6], cols + v[:, :, None] * np.eye(3, dtype=np.float32))
    np.testing.assert_allclose(out[:, 7], a @ b - 2 * a, **close)
    np.testing.assert_allclose(r[:, 0], (a @ v[:, :, None])[:, :, 0], **close)
    np.testing.assert_allclose(r[:, 1], (v[:, None, :] @ a)[:, 0], **close)
    np.testing.assert_allclose(r[:, 2], a[:, 1] + (b @ v[:, :, None])[:, :, 0], **close)
    np.testing.assert_allclose(s[:, 0], np.linalg.det(a), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(s[:, 1], np.trace(a, axis1=1, axis2=2) + a[:, 2, 1]
                               + (v * v).sum(1), **close)  # fmt: skip
    diag = sum(a[:, j, j] * b[:, j, 2 - j] for j in range(3))
    np.testing.assert_allclose(s[:, 2], diag, **close)
    np.testing.assert_array_equal(s[:, 3], np.full(k, 3, np.float32))


@go.kernel
def shapes_and_f64(x: Borrow[Array[f64]], q: Borrow[Array[f32]], w: Borrow[Array[f32]],
                   out2: BorrowMut[Array[f64]], out4: BorrowMut[Array[f64]],
                   det: BorrowMut[Array[f64]], y: BorrowMut[Array[f32]],
                   acc: BorrowMut[Array[f32]], upd: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    i = go.global_id(0)
    m2 = mat22d(x[i, 0, 0], x[i, 0, 1], x[i, 1, 0], x[i, 1, 1])
    out2[i] = go.inverse(m2) * go.determinant(m2)  # the adjugate
    m4 = go.mat44d.load(x, i)
    out4[i] = go.inverse(m4)
    det[i, 0] = go.determinant(m4)
    det[i, 1] = go.determinant(go.mat33.load(q, i) * x[i, 3, 3])  # f32 * f64: f64 elements
    p = M23.load(w, i)  # a 2x3 of an (N, 2, 3) array
    y[i] = p @ go.vec3(1.0, 2.0, 3.0)  # a vector of 2
    go.atomic_add(acc, 0, go.transpose(p))  # 3x2, one atomic per element
    upd[i] += go.transpose(p) * 2.0


def test_other_shapes_f64_promotion_and_atomics(device: str) -> None:
    k = 12
    x = RNG.normal(size=(k, 4, 4))
    q = RNG.normal(size=(k, 3, 3)).astype(np.float32)
    w = RNG.integers(-4, 4, (k, 2, 3)).astype(np.float32)  # integers: any order sums exactly
    upd = RNG.integers(-4, 4, (k, 3, 2)).astype(np.float32)
    out2, out4, det, y, acc, after = agree(
        shapes_and_f64, k, x, q, w, np.zeros((k, 2, 2)), np.zeros((k, 4, 4)), np.zeros((k, 2)),
        np.zeros((k, 2), np.float32), np.zeros((1, 3, 2), np.float32), upd)[3:]  # fmt: skip
    m2 = x[:, :2, :2]
    adj = np.stack([np.stack([m2[:, 1, 1], -m2[:, 0, 1]], 1),
                    np.stack([-m2[:, 1, 0], m2[:, 0, 0]], 1)], 1)  # fmt: skip
    np.testing.assert_allclose(out2, adj, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(out4, np.linalg.inv(x), rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(det[:, 0], np.linalg.det(x), rtol=1e-12, atol=1e-12)
    scaled = q.astype(np.float64) * x[:, 3, 3][:, None, None]
    np.testing.assert_allclose(det[:, 1], np.linalg.det(scaled), rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(y, w @ np.array([1, 2, 3], np.float32))
    wt = w.transpose(0, 2, 1)
    np.testing.assert_array_equal(acc[0], wt.sum(0))
    np.testing.assert_array_equal(after, upd + wt * 2)


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not on the PATH")
@pytest.mark.parametrize("sm", [80, 90])
def test_matrix_kernels_assemble_to_ptx(sm: int, tmp_path: Path) -> None:
    from gpuoff.frontend import lower_kernel

    k = 4
    m3 = np.zeros((k, 3, 3), np.float32)
    module = lower_kernel(matrix_ops.pyfunc, arg_types(matrix_ops, (
        m3, m3, np.zeros((k, 3), np.float32), np.zeros((k, 8, 3, 3), np.float32), m3,
        np.zeros((k, 4), np.float32))))  # fmt: skip
    info = assemble(compile_ptx(module, sm=sm).ptx, sm, tmp_path)
    assert "0 bytes stack frame" in info, info  # matrices stay in registers


def test_host_matrices() -> None:
    m = go.mat33(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0)
    assert (m[1, 2], len(m), m[2]) == (6.0, 3, go.vec3(7.0, 8.0, 9.0))
    assert go.mat22(2.0) == go.mat22(2.0, 2.0, 2.0, 2.0)
    assert go.mat22() == go.mat22(0.0)
    assert go.mat22(go.vec2(1.0, 2.0), go.vec2(3.0, 4.0)) == go.mat22(1.0, 2.0, 3.0, 4.0)
    assert go.identity(2, go.f64) == go.mat22d(1.0, 0.0, 0.0, 1.0)
    assert go.mat(3, 3, np.float32) is go.mat33 and go.mat(2, 3, go.f64).cols == 3
    assert go.mat33f is go.mat33
    with pytest.raises(TypeError, match="takes 9 numbers"):
        go.mat33(1.0, 2.0)
    with pytest.raises(TypeError, match="no matrix type of 5x5"):
        go.mat(5, 5, go.f32)
    with pytest.raises(RuntimeError, match="inside a kernel"):
        go.inverse(m)
