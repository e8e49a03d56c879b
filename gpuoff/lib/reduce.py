"""Reductions: ``gl.sum``, ``gl.prod``, ``gl.min``, ``gl.max``, ``gl.reduce`` (a user's
``@go.func``) and ``gl.argmin``, ``gl.argmax``, over the whole array or one axis, with NumPy's
semantics and result dtypes.

Summation order (deterministic: it depends on the shape and on the device's two tuning
constants ``width`` and ``items``, never on the number of threads or on scheduling; the cpu
device uses ``width = items = 64``). The input is seen as rows ``(rows, n)`` -- the whole
array is one row, an axis of a C-contiguous array is a row per position of the axes before
it -- and each row is reduced in levels:

1. the row is cut into chunks of ``C = width * items`` elements; in full chunk ``g``,
   work-item ``l`` folds the elements ``g * C + l + j * width`` for ``j = 0 .. items - 1`` in
   that order (a blocked, interleaved order: ``width`` running partial results per chunk);
2. the ``width`` partial results of every chunk, in order, then the elements after the last
   full chunk, form the row of the next level;
3. once a row is at most ``C`` long, one work-item folds it left to right, starting from the
   operator's identity (``gl.reduce``: ``initial``, which is applied exactly once).

An axis with elements after it (``axis=0`` of a 2-d array) is folded along the axis, left to
right, by one work-item per result element. The operator of ``gl.reduce`` must therefore be
associative and commutative (as ``np.add`` is); a floating-point sum differs from NumPy's
pairwise sum by rounding only. A non-contiguous input is first copied to a contiguous one
(``Buffer.copy``, which waits for the input's writers).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import gpuoff as go
from gpuoff.errors import DTypeError, ShapeError
from gpuoff.lang import DeviceFunction
from gpuoff.lib import _reduce_kernels as K
from gpuoff.lib._common import Operand, as_buffer, normalize_axis, result
from gpuoff.lib._shapes import as_uint8, contiguous, reshaped, split_axis
from gpuoff.runtime.devices import current_device
from gpuoff.runtime.tracebacks import entry_point

__all__ = ["argmax", "argmin", "max", "min", "prod", "reduce", "sum"]

def geometry() -> tuple[int, int]:
    """``(width, items)`` of the ``blocks`` kernels on the current device: 64 x 64 on cpu
    (eight AVX vectors of partial sums, 16 KiB chunks), 256 x 16 elsewhere (a GPU's usual
    work-group, coalesced reads)."""
    return (64, 64) if current_device().backend == "cpu" else (256, 16)


OPS: dict[str, DeviceFunction[..., Any]] = {
    "sum": K.add, "prod": K.mul, "min": K.minimum, "max": K.maximum
}
"""The operators ``gl.reduce``, the scans and ``gl.segmented_reduce`` take by name."""


def resolve_op(op: object, func: str) -> DeviceFunction[..., Any]:
    """``op`` as a device function: a ``@go.func`` as it is, or one of :data:`OPS` by name."""
    if isinstance(op, DeviceFunction):
        return op
    if isinstance(op, str):
        fn = OPS.get(op)
        if fn is not None:
            return fn
        raise DTypeError(f"gpuoff.lib.{func}: op {op!r} is not one of {sorted(OPS)}")
    raise DTypeError(
        f"gpuoff.lib.{func}: op must be a @go.func device function or one of {sorted(OPS)}, "
        f"not {type(op).__name__}"
    )


def _scalar(value: object, dtype: np.dtype[Any]) -> Any:
    """``value`` as a NumPy scalar of ``dtype`` (a launch argument of exactly that type)."""
    return dtype.type(value)


def _rows_levels(x2: go.Buffer[Any], init: Any, op: Any, acc: np.dtype[Any]) -> go.Buffer[Any]:
    """Reduce the rows of ``x2`` (rows, n) by ``blocks`` levels until each is at most one
    chunk long; the result is ``x2`` itself or the last level's partial results (``acc``)."""
    width, items = geometry()
    chunk = width * items
    cur = x2
    rows = x2.shape[0]
    while cur.shape[1] > chunk:
        n = cur.shape[1]
        full = n // chunk
        tail = n - full * chunk
        part = go.empty((rows, full * width + tail), acc)
        K.blocks[(full * width, rows), (width, 1)](cur, part, init, op, width, items)
        if tail:
            K.copy_tail[(tail, rows)](cur, part, full * chunk, full * width, init)
        cur = part
    return cur


