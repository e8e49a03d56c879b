"""The gpuoff kernels of the benchmark suite and the tour (NumPy references: ``references``).

Each kernel is written exactly as a user would write it (SPEC §1).
"""

from __future__ import annotations

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32, u8, u32


@go.kernel
def saxpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    """``y = a * x + y``: streaming, vectorised across work-items."""
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


@go.kernel
def stencil5(src: Borrow[Array[f32]], dst: BorrowMut[Array[f32]]) -> None:
    """2-D 5-point stencil; the border is copied. Grid: ``(cols, rows)``."""
    j = go.global_id(0)
    i = go.global_id(1)
    rows = src.shape[0]
    cols = src.shape[1]
    if i < rows and j < cols:
        if i > 0 and i < rows - 1 and j > 0 and j < cols - 1:
            dst[i, j] = 0.2 * ((((src[i, j] + src[i - 1, j]) + src[i + 1, j]) + src[i, j - 1])
                               + src[i, j + 1])
        else:
            dst[i, j] = src[i, j]


@go.kernel
def black_scholes(
    price: Borrow[Array[f32]],
    strike: Borrow[Array[f32]],
    years: Borrow[Array[f32]],
    rate: f32,
    vol: f32,
    call: BorrowMut[Array[f32]],
    put: BorrowMut[Array[f32]],
) -> None:
    """European call and put prices; the normal CDF is ``0.5 * (1 + erf(d / sqrt(2)))``."""
    i = go.global_id(0)
    if i < call.shape[0]:
        s = price[i]
        k = strike[i]
        t = years[i]
        sqrt_t = go.sqrt(t)
        d1 = (go.log(s / k) + (rate + 0.5 * vol * vol) * t) / (vol * sqrt_t)
        d2 = d1 - vol * sqrt_t
        cnd1 = 0.5 * (1.0 + go.erf(d1 * 0.70710678))
        cnd2 = 0.5 * (1.0 + go.erf(d2 * 0.70710678))
        disc = k * go.exp(-rate * t)
        call[i] = s * cnd1 - disc * cnd2
        put[i] = disc * (1.0 - cnd2) - s * (1.0 - cnd1)


@go.kernel
def mandelbrot(
    out: BorrowMut[Array[i32]], x0: f32, y0: f32, step: f32, max_iter: i32
) -> None:
    """Escape iterations of ``z -> z*z + c``; a ``while`` loop that leaves early (``break``)."""
    px = go.global_id(0)
    py = go.global_id(1)
    if py < out.shape[0] and px < out.shape[1]:
        cr = x0 + go.f32(px) * step
        ci = y0 + go.f32(py) * step
        zr = cr * 0.0
        zi = cr * 0.0
        n = 0
        while n < max_iter:
            zr2 = zr * zr
            zi2 = zi * zi
            if zr2 + zi2 > 4.0:
                break
            zi = 2.0 * zr * zi + ci
            zr = zr2 - zi2 + cr
            n += 1
        out[py, px] = n


REDUCE_BLOCK = 256
"""Work-group size of ``sum_reduce`` (its shared tile has this many floats)."""


@go.kernel
def sum_reduce(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    """``out[0] += sum(x)``: a grid-stride loop per work-item, a tree reduction in shared memory
    per work-group, one atomic add per work-group. Launch with block ``(REDUCE_BLOCK,)``."""
    lid = go.local_id(0)
    i = go.global_id(0)
    stride = go.global_size(0)
    acc = go.f32(0.0)
    while i < x.shape[0]:
        acc += x[i]
        i += stride
    tile = go.shared(REDUCE_BLOCK, go.f32)
    tile[lid] = acc
    go.barrier()
    s = REDUCE_BLOCK // 2
    while s > 0:
        if lid < s:
            tile[lid] += tile[lid + s]
        go.barrier()
        s //= 2
    if lid == 0:
        go.atomic_add(out, 0, tile[0])


@go.kernel
def sgemm(a: Borrow[Array[f32]], b: Borrow[Array[f32]], c: BorrowMut[Array[f32]]) -> None:
    """Naive ``c = a @ b``: one work-item per element of ``c``. Grid: ``(cols, rows)``."""
    j = go.global_id(0)
    i = go.global_id(1)
    if i < c.shape[0] and j < c.shape[1]:
        acc = go.f32(0.0)
        for k in range(a.shape[1]):
            acc += a[i, k] * b[k, j]
        c[i, j] = acc


HIST_BINS = 256


@go.kernel
def histogram256(data: Borrow[Array[u8]], bins: BorrowMut[Array[u32]]) -> None:
    """256-bin histogram: each work-group counts into shared memory (atomics), then adds its
    counts to ``bins`` (zeroed by the caller). Launch with block ``(HIST_BINS,)``."""
    lid = go.local_id(0)
    local = go.shared(HIST_BINS, go.u32)
    local[lid] = 0
    go.barrier()
    i = go.global_id(0)
    stride = go.global_size(0)
    while i < data.shape[0]:
        go.atomic_add(local, data[i], 1)
        i += stride
    go.barrier()
    go.atomic_add(bins, lid, local[lid])


@go.func
def gravity(dx: f32, dy: f32, dz: f32, m: f32) -> f32:
    """``m / r^3`` with softening (a device function)."""
    r2 = dx * dx + dy * dy + dz * dz + 0.001
    inv = 1.0 / go.sqrt(r2)
    return m * inv * inv * inv


@go.kernel
def nbody(
    px: Borrow[Array[f32]],
    py: Borrow[Array[f32]],
    pz: Borrow[Array[f32]],
    mass: Borrow[Array[f32]],
    ax: BorrowMut[Array[f32]],
    ay: BorrowMut[Array[f32]],
    az: BorrowMut[Array[f32]],
) -> None:
    """All-pairs accelerations of ``n`` bodies, one work-item per body."""
    i = go.global_id(0)
    n = px.shape[0]
    if i < n:
        xi = px[i]
        yi = py[i]
        zi = pz[i]
        fx = go.f32(0.0)
        fy = go.f32(0.0)
        fz = go.f32(0.0)
        for j in range(n):
            dx = px[j] - xi
            dy = py[j] - yi
            dz = pz[j] - zi
            s = gravity(dx, dy, dz, mass[j])
            fx += dx * s
            fy += dy * s
            fz += dz * s
        ax[i] = fx
        ay[i] = fy
        az[i] = fz
