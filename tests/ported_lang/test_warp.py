"""Kernels ported from Warp's examples, written with vectors as their sources write them (in our
own words), on every device against the interpreter and NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32, vec3
from tests.backends.agree import agree

NDArray = np.ndarray[Any, Any]

# -- ray marching ------------------------------------------------------------------------------
# Source: warp, warp/examples/core/example_raymarch.py: a signed distance field (a sphere on a
# plane, joined by min), each pixel marches its ray until the distance is small, then shades
# the hit with the normal from central differences of the field (normalize(vec3(dx, dy, dz)))
# and a diffuse light. Here with a smaller image and step count.

SPHERE = go.vec3(0.0, 0.5, -3.0)
LIGHT = go.vec3(2.0, 4.0, 1.0)
EPS = 1e-3
STEPS = 48


@go.func
def scene(p: vec3) -> f32:
    sphere = go.length(p - SPHERE) - 0.8
    plane = p.y + 0.5
    return min(sphere, plane)


@go.func
def normal(p: vec3) -> vec3:
    dx = scene(p + go.vec3(EPS, 0.0, 0.0)) - scene(p - go.vec3(EPS, 0.0, 0.0))
    dy = scene(p + go.vec3(0.0, EPS, 0.0)) - scene(p - go.vec3(0.0, EPS, 0.0))
    dz = scene(p + go.vec3(0.0, 0.0, EPS)) - scene(p - go.vec3(0.0, 0.0, EPS))
    return go.normalize(go.vec3(dx, dy, dz))


@go.kernel
def draw(pixels: BorrowMut[Array[f32]], width: i32, height: i32) -> None:
    tid = go.global_id(0)
    x, y = tid % width, tid // width
    sx = f32(2.0 * x / height - f32(width) / height)
    sy = f32(2.0 * y / height - 1.0)
    ro = go.vec3(0.0, 0.0, 0.0)
    rd = go.normalize(go.vec3(sx, sy, -2.0))
    t = f32(0.0)
    hit = False
    for _ in range(STEPS):
        d = scene(ro + rd * t)
        if d < 0.001:
            hit = True
            break
        t += d
    color = go.vec3(0.1, 0.1, 0.2)
    if hit:
        p = ro + rd * t
        n = normal(p)
        diffuse = max(go.dot(n, go.normalize(LIGHT - p)), 0.0)
        color = go.vec3(0.8, 0.7, 0.6) * diffuse + 0.05
    pixels[tid] = color


def _draw_numpy(width: int, height: int) -> NDArray:
    f = np.float32
    tid = np.arange(width * height)
    x, y = tid % width, tid // width
    sx = (2.0 * x / height - f(width) / height).astype(f)
    sy = (2.0 * y / height - 1.0).astype(f)
    rd = np.stack([sx, sy, np.full_like(sx, -2.0)], 1)
    rd = rd / np.sqrt((rd * rd).sum(1, keepdims=True))

    def field(p: NDArray) -> NDArray:
        q = p - np.array([0.0, 0.5, -3.0], f)
        out: NDArray = np.minimum(np.sqrt((q * q).sum(1)) - f(0.8), p[:, 1] + f(0.5))
        return out

    t = np.zeros(len(tid), f)
    hit = np.zeros(len(tid), bool)
    for _ in range(STEPS):
        d = field(rd * t[:, None])
        now = ~hit & (d < 0.001)
        hit |= now
        t = np.where(hit, t, t + d).astype(f)
    p = rd * t[:, None]
    with np.errstate(invalid="ignore", divide="ignore"):  # (the sky's rays: no normal)
        return _shade(p, hit)


def _shade(p: NDArray, hit: NDArray) -> NDArray:
    f = np.float32

    def field(p: NDArray) -> NDArray:
        q = p - np.array([0.0, 0.5, -3.0], f)
        out: NDArray = np.minimum(np.sqrt((q * q).sum(1)) - f(0.8), p[:, 1] + f(0.5))
        return out

    e = np.eye(3, dtype=f) * f(EPS)
    grad = np.stack([field(p + e[k]) - field(p - e[k]) for k in range(3)], 1)
    n = grad / np.sqrt((grad * grad).sum(1, keepdims=True))
    to_light = np.array([2.0, 4.0, 1.0], f) - p
    to_light /= np.sqrt((to_light * to_light).sum(1, keepdims=True))
    diffuse = np.maximum((n * to_light).sum(1), 0)
    lit = np.array([0.8, 0.7, 0.6], f) * diffuse[:, None] + f(0.05)
    out: NDArray = np.where(hit[:, None], lit, np.array([0.1, 0.1, 0.2], f)).astype(f)
    return out


def test_ray_marching_with_vec3_normals(device: str) -> None:
    width, height = 24, 16
    n = width * height
    (pixels,) = agree(draw, n, np.zeros((n, 3), np.float32), width, height, rtol=1e-5,
                      atol=1e-6)  # fmt: skip
    want = _draw_numpy(width, height)
    close = np.isclose(pixels, want, rtol=1e-3, atol=1e-3).all(1)
    assert close.mean() > 0.97, np.argwhere(~close)  # a silhouette pixel may step differently
    assert (pixels[:, 0] > 0.3).any() and (pixels[:, 2] == np.float32(0.2)).any()  # hits, sky


# -- cloth -------------------------------------------------------------------------------------
# Source: warp, warp/examples/core/example_cloth.py (its spring model, warp.sim's
# eval_springs): each spring pulls its two particles along their difference, with a stiffness
# and a damping term, and accumulates the force with wp.atomic_sub on one end and
# wp.atomic_add on the other; then every particle integrates (semi-implicit Euler with
# gravity), the top row pinned. Here a small grid of particles and springs to the right and
# below, on forces as an (N, 3) array.

KE, KD, DT = 200.0, 1.0, 1.0 / 240.0
GRAVITY = go.vec3(0.0, -9.8, 0.0)


@go.kernel
def eval_springs(x: Borrow[Array[f32]], v: Borrow[Array[f32]], springs: Borrow[Array[i32]],
                 rest: Borrow[Array[f32]], f: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    tid = go.global_id(0)
    i, j = springs[tid, 0], springs[tid, 1]
    xi, xj = go.vec3.load(x, i), go.vec3.load(x, j)
    vi, vj = go.vec3.load(v, i), go.vec3.load(v, j)
    xij = xi - xj
    vij = vi - vj
    length = go.length(xij)
    dir = xij / length
    c = length - rest[tid]
    dcdt = go.dot(dir, vij)
    fs = dir * (KE * c + KD * dcdt)
    go.atomic_sub(f, i, fs)
    go.atomic_add(f, j, fs)


@go.kernel
def integrate(x: BorrowMut[Array[f32]], v: BorrowMut[Array[f32]], f: BorrowMut[Array[f32]],
              pinned: Borrow[Array[i32]]) -> None:  # fmt: skip
    i = go.global_id(0)
    if pinned[i] == 0:
        vel = go.vec3.load(v, i) + (go.vec3.load(f, i) + GRAVITY) * DT
        v[i] = vel
        x[i] = go.vec3.load(x, i) + vel * DT
    f[i] = go.vec3(0.0)


def _grid(w: int, h: int) -> tuple[NDArray, NDArray, NDArray]:
    gx, gy = np.meshgrid(np.arange(w), np.arange(h))
    x = np.stack([gx.ravel() * 0.1, -gy.ravel() * 0.1, np.zeros(w * h)], 1).astype(np.float32)
    pairs = [(r * w + c, r * w + c + 1) for r in range(h) for c in range(w - 1)]
    pairs += [(r * w + c, (r + 1) * w + c) for r in range(h - 1) for c in range(w)]
    springs = np.array(pairs, np.int32)
    pinned = (np.arange(w * h) < w).astype(np.int32)
    return x, springs, pinned


def _step_numpy(x: NDArray, v: NDArray, springs: NDArray, rest: NDArray,
                pinned: NDArray) -> tuple[NDArray, NDArray]:  # fmt: skip
    xij = x[springs[:, 0]] - x[springs[:, 1]]
    vij = v[springs[:, 0]] - v[springs[:, 1]]
    length = np.sqrt((xij * xij).sum(1))
    d = xij / length[:, None]
    fs = d * (KE * (length - rest) + KD * (d * vij).sum(1))[:, None]
    f = np.zeros_like(x)
    np.subtract.at(f, springs[:, 0], fs)
    np.add.at(f, springs[:, 1], fs)
    free = pinned == 0
    v = v.copy()
    x = x.copy()
    v[free] += (f[free] + np.array([0.0, -9.8, 0.0], np.float32)) * np.float32(DT)
    x[free] += v[free] * np.float32(DT)
    return x, v


def test_cloth_with_atomic_sub_on_vec3_forces(device: str) -> None:
    x, springs, pinned = _grid(6, 5)
    x0 = x.copy()
    rest = (np.sqrt(((x[springs[:, 0]] - x[springs[:, 1]]) ** 2).sum(1)) * 0.9).astype(np.float32)
    v = np.zeros_like(x)
    f = np.zeros_like(x)
    want_x, want_v = x.copy(), v.copy()
    for _ in range(3):
        (f,) = agree(eval_springs, len(springs), x, v, springs, rest, f, rtol=1e-5,
                     atol=1e-5)[4:]  # fmt: skip
        x, v, f = agree(integrate, len(x), x, v, f, pinned, rtol=1e-5, atol=1e-5)[:3]
        want_x, want_v = _step_numpy(want_x, want_v, springs, rest, pinned)
    np.testing.assert_allclose(x, want_x, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(v, want_v, rtol=1e-3, atol=1e-3)
    assert not np.allclose(x, x0)  # the cloth moved
