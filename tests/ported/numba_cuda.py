"""Kernels ported from numba-cuda's documentation examples (numba_cuda/numba/cuda/tests/
doc_examples and docs/source/user), rewritten for gpuoff."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, f64, i32
from tests.ported.registry import Result, case

TPB = 16
"""Threads per block side of the shared-memory matmul (the docs' TPB)."""


# numba-cuda docs/source/user/kernels.rst: one work-item per element, guarded by the size
@go.kernel
def add_kernel(a: Borrow[Array[f32]], b: Borrow[Array[f32]], c: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < c.shape[0]:
        c[i] = a[i] + b[i]


@case("numba-cuda", "docs/source/user/kernels.rst (vector addition)")
def vector_add(rng: np.random.Generator) -> Result:
    a, b = rng.random(1000, np.float32), rng.random(1000, np.float32)
    c = go.zeros(1000, go.f32)
    add_kernel[1024, (128,)](go.array(a), go.array(b), c)
    return Result(c.numpy(), a + b)


# numba-cuda doc_examples/test_ufunc.py and docs "grid-stride loops": a fixed grid covers any size
@go.kernel
def scale_grid_stride(alpha: f32, x: BorrowMut[Array[f32]]) -> None:
    start = go.global_id(0)
    stride = go.global_size(0)
    for i in range(start, x.shape[0], stride):
        x[i] = alpha * x[i]


@case("numba-cuda", "docs/source/user/kernels.rst (grid-stride loop)")
def grid_stride_scale(rng: np.random.Generator) -> Result:
    x = rng.random(5000, np.float32)
    buf = go.array(x)
    scale_grid_stride[256](3.0, buf)
    return Result(buf.numpy(), np.float32(3.0) * x)


# numba-cuda doc_examples/test_matmul.py: the naive matmul, one element of C per work-item
@go.kernel
def matmul(a: Borrow[Array[f32]], b: Borrow[Array[f32]], c: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    j = go.global_id(1)
    if i < c.shape[0] and j < c.shape[1]:
        tmp = f32(0.0)
        for k in range(a.shape[1]):
            tmp += a[i, k] * b[k, j]
        c[i, j] = tmp


@case("numba-cuda", "numba_cuda/numba/cuda/tests/doc_examples/test_matmul.py (matmul)")
def naive_matmul(rng: np.random.Generator) -> Result:
    a, b = rng.random((37, 23), np.float32), rng.random((23, 29), np.float32)
    c = go.zeros((37, 29), go.f32)
    matmul[(37, 29)](go.array(a), go.array(b), c)
    return Result(c.numpy(), a @ b, rtol=1e-4)


# numba-cuda doc_examples/test_matmul.py: fast_matmul, TPB x TPB tiles of A and B in shared
# memory, one tile pair per barrier interval
@go.kernel
def fast_matmul(a: Borrow[Array[f32]], b: Borrow[Array[f32]], c: BorrowMut[Array[f32]]) -> None:
    sa = go.shared((TPB, TPB), go.f32)
    sb = go.shared((TPB, TPB), go.f32)
    x = go.global_id(0)
    y = go.global_id(1)
    tx = go.local_id(0)
    ty = go.local_id(1)
    tiles = go.num_groups(0)
    tmp = f32(0.0)
    for t in range(tiles):
        sa[ty, tx] = 0.0
        sb[ty, tx] = 0.0
        if y < a.shape[0] and tx + t * TPB < a.shape[1]:
            sa[ty, tx] = a[y, tx + t * TPB]
        if x < b.shape[1] and ty + t * TPB < b.shape[0]:
            sb[ty, tx] = b[ty + t * TPB, x]
        go.barrier()
        for j in range(TPB):
            tmp += sa[ty, j] * sb[j, tx]
        go.barrier()
    if y < c.shape[0] and x < c.shape[1]:
        c[y, x] = tmp


@case("numba-cuda", "numba_cuda/numba/cuda/tests/doc_examples/test_matmul.py (fast_matmul)")
def shared_matmul(rng: np.random.Generator) -> Result:
    n = 3 * TPB
    a, b = rng.random((n, n), np.float32), rng.random((n, n), np.float32)
    c = go.zeros((n, n), go.f32)
    fast_matmul[(n, n), (TPB, TPB)](go.array(a), go.array(b), c)
    return Result(c.numpy(), a @ b, rtol=1e-4)


# numba-cuda doc_examples/test_reduction.py: interleaved-addressing sum of each block in
# shared memory (`tid % (2 * s) == 0` adds the neighbour s away); the block's sum goes out
BLOCK = 64


@go.kernel
def block_sum(data: Borrow[Array[i32]], out: BorrowMut[Array[i32]]) -> None:
    shr = go.shared(BLOCK, go.i32)
    tid = go.local_id(0)
    i = go.global_id(0)
    shr[tid] = data[i] if i < data.shape[0] else 0
    go.barrier()
    s = 1
    while s < BLOCK:
        if tid % (2 * s) == 0:
            shr[tid] += shr[tid + s]
        s *= 2
        go.barrier()
    if tid == 0:
        out[go.group_id(0)] = shr[0]


@case("numba-cuda", "numba_cuda/numba/cuda/tests/doc_examples/test_reduction.py")
def shared_reduction(rng: np.random.Generator) -> Result:
    data = rng.integers(-100, 100, 1000, dtype=np.int32)
    groups = -(-1000 // BLOCK)
    out = go.zeros(groups, go.i32)
    block_sum[groups * BLOCK, (BLOCK,)](go.array(data), out)
    want = np.add.reduceat(data, np.arange(0, 1000, BLOCK))
    return Result(out.numpy(), want)


# numba-cuda doc_examples/test_laplace.py: one Jacobi step of Laplace's equation on a 2-D grid,
# the largest change of the step kept with an atomic max
@go.kernel
def jacobi_step(a: Borrow[Array[f64]], anew: BorrowMut[Array[f64]],
                error: BorrowMut[Array[f64]]) -> None:  # fmt: skip
    i = go.global_id(0)
    j = go.global_id(1)
    n, m = a.shape
    if 1 <= i < n - 1 and 1 <= j < m - 1:
        v = 0.25 * (a[i, j + 1] + a[i, j - 1] + a[i - 1, j] + a[i + 1, j])
        anew[i, j] = v
        go.atomic_max(error, 0, abs(v - a[i, j]))


@case("numba-cuda", "numba_cuda/numba/cuda/tests/doc_examples/test_laplace.py")
def laplace_jacobi(rng: np.random.Generator) -> Result:
    a = np.zeros((40, 30))
    a[0, :] = 1.0
    a[1:-1, 1:-1] = rng.random((38, 28))
    anew = go.array(a.copy())
    err = go.zeros(1, go.f64)
    jacobi_step[(40, 30)](go.array(a), anew, err)
    want = a.copy()
    want[1:-1, 1:-1] = 0.25 * (a[1:-1, 2:] + a[1:-1, :-2] + a[:-2, 1:-1] + a[2:, 1:-1])
    return Result((anew.numpy(), err.numpy()[0]), (want, np.abs(want - a).max()), rtol=1e-12)


# numba-cuda docs/source/user/intrinsics.rst (atomic operations): the maximum of an array
# with cuda.atomic.max into result[0]
@go.kernel
def max_example(result: BorrowMut[Array[f64]], values: Borrow[Array[f64]]) -> None:
    i = go.group_id(0) * go.local_size(0) + go.local_id(0)
    if i < values.shape[0]:
        go.atomic_max(result, 0, values[i])


@case("numba-cuda", "docs/source/user/intrinsics.rst (atomic max)")
def atomic_maximum(rng: np.random.Generator) -> Result:
    values = rng.random(20000)
    result = go.full(1, -1.0, go.f64)
    max_example[20480, (256,)](result, go.array(values))
    return Result(result.numpy()[0], values.max())


# numba-cuda's examples/blackscholes (blackscholes_cuda): a device function for the
# cumulative normal distribution, the call and put price of each option
RISKFREE = 0.02
VOLATILITY = 0.30


@go.func
def cnd(d: f64) -> f64:
    a1, a2, a3, a4, a5 = 0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429
    k = 1.0 / (1.0 + 0.2316419 * abs(d))
    poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))))
    ret = 0.3989422804014327 * math.exp(-0.5 * d * d) * poly
    return 1.0 - ret if d > 0 else ret


