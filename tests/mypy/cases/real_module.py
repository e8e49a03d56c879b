"""A realistic user module: a small image pipeline, as a new user of gpuoff writes it.

Clean: the plugin must report nothing here. The kernels follow the shape of cuda-samples'
``convolutionSeparable`` (a row pass and a column pass of one 1-D filter), ``histogram64``
(per-group counts in shared memory, then global atomics) and ``SobelFilter``; they are
written anew for gpuoff's kernel language, not copied. ``tests/mypy/test_real_cases.py``
also runs this module on the CPU, so the clean programs are programs that work.
"""

from __future__ import annotations

import math

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Owned, f32, i32, u32

RADIUS = 3
"""Half-width of the blur filter (captured as a compile-time constant)."""
BINS = 64
"""Histogram bins; also the work-group size of the histogram kernel."""
SIGMA = 1.5


@go.func
def clamp(v: i32, lo: i32, hi: i32) -> i32:
    """``v`` limited to ``[lo, hi]`` (edge pixels repeat at the border)."""
    return max(lo, min(v, hi))


@go.func
def gauss(d: f32) -> f32:
    return go.exp(-(d * d) / (2.0 * SIGMA * SIGMA))


@go.kernel
def blur_rows(src: Borrow[Array[f32]], dst: BorrowMut[Array[f32]]) -> None:
    """One horizontal pass of a normalised Gaussian of half-width ``RADIUS``."""
    x = go.global_id(0)
    y = go.global_id(1)
    h = src.shape[0]
    w = src.shape[1]
    if y < h and x < w:
        total = f32(0.0)
        norm = f32(0.0)
        for d in range(-RADIUS, RADIUS + 1):
            g = gauss(f32(d))
            total += g * src[y, clamp(x + d, 0, w - 1)]
            norm += g
        dst[y, x] = total / norm


@go.kernel
def blur_cols(src: Borrow[Array[f32]], dst: BorrowMut[Array[f32]]) -> None:
    """The vertical pass: the same filter along the other axis."""
    x = go.global_id(0)
    y = go.global_id(1)
    h = src.shape[0]
    w = src.shape[1]
    if y < h and x < w:
        total = f32(0.0)
        norm = f32(0.0)
        for d in range(-RADIUS, RADIUS + 1):
            g = gauss(f32(d))
            total += g * src[clamp(y + d, 0, h - 1), x]
            norm += g
        dst[y, x] = total / norm


@go.kernel
def sobel(src: Borrow[Array[f32]], mag: BorrowMut[Array[f32]]) -> None:
    """Gradient magnitude with the 3x3 Sobel operator (zero on the border)."""
    x = go.global_id(0)
    y = go.global_id(1)
    h = src.shape[0]
    w = src.shape[1]
    if y < h and x < w:
        if 0 < x < w - 1 and 0 < y < h - 1:
            gx = (src[y - 1, x + 1] + 2.0 * src[y, x + 1] + src[y + 1, x + 1]
                  - src[y - 1, x - 1] - 2.0 * src[y, x - 1] - src[y + 1, x - 1])  # fmt: skip
            gy = (src[y + 1, x - 1] + 2.0 * src[y + 1, x] + src[y + 1, x + 1]
                  - src[y - 1, x - 1] - 2.0 * src[y - 1, x] - src[y - 1, x + 1])  # fmt: skip
            mag[y, x] = go.sqrt(gx * gx + gy * gy)
        else:
            mag[y, x] = 0.0


@go.kernel
def histogram(img: Borrow[Array[f32]], bins: BorrowMut[Array[u32]]) -> None:
    """Counts of ``img``'s values in ``[0, 1)`` over ``BINS`` bins; ``bins`` starts zeroed.

    Launch over a multiple of ``BINS`` work-items in groups of ``BINS``."""
    lid = go.local_id(0)
    local = go.shared(BINS, go.u32)
    local[lid] = 0
    go.barrier()
    i = go.global_id(0)
    stride = go.global_size(0)
    n = img.shape[0]
    while i < n:
        b = i32(img[i] * BINS)
        go.atomic_add(local, max(0, min(b, BINS - 1)), 1)
        i += stride
    go.barrier()
    if local[lid] > 0:
        go.atomic_add(bins, lid, local[lid])


