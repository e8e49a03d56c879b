"""Dense linear algebra: ``gl.matmul``, ``gl.gemm``, ``gl.transpose``.

The product is computed the way BLAS libraries do on CPUs (GotoBLAS, BLIS): both operands
are first *packed* into panels, ``a`` into row panels of ``mr`` rows stored k-major
(``ap[batch, p, k, r] = a[batch, p * mr + r, k]``) and ``b`` into column panels of ``nr``
columns (``bp[batch, q, k, j] = b[batch, k, q * nr + j]``), zero-padded past the edges. Then
each work-item of the micro-kernel computes one ``mr x nr`` block of the product over one
slab of ``kc`` values of ``k``: its ``mr * nr`` accumulators stay in registers, each step of
``k`` reads ``mr`` values of ``a`` and ``nr`` contiguous values of ``b`` (``nr`` is a
multiple of the vector width, so the ``nr`` multiply-adds of a row are vector FMAs), and the
block is written, contiguous and unguarded, into a packed result ``cp``. Slabs of ``k`` keep
one panel of ``b`` (``kc * nr`` values) in L1 while the panels of ``a`` stream past it;
later slabs add to ``cp``. A last kernel writes ``c = alpha * cp + beta * c`` through
``c``'s strides. Packing also makes transposed operands (``gemm``'s ``trans_a`` and
``trans_b``), broadcast batches (stride 0) and mixed f32/f64 inputs free: they are read
through their strides once, in the packing kernels.

The summation order is fixed: per element, ``k`` ascending within a slab (fused
multiply-adds), slabs added in order.
"""


from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut
from gpuoff.errors import DTypeError, ShapeError
from gpuoff.lib._common import Operand, as_buffer, result
from gpuoff.lib._layout import elem_strides, strided
from gpuoff.runtime.buffer import Buffer
from gpuoff.runtime.devices import current_device
from gpuoff.runtime.tracebacks import entry_point

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


@dataclass(frozen=True)
class Tiling:
    """One variant of the product: the micro-kernel's block (``mr`` rows, ``nr`` columns)
    and the slab of ``k`` (``kc``)."""

    mr: int
    nr: int
    kc: int
    lanes: bool = False
    """False: one work-item computes the whole block, vectorised along its ``nr`` columns
    (gpuoff's cpu). True: ``nr`` work-items of a group each compute one column of the block
    (``mr`` accumulators), so the device vectorises across them (OpenCL's CPU compilers) or
    its threads read ``b``'s row coalesced (GPUs)."""


VARIANTS: dict[str, tuple[Tiling, ...]] = {
    # first = default; nr = two vectors of AVX2 (8 f32 or 4 f64), 12 accumulators of 16
    "float32": (Tiling(6, 16, 256), Tiling(4, 16, 256), Tiling(4, 24, 256), Tiling(8, 8, 256)),
    "float64": (Tiling(6, 8, 256), Tiling(4, 8, 256), Tiling(4, 12, 256)),
}
"""The tilings each dtype declares for gpuoff's cpu (the first is the default)."""

LANE_VARIANTS: dict[str, tuple[Tiling, ...]] = {
    "float32": (Tiling(8, 16, 256, True), Tiling(6, 16, 256, True), Tiling(8, 32, 256, True)),
    "float64": (Tiling(8, 16, 256, True), Tiling(4, 16, 256, True)),
}
"""The tilings for every other device (OpenCL, CUDA): one column per work-item."""


F = go.DTypeVar("F", go.f32, go.f64)
"""The dtype of the product (and of the packed panels)."""
S = go.DTypeVar("S", go.f32, go.f64)
"""The dtype of an operand before packing (float32 operands of a float64 product)."""


