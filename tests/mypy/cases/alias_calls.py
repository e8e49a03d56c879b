# fmt: off
"""gpuoff-alias through calls: host functions, bound launches, partial application."""
# ruff: noqa: E501
from __future__ import annotations

import functools

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Owned, f32
from gpuoff.runtime.buffer import Buffer
from tests.mypy.cases.kernels_lib import scale, swap


def axpy_host(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    scale[4](1.0, x, y)


def give(x: Owned[Array[f32]], y: Borrow[Array[f32]]) -> None: ...


def annotated_host_function(a: Buffer[f32]) -> None:
    axpy_host(a, a)  # E: 'a' is passed to axpy_host as 'x' (Borrow) and as 'y' (BorrowMut): a BorrowMut argument must not alias any other argument; pass a copy (a.copy()) or declare 'y' Borrow if axpy_host only reads it  [gpuoff-alias]
    b = a
    give(b, a)  # E: 'b' and 'a' are the same buffer, passed to give as 'x' (Owned) and as 'y' (Borrow): ... [gpuoff-alias]


def step(src: Buffer[f32], dst: Buffer[f32]) -> None:
    """Plain ``Buffer`` parameters, but the body writes ``dst`` while reading ``src``."""
    scale[4](0.5, src, dst)


def reads_both(p: Buffer[f32], q: Buffer[f32], out: Buffer[f32]) -> None:
    scale[4](1.0, p, out)
    scale[4](1.0, q, out)


def body_launches_with_its_parameters(a: Buffer[f32], b: Buffer[f32]) -> None:
    step(a, a)  # E: 'a' is passed to step as 'src' and as 'dst', which step passes to scale as 'x' (Borrow) and as 'y' (BorrowMut) at line 29: ... [gpuoff-alias]
    step(a, b)
    reads_both(a, a, b)
    reads_both(a, b, b)  # E: 'b' is passed to reads_both as 'q' and as 'out', which reads_both passes to scale as 'x' (Borrow) and as 'y' (BorrowMut) at line 34: ... [gpuoff-alias]


class Trainer:
    def __init__(self) -> None:
        self.w = go.zeros(4, go.f32)

    def update(self, w: Buffer[f32], g: Buffer[f32]) -> None:
        swap[4](w, g)

    def run(self) -> None:
        self.update(self.w, self.w)  # E: 'self.w' is passed to self.update as 'w' and as 'g', which self.update passes to swap as 'x' (BorrowMut) and as 'y' (BorrowMut) at line 49: ... [gpuoff-alias]


def bound_launch(a: Buffer[f32]) -> None:
    f = scale[4]
    f(1.0, a, a)  # E: 'a' is passed to scale as 'x' (Borrow) and as 'y' (BorrowMut): ... [gpuoff-alias]


def launch_from_a_dict(a: Buffer[f32]) -> None:
    launches = {"scale": scale[4]}
    launches["scale"](1.0, a, a)  # E: 'a' is passed to scale as 'x' (Borrow) and as 'y' (BorrowMut): ... [gpuoff-alias]


def partial_launch(a: Buffer[f32], b: Buffer[f32]) -> None:
    functools.partial(scale[4], go.f32(1.0), a)(a)  # E: 'a' is passed to scale as 'x' (Borrow) and as 'y' (BorrowMut): ... [gpuoff-alias]
    p = functools.partial(scale[4], go.f32(1.0), a)
    p(b)
    p(a)  # E: 'a' is passed to scale as 'x' (Borrow) and as 'y' (BorrowMut): ... [gpuoff-alias]
    q = functools.partial(scale[4], y=a)
    q(go.f32(1.0), a)  # E: 'a' is passed to scale as 'x' (Borrow) and as 'y' (BorrowMut): ... [gpuoff-alias]


def fine_calls(a: Buffer[f32], b: Buffer[f32]) -> None:
    axpy_host(a, b)
    step(b, a)
    f = scale[4]
    f(1.0, a, b)


def starred_arguments(x: Buffer[f32], y: Buffer[f32]) -> None:
    args = (2.0, x, y)
    scale[4](*args)  # one expression for several parameters: the runtime checks it
    kw = {"x": x, "y": y}
    scale[4](2.0, **kw)


@go.func
def axpy_dev(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = a * x[0] + y[0]


@go.kernel
def calls_device(x: BorrowMut[Array[f32]], z: BorrowMut[Array[f32]]) -> None:
    axpy_dev(2.0, z, x)
    axpy_dev(2.0, x, x)  # E: 'x' is passed to axpy_dev as 'x' (Borrow) and as 'y' (BorrowMut): a BorrowMut argument must not alias any other argument; pass distinct arrays or declare 'y' Borrow if axpy_dev only reads it  [gpuoff-alias]
