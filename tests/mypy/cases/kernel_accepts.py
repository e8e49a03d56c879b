"""Clean: everything the front end accepts in kernels is accepted by the plugin too.

The list follows README.md's and SPEC.md §1's kernel subset; ``test_real_cases.py`` also
launches these kernels, so each construct here is one the compiler really takes.
"""

from __future__ import annotations

import math

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Owned, f32, f64, i32, u32

N_TAPS = 3
SCALE = 0.5
ENABLED = True


class Config:
    BLOCK = 64
    EPS = 1e-6


cfg = Config()


@go.func
def lerp(a: f32, b: f32, t: float = 0.5) -> f32:
    """Device functions take defaults and keywords."""
    return a + (b - a) * t


@go.func
def smoothstep(e0: f32, e1: f32, v: f32) -> f32:
    t = max(0.0, min((v - e0) / (e1 - e0), 1.0))
    return lerp(0.0, t * t * (3.0 - 2.0 * t), t=1.0)  # a device function calling another


@go.func
def store(out: BorrowMut[Array[f32]], i: i32, v: f32) -> None:
    out[i] = v


@go.func
def first(x: Borrow[Array[f32]]) -> f32:
    return x[0]


@go.kernel
def everything(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], n: i32, a: f64) -> None:
    """Docstrings are fine."""
    i = go.global_id(0)
    if i >= y.shape[0] or i >= len(x):
        return
    acc = f32(0.0)
    k = 0
    for j in range(N_TAPS):
        if j == 1:
            continue
        acc += x[min(i + j, x.shape[0] - 1)] * SCALE
        k += 1
    while k > 0 and not (acc < 0):
        k -= 1
        if k == 5:
            break
    lo, hi = 0.0, 1.0
    lo, hi = hi, lo
    v = go.sqrt(abs(acc)) + math.sqrt(2.0) + math.pi + go.exp(-1.0) + go.rsqrt(4.0)
    v += go.floor(v) + math.ceil(v) + go.fma(v, 2.0, 1.0) + go.erf(v) + go.tanh(v)
    v = v if not go.isnan(v) and not math.isinf(v) else f32(0.0)
    w = float(int(v)) + f32(n) + go.f32(a) + pow(v, 2) + v ** 2
    ok = bool(w > 0) and ENABLED and np.float32(a) > 0
    y[i] = smoothstep(0.0, 1.0, w) if ok else lerp(lo, hi)
    y[i] += go.max(v, f32(w)) - go.min(v, f32(w)) + go.abs(-v) + max(1, 2, 3)
    y[i] += i32(cfg.BLOCK) * cfg.EPS
    y[i] = y[i] / 2 if 0 < i < 10 else y[i] * 3 % 7
    store(y, i, y[i] + first(x))
    pass


@go.kernel
def work_group(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]], counts: BorrowMut[Array[u32]]) -> None:  # noqa: E501
    lid = go.local_id(0)
    gid = go.group_id(0)
    tile = go.shared(64, go.f32)
    tile[lid] = x[go.global_id(0)]
    go.barrier()
    s = go.local_size(0)
    while s > 1:
        s //= 2
        if lid < s:
            tile[lid] += tile[lid + s]
        go.barrier()
    if lid == 0:
        out[gid] = tile[0]
        go.atomic_add(counts, 0, 1)
        go.atomic_max(counts, 1, u32(gid))
        old = go.atomic_min(counts, 2, u32(gid))
        out[gid] += f32(old) * 0.0
    n = go.num_groups(0) + go.global_size(0) + (float("inf") > 0)
    if lid == 0:  # one writer per group (every item writing out[gid] would be a data race)
        out[gid] += 0.0 * n


@go.kernel
def two_dims(img: Borrow[Array[f32]], out: Owned[Array[f32]]) -> None:
    r = go.global_id(0)
    c = go.global_id(1)
    if r < img.shape[0] and c < img.shape[1]:
        out[r, c] = img[r, c] * 2.0 - (1.0 if r == c else 0.0)


@go.kernel
def c_math(x: Borrow[Array[f64]], out: BorrowMut[Array[f32]], bits: BorrowMut[Array[u32]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        v = f32(x[i])
        w = go.atan2(v, 2.0) + math.asin(0.5) + np.arccos(v * 0.0) + go.sinh(v) + math.cosh(v)
        w += go.asinh(v) + go.acosh(v + 1.0) + go.atanh(v * 0.5) + go.exp2(v) + math.expm1(v)
        w += go.log10(v + 1.0) + np.log1p(v) + go.cbrt(v) + go.hypot(v, v) + go.copysign(v, -1.0)
        w += math.fmod(v, 2.0) + go.remainder(v, 3.0) + go.trunc(v) + go.round(v) + go.rint(v)
        w += np.sign(v) + go.erfc(v) + math.lgamma(v + 1.0) + go.tgamma(v + 1.0) + go.fdim(v, 1.0)
        w += go.nextafter(v, 0.0) + f32(round(v))
        w += 1.0 if go.isfinite(v) or go.signbit(v) else 0.0
        out[i] = w
        n = u32(i)
        bits[i] = u32(go.popc(n) + go.clz(n) + go.ffs(n)) + go.brev(n)


def launch_all() -> list[float]:
    x = go.array(np.linspace(0.0, 1.0, 128, dtype=np.float32))
    y = go.zeros(128, go.f32)
    everything[128](x, y, 3, 2.0)
    out = go.zeros(2, go.f32)
    counts = go.zeros(3, go.u32)
    work_group[(128,), (64,)](x, out, counts)
    img = go.full((4, 4), 1.0, go.f32)
    doubled = two_dims[4, 4](img, go.zeros((4, 4), go.f32))
    c_out = go.zeros(128, go.f32)
    c_math[128](go.array(np.linspace(0.0, 1.0, 128)), c_out, go.zeros(128, go.u32))
    return [float(y.numpy().sum()), float(out.numpy().sum()), float(doubled.numpy().sum()),
            float(c_out.numpy().sum())]
