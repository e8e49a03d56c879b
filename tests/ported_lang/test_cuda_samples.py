"""Kernels ported from NVIDIA's cuda-samples, written as their sources write them (in our own
words), on every device against the interpreter and NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i64, u32
from tests.backends.agree import agree

NDArray = np.ndarray[Any, Any]
RNG = np.random.default_rng(2026)

# -- Black-Scholes -----------------------------------------------------------------------------
# Source: cuda-samples, Samples/5_Domain_Specific/BlackScholes (BlackScholes_kernel.cuh): a
# device function computes both prices and hands them back through two out-references
# (float &CallResult, float &PutResult); here it returns the tuple (call, put). The kernel
# walks the options with a grid-stride loop, as the source's does.

CND_A = (0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429)
RSQRT2PI = 0.39894228040143267793994605993438


@go.func
def cnd(d: f32) -> f32:
    """The cumulative normal distribution, by the polynomial approximation of the source."""
    k = 1.0 / (1.0 + 0.2316419 * abs(d))
    poly = k * (CND_A[0] + k * (CND_A[1] + k * (CND_A[2] + k * (CND_A[3] + k * CND_A[4]))))
    c = RSQRT2PI * go.exp(-0.5 * d * d) * poly
    return 1.0 - c if d > 0 else c


@go.func
def option_prices(s: f32, x: f32, t: f32, r: f32, v: f32) -> tuple[f32, f32]:
    sqrt_t = go.sqrt(t)
    d1 = (go.log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrt_t)
    d2 = d1 - v * sqrt_t
    cnd1, cnd2 = cnd(d1), cnd(d2)
    exp_rt = go.exp(-r * t)
    return s * cnd1 - x * exp_rt * cnd2, x * exp_rt * (1.0 - cnd2) - s * (1.0 - cnd1)


@go.kernel
def black_scholes(call: BorrowMut[Array[f32]], put: BorrowMut[Array[f32]],
                  price: Borrow[Array[f32]], strike: Borrow[Array[f32]],
                  years: Borrow[Array[f32]], riskfree: f32, volatility: f32) -> None:  # fmt: skip
    for opt in range(go.global_id(0), len(price), go.global_size(0)):
        call[opt], put[opt] = option_prices(price[opt], strike[opt], years[opt], riskfree,
                                            volatility)  # fmt: skip


def _black_scholes_numpy(s: NDArray, x: NDArray, t: NDArray, r: float,
                         v: float) -> tuple[NDArray, NDArray]:  # fmt: skip
    def cnd_np(d: NDArray) -> NDArray:
        k = 1.0 / (1.0 + 0.2316419 * np.abs(d))
        a = CND_A
        c = RSQRT2PI * np.exp(-0.5 * d * d) * (k * (a[0] + k * (a[1] + k * (a[2] + k * (
            a[3] + k * a[4])))))  # fmt: skip
        return np.where(d > 0, 1.0 - c, c)

    s, x, t = (a.astype(np.float64) for a in (s, x, t))
    d1 = (np.log(s / x) + (r + 0.5 * v * v) * t) / (v * np.sqrt(t))
    d2 = d1 - v * np.sqrt(t)
    e = np.exp(-r * t)
    return s * cnd_np(d1) - x * e * cnd_np(d2), x * e * (1 - cnd_np(d2)) - s * (1 - cnd_np(d1))


def test_black_scholes_returns_call_and_put(device: str) -> None:
    n = 1000  # options, walked by 128 work-items
    price = RNG.uniform(5.0, 30.0, n).astype(np.float32)
    strike = RNG.uniform(1.0, 100.0, n).astype(np.float32)
    years = RNG.uniform(0.25, 10.0, n).astype(np.float32)
    z = np.zeros(n, np.float32)
    call, put, *_ = agree(black_scholes, 128, z, z.copy(), price, strike, years,
                          np.float32(0.02), np.float32(0.30), rtol=1e-4, atol=1e-4)  # fmt: skip
    want_call, want_put = _black_scholes_numpy(price, strike, years, 0.02, 0.30)
    np.testing.assert_allclose(call, want_call, rtol=1e-4, atol=2e-4)
    np.testing.assert_allclose(put, want_put, rtol=1e-4, atol=2e-4)


# -- FDTD3d ------------------------------------------------------------------------------------
# Source: cuda-samples, Samples/5_Domain_Specific/FDTD3d (FDTD3dGPUKernel.cuh): an 8th-order
# (radius 4) 3-D stencil; each work-item owns one (y, x) column and marches along z, keeping
# the planes behind and in front of the current one in two private arrays (float
# behind[RADIUS], infront[RADIUS]) and the current xy plane of its group in a shared tile with
# a halo. The input carries a RADIUS-wide border on every side.

RADIUS = 4
TILE_Y, TILE_X = 8, 16
COEFFS = (0.4, 0.08, 0.04, 0.02, 0.01)  # the centre, then each distance 1..RADIUS


@go.kernel
def fdtd3d(out: BorrowMut[Array[f32]], inp: Borrow[Array[f32]]) -> None:
    ty, tx = go.local_id(0), go.local_id(1)
    iy, ix = go.global_id(0), go.global_id(1)
    depth = out.shape[0]
    tile = go.shared((TILE_Y + 2 * RADIUS, TILE_X + 2 * RADIUS), go.f32)
    behind = go.local_array(RADIUS, go.f32)
    infront = go.local_array(RADIUS, go.f32)
    y, x = iy + RADIUS, ix + RADIUS  # this column in the padded input
    current = inp[RADIUS, y, x]
    for i in range(1, RADIUS + 1):
        behind[i - 1] = inp[RADIUS - i, y, x]
        infront[i - 1] = inp[RADIUS + i, y, x]
    for z in range(depth):
        go.barrier()  # the previous plane's tile has been read
        zp = z + RADIUS
        if ty < RADIUS:
            tile[ty, tx + RADIUS] = inp[zp, y - RADIUS, x]
            tile[ty + TILE_Y + RADIUS, tx + RADIUS] = inp[zp, y + TILE_Y, x]
        if tx < RADIUS:
            tile[ty + RADIUS, tx] = inp[zp, y, x - RADIUS]
            tile[ty + RADIUS, tx + TILE_X + RADIUS] = inp[zp, y, x + TILE_X]
        tile[ty + RADIUS, tx + RADIUS] = current
        go.barrier()
        value = COEFFS[0] * current
        for i in range(1, RADIUS + 1):
            value += COEFFS[i] * (
                infront[i - 1] + behind[i - 1]
                + tile[ty + RADIUS - i, tx + RADIUS] + tile[ty + RADIUS + i, tx + RADIUS]
                + tile[ty + RADIUS, tx + RADIUS - i] + tile[ty + RADIUS, tx + RADIUS + i]
            )  # fmt: skip
        out[z, iy, ix] = value
        # Advance the queue along z: behind <- current <- infront <- the next plane.
        for i in range(RADIUS - 1, 0, -1):
            behind[i] = behind[i - 1]
        behind[0] = current
        current = infront[0]
        for i in range(RADIUS - 1):
            infront[i] = infront[i + 1]
        if z + 1 < depth:
            infront[RADIUS - 1] = inp[zp + 1 + RADIUS, y, x]


def _fdtd3d_numpy(inp: NDArray, shape: tuple[int, int, int]) -> NDArray:
    d, h, w = shape
    r = RADIUS
    p = inp.astype(np.float64)

    def at(dz: int, dy: int, dx: int) -> NDArray:
        return p[r + dz: r + dz + d, r + dy: r + dy + h, r + dx: r + dx + w]

    out = COEFFS[0] * at(0, 0, 0)
    for i in range(1, r + 1):
        out = out + COEFFS[i] * (at(i, 0, 0) + at(-i, 0, 0) + at(0, -i, 0) + at(0, i, 0)
                                 + at(0, 0, -i) + at(0, 0, i))  # fmt: skip
    return out


def test_fdtd3d_marches_z_with_private_arrays(device: str) -> None:
    shape = (5, 2 * TILE_Y, 2 * TILE_X)
    inp = RNG.random(tuple(s + 2 * RADIUS for s in shape)).astype(np.float32)
    out, _ = agree(fdtd3d, shape[1:], np.zeros(shape, np.float32), inp,
                   block=(TILE_Y, TILE_X), rtol=1e-5, atol=1e-6)  # fmt: skip
    np.testing.assert_allclose(out, _fdtd3d_numpy(inp, shape), rtol=1e-5, atol=1e-6)


# -- scan --------------------------------------------------------------------------------------
# Source: cuda-samples, Samples/2_Concepts_and_Techniques/scan (scan.cu, scanExclusiveShared):
# each work-item loads four consecutive values (a uint4), scans them itself, and the group
# scans the work-items' totals with a device function that synchronises the group
# (scan1Inclusive: __syncthreads() inside a __device__ function) over a shared buffer twice the
# group's size whose lower half stays zero. Here the uint4 is a tuple of four u32.

THREADS = 64


@go.func
def scan1_inclusive(value: u32, buf: BorrowMut[Array[u32]], size: i64) -> u32:
    lid = go.local_id(0)
    pos = 2 * lid - (lid & (size - 1))
    buf[pos] = 0
    pos += size
    buf[pos] = value
    offset = 1
    while offset < size:
        go.barrier()
        t = buf[pos] + buf[pos - offset]
        go.barrier()
        buf[pos] = t
        offset <<= 1
    return buf[pos]


@go.func
def scan1_exclusive(value: u32, buf: BorrowMut[Array[u32]], size: i64) -> u32:
    return scan1_inclusive(value, buf, size) - value


@go.func
def scan4_exclusive(v: tuple[u32, u32, u32, u32], buf: BorrowMut[Array[u32]],
                    size: i64) -> tuple[u32, u32, u32, u32]:  # fmt: skip
    x, y, z, w = v
    y += x
    z += y
    w += z
    before = scan1_exclusive(w, buf, size // 4)
    return before + x - v[0], before + y - v[1], before + z - v[2], before + w - v[3]


@go.kernel
def scan_exclusive_shared(dst: BorrowMut[Array[u32]], src: Borrow[Array[u32]]) -> None:
    buf = go.shared(2 * THREADS, go.u32)
    i = go.global_id(0)
    quad = (src[i, 0], src[i, 1], src[i, 2], src[i, 3])
    dst[i, 0], dst[i, 1], dst[i, 2], dst[i, 3] = scan4_exclusive(quad, buf, 4 * THREADS)


def test_scan_synchronises_inside_a_device_function(device: str) -> None:
    groups = 3
    src = RNG.integers(0, 2**31, (groups * THREADS, 4), dtype=np.uint32)
    (dst, _) = agree(scan_exclusive_shared, groups * THREADS, np.zeros_like(src), src,
                     block=(THREADS,))  # fmt: skip
    seg = src.reshape(groups, -1)
    with np.errstate(over="ignore"):
        want = (np.cumsum(seg, axis=1, dtype=np.uint32) - seg).reshape(src.shape)
    np.testing.assert_array_equal(dst, want)
