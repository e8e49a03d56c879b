"""``gl.sort``, ``gl.argsort``, ``gl.sort_pairs``: a stable LSD radix sort, as
``np.sort(kind="stable")`` / ``np.argsort(kind="stable")`` order.

Every dtype sorts as unsigned integer keys (``_to_keys``): an unsigned integer as it is, a
signed one with its sign bit flipped, a float with the usual transform (negative: every bit
flipped; positive: the sign bit set) after two corrections that make the order NumPy's: every
NaN becomes the greatest key (NaN last, in input order; NumPy's sort does not look at a NaN's
sign or payload) and -0.0 becomes +0.0's key (NumPy's comparisons find them equal, so a stable
sort keeps their input order). The keys of 8- to 32-bit dtypes are u32, of 64-bit ones u64.

Each pass sorts by one 8-bit digit, least significant first (one pass per byte of the dtype):

1. ``_digit_counts``: work-item ``t`` counts the digits of its chunk of the keys into row ``t``
   of ``counts`` (a private histogram, then copied out);
2. ``_scan_digits``: one work-item per digit scans its column of ``counts`` over the chunks
   (the exclusive prefix, ``offs``) and writes the digit's total;
3. ``_scatter``: work-item ``t`` starts digit ``d`` at ``sum(totals[:d]) + offs[t, d]`` and
   writes its chunk's keys (and values) there in order, so equal digits keep their order: the
   pass is stable, hence the sort.

Chunks are what the CPU wants (a few per core, each streamed sequentially); a GPU gets many
small chunks from the same kernels (``_rows``), correct but without the work-group-local
sorting a GPU radix sort would do.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, i64
from gpuoff.errors import DTypeError, ShapeError
from gpuoff.lib._common import as_buffer
from gpuoff.lib._views import contiguous, device_kind, flat, reinterpret, reshaped
from gpuoff.runtime.tracebacks import entry_point

U = go.DTypeVar("U", go.u8, go.u16, go.u32, go.u64)
K = go.DTypeVar("K", go.u32, go.u64)
V = go.DTypeVar("V")

RADIX = 256
"""Values of one digit (8 bits)."""

UNSIGNED = 0
"""``_to_keys`` kind: the bits are the key."""
SIGNED = 1
"""``_to_keys`` kind: the sign bit flipped."""
FLOAT = 2
"""``_to_keys`` kind: the float transform, NaN greatest, -0.0 as +0.0."""

KEYS_ONLY = 0
"""``_scatter`` mode: keys only."""
PAIRS = 1
"""``_scatter`` mode: each key's value moves with it."""
INDICES = 2
"""``_scatter`` mode: each key's position in the input moves with it (``argsort``)."""


@go.kernel
def _to_keys(bits: Borrow[Array[U]], keys: BorrowMut[Array[K]], sign: K, inf: K,
             kind: go.Const[int]) -> None:  # fmt: skip
    """``keys[i]``: the key of the element whose bits are ``bits[i]`` (``sign``: its dtype's
    sign bit, ``inf``: a float dtype's infinity)."""
    i = go.global_id(0)
    if i < bits.shape[0] and i < keys.shape[0]:
        b = type(sign)(bits[i])
        key = b
        if kind == SIGNED:
            key = b ^ sign
        elif kind == FLOAT:
            magnitude = b & (sign - 1)
            if magnitude > inf:
                key = sign | (sign - 1)  # NaN: the greatest key
            elif magnitude == 0:
                key = sign  # -0.0 sorts as +0.0
            elif (b & sign) != 0:
                key = (sign | (sign - 1)) ^ b
            else:
                key = b | sign
        keys[i] = key


@go.kernel
def _from_keys(keys: Borrow[Array[K]], bits: BorrowMut[Array[U]], flip: K) -> None:
    """The inverse of ``_to_keys`` for integers: ``bits[i] = keys[i] ^ flip``."""
    i = go.global_id(0)
    if i < bits.shape[0] and i < keys.shape[0]:
        bits[i] = keys[i] ^ flip


@go.kernel
def _digit_counts(keys: Borrow[Array[K]], shift: i64, chunk: i64,
                  counts: BorrowMut[Array[i64]]) -> None:  # fmt: skip
    """Row ``t`` of ``counts``: how many keys of chunk ``t`` have each digit at ``shift``."""
    t = go.global_id(0)
    if t < counts.shape[0] and counts.shape[1] == RADIX:
        local = go.local_array(RADIX, go.i64)
        n = keys.shape[0]
        start = max(t * chunk, go.i64(0))
        for k in range(start, min(start + chunk, n)):
            if k >= 0 and k < n:  # always: for the bounds proof
                v = keys[k]
                local[go.i64((v >> type(v)(shift)) & 255)] += 1
        for d in range(RADIX):
            counts[t, d] = local[d]


