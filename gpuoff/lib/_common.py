"""What every library function shares: its inputs as buffers, its ``out=``, its axis.

A library function takes ``go.Buffer``s or arrays (NumPy, or anything ``go.asarray`` takes)
and returns a new buffer on the current device, or writes ``out=``. Launches are
asynchronous, so a function returns as soon as its kernels are queued; reading the result
(``.numpy()``) waits for them.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np

import gpuoff as go
from gpuoff.errors import DTypeError, ShapeError

Operand: TypeAlias = "go.Buffer[Any] | np.ndarray[Any, Any]"
"""What a library function takes as an array argument."""


def as_buffer(x: object, func: str, name: str) -> go.Buffer[Any]:
    """``x`` as a buffer on the current device: a buffer as it is (a view too), a contiguous
    NumPy array of a gpuoff dtype without a copy (``go.asarray``), anything else copied."""
    if isinstance(x, go.Buffer):
        return x
    if isinstance(x, np.ndarray) or hasattr(x, "__array_interface__") or hasattr(
        x, "__dlpack__"
    ):
        return go.asarray(x)
    raise DTypeError(
        f"gpuoff.lib.{func}: {name} must be a go.Buffer or an array, not {type(x).__name__}"
    )


def normalize_axis(axis: int | None, ndim: int, func: str) -> int | None:
    """``axis`` as a non-negative axis of an ``ndim``-d array (NumPy's negative axes), or
    ``None`` for "all axes"; ``ShapeError`` if it is not an axis of the array."""
    if axis is None:
        return None
    if isinstance(axis, bool) or not isinstance(axis, int | np.integer):
        raise DTypeError(f"gpuoff.lib.{func}: axis must be an int or None, not {axis!r}")
    if not -ndim <= axis < ndim:
        raise ShapeError(
            f"gpuoff.lib.{func}: axis {axis} is out of range for an array of {ndim} dimensions"
        )
    return int(axis) % ndim


def result(
    out: object, shape: tuple[int, ...], dtype: np.dtype[Any], func: str
) -> go.Buffer[Any]:
    """The buffer a function writes: ``out`` checked against the result's shape and dtype, or
    a new one. An ``out=`` that does not fit is refused before anything runs."""
    if out is None:
        return go.empty(shape, dtype)
    if isinstance(out, np.ndarray):
        # the result must land in the caller's own memory: wrap it, never copy it
        flags = out.flags
        if not (flags.writeable and flags.c_contiguous and flags.aligned):
            raise ShapeError(
                f"gpuoff.lib.{func}: out= must be a writeable, C-contiguous, aligned array "
                "(or a go.Buffer)"
            )
        out = go.asarray(out)
    if not isinstance(out, go.Buffer):
        raise DTypeError(
            f"gpuoff.lib.{func}: out= must be a go.Buffer or a NumPy array, "
            f"not {type(out).__name__}"
        )
    if tuple(out.shape) != tuple(shape):
        raise ShapeError(
            f"gpuoff.lib.{func}: out= has shape {tuple(out.shape)}, the result has {shape}"
        )
    if out.dtype != dtype:
        raise ShapeError(f"gpuoff.lib.{func}: out= has dtype {out.dtype}, the result has {dtype}")
    return out
