"""Kernels ported from NVIDIA Warp's examples (warp/examples/...) and its sparse module,
rewritten for gpuoff (Warp's vec3 values become the last axis of an array)."""

from __future__ import annotations

from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32
from tests.ported.registry import Result, case


# warp/examples/core/example_wave.py (wave_solve): one explicit step of the 2-D wave equation,
# the border held fixed
@go.kernel
def wave_solve(hprevious: BorrowMut[Array[f32]], hcurrent: Borrow[Array[f32]],
               k_speed: f32, k_damp: f32, dt: f32) -> None:  # fmt: skip
    i = go.global_id(0)
    j = go.global_id(1)
    h, w = hcurrent.shape
    if i < 1 or j < 1 or i >= h - 1 or j >= w - 1:
        return
    lap = hcurrent[i + 1, j] + hcurrent[i - 1, j] + hcurrent[i, j + 1] + hcurrent[i, j - 1] - (
        4.0 * hcurrent[i, j])
    vel = (hcurrent[i, j] - hprevious[i, j]) / dt + k_speed * lap * dt
    hprevious[i, j] = hcurrent[i, j] + (1.0 - k_damp * dt) * vel * dt


@case("Warp", "warp/examples/core/example_wave.py (wave_solve)")
def wave(rng: np.random.Generator) -> Result:
    prev, cur = rng.random((30, 40), np.float32), rng.random((30, 40), np.float32)
    p = go.array(prev)
    ks, kd, dt = np.float32(0.5), np.float32(0.1), np.float32(0.2)
    wave_solve[(30, 40)](p, go.array(cur), float(ks), float(kd), float(dt))
    want = prev.copy()
    c = cur
    lap = c[2:, 1:-1] + c[:-2, 1:-1] + c[1:-1, 2:] + c[1:-1, :-2] - np.float32(4.0) * c[1:-1, 1:-1]
    vel = (c[1:-1, 1:-1] - prev[1:-1, 1:-1]) / dt + ks * lap * dt
    want[1:-1, 1:-1] = c[1:-1, 1:-1] + (np.float32(1.0) - kd * dt) * vel * dt
    return Result(p.numpy(), want, rtol=1e-5, atol=1e-6)