@go.kernel
def _scan_digits(counts: Borrow[Array[i64]], offs: BorrowMut[Array[i64]],
                 totals: BorrowMut[Array[i64]]) -> None:  # fmt: skip
    """Work-item ``d``: ``offs[t, d] = counts[:t, d].sum()`` and ``totals[d]``."""
    d = go.global_id(0)
    if d < counts.shape[1] and d < offs.shape[1] and d < totals.shape[0]:
        acc = go.i64(0)
        for t in range(min(counts.shape[0], offs.shape[0])):
            offs[t, d] = acc
            acc += counts[t, d]
        totals[d] = acc


@go.kernel
def _scatter(keys: Borrow[Array[K]], vals: Borrow[Array[V]], shift: i64, chunk: i64,
             offs: Borrow[Array[i64]], totals: Borrow[Array[i64]], keys_out: BorrowMut[Array[K]],
             vals_out: BorrowMut[Array[V]], mode: go.Const[int]) -> None:  # fmt: skip
    """Work-item ``t`` moves the keys of its chunk (and their values) to their places for the
    digit at ``shift``, in order."""
    t = go.global_id(0)
    if t < offs.shape[0] and offs.shape[1] == RADIX and totals.shape[0] == RADIX:
        pos = go.local_array(RADIX, go.i64)
        base = go.i64(0)
        for d in range(RADIX):
            pos[d] = base + offs[t, d]
            base += totals[d]
        n = keys.shape[0]
        start = max(t * chunk, go.i64(0))
        for k in range(start, min(start + chunk, n)):
            if k >= 0 and k < n:  # always: for the bounds proof
                v = keys[k]
                d = go.i64((v >> type(v)(shift)) & 255)
                p = pos[d]
                pos[d] = p + 1
                # The scan gives every (digit, chunk) its own range of positions, which the
                # chunk fills in order: each position is written once (a permutation the race
                # proof cannot see).
                with go.unsafe():
                    keys_out[p] = v
                    if mode == PAIRS:
                        vals_out[p] = vals[k]
                    elif mode == INDICES:
                        vals_out[p] = k


