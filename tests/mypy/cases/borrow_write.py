# fmt: off
"""gpuoff-borrow-write: writes through a shared Borrow, directly, through aliases and calls."""
# ruff: noqa: E501
from __future__ import annotations

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Owned, f32


@go.func
def fill_one(y: BorrowMut[Array[f32]], i: int) -> None:
    y[i] = 1.0


@go.func
def take_over(y: Owned[Array[f32]]) -> None:
    y[0] = 0.0


@go.func
def read_one(y: Borrow[Array[f32]], i: int) -> f32:
    return y[i]


@go.kernel
def direct(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    x[i] = 1.0  # E: cannot write to 'x': it is a shared Borrow (declare it BorrowMut to write)  [gpuoff-borrow-write]
    x[i] += 1.0  # E: cannot write to 'x': it is a shared Borrow (declare it BorrowMut to write)  [gpuoff-borrow-write]
    x[i, 0] = y[i]  # E: cannot write to 'x': it is a shared Borrow (declare it BorrowMut to write)  [gpuoff-borrow-write]
    y[i] = x[i]


@go.kernel
def through_alias(x: Borrow[Array[f32]]) -> None:
    z = x  # E: array 'x' cannot be used as a scalar value (index it)  [gpuoff-unsupported]
    z[0] = 1.0  # E: cannot write to 'z': it is a shared Borrow (declare it BorrowMut to write)  [gpuoff-borrow-write]


@go.kernel
def through_device_functions(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    fill_one(x, 0)  # E: cannot pass 'x' (Borrow) to parameter 'y' of 'fill_one', which is declared BorrowMut  [gpuoff-borrow-write]
    fill_one(y, 0)
    take_over(x)  # E: cannot pass 'x' (Borrow) to parameter 'y' of 'take_over', which is declared Owned  [gpuoff-borrow-write]
    y[1] = read_one(x, 0) + read_one(y, 1)
    fill_one(i=1, y=x)  # E: cannot pass 'x' (Borrow) to parameter 'y' of 'fill_one', which is declared BorrowMut  [gpuoff-borrow-write]


@go.kernel
def atomics_on_borrow(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    go.atomic_add(x, 0, 1.0)  # E: cannot write to 'x': it is a shared Borrow (declare it BorrowMut to write)  [gpuoff-borrow-write]
    go.atomic_add(y, 0, 1.0)


@go.func
def helper_writes(x: Borrow[Array[f32]]) -> None:
    x[0] = 2.0  # E: cannot write to 'x': it is a shared Borrow (declare it BorrowMut to write)  [gpuoff-borrow-write]


def host_code(buf: go.Buffer[f32], view: Borrow[Array[f32]]) -> None:
    buf[0] = 1.0  # host writes to a Buffer are fine (a short host_mut section)
    view[0] = 1.0  # E: cannot write to 'view': it is a shared Borrow (declare it BorrowMut to write)  [gpuoff-borrow-write]


@go.kernel
def augmented(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    x[i] -= 1.0  # E: cannot write to 'x': it is a shared Borrow (declare it BorrowMut to write)  [gpuoff-borrow-write]
    x[i] *= 2.0  # E: cannot write to 'x': it is a shared Borrow (declare it BorrowMut to write)  [gpuoff-borrow-write]
    y[i] *= 2.0
    tile = go.shared(64, go.f32)
    tile[go.local_id(0)] = x[i]  # shared memory is the group's own: writable
    y[i] = tile[0]


@go.kernel
def more_atomics(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    go.atomic_max(x, 0, 1.0)  # E: cannot write to 'x': it is a shared Borrow (declare it BorrowMut to write)  [gpuoff-borrow-write]
    go.atomic_min(y, 0, x[0])


@go.func
def passes_on(x: Borrow[Array[f32]]) -> None:
    fill_one(x, 0)  # E: cannot pass 'x' (Borrow) to parameter 'y' of 'fill_one', which is declared BorrowMut  [gpuoff-borrow-write]
