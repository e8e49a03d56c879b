"""cuda-samples' SobolQRNG (Samples/5_Domain_Specific/SobolQRNG, sobol_gpu.cu), ported in our
own words: each work-item builds the Gray-code Sobol point of its first index from the
direction numbers, then walks its later indices a whole grid apart, flipping the bits the
Gray code changes, found with ``go.ffs`` (CUDA's ``__ffs``) as the sample does. Checked
against the sequential recurrence of the sample's CPU reference (``x_{i+1} = x_i ^
v[ctz(~i)]``) and, for the first dimension, against the van der Corput sequence."""

from __future__ import annotations

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut

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


def direction_numbers(n_dims: int) -> np.ndarray:
    """Dimension 0: v_k = 2^(31-k) (van der Corput); dimension 1: the primitive polynomial
    x + 1 with m_1 = 1 (Joe and Kuo's first entry), v_k = v_{k-1} ^ (v_{k-1} >> 1)."""
    v = np.zeros((n_dims, N_DIRECTIONS), np.uint32)
    v[0] = [1 << (31 - k) for k in range(N_DIRECTIONS)]
    if n_dims > 1:
        v[1, 0] = 1 << 31
        for k in range(1, N_DIRECTIONS):
            v[1, k] = v[1, k - 1] ^ (v[1, k - 1] >> 1)
    return v


def sobol_reference(v: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros((v.shape[0], n), np.float32)
    for d in range(v.shape[0]):
        x = 0
        for i in range(n):
            out[d, i] = np.float32(x) * np.float32(K_2POWNEG32)
            x ^= int(v[d, ((~i) & -(~i)).bit_length() - 1])  # ctz(~i)
    return out


def test_sobol_matches_the_sequential_recurrence(device: str) -> None:
    n = 3000
    v = direction_numbers(2)
    out = go.zeros((2, n), go.f32)
    sobol[(64 * 4, 2), (64, 1)](n, go.asarray(v), out)
    got = out.numpy()
    np.testing.assert_array_equal(got, sobol_reference(v, n))
    vdc = [int(format(i ^ (i >> 1), "032b")[::-1], 2) for i in range(n)]  # Gray-code order
    np.testing.assert_array_equal(got[0], np.array(vdc, np.float32) * np.float32(K_2POWNEG32))
