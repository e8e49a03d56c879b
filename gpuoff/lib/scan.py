"""Scans: ``gl.cumsum`` (``np.cumsum``), ``gl.inclusive_scan`` and ``gl.exclusive_scan`` with
a user's ``@go.func`` operator.

The algorithm is the two-pass scan a C programmer writes for a multicore CPU, in three
launches, and its order is fixed by the shape and the device's constants (cpu: chunks of
``width * items = 64 * 1024`` elements), never by the number of threads:

1. ``blocks`` (the reductions' kernel, vectorised) folds every full chunk of each row into
   ``width`` partial results;
2. ``scan_offsets`` folds them, chunk by chunk, into each chunk's offset (one work-item per
   row: a few hundred chunks);
3. ``scan_chunks`` scans each chunk sequentially from its offset, one work-item per chunk
   (a running value in a register, as in C).

An axis with elements after it is scanned by one work-item per position walking the axis.
Integer scans are exact; a float scan differs from NumPy's sequential one by rounding only
(chunk offsets are blocked sums). The operator must be associative (and, for the offsets'
blocked order, commutative). Asynchronous; a non-contiguous input is copied first (which
waits, as in ``gl.sum``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import gpuoff as go
from gpuoff.errors import DTypeError
from gpuoff.lang import DeviceFunction
from gpuoff.lib import _reduce_kernels as K
from gpuoff.lib._common import Operand, as_buffer, normalize_axis, result
from gpuoff.lib._shapes import as_uint8, contiguous, reshaped, split_axis
from gpuoff.lib.reduce import resolve_op
from gpuoff.runtime.devices import current_device
from gpuoff.runtime.tracebacks import entry_point

__all__ = ["cumsum", "exclusive_scan", "inclusive_scan"]


def scan_geometry() -> tuple[int, int]:
    """``(width, items)`` of the scans' chunks on the current device: 64 x 1024 on CPUs
    (a few hundred chunks: enough for every core, few offsets to fold), 64 x 16 elsewhere
    (many short chunks for a GPU's many threads)."""
    dev = current_device()
    kind = getattr(getattr(dev, "info", None), "kind", "cpu")
    return (64, 1024) if dev.backend == "cpu" or kind == "cpu" else (64, 16)


def scan_rows(src: go.Buffer[Any], dest: go.Buffer[Any], init: Any, op: Any,
              acc: np.dtype[Any], exclusive: bool) -> None:  # fmt: skip
    """Scan each row of ``src`` (rows, n) into ``dest`` (rows, n), both contiguous."""
    rows, n = src.shape
    width, items = scan_geometry()
    chunk = width * items
    full = n // chunk
    chunks = max(1, -(-n // chunk))
    part = go.empty((rows, full * width), acc)
    if full:
        K.blocks[(full * width, rows), (width, 1)](src, part, init, op, width, items)
    offs = go.empty((rows, chunks), acc)
    K.scan_offsets[(rows,)](part, offs, init, op, width, exclusive)
    K.scan_chunks[(chunks, rows), (1, 1)](src, dest, offs, op, chunk, exclusive)


def _scan(x: Operand, axis: int | None, out: object, op: Any, init: Any,
          dtype: np.dtype[Any] | None, exclusive: bool, func: str) -> go.Buffer[Any]:  # fmt: skip
    """The scan of ``x`` by ``op`` (``dtype``: the result's, None for ``x``'s)."""
    buf = contiguous(as_buffer(x, func, "x"))
    ax = normalize_axis(axis, buf.ndim, func)
    res = np.dtype(dtype) if dtype is not None else buf.dtype
    if res.kind not in "iuf" or buf.dtype.kind not in "biuf":
        raise DTypeError(f"gpuoff.lib.{func}: cannot scan {buf.dtype} into {res}")
    acc = np.dtype(np.float32) if res == np.float16 else res
    shape = tuple(buf.shape)
    out_shape = (buf.size,) if ax is None else shape
    dest = result(out, out_shape, res, func)
    if buf.size == 0:
        return dest
    outer, length, inner = (1, buf.size, 1) if ax is None else split_axis(shape, ax)
    src = as_uint8(buf)
    a_init = acc.type(init)
    if inner == 1:
        s2, d2 = reshaped(src, (outer, length), func), reshaped(dest, (outer, length), func)
        scan_rows(s2, d2, a_init, op, acc, exclusive)
    else:
        s3 = reshaped(src, (outer, length, inner), func)
        d3 = reshaped(dest, (outer, length, inner), func)
        K.scan_columns[(inner, outer)](s3, d3, a_init, op, exclusive)
    return dest


@entry_point
def cumsum(x: Operand, axis: int | None = None, dtype: Any = None,
           out: object = None) -> go.Buffer[Any]:  # fmt: skip
    """``np.cumsum(x, axis, dtype)``: ``axis=None`` scans the flattened array (a 1-d
    result); the result dtype is NumPy's (i64 for bool and signed ints narrower than i64, u64
    for unsigned ones), or ``dtype``. Asynchronous."""
    buf = as_buffer(x, "cumsum", "x")
    if dtype is None:
        if buf.dtype.kind not in "biuf":
            raise DTypeError(f"gpuoff.lib.cumsum: x has dtype {buf.dtype}, which it cannot scan")
        dtype = np.add.reduce(np.zeros(1, buf.dtype)).dtype
    return _scan(buf, axis, out, K.add, 0, np.dtype(dtype), False, "cumsum")


@entry_point
def inclusive_scan(x: Operand, op: str | DeviceFunction[..., Any], axis: int | None = None,
                   out: object = None) -> go.Buffer[Any]:  # fmt: skip
    """``out[k] = op(...op(x[0], x[1])..., x[k])`` (``op``: a ``@go.func`` of two values of
    ``x``'s dtype, associative and commutative, or ``"sum"``, ``"prod"``, ``"min"``,
    ``"max"``); flattened for ``axis=None``, as
    :func:`cumsum`; the result has ``x``'s dtype. Asynchronous."""
    fn = resolve_op(op, "inclusive_scan")
    return _scan(x, axis, out, fn, 0, None, False, "inclusive_scan")


@entry_point
def exclusive_scan(x: Operand, op: str | DeviceFunction[..., Any], initial: object,
                   axis: int | None = None, out: object = None) -> go.Buffer[Any]:  # fmt: skip
    """``out[0] = initial``, ``out[k] = op(out[k - 1], x[k - 1])``; as :func:`inclusive_scan`
    otherwise. Asynchronous."""
    fn = resolve_op(op, "exclusive_scan")
    return _scan(x, axis, out, fn, initial, None, True, "exclusive_scan")