def _rows(n: int) -> int:
    """Chunks of a pass: a few per CPU core; many on a GPU (one work-item each)."""
    if device_kind() == "cpu":
        return max(1, min(64, -(-n // (1 << 15))))
    return max(1, min(4096, -(-n // 1024)))


def _key_of(dtype: np.dtype[Any], func: str) -> tuple[np.dtype[Any], int, int, int]:
    """(the unsigned dtype of the bits, the kind, the sign bit, the infinity's bits)."""
    if dtype == np.bool_:
        return np.dtype(np.uint8), UNSIGNED, 0, 0
    bits = np.dtype(f"u{dtype.itemsize}")
    sign = 1 << (8 * dtype.itemsize - 1)
    if np.issubdtype(dtype, np.unsignedinteger):
        return bits, UNSIGNED, sign, 0
    if np.issubdtype(dtype, np.signedinteger):
        return bits, SIGNED, sign, 0
    if np.issubdtype(dtype, np.floating):
        inf = int(np.array(np.inf, dtype).view(bits))
        return bits, FLOAT, sign, inf
    raise DTypeError(f"gpuoff.lib.{func}: keys have dtype {dtype}; it sorts numbers")


def _radix(keys: go.Buffer[Any], vals: go.Buffer[Any] | None, mode: int, passes: int,
           ) -> tuple[go.Buffer[Any], go.Buffer[Any] | None]:  # fmt: skip
    """``keys`` (u32/u64) stably sorted by their low ``passes`` bytes, with ``vals`` (or the
    positions, ``INDICES``) moved alike."""
    n = keys.shape[0]
    rows = _rows(n)
    chunk = -(-n // rows)
    counts = go.empty((rows, RADIX), go.i64)
    offs = go.empty((rows, RADIX), go.i64)
    totals = go.empty(RADIX, go.i64)
    # ping-pong: pass p reads side p % 2 and writes the other
    key_sides = [keys, go.empty(n, keys.dtype)]
    val_sides: list[go.Buffer[Any]]
    if mode == KEYS_ONLY:
        val_sides = [go.empty(1, go.u8), go.empty(1, go.u8)]
    elif mode == INDICES:  # the first pass writes the positions, the next ones move them
        val_sides = [go.empty(1, go.i64), go.empty(n, go.i64)]
    else:
        assert vals is not None
        val_sides = [vals, go.empty(n, vals.dtype)]
    for p in range(passes):
        src, dst = p % 2, 1 - p % 2
        _digit_counts[(rows,), (1,)](key_sides[src], 8 * p, chunk, counts)
        _scan_digits[RADIX](counts, offs, totals)
        step = mode
        if mode == INDICES and p > 0:
            step = PAIRS
            if p == 1:
                val_sides[dst] = go.empty(n, go.i64)  # the positions' ping-pong partner
        _scatter[(rows,), (1,)](key_sides[src], val_sides[src], 8 * p, chunk, offs, totals,
                                key_sides[dst], val_sides[dst], step)  # fmt: skip
    return key_sides[passes % 2], (None if mode == KEYS_ONLY else val_sides[passes % 2])


def _prepare(x: object, func: str, name: str = "keys") -> tuple[go.Buffer[Any], Any]:
    """The 1-d input, its key dtype, kind, sign and infinity (``_key_of``)."""
    buf = as_buffer(x, func, name)
    if buf.ndim != 1:
        raise ShapeError(f"gpuoff.lib.{func}: {name} must be 1-d, not of shape "
                         f"{buf.shape}")  # fmt: skip
    return buf, _key_of(buf.dtype, func)


def _keys(buf: go.Buffer[Any], info: Any) -> go.Buffer[Any]:
    bits_dtype, kind, sign, inf = info
    if not contiguous(buf):
        buf = buf.copy()
    bits = reinterpret(buf, bits_dtype)
    kdt = np.dtype(np.uint64) if bits_dtype.itemsize == 8 else np.dtype(np.uint32)
    keys = go.empty(buf.shape[0], kdt)
    if buf.shape[0]:
        _to_keys[buf.shape[0]](bits, keys, kdt.type(sign), kdt.type(inf), kind)
    return keys


def _axis_input(keys: object, axis: int | None, func: str,
                ) -> tuple[go.Buffer[Any], tuple[int, ...] | None]:  # fmt: skip
    """The keys as a 1-d buffer, and the shape to sort along its last axis (None: sort the
    whole 1-d buffer)."""
    buf = as_buffer(keys, func, "keys")
    if axis is None:
        return flat(buf), None
    ndim = buf.ndim
    if ndim == 0:
        raise ShapeError(f"gpuoff.lib.{func}: keys is 0-d; axis=-1 needs an axis (axis=None "
                         "sorts it flattened)")  # fmt: skip
    if isinstance(axis, bool) or not isinstance(axis, int) or axis not in (-1, ndim - 1):
        raise ShapeError(f"gpuoff.lib.{func}: axis must be -1 (the last axis) or None "
                         f"(flattened), not {axis!r}")  # fmt: skip
    if buf.ndim <= 1:
        return flat(buf), None
    return flat(buf), tuple(buf.shape)


def _row_order(buf: go.Buffer[Any], info: Any, cols: int) -> go.Buffer[Any]:
    """The positions that sort each row of ``cols`` keys of the flat ``buf`` (stably): the
    keys sorted as one array, then the positions sorted stably by their row."""
    n = buf.shape[0]
    _, idx = _radix(_keys(buf, info), None, INDICES, buf.dtype.itemsize)
    assert idx is not None
    rows = n // cols
    if rows <= 1:
        return idx
    wide = rows - 1 >= 2**32
    row_keys = go.empty(n, go.u64 if wide else go.u32)
    _row_keys[n](idx, cols, row_keys)
    passes = max(1, ((rows - 1).bit_length() + 7) // 8)
    _, by_row = _radix(row_keys, idx, PAIRS, passes)
    assert by_row is not None
    return by_row


@go.kernel
def _row_keys(idx: Borrow[Array[i64]], cols: i64, keys: BorrowMut[Array[K]]) -> None:
    """``keys[i]``: the row of position ``idx[i]`` (rows of ``cols``)."""
    i = go.global_id(0)
    if i < idx.shape[0] and i < keys.shape[0]:
        keys[i] = idx[i] // cols


@go.kernel
def _column_of(idx: Borrow[Array[i64]], cols: i64, out: BorrowMut[Array[i64]]) -> None:
    """``out[i]``: the column of position ``idx[i]`` (rows of ``cols``)."""
    i = go.global_id(0)
    if i < idx.shape[0] and i < out.shape[0]:
        out[i] = idx[i] % cols


@entry_point
def sort(keys: object, axis: int | None = -1) -> go.Buffer[Any]:
    """``np.sort(keys, axis, kind="stable")``: along the last axis (each row of an N-d array
    on its own) or, ``axis=None``, of the flattened array; a new buffer of the same dtype,
    ascending, NaN last. Nothing waits.

    >>> gl.sort(np.array([3, 1, 2], np.uint32))   # [1, 2, 3]
    """
    flat_keys, shape = _axis_input(keys, axis, "sort")
    buf, info = _prepare(flat_keys, "sort")
    n = buf.shape[0]
    out: go.Buffer[Any] = go.empty(n, buf.dtype)
    if n == 0 or shape is not None:
        if n and shape is not None:
            _gather[n](_bits(buf), _row_order(buf, info, shape[-1]), _bits(out))
        return out if shape is None else reshaped(out, shape)
    bits_dtype, kind, sign, _ = info
    passes = buf.dtype.itemsize
    if kind == FLOAT:  # the keys lose -0.0 and NaN payloads: move the bits with them
        src = buf if contiguous(buf) else buf.copy()
        _, moved = _radix(_keys(buf, info), reinterpret(src, bits_dtype), PAIRS, passes)
        assert moved is not None
        bits_out = reinterpret(out, bits_dtype)
        _copy[n](moved, bits_out)
        return out
    sorted_keys, _ = _radix(_keys(buf, info), None, KEYS_ONLY, passes)
    flip = sign if kind == SIGNED else 0
    _from_keys[n](sorted_keys, reinterpret(out, bits_dtype), sorted_keys.dtype.type(flip))
    return out


@go.kernel
def _copy(src: Borrow[Array[V]], dst: BorrowMut[Array[V]]) -> None:
    i = go.global_id(0)
    if i < src.shape[0] and i < dst.shape[0]:
        dst[i] = src[i]


@entry_point
def argsort(keys: object, axis: int | None = -1) -> go.Buffer[i64]:
    """``np.argsort(keys, axis, kind="stable")`` along the last axis or, ``axis=None``, of
    the flattened array: the positions (i64) that sort ``keys``, equal keys in input order.
    Nothing waits.

    >>> gl.argsort(np.array([3.0, 1.0, 3.0]))   # [1, 0, 2]
    """
    flat_keys, shape = _axis_input(keys, axis, "argsort")
    buf, info = _prepare(flat_keys, "argsort")
    n = buf.shape[0]
    if shape is not None:
        cols: go.Buffer[Any] = go.empty(n, go.i64)
        if n:
            _column_of[n](_row_order(buf, info, shape[-1]), shape[-1], cols)
        return reshaped(cols, shape)
    if n == 0:
        return go.empty(0, go.i64)
    _, idx = _radix(_keys(buf, info), None, INDICES, buf.dtype.itemsize)
    assert idx is not None
    return idx


@entry_point
def sort_pairs(keys: object, values: object) -> tuple[go.Buffer[Any], go.Buffer[Any]]:
    """``keys`` sorted stably (as ``gl.sort``) and ``values`` in the same order:
    ``(np.sort(keys, kind="stable"), values[np.argsort(keys, kind="stable")])``, both 1-d
    and of one length. Nothing waits.

    >>> k, v = gl.sort_pairs(np.array([2, 1]), np.array([10.0, 20.0]))   # [1, 2], [20, 10]
    """
    buf, info = _prepare(keys, "sort_pairs")
    vals = as_buffer(values, "sort_pairs", "values")
    if vals.shape != buf.shape:
        raise ShapeError(f"gpuoff.lib.sort_pairs: values has shape {vals.shape}, keys "
                         f"{buf.shape}: they must have one shape (1-d)")  # fmt: skip
    n = buf.shape[0]
    if n == 0:
        return go.empty(0, buf.dtype), go.empty(0, vals.dtype)
    passes = buf.dtype.itemsize
    # the values travel with the positions: one extra gather, and any dtype of values
    _, idx = _radix(_keys(buf, info), None, INDICES, passes)
    assert idx is not None
    keys_out: go.Buffer[Any] = go.empty(n, buf.dtype)
    vals_out: go.Buffer[Any] = go.empty(n, vals.dtype)
    _gather[n](_bits(buf), idx, _bits(keys_out))
    _gather[n](_bits(vals), idx, _bits(vals_out))
    return keys_out, vals_out


def _bits(buf: go.Buffer[Any]) -> go.Buffer[Any]:
    """The elements' bits (moving them needs no arithmetic of their dtype: an f16 moves on a
    device without half precision)."""
    if not contiguous(buf):
        buf = buf.copy()
    return reinterpret(buf, np.dtype(f"u{buf.dtype.itemsize}"))


@go.kernel
def _gather(src: Borrow[Array[V]], idx: Borrow[Array[i64]], dst: BorrowMut[Array[V]]) -> None:
    """``dst[i] = src[idx[i]]``."""
    i = go.global_id(0)
    if i < idx.shape[0] and i < dst.shape[0]:
        dst[i] = src[idx[i]]


def sorted_with_bits(buf: go.Buffer[Any], func: str) -> tuple[go.Buffer[Any], go.Buffer[Any]]:
    """The keys of the non-empty 1-d ``buf`` sorted stably and its elements' bits (unsigned,
    of the element's size) in the same order: what ``gl.unique`` compares and returns."""
    info = _key_of(buf.dtype, func)
    src = buf if contiguous(buf) else buf.copy()
    keys, bits = _radix(_keys(src, info), reinterpret(src, info[0]), PAIRS, buf.dtype.itemsize)
    assert bits is not None
    return keys, bits
