"""cuda-samples kernels that exercise the intrinsics (the rest of cuda-samples is in
``cuda_samples``): SobolQRNG's ``__ffs`` Gray-code stepping and simpleAtomicIntrinsics'
every-atomic counters, in our own words."""

from __future__ import annotations

from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut
from tests.ported.registry import Result, case

N_DIRECTIONS = 32
K_2POWNEG32 = 2.3283064e-10  # 2^-32, as the sample scales the 32-bit integers


@go.kernel
def sobol(n_vectors: go.i32, directions: Borrow[Array[go.u32]],
          out: BorrowMut[Array[go.f32]]) -> None:  # fmt: skip
    dim = go.group_id(1)
    i0 = go.i32(go.global_id(0))
    stride = go.i32(go.global_size(0))
    # The point of index i0 from its Gray code g = i0 ^ (i0 >> 1): XOR of the direction
    # numbers of g's set bits.
    g = go.u32(i0 ^ (i0 >> 1))
    x = go.u32(0)
    for k in range(N_DIRECTIONS):
        if (g >> k) & 1:
            x ^= directions[dim, k]
    if i0 < n_vectors:
        out[dim, i0] = go.f32(x) * K_2POWNEG32
    # Stepping by the stride (a power of two) flips the stride's own direction number and
    # that of the lowest zero bit above it: __ffs(~((i - stride) | (stride - 1))) - 1.
    log2stride = go.ffs(stride) - 1
    v_stride = directions[dim, log2stride - 1]
    i = i0 + stride
    while i < n_vectors:
        x ^= v_stride ^ directions[dim, go.ffs(~((i - stride) | (stride - 1))) - 1]
        out[dim, i] = go.f32(x) * K_2POWNEG32
        i += stride


def direction_numbers(n_dims: int) -> np.ndarray[Any, Any]:
    """Dimension 0: v_k = 2^(31-k) (van der Corput); dimension 1: the primitive polynomial
    x + 1 with m_1 = 1 (Joe and Kuo's first entry), v_k = v_{k-1} ^ (v_{k-1} >> 1)."""
    v = np.zeros((n_dims, N_DIRECTIONS), np.uint32)
    v[0] = [1 << (31 - k) for k in range(N_DIRECTIONS)]
    if n_dims > 1:
        v[1, 0] = 1 << 31
        for k in range(1, N_DIRECTIONS):
            v[1, k] = v[1, k - 1] ^ (v[1, k - 1] >> 1)
    return v


def sobol_reference(v: np.ndarray[Any, Any], n: int) -> np.ndarray[Any, Any]:
    out = np.zeros((v.shape[0], n), np.float32)
    for d in range(v.shape[0]):
        x = 0
        for i in range(n):
            out[d, i] = np.float32(x) * np.float32(K_2POWNEG32)
            x ^= int(v[d, ((~i) & -(~i)).bit_length() - 1])  # ctz(~i)
    return out


@case("cuda-samples", "Samples/5_Domain_Specific/SobolQRNG/sobol_gpu.cu")
def sobol_qrng(rng: np.random.Generator) -> Result:
    # Each work-item builds the Gray-code Sobol point of its first index from the direction
    # numbers, then walks indices a grid apart, flipping the bits the Gray code changes,
    # found with go.ffs (CUDA's __ffs) as the sample does. Checked against the sequential
    # recurrence of the sample's CPU reference (x_{i+1} = x_i ^ v[ctz(~i)]) and, for the
    # first dimension, the van der Corput sequence in Gray-code order.
    n = 3000 + int(rng.integers(0, 100))
    v = direction_numbers(2)
    out = go.zeros((2, n), go.f32)
    sobol[(64 * 4, 2), (64, 1)](n, go.asarray(v), out)
    got = out.numpy()
    vdc = [int(format(i ^ (i >> 1), "032b")[::-1], 2) for i in range(n)]
    want0 = np.array(vdc, np.float32) * np.float32(K_2POWNEG32)
    return Result((got, got[0]), (sobol_reference(v, n), want0), rtol=0.0, atol=0.0)


GROUPS, GROUP_SIZE = 64, 256
N = GROUPS * GROUP_SIZE
INC_LIMIT, DEC_LIMIT = 17, 137


@go.kernel
def atomics(data: BorrowMut[Array[go.i32]], counters: BorrowMut[Array[go.u32]],
            olds: BorrowMut[Array[go.i32]]) -> None:  # fmt: skip
    tid = go.i32(go.global_id(0))
    go.atomic_add(data, 0, 10)
    olds[0, tid] = go.atomic_exch(data, 1, tid)
    go.atomic_max(data, 2, tid)
    go.atomic_min(data, 3, tid)
    go.atomic_inc(counters, 0, INC_LIMIT)  # CUDA's: (old >= 17) ? 0 : old + 1
    go.atomic_dec(counters, 1, DEC_LIMIT)  # (old == 0 || old > 137) ? 137 : old - 1
    olds[1, tid] = go.atomic_cas(data, 6, tid - 1, tid)
    go.atomic_and(data, 7, 2 * tid + 7)
    go.atomic_or(data, 8, 1 << (tid % 32))  # the sample's 1 << tid, kept to a defined shift
    go.atomic_xor(data, 9, tid)
    olds[2, tid] = go.atomic_sub(data, 4, 1)


@case("cuda-samples",
      "Samples/0_Introduction/simpleAtomicIntrinsics/simpleAtomicIntrinsics_kernel.cuh")
def simple_atomic_intrinsics(rng: np.random.Generator) -> Result:
    # 64 groups of 256 work-items hit ten counters with every CUDA atomic, each work-item
    # once; final values checked as the sample's computeGold does (order-independent ones
    # exactly; for exch and cas, whose result depends on the order, what any order allows).
    # The returned old values, which the sample drops, must each be a state the element
    # passed through.
    init = np.zeros(10, np.int32)
    init[7] = init[9] = 0xFF  # as the sample seeds the and/xor counters
    data = go.asarray(init)
    counters = go.zeros(2, go.u32)
    olds = go.zeros((3, N), go.i32)
    atomics[(N,), (GROUP_SIZE,)](data, counters, olds)
    d, c, o = data.numpy(), counters.numpy(), olds.numpy()
    tids = np.arange(N, dtype=np.int64)
    inc = dec = 0
    for _ in range(N):  # computeGold's sequential replay (order-independent)
        inc = 0 if inc >= INC_LIMIT else inc + 1
        dec = DEC_LIMIT if dec == 0 or dec > DEC_LIMIT else dec - 1
    and_gold, or_gold, xor_gold = 0xFF, 0, 0xFF
    for t in range(N):
        and_gold &= 2 * t + 7
        or_gold |= 1 << (t % 32)
        xor_gold ^= t
    k = int(d[6])  # cas(tid - 1 -> tid) from 0: the chain 1, 2, ..., k succeeded
    got = (d[[0, 2, 3, 4, 7, 9]], d[8].view(np.uint32), c, np.sort(o[2]),
           np.sort([*o[0].tolist(), int(d[1])]), tids[o[1] == tids - 1])  # fmt: skip
    want = (np.array([10 * N, N - 1, 0, -N, and_gold, xor_gold]), np.uint32(or_gold),
            np.array([inc, dec]), np.arange(-N + 1, 1),  # sub: every state once
            np.array([0, *range(N)]),  # exch: the olds and the final value, each once
            np.arange(1, k + 1))  # fmt: skip
    return Result(got, want, rtol=0.0, atol=0.0)
