"""Row-wise neural-network functions: ``gl.softmax``, ``gl.layer_norm`` (PyTorch's).

Along the last axis (the usual case) one work-group takes one row: its work-items stride
through the row together (``for i in range(lid, n, block)``: contiguous chunks, which the cpu
runs as vector loops), combine their partial results in a shared-memory tree, and make a
second and third pass over the row, which is then in cache. Along another axis of softmax,
each work-item takes one (outer, inner) position and walks the axis alone, so neighbouring
work-items read neighbouring memory.

Softmax subtracts the row's maximum before ``exp`` (no overflow); layer norm computes the
mean first and then the variance of the centred values (two passes, no cancellation), biased
(divided by ``n``) as PyTorch, and ``(x - mean) / sqrt(var + eps) * weight + bias``.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut
from gpuoff.errors import DTypeError, ShapeError
from gpuoff.lib._common import Operand, as_buffer, normalize_axis, result
from gpuoff.lib._layout import on_cpu_like_device, reshaped
from gpuoff.runtime.buffer import Buffer
from gpuoff.runtime.tracebacks import entry_point

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))

BLOCKS = (16, 32, 128, 256)
"""Work-group sizes the row kernels declare (powers of two): the first for CPU-like devices
(two AVX2 vectors per step, a four-level tree), the third for GPUs."""


def _block() -> int:
    return BLOCKS[0] if on_cpu_like_device() else BLOCKS[2]

_NEG_INF = -math.inf


F = go.DTypeVar("F", go.f32, go.f64)


@functools.cache
def _softmax_kernels(block: int) -> tuple[Any, Any]:
    """Softmax along the rows of a 2-d array, and along axis 1 of a 3-d array."""
    steps = tuple(block >> s for s in range(1, block.bit_length()))  # block/2, ..., 1

    @go.kernel
    def softmax_rows(x: Borrow[Array[F]], y: BorrowMut[Array[F]]) -> None:
        """``y[row] = softmax(x[row])``; one work-group of ``block`` items per row."""
        row = go.group_id(0)
        lid = go.local_id(0)
        n = x.shape[1]
        part = go.shared(block, type(x[0, 0]))
        m = type(x[0, 0])(_NEG_INF)
        for i in range(lid, n, block):
            m = go.max(m, x[row, i])
        part[lid] = m
        go.barrier()
        for s in steps:
            if lid < s:
                part[lid] = go.max(part[lid], part[lid + s])
            go.barrier()
        m = part[0]
        go.barrier()  # everyone has read the maximum before the sums overwrite it
        total = type(x[0, 0])(0.0)
        for i2 in range(lid, n, block):
            e = go.exp(x[row, i2] - m)
            y[row, i2] = e  # kept for the last pass: one exp per element
            total += e
        part[lid] = total
        go.barrier()
        for s in steps:
            if lid < s:
                part[lid] += part[lid + s]
            go.barrier()
        total = part[0]
        for i3 in range(lid, n, block):
            y[row, i3] = y[row, i3] / total

    @go.kernel
    def softmax_axis(x: Borrow[Array[F]], y: BorrowMut[Array[F]]) -> None:
        """``y[o, :, j] = softmax(x[o, :, j])``; one work-item per ``(j, o)``."""
        j = go.global_id(0)
        o = go.global_id(1)
        if j < x.shape[2]:
            n = x.shape[1]
            m = type(x[0, 0, 0])(_NEG_INF)
            for i in range(n):
                m = go.max(m, x[o, i, j])
            total = type(x[0, 0, 0])(0.0)
            for i2 in range(n):
                total += go.exp(x[o, i2, j] - m)
            for i3 in range(n):
                y[o, i3, j] = go.exp(x[o, i3, j] - m) / total

    return softmax_rows, softmax_axis


@functools.cache
def _layer_norm_kernel(block: int) -> Any:
    steps = tuple(block >> s for s in range(1, block.bit_length()))

    @go.kernel
    def layer_norm_rows(
        x: Borrow[Array[F]], w: Borrow[Array[F]], b: Borrow[Array[F]],
        y: BorrowMut[Array[F]], eps: F,
    ) -> None:  # fmt: skip
        """``y[row] = (x[row] - mean) / sqrt(var + eps) * w + b``; a work-group per row."""
        row = go.group_id(0)
        lid = go.local_id(0)
        n = x.shape[1]
        part = go.shared(block, type(x[0, 0]))
        total = type(x[0, 0])(0.0)
        for i in range(lid, n, block):
            total += x[row, i]
        part[lid] = total
        go.barrier()
        for s in steps:
            if lid < s:
                part[lid] += part[lid + s]
            go.barrier()
        mean = part[0] / type(total)(n)
        go.barrier()  # everyone has read the sum before the squares overwrite it
        sq = type(total)(0.0)
        for i2 in range(lid, n, block):
            d = x[row, i2] - mean
            sq += d * d
        part[lid] = sq
        go.barrier()
        for s in steps:
            if lid < s:
                part[lid] += part[lid + s]
            go.barrier()
        rstd = type(total)(1.0) / go.sqrt(part[0] / type(total)(n) + eps)
        for i3 in range(lid, n, block):
            y[row, i3] = (x[row, i3] - mean) * rstd * w[i3] + b[i3]

    return layer_norm_rows


LANES = 16
"""Partial results one work-item of the CPU row kernels keeps (two AVX2 vectors of f32)."""
_LANES = tuple(range(LANES))


@functools.cache
def _serial_kernels() -> tuple[Any, Any]:
    """Row kernels for CPU-like devices: one work-item per row, which keeps ``LANES``
    partial results of its row's ``nch`` whole chunks in registers (the unrolled chunk
    vectorises), then the tail; the element-wise passes are plain loops, which vectorise.
    Every loop's stop is ``min(s, s + row)`` (= ``s``): it depends on the work-item, so the
    cpu runs it inside each item (registers) rather than interchanging it to group level."""

    @go.kernel
    def softmax_serial(x: Borrow[Array[F]], y: BorrowMut[Array[F]], nch: int) -> None:
        """``y[row] = softmax(x[row])``; ``nch = x.shape[1] // LANES``."""
        row = go.global_id(0)
        if row < x.shape[0]:
            stop = min(x.shape[1], x.shape[1] + row)
            chunks = min(nch, nch + row)
            low = type(x[0, 0])(_NEG_INF)
            part = [low, low] * (LANES // 2)
            for ch in range(chunks):
                for j in _LANES:
                    part[j] = go.max(part[j], x[row, ch * LANES + j])
            m = low
            for j in _LANES:
                m = go.max(m, part[j])
            for i in range(nch * LANES, stop):
                m = go.max(m, x[row, i])
            for i2 in range(stop):
                y[row, i2] = go.exp(x[row, i2] - m)
            zero = type(m)(0.0)
            sums = [zero, zero] * (LANES // 2)
            for ch2 in range(chunks):
                for j in _LANES:
                    sums[j] += y[row, ch2 * LANES + j]
            total = zero
            for j in _LANES:
                total += sums[j]
            for i3 in range(nch * LANES, stop):
                total += y[row, i3]
            for i4 in range(stop):
                y[row, i4] = y[row, i4] / total

    @go.kernel
    def layer_norm_serial(
        x: Borrow[Array[F]], w: Borrow[Array[F]], b: Borrow[Array[F]],
        y: BorrowMut[Array[F]], eps: F, nch: int,
    ) -> None:  # fmt: skip
        """``y[row] = (x[row] - mean) / sqrt(var + eps) * w + b``; ``nch`` as above."""
        row = go.global_id(0)
        if row < x.shape[0]:
            stop = min(x.shape[1], x.shape[1] + row)
            chunks = min(nch, nch + row)
            zero = type(eps)(0.0)
            sums = [zero, zero] * (LANES // 2)
            for ch in range(chunks):
                for j in _LANES:
                    sums[j] += x[row, ch * LANES + j]
            total = zero
            for j in _LANES:
                total += sums[j]
            for i in range(nch * LANES, stop):
                total += x[row, i]
            mean = total / type(eps)(stop)
            sq = [zero, zero] * (LANES // 2)
            for ch2 in range(chunks):
                for j in _LANES:
                    d = x[row, ch2 * LANES + j] - mean
                    sq[j] += d * d
            var = zero
            for j in _LANES:
                var += sq[j]
            for i2 in range(nch * LANES, stop):
                d2 = x[row, i2] - mean
                var += d2 * d2
            rstd = type(eps)(1.0) / go.sqrt(var / type(eps)(stop) + eps)
            for i3 in range(stop):
                y[row, i3] = (x[row, i3] - mean) * rstd * w[i3] + b[i3]

    return softmax_serial, layer_norm_serial


SERIAL_BLOCK = 4
"""Rows (work-items) per work-group of the CPU row kernels."""


def _float_input(x: object, func: str) -> Buffer[Any]:
    buf = as_buffer(x, func, "x")
    if buf.dtype not in _FLOATS:
        raise DTypeError(f"gpuoff.lib.{func}: x must be float32 or float64, not {buf.dtype}")
    return buf


def _contiguous(buf: Buffer[Any], shape: tuple[int, ...]) -> Buffer[Any]:
    """``buf`` viewed with ``shape``, copied first where its strides do not allow it."""
    view = reshaped(buf, shape)
    if view is None:
        view = reshaped(buf.copy(), shape)
        assert view is not None
    return view


@entry_point
def softmax(x: Operand, axis: int = -1, out: object = None) -> go.Buffer[Any]:
    """``torch.softmax(x, dim=axis)``: ``exp(x - max) / sum(exp(x - max))`` along ``axis``
    (float32 or float64; a row of ``-inf`` gives NaN, as PyTorch). A new buffer, or
    ``out=``. An input whose axes around ``axis`` cannot be merged without a copy (a
    non-contiguous view of more than three dimensions) is copied first, which waits for it."""
    buf = _float_input(x, "softmax")
    if buf.ndim == 0:
        raise ShapeError("gpuoff.lib.softmax: x must have at least one dimension")
    ax = normalize_axis(axis, buf.ndim, "softmax")
    assert ax is not None
    res = result(out, tuple(buf.shape), buf.dtype, "softmax")
    if buf.size == 0:
        return res
    shape = buf.shape
    outer, n, inner = math.prod(shape[:ax]), shape[ax], math.prod(shape[ax + 1:])
    block = _block()
    rows_k, axis_k = _softmax_kernels(block)
    if inner == 1:
        x2 = _contiguous(buf, (outer, n))
        y2 = reshaped(res, (outer, n))
        assert y2 is not None
        if on_cpu_like_device():
            grid = -(-outer // SERIAL_BLOCK) * SERIAL_BLOCK
            _serial_kernels()[0][(grid,), (SERIAL_BLOCK,)](x2, y2, n // LANES)
        else:
            rows_k[(outer * block,), (block,)](x2, y2)
    else:
        x3 = _contiguous(buf, (outer, n, inner))
        y3 = reshaped(res, (outer, n, inner))
        assert y3 is not None
        grid0 = -(-inner // 64) * 64
        axis_k[(grid0, outer), (64, 1)](x3, y3)
    return res


@entry_point
def layer_norm(
    x: Operand, weight: Operand | None = None, bias: Operand | None = None,
    eps: float = 1e-5, out: object = None,
) -> go.Buffer[Any]:  # fmt: skip
    """``torch.nn.functional.layer_norm(x, weight.shape, weight, bias, eps)``: normalised
    over the last ``weight.ndim`` axes (the last axis when ``weight`` is None), biased
    variance. ``weight`` and ``bias`` default to ones and zeros. A new buffer, or ``out=``."""
    buf = _float_input(x, "layer_norm")
    w = None if weight is None else as_buffer(weight, "layer_norm", "weight")
    b = None if bias is None else as_buffer(bias, "layer_norm", "bias")
    norm_shape = tuple(w.shape) if w is not None else (
        tuple(b.shape) if b is not None else tuple(buf.shape[-1:]))  # fmt: skip
    _check_norm_shape(buf, w, b, norm_shape)
    res = result(out, tuple(buf.shape), buf.dtype, "layer_norm")
    if buf.size == 0:
        return res
    n = math.prod(norm_shape)
    rows = buf.size // n
    w1 = _param(w, n, buf.dtype, 1.0)
    b1 = _param(b, n, buf.dtype, 0.0)
    y2 = reshaped(res, (rows, n))
    assert y2 is not None
    args = (_contiguous(buf, (rows, n)), w1, b1, y2, buf.dtype.type(eps))
    if on_cpu_like_device():
        grid = -(-rows // SERIAL_BLOCK) * SERIAL_BLOCK
        _serial_kernels()[1][(grid,), (SERIAL_BLOCK,)](*args, n // LANES)
    else:
        block = _block()
        _layer_norm_kernel(block)[(rows * block,), (block,)](*args)
    return res


def _check_norm_shape(
    x: Buffer[Any], w: Buffer[Any] | None, b: Buffer[Any] | None, shape: tuple[int, ...]
) -> None:
    for name, p in (("weight", w), ("bias", b)):
        if p is None:
            continue
        if tuple(p.shape) != shape:
            raise ShapeError(
                f"gpuoff.lib.layer_norm: {name} has shape {tuple(p.shape)}, expected {shape}"
            )
        if p.dtype != x.dtype:
            raise DTypeError(
                f"gpuoff.lib.layer_norm: {name} has dtype {p.dtype}, x has {x.dtype}"
            )
    if not shape or tuple(x.shape[x.ndim - len(shape):]) != shape or len(shape) > x.ndim:
        raise ShapeError(
            f"gpuoff.lib.layer_norm: x of shape {tuple(x.shape)} does not end with the "
            f"normalised shape {shape}"
        )


def _param(p: Buffer[Any] | None, n: int, dtype: np.dtype[Any], fill: float) -> Buffer[Any]:
    """``p`` flattened to ``n`` elements, or a buffer of ``fill``s."""
    if p is None:
        return go.full((n,), fill, dtype)
    return _contiguous(p, (n,))


__all__ = ["layer_norm", "softmax"]
