"""``gl.histogram`` and ``gl.bincount``: counting into bins, privatised.

Both count every element into a private histogram, then add the private histograms up:

- on a CPU (the ``cpu`` backend, an OpenCL CPU device) each work-item owns a contiguous chunk
  of the input and a row of ``partial`` (``_count_rows``): plain increments, no atomics, the
  row stays in the core's cache;
- on a GPU each work-group counts into a ``go.shared`` histogram with shared-memory atomics
  (``_count_shared``, at most ``SHARED_BINS`` bins; more bins take the rows);
- ``_merge`` sums the rows of ``partial`` per bin into the 64-bit result.

The bin of a value is NumPy's (``_bin_of``): uniform bins estimate it as
``(v - lo) / (hi - lo) * nbins`` in the bins' dtype and correct the estimate against the edges,
as ``np.histogram`` does, so both agree on every value at or near an edge; explicit edges are
found by binary search; values outside ``[edges[0], edges[-1]]`` (and NaN) are not counted,
the last bin includes its right edge.
"""

from __future__ import annotations

import operator
from typing import Any, SupportsIndex, cast

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, i32, i64
from gpuoff.errors import DTypeError, ShapeError
from gpuoff.lib._common import as_buffer
from gpuoff.lib._views import InputValueError, contiguous, device_kind, flat, reinterpret
from gpuoff.runtime.tracebacks import entry_point

T = go.DTypeVar("T")
B = go.DTypeVar("B")

UNIFORM = 0
"""``_bin_of`` mode: ``nb`` equal bins between ``edges[0]`` and ``edges[nb]``."""
EDGES = 1
"""``_bin_of`` mode: bins between increasing edges (binary search)."""
INTS = 2
"""``_bin_of`` mode: the value less ``edges[0]`` is its bin (``bincount``)."""

SHARED_BINS = 1024
"""Bins of a work-group's shared histogram in ``_count_shared`` (4 KiB of u32)."""
GROUP = 256
"""Work-items per work-group of ``_count_shared``."""
MAX_ROWS = 64
"""Work-items (chunks) of ``_count_rows``: enough to balance the threads of a CPU."""
MIN_CHUNK = 1 << 14
"""Fewest elements per chunk worth a row of its own (a row is zeroed and merged)."""
PARTIAL_LIMIT = 1 << 24
"""Most ``partial`` counts (rows x bins) to allocate: many bins take fewer rows."""


@go.func
def _bin_of(v: B, lo: B, hi: B, edges: Borrow[Array[B]], mode: go.Const[int]) -> i64:
    """The bin of ``v`` between ``edges`` (``lo``, ``hi``: the first and last), or -1 when it
    is outside them; in mode ``INTS``, ``v - lo``. (The guards on ``b`` always hold: they
    let the bounds proof drop the checks of ``edges[b]``, ``edges[b + 1]``.)"""
    b = go.i64(-1)
    nb = edges.shape[0] - 1
    if mode == INTS:
        b = go.i64(v) - go.i64(lo)
    elif v >= lo and v <= hi:  # False for NaN
        if mode == UNIFORM:
            # np.histogram's estimate, then its correction: the estimate can be one bin
            # off near an edge, the edges decide
            b = go.i64((v - lo) / (hi - lo) * type(v)(nb))
            if b >= nb:
                b = go.i64(nb - 1)
            if b >= 0 and b < nb:
                if v < edges[b]:
                    b -= 1
                elif b < nb - 1 and v >= edges[b + 1]:
                    b += 1
        else:
            # the last j in [0, nb) with edges[j] <= v (v == edges[nb] lands in nb - 1)
            j0 = go.i64(0)
            j1 = nb - 1
            while j0 < j1:
                mid = (j0 + j1 + 1) // 2
                if edges[mid] <= v:
                    j0 = mid
                else:
                    j1 = mid - 1
            b = j0
    return b


@go.kernel
def _count_rows(x: Borrow[Array[T]], edges: Borrow[Array[B]], chunk: i64,
                partial: BorrowMut[Array[i32]], mode: go.Const[int]) -> None:  # fmt: skip
    """Work-item ``t`` counts ``x[t * chunk:(t + 1) * chunk]`` into row ``t`` of ``partial``
    (as many columns as bins)."""
    t = go.global_id(0)
    if t < partial.shape[0]:
        for b in range(partial.shape[1]):
            partial[t, b] = 0
        lo = edges[0]
        hi = edges[edges.shape[0] - 1]
        n = x.shape[0]
        start = max(t * chunk, go.i64(0))  # (>= 0 anyway: says so to LLVM, which drops the
        for k in range(start, min(start + chunk, n)):  # guard below and vectorises)
            if k >= 0 and k < n:  # always: for the bounds proof
                j = _bin_of(type(lo)(x[k]), lo, hi, edges, mode)
                if j >= 0 and j < partial.shape[1]:
                    partial[t, j] += 1