@functools.cache
def _packers(mr: int, nr: int) -> tuple[Any, Any]:
    """The two packing kernels for ``mr``-row and ``nr``-column panels."""
    rows = tuple(range(mr))
    cols = tuple(range(nr))

    @go.kernel
    def pack_a(a: Borrow[Array[S]], ap: BorrowMut[Array[F]]) -> None:
        """``ap[bi, p, k, r] = a[bi, p * mr + r, k]``, zero past ``a``'s last row; grid
        ``(K, panels, batch)``."""
        k = go.global_id(0)
        p = go.global_id(1)
        bi = go.global_id(2)
        if k < ap.shape[2] and p < ap.shape[1]:
            for r in rows:
                v = type(ap[0, 0, 0, 0])(0.0)
                if p * mr + r < a.shape[1]:
                    v = type(ap[0, 0, 0, 0])(a[bi, p * mr + r, k])
                ap[bi, p, k, r] = v

    @go.kernel
    def pack_b(b: Borrow[Array[S]], bp: BorrowMut[Array[F]]) -> None:
        """``bp[bi, q, k, j] = b[bi, k, q * nr + j]``, zero past ``b``'s last column; grid
        ``(panels, K, batch)``."""
        q = go.global_id(0)
        k = go.global_id(1)
        bi = go.global_id(2)
        if q < bp.shape[1] and k < bp.shape[2]:
            for j in cols:
                v = type(bp[0, 0, 0, 0])(0.0)
                if q * nr + j < b.shape[2]:
                    v = type(bp[0, 0, 0, 0])(b[bi, k, q * nr + j])
                bp[bi, q, k, j] = v

    return pack_a, pack_b


