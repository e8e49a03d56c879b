"""``gl.unique``: the sorted distinct elements (``np.unique``), on top of the radix sort.

The elements are sorted by their keys (``sort.sorted_with_bits``: the keys compare as NumPy
does, every NaN one key, -0.0 and +0.0 one key), and the first element of every run of equal
keys is kept: ``_count_runs`` counts the runs that start in each chunk, their offsets are
scanned on the host (the result's length is needed there anyway), ``_write_runs`` copies each
run's first element (and where it starts) to its place, ``_run_lengths`` turns the starts
into counts.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, i64
from gpuoff.lib._common import as_buffer
from gpuoff.lib._views import device_kind, flat, reinterpret
from gpuoff.lib.sort import sorted_with_bits
from gpuoff.runtime.tracebacks import entry_point

K = go.DTypeVar("K", go.u32, go.u64)
U = go.DTypeVar("U", go.u8, go.u16, go.u32, go.u64)


@go.kernel
def _count_runs(keys: Borrow[Array[K]], chunk: i64, runs: BorrowMut[Array[i64]]) -> None:
    """``runs[t]``: how many runs of equal keys start in chunk ``t``."""
    t = go.global_id(0)
    if t < runs.shape[0]:
        n = keys.shape[0]
        start = max(t * chunk, go.i64(0))
        c = go.i64(0)
        for k in range(start, min(start + chunk, n)):
            if k == 0:
                c += 1
            elif k > 0 and k < n:  # always: for the bounds proof
                if keys[k] != keys[k - 1]:
                    c += 1
        runs[t] = c


@go.kernel
def _write_runs(keys: Borrow[Array[K]], bits: Borrow[Array[U]], chunk: i64,
                offs: Borrow[Array[i64]], out: BorrowMut[Array[U]],
                starts: BorrowMut[Array[i64]], with_starts: go.Const[bool]) -> None:  # fmt: skip
    """Chunk ``t`` writes the first element of each run starting in it to ``out`` from
    ``offs[t]`` on (and the run's start to ``starts``)."""
    t = go.global_id(0)
    if t < offs.shape[0]:
        n = keys.shape[0]
        j = offs[t]
        start = max(t * chunk, go.i64(0))
        for k in range(start, min(start + chunk, n)):
            if k >= 0 and k < n:  # always: for the bounds proof
                first = k == 0
                if k > 0:
                    first = keys[k] != keys[k - 1]
                if first:
                    # the host's scan gives every chunk its own range of positions, filled
                    # in order: each written once (the race proof cannot see it)
                    with go.unsafe():
                        out[j] = bits[k]
                        if with_starts:
                            starts[j] = k
                    j += 1


@go.kernel
def _run_lengths(starts: Borrow[Array[i64]], n: i64, counts: BorrowMut[Array[i64]]) -> None:
    """``counts[j]``: the length of run ``j`` (the next start, or ``n``, less its start)."""
    j = go.global_id(0)
    m = starts.shape[0]
    if j < m and j < counts.shape[0]:
        end = n
        if j + 1 < m:
            end = starts[j + 1]
        counts[j] = end - starts[j]


def _rows(n: int) -> int:
    if device_kind() == "cpu":
        return max(1, min(64, -(-n // (1 << 15))))
    return max(1, min(4096, -(-n // 1024)))


@entry_point
def unique(x: object, return_counts: bool = False) -> Any:
    """``np.unique(x, return_counts)``: the sorted distinct elements of the flattened ``x``
    (NaNs count as one, kept last; ``-0.0`` and ``0.0`` as one, the first in input order),
    and with ``return_counts`` how often each occurs (i64), as ``(values, counts)``.

    Synchronises once: the number of distinct elements, which sizes the result, comes back
    to the host.

    >>> gl.unique(np.array([3, 1, 3, 2]))   # [1, 2, 3]
    """
    buf = flat(as_buffer(x, "unique", "x"))
    n = buf.shape[0]
    if n == 0:
        values: go.Buffer[Any] = go.empty(0, buf.dtype)
        return (values, go.empty(0, go.i64)) if return_counts else values
    keys, bits = sorted_with_bits(buf, "unique")
    rows = _rows(n)
    chunk = -(-n // rows)
    runs = go.empty(rows, go.i64)
    _count_runs[(rows,), (1,)](keys, chunk, runs)
    per_chunk = runs.numpy()  # waits: the result's length
    offs = np.zeros(rows, np.int64)
    np.cumsum(per_chunk[:-1], out=offs[1:])
    m = int(per_chunk.sum())
    values = go.empty(m, buf.dtype)
    starts = go.empty(m if return_counts else 1, go.i64)
    out_bits = reinterpret(values, bits.dtype)
    _write_runs[(rows,), (1,)](keys, bits, chunk, go.array(offs), out_bits, starts,
                               bool(return_counts))  # fmt: skip
    if not return_counts:
        return values
    counts = go.empty(m, go.i64)
    _run_lengths[m](starts, n, counts)
    return values, counts
