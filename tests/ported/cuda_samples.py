"""Kernels ported from NVIDIA's cuda-samples (Samples/...), rewritten for gpuoff."""

from __future__ import annotations

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32, u32
from tests.ported.registry import Result, case

TILE = 16
"""Tile side of the transpose and the matrix product (the samples' TILE_DIM / BLOCK_SIZE)."""


# cuda-samples 0_Introduction/vectorAdd/vectorAdd.cu
@go.kernel
def vector_add_kernel(a: Borrow[Array[f32]], b: Borrow[Array[f32]],
                      c: BorrowMut[Array[f32]], n: i32) -> None:  # fmt: skip
    i = go.local_size(0) * go.group_id(0) + go.local_id(0)
    if i < n:
        c[i] = a[i] + b[i] + 0.0


@case("cuda-samples", "Samples/0_Introduction/vectorAdd/vectorAdd.cu")
def vector_add(rng: np.random.Generator) -> Result:
    n = 50000
    a, b = rng.random(n, np.float32), rng.random(n, np.float32)
    c = go.zeros(n, go.f32)
    blocks = (n + 255) // 256
    vector_add_kernel[blocks * 256, (256,)](go.array(a), go.array(b), c, n)
    return Result(c.numpy(), a + b)


# cuda-samples 6_Performance/transpose/transpose.cu (transposeNaive): flat arrays, the output
# index is y + height * x
@go.kernel
def transpose_naive(odata: BorrowMut[Array[f32]], idata: Borrow[Array[f32]], width: i32,
                    height: i32) -> None:  # fmt: skip
    x = go.global_id(0)
    y = go.global_id(1)
    if x < width and y < height:
        odata[x * height + y] = idata[y * width + x]


@case("cuda-samples", "Samples/6_Performance/transpose/transpose.cu (transposeNaive)")
def transpose_flat(rng: np.random.Generator) -> Result:
    h, w = 40, 56
    a = rng.random((h, w), np.float32)
    out = go.zeros(h * w, go.f32)
    transpose_naive[(w, h)](out, go.array(a.ravel()), w, h)
    return Result(out.numpy().reshape(w, h), a.T)


# cuda-samples 6_Performance/transpose/transpose.cu (transposeNoBankConflicts): a tile is read
# coalesced into shared memory padded by one column, and written out transposed
@go.kernel
def transpose_tiled(odata: BorrowMut[Array[f32]], idata: Borrow[Array[f32]]) -> None:
    tile = go.shared((TILE, TILE + 1), go.f32)
    tx = go.local_id(0)
    ty = go.local_id(1)
    bx = go.group_id(0)
    by = go.group_id(1)
    x = bx * TILE + tx
    y = by * TILE + ty
    if y < idata.shape[0] and x < idata.shape[1]:
        tile[ty, tx] = idata[y, x]
    go.barrier()
    xo = by * TILE + tx
    yo = bx * TILE + ty
    if yo < odata.shape[0] and xo < odata.shape[1]:
        odata[yo, xo] = tile[tx, ty]


@case("cuda-samples", "Samples/6_Performance/transpose/transpose.cu (transposeNoBankConflicts)")
def transpose_shared(rng: np.random.Generator) -> Result:
    a = rng.random((3 * TILE, 5 * TILE), np.float32)
    out = go.zeros((5 * TILE, 3 * TILE), go.f32)
    transpose_tiled[(5 * TILE, 3 * TILE), (TILE, TILE)](out, go.array(a))
    return Result(out.numpy(), a.T)


# cuda-samples 2_Concepts_and_Techniques/reduction/reduction_kernel.cu (reduce3): each
# work-item adds two elements while loading, then a tree over the block halves the active
# work-items per step; work-item 0 writes the block's sum
RBLOCK = 128


@go.kernel
def reduce3(g_idata: Borrow[Array[f32]], g_odata: BorrowMut[Array[f32]]) -> None:
    sdata = go.shared(RBLOCK, go.f32)
    tid = go.local_id(0)
    i = go.group_id(0) * (RBLOCK * 2) + tid
    n = g_idata.shape[0]
    total = g_idata[i] if i < n else 0.0
    if i + RBLOCK < n:
        total += g_idata[i + RBLOCK]
    sdata[tid] = total
    go.barrier()
    s = RBLOCK // 2
    while s > 0:
        if tid < s:
            sdata[tid] = sdata[tid] + sdata[tid + s]
        go.barrier()
        s >>= 1
    if tid == 0:
        g_odata[go.group_id(0)] = sdata[0]


