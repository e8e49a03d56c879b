"""Kernels ported from PyOpenCL's examples (examples/*.py), rewritten for gpuoff."""

from __future__ import annotations

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32, u32
from tests.ported.registry import Result, case

BLOCK = 16
"""The examples' BLOCK_SIZE (local work-group side)."""


# PyOpenCL examples/demo.py: the sum of two vectors
@go.kernel
def sum_kernel(a_g: Borrow[Array[f32]], b_g: Borrow[Array[f32]],
               res_g: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    gid = go.global_id(0)
    res_g[gid] = a_g[gid] + b_g[gid]


@case("PyOpenCL", "examples/demo.py")
def demo_sum(rng: np.random.Generator) -> Result:
    a, b = rng.random(50000, np.float32), rng.random(50000, np.float32)
    res = go.zeros(50000, go.f32)
    sum_kernel[50000](go.array(a), go.array(b), res)
    return Result(res.numpy(), a + b)


# PyOpenCL examples/matrix-multiply.py: flat row-major matrices, BLOCK x BLOCK sub-matrices of
# A and B in local memory; the result goes to C[gid(1) * global_size(0) + gid(0)]
@go.kernel
def matrix_mul(c: BorrowMut[Array[f32]], a: Borrow[Array[f32]], b: Borrow[Array[f32]],
               wa: i32, wb: i32) -> None:  # fmt: skip
    a_sub = go.shared((BLOCK, BLOCK), go.f32)
    b_sub = go.shared((BLOCK, BLOCK), go.f32)
    bx, by = go.group_id(0), go.group_id(1)
    tx, ty = go.local_id(0), go.local_id(1)
    a_begin = wa * BLOCK * by
    acc = f32(0.0)
    for step in range(wa // BLOCK):
        a_sub[ty, tx] = a[a_begin + step * BLOCK + wa * ty + tx]
        b_sub[ty, tx] = b[BLOCK * bx + step * BLOCK * wb + wb * ty + tx]
        go.barrier()
        for k in range(BLOCK):
            acc += a_sub[ty, k] * b_sub[k, tx]
        go.barrier()
    c[go.global_id(1) * go.global_size(0) + go.global_id(0)] = acc


@case("PyOpenCL", "examples/matrix-multiply.py")
def local_matmul(rng: np.random.Generator) -> Result:
    ha, wa, wb = 3 * BLOCK, 2 * BLOCK, 4 * BLOCK
    a, b = rng.random((ha, wa), np.float32), rng.random((wa, wb), np.float32)
    c = go.zeros(ha * wb, go.f32)
    matrix_mul[(wb, ha), (BLOCK, BLOCK)](c, go.array(a.ravel()), go.array(b.ravel()), wa, wb)
    return Result(c.numpy().reshape(ha, wb), a @ b, rtol=1e-4)


# PyOpenCL examples/transpose.py (transpose with local memory): a BLOCK x (BLOCK + 1) local
# block, read by rows, written by columns, flat arrays a_width wide
@go.kernel
def transpose(a_t: BorrowMut[Array[f32]], a: Borrow[Array[f32]], a_width: i32,
              a_height: i32) -> None:  # fmt: skip
    block = go.shared((BLOCK, BLOCK + 1), go.f32)
    base_idx_a = go.group_id(0) * BLOCK + go.group_id(1) * (BLOCK * a_width)
    base_idx_a_t = go.group_id(1) * BLOCK + go.group_id(0) * (BLOCK * a_height)
    lx, ly = go.local_id(0), go.local_id(1)
    block[ly, lx] = a[base_idx_a + ly * a_width + lx]
    go.barrier()
    a_t[base_idx_a_t + ly * a_height + lx] = block[lx, ly]


@case("PyOpenCL", "examples/transpose.py")
def local_transpose(rng: np.random.Generator) -> Result:
    h, w = 2 * BLOCK, 3 * BLOCK
    a = rng.random((h, w), np.float32)
    out = go.zeros(h * w, go.f32)
    transpose[(w, h), (BLOCK, BLOCK)](out, go.array(a.ravel()), w, h)
    return Result(out.numpy().reshape(w, h), a.T)


# PyOpenCL examples/demo_mandelbrot.py: escape-time iterations per pixel (a u16 image there;
# u32 here until gpuoff has u16)
@go.kernel
def mandelbrot(q_re: Borrow[Array[f32]], q_im: Borrow[Array[f32]], output: BorrowMut[Array[u32]],
               maxiter: i32) -> None:  # fmt: skip
    gid = go.global_id(0)
    if gid >= output.shape[0]:
        return
    nreal = f32(0.0)
    real = f32(0.0)
    imag = f32(0.0)
    output[gid] = u32(0)
    for curiter in range(maxiter):
        nreal = real * real - imag * imag + q_re[gid]
        imag = 2.0 * real * imag + q_im[gid]
        real = nreal
        if real * real + imag * imag > 4.0:
            output[gid] = u32(curiter)
            break


def _mandel_ref(re: np.ndarray, im: np.ndarray, maxiter: int) -> np.ndarray:
    out = np.zeros(re.shape, np.uint32)
    for k in range(re.size):
        r, i = np.float32(0), np.float32(0)
        for it in range(maxiter):
            nr = np.float32(r * r - i * i + re[k])
            i = np.float32(np.float32(2.0) * r * i + im[k])
            r = nr
            if r * r + i * i > 4.0:
                out[k] = it
                break
    return out


@case("PyOpenCL", "examples/demo_mandelbrot.py")
def mandelbrot_iterations(rng: np.random.Generator) -> Result:
    xs = np.linspace(-2.0, 1.0, 48, dtype=np.float32)
    ys = np.linspace(-1.0, 1.0, 24, dtype=np.float32)
    re, im = (v.ravel().astype(np.float32) for v in np.meshgrid(xs, ys))
    out = go.zeros(re.size, go.u32)
    mandelbrot[re.size](go.array(re), go.array(im), out, 40)
    return Result(out.numpy(), _mandel_ref(re, im, 40))


# PyOpenCL examples/median-filter.py: the median of each pixel's 3x3 neighbourhood (here by a
# min/max network on nine values, since kernels have no private arrays yet)
@go.func
def med3(a: f32, b: f32, c: f32) -> f32:
    return max(min(a, b), min(max(a, b), c))


@go.kernel
def median_filter(img: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    x = go.global_id(0)
    y = go.global_id(1)
    h, w = img.shape
    if x < 1 or y < 1 or x >= w - 1 or y >= h - 1:
        return
    # median of nine = median of (max of row minima, median of row medians, min of row maxima)
    lo = f32(-1e30)
    mid_a, mid_b, mid_c = f32(0.0), f32(0.0), f32(0.0)
    hi = f32(1e30)
    for r in range(3):
        a, b, c = img[y - 1 + r, x - 1], img[y - 1 + r, x], img[y - 1 + r, x + 1]
        lo = max(lo, min(a, min(b, c)))
        hi = min(hi, max(a, max(b, c)))
        m = med3(a, b, c)
        if r == 0:
            mid_a = m
        elif r == 1:
            mid_b = m
        else:
            mid_c = m
    out[y, x] = med3(lo, med3(mid_a, mid_b, mid_c), hi)


@case("PyOpenCL", "examples/median-filter.py")
def median(rng: np.random.Generator) -> Result:
    img = rng.random((20, 30), np.float32)
    out = go.zeros((20, 30), go.f32)
    median_filter[(30, 20)](go.array(img), out)
    want = np.zeros_like(img)
    win = np.lib.stride_tricks.sliding_window_view(img, (3, 3))
    want[1:-1, 1:-1] = np.median(win.reshape(18, 28, 9), axis=-1)
    return Result(out.numpy(), want)


# PyOpenCL's ReductionKernel (pyopencl/reduction.py, shown in examples/demo_elementwise.py's
# companion docs): stage one sums a grid-stride share of the input per work-item, then
# reduces each group in local memory; stage two reduces the group sums in one group
GROUP = 128


@go.kernel
def reduce_stage(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    ldata = go.shared(GROUP, go.f32)
    lid = go.local_id(0)
    acc = f32(0.0)
    for i in range(go.global_id(0), x.shape[0], go.global_size(0)):
        acc += x[i]
    ldata[lid] = acc
    go.barrier()
    s = GROUP // 2
    while s > 0:
        if lid < s:
            ldata[lid] += ldata[lid + s]
        go.barrier()
        s //= 2
    if lid == 0:
        out[go.group_id(0)] = ldata[0]


@case("PyOpenCL", "pyopencl/reduction.py (ReductionKernel, two stages)")
def two_stage_sum(rng: np.random.Generator) -> Result:
    x = rng.random(100_000, np.float32)
    partial = go.zeros(32, go.f32)
    total = go.zeros(1, go.f32)
    reduce_stage[32 * GROUP, (GROUP,)](go.array(x), partial)
    reduce_stage[GROUP, (GROUP,)](partial, total)
    return Result(total.numpy()[0], x.sum(dtype=np.float64), rtol=1e-4)


# PyOpenCL examples/gl_particle_animation.py: each particle moves with its velocity, falls
# under gravity and is respawned when its life runs out
@go.kernel
def particle_fountain(pos: BorrowMut[Array[f32]], vel: BorrowMut[Array[f32]],
                      pos_gen: Borrow[Array[f32]], vel_gen: Borrow[Array[f32]],
                      dt: f32) -> None:  # fmt: skip
    i = go.global_id(0)
    if i >= pos.shape[0]:
        return
    life = vel[i, 3] - dt
    if life <= 0.0:
        for c in range(3):
            pos[i, c] = pos_gen[i, c]
            vel[i, c] = vel_gen[i, c]
        life = f32(1.0)
    vel[i, 2] -= 9.8 * dt
    for c in range(3):
        pos[i, c] += vel[i, c] * dt
    vel[i, 3] = life


@case("PyOpenCL", "examples/gl_particle_animation.py")
def particles(rng: np.random.Generator) -> Result:
    n = 500
    pos, vel = rng.random((n, 4), np.float32), rng.random((n, 4), np.float32)
    pg, vg = rng.random((n, 4), np.float32), rng.random((n, 4), np.float32)
    dt = np.float32(0.3)
    p, v = go.array(pos), go.array(vel)
    particle_fountain[n](p, v, go.array(pg), go.array(vg), float(dt))
    wp, wv = pos.copy(), vel.copy()
    life = vel[:, 3] - dt
    dead = life <= 0
    wp[dead, :3], wv[dead, :3] = pg[dead, :3], vg[dead, :3]
    life[dead] = 1.0
    wv[:, 2] -= np.float32(9.8) * dt
    wp[:, :3] += wv[:, :3] * dt
    wv[:, 3] = life
    return Result((p.numpy(), v.numpy()), (wp, wv), rtol=1e-5, atol=1e-6)