@functools.cache
def _product(mr: int, nr: int) -> tuple[Any, Any]:
    """The micro-kernel and the unpacking kernel for ``mr x nr`` blocks."""
    rows = tuple(range(mr))
    cols = tuple(range(nr))
    pairs = mr * nr // 2

    @go.kernel
    def micro(
        ap: Borrow[Array[F]], bp: Borrow[Array[F]], cp: BorrowMut[Array[F]],
        k0: int, k1: int, first: int,
    ) -> None:  # fmt: skip
        """``cp[bi, p, q] (+)= ap[bi, p, k0:k1] @ bp[bi, q, k0:k1]`` (an ``mr x nr`` block,
        row-major); grid ``(row panels, column panels, batch)``."""
        p = go.global_id(0)
        q = go.global_id(1)
        bi = go.global_id(2)
        # Two distinct items so the frontend writes every element (no fill loop): on cpu a
        # loop here, like any loop with uniform bounds, would run at work-group level and
        # keep the accumulators in per-item memory instead of registers.
        zero = type(cp[0, 0, 0, 0])(0.0)
        acc = [zero, zero] * pairs
        if first == 0:
            for r in rows:
                for j in cols:
                    acc[r * nr + j] = cp[bi, p, q, r * nr + j]
        # The stop is k1 (p >= 0) but depends on the work-item, so the cpu keeps this loop
        # inside each work-item (registers, vector FMAs along j) rather than interchanging it.
        for k in range(k0, min(k1, k1 + p)):
            for r in rows:
                av = ap[bi, p, k, r]
                for j in cols:
                    acc[r * nr + j] = go.fma(av, bp[bi, q, k, j], acc[r * nr + j])
        for r in rows:
            for j in cols:
                cp[bi, p, q, r * nr + j] = acc[r * nr + j]

    @go.kernel
    def unpack(cp: Borrow[Array[F]], c: BorrowMut[Array[F]], alpha: F, beta: F) -> None:
        """``c[bi, row, col] = alpha * product + beta * c[bi, row, col]`` (``c`` is not read
        when ``beta`` is 0, as BLAS); grid ``(cols, rows, batch)``."""
        col = go.global_id(0)
        row = go.global_id(1)
        bi = go.global_id(2)
        if col < c.shape[2] and row < c.shape[1]:
            v = alpha * cp[bi, row // mr, col // nr, (row % mr) * nr + col % nr]
            if beta != type(beta)(0.0):
                v += beta * c[bi, row, col]
            c[bi, row, col] = v

    return micro, unpack


@functools.cache
def _lanes_micro(mr: int, nr: int) -> Any:
    """The micro-kernel of ``lanes`` tilings: work-item ``j`` of group ``q`` computes
    column ``j`` of block ``(p, q)``; grid ``(column panels * nr, row panels, batch)``,
    block ``(nr, 1, 1)``. Same block layout in ``cp``, same order of summation."""
    rows = tuple(range(mr))
    half = mr // 2

    @go.kernel
    def micro_lanes(
        ap: Borrow[Array[F]], bp: Borrow[Array[F]], cp: BorrowMut[Array[F]],
        k0: int, k1: int, first: int,
    ) -> None:  # fmt: skip
        j = go.local_id(0)
        q = go.group_id(0)
        p = go.global_id(1)
        bi = go.global_id(2)
        zero = type(cp[0, 0, 0, 0])(0.0)
        acc = [zero, zero] * half
        if first == 0:
            for r in rows:
                acc[r] = cp[bi, p, q, r * nr + j]
        for k in range(k0, k1):
            bv = bp[bi, q, k, j]
            for r in rows:
                acc[r] = go.fma(ap[bi, p, k, r], bv, acc[r])
        for r in rows:
            cp[bi, p, q, r * nr + j] = acc[r]

    return micro_lanes


TUNE_FROM = 1 << 24
"""Products of at least this many multiply-adds (``batch * m * n * k``) take the tiling
``go.autotune`` picks for the device; smaller ones, the default (timing would cost more than
the choice could save)."""


def _tuned(dtype_name: str, table: dict[str, tuple[Tiling, ...]], name: str) -> Any:
    """The tunable that times ``table``'s tilings of ``dtype_name`` on cubes of the
    product's size."""

    def key(a: Buffer[Any], b: Buffer[Any]) -> tuple[object, int]:
        return a.dtype, a.shape[0] * a.shape[1] * b.shape[1]

    def sample(dtype: np.dtype[Any], size: int) -> tuple[Buffer[Any], Buffer[Any]]:
        side = max(1, round(size ** (1 / 3)))
        return go.zeros((side, side), dtype), go.zeros((side, side), dtype)

    variants = [{"mr": t.mr, "nr": t.nr, "kc": t.kc, "lanes": t.lanes}
                for t in table[dtype_name]]  # fmt: skip

    @go.autotune(f"{name}[{dtype_name}]", variants, key=key, sample=sample,
                 dtypes=(dtype_name,), sizes=(1 << 24, 1 << 30))  # fmt: skip
    def product(variant: Any, a: Buffer[Any], b: Buffer[Any]) -> Buffer[Any]:
        c = go.empty((a.shape[0], b.shape[1]), a.dtype)
        tile = Tiling(variant["mr"], variant["nr"], variant["kc"], variant["lanes"])
        _product_into(_as_3d(a, 1), _as_3d(b, 1), _as_3d(c, 1), 1.0, 0.0, tile)
        return c

    return product


_TUNED: dict[tuple[str, bool], Any] = {
    **{(d, False): _tuned(d, VARIANTS, "gl.matmul") for d in VARIANTS},
    **{(d, True): _tuned(d, LANE_VARIANTS, "gl.matmul.lanes") for d in LANE_VARIANTS},
}


def _tiling(dtype: np.dtype[Any], size: int) -> Tiling:
    """The tiling for a product of ``size`` multiply-adds on the current device."""
    lanes = current_device().backend != "cpu"
    table = LANE_VARIANTS if lanes else VARIANTS
    if size < TUNE_FROM:
        return table[dtype.name][0]
    index: int = _TUNED[dtype.name, lanes].choose(dtype, size).index
    return table[dtype.name][index]


def _as_3d(buf: Buffer[Any], batch: int) -> Buffer[Any]:
    """A 2-d or 3-d buffer as 3-d with ``batch`` batches (a missing or size-1 batch
    broadcast with stride 0)."""
    st = elem_strides(buf)
    if buf.ndim == 2:
        return strided(buf, (batch, *buf.shape), (0, *st))
    if buf.shape[0] == 1 and batch != 1:
        return strided(buf, (batch, *buf.shape[1:]), (0, *st[1:]))
    return buf


def _swap_last(buf: Buffer[Any]) -> Buffer[Any]:
    """``buf`` with its last two axes swapped (a transposed view)."""
    st = elem_strides(buf)
    return strided(buf, (*buf.shape[:-2], buf.shape[-1], buf.shape[-2]),
                   (*st[:-2], st[-1], st[-2]))  # fmt: skip


def _product_into(
    a3: Buffer[Any], b3: Buffer[Any], c3: Buffer[Any], alpha: float, beta: float,
    tile: Tiling | None = None,
) -> None:  # fmt: skip
    """``c3 = alpha * a3 @ b3 + beta * c3`` for 3-d views of equal batch (launches only),
    with ``tile`` or the one chosen for this device and size."""
    batch, m, k = a3.shape
    n = b3.shape[2]
    if batch == 0 or m == 0 or n == 0:
        return
    dtype = c3.dtype
    tile = tile or _tiling(dtype, batch * m * n * k)
    mr, nr = tile.mr, tile.nr
    mp, np_ = -(-m // mr), -(-n // nr)
    pack_a, pack_b = _packers(mr, nr)
    micro, unpack = _product(mr, nr)
    ap = go.empty((batch, mp, k, mr), dtype)
    bp = go.empty((batch, np_, k, nr), dtype)
    cp = go.empty((batch, mp, np_, mr * nr), dtype)
    if k:
        pack_a[(_up(k), mp, batch), (_WIDE, 1, 1)](a3, ap)
        pack_b[(_up(np_), k, batch), (_WIDE, 1, 1)](b3, bp)
    for k0 in range(0, max(k, 1), tile.kc):
        slab = (ap, bp, cp, k0, min(k, k0 + tile.kc), int(k0 == 0))
        if tile.lanes:
            _lanes_micro(mr, nr)[(np_ * nr, mp, batch), (nr, 1, 1)](*slab)
        else:
            micro[(mp, np_, batch), (1, 1, 1)](*slab)
    scalar = np.float32 if dtype == np.float32 else np.float64
    unpack[(_up(n), m, batch), (_WIDE, 1, 1)](cp, c3, scalar(alpha), scalar(beta))


_WIDE = 64
"""Work-items per group along dimension 0 of the packing and unpacking kernels."""


def _up(n: int) -> int:
    return -(-n // _WIDE) * _WIDE


def _operand(x: object, func: str, name: str) -> Buffer[Any]:
    buf = as_buffer(x, func, name)
    if buf.dtype not in _FLOATS:
        raise DTypeError(
            f"gpuoff.lib.{func}: {name} must be float32 or float64, not {buf.dtype}"
        )
    return buf


def _shapes(a: Buffer[Any], b: Buffer[Any], func: str) -> tuple[int, int, int, int]:
    """``(batch, m, k, n)`` of ``a @ b`` for 2-d and 3-d operands, or ShapeError."""
    for name, x in (("a", a), ("b", b)):
        if x.ndim not in (2, 3):
            raise ShapeError(
                f"gpuoff.lib.{func}: {name} must be 2-d or 3-d (a batch of matrices), "
                f"not {x.ndim}-d with shape {x.shape}"
            )
    m, k = a.shape[-2:]
    k2, n = b.shape[-2:]
    if k != k2:
        raise ShapeError(
            f"gpuoff.lib.{func}: the inner dimensions differ: a is {a.shape}, b is {b.shape} "
            f"({k} != {k2})"
        )
    ba = a.shape[0] if a.ndim == 3 else 1
    bb = b.shape[0] if b.ndim == 3 else 1
    if ba != bb and 1 not in (ba, bb):
        raise ShapeError(
            f"gpuoff.lib.{func}: batch sizes {ba} and {bb} do not broadcast "
            f"(a is {a.shape}, b is {b.shape})"
        )
    return max(ba, bb) if min(ba, bb) else 0, m, k, n


@entry_point
def matmul(a: Operand, b: Operand, out: object = None) -> go.Buffer[Any]:
    """``np.matmul(a, b)`` for 2-d matrices and 3-d batches of them (a batch of 1, or a 2-d
    operand, broadcasts), float32 or float64 (mixed: float64, as NumPy). Returns a new
    buffer, or writes ``out=`` (C-contiguous, the result's shape and dtype)."""
    x, y = _operand(a, "matmul", "a"), _operand(b, "matmul", "b")
    batch, m, k, n = _shapes(x, y, "matmul")
    dtype = np.result_type(x.dtype, y.dtype)
    shape = (batch, m, n) if max(x.ndim, y.ndim) == 3 else (m, n)
    res = result(out, shape, dtype, "matmul")
    c3 = res if res.ndim == 3 else strided(res, (1, m, n), (0, *elem_strides(res)))
    _product_into(_as_3d(x, batch), _as_3d(y, batch), c3, 1.0, 0.0)
    return res


@entry_point
def gemm(
    a: Operand, b: Operand, c: Operand, alpha: float = 1.0, beta: float = 0.0,
    trans_a: bool = False, trans_b: bool = False,
) -> go.Buffer[Any]:  # fmt: skip
    """BLAS's GEMM: ``c = alpha * op(a) @ op(b) + beta * c`` in place in ``c``, where
    ``op(x)`` is ``x`` or, with ``trans_x``, its transpose (of the last two axes). ``c`` is a
    buffer (or a writeable NumPy array, written in place) of float32 or float64, 2-d or a
    3-d batch; ``c`` is not read when ``beta`` is 0. Returns ``c`` as a buffer."""
    x, y = _operand(a, "gemm", "a"), _operand(b, "gemm", "b")
    if trans_a and x.ndim >= 2:
        x = _swap_last(x)
    if trans_b and y.ndim >= 2:
        y = _swap_last(y)
    batch, m, k, n = _shapes(x, y, "gemm")
    shape = (batch, m, n) if max(x.ndim, y.ndim) == 3 else (m, n)
    res = _gemm_target(c, shape)
    c3 = res if res.ndim == 3 else strided(res, (1, m, n), (0, *elem_strides(res)))
    _product_into(_as_3d(x, batch), _as_3d(y, batch), c3, float(alpha), float(beta))
    return res


def _gemm_target(c: object, shape: tuple[int, ...]) -> Buffer[Any]:
    """``gemm``'s ``c`` as the buffer it writes in place (a NumPy array wrapped, not
    copied), checked against the product's shape."""
    if isinstance(c, np.ndarray):
        res = result(c, shape, np.dtype(c.dtype), "gemm")
    elif isinstance(c, go.Buffer):
        res = c
    else:
        raise DTypeError(
            f"gpuoff.lib.gemm: c must be a go.Buffer or a NumPy array, not {type(c).__name__}"
        )
    if res.dtype not in _FLOATS:
        raise DTypeError(f"gpuoff.lib.gemm: c must be float32 or float64, not {res.dtype}")
    if tuple(res.shape) != shape:
        raise ShapeError(
            f"gpuoff.lib.gemm: c has shape {tuple(res.shape)}, op(a) @ op(b) has {shape}"
        )
    return res


# --- transpose -------------------------------------------------------------------------------

T = go.DTypeVar("T")
"""Any dtype (transposing moves elements, whatever they are)."""

TILE = 16
"""Side of ``transpose``'s square work-group and shared tile."""


@go.kernel
def _transpose_tiles(a: Borrow[Array[T]], out: BorrowMut[Array[T]]) -> None:
    """``out = a.T`` for 2-d ``a``: each ``TILE x TILE`` group reads a tile of ``a`` along
    its rows (neighbouring items, neighbouring memory), and writes it back along the rows of
    ``out`` from shared memory; grid ``(cols, rows)`` of ``a`` rounded up to the tile."""
    tx = go.local_id(0)
    ty = go.local_id(1)
    col0 = go.group_id(0) * TILE
    row0 = go.group_id(1) * TILE
    # one column of padding: reading a column of the tile touches TILE different banks
    tile = go.shared((TILE, TILE + 1), type(a[0, 0]))
    if row0 + ty < a.shape[0] and col0 + tx < a.shape[1]:
        tile[ty, tx] = a[row0 + ty, col0 + tx]
    go.barrier()
    if col0 + ty < out.shape[0] and row0 + tx < out.shape[1]:
        out[col0 + ty, row0 + tx] = tile[tx, ty]


@go.kernel
def _copy3(a: Borrow[Array[T]], out: BorrowMut[Array[T]]) -> None:
    """``out[i, j, k] = a[i, j, k]`` through ``a``'s strides (a reversed-axes view)."""
    k = go.global_id(0)
    j = go.global_id(1)
    i = go.global_id(2)
    if k < out.shape[2]:
        out[i, j, k] = a[i, j, k]


@entry_point
def transpose(a: Operand, out: object = None) -> go.Buffer[Any]:
    """``a.T`` materialised (axes reversed; up to 3 dimensions), any dtype, in a new
    C-contiguous buffer or ``out=``. 2-d: through shared-memory tiles, so both the reads and
    the writes run along rows."""
    x = as_buffer(a, "transpose", "a")
    if x.ndim > 3:
        raise ShapeError(
            f"gpuoff.lib.transpose: a must have at most 3 dimensions, not {x.ndim}"
        )
    shape = tuple(reversed(x.shape))
    res = result(out, shape, x.dtype, "transpose")
    if x.size == 0:
        return res
    if x.ndim == 2:
        rows, cols = x.shape
        grid = (-(-cols // TILE) * TILE, -(-rows // TILE) * TILE)
        _transpose_tiles[grid, (TILE, TILE)](x, res)
        return res
    st = elem_strides(x)
    view = strided(x, shape, tuple(reversed(st)))
    pad = (1,) * (3 - x.ndim)
    v3 = strided(view, (*pad, *shape), (*(0,) * len(pad), *tuple(reversed(st))))
    o3 = strided(res, (*pad, *shape), (*(0,) * len(pad), *elem_strides(res)))
    d0 = v3.shape[2]
    _copy3[(-(-d0 // 64) * 64, v3.shape[1], v3.shape[0]), (64, 1, 1)](v3, o3)
    return res