def _fold(x: go.Buffer[Any], axis: int | None, out: object, init: object, op: Any,
          acc: np.dtype[Any], res: np.dtype[Any], func: str) -> go.Buffer[Any]:  # fmt: skip
    """The reduction of ``x`` (checked, contiguous) by ``op`` from ``init``; ``acc`` is the
    accumulator's dtype, ``res`` the result's."""
    shape = tuple(x.shape)
    if axis is None:
        outer, length, inner = 1, x.size, 1
        out_shape: tuple[int, ...] = ()
    else:
        outer, length, inner = split_axis(shape, axis)
        out_shape = shape[:axis] + shape[axis + 1 :]
    dest = result(out, out_shape, res, func)
    a_init = _scalar(init, acc)
    if outer * inner == 0:
        return dest
    src = as_uint8(x)
    if inner == 1:
        cur = _rows_levels(reshaped(src, (outer, length), func), a_init, op, acc)
        K.final[(outer,)](cur, reshaped(dest, (outer,), func), a_init, op)
    else:
        flat = reshaped(dest, (outer, inner), func)
        K.columns[(inner, outer)](reshaped(src, (outer, length, inner), func), flat, a_init, op)
    return dest


def _prepare(x: object, axis: int | None, func: str) -> tuple[go.Buffer[Any], int | None]:
    """``x`` as a contiguous buffer and ``axis`` normalised (NumPy's negative axes)."""
    buf = as_buffer(x, func, "x")
    ax = normalize_axis(axis, buf.ndim, func)
    return contiguous(buf), ax


def _sum_dtypes(dtype: np.dtype[Any], func: str) -> tuple[np.dtype[Any], np.dtype[Any]]:
    """``(accumulator, result)`` dtypes of a sum or product: NumPy's (ints narrower than i64
    and bools give i64, unsigned ones u64); an ``f16`` sum accumulates in ``f32``."""
    if dtype.kind not in "biuf":
        raise DTypeError(f"gpuoff.lib.{func}: x has dtype {dtype}, which it cannot reduce")
    res = np.add.reduce(np.zeros(1, dtype)).dtype
    return (np.dtype(np.float32) if res == np.float16 else res), res


def _extreme_init(dtype: np.dtype[Any], smallest: bool) -> object:
    """The identity of min (``smallest``) or max over ``dtype``: +-inf or the integer limit."""
    if dtype.kind == "f":
        return np.inf if smallest else -np.inf
    if dtype.kind == "b":
        return 1 if smallest else 0
    info = np.iinfo(dtype)
    return info.max if smallest else info.min


@entry_point
def sum(x: Operand, axis: int | None = None, out: object = None) -> go.Buffer[Any]:  # noqa: A001
    """``np.sum(x, axis)``: a 0-d buffer for ``axis=None``, else the shape without ``axis``.
    Result dtype as NumPy's (i64 for bool and signed ints, u64 for unsigned, the float's own);
    the summation order is the module's (deterministic, blocked). Asynchronous."""
    buf, ax = _prepare(x, axis, "sum")
    acc, res = _sum_dtypes(buf.dtype, "sum")
    return _fold(buf, ax, out, 0, K.add, acc, res, "sum")


@entry_point
def prod(x: Operand, axis: int | None = None, out: object = None) -> go.Buffer[Any]:
    """``np.prod(x, axis)``, dtypes as :func:`sum` (integers wrap as NumPy's do)."""
    buf, ax = _prepare(x, axis, "prod")
    acc, res = _sum_dtypes(buf.dtype, "prod")
    return _fold(buf, ax, out, 1, K.mul, acc, res, "prod")


def _extreme(x: Operand, axis: int | None, out: object, smallest: bool) -> go.Buffer[Any]:
    func = "min" if smallest else "max"
    buf, ax = _prepare(x, axis, func)
    dtype = buf.dtype
    if dtype.kind not in "biuf":
        raise DTypeError(f"gpuoff.lib.{func}: x has dtype {dtype}, which it cannot reduce")
    _require_nonempty(buf, ax, func)
    acc = np.dtype(np.uint8) if dtype.kind == "b" else dtype
    op = K.minimum if smallest else K.maximum
    return _fold(buf, ax, out, _extreme_init(dtype, smallest), op, acc, dtype, func)


def _others(shape: tuple[int, ...], axis: int) -> tuple[int, ...]:
    return shape[:axis] + shape[axis + 1 :]


def _require_nonempty(buf: go.Buffer[Any], axis: int | None, func: str) -> None:
    """NumPy's refusal of an empty run for a reduction without identity: the reduced
    length is 0 and there is at least one result element."""
    shape = tuple(buf.shape)
    length = buf.size if axis is None else shape[axis]
    results = 1 if axis is None else int(np.prod(_others(shape, axis), dtype=np.int64))
    if length == 0 and results > 0:
        raise ShapeError(
            f"gpuoff.lib.{func}: zero-size array to a reduction which has no identity "
            f"(x has shape {shape})"
        )


