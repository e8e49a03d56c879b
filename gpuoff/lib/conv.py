"""Convolutions: ``gl.convolve`` (NumPy's 1-d) and ``gl.conv2d`` (PyTorch's, NCHW).

Both are direct: one work-item per output element, summing its window in a fixed order (for
``convolve``, ``x`` ascending; for ``conv2d``, input channel, then kernel row, then kernel
column), so results do not depend on the device's schedule. ``conv2d`` is a cross-correlation,
as PyTorch's is (the kernel is not flipped); ``convolve`` flips ``k``, as NumPy's does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut
from gpuoff.errors import DTypeError, ShapeError
from gpuoff.lib._common import Operand, as_buffer, result
from gpuoff.runtime.buffer import Buffer
from gpuoff.runtime.tracebacks import entry_point

X = go.DTypeVar("X", go.i32, go.i64, go.f32, go.f64)
K = go.DTypeVar("K", go.i32, go.i64, go.f32, go.f64)
R = go.DTypeVar("R", go.i32, go.i64, go.f32, go.f64)

_NUMERIC = tuple(np.dtype(t) for t in (np.int32, np.int64, np.float32, np.float64))
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
BLOCK = 64
"""Work-items per group along the fast dimension of both kernels."""


@go.kernel
def _convolve(x: Borrow[Array[X]], k: Borrow[Array[K]], out: BorrowMut[Array[R]],
              offset: int) -> None:  # fmt: skip
    """``out[o] = sum_j x[j] * k[o + offset - j]`` over the ``j`` where both exist."""
    o = go.global_id(0)
    if o < out.shape[0]:
        i = o + offset
        lo = max(0, i - k.shape[0] + 1)
        hi = min(i + 1, x.shape[0])
        acc = type(out[0])(0)
        for j in range(lo, hi):
            acc += type(out[0])(x[j]) * type(out[0])(k[i - j])
        out[o] = acc


@go.kernel
def _conv2d(x: Borrow[Array[X]], w: Borrow[Array[K]], out: BorrowMut[Array[R]],
            sh: int, sw: int, ph: int, pw: int) -> None:  # fmt: skip
    """``out[n, o, oy, ox] = sum_{c, i, j} x[n, c, oy * sh - ph + i, ox * sw - pw + j]
    * w[o, c, i, j]`` (zero padding); grid ``(out width, out height, N * O)``."""
    ox = go.global_id(0)
    oy = go.global_id(1)
    no = go.global_id(2)
    if ox < out.shape[3]:
        n = no // out.shape[1]
        o = no % out.shape[1]
        acc = type(out[0, 0, 0, 0])(0)
        for c in range(x.shape[1]):
            for i in range(w.shape[2]):
                y = oy * sh - ph + i
                if y >= 0 and y < x.shape[2]:
                    for j in range(w.shape[3]):
                        xx = ox * sw - pw + j
                        if xx >= 0 and xx < x.shape[3]:
                            acc += type(acc)(x[n, c, y, xx]) * type(acc)(w[o, c, i, j])
        out[n, o, oy, ox] = acc


def _numeric(x: object, func: str, name: str, dtypes: tuple[np.dtype[Any], ...]) -> Buffer[Any]:
    buf = as_buffer(x, func, name)
    if buf.dtype not in dtypes:
        names = ", ".join(d.name for d in dtypes)
        raise DTypeError(f"gpuoff.lib.{func}: {name} must be one of {names}, not {buf.dtype}")
    return buf


@entry_point
def convolve(x: Operand, k: Operand, mode: str = "full", out: object = None) -> go.Buffer[Any]:
    """``np.convolve(x, k, mode)`` for 1-d ``x`` and ``k`` (int32, int64, float32, float64;
    the result's dtype is NumPy's): ``"full"`` (length ``n + m - 1``), ``"same"`` (``max(n,
    m)``, centred as NumPy) or ``"valid"`` (``max(n, m) - min(n, m) + 1``)."""
    a = _numeric(x, "convolve", "x", _NUMERIC)
    v = _numeric(k, "convolve", "k", _NUMERIC)
    for name, buf in (("x", a), ("k", v)):
        if buf.ndim != 1 or buf.size == 0:
            raise ShapeError(
                f"gpuoff.lib.convolve: {name} must be 1-d and not empty, not shape {buf.shape}"
            )
    n, m = a.shape[0], v.shape[0]
    if mode == "full":
        length, offset = n + m - 1, 0
    elif mode == "same":
        length, offset = max(n, m), (min(n, m) - 1) // 2
    elif mode == "valid":
        length, offset = max(n, m) - min(n, m) + 1, min(n, m) - 1
    else:
        raise ValueError(
            f"gpuoff.lib.convolve: mode must be 'full', 'same' or 'valid', not {mode!r}"
        )
    res = result(out, (length,), np.result_type(a.dtype, v.dtype), "convolve")
    _convolve[(-(-length // BLOCK) * BLOCK,), (BLOCK,)](a, v, res, offset)
    return res


def _pair(v: int | tuple[int, int], name: str, low: int) -> tuple[int, int]:
    pair = (v, v) if isinstance(v, int) else tuple(v)
    if len(pair) != 2 or not all(isinstance(p, int) and p >= low for p in pair):
        raise ValueError(
            f"gpuoff.lib.conv2d: {name} must be an int >= {low} or a pair of them, not {v!r}"
        )
    return int(pair[0]), int(pair[1])


@entry_point
def conv2d(
    x: Operand, w: Operand, stride: int | tuple[int, int] = 1,
    padding: int | tuple[int, int] = 0, out: object = None,
) -> go.Buffer[Any]:  # fmt: skip
    """``torch.nn.functional.conv2d(x, w, stride=stride, padding=padding)`` without bias or
    groups: ``x`` is ``(N, C, H, W)``, ``w`` is ``(O, C, kh, kw)``, the result ``(N, O,
    (H + 2 ph - kh) // sh + 1, (W + 2 pw - kw) // sw + 1)``; float32 or float64."""
    a = _numeric(x, "conv2d", "x", _FLOATS)
    f = _numeric(w, "conv2d", "w", _FLOATS)
    if a.ndim != 4 or f.ndim != 4:
        raise ShapeError(
            f"gpuoff.lib.conv2d: x and w must be 4-d (N, C, H, W) and (O, C, kh, kw), "
            f"not {a.shape} and {f.shape}"
        )
    if a.shape[1] != f.shape[1]:
        raise ShapeError(
            f"gpuoff.lib.conv2d: x has {a.shape[1]} channels, w expects {f.shape[1]}"
        )
    sh, sw = _pair(stride, "stride", 1)
    ph, pw = _pair(padding, "padding", 0)
    batch, _, h, wd = a.shape
    oc, _, kh, kw = f.shape
    oh, ow = (h + 2 * ph - kh) // sh + 1, (wd + 2 * pw - kw) // sw + 1
    if oh <= 0 or ow <= 0:
        raise ShapeError(
            f"gpuoff.lib.conv2d: the kernel ({kh}, {kw}) is larger than the padded input "
            f"({h + 2 * ph}, {wd + 2 * pw})"
        )
    res = result(out, (batch, oc, oh, ow), np.result_type(a.dtype, f.dtype), "conv2d")
    if res.size:
        grid = (-(-ow // BLOCK) * BLOCK, oh, batch * oc)
        _conv2d[grid, (BLOCK, 1, 1)](a, f, res, sh, sw, ph, pw)
    return res
