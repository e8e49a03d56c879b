"""Kernels and device functions defined in another module than their launches."""

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Owned, f32


@go.kernel
def scale(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i]


@go.kernel(boundscheck=False)
def consume(x: Owned[Array[f32]], n: go.i32) -> None:
    x[0] = go.f32(n)


@go.kernel
def add(x: Borrow[Array[f32]], y: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    out[i] = x[i] + y[i]


@go.kernel
def swap(x: BorrowMut[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    t = x[i]
    x[i] = y[i]
    y[i] = t


@go.kernel
def merge(x: Owned[Array[f32]], y: Borrow[Array[f32]]) -> None:
    i = go.global_id(0)
    x[i] = x[i] + y[i]


@go.kernel
def take_two(x: Owned[Array[f32]], y: Owned[Array[f32]]) -> None:
    i = go.global_id(0)
    x[i] = y[i]


@go.func
def twice(v: f32) -> f32:
    return v * 2