@entry_point
def min(x: Operand, axis: int | None = None, out: object = None) -> go.Buffer[Any]:  # noqa: A001
    """``np.min(x, axis)`` (NaN if any element of the reduced run is NaN); an empty reduction
    is a ``go.ShapeError`` (NumPy: ``ValueError``). Asynchronous."""
    return _extreme(x, axis, out, True)


@entry_point
def max(x: Operand, axis: int | None = None, out: object = None) -> go.Buffer[Any]:  # noqa: A001
    """``np.max(x, axis)``, as :func:`min`."""
    return _extreme(x, axis, out, False)


@entry_point
def reduce(x: Operand, op: str | DeviceFunction[..., Any], initial: object,
           axis: int | None = None, out: object = None) -> go.Buffer[Any]:  # fmt: skip
    """``op`` (a ``@go.func`` of two values of ``x``'s dtype returning one, associative and
    commutative, or ``"sum"``, ``"prod"``, ``"min"``, ``"max"``) folded over ``x`` (or along
    ``axis``) from ``initial``, which is applied exactly once per result element (an empty
    reduction gives ``initial``). Result dtype: ``x``'s. Asynchronous."""
    fn = resolve_op(op, "reduce")
    buf, ax = _prepare(x, axis, "reduce")
    dtype = buf.dtype
    if dtype.kind == "b":
        raise DTypeError("gpuoff.lib.reduce: x must have a numeric dtype, not bool")
    try:
        init = _scalar(initial, dtype)
    except (TypeError, ValueError, OverflowError) as exc:
        raise DTypeError(f"gpuoff.lib.reduce: initial {initial!r} is not a {dtype}") from exc
    return _fold(buf, ax, out, init, fn, dtype, dtype, "reduce")


def _arg(x: Operand, axis: int | None, largest: bool) -> go.Buffer[Any]:
    func = "argmax" if largest else "argmin"
    buf, ax = _prepare(x, axis, func)
    if buf.dtype.kind not in "biuf":
        raise DTypeError(f"gpuoff.lib.{func}: x has dtype {buf.dtype}, which it cannot compare")
    _require_nonempty(buf, ax, func)
    shape = tuple(buf.shape)
    outer, length, inner = (1, buf.size, 1) if ax is None else split_axis(shape, ax)
    out_shape = () if ax is None else _others(shape, ax)
    dest = go.empty(out_shape, np.int64)
    if outer * inner == 0:
        return dest
    src = as_uint8(buf)
    if inner > 1:
        x3 = reshaped(src, (outer, length, inner), func)
        K.arg_columns[(inner, outer)](x3, reshaped(dest, (outer, inner), func), largest)
        return dest
    xv, xi = _arg_levels(reshaped(src, (outer, length), func), largest)
    K.arg_final[(outer,)](xv, xi, reshaped(dest, (outer,), func), largest)
    return dest


def _arg_levels(x2: go.Buffer[Any], largest: bool) -> tuple[go.Buffer[Any], go.Buffer[Any]]:
    """As ``_rows_levels``, with the candidates' indices: ``(values, indices)``; the indices
    have no columns while the values are the input itself."""
    width, items = geometry()
    chunk = width * items
    rows = x2.shape[0]
    cur, idx = x2, go.empty((rows, 0), np.int64)
    while cur.shape[1] > chunk:
        n = cur.shape[1]
        full = n // chunk
        tail = n - full * chunk
        m = full * width + tail
        pv, pi = go.empty((rows, m), cur.dtype), go.empty((rows, m), np.int64)
        K.arg_blocks[(full * width, rows), (width, 1)](cur, idx, pv, pi, largest, width, items)
        if tail:
            K.arg_copy_tail[(tail, rows)](cur, idx, pv, pi, full * chunk, full * width)
        cur, idx = pv, pi
    return cur, idx


@entry_point
def argmin(x: Operand, axis: int | None = None) -> go.Buffer[Any]:
    """``np.argmin(x, axis)``: the index of the first smallest element (of the first NaN, if
    any), in the flattened array for ``axis=None``; i64. Asynchronous."""
    return _arg(x, axis, False)


@entry_point
def argmax(x: Operand, axis: int | None = None) -> go.Buffer[Any]:
    """``np.argmax(x, axis)``, as :func:`argmin`."""
    return _arg(x, axis, True)

