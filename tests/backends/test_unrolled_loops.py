"""Loops over captured constant tuples and lists (issue 15, item 4), unrolled at compile time:
``for dx, dy in OFFSETS``, ``for w in WEIGHTS``, ``enumerate``/``zip``/``reversed`` of tuples,
``range(len(TAPS))`` whose variable indexes a tuple, ``break`` and ``continue`` in them; on
every device against the interpreter and NumPy, and in PTX."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from codegen.nvptx import compile_ptx
from gpuoff import Array, Borrow, BorrowMut, f32, i32
from gpuoff.frontend import lower_kernel
from gpuoff.ir import nodes as N
from gpuoff.ir.walk import walk_stmts
from tests.backends.agree import agree, arg_types
from tests.backends.test_ptx import assemble

RNG = np.random.default_rng(4)
CROSS = [(0, -1), (-1, 0), (0, 0), (1, 0), (0, 1)]  # a captured list of tuples
WEIGHTS = (0.1, 0.2, 0.4, 0.2, 0.1)
GAUSS = (1.0, 4.0, 6.0, 4.0, 1.0)


@go.kernel
def cross_stencil(out: BorrowMut[Array[f32]], x: Borrow[Array[f32]]) -> None:
    r = go.global_id(0)
    c = go.global_id(1)
    h, w = x.shape
    acc = 0.0
    for (dr, dc), wt in zip(CROSS, WEIGHTS):  # noqa: B905 (a kernel: zip of tuples)
        acc += wt * x[(r + dr) % h, (c + dc) % w]
    out[r, c] = acc


def test_loop_over_captured_offsets_and_weights(device: str) -> None:
    x = RNG.random((12, 16)).astype(np.float32)
    out, _ = agree(cross_stencil, x.shape, np.zeros_like(x), x, rtol=1e-6)
    want = sum(wt * np.roll(x, (-dr, -dc), (0, 1))
               for (dr, dc), wt in zip(CROSS, WEIGHTS, strict=True))
    np.testing.assert_allclose(out, want, rtol=1e-5)


@go.kernel
def indexed(out: BorrowMut[Array[f32]], x: Borrow[Array[f32]]) -> None:
    i = go.global_id(0)
    n = len(x)
    acc = 0.0
    for k in range(len(GAUSS)):  # k indexes a tuple: unrolled, k a constant in each copy
        acc += GAUSS[k] * x[(i + k) % n]
    for k, g in enumerate(GAUSS, 1):
        if k == 3:
            continue
        acc += g * k
    for g in reversed(GAUSS[:3]):
        if x[i] * g > 3.0:
            break
        acc += g
    out[i] = acc


def _indexed_numpy(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    out = np.zeros(x.shape, np.float64)
    for k, g in enumerate(GAUSS):
        out += g * np.roll(x, -k)
    out += sum(g * k for k, g in enumerate(GAUSS, 1) if k != 3)
    for j, v in enumerate(x):
        for g in reversed(GAUSS[:3]):
            if v * g > 3.0:
                break
            out[j] += g
    return out.astype(np.float32)


def test_range_over_a_tuple_enumerate_reversed_break_continue(device: str) -> None:
    x = RNG.random(40).astype(np.float32)
    out, _ = agree(indexed, x.size, np.zeros_like(x), x, rtol=1e-6)
    np.testing.assert_allclose(out, _indexed_numpy(x), rtol=1e-5)


def test_unrolled_loops_leave_no_loop_in_the_ir() -> None:
    x = np.zeros((4, 4), np.float32)
    module = lower_kernel(cross_stencil.pyfunc, arg_types(cross_stencil, (x, x)))
    assert not any(isinstance(s, N.ForRange | N.While) for s in walk_stmts(module.kernel.body))
    assert len(module.checks) == len(CROSS) + 1  # one load site per copy, and the store


@go.kernel
def local_tuple_loop(out: BorrowMut[Array[i32]], a: Borrow[Array[i32]]) -> None:
    i = go.global_id(0)
    pair = (a[i], a[i] * 2, a[i] * 3)
    best = 0
    for v in pair:
        if v > best:
            best = v
    for k in range(3):
        out[i, k] = pair[k] + best


def test_loop_over_a_tuple_local(device: str) -> None:
    a = RNG.integers(-5, 5, 30).astype(np.int32)
    out, _ = agree(local_tuple_loop, a.size, np.zeros((30, 3), np.int32), a)
    t = np.stack([a, 2 * a, 3 * a], 1)
    np.testing.assert_array_equal(out, t + np.maximum(t.max(1), 0)[:, None])


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not on the PATH")
@pytest.mark.parametrize("sm", [80, 90])
def test_unrolled_loops_assemble_to_ptx(sm: int, tmp_path: Path) -> None:
    x2, x1 = np.zeros((4, 4), np.float32), np.zeros(4, np.float32)
    for kernel, args in ((cross_stencil, (x2, x2)), (indexed, (x1, x1)),
                         (local_tuple_loop, (np.zeros((4, 3), np.int32), np.zeros(4, np.int32)))):
        module = lower_kernel(kernel.pyfunc, arg_types(kernel, args))
        info = assemble(compile_ptx(module, sm=sm).ptx, sm, tmp_path)
        assert "0 bytes stack frame" in info, info
