"""Small vectors in kernels: what the front end accepts, the plugin accepts (clean), and the
misuse both refuse is reported here too."""
# ruff: noqa: E501

from __future__ import annotations

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32, vec3

UP = go.vec3(0.0, 1.0, 0.0)


@go.func
def shade(n: vec3, light: vec3) -> f32:
    return max(go.dot(n, go.normalize(light)), f32(0.0))


@go.kernel
def springs(x: Borrow[Array[f32]], pairs: Borrow[Array[i32]], f: BorrowMut[Array[f32]],
            out: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    s = go.global_id(0)
    i, j = pairs[s, 0], pairs[s, 1]
    d = go.vec3.load(x, i) - go.vec3.load(x, j)
    force = d * (go.length(d) - 1.0) + UP * 0.5
    go.atomic_sub(f, i, force)
    go.atomic_add(f, j, force)
    out[s] = go.cross(d, UP) / 2.0
    out[s, 0] = shade(go.normalize(d), UP) + d.x + d[2]


@go.kernel
def misuse(x: Borrow[Array[f32]]) -> None:
    x[0] = go.vec3(1.0)  # E: cannot write to 'x': it is a shared Borrow (declare it BorrowMut to write)  [gpuoff-borrow-write]
