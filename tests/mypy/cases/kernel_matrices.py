"""Small matrices in kernels: what the front end accepts, the plugin accepts (clean), and the
misuse both refuse is reported here too."""
# ruff: noqa: E501

from __future__ import annotations

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, mat33, vec3

TILT = go.mat33(1.0, 0.0, 0.0, 0.0, 0.8, -0.6, 0.0, 0.6, 0.8)
M23 = go.mat(2, 3, go.f32)


@go.func
def apply(m: mat33, v: vec3) -> vec3:
    return m @ v + v @ go.transpose(m)


@go.func
def strain(f: mat33) -> mat33:
    return (go.transpose(f) @ f - go.identity(3, go.f32)) * 0.5


@go.kernel
def deform(x: Borrow[Array[f32]], fs: Borrow[Array[f32]], e: BorrowMut[Array[f32]],
           out: BorrowMut[Array[f32]], det: BorrowMut[Array[f32]],
           acc: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    i = go.global_id(0)
    f = go.mat33.load(fs, i) @ TILT
    v = go.vec3.load(x, i)
    e[i] = strain(f) + go.outer(v, v) - go.diag(v) / 2.0
    e[i] += go.inverse(f)
    out[i] = apply(f, v) + go.mul(f, v) + f[0] * f[1, 2]
    det[i] = go.determinant(f) + go.trace(f) + v @ v
    p = M23.load(fs, i)
    go.atomic_add(acc, 0, go.matrix_from_rows(f[0], f[1], f[2]))
    det[i] += (p @ v).x


@go.kernel
def misuse(fs: Borrow[Array[f32]]) -> None:
    fs[0] = go.identity(3, go.f32)  # E: cannot write to 'fs': it is a shared Borrow (declare it BorrowMut to write)  [gpuoff-borrow-write]
