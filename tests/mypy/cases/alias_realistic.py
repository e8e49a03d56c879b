# fmt: off
"""gpuoff-alias as users make it: in-place filters, forgotten swaps, halos, parameter dicts.

The patterns follow the Jacobi and halo-exchange loops of PyOpenCL's and Warp's examples,
with the mistakes a first port from NumPy makes (where ``a = f(a)`` is fine).
"""
# ruff: noqa: E501
from __future__ import annotations

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32
from gpuoff.runtime.buffer import Buffer


@go.kernel
def jacobi(src: Borrow[Array[f32]], dst: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if 0 < i < src.shape[0] - 1:
        dst[i] = 0.5 * (src[i - 1] + src[i + 1])


@go.kernel
def axpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


def in_place_filter(field: Buffer[f32]) -> None:
    jacobi[field.shape[0]](field, field)  # E: 'field' is passed to jacobi as 'src' (Borrow) and as 'dst' (BorrowMut): ... [gpuoff-alias]


def forgotten_swap(a: Buffer[f32], steps: int) -> Buffer[f32]:
    b = go.zeros(a.shape[0], go.f32)
    for _ in range(steps):
        jacobi[a.shape[0]](a, b)  # E: 'a' and 'b' may be the same buffer, passed to jacobi ... [gpuoff-alias]
        a = b  # meant a, b = b, a: from the second step on, a and b are one buffer
    return a


def forgotten_swap_reported(a: Buffer[f32], steps: int) -> Buffer[f32]:
    b = go.zeros(a.shape[0], go.f32)
    for _ in range(steps):
        jacobi[a.shape[0]](a, b)  # E: 'a' and 'b' may be the same buffer, passed to jacobi as 'src' (Borrow) and as 'dst' (BorrowMut): ... [gpuoff-alias]
        b = a
    return b


def numpy_habit(x: Buffer[f32]) -> None:
    y = x  # meant as a copy, as y = x.copy()
    axpy[x.shape[0]](2.0, x, y)  # E: 'x' and 'y' are the same buffer, passed to axpy as 'x' (Borrow) and as 'y' (BorrowMut): a BorrowMut argument must not alias any other argument; pass a copy (x.copy()) or declare 'y' Borrow if axpy only reads it  [gpuoff-alias]
    z = x.copy()
    axpy[x.shape[0]](2.0, z, x)


def halo_exchange(grid: Buffer[f32], n: int) -> None:
    interior = grid[1 : n + 1]
    left_halo = grid[0:2]
    right_halo = grid[n + 1 :]
    jacobi[n](left_halo, interior)  # E: 'left_halo' and 'interior' may overlap (views of 'grid'), ... [gpuoff-alias]
    jacobi[n](interior, right_halo)


class Solver:
    def __init__(self, n: int) -> None:
        self.u = go.zeros(n, go.f32)
        self.v = go.zeros(n, go.f32)
        self.rhs = go.zeros(n, go.f32)
        self.n = n

    def step(self) -> None:
        jacobi[self.n](self.u, self.v)
        self.u, self.v = self.v, self.u

    def broken_step(self) -> None:
        scratch = self.u
        jacobi[self.n](self.u, scratch)  # E: 'self.u' and 'scratch' are the same buffer, ... [gpuoff-alias]

    def residual(self) -> None:
        axpy[self.n](-1.0, self.rhs, self.rhs)  # E: 'self.rhs' is passed to axpy as 'x' (Borrow) and as 'y' (BorrowMut): ... [gpuoff-alias]


def parameters(params: dict[str, Buffer[f32]], grads: dict[str, Buffer[f32]]) -> None:
    for name in ("w", "b"):
        axpy[4](-0.1, grads[name], params[name])
    axpy[4](-0.1, params["w"], params["w"])  # E: 'params["w"]' is passed to axpy ... [gpuoff-alias]


def optimiser_state(w: Buffer[f32]) -> None:
    state = {"momentum": w, "weights": w}  # the same buffer under two keys
    axpy[4](0.9, state["momentum"], state["weights"])  # E: 'state["momentum"]' and 'state["weights"]' are the same buffer, ... [gpuoff-alias]


def chunked(buf: Buffer[f32], chunk: int) -> None:
    for start in range(0, buf.shape[0] - chunk, chunk):
        axpy[chunk](1.0, buf[start : start + chunk], buf[start + chunk : start + 2 * chunk])
        axpy[chunk](1.0, buf[start : start + chunk + 1], buf[start + chunk : start + 2 * chunk])  # E: 'buf[start : start + chunk + 1]' and 'buf[start + chunk : start + 2 * chunk]' may overlap (views of 'buf'), ... [gpuoff-alias]


def reversed_view(buf: Buffer[f32]) -> None:
    axpy[4](1.0, buf[::-1], buf)  # E: 'buf[::-1]' and 'buf' may overlap (views of 'buf'), ... [gpuoff-alias]
