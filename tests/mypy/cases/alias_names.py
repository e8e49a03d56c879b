# fmt: off
"""gpuoff-alias through names: one buffer reaching a launch under two names."""
# ruff: noqa: E501
from __future__ import annotations

import gpuoff as go
from gpuoff import f32
from gpuoff.runtime.buffer import Buffer
from tests.mypy.cases.kernels_lib import add, merge, scale, swap


class Model:
    def __init__(self) -> None:
        self.state = go.zeros(4, go.f32)
        self.grad = go.zeros(4, go.f32)
        self.inner = Inner()


class Inner:
    def __init__(self) -> None:
        self.buf = go.zeros(4, go.f32)


def same_name(a: Buffer[f32]) -> None:
    scale[4](2.0, a, a)  # E: 'a' is passed to scale as 'x' (Borrow) and as 'y' (BorrowMut): a BorrowMut argument must not alias any other argument; pass a copy (a.copy()) or declare 'y' Borrow if scale only reads it  [gpuoff-alias]


def another_name(a: Buffer[f32]) -> None:
    b = a
    scale[4](2.0, a, b)  # E: 'a' and 'b' are the same buffer, passed to scale as 'x' (Borrow) and as 'y' (BorrowMut): a BorrowMut argument must not alias any other argument; pass a copy (a.copy()) or declare 'y' Borrow if scale only reads it  [gpuoff-alias]


def chain(a: Buffer[f32]) -> None:
    b = a
    c = b
    d = c
    swap[4](d, a)  # E: 'd' and 'a' are the same buffer, passed to swap as 'x' (BorrowMut) and as 'y' (BorrowMut)... [gpuoff-alias]


def tuple_unpacking(a: Buffer[f32]) -> None:
    x, y = a, a
    swap[4](x, y)  # E: 'x' and 'y' are the same buffer, ... [gpuoff-alias]


def tuple_swap_keeps_them_apart(a: Buffer[f32], b: Buffer[f32]) -> None:
    a, b = b, a
    swap[4](a, b)
    scale[4](1.0, b, a)


def attribute_alias(m: Model) -> None:
    inner = m.state
    scale[4](2.0, inner, m.state)  # E: 'inner' and 'm.state' are the same buffer, ... [gpuoff-alias]


def nested_attribute_alias(m: Model) -> None:
    i = m.inner
    scale[4](1.0, i.buf, m.inner.buf)  # E: 'i.buf' and 'm.inner.buf' are the same buffer, ... [gpuoff-alias]


def different_attributes(m: Model) -> None:
    scale[4](1.0, m.grad, m.state)
    add[4](m.state, m.state, m.grad)


def self_alias_in_method(m: Model) -> None:
    m.grad = m.state
    scale[4](1.0, m.grad, m.state)  # E: 'm.grad' and 'm.state' are the same buffer, ... [gpuoff-alias]


def branch_may_alias(a: Buffer[f32], b: Buffer[f32], c: bool) -> None:
    if c:
        t = a
    else:
        t = b
    scale[4](1.0, t, a)  # E: 't' and 'a' may be the same buffer, ... [gpuoff-alias]


def branch_no_alias(a: Buffer[f32], b: Buffer[f32], z: Buffer[f32], c: bool) -> None:
    t = a if c else b
    scale[4](1.0, t, z)


def conditional_expression(a: Buffer[f32], b: Buffer[f32], c: bool) -> None:
    scale[4](1.0, a if c else b, b)  # E: 'a if c else b' and 'b' may be the same buffer, ... [gpuoff-alias]


def rebinding_ends_the_alias(a: Buffer[f32]) -> None:
    b = a
    b = go.zeros(4, go.f32)
    scale[4](1.0, a, b)


def alias_in_a_loop(a: Buffer[f32], n: int) -> None:
    b = go.zeros(4, go.f32)
    for _ in range(n):
        scale[4](1.0, a, b)  # E: 'a' and 'b' may be the same buffer, ... [gpuoff-alias]
        b = a


def walrus(a: Buffer[f32]) -> None:
    scale[4](1.0, (b := a), b)  # E: 'b' is passed to scale as 'x' (Borrow) and as 'y' (BorrowMut)... [gpuoff-alias]


def keyword_arguments(a: Buffer[f32]) -> None:
    b = a
    scale[4](2.0, y=b, x=a)  # E: 'a' and 'b' are the same buffer, passed to scale as 'x' (Borrow) and as 'y' (BorrowMut)... [gpuoff-alias]


def owned_and_borrow(a: Buffer[f32]) -> None:
    b = a
    merge[4](a, b)  # E: 'a' and 'b' are the same buffer, passed to merge as 'x' (Owned) and as 'y' (Borrow): an Owned argument must not alias any other argument; pass a copy (b.copy()) or declare 'x' Borrow if merge only reads it  [gpuoff-alias]


def shared_borrows_are_fine(a: Buffer[f32], out: Buffer[f32]) -> None:
    b = a
    add[4](a, b, out)


def module_level_alias() -> None:
    scale[4](1.0, GLOBAL, GLOBAL_TOO)  # E: 'GLOBAL' and 'GLOBAL_TOO' are the same buffer, ... [gpuoff-alias]


GLOBAL = go.zeros(4, go.f32)
GLOBAL_TOO = GLOBAL
top = go.zeros(4, go.f32)
top_alias = top
swap[4](top, top_alias)  # E: 'top' and 'top_alias' are the same buffer, ... [gpuoff-alias]


def distinct_parameters(a: Buffer[f32], b: Buffer[f32]) -> None:
    swap[4](a, b)  # two parameters are taken to be two buffers (the runtime checks callers)


def augmented_assignment_is_not_an_alias(a: Buffer[f32], n: int) -> None:
    k = 0
    k += n
    scale[4](float(k), a, go.zeros(4, go.f32))


def ignored(a: Buffer[f32]) -> None:
    b = a
    scale[4](1.0, a, b)  # type: ignore[gpuoff-alias]
