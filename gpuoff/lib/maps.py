"""``gl.map``: a ``@go.func`` applied element-wise to arrays broadcast as NumPy broadcasts.

One work-item per element of the result (C order). Where every input already has the
result's shape and is contiguous, element ``i`` of each is read directly; otherwise each
input's index is computed from ``i`` by its broadcast strides (``_offset``: 0 along the
dimensions it is broadcast over). The function is a compile-time parameter of the kernel
(``go.Const``): one specialisation per function, arity and dtypes.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, i64
from gpuoff.errors import DTypeError, ShapeError
from gpuoff.frontend.signature import return_annotation
from gpuoff.lang import DType
from gpuoff.lib._common import result
from gpuoff.lib._views import contiguous, flat
from gpuoff.runtime.tracebacks import entry_point

A = go.DTypeVar("A")
B = go.DTypeVar("B")
C = go.DTypeVar("C")
R = go.DTypeVar("R")

MAX_ARRAYS = 3
"""Most arrays one ``gl.map`` takes."""


@go.func
def _offset(i: i64, meta: Borrow[Array[i64]], which: i64, ndim: go.Const[int]) -> i64:
    """The index into input ``which`` (flat, C order) of element ``i`` of the result:
    ``meta[:ndim]`` is the result's shape, ``meta[ndim * (1 + which):][:ndim]`` the input's
    strides (in elements, 0 where broadcast)."""
    off = go.i64(0)
    rem = i
    for e in range(ndim):
        d = ndim - 1 - e
        size = meta[d]
        off += (rem % size) * meta[ndim * (1 + which) + d]
        rem //= size
    return off


@go.kernel
def _map1(a: Borrow[Array[A]], out: BorrowMut[Array[R]], meta: Borrow[Array[i64]],
          fn: go.Const[go.DeviceFunction[..., Any]], ndim: go.Const[int]) -> None:  # fmt: skip
    """``out[i] = fn(a[i])`` (``ndim`` > 0: ``a`` broadcast, see ``_offset``)."""
    i = go.global_id(0)
    if i < out.shape[0]:
        if ndim == 0:
            out[i] = fn(a[i])
        else:
            out[i] = fn(a[_offset(i, meta, 0, ndim)])


@go.kernel
def _map2(a: Borrow[Array[A]], b: Borrow[Array[B]], out: BorrowMut[Array[R]],
          meta: Borrow[Array[i64]], fn: go.Const[go.DeviceFunction[..., Any]],
          ndim: go.Const[int]) -> None:  # fmt: skip
    """``out[i] = fn(a[i], b[i])`` (broadcast when ``ndim`` > 0)."""
    i = go.global_id(0)
    if i < out.shape[0]:
        if ndim == 0:
            out[i] = fn(a[i], b[i])
        else:
            ia = _offset(i, meta, 0, ndim)
            ib = _offset(i, meta, 1, ndim)
            out[i] = fn(a[ia], b[ib])


@go.kernel
def _map3(a: Borrow[Array[A]], b: Borrow[Array[B]], c: Borrow[Array[C]],
          out: BorrowMut[Array[R]], meta: Borrow[Array[i64]],
          fn: go.Const[go.DeviceFunction[..., Any]], ndim: go.Const[int]) -> None:  # fmt: skip
    """``out[i] = fn(a[i], b[i], c[i])`` (broadcast when ``ndim`` > 0)."""
    i = go.global_id(0)
    if i < out.shape[0]:
        if ndim == 0:
            out[i] = fn(a[i], b[i], c[i])
        else:
            ia = _offset(i, meta, 0, ndim)
            ib = _offset(i, meta, 1, ndim)
            ic = _offset(i, meta, 2, ndim)
            out[i] = fn(a[ia], b[ib], c[ic])


_KERNELS: dict[int, Any] = {1: _map1, 2: _map2, 3: _map3}


def _result_dtype(fn: go.DeviceFunction[..., Any]) -> np.dtype[Any]:
    ann = return_annotation(fn.pyfunc)
    if isinstance(ann, type) and issubclass(ann, DType) and ann is not DType:
        return ann.np_dtype
    shown = "none" if ann is inspect.Signature.empty else repr(ann)
    raise DTypeError(f"gpuoff.lib.map: {fn.__name__} must declare its return dtype "
                     f"(-> go.f32, ...) to size the result; its annotation is {shown}")  # fmt: skip


def _operand(x: object, k: int) -> go.Buffer[Any]:
    if isinstance(x, go.Buffer):
        return x
    if isinstance(x, np.ndarray):
        return go.asarray(x)
    if isinstance(x, int | float | np.generic) and not isinstance(x, bool):
        return go.array(np.asarray(x))
    raise DTypeError(f"gpuoff.lib.map: array {k} must be a go.Buffer, an array or a number, "
                     f"not {type(x).__name__}")  # fmt: skip


def _strides(buf: go.Buffer[Any], shape: tuple[int, ...]) -> list[int]:
    """``buf``'s C-order strides (in elements) broadcast to ``shape``."""
    own = [1] * buf.ndim
    for d in range(buf.ndim - 2, -1, -1):
        own[d] = own[d + 1] * buf.shape[d + 1]
    lead = len(shape) - buf.ndim
    return [0] * lead + [0 if buf.shape[d] == 1 else own[d] for d in range(buf.ndim)]


@entry_point
def map(fn: go.DeviceFunction[..., Any], *arrays: object, out: object = None) -> go.Buffer[Any]:
    """``fn`` applied element by element to ``arrays`` broadcast together as NumPy does:
    ``out[idx] = fn(a[idx], b[idx], ...)``. ``fn`` is a ``@go.func`` of 1 to 3 parameters;
    the result's dtype is its return annotation. Nothing waits.

    >>> @go.func
    ... def axpy(a: go.f32, x: go.f32, y: go.f32) -> go.f32:
    ...     return a * x + y
    >>> gl.map(axpy, np.float32(2), x, y)
    """
    if not isinstance(fn, go.DeviceFunction):
        raise DTypeError(f"gpuoff.lib.map: fn must be a @go.func device function, not "
                         f"{type(fn).__name__}")  # fmt: skip
    if not 1 <= len(arrays) <= MAX_ARRAYS:
        raise ShapeError(f"gpuoff.lib.map: takes 1 to {MAX_ARRAYS} arrays, got {len(arrays)}")
    bufs = [_operand(x, k) for k, x in enumerate(arrays)]
    try:
        shape = tuple(np.broadcast_shapes(*(b.shape for b in bufs)))
    except ValueError:
        shapes = ", ".join(str(b.shape) for b in bufs)
        raise ShapeError(f"gpuoff.lib.map: the arrays' shapes {shapes} do not broadcast "
                         "together") from None  # fmt: skip
    target = result(out, shape, _result_dtype(fn), "map")
    if not contiguous(target):
        raise ShapeError("gpuoff.lib.map: out= must be contiguous")
    size = int(np.prod(shape, dtype=np.int64))
    if size == 0:
        return target
    plain = all(b.shape == shape and contiguous(b) for b in bufs)
    flat_in = [flat(b if contiguous(b) else b.copy()) for b in bufs]
    ndim = 0 if plain else len(shape)
    meta = [*shape] + [s for b in bufs for s in _strides(b, shape)] if ndim else [0]
    _KERNELS[len(bufs)][size](*flat_in, flat(target), go.array(np.array(meta, np.int64)), fn,
                              ndim)  # fmt: skip
    return target