@go.kernel
def threshold(img: Owned[Array[f32]], level: f32) -> None:
    """Binarise in place; the buffer is handed back as a new handle (``Owned``)."""
    i = go.global_id(0)
    if i < img.shape[0]:
        img[i] = 1.0 if img[i] >= level else 0.0


@go.kernel
def scale_into(a: f32, src: Borrow[Array[f32]], dst: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < dst.shape[0]:
        dst[i] = a * src[i]


@go.kernel
def normalise(img: Owned[Array[f32]], lo: f32, hi: f32) -> None:
    i = go.global_id(0)
    if i < img.shape[0]:
        img[i] = (img[i] - lo) / max(hi - lo, 1e-6)


def gaussian_blur(img: go.Buffer[f32]) -> go.Buffer[f32]:
    """A new blurred image; ``img`` is only read."""
    h, w = img.shape
    tmp = go.empty((h, w), go.f32)
    out = go.empty((h, w), go.f32)
    blur_rows[w, h](img, tmp)
    blur_cols[w, h](tmp, out)
    return out


def edges(img: go.Buffer[f32]) -> go.Buffer[f32]:
    h, w = img.shape
    mag = go.zeros((h, w), go.f32)
    sobel[w, h](gaussian_blur(img), mag)
    return mag


def value_histogram(img: go.Buffer[f32]) -> np.ndarray[tuple[int], np.dtype[np.uint32]]:
    flat = go.array(img.numpy().ravel())
    bins = go.zeros(BINS, go.u32)
    groups = max(1, min(32, math.ceil(flat.shape[0] / BINS)))
    histogram[(groups * BINS,), (BINS,)](flat, bins)
    return bins.numpy()


def binarise(img: go.Buffer[f32], level: float) -> go.Buffer[f32]:
    """Threshold a copy of ``img`` at ``level`` (a flat view of the pixels is moved)."""
    flat = go.array(img.numpy().ravel())
    flat = threshold[flat.shape[0]](flat, level)
    return flat


def contrast_stretch(pixels: go.Buffer[f32]) -> go.Buffer[f32]:
    lo = float(pixels.numpy().min())
    hi = float(pixels.numpy().max())
    pixels = normalise[pixels.shape[0]](pixels, lo, hi)
    return pixels


def halves(row: go.Buffer[f32]) -> None:
    """Scale the first half of a row into the second: two disjoint views of one buffer."""
    n = row.shape[0] // 2
    scale_into[n](0.5, row[:n], row[n:])


def ping_pong(a: go.Buffer[f32], steps: int) -> go.Buffer[f32]:
    """Repeated blurs, alternating two buffers (never the same one twice in a launch)."""
    h, w = a.shape
    b = go.empty((h, w), go.f32)
    for _ in range(steps):
        blur_rows[w, h](a, b)
        a, b = b, a
    return a


def pipeline(raw: np.ndarray[tuple[int, int], np.dtype[np.float32]]) -> dict[str, object]:
    img = go.array(raw)
    blurred = gaussian_blur(img)
    mag = edges(img)
    counts = value_histogram(blurred)
    mask = binarise(mag, 0.25)
    stretched = contrast_stretch(go.array(blurred.numpy().ravel()))
    with stretched.host() as view:
        spread = float(view.max() - view.min())
    go.synchronize()
    return {
        "blurred": blurred.numpy(),
        "edges": mag.numpy(),
        "histogram": counts,
        "mask": mask.numpy(),
        "spread": spread,
    }


def demo() -> dict[str, object]:
    rng = np.random.default_rng(0)
    raw = rng.random((24, 32), dtype=np.float32)
    row = go.array(raw[0].copy())
    halves(row)
    smooth = ping_pong(go.array(raw), 3)
    out = pipeline(raw)
    out["row"] = row.numpy()
    out["smooth"] = smooth.numpy()
    return out


if __name__ == "__main__":
    result = demo()
    print({k: getattr(v, "shape", v) for k, v in result.items()})
