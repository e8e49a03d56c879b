"""The host-side values buffers are made and indexed with (shapes, fill values, elements,
indices), checked as a launch checks its arguments: a bad one is a ``GpuoffError`` that is
also the builtin a user would catch, and says what was expected, never NumPy's own error
from inside a constructor (``go.zeros(4.0)`` said "'float' object is not iterable",
``go.full(4, 300, go.u8)`` raised NumPy's ``OverflowError``, ``buf[10]`` a bare
``IndexError``, ``go.zeros(2**62)`` "Maximum allowed dimension exceeded")."""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np

from gpuoff.errors import BoundsError, DTypeError, GpuoffError, OutOfMemoryError, ShapeError


class ShareError(GpuoffError, BufferError):
    """Memory another library owns that gpuoff cannot share as it is (``go.from_dlpack``)."""


class ViewError(GpuoffError, IndexError):
    """An index that cannot make a view (advanced indexing) or is not an index at all."""


def shape_of(shape: object) -> tuple[int, ...]:
    """``shape`` (an int or a sequence of ints, NumPy's included) as a tuple of ints."""
    dims: Any = (shape,) if isinstance(shape, int | np.integer) else shape
    try:
        dims = tuple(dims)
    except TypeError:
        dims = (shape,)
    if not all(isinstance(n, int | np.integer) and not isinstance(n, bool) for n in dims):
        raise ShapeError(f"a shape is an int or a tuple of ints, got {shape!r}")
    out = tuple(int(n) for n in dims)
    if any(n < 0 for n in out):
        raise ShapeError(f"negative dimension in shape {out}")
    return out


def host_nbytes(shape: tuple[int, ...], dtype: np.dtype[Any]) -> int:
    """Bytes of a C-contiguous array of ``shape``, counted exactly (NumPy's int64 product
    wraps for shapes like ``(2**40, 2**40)``); beyond the address space is out of memory."""
    nbytes = math.prod(shape) * dtype.itemsize
    if nbytes > sys.maxsize // 2:
        raise OutOfMemoryError(
            f"cannot allocate {nbytes} bytes of host memory for a buffer of shape {shape} "
            f"({dtype.name}): beyond the address space"
        )
    return nbytes


def element(value: object, dtype: np.dtype[Any], what: str) -> np.ndarray[Any, Any]:
    """``value`` (a scalar or array-like) as ``dtype``, as NumPy assigns it, or a
    ``DTypeError`` saying why it cannot be one (not a number, out of range, ragged)."""
    try:
        return np.asarray(value, dtype=dtype)
    except (TypeError, ValueError, OverflowError) as exc:
        raise DTypeError(f"{what} {value!r} cannot be stored as {dtype.name}: {exc}") from None


def host_index(layout: np.ndarray[Any, Any], index: Any, describe: str) -> Any:
    """``layout[index]``, with NumPy's ``IndexError`` as gpuoff's: an index out of range is a
    ``BoundsError`` naming the buffer, an index of another kind a ``ViewError``."""
    try:
        return layout[index]
    except IndexError as exc:
        text = str(exc)
        if "out of bounds" in text:
            raise BoundsError(f"{text} (host access to a {describe})") from None
        raise ViewError(f"{text} (indexing a {describe})") from None


def assignable(value: object, target: Any, dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    """``value`` as ``dtype``, checked to fit ``target`` (what ``buf[index]`` selects) before
    anything is written: a ``DTypeError`` or ``ShapeError`` instead of NumPy's."""
    new = element(value, dtype, "value")
    shape = np.shape(target)
    try:
        fits = np.broadcast_shapes(new.shape, shape) == shape
    except ValueError:
        fits = False
    if not fits:
        raise ShapeError(f"cannot assign a value of shape {new.shape} to {shape} elements")
    return new


def shared_view(obj: Any) -> np.ndarray[Any, Any]:
    """The NumPy view ``go.from_dlpack(obj)`` shares, or why it cannot: a ``DTypeError`` for a
    dtype DLPack's NumPy import does not know (bfloat16), else a ``ShareError``. A strided or
    read-only import used to become a copy, so the kernel's writes never reached the owner."""
    try:
        view = np.from_dlpack(obj)
    except (BufferError, RuntimeError, TypeError, ValueError) as exc:
        error = DTypeError if "dtype" in str(exc).lower() else ShareError
        raise error(f"go.from_dlpack cannot share a {type(obj).__name__}: {exc}") from None
    flags = view.flags
    tests = ((flags.c_contiguous, "not C-contiguous"), (flags.writeable, "read-only"),
             (flags.aligned, "unaligned"), (view.dtype.isnative, "of the other byte order"))
    why = [text for ok, text in tests if not ok]
    if why:
        raise ShareError(
            f"go.from_dlpack shares memory, and this {type(obj).__name__}'s is {', '.join(why)}: "
            "go.array(x) makes a copy, and a launch takes it directly (copied in, and back)"
        )
    return view
