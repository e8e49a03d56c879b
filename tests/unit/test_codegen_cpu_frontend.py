"""CPU codegen on kernels written in Python (through ``gpuoff.frontend.lower_kernel``),
checked against NumPy: the benchmark suite's kernels in miniature."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from codegen.cpu import llvm_ir_text
from gpuoff import Array, Borrow, BorrowMut, f32, f64, i32
from gpuoff.frontend import lower_kernel
from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from gpuoff.ir.bounds import eliminate_redundant_checks
from tests.unit.test_codegen_cpu_loader import run_cpu


def _types(args: Sequence[object]) -> list[t.ScalarType | t.ArrayType]:
    out: list[t.ScalarType | t.ArrayType] = []
    for a in args:
        if isinstance(a, np.ndarray):
            out.append(t.ArrayType(t.scalar_from_numpy(a.dtype), a.ndim,
                                   contiguous=a.flags.c_contiguous))  # fmt: skip
        else:
            out.append(t.scalar_from_numpy(np.asarray(a).dtype))
    return out


def compile_py(fn: Callable[..., Any], args: Sequence[object], **opts: bool) -> n.Module:
    return eliminate_redundant_checks(lower_kernel(fn, _types(args), **opts))


def launch(fn: Callable[..., Any], args: Sequence[object], grid: int | Sequence[int],
           block: Sequence[int] | None = None, **opts: bool) -> np.ndarray:  # fmt: skip
    return run_cpu(compile_py(fn, args, **opts), args, grid, block)


def saxpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


@pytest.mark.parametrize("boundscheck", [True, False])
def test_saxpy_from_python(boundscheck: bool) -> None:
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, dtype=np.float32)
    args = [np.float32(2.0), x, y]
    err = launch(saxpy, args, 1000, boundscheck=boundscheck)
    assert not err.any()
    np.testing.assert_array_equal(y, 2 * x + 1)
    text = llvm_ir_text(compile_py(saxpy, args, boundscheck=boundscheck), optimized=True)
    assert re.search(r"<(4|8|16) x float>", text)


def black_scholes(s: Borrow[Array[f32]], k: Borrow[Array[f32]], tt: Borrow[Array[f32]],
                  call: BorrowMut[Array[f32]], put: BorrowMut[Array[f32]],
                  r: f32, v: f32) -> None:  # fmt: skip
    i = go.global_id(0)
    if i < call.shape[0]:
        sq = go.sqrt(tt[i])
        d1 = (go.log(s[i] / k[i]) + (r + 0.5 * v * v) * tt[i]) / (v * sq)
        d2 = d1 - v * sq
        n1 = 0.5 * (1.0 + go.erf(d1 * 0.70710678))
        n2 = 0.5 * (1.0 + go.erf(d2 * 0.70710678))
        disc = k[i] * go.exp(-r * tt[i])
        call[i] = s[i] * n1 - disc * n2
        put[i] = disc * (1.0 - n2) - s[i] * (1.0 - n1)


def test_black_scholes_matches_numpy() -> None:
    rng = np.random.default_rng(5)
    size = 4099
    s = rng.uniform(5, 30, size).astype(np.float32)
    k = rng.uniform(1, 100, size).astype(np.float32)
    tt = rng.uniform(0.25, 10, size).astype(np.float32)
    call = np.zeros(size, dtype=np.float32)
    put = np.zeros(size, dtype=np.float32)
    r, v = np.float32(0.02), np.float32(0.3)
    assert not launch(black_scholes, [s, k, tt, call, put, r, v], size).any()
    s64, k64, t64 = (a.astype(np.float64) for a in (s, k, tt))
    sq = np.sqrt(t64)
    d1 = (np.log(s64 / k64) + (0.02 + 0.5 * 0.09) * t64) / (0.3 * sq)
    d2 = d1 - 0.3 * sq
    erf = np.vectorize(math.erf)
    n1, n2 = 0.5 * (1 + erf(d1 / math.sqrt(2))), 0.5 * (1 + erf(d2 / math.sqrt(2)))
    disc = k64 * np.exp(-0.02 * t64)
    np.testing.assert_allclose(call, s64 * n1 - disc * n2, atol=2e-3, rtol=1e-4)
    np.testing.assert_allclose(put, disc * (1 - n2) - s64 * (1 - n1), atol=2e-3, rtol=1e-4)


def stencil(src: Borrow[Array[f64]], dst: BorrowMut[Array[f64]]) -> None:
    x = go.global_id(0)
    y = go.global_id(1)
    if 0 < x and x < src.shape[1] - 1 and 0 < y and y < src.shape[0] - 1:
        dst[y, x] = 0.25 * (src[y - 1, x] + src[y + 1, x] + src[y, x - 1] + src[y, x + 1])


def test_2d_stencil_on_a_strided_view() -> None:
    base = np.random.default_rng(2).uniform(size=(40, 70))
    src = base[::2, ::2]  # non-contiguous
    dst = np.zeros(src.shape)
    assert not launch(stencil, [src, dst], (src.shape[1], src.shape[0])).any()
    want = 0.25 * (src[:-2, 1:-1] + src[2:, 1:-1] + src[1:-1, :-2] + src[1:-1, 2:])
    np.testing.assert_allclose(dst[1:-1, 1:-1], want)


@go.func
def dist2(p: Borrow[Array[f32]], i: int, j: int) -> f32:
    dx = p[j, 0] - p[i, 0]
    dy = p[j, 1] - p[i, 1]
    return dx * dx + dy * dy + 0.01


def nbody(p: Borrow[Array[f32]], acc: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < p.shape[0]:
        s = f32(0.0)
        for j in range(p.shape[0]):
            s += 1.0 / go.sqrt(dist2(p, i, j))
        acc[i] = s


def test_nbody_with_device_function() -> None:
    p = np.random.default_rng(4).uniform(size=(300, 2)).astype(np.float32)
    acc = np.zeros(300, dtype=np.float32)
    assert not launch(nbody, [p, acc], 300).any()
    d = ((p[None, :, :] - p[:, None, :]) ** 2).sum(-1) + 0.01
    np.testing.assert_allclose(acc, (1 / np.sqrt(d)).sum(1), rtol=1e-4)


def block_sum(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    tile = go.shared(128, go.f32)
    lid = go.local_id(0)
    i = go.global_id(0)
    tile[lid] = x[i] if i < x.shape[0] else 0.0
    go.barrier()
    s = go.local_size(0) // 2
    while s > 0:
        if lid < s:
            tile[lid] += tile[lid + s]
        go.barrier()
        s //= 2
    if lid == 0:
        out[go.group_id(0)] = tile[0]


def test_shared_memory_tree_reduction() -> None:
    x = np.random.default_rng(6).uniform(size=1000).astype(np.float32)
    out = np.zeros(8, dtype=np.float32)
    assert not launch(block_sum, [x, out], 1024, (128,)).any()
    want = np.add.reduceat(np.pad(x, (0, 24)), np.arange(0, 1024, 128))
    np.testing.assert_allclose(out, want, rtol=1e-5)


def histogram(x: Borrow[Array[i32]], bins: BorrowMut[Array[i32]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        go.atomic_add(bins, x[i] % 256, 1)


def test_histogram_with_atomics() -> None:
    x = np.random.default_rng(7).integers(0, 10_000, 5000).astype(np.int32)
    bins = np.zeros(256, dtype=np.int32)
    assert not launch(histogram, [x, bins], 5000).any()
    np.testing.assert_array_equal(bins, np.bincount(x % 256, minlength=256))


def out_of_range(x: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    x[i + 1] = 1.0


def test_bounds_error_from_python_kernel() -> None:
    x = np.zeros(10, dtype=np.float32)
    module = compile_py(out_of_range, [x])
    err = run_cpu(module, [x], 10)
    assert err[1] == 10
    check = module.check(int(err[0]))
    assert check.array == "x" and check.line > 0
    assert (x == 1).sum() == 9 and x[0] == 0


def sgemm(a: Borrow[Array[f32]], b: Borrow[Array[f32]], c: BorrowMut[Array[f32]]) -> None:
    j = go.global_id(0)
    i = go.global_id(1)
    if i < c.shape[0] and j < c.shape[1]:
        acc = f32(0.0)
        for k in range(a.shape[1]):
            acc += a[i, k] * b[k, j]
        c[i, j] = acc


@pytest.mark.parametrize("boundscheck", [True, False])
def test_sgemm_runs_its_k_loop_at_group_level(boundscheck: bool) -> None:
    rng = np.random.default_rng(8)
    a = rng.uniform(size=(37, 29)).astype(np.float32)
    bm = rng.uniform(size=(29, 45)).astype(np.float32)
    c = np.zeros((37, 45), dtype=np.float32)
    assert not launch(sgemm, [a, bm, c], (45, 37), (16, 4), boundscheck=boundscheck).any()
    np.testing.assert_allclose(c, a @ bm, rtol=1e-5)
    text = llvm_ir_text(compile_py(sgemm, [a, bm, c], boundscheck=boundscheck), optimized=True)
    assert re.search(r"<(4|8|16) x float>", text)  # vectorised across work-items


def early_return(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]], n: i32) -> None:
    i = go.global_id(0)
    if i >= out.shape[0]:
        return
    s = f32(0.0)
    for k in range(n):
        s += x[(i + k) % x.shape[0]]
    out[i] = s


@pytest.mark.parametrize("boundscheck", [True, False])
def test_return_before_a_group_level_loop(boundscheck: bool) -> None:
    x = np.arange(10, dtype=np.float32)
    out = np.zeros(13, dtype=np.float32)
    args = [x, out, np.int32(4)]
    assert not launch(early_return, args, 16, (8,), boundscheck=boundscheck).any()
    want = [sum(x[(i + k) % 10] for k in range(4)) for i in range(13)]
    np.testing.assert_allclose(out, want)
