"""The kernels of ``gpuoff.lib.reduce``: one generic source each, over dtype variables and a
``go.Const`` operator.

``T`` is the element type of the input, ``A`` the accumulator's (NumPy's result type, or
``f32`` for ``f16`` sums), ``O`` the result's. The order in which elements are combined is
fixed by the shape and the two compile-time parameters ``width`` (work-items per group) and
``items`` (elements per work-item), never by the number of threads or by scheduling; it is
documented in ``reduce.py`` and docs/library.md.

Why this shape (issue 16; issue 17 measured the shared-memory tree at 0.42x of C on cpu): a
work-item of ``blocks`` reads ``items`` elements ``width`` apart, so the work-items of one
group read consecutive elements at every step. On cpu the group-uniform loop runs at group
level with the work-item loop inside it (``cpu_interchange``): the accumulators of the
``width`` work-items are ``width / 8`` AVX vectors and every load is a contiguous vector load,
with no barrier and no shared memory. On a GPU the same reads coalesce. The partial results
(one per work-item) are reduced by the same kernel until a row is at most one chunk long, and
``final`` folds what is left sequentially, one work-item per row.
"""

from __future__ import annotations

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Const, DeviceFunction, i64

T = go.DTypeVar("T")
A = go.DTypeVar("A")
O = go.DTypeVar("O")  # noqa: E741 - the result's dtype variable, as T and A


@go.func
def add(a: A, b: A) -> A:
    """``a + b`` (sum)."""
    return a + b


@go.func
def mul(a: A, b: A) -> A:
    """``a * b`` (prod)."""
    return a * b


@go.func
def minimum(a: A, b: A) -> A:
    """The smaller, NaN if either is NaN (``np.minimum``; ``a != a`` is false for ints)."""
    return a if (a < b or a != a) else b


@go.func
def maximum(a: A, b: A) -> A:
    """The larger, NaN if either is NaN (``np.maximum``)."""
    return a if (a > b or a != a) else b


@go.kernel
def blocks(
    x: Borrow[Array[T]],
    part: BorrowMut[Array[A]],
    init: A,
    op: Const[DeviceFunction[[A, A], A]],
    width: Const[int],
    items: Const[int],
) -> None:
    """``part[r, g * width + l] = op(x[r, c], x[r, c + width], ...)`` over the ``items``
    elements ``c = g * width * items + l + j * width`` of full chunk ``g`` of row ``r``.
    Grid ``(chunks * width, rows)``, block ``(width, 1)``; ``init`` only gives the type."""
    lid = go.local_id(0)
    r = go.global_id(1)
    base = go.group_id(0) * (width * items) + lid
    acc = type(init)(x[r, base])
    for j in range(1, items):
        acc = op(acc, type(init)(x[r, base + j * width]))
    part[r, go.global_id(0)] = acc


@go.kernel
def copy_tail(x: Borrow[Array[T]], part: BorrowMut[Array[A]], start: i64, dst: i64,
              init: A) -> None:  # fmt: skip
    """``part[r, dst + k] = x[r, start + k]`` (converted to ``A``) for the elements after the
    last full chunk of each row: they join the next level's row. Grid ``(count, rows)``."""
    k = go.global_id(0)
    r = go.global_id(1)
    if start + k < x.shape[1] and dst + k < part.shape[1]:
        part[r, dst + k] = type(init)(x[r, start + k])


@go.kernel
def final(x: Borrow[Array[T]], out: BorrowMut[Array[O]], init: A,
          op: Const[DeviceFunction[[A, A], A]]) -> None:  # fmt: skip
    """``out[r] = op(...op(op(init, x[r, 0]), x[r, 1])..., x[r, n - 1])``: one work-item per
    row folds it left to right. Grid ``(rows,)``."""
    r = go.global_id(0)
    if r < out.shape[0]:
        acc = init
        for k in range(x.shape[1]):
            acc = op(acc, type(init)(x[r, k]))
        out[r] = type(out[0])(acc)


