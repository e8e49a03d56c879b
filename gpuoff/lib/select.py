"""Stream compaction: ``gl.compress(mask, x)`` (``x[mask]``) and ``gl.nonzero(x)``
(``np.nonzero``), on top of the scans' chunked two-pass structure.

1. ``blocks`` counts the selected elements of every full chunk (``width`` partial counts per
   chunk, vectorised), as in ``gl.cumsum``;
2. ``select_offsets`` turns the counts into each chunk's first output position, and counts
   the last, partial chunk itself: ``offs[chunks]`` is the number of results;
3. the host reads that number to allocate the result -- **both functions synchronise**: they
   wait for the kernels queued before them and for their own first two launches (a result's
   size must be known before it exists, as for NumPy's boolean indexing);
4. ``compact`` / ``compact_indices``: one work-item per chunk walks it from its offset and
   writes the selected elements (or their indices) in order.

The result keeps C order (``x[mask]``'s order), whatever the number of threads.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Const, i64, u8
from gpuoff.errors import DTypeError, ShapeError
from gpuoff.lib import _reduce_kernels as K
from gpuoff.lib._common import Operand, as_buffer
from gpuoff.lib._shapes import as_uint8, c_strides, contiguous, reshaped
from gpuoff.lib.scan import scan_geometry
from gpuoff.runtime.tracebacks import entry_point

__all__ = ["compress", "nonzero"]

T = go.DTypeVar("T")


@go.kernel
def select_offsets(mask: Borrow[Array[u8]], part: Borrow[Array[i64]], offs: BorrowMut[Array[i64]],
                   width: Const[int], chunk: Const[int]) -> None:  # fmt: skip
    """``offs[c]``: selected elements before chunk ``c`` (from ``blocks``' partial counts of
    the full chunks); ``offs[chunks]``: all of them (the partial chunk counted here). One
    work-item. Grid ``(1,)``."""
    if go.global_id(0) == 0:
        n = mask.shape[1]
        full = part.shape[1] // width
        acc = go.i64(0)
        for c in range(full):
            offs[c] = acc
            for lane in range(width):
                acc += part[0, c * width + lane]
        if full < offs.shape[0] - 1:
            offs[full] = acc
            for k in range(full * chunk, n):
                acc += go.i64(mask[0, k] != 0)
        offs[offs.shape[0] - 1] = acc


@go.kernel
def compact(mask: Borrow[Array[u8]], x: Borrow[Array[T]], out: BorrowMut[Array[T]],
            offs: Borrow[Array[i64]], chunk: Const[int]) -> None:  # fmt: skip
    """Chunk ``c``'s selected elements of ``x``, in order, from ``out[offs[c]]``. Grid
    ``(chunks,)``, block ``(1,)``."""
    c = go.global_id(0)
    if c < offs.shape[0] - 1:
        pos = offs[c]
        for k in range(c * chunk, min(x.shape[1], (c + 1) * chunk)):
            if mask[0, k] != 0:
                with go.unsafe():  # positions are an exclusive scan of the mask: one writer each
                    out[pos] = x[0, k]
                pos += 1


@go.kernel
def flags(x: Borrow[Array[T]], out: BorrowMut[Array[u8]]) -> None:
    """``out[0, k] = x[0, k] != 0``. Grid ``(n, 1)``."""
    k = go.global_id(0)
    if k < x.shape[1]:
        out[0, k] = u8(x[0, k] != 0)


@go.kernel
def compact_indices(mask: Borrow[Array[u8]], out: BorrowMut[Array[i64]],
                    dims: Borrow[Array[i64]], offs: Borrow[Array[i64]],
                    chunk: Const[int]) -> None:  # fmt: skip
    """``out[d, p]``: coordinate ``d`` of the ``p``-th selected element of the flattened
    array (``dims[d] = (shape[d], C stride[d])``), chunk by chunk as ``compact``."""
    c = go.global_id(0)
    if c < offs.shape[0] - 1:
        pos = offs[c]
        for k in range(c * chunk, min(mask.shape[1], (c + 1) * chunk)):
            if mask[0, k] != 0:
                for d in range(out.shape[0]):
                    with go.unsafe():  # one writer per position, as in ``compact``
                        out[d, pos] = (k // dims[d, 1]) % dims[d, 0]
                pos += 1


def _positions(mask2: go.Buffer[Any]) -> tuple[go.Buffer[Any], int, int]:
    """(chunk offsets with the total last, the total -- read on the host, chunk size)."""
    n = mask2.shape[1]
    width, items = scan_geometry()
    chunk = width * items
    full = n // chunk
    chunks = max(1, -(-n // chunk))
    part = go.empty((1, full * width), np.int64)
    if full:
        K.blocks[(full * width, 1), (width, 1)](mask2, part, np.int64(0), K.add, width, items)
    offs = go.empty(chunks + 1, np.int64)
    select_offsets[(1,)](mask2, part, offs, width, chunk)
    total = int(offs[chunks])  # the one wait: the result's size
    return offs, total, chunk


@entry_point
def compress(mask: Operand, x: Operand) -> go.Buffer[Any]:
    """``x[mask]`` for a bool ``mask`` of ``x``'s shape: the selected elements in C order, a
    new 1-d buffer. **Synchronises** (the number of results is read on the host)."""
    m = as_buffer(mask, "compress", "mask")
    xb = as_buffer(x, "compress", "x")
    if m.dtype != np.bool_:
        raise DTypeError(f"gpuoff.lib.compress: mask must be bool, not {m.dtype}")
    if tuple(m.shape) != tuple(xb.shape):
        raise ShapeError(
            f"gpuoff.lib.compress: mask has shape {tuple(m.shape)}, x has {tuple(xb.shape)}"
        )
    n = xb.size
    if n == 0:
        return go.empty(0, xb.dtype)
    m2 = reshaped(as_uint8(contiguous(m)), (1, n), "compress")
    x2 = reshaped(contiguous(xb), (1, n), "compress")
    offs, total, chunk = _positions(m2)
    out = go.empty(total, xb.dtype)
    if total:
        compact[(offs.shape[0] - 1,), (1,)](m2, as_uint8(x2), as_uint8(out), offs, chunk)
    return out


@entry_point
def nonzero(x: Operand) -> tuple[go.Buffer[Any], ...]:
    """``np.nonzero(x)``: one i64 buffer of indices per dimension of ``x`` (C order), views
    of one ``(ndim, count)`` buffer. **Synchronises**, as :func:`compress`."""
    xb = as_buffer(x, "nonzero", "x")
    if xb.ndim == 0:
        raise ShapeError("gpuoff.lib.nonzero: x must have at least one dimension (as NumPy's)")
    n = xb.size
    shape = tuple(xb.shape)
    if n == 0:
        return _no_indices(xb.ndim)
    x2 = reshaped(as_uint8(contiguous(xb)), (1, n), "nonzero")
    if x2.dtype == np.uint8 and xb.dtype == np.bool_:
        m2 = x2
    else:
        m2 = go.empty((1, n), np.uint8)
        flags[(n, 1)](x2, m2)
    offs, total, chunk = _positions(m2)
    dims = go.array(np.array(list(zip(shape, c_strides(shape), strict=True)), np.int64))
    if total == 0:
        return _no_indices(xb.ndim)
    out = go.empty((xb.ndim, total), np.int64)
    compact_indices[(offs.shape[0] - 1,), (1,)](m2, out, dims, offs, chunk)
    return tuple(out[d] for d in range(xb.ndim))


def _no_indices(ndim: int) -> tuple[go.Buffer[Any], ...]:
    # separate empty buffers: rows of an (ndim, 0) buffer share one zero-byte storage
    return tuple(go.empty(0, np.int64) for _ in range(ndim))