@go.kernel
def black_scholes(call: BorrowMut[Array[f64]], put: BorrowMut[Array[f64]],
                  s: Borrow[Array[f64]], x: Borrow[Array[f64]],
                  t: Borrow[Array[f64]]) -> None:  # fmt: skip
    i = go.global_id(0)
    if i >= s.shape[0]:
        return
    sqrt_t = math.sqrt(t[i])
    d1 = (math.log(s[i] / x[i]) + (RISKFREE + 0.5 * VOLATILITY * VOLATILITY) * t[i]) / (
        VOLATILITY * sqrt_t)
    d2 = d1 - VOLATILITY * sqrt_t
    exp_rt = math.exp(-RISKFREE * t[i])
    call[i] = s[i] * cnd(d1) - x[i] * exp_rt * cnd(d2)
    put[i] = x[i] * exp_rt * (1.0 - cnd(d2)) - s[i] * (1.0 - cnd(d1))


def _cnd(d: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
    poly = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978
                                                                        + k * 1.330274429))))
    ret = 0.3989422804014327 * np.exp(-0.5 * d * d) * poly
    out: np.ndarray[Any, Any] = np.where(d > 0, 1.0 - ret, ret)
    return out


@case("numba-cuda", "examples/blackscholes/blackscholes_cuda.py")
def blackscholes(rng: np.random.Generator) -> Result:
    n = 4000
    s, x, t = rng.uniform(5, 30, n), rng.uniform(1, 100, n), rng.uniform(0.25, 10, n)
    call, put = go.zeros(n, go.f64), go.zeros(n, go.f64)
    black_scholes[n](call, put, go.array(s), go.array(x), go.array(t))
    sqrt_t = np.sqrt(t)
    d1 = (np.log(s / x) + (RISKFREE + 0.5 * VOLATILITY**2) * t) / (VOLATILITY * sqrt_t)
    d2 = d1 - VOLATILITY * sqrt_t
    e = np.exp(-RISKFREE * t)
    want_call = s * _cnd(d1) - x * e * _cnd(d2)
    want_put = x * e * (1.0 - _cnd(d2)) - s * (1.0 - _cnd(d1))
    return Result((call.numpy(), put.numpy()), (want_call, want_put), rtol=1e-9, atol=1e-9)