@go.kernel
def columns(x: Borrow[Array[T]], out: BorrowMut[Array[O]], init: A,
            op: Const[DeviceFunction[[A, A], A]]) -> None:  # fmt: skip
    """``out[o, i] = op(...op(init, x[o, 0, i])..., x[o, n - 1, i])`` for an axis with
    elements after it: work-item ``(i, o)`` walks the axis, and neighbouring work-items read
    neighbouring elements (the contiguous inner axis is dimension 0). Grid ``(inner, outer)``."""
    i = go.global_id(0)
    o = go.global_id(1)
    if i < out.shape[1] and o < out.shape[0]:
        acc = init
        for k in range(x.shape[1]):
            acc = op(acc, type(init)(x[o, k, i]))
        out[o, i] = type(out[0, 0])(acc)


@go.func
def beats(va: T, ia: i64, vb: T, ib: i64, largest: bool) -> bool:
    """Whether candidate ``(vb, ib)`` wins over ``(va, ia)`` for argmin (argmax when
    ``largest``): a NaN wins over any number, the smaller index breaks ties (NumPy: the first
    NaN, else the first extreme). The rule is commutative and associative, so the order in
    which candidates meet does not change the winner."""
    a_nan = va != va
    b_nan = vb != vb
    if a_nan or b_nan:
        return b_nan and (not a_nan or ib < ia)
    if vb == va:
        return ib < ia
    return vb > va if largest else vb < va


@go.kernel
def arg_blocks(xv: Borrow[Array[T]], xi: Borrow[Array[i64]], pv: BorrowMut[Array[T]],
               pi: BorrowMut[Array[i64]], largest: Const[bool], width: Const[int],
               items: Const[int]) -> None:  # fmt: skip
    """The winning candidate ``(value, index)`` of each work-item over the elements
    ``blocks`` gives it. The index of ``xv[r, k]`` is ``xi[r, k]``, or ``k`` itself when
    ``xi`` has no columns (the first level: ``xv`` is the input). Grid
    ``(chunks * width, rows)``, block ``(width, 1)``."""
    lid = go.local_id(0)
    r = go.global_id(1)
    direct = xi.shape[1] == 0
    base = go.group_id(0) * (width * items) + lid
    best = xv[r, base]
    at = base if direct else xi[r, base]
    for j in range(1, items):
        k = base + j * width
        v = xv[r, k]
        idx = k if direct else xi[r, k]
        if beats(best, at, v, idx, largest):
            best = v
            at = idx
    pv[r, go.global_id(0)] = best
    pi[r, go.global_id(0)] = at


@go.kernel
def arg_copy_tail(xv: Borrow[Array[T]], xi: Borrow[Array[i64]], pv: BorrowMut[Array[T]],
                  pi: BorrowMut[Array[i64]], start: i64, dst: i64) -> None:  # fmt: skip
    """The candidates after the last full chunk of each row join the next level's row (as
    ``copy_tail``, with their indices). Grid ``(count, rows)``."""
    k = go.global_id(0)
    r = go.global_id(1)
    if start + k < xv.shape[1] and dst + k < pv.shape[1]:
        pv[r, dst + k] = xv[r, start + k]
        pi[r, dst + k] = start + k if xi.shape[1] == 0 else xi[r, start + k]


@go.kernel
def arg_final(xv: Borrow[Array[T]], xi: Borrow[Array[i64]], out: BorrowMut[Array[i64]],
              largest: Const[bool]) -> None:  # fmt: skip
    """``out[r]``: the index of the winning candidate of row ``r`` (``xi[r, k]``, or ``k``
    itself when ``xi`` has no columns: the row is the input). Grid ``(rows,)``."""
    r = go.global_id(0)
    n = xv.shape[1]
    if r < out.shape[0] and n > 0:
        direct = xi.shape[1] == 0
        best = xv[r, 0]
        at = go.i64(0) if direct else xi[r, 0]
        for k in range(1, n):
            v = xv[r, k]
            idx = go.i64(k) if direct else xi[r, k]
            if beats(best, at, v, idx, largest):
                best = v
                at = idx
        out[r] = at


