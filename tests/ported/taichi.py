"""Kernels ported from Taichi's examples (python/taichi/examples/...), rewritten for gpuoff:
Taichi's struct-for over a field becomes one work-item per element."""

from __future__ import annotations

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32
from tests.ported.registry import Result, case


# taichi examples/simulation/fractal.py: a Julia set, z = z^2 + c in real arithmetic
@go.kernel
def paint(pixels: BorrowMut[Array[f32]], t: f32) -> None:
    i = go.global_id(0)
    j = go.global_id(1)
    n = pixels.shape[1]
    if i >= pixels.shape[0] or j >= n:
        return
    c_re = -0.8
    c_im = go.cos(t) * 0.2
    z_re = f32(i) / n - 1.0
    z_im = f32(j) / n - 0.5
    iterations = 0
    while z_re * z_re + z_im * z_im < 20.0 and iterations < 50:
        z_re, z_im = z_re * z_re - z_im * z_im + c_re, 2.0 * z_re * z_im + c_im
        iterations += 1
    pixels[i, j] = 1.0 - iterations * 0.02


def _julia(w: int, h: int, t: float) -> np.ndarray:
    out = np.zeros((w, h), np.float32)
    c_im = np.float32(np.cos(np.float32(t)) * np.float32(0.2))
    for i in range(w):
        for j in range(h):
            zr, zi = np.float32(i / h - 1.0), np.float32(j / h - 0.5)
            it = 0
            while zr * zr + zi * zi < 20.0 and it < 50:
                zr, zi = np.float32(zr * zr - zi * zi - 0.8), np.float32(2.0 * zr * zi + c_im)
                it += 1
            out[i, j] = 1.0 - it * 0.02
    return out


@case("Taichi", "python/taichi/examples/simulation/fractal.py")
def julia_set(rng: np.random.Generator) -> Result:
    pixels = go.zeros((40, 20), go.f32)
    paint[(40, 20)](pixels, 0.3)
    return Result(pixels.numpy(), _julia(40, 20, 0.3), atol=0.021)


# taichi examples/simulation/game_of_life.py: count the live neighbours, then apply the rule
@go.kernel
def life_step(alive: Borrow[Array[i32]], nxt: BorrowMut[Array[i32]]) -> None:
    i = go.global_id(0)
    j = go.global_id(1)
    n, m = alive.shape
    if i >= n or j >= m:
        return
    count = 0
    for di in range(-1, 2):
        for dj in range(-1, 2):
            if (di != 0 or dj != 0) and 0 <= i + di < n and 0 <= j + dj < m:
                count += alive[i + di, j + dj]
    if alive[i, j] == 1:
        nxt[i, j] = 1 if count == 2 or count == 3 else 0
    else:
        nxt[i, j] = 1 if count == 3 else 0


@case("Taichi", "python/taichi/examples/simulation/game_of_life.py")
def game_of_life(rng: np.random.Generator) -> Result:
    a = (rng.random((32, 48)) < 0.3).astype(np.int32)
    out = go.zeros((32, 48), go.i32)
    life_step[(32, 48)](go.array(a), out)
    p = np.pad(a, 1)
    count = sum(p[1 + di: 33 + di, 1 + dj: 49 + dj] for di in (-1, 0, 1) for dj in (-1, 0, 1)
                if di or dj)  # fmt: skip
    want = ((count == 3) | ((a == 1) & (count == 2))).astype(np.int32)
    return Result(out.numpy(), want)


# taichi examples/simulation/nbody.py (compute_force, update): all-pairs gravity with a
# softening term, then a symplectic Euler step
G_CONST = 1.0
EPS = 1e-2


