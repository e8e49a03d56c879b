"""Sparse matrix-vector product: ``gl.spmv`` over CSR arrays (``scipy.sparse.csr_matrix @ x``).

One work-item per row sums its stored entries in storage order. Column indices are read as
given: an index outside ``x``, or an ``indptr`` entry past the end of ``data``, is the
launch's ``go.BoundsError`` (raised when the result is read), never a read of other memory.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut
from gpuoff.errors import DTypeError, ShapeError
from gpuoff.lib._common import Operand, as_buffer, result
from gpuoff.runtime.tracebacks import entry_point

P = go.DTypeVar("P", go.i32, go.i64)
J = go.DTypeVar("J", go.i32, go.i64)
D = go.DTypeVar("D", go.f32, go.f64)
V = go.DTypeVar("V", go.f32, go.f64)
R = go.DTypeVar("R", go.f32, go.f64)

BLOCK = 64
"""Work-items (rows) per group."""

_INDEX = (np.dtype(np.int32), np.dtype(np.int64))
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


@go.kernel
def _csr_rows(indptr: Borrow[Array[P]], indices: Borrow[Array[J]], data: Borrow[Array[D]],
              x: Borrow[Array[V]], y: BorrowMut[Array[R]]) -> None:  # fmt: skip
    """``y[row] = sum(data[p] * x[indices[p]] for p in indptr[row] .. indptr[row + 1])``."""
    row = go.global_id(0)
    if row < y.shape[0]:
        acc = type(y[0])(0.0)
        for p in range(go.i64(indptr[row]), go.i64(indptr[row + 1])):
            acc += type(acc)(data[p]) * type(acc)(x[go.i64(indices[p])])
        y[row] = acc



def _check(x: go.Buffer[Any], name: str, dtypes: tuple[np.dtype[Any], ...]) -> None:
    if x.dtype not in dtypes:
        names = ", ".join(d.name for d in dtypes)
        raise DTypeError(f"gpuoff.lib.spmv: {name} must be one of {names}, not {x.dtype}")
    if x.ndim != 1:
        raise ShapeError(f"gpuoff.lib.spmv: {name} must be 1-d, not shape {x.shape}")


@entry_point
def spmv(indptr: Operand, indices: Operand, data: Operand, x: Operand,
         out: object = None) -> go.Buffer[Any]:  # fmt: skip
    """``csr_matrix((data, indices, indptr)) @ x``: ``len(indptr) - 1`` rows, column indices
    into ``x`` (int32 or int64 arrays; float32 or float64 values, the result's dtype is
    NumPy's). Duplicate entries add up, as SciPy's."""
    ptr = as_buffer(indptr, "spmv", "indptr")
    idx = as_buffer(indices, "spmv", "indices")
    val = as_buffer(data, "spmv", "data")
    vec = as_buffer(x, "spmv", "x")
    for buf, name, dtypes in ((ptr, "indptr", _INDEX), (idx, "indices", _INDEX),
                              (val, "data", _FLOATS), (vec, "x", _FLOATS)):  # fmt: skip
        _check(buf, name, dtypes)
    if ptr.shape[0] == 0:
        raise ShapeError("gpuoff.lib.spmv: indptr must have at least one entry (rows + 1)")
    if idx.shape != val.shape:
        raise ShapeError(
            f"gpuoff.lib.spmv: indices has shape {idx.shape}, data has {val.shape}"
        )
    rows = ptr.shape[0] - 1
    res = result(out, (rows,), np.result_type(val.dtype, vec.dtype), "spmv")
    if rows:
        _csr_rows[(-(-rows // BLOCK) * BLOCK,), (BLOCK,)](ptr, idx, val, vec, res)
    return res