@go.kernel
def _count_shared(x: Borrow[Array[T]], edges: Borrow[Array[B]],
                  partial: BorrowMut[Array[i32]], mode: go.Const[int]) -> None:  # fmt: skip
    """Work-group ``g`` counts its grid-stride share of ``x`` into shared memory with atomics,
    then writes it to row ``g`` of ``partial`` (at most ``SHARED_BINS`` bins). Block:
    ``(GROUP,)``."""
    lid = go.local_id(0)
    g = go.group_id(0)
    local = go.shared(SHARED_BINS, go.u32)
    for b in range(lid, SHARED_BINS, GROUP):
        local[b] = 0
    go.barrier()
    lo = edges[0]
    hi = edges[edges.shape[0] - 1]
    i = go.global_id(0)
    while i < x.shape[0]:
        j = _bin_of(type(lo)(x[i]), lo, hi, edges, mode)
        if j >= 0 and j < SHARED_BINS:
            go.atomic_add(local, j, 1)
        i += go.global_size(0)
    go.barrier()
    for b in range(lid, partial.shape[1], GROUP):
        partial[g, b] = go.i32(local[b])


@go.kernel
def _merge(partial: Borrow[Array[i32]], out: BorrowMut[Array[i64]]) -> None:
    """``out[b] = partial[:, b].sum()``, one work-item per bin."""
    b = go.global_id(0)
    if b < out.shape[0]:
        acc = go.i64(0)
        for t in range(partial.shape[0]):
            acc += partial[t, b]
        out[b] = acc


@go.kernel
def _minmax(x: Borrow[Array[T]], chunk: i64, lo: BorrowMut[Array[T]], hi: BorrowMut[Array[T]],
            nan: BorrowMut[Array[i32]]) -> None:  # fmt: skip
    """The least and greatest element of chunk ``t`` (non-empty), and whether it holds a NaN."""
    t = go.global_id(0)
    n = x.shape[0]
    k = t * chunk
    if t < lo.shape[0] and k >= 0 and k < n:
        stop = min(k + chunk, n)
        a = x[k]
        z = a
        bad = go.i32(0)
        while k < n and k < stop:  # (k < n: for the bounds proof; LLVM merges the two)
            v = x[k]
            if v != v:
                bad = go.i32(1)
            a = min(a, v)
            z = max(z, v)
            k += 1
        lo[t] = a
        hi[t] = z
        nan[t] = bad


