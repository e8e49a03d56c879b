"""Views the reductions, scans and selections launch on: a contiguous buffer seen with another
shape (no copy), a bool buffer seen as ``u8``, and the ``(outer, length, inner)`` split of an
axis.

A library kernel indexes a fixed number of dimensions, so an input is brought to the 2-d
``(rows, length)`` or 3-d ``(outer, length, inner)`` shape its kernel takes. For a contiguous
buffer that is a view of the same memory with C strides, so a contiguous input stays
contiguous (unit stride along its last axis) in the kernel: the cpu backend vectorises along
it and GPUs coalesce. Only a non-contiguous input is copied first.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import gpuoff as go
from gpuoff.errors import ShapeError
from gpuoff.runtime.buffer import Buffer


def c_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """C-order strides of ``shape``, in elements."""
    strides: list[int] = []
    acc = 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(strides))


def is_contiguous(x: go.Buffer[Any]) -> bool:
    """Whether ``x`` is C-contiguous (a buffer of at most one element always is)."""
    item = x.dtype.itemsize
    return x.size <= 1 or tuple(s // item for s in x.strides) == c_strides(tuple(x.shape))


def contiguous(x: go.Buffer[Any]) -> go.Buffer[Any]:
    """``x`` itself when C-contiguous, else a C-contiguous copy (which waits for ``x``'s
    writers: ``Buffer.copy`` goes through the host)."""
    return x if is_contiguous(x) else x.copy()


def reshaped(x: go.Buffer[Any], shape: tuple[int, ...], func: str) -> go.Buffer[Any]:
    """The C-contiguous buffer ``x`` seen with ``shape`` (the same number of elements):
    a view sharing its memory, as ``np.reshape`` of a contiguous array."""
    if not is_contiguous(x):
        raise ShapeError(f"gpuoff.lib.{func}: out= must be C-contiguous")
    if int(np.prod(shape, dtype=np.int64)) != x.size:
        raise ShapeError(f"gpuoff.lib.{func}: cannot view {tuple(x.shape)} as {shape}")
    return Buffer(x._st, x._off, shape, c_strides(shape), x.dtype)


def as_uint8(x: go.Buffer[Any]) -> go.Buffer[Any]:
    """A bool buffer seen as ``u8`` (the same bytes: NumPy's bools are 0 or 1), so that the
    kernels can compare and accumulate it; any other buffer as it is."""
    if x.dtype != np.bool_:
        return x
    item = x.dtype.itemsize
    strides = tuple(s // item for s in x.strides)
    return Buffer(x._st, x._off, tuple(x.shape), strides, np.dtype(np.uint8))


def split_axis(shape: tuple[int, ...], axis: int) -> tuple[int, int, int]:
    """``(outer, length, inner)``: the sizes before ``axis``, along it and after it."""
    outer = int(np.prod(shape[:axis], dtype=np.int64))
    inner = int(np.prod(shape[axis + 1 :], dtype=np.int64))
    return outer, shape[axis], inner