@go.kernel
def compute_force(pos: Borrow[Array[f32]], mass: Borrow[Array[f32]],
                  force: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    i = go.global_id(0)
    n = pos.shape[0]
    if i >= n:
        return
    fx, fy = f32(0.0), f32(0.0)
    for j in range(n):
        if j != i:
            dx = pos[j, 0] - pos[i, 0]
            dy = pos[j, 1] - pos[i, 1]
            r2 = dx * dx + dy * dy + EPS
            s = G_CONST * mass[i] * mass[j] / (r2 * go.sqrt(r2))
            fx += s * dx
            fy += s * dy
    force[i, 0] = fx
    force[i, 1] = fy


@go.kernel
def update(pos: BorrowMut[Array[f32]], vel: BorrowMut[Array[f32]], force: Borrow[Array[f32]],
           mass: Borrow[Array[f32]], dt: f32) -> None:  # fmt: skip
    i = go.global_id(0)
    if i < pos.shape[0]:
        for c in range(2):
            vel[i, c] += dt * force[i, c] / mass[i]
            pos[i, c] += dt * vel[i, c]


@case("Taichi", "python/taichi/examples/simulation/nbody.py")
def nbody(rng: np.random.Generator) -> Result:
    n = 128
    pos0 = rng.random((n, 2), np.float32)
    vel0 = rng.random((n, 2), np.float32) - np.float32(0.5)
    mass = rng.random(n, np.float32) + np.float32(0.5)
    pos, vel, force = go.array(pos0), go.array(vel0), go.zeros((n, 2), go.f32)
    compute_force[n](pos, go.array(mass), force)
    update[n](pos, vel, force, go.array(mass), 0.001)
    d = pos0[None, :, :] - pos0[:, None, :]
    r2 = (d * d).sum(-1) + np.float32(EPS)
    s = mass[:, None] * mass[None, :] / (r2 * np.sqrt(r2))
    np.fill_diagonal(s, 0.0)
    f = (s[..., None] * d).sum(1)
    v = vel0 + np.float32(0.001) * f / mass[:, None]
    return Result((pos.numpy(), vel.numpy()), (pos0 + np.float32(0.001) * v, v), rtol=1e-3,
                  atol=1e-4)  # fmt: skip


# taichi examples/algorithm/laplace.py: the Laplacian of a field, only on every third
# diagonal ((i + j) % 3 == 0)
@go.kernel
def laplace(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    j = go.global_id(1)
    n, m = x.shape
    if 1 <= i < n - 1 and 1 <= j < m - 1:
        if (i + j) % 3 == 0:
            y[i, j] = 4.0 * x[i, j] - x[i - 1, j] - x[i + 1, j] - x[i, j - 1] - x[i, j + 1]
        else:
            y[i, j] = 0.0


@case("Taichi", "python/taichi/examples/algorithm/laplace.py")
def laplacian(rng: np.random.Generator) -> Result:
    x = rng.random((20, 30), np.float32)
    y = go.zeros((20, 30), go.f32)
    laplace[(20, 30)](go.array(x), y)
    want = np.zeros_like(x)
    lap = 4 * x[1:-1, 1:-1] - x[:-2, 1:-1] - x[2:, 1:-1] - x[1:-1, :-2] - x[1:-1, 2:]
    ii, jj = np.meshgrid(np.arange(1, 19), np.arange(1, 29), indexing="ij")
    want[1:-1, 1:-1] = np.where((ii + jj) % 3 == 0, lap, 0.0)
    return Result(y.numpy(), want, rtol=1e-5, atol=1e-6)


# taichi examples/simulation/mpm88.py (the particle-to-grid step): each particle scatters its
# mass and momentum to the 3x3 grid nodes around it with atomics (Taichi's `+=` on a field)
@go.kernel
def p2g(x: Borrow[Array[f32]], v: Borrow[Array[f32]], grid_m: BorrowMut[Array[f32]],
        grid_v: BorrowMut[Array[f32]], inv_dx: f32) -> None:  # fmt: skip
    p = go.global_id(0)
    if p >= x.shape[0]:
        return
    bx = go.floor(x[p, 0] * inv_dx - 0.5)
    by = go.floor(x[p, 1] * inv_dx - 0.5)
    fx = x[p, 0] * inv_dx - bx
    fy = x[p, 1] * inv_dx - by
    for i in range(3):
        wx = 0.5 * (1.5 - fx) ** 2 if i == 0 else (0.75 - (fx - 1.0) ** 2 if i == 1 else
                                                   0.5 * (fx - 0.5) ** 2)  # fmt: skip
        for j in range(3):
            wy = 0.5 * (1.5 - fy) ** 2 if j == 0 else (0.75 - (fy - 1.0) ** 2 if j == 1 else
                                                       0.5 * (fy - 0.5) ** 2)  # fmt: skip
            gi = i32(bx) + i
            gj = i32(by) + j
            w = wx * wy
            go.atomic_add(grid_m, (gi, gj), w)
            go.atomic_add(grid_v, (gi, gj, 0), w * v[p, 0])
            go.atomic_add(grid_v, (gi, gj, 1), w * v[p, 1])


def _weights(f: np.ndarray) -> list[np.ndarray]:
    return [0.5 * (1.5 - f) ** 2, 0.75 - (f - 1.0) ** 2, 0.5 * (f - 0.5) ** 2]


@case("Taichi", "python/taichi/examples/simulation/mpm88.py (P2G)")
def particle_to_grid(rng: np.random.Generator) -> Result:
    n_grid, n = 32, 400
    inv_dx = np.float32(n_grid)
    x = (rng.random((n, 2), np.float32) * 0.8 + 0.1).astype(np.float32)
    v = rng.random((n, 2), np.float32)
    gm, gv = go.zeros((n_grid, n_grid), go.f32), go.zeros((n_grid, n_grid, 2), go.f32)
    p2g[n](go.array(x), go.array(v), gm, gv, float(inv_dx))
    base = np.floor(x * inv_dx - 0.5)
    fr = x * inv_dx - base
    wx, wy = _weights(fr[:, 0]), _weights(fr[:, 1])
    want_m = np.zeros((n_grid, n_grid))
    want_v = np.zeros((n_grid, n_grid, 2))
    for i in range(3):
        for j in range(3):
            w = wx[i] * wy[j]
            gi, gj = base[:, 0].astype(int) + i, base[:, 1].astype(int) + j
            np.add.at(want_m, (gi, gj), w)
            np.add.at(want_v, (gi, gj, 0), w * v[:, 0])
            np.add.at(want_v, (gi, gj, 1), w * v[:, 1])
    return Result((gm.numpy(), gv.numpy()), (want_m, want_v), rtol=1e-4, atol=1e-4)


# taichi examples/simulation/waterwave.py (propagate): the height field of a damped wave,
# updated from its Laplacian
@go.kernel
def propagate(height: Borrow[Array[f32]], velocity: BorrowMut[Array[f32]],
              new_height: BorrowMut[Array[f32]], dt: f32, damping: f32) -> None:  # fmt: skip
    i = go.global_id(0)
    j = go.global_id(1)
    n, m = height.shape
    if 1 <= i < n - 1 and 1 <= j < m - 1:
        lap = height[i + 1, j] + height[i - 1, j] + height[i, j + 1] + height[i, j - 1] - (
            4.0 * height[i, j])
        vel = (velocity[i, j] + lap * dt) * damping
        velocity[i, j] = vel
        new_height[i, j] = height[i, j] + vel * dt


@case("Taichi", "python/taichi/examples/simulation/waterwave.py")
def water_wave(rng: np.random.Generator) -> Result:
    h0, v0 = rng.random((24, 24), np.float32), rng.random((24, 24), np.float32)
    v, nh = go.array(v0), go.array(h0.copy())
    propagate[(24, 24)](go.array(h0), v, nh, 0.1, 0.99)
    lap = h0[2:, 1:-1] + h0[:-2, 1:-1] + h0[1:-1, 2:] + h0[1:-1, :-2] - 4 * h0[1:-1, 1:-1]
    wv, wh = v0.copy(), h0.copy()
    wv[1:-1, 1:-1] = (v0[1:-1, 1:-1] + lap * np.float32(0.1)) * np.float32(0.99)
    wh[1:-1, 1:-1] = h0[1:-1, 1:-1] + wv[1:-1, 1:-1] * np.float32(0.1)
    return Result((v.numpy(), nh.numpy()), (wv, wh), rtol=1e-5, atol=1e-6)


# taichi docs/lang/articles/get-started/index.md ("count primes", the hello world): one
# work-item per candidate, the count kept with an atomic
@go.kernel
def count_primes(n: i32, count: BorrowMut[Array[i32]]) -> None:
    k = go.global_id(0) + 2
    if k >= n:
        return
    prime = True
    d = 2
    while d * d <= k:
        if k % d == 0:
            prime = False
            break
        d += 1
    if prime:
        go.atomic_add(count, 0, 1)


@case("Taichi", "docs/lang/articles/get-started/index.md (count_primes)")
def primes(rng: np.random.Generator) -> Result:
    count = go.zeros(1, go.i32)
    count_primes[998](1000, count)
    sieve = np.ones(1000, bool)
    sieve[:2] = False
    for p in range(2, 32):
        sieve[p * p:: p] = False
    return Result(count.numpy()[0], int(sieve.sum()))