# warp/examples/core/example_fluid.py (divergence, pressure_solve, pressure_apply): the
# projection step of stable fluids on a periodic grid, a Jacobi sweep of the pressure
@go.kernel
def divergence(u: Borrow[Array[f32]], div: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    j = go.global_id(1)
    n, m = div.shape
    if i < n and j < m:
        dx = (u[(i + 1) % n, j, 0] - u[(i - 1 + n) % n, j, 0]) * 0.5
        dy = (u[i, (j + 1) % m, 1] - u[i, (j - 1 + m) % m, 1]) * 0.5
        div[i, j] = dx + dy


@go.kernel
def pressure_solve(p: Borrow[Array[f32]], p_new: BorrowMut[Array[f32]],
                   div: Borrow[Array[f32]]) -> None:  # fmt: skip
    i = go.global_id(0)
    j = go.global_id(1)
    n, m = p.shape
    if i < n and j < m:
        s = p[(i + 1) % n, j] + p[(i - 1 + n) % n, j] + p[i, (j + 1) % m] + p[i, (j - 1 + m) % m]
        p_new[i, j] = (s - div[i, j]) * 0.25


@go.kernel
def pressure_apply(p: Borrow[Array[f32]], u: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    j = go.global_id(1)
    n, m = p.shape
    if i < n and j < m:
        u[i, j, 0] -= (p[(i + 1) % n, j] - p[(i - 1 + n) % n, j]) * 0.5
        u[i, j, 1] -= (p[i, (j + 1) % m] - p[i, (j - 1 + m) % m]) * 0.5


@case("Warp", "warp/examples/core/example_fluid.py (divergence, pressure_solve, pressure_apply)")
def fluid_projection(rng: np.random.Generator) -> Result:
    n = 24
    u0 = rng.random((n, n, 2), np.float32) - np.float32(0.5)
    u, d = go.array(u0), go.zeros((n, n), go.f32)
    p, q = go.zeros((n, n), go.f32), go.zeros((n, n), go.f32)
    divergence[(n, n)](u, d)
    for _ in range(10):
        pressure_solve[(n, n)](p, q, d)
        p, q = q, p
    pressure_apply[(n, n)](p, u)
    roll = np.roll
    half = np.float32(0.5)
    dv = (roll(u0[..., 0], -1, 0) - roll(u0[..., 0], 1, 0)) * half + (
        roll(u0[..., 1], -1, 1) - roll(u0[..., 1], 1, 1)) * half
    pw: np.ndarray[Any, Any] = np.zeros((n, n), np.float32)
    quarter = np.float32(0.25)
    for _ in range(10):
        pw = (roll(pw, -1, 0) + roll(pw, 1, 0) + roll(pw, -1, 1) + roll(pw, 1, 1) - dv) * quarter
    want = u0.copy()
    want[..., 0] -= (roll(pw, -1, 0) - roll(pw, 1, 0)) * half
    want[..., 1] -= (roll(pw, -1, 1) - roll(pw, 1, 1)) * half
    return Result(u.numpy(), want, rtol=1e-4, atol=1e-5)


# warp/examples/sim/example_cloth.py via warp/sim/integrator_euler.py (eval_springs): each
# spring adds its force to both particles with atomics (wp.atomic_add / wp.atomic_sub)
@go.kernel
def eval_springs(x: Borrow[Array[f32]], indices: Borrow[Array[i32]], rest: Borrow[Array[f32]],
                 ke: f32, f: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    tid = go.global_id(0)
    if tid >= rest.shape[0]:
        return
    i = indices[tid, 0]
    j = indices[tid, 1]
    dx = x[i, 0] - x[j, 0]
    dy = x[i, 1] - x[j, 1]
    dz = x[i, 2] - x[j, 2]
    length = go.sqrt(dx * dx + dy * dy + dz * dz)
    s = ke * (length - rest[tid]) / length
    go.atomic_add(f, (i, 0), -s * dx)
    go.atomic_add(f, (i, 1), -s * dy)
    go.atomic_add(f, (i, 2), -s * dz)
    go.atomic_add(f, (j, 0), s * dx)
    go.atomic_add(f, (j, 1), s * dy)
    go.atomic_add(f, (j, 2), s * dz)


@case("Warp", "warp/sim/integrator_euler.py (eval_springs)")
def cloth_springs(rng: np.random.Generator) -> Result:
    n, ns = 100, 300
    x = rng.random((n, 3), np.float32)
    idx = rng.integers(0, n, (ns, 2), dtype=np.int32)
    idx[:, 1] = (idx[:, 0] + 1 + rng.integers(0, n - 1, ns)) % n
    rest = rng.random(ns, np.float32)
    f = go.zeros((n, 3), go.f32)
    eval_springs[ns](go.array(x), go.array(idx), go.array(rest), 2.0, f)
    d = x[idx[:, 0]] - x[idx[:, 1]]
    length = np.sqrt((d * d).sum(1))
    s = (2.0 * (length - rest) / length)[:, None] * d
    want = np.zeros((n, 3), np.float64)
    np.add.at(want, idx[:, 0], -s)
    np.add.at(want, idx[:, 1], s)
    return Result(f.numpy(), want, rtol=1e-3, atol=1e-3)


# warp/examples/core/example_raymarch.py: sphere tracing a signed distance field per pixel
@go.func
def sdf(px: f32, py: f32, pz: f32) -> f32:
    sphere = go.sqrt(px * px + py * py + (pz - 3.0) * (pz - 3.0)) - 1.0
    plane = py + 1.0
    return min(sphere, plane)


@go.kernel
def draw(pixels: BorrowMut[Array[f32]], width: i32, height: i32) -> None:
    x = go.global_id(0)
    y = go.global_id(1)
    if x >= width or y >= height:
        return
    dx = (2.0 * x / width - 1.0) * (width / height)
    dy = 2.0 * y / height - 1.0
    norm = go.sqrt(dx * dx + dy * dy + 1.0)
    t = f32(0.0)
    hit = f32(0.0)
    for _ in range(64):
        d = sdf(dx / norm * t, dy / norm * t, t / norm)
        if d < 1e-3:
            hit = f32(1.0)
            break
        t += d
        if t > 20.0:
            break
    pixels[y, x] = hit * (1.0 - t / 20.0)


def _draw_ref(w: int, h: int) -> np.ndarray:
    out = np.zeros((h, w), np.float32)
    for y in range(h):
        for x in range(w):
            dx = np.float32((2.0 * x / w - 1.0) * (w / h))
            dy = np.float32(2.0 * y / h - 1.0)
            norm = np.float32(np.sqrt(dx * dx + dy * dy + 1.0))
            t, hit = np.float32(0.0), 0.0
            for _ in range(64):
                px, py, pz = dx / norm * t, dy / norm * t, t / norm
                d = min(np.sqrt(px * px + py * py + (pz - 3) ** 2) - 1.0, py + 1.0)
                if d < 1e-3:
                    hit = 1.0
                    break
                t = np.float32(t + d)
                if t > 20.0:
                    break
            out[y, x] = hit * (1.0 - t / 20.0)
    return out


@case("Warp", "warp/examples/core/example_raymarch.py")
def raymarch(rng: np.random.Generator) -> Result:
    w, h = 24, 16
    pixels = go.zeros((h, w), go.f32)
    draw[(w, h)](pixels, w, h)
    return Result(pixels.numpy(), _draw_ref(w, h), rtol=1e-3, atol=1e-3)


# warp/sparse.py (bsr_mv with 1x1 blocks, i.e. CSR): one work-item per row,
# y = alpha * A @ x + beta * y
@go.kernel
def csr_mv(offsets: Borrow[Array[i32]], columns: Borrow[Array[i32]], values: Borrow[Array[f32]],
           x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], alpha: f32,
           beta: f32) -> None:  # fmt: skip
    row = go.global_id(0)
    if row >= y.shape[0]:
        return
    acc = f32(0.0)
    for k in range(offsets[row], offsets[row + 1]):
        acc += values[k] * x[columns[k]]
    y[row] = alpha * acc + beta * y[row]


@case("Warp", "warp/sparse.py (bsr_mv, 1x1 blocks)")
def spmv(rng: np.random.Generator) -> Result:
    n = 200
    dense = rng.random((n, n), np.float32) * (rng.random((n, n)) < 0.05)
    rows, cols = np.nonzero(dense)
    offsets = np.searchsorted(rows, np.arange(n + 1)).astype(np.int32)
    x, y0 = rng.random(n, np.float32), rng.random(n, np.float32)
    y = go.array(y0)
    csr_mv[n](go.array(offsets), go.array(cols.astype(np.int32)),
              go.array(dense[rows, cols].astype(np.float32)), go.array(x), y, 2.0,
              0.5)  # fmt: skip
    return Result(y.numpy(), 2.0 * dense @ x + 0.5 * y0, rtol=1e-4, atol=1e-5)


# warp/examples/sim/example_granular.py via warp/sim/integrator_euler.py (integrate_particles):
# semi-implicit Euler for every active particle
@go.kernel
def integrate_particles(x: BorrowMut[Array[f32]], v: BorrowMut[Array[f32]],
                        f: Borrow[Array[f32]], inv_mass: Borrow[Array[f32]],
                        gravity: f32, dt: f32) -> None:  # fmt: skip
    tid = go.global_id(0)
    if tid >= x.shape[0]:
        return
    for c in range(3):
        g = gravity if c == 1 else 0.0
        v1 = v[tid, c] + (f[tid, c] * inv_mass[tid] + g * go.min(inv_mass[tid], 1.0)) * dt
        v[tid, c] = v1
        x[tid, c] += v1 * dt


@case("Warp", "warp/sim/integrator_euler.py (integrate_particles)")
def particles(rng: np.random.Generator) -> Result:
    n = 300
    x0, v0, f = (rng.random((n, 3), np.float32) for _ in range(3))
    im = rng.random(n, np.float32) * 2
    x, v = go.array(x0), go.array(v0)
    integrate_particles[n](x, v, go.array(f), go.array(im), -9.8, 0.01)
    g = np.array([0.0, -9.8, 0.0], np.float32)
    v1 = v0 + (f * im[:, None] + g * np.minimum(im, 1.0)[:, None]) * np.float32(0.01)
    return Result((x.numpy(), v.numpy()), (x0 + v1 * np.float32(0.01), v1), rtol=1e-5)
