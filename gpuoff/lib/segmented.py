"""``gl.segmented_reduce(values, offsets, op)``: one reduction per segment of a CSR-style
layout, like ``np.add.reduceat(values, offsets[:-1])``.

Segment ``s`` is ``values[offsets[s]:offsets[s + 1]]`` (``offsets``: ``segments + 1``
non-decreasing integers from 0 to ``len(values)``, a CSR matrix's ``indptr``). Unlike
``reduceat``, which returns ``values[offsets[s]]`` for an empty segment, an **empty segment
gives the operator's identity** (0 for ``"sum"``, 1 for ``"prod"``, the dtype's largest or
smallest value, or +-inf, for ``"min"``/``"max"``) or ``initial`` for a ``@go.func``. Each
segment is folded left to right from that value by one work-item (parallel over segments).
An offset outside ``values`` is a ``go.BoundsError`` at the next synchronisation; a
decreasing pair is an empty segment. Asynchronous.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Const, DeviceFunction
from gpuoff.errors import DTypeError, ShapeError
from gpuoff.lib._common import Operand, as_buffer, result
from gpuoff.lib._shapes import contiguous
from gpuoff.lib.reduce import resolve_op
from gpuoff.runtime.tracebacks import entry_point

__all__ = ["segmented_reduce"]

T = go.DTypeVar("T")
I = go.DTypeVar("I", go.i32, go.i64)  # noqa: E741 - the offsets' dtype variable


@go.kernel
def segments(values: Borrow[Array[T]], offsets: Borrow[Array[I]], out: BorrowMut[Array[T]],
             init: T, op: Const[DeviceFunction[[T, T], T]]) -> None:  # fmt: skip
    """``out[s] = op(...op(init, values[lo]), ...values[hi - 1])`` with ``lo, hi =
    offsets[s], offsets[s + 1]``. Grid ``(segments,)``."""
    s = go.global_id(0)
    if s < out.shape[0]:
        acc = init
        for k in range(go.i64(offsets[s]), go.i64(offsets[s + 1])):
            acc = op(acc, values[k])
        out[s] = acc


def _identity(op: str, dtype: np.dtype[Any]) -> object:
    if op in ("sum", "prod"):
        return 0 if op == "sum" else 1
    if dtype.kind == "f":
        return np.inf if op == "min" else -np.inf
    info = np.iinfo(dtype)
    return info.max if op == "min" else info.min


@entry_point
def segmented_reduce(values: Operand, offsets: Operand, op: str | DeviceFunction[..., Any],
                     initial: object = None, out: object = None) -> go.Buffer[Any]:  # fmt: skip
    """One reduction per segment (module docstring): ``op`` is ``"sum"``, ``"prod"``,
    ``"min"``, ``"max"`` or a ``@go.func`` of two values of ``values``' dtype (then
    ``initial``, the value of an empty segment, is required). Result: ``values``' dtype
    (as ``reduceat``), ``len(offsets) - 1`` elements."""
    vals = contiguous(as_buffer(values, "segmented_reduce", "values"))
    offs = contiguous(as_buffer(offsets, "segmented_reduce", "offsets"))
    if vals.ndim != 1 or offs.ndim != 1 or offs.shape[0] < 1:
        raise ShapeError(
            "gpuoff.lib.segmented_reduce: values and offsets must be 1-d and offsets non-empty "
            f"(got {tuple(vals.shape)} and {tuple(offs.shape)})"
        )
    if offs.dtype not in (np.int32, np.int64):
        raise DTypeError(
            f"gpuoff.lib.segmented_reduce: offsets must be i32 or i64, not {offs.dtype}"
        )
    dtype = vals.dtype
    if dtype.kind not in "iuf":
        raise DTypeError(f"gpuoff.lib.segmented_reduce: values must be numeric, not {dtype}")
    fn = resolve_op(op, "segmented_reduce")
    if isinstance(op, str):
        init = _identity(op, dtype) if initial is None else initial
    elif initial is None:
        raise DTypeError("gpuoff.lib.segmented_reduce: a @go.func op needs initial= "
                         "(the value of an empty segment)")  # fmt: skip
    else:
        init = initial
    count = offs.shape[0] - 1
    dest = result(out, (count,), dtype, "segmented_reduce")
    if count:
        segments[(count,)](vals, offs, dest, dtype.type(init), fn)
    return dest