def _rows(n: int, nb: int) -> int:
    rows = max(1, min(MAX_ROWS, -(-n // MIN_CHUNK), PARTIAL_LIMIT // max(nb, 1)))
    return max(rows, -(-n // (2**31 - 1)))  # a row counts at most 2^31 - 1 (i32)


def _count(x: go.Buffer[Any], edges: go.Buffer[Any], nb: int, mode: int) -> go.Buffer[Any]:
    """The 64-bit counts of ``x``'s elements in ``nb`` bins (queued, not waited for)."""
    out: go.Buffer[Any] = go.empty(nb, go.i64)
    if nb == 0:
        return out
    n = x.shape[0]
    if device_kind() == "gpu" and nb <= SHARED_BINS:
        groups = max(1, min(256, -(-n // (GROUP * 16))))
        partial = go.empty((groups, nb), go.i32)
        _count_shared[(groups * GROUP,), (GROUP,)](x, edges, partial, mode)
    else:
        rows = _rows(n, nb)
        partial = go.empty((rows, nb), go.i32)
        _count_rows[(rows,), (1,)](x, edges, max(1, -(-n // rows)), partial, mode)
    _merge[nb](partial, out)
    return out


def extrema(x: go.Buffer[Any]) -> tuple[Any, Any, bool]:
    """The least and greatest element of the non-empty 1-d ``x`` (NumPy scalars of its dtype)
    and whether it holds a NaN. Synchronises: the values come back to the host."""
    n = x.shape[0]
    rows = max(1, min(MAX_ROWS, -(-n // MIN_CHUNK)))
    chunk = -(-n // rows)
    rows = -(-n // chunk)  # every chunk non-empty
    lo, hi = go.empty(rows, x.dtype), go.empty(rows, x.dtype)
    nan = go.empty(rows, go.i32)
    _minmax[(rows,), (1,)](x, chunk, lo, hi, nan)
    return lo.numpy().min(), hi.numpy().max(), bool(nan.numpy().any())


def _input(x: object, func: str) -> go.Buffer[Any]:
    buf = flat(as_buffer(x, func, "x"))
    if buf.dtype == np.bool_:
        raise DTypeError(f"gpuoff.lib.{func}: x has dtype bool; it takes numbers")
    return buf


def _uniform_edges(buf: go.Buffer[Any], bins: int, range: Any) -> np.ndarray[Any, Any]:
    """NumPy's edges for ``bins`` equal bins (its own function, on an empty array of ``x``'s
    dtype with the range it would take from the data)."""
    if range is None and buf.size:
        lo, hi, nan = extrema(buf)
        if nan or not (np.isfinite(lo) and np.isfinite(hi)):
            raise ValueError(f"autodetected range of [{lo}, {hi}] is not finite")
        range = (lo, hi)
    return np.histogram_bin_edges(np.empty(0, buf.dtype), bins, range)


@entry_point
def histogram(
    x: object, bins: object = 10, range: tuple[float, float] | None = None
) -> tuple[go.Buffer[i64], go.Buffer[Any]]:
    """``np.histogram(x, bins, range)``: the counts (i64) of the flattened ``x`` in ``bins``
    equal bins over ``range`` (default: ``x``'s least to greatest element), or between the
    increasing edges ``bins`` (an array), and the edges as a buffer (NumPy's dtype).

    Values outside the range and NaN are not counted; every bin is half-open but the last,
    which includes its right edge. ``range=None`` with equal bins synchronises (the least and
    greatest element come back to the host to make the edges); otherwise nothing waits.

    >>> counts, edges = gl.histogram(x, 256, (0.0, 1.0))
    """
    buf = _input(x, "histogram")
    if isinstance(bins, str):
        raise DTypeError(f"gpuoff.lib.histogram: bins={bins!r}: only a number of bins or an "
                         "array of edges is supported")  # fmt: skip
    if isinstance(bins, go.Buffer):
        bins = bins.numpy()
    if np.ndim(cast(Any, bins)) == 0:
        if isinstance(bins, bool) or not isinstance(bins, SupportsIndex):
            raise DTypeError(f"gpuoff.lib.histogram: bins must be an int or an array of "
                             f"edges, not {type(bins).__name__}")  # fmt: skip
        edges = _uniform_edges(buf, operator.index(bins), range)
        mode, kernel_edges = UNIFORM, edges
    else:
        edges = np.asarray(bins)
        if edges.ndim != 1:
            raise ShapeError(f"gpuoff.lib.histogram: bins must be 1-d when an array, not "
                             f"of shape {edges.shape}")  # fmt: skip
        np.histogram_bin_edges(np.empty(0, buf.dtype), edges)  # NumPy's checks, its errors
        mode, kernel_edges = EDGES, edges.astype(np.result_type(buf.dtype, edges.dtype))
    nb = max(edges.shape[0] - 1, 0)
    counts = _count(buf, go.array(kernel_edges), nb, mode)
    return counts, go.array(edges)


@entry_point
def bincount(x: object, minlength: int = 0) -> go.Buffer[i64]:
    """``np.bincount(x, minlength)``: how often each value ``0 .. max(x)`` occurs in the
    non-negative integers ``x`` (1-d), at least ``minlength`` counts (i64).

    Synchronises: the result's length is ``max(x) + 1``, which comes back to the host (and a
    negative value is refused, ``ValueError`` as NumPy raises).

    >>> gl.bincount(np.array([0, 1, 1, 3]))   # [1, 2, 0, 1]
    """
    buf = as_buffer(x, "bincount", "x")
    if buf.ndim != 1:
        raise ShapeError(f"gpuoff.lib.bincount: x must be 1-d, not of shape {buf.shape}")
    if not (buf.dtype == np.bool_ or np.issubdtype(buf.dtype, np.integer)) or (
        buf.dtype == np.uint64
    ):
        raise DTypeError(f"gpuoff.lib.bincount: x has dtype {buf.dtype}; it takes integers "
                         "that int64 holds (NumPy's 'safe' cast)")  # fmt: skip
    if isinstance(minlength, bool) or not isinstance(minlength, int | np.integer):
        raise DTypeError(f"gpuoff.lib.bincount: minlength must be an int, not {minlength!r}")
    if minlength < 0:
        raise InputValueError("gpuoff.lib.bincount: minlength must be non-negative")
    if buf.size == 0:
        return go.zeros(int(minlength), go.i64)
    if buf.dtype == np.bool_:  # counted as the bytes 0 and 1 (min/max take no bools)
        buf = reinterpret(buf if contiguous(buf) else buf.copy(), np.dtype(np.uint8))
    if buf.dtype.itemsize <= 2:
        return _bincount_small(buf, int(minlength))
    lo, hi, _ = extrema(buf)
    if lo < 0:
        raise InputValueError("gpuoff.lib.bincount: x must have no negative elements "
                              f"(its least is {lo})")  # fmt: skip
    nb = max(int(minlength), int(hi) + 1)
    return _count(buf, go.zeros(2, go.i64), nb, INTS)


def _bincount_small(buf: go.Buffer[Any], minlength: int) -> go.Buffer[i64]:
    """``bincount`` of 8- and 16-bit integers in one pass: every value of the dtype has a bin
    (the least at 0), and the counts come back to the host to find the last one and any
    negative value."""
    info = np.iinfo(buf.dtype)
    width = int(info.max) - int(info.min) + 1
    counts = _count(buf, go.array(np.array([int(info.min), 0], np.int64)), width, INTS).numpy()
    if counts[: -int(info.min)].any():
        least = int(np.flatnonzero(counts)[0]) + int(info.min)
        raise InputValueError("gpuoff.lib.bincount: x must have no negative elements "
                              f"(its least is {least})")  # fmt: skip
    counts = counts[-int(info.min):]
    used = int(np.flatnonzero(counts)[-1]) + 1
    out = np.zeros(max(used, minlength), np.int64)
    out[:used] = counts[:used]
    return go.array(out)
