"""Generic kernels shared by the unit and backend tests of ``go.DTypeVar`` / ``go.Const``
(one source, specialised per dtype, per block size and per device function)."""

from __future__ import annotations

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Const, DeviceFunction

T = go.DTypeVar("T")
F = go.DTypeVar("F", go.f32, go.f64)


@go.func
def add(a: T, b: T) -> T:
    return a + b


@go.func
def bigger(a: T, b: T) -> T:
    return a if a > b else b


@go.kernel
def block_sum(x: Borrow[Array[T]], out: BorrowMut[Array[T]], block: Const[int]) -> None:
    """``out[g] = sum(x[g * block : (g + 1) * block])``: a tree in a shared tile of ``block``
    items. Launch with block ``(block,)``."""
    tile = go.shared(block, type(x[0]))  # (type checkers: a type variable is no value)
    lid = go.local_id(0)
    i = go.global_id(0)
    v = type(x[0])(0)
    if i < x.shape[0]:
        v = x[i]
    tile[lid] = v
    go.barrier()
    s = block // 2
    while s > 0:
        if lid < s:
            tile[lid] = add(tile[lid], tile[lid + s])
        go.barrier()
        s //= 2
    if lid == 0:
        out[go.group_id(0)] = tile[0]


@go.kernel
def fold(
    x: Borrow[Array[T]], out: BorrowMut[Array[T]], init: T, op: Const[DeviceFunction[[T, T], T]]
) -> None:
    """``out[0] = op(...op(op(init, x[0]), x[1])..., x[n-1])`` by one work-item."""
    if go.global_id(0) == 0:
        acc = init
        for k in range(x.shape[0]):
            acc = op(acc, x[k])
        out[0] = acc


@go.kernel
def scaled(x: Borrow[Array[F]], y: BorrowMut[Array[F]], a: F, taps: Const[int],
           flip: Const[bool]) -> None:  # fmt: skip
    """``y[i] = a * taps * x[i]`` (negated when ``flip``), the sum unrolled ``taps`` times
    into a private array."""
    i = go.global_id(0)
    if i < x.shape[0]:
        acc = go.local_array(taps, type(a))
        for k in range(taps):
            acc[k] = a * x[i]
        t = type(a)(0)
        for k in range(taps):
            t += acc[k]
        y[i] = -t if flip else t


@go.func
def tree(tile: BorrowMut[Array[T]], lid: go.i64, n: Const[int],
         op: Const[DeviceFunction[[T, T], T]]) -> T:  # fmt: skip
    """``op`` over the ``n`` items of a shared tile (a tree; every work-item of the group
    calls it): a device function taking a compile-time size and a device function."""
    s = n // 2
    while s > 0:
        if lid < s:
            tile[lid] = op(tile[lid], tile[lid + s])
        go.barrier()
        s //= 2
    return tile[0]


@go.kernel
def group_reduce(x: Borrow[Array[T]], out: BorrowMut[Array[T]], block: Const[int],
                 op: Const[DeviceFunction[[T, T], T]]) -> None:  # fmt: skip
    """``out[g] = op-reduction of group g's items``; launch with block ``(block,)`` over a
    multiple of it."""
    tile = go.shared(block, type(x[0]))
    lid = go.local_id(0)
    tile[lid] = x[go.global_id(0)]
    go.barrier()
    r = tree(tile, lid, block, op)
    if lid == 0:
        out[go.group_id(0)] = r