@go.kernel
def arg_columns(x: Borrow[Array[T]], out: BorrowMut[Array[i64]], largest: Const[bool]) -> None:
    """``out[o, i]``: argmin/argmax along the middle axis of ``x`` (outer, n, inner).
    Grid ``(inner, outer)``."""
    i = go.global_id(0)
    o = go.global_id(1)
    n = x.shape[1]
    if i < out.shape[1] and o < out.shape[0] and n > 0:
        best = x[o, 0, i]
        at = go.i64(0)
        for k in range(1, n):
            v = x[o, k, i]
            if beats(best, at, v, k, largest):
                best = v
                at = go.i64(k)
        out[o, i] = at


# --- scans (gpuoff.lib.scan) -------------------------------------------------------------------


@go.kernel
def scan_offsets(part: Borrow[Array[A]], offs: BorrowMut[Array[A]], init: A,
                 op: Const[DeviceFunction[[A, A], A]], width: Const[int],
                 seeded: Const[bool]) -> None:  # fmt: skip
    """``offs[r, c]``: the fold of every chunk of row ``r`` before chunk ``c``, from the
    ``width`` partial results ``blocks`` wrote per full chunk (``part``), seeded with ``init``
    when ``seeded`` (an exclusive scan's initial), else with the first partial (``offs[r, 0]``
    is then ``init`` and unused). One work-item per row. Grid ``(rows,)``."""
    r = go.global_id(0)
    if r < offs.shape[0]:
        full = part.shape[1] // width
        acc = init
        started = seeded
        for c in range(offs.shape[1]):
            offs[r, c] = acc
            if c < full:
                for lane in range(width):
                    v = part[r, c * width + lane]
                    if started:
                        acc = op(acc, v)
                    else:
                        acc = v
                    started = True


@go.kernel
def scan_chunks(x: Borrow[Array[T]], out: BorrowMut[Array[O]], offs: Borrow[Array[A]],
                op: Const[DeviceFunction[[A, A], A]], chunk: Const[int],
                exclusive: Const[bool]) -> None:  # fmt: skip
    """Scan chunk ``c`` of row ``r`` sequentially from its offset ``offs[r, c]`` (the first
    chunk of an inclusive scan from its first element). One work-item per chunk, run as a
    group of its own: on cpu a plain running sum in a register, as the C scan. Grid
    ``(chunks, rows)``, block ``(1, 1)``."""
    c = go.global_id(0)
    r = go.global_id(1)
    n = x.shape[1]
    if c < offs.shape[1] and r < offs.shape[0]:
        start = c * chunk
        stop = min(n, start + chunk)
        acc = offs[r, c]
        fresh = not exclusive and c == 0
        for k in range(start, stop):
            v = type(acc)(x[r, k])
            with go.unsafe():  # work-item c writes only its own chunk [c * chunk, (c+1) * chunk)
                if exclusive:
                    out[r, k] = type(out[0, 0])(acc)
                    acc = op(acc, v)
                else:
                    if fresh and k == start:
                        acc = v
                    else:
                        acc = op(acc, v)
                    out[r, k] = type(out[0, 0])(acc)


@go.kernel
def scan_columns(x: Borrow[Array[T]], out: BorrowMut[Array[O]], init: A,
                 op: Const[DeviceFunction[[A, A], A]], exclusive: Const[bool]) -> None:  # fmt: skip
    """The scan along the middle axis of ``x`` (outer, n, inner), one work-item per
    ``(i, o)`` walking the axis (inclusive: from the first element; exclusive: from
    ``init``). Grid ``(inner, outer)``."""
    i = go.global_id(0)
    o = go.global_id(1)
    if i < out.shape[2] and o < out.shape[0]:
        acc = init
        for k in range(x.shape[1]):
            v = type(init)(x[o, k, i])
            if exclusive:
                out[o, k, i] = type(out[0, 0, 0])(acc)
                acc = op(acc, v)
            else:
                if k == 0:
                    acc = v
                else:
                    acc = op(acc, v)
                out[o, k, i] = type(out[0, 0, 0])(acc)
