# fmt: off
"""Generic kernels: ``go.DTypeVar`` is a type variable over the dtypes (the body is checked per
dtype), ``go.Const[X]`` is ``X``; the ownership checks see through both."""
# ruff: noqa: E501
from __future__ import annotations

from typing import TypeVar

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Const, DeviceFunction

T = go.DTypeVar("T")
F = go.DTypeVar("F", go.f32, go.f64)


@go.func
def add(a: T, b: T) -> T:
    return a + b


@go.kernel
def fold(x: Borrow[Array[F]], y: BorrowMut[Array[F]], n: Const[int],
         op: Const[DeviceFunction[[F, F], F]]) -> None:
    i = go.global_id(0)
    tile = go.shared(n, type(x[0]))
    tile[0] = type(x[0])(1)
    y[i] = op(x[i], tile[0]) + add(x[i], x[i])


@go.kernel
def writes_a_borrow(x: Borrow[Array[T]]) -> None:
    x[0] = x[1]  # E: cannot write ... [gpuoff-borrow-write]


@go.kernel
def value_use(x: BorrowMut[Array[F]]) -> None:
    x[0] = F(0)  # E: "F" is a type variable and only valid in type context  [misc]


@go.func
def halve(a: F) -> F:
    return a / 2


@go.func
def truncates(a: F) -> F:
    return int(a)  # E: Incompatible return value type (got "int", expected "f32")  [return-value]  # E: Incompatible return value type (got "int", expected "f64")  [return-value]


P = TypeVar("P", go.f32, go.f64)  # a plain TypeVar over gpuoff dtypes: the same checks


@go.kernel
def plain_typevar(x: Borrow[Array[P]], y: BorrowMut[Array[P]]) -> None:
    i = go.global_id(0)
    y[i] = x[i] * type(x[0])(2) + 1


def host(b: go.Buffer[go.f32], c: go.Buffer[go.f32]) -> None:
    fold[4](b, c, 4, add)
    fold[4](b, b, 4, add)  # E: ... [gpuoff-alias]
    fold[4](b, c, 4.5, add)  # E: Argument 3 to "fold" has incompatible type "float"; expected "int"  [arg-type]
