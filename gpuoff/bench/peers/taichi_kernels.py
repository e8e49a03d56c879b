"""The suite's kernels in Taichi, for its CPU backend (imported only when Taichi is).

Written as Taichi's documentation writes kernels: ``@ti.kernel`` whose outermost ``for`` runs
in parallel, NumPy arrays passed by reference as ``ti.types.ndarray()`` arguments ("Interacting
with external arrays"), ``+=`` on shared data (atomic; a reduction into a 0-d field is turned
into per-thread partial sums by the compiler, as its reduction guide says), and
``ti.loop_config(serialize=True)`` for the prefix sum, the guide's own example of a loop that
must run in order. Taichi has no ``erf``: Black-Scholes uses the polynomial cumulative normal of
the cuda-samples (Abramowitz & Stegun 26.2.17, |error| < 7.5e-8), as a Taichi user would.

No ``from __future__ import annotations``: Taichi reads the annotations as objects. mypy does
not check this module (pyproject.toml): Taichi's annotations are calls, not Python types.
"""

import taichi as ti

F32_1D = ti.types.ndarray(dtype=ti.f32, ndim=1)
F32_2D = ti.types.ndarray(dtype=ti.f32, ndim=2)
I32_1D = ti.types.ndarray(dtype=ti.i32, ndim=1)
U8_1D = ti.types.ndarray(dtype=ti.u8, ndim=1)
U32_1D = ti.types.ndarray(dtype=ti.u32, ndim=1)


@ti.kernel
def saxpy(a: ti.f32, x: F32_1D, y: F32_1D):
    for i in range(x.shape[0]):
        y[i] = a * x[i] + y[i]


@ti.kernel
def stencil5(src: F32_2D, dst: F32_2D):
    rows, cols = src.shape[0], src.shape[1]
    for i, j in ti.ndrange(rows, cols):
        if 0 < i < rows - 1 and 0 < j < cols - 1:
            dst[i, j] = 0.2 * ((((src[i, j] + src[i - 1, j]) + src[i + 1, j]) + src[i, j - 1])
                               + src[i, j + 1])
        else:
            dst[i, j] = src[i, j]


@ti.func
def cnd(d: ti.f32) -> ti.f32:
    k = 1.0 / (1.0 + 0.2316419 * ti.abs(d))
    poly = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978
                                                                         + k * 1.330274429))))
    value = 0.3989422804014327 * ti.exp(-0.5 * d * d) * poly
    if d > 0:
        value = 1.0 - value
    return value


@ti.kernel
def black_scholes(price: F32_1D, strike: F32_1D, years: F32_1D, rate: ti.f32, vol: ti.f32,
                  call: F32_1D, put: F32_1D):
    for i in range(price.shape[0]):
        s, k, t = price[i], strike[i], years[i]
        sqrt_t = ti.sqrt(t)
        d1 = (ti.log(s / k) + (rate + 0.5 * vol * vol) * t) / (vol * sqrt_t)
        d2 = d1 - vol * sqrt_t
        cnd1 = cnd(d1)
        cnd2 = cnd(d2)
        disc = k * ti.exp(-rate * t)
        call[i] = s * cnd1 - disc * cnd2
        put[i] = disc * (1.0 - cnd2) - s * (1.0 - cnd1)


@ti.kernel
def total(x: F32_1D, out: ti.template()):
    out[None] = 0.0
    for i in range(x.shape[0]):
        out[None] += x[i]


@ti.kernel
def sgemm(a: F32_2D, b: F32_2D, c: F32_2D):
    for i, j in ti.ndrange(a.shape[0], b.shape[1]):
        acc = 0.0
        for k in range(a.shape[1]):
            acc += a[i, k] * b[k, j]
        c[i, j] = acc


@ti.kernel
def histogram256(data: U8_1D, bins: U32_1D):
    for b in range(256):
        bins[b] = 0
    for i in range(data.shape[0]):
        bins[ti.cast(data[i], ti.i32)] += 1


@ti.kernel
def nbody(px: F32_1D, py: F32_1D, pz: F32_1D, mass: F32_1D, ax: F32_1D, ay: F32_1D,
          az: F32_1D):
    for i in range(px.shape[0]):
        xi, yi, zi = px[i], py[i], pz[i]
        fx, fy, fz = 0.0, 0.0, 0.0
        for j in range(px.shape[0]):
            dx, dy, dz = px[j] - xi, py[j] - yi, pz[j] - zi
            r2 = dx * dx + dy * dy + dz * dz + 0.001
            inv = 1.0 / ti.sqrt(r2)
            s = mass[j] * inv * inv * inv
            fx += dx * s
            fy += dy * s
            fz += dz * s
        ax[i], ay[i], az[i] = fx, fy, fz


@ti.kernel
def inclusive_scan(x: I32_1D, out: I32_1D):
    acc = 0
    ti.loop_config(serialize=True)
    for i in range(x.shape[0]):
        acc += x[i]
        out[i] = acc


@ti.kernel
def transpose(a: F32_2D, out: F32_2D):
    for i, j in ti.ndrange(a.shape[0], a.shape[1]):
        out[j, i] = a[i, j]


@ti.kernel
def softmax_rows(x: F32_2D, out: F32_2D):
    for i in range(x.shape[0]):
        top = x[i, 0]
        for j in range(1, x.shape[1]):
            top = ti.max(top, x[i, j])
        acc = 0.0
        for j in range(x.shape[1]):
            e = ti.exp(x[i, j] - top)
            out[i, j] = e
            acc += e
        inv = 1.0 / acc
        for j in range(x.shape[1]):
            out[i, j] *= inv
