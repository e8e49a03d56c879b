"""The suite's kernels in NVIDIA Warp, for its CPU backend (imported only when Warp is).

Written as Warp's documentation writes kernels: ``@wp.kernel`` with annotated arrays
(``wp.array(dtype=float)``, ``wp.array2d``), one thread per element from ``wp.tid()``,
``wp.atomic_add`` where threads share a result, and the library's own ``wp.utils.array_sum``
and ``wp.utils.array_scan`` where Warp ships the operation. Warp runs CPU kernels on one
thread ("kernels launched on CPU devices will be executed in serial", its runtime guide).

Loop-carried values are declared with their type's constructor (``acc = float(0.0)``), as
Warp requires for a variable a loop assigns. No ``from __future__ import annotations``: Warp
reads the annotations as objects. mypy does not check this module (pyproject.toml): Warp's
annotations are calls, not Python types.
"""

import warp as wp

F32 = wp.float32


@wp.kernel
def saxpy(a: float, x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


@wp.kernel
def stencil5(src: wp.array2d(dtype=float), dst: wp.array2d(dtype=float)):
    i, j = wp.tid()
    rows = src.shape[0]
    cols = src.shape[1]
    if i > 0 and i < rows - 1 and j > 0 and j < cols - 1:
        dst[i, j] = 0.2 * ((((src[i, j] + src[i - 1, j]) + src[i + 1, j]) + src[i, j - 1])
                           + src[i, j + 1])
    else:
        dst[i, j] = src[i, j]


@wp.kernel
def black_scholes(price: wp.array(dtype=float), strike: wp.array(dtype=float),
                  years: wp.array(dtype=float), rate: float, vol: float,
                  call: wp.array(dtype=float), put: wp.array(dtype=float)):
    i = wp.tid()
    s = price[i]
    k = strike[i]
    t = years[i]
    sqrt_t = wp.sqrt(t)
    d1 = (wp.log(s / k) + (rate + 0.5 * vol * vol) * t) / (vol * sqrt_t)
    d2 = d1 - vol * sqrt_t
    cnd1 = 0.5 * (1.0 + wp.erf(d1 * 0.70710678))
    cnd2 = 0.5 * (1.0 + wp.erf(d2 * 0.70710678))
    disc = k * wp.exp(-rate * t)
    call[i] = s * cnd1 - disc * cnd2
    put[i] = disc * (1.0 - cnd2) - s * (1.0 - cnd1)


@wp.kernel
def sgemm(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float),
          c: wp.array2d(dtype=float)):
    i, j = wp.tid()
    acc = float(0.0)  # noqa: UP018 - Warp's way to declare a loop-carried float
    for k in range(a.shape[1]):
        acc += a[i, k] * b[k, j]
    c[i, j] = acc


@wp.kernel
def histogram256(data: wp.array(dtype=wp.uint8), bins: wp.array(dtype=wp.int32)):
    i = wp.tid()
    wp.atomic_add(bins, int(data[i]), 1)


@wp.kernel
def nbody(px: wp.array(dtype=float), py: wp.array(dtype=float), pz: wp.array(dtype=float),
          mass: wp.array(dtype=float), ax: wp.array(dtype=float), ay: wp.array(dtype=float),
          az: wp.array(dtype=float)):
    i = wp.tid()
    xi = px[i]
    yi = py[i]
    zi = pz[i]
    fx = float(0.0)  # noqa: UP018 - Warp's way to declare a loop-carried float
    fy = float(0.0)  # noqa: UP018 - Warp's way to declare a loop-carried float
    fz = float(0.0)  # noqa: UP018 - Warp's way to declare a loop-carried float
    for j in range(px.shape[0]):
        dx = px[j] - xi
        dy = py[j] - yi
        dz = pz[j] - zi
        r2 = dx * dx + dy * dy + dz * dz + 0.001
        inv = 1.0 / wp.sqrt(r2)
        s = mass[j] * inv * inv * inv
        fx += dx * s
        fy += dy * s
        fz += dz * s
    ax[i] = fx
    ay[i] = fy
    az[i] = fz


@wp.kernel
def transpose(a: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    out[j, i] = a[i, j]


@wp.kernel
def softmax_rows(x: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    cols = x.shape[1]
    top = x[i, 0]
    for j in range(1, cols):
        top = wp.max(top, x[i, j])
    total = float(0.0)  # noqa: UP018 - Warp's way to declare a loop-carried float
    for j in range(cols):
        e = wp.exp(x[i, j] - top)
        out[i, j] = e
        total += e
    inv = 1.0 / total
    for j in range(cols):
        out[i, j] = out[i, j] * inv