@case("cuda-samples", "Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu")
def reduction(rng: np.random.Generator) -> Result:
    x = rng.random(10000, np.float32)
    groups = -(-10000 // (2 * RBLOCK))
    out = go.zeros(groups, go.f32)
    reduce3[groups * RBLOCK, (RBLOCK,)](go.array(x), out)
    return Result(out.numpy().sum(), x.sum(dtype=np.float64), rtol=1e-4)


# cuda-samples 2_Concepts_and_Techniques/histogram/histogram256.cu: a per-block histogram in
# shared memory (zeroed with a block-stride loop), atomics into it, then merged into the global
# histogram with atomics
BINS = 256


@go.kernel
def histogram256(data: Borrow[Array[i32]], hist: BorrowMut[Array[u32]]) -> None:
    s_hist = go.shared(BINS, go.u32)
    lid = go.local_id(0)
    for k in range(lid, BINS, go.local_size(0)):
        s_hist[k] = u32(0)
    go.barrier()
    for i in range(go.global_id(0), data.shape[0], go.global_size(0)):
        go.atomic_add(s_hist, data[i], u32(1))
    go.barrier()
    for k in range(lid, BINS, go.local_size(0)):
        go.atomic_add(hist, k, s_hist[k])


@case("cuda-samples", "Samples/2_Concepts_and_Techniques/histogram/histogram256.cu")
def histogram(rng: np.random.Generator) -> Result:
    data = rng.integers(0, BINS, 100_000, dtype=np.int32)
    hist = go.zeros(BINS, go.u32)
    histogram256[(64 * 64,), (64,)](go.array(data), hist)
    return Result(hist.numpy(), np.bincount(data, minlength=BINS).astype(np.uint32))


# cuda-samples 0_Introduction/matrixMul/matrixMul.cu: flat row-major A (hA x wA) and B
# (wA x wB), BLOCK x BLOCK tiles of each in shared memory per step along wA
@go.kernel
def matrix_mul(c: BorrowMut[Array[f32]], a: Borrow[Array[f32]], b: Borrow[Array[f32]],
               wa: i32, wb: i32) -> None:  # fmt: skip
    a_s = go.shared((TILE, TILE), go.f32)
    b_s = go.shared((TILE, TILE), go.f32)
    bx = go.group_id(0)
    by = go.group_id(1)
    tx = go.local_id(0)
    ty = go.local_id(1)
    a_begin = wa * TILE * by
    csub = f32(0.0)
    for step in range(wa // TILE):
        a_s[ty, tx] = a[a_begin + step * TILE + wa * ty + tx]
        b_s[ty, tx] = b[TILE * bx + step * TILE * wb + wb * ty + tx]
        go.barrier()
        for k in range(TILE):
            csub += a_s[ty, k] * b_s[k, tx]
        go.barrier()
    c[wb * TILE * by + TILE * bx + wb * ty + tx] = csub


@case("cuda-samples", "Samples/0_Introduction/matrixMul/matrixMul.cu")
def tiled_matmul(rng: np.random.Generator) -> Result:
    ha, wa, wb = 2 * TILE, 3 * TILE, 4 * TILE
    a, b = rng.random((ha, wa), np.float32), rng.random((wa, wb), np.float32)
    c = go.zeros(ha * wb, go.f32)
    matrix_mul[(wb, ha), (TILE, TILE)](c, go.array(a.ravel()), go.array(b.ravel()), wa, wb)
    return Result(c.numpy().reshape(ha, wb), a @ b, rtol=1e-4)


# cuda-samples 2_Concepts_and_Techniques/convolutionSeparable (convolutionRowsKernel), one
# output pixel per work-item, the image edge clamped
RADIUS = 4


@go.kernel
def convolution_rows(dst: BorrowMut[Array[f32]], src: Borrow[Array[f32]],
                     kernel: Borrow[Array[f32]]) -> None:  # fmt: skip
    x = go.global_id(0)
    y = go.global_id(1)
    h, w = src.shape
    if x < w and y < h:
        acc = f32(0.0)
        for k in range(-RADIUS, RADIUS + 1):
            xs = min(max(x + k, 0), w - 1)
            acc += src[y, xs] * kernel[RADIUS - k]
        dst[y, x] = acc


@case("cuda-samples", "Samples/2_Concepts_and_Techniques/convolutionSeparable")
def convolution_row_filter(rng: np.random.Generator) -> Result:
    img = rng.random((30, 50), np.float32)
    kern = rng.random(2 * RADIUS + 1, np.float32)
    out = go.zeros((30, 50), go.f32)
    convolution_rows[(50, 30)](out, go.array(img), go.array(kern))
    padded = np.pad(img, ((0, 0), (RADIUS, RADIUS)), mode="edge")
    want = sum(padded[:, RADIUS + k: RADIUS + k + 50] * kern[RADIUS - k]
               for k in range(-RADIUS, RADIUS + 1))  # fmt: skip
    return Result(out.numpy(), want, rtol=1e-5)


# cuda-samples 5_Domain_Specific/nbody/bodysystemcuda_impl.h (integrateBodies): the bodies
# are visited tile by tile, each tile's positions loaded into shared memory by the block
NB = 64
SOFTENING = 0.01


@go.kernel
def nbody_accel(pos: Borrow[Array[f32]], acc: BorrowMut[Array[f32]]) -> None:
    sh = go.shared((NB, 4), go.f32)
    i = go.global_id(0)
    lid = go.local_id(0)
    n = pos.shape[0]
    px = pos[i, 0] if i < n else 0.0
    py = pos[i, 1] if i < n else 0.0
    pz = pos[i, 2] if i < n else 0.0
    ax, ay, az = f32(0.0), f32(0.0), f32(0.0)
    for tile in range(go.num_groups(0)):
        j = tile * NB + lid
        for c in range(4):
            sh[lid, c] = pos[j, c] if j < n else 0.0
        go.barrier()
        for k in range(NB):
            dx = sh[k, 0] - px
            dy = sh[k, 1] - py
            dz = sh[k, 2] - pz
            inv = go.rsqrt(dx * dx + dy * dy + dz * dz + SOFTENING)
            s = sh[k, 3] * inv * inv * inv
            ax += dx * s
            ay += dy * s
            az += dz * s
        go.barrier()
    if i < n:
        acc[i, 0] = ax
        acc[i, 1] = ay
        acc[i, 2] = az


@case("cuda-samples", "Samples/5_Domain_Specific/nbody/bodysystemcuda_impl.h")
def nbody(rng: np.random.Generator) -> Result:
    n = 3 * NB
    pos = rng.random((n, 4), np.float32)
    acc = go.zeros((n, 3), go.f32)
    nbody_accel[n, (NB,)](go.array(pos), acc)
    d = pos[None, :, :3] - pos[:, None, :3]
    inv = 1.0 / np.sqrt((d * d).sum(-1) + SOFTENING)
    want = (d * (pos[None, :, 3] * inv**3)[..., None]).sum(1)
    return Result(acc.numpy(), want, rtol=1e-3, atol=1e-3)


# cuda-samples 2_Concepts_and_Techniques/sortingNetworks/bitonicSort.cu (bitonicSortShared):
# each work-item owns a pair (pos, pos + stride) with pos = 2 * t - (t & (stride - 1))
SORT = 256


@go.kernel
def bitonic_sort_shared(keys: BorrowMut[Array[f32]]) -> None:
    sh = go.shared(SORT, go.f32)
    t = go.local_id(0)
    base = go.group_id(0) * SORT
    sh[t] = keys[base + t]
    sh[t + SORT // 2] = keys[base + t + SORT // 2]
    size = 2
    while size <= SORT:
        stride = size // 2
        while stride > 0:
            go.barrier()
            pos = 2 * t - (t & (stride - 1))
            ascending = (t & (size // 2)) == 0 or size == SORT
            a = sh[pos]
            b = sh[pos + stride]
            if (a > b) == ascending:
                sh[pos] = b
                sh[pos + stride] = a
            stride //= 2
        size *= 2
    go.barrier()
    keys[base + t] = sh[t]
    keys[base + t + SORT // 2] = sh[t + SORT // 2]


@case("cuda-samples", "Samples/2_Concepts_and_Techniques/sortingNetworks/bitonicSort.cu")
def bitonic_sort(rng: np.random.Generator) -> Result:
    keys = rng.random(4 * SORT, np.float32)
    buf = go.array(keys)
    bitonic_sort_shared[4 * SORT // 2, (SORT // 2,)](buf)
    return Result(buf.numpy(), np.sort(keys.reshape(4, SORT), axis=1).ravel())


# cuda-samples 2_Concepts_and_Techniques/boxFilter/boxFilter_kernel.cu (d_boxfilter_x): one
# work-item per row keeps a running sum along its row
@go.kernel
def box_filter_rows(src: Borrow[Array[f32]], dst: BorrowMut[Array[f32]], r: i32) -> None:
    y = go.global_id(0)
    h, w = src.shape
    if y >= h:
        return
    scale = 1.0 / (2 * r + 1)
    acc = f32(0.0)
    for x in range(-r, r + 1):
        acc += src[y, min(max(x, 0), w - 1)]
    for x in range(w):
        dst[y, x] = acc * scale
        acc += src[y, min(x + r + 1, w - 1)] - src[y, max(x - r, 0)]


@case("cuda-samples", "Samples/2_Concepts_and_Techniques/boxFilter/boxFilter_kernel.cu")
def box_filter(rng: np.random.Generator) -> Result:
    img = rng.random((20, 64), np.float32)
    out = go.zeros((20, 64), go.f32)
    box_filter_rows[20](go.array(img), out, 3)
    p = np.pad(img, ((0, 0), (3, 3)), mode="edge")
    want = sum(p[:, k: k + 64] for k in range(7)) / 7.0
    return Result(out.numpy(), want, rtol=1e-4, atol=1e-5)


# cuda-samples 2_Concepts_and_Techniques/scan/scan.cu (scan1Inclusive): a Hillis-Steele scan of
# one block in shared memory, zero padding below each element, two barriers per step
SB = 128


@go.kernel
def scan_inclusive_shared(data: Borrow[Array[u32]], out: BorrowMut[Array[u32]]) -> None:
    s = go.shared(2 * SB, go.u32)
    lid = go.local_id(0)
    i = go.global_id(0)
    pos = 2 * lid - (lid & (SB - 1))
    s[pos] = u32(0)
    pos += SB
    s[pos] = data[i] if i < data.shape[0] else u32(0)
    offset = 1
    while offset < SB:
        go.barrier()
        t = s[pos] + s[pos - offset]
        go.barrier()
        s[pos] = t
        offset <<= 1
    go.barrier()
    if i < out.shape[0]:
        out[i] = s[pos]


@case("cuda-samples", "Samples/2_Concepts_and_Techniques/scan/scan.cu (scan1Inclusive)")
def scan_shared(rng: np.random.Generator) -> Result:
    data = rng.integers(0, 100, 3 * SB, dtype=np.uint32)
    out = go.zeros(3 * SB, go.u32)
    scan_inclusive_shared[3 * SB, (SB,)](go.array(data), out)
    want = np.cumsum(data.reshape(3, SB), axis=1, dtype=np.uint32).ravel()
    return Result(out.numpy(), want)


# cuda-samples 0_Introduction/simpleAtomicIntrinsics/simpleAtomicIntrinsics_kernel.cuh: every
# work-item adds to, and takes the minimum and maximum with, one element each
@go.kernel
def atomic_intrinsics(g_odata: BorrowMut[Array[i32]]) -> None:
    tid = go.global_id(0)
    go.atomic_add(g_odata, 0, 10)
    go.atomic_max(g_odata, 1, i32(tid))
    go.atomic_min(g_odata, 2, i32(tid))
    go.atomic_add(g_odata, 3, i32(tid))


@case("cuda-samples", "Samples/0_Introduction/simpleAtomicIntrinsics")
def atomics(rng: np.random.Generator) -> Result:
    n = 64 * 64
    out = go.array(np.array([0, -1, 1 << 30, 0], np.int32))
    atomic_intrinsics[n, (64,)](out)
    return Result(out.numpy(), np.array([10 * n, n - 1, 0, n * (n - 1) // 2], np.int32))


# cuda-samples 5_Domain_Specific/SobelFilter/SobelFilter_kernels.cu (SobelTex): the gradient
# magnitude of a 3x3 neighbourhood per pixel, edges clamped
@go.kernel
def sobel(src: Borrow[Array[f32]], dst: BorrowMut[Array[f32]]) -> None:
    x = go.global_id(0)
    y = go.global_id(1)
    h, w = src.shape
    if x >= w or y >= h:
        return
    xl, xr = max(x - 1, 0), min(x + 1, w - 1)
    yu, yd = max(y - 1, 0), min(y + 1, h - 1)
    gx = (src[yu, xr] + 2.0 * src[y, xr] + src[yd, xr]) - (
        src[yu, xl] + 2.0 * src[y, xl] + src[yd, xl])
    gy = (src[yd, xl] + 2.0 * src[yd, x] + src[yd, xr]) - (
        src[yu, xl] + 2.0 * src[yu, x] + src[yu, xr])
    dst[y, x] = go.sqrt(gx * gx + gy * gy)


@case("cuda-samples", "Samples/5_Domain_Specific/SobelFilter/SobelFilter_kernels.cu")
def sobel_filter(rng: np.random.Generator) -> Result:
    img = rng.random((24, 40), np.float32)
    out = go.zeros((24, 40), go.f32)
    sobel[(40, 24)](go.array(img), out)
    p = np.pad(img, 1, mode="edge")
    gx = (p[:-2, 2:] + 2 * p[1:-1, 2:] + p[2:, 2:]) - (p[:-2, :-2] + 2 * p[1:-1, :-2] + p[2:, :-2])
    gy = (p[2:, :-2] + 2 * p[2:, 1:-1] + p[2:, 2:]) - (p[:-2, :-2] + 2 * p[:-2, 1:-1] + p[:-2, 2:])
    return Result(out.numpy(), np.sqrt(gx * gx + gy * gy), rtol=1e-5, atol=1e-5)
