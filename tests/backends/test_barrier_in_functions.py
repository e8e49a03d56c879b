"""``go.barrier()`` inside a ``@go.func`` (issue 15, item 11): the function is inlined into the
kernel, so the barrier-divergence rules see across the call; on every device against the
interpreter and NumPy, in PTX, and refused (at the call, naming the function's line) where a
work-item-dependent condition would split the group."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from codegen.nvptx import compile_ptx
from gpuoff import Array, Borrow, BorrowMut, CompileError, f32, i32, i64
from gpuoff.frontend import lower_kernel
from gpuoff.ir import nodes as N
from gpuoff.ir.walk import walk_exprs
from tests.backends.agree import agree, arg_types
from tests.backends.test_ptx import assemble

B = 64
RNG = np.random.default_rng(11)
THIS = Path(__file__).resolve()


def line_of(marker: str) -> int:
    lines = THIS.read_text().splitlines()
    return next(k + 1 for k, t in enumerate(lines) if t.rstrip().endswith(f"# L:{marker}"))


@go.func
def group_sum(tile: BorrowMut[Array[f32]], lid: i64, v: f32) -> f32:
    """Tree reduction over the group (every item gets the total)."""
    tile[lid] = v
    go.barrier()
    half = B // 2
    while half > 0:
        if lid < half:
            tile[lid] += tile[lid + half]
        go.barrier()
        half //= 2
    total = tile[0]
    go.barrier()  # every item has read tile[0] before the tile is reused
    return total


@go.func
def normalise(tile: BorrowMut[Array[f32]], lid: i64, v: f32) -> tuple[f32, f32]:
    """Calls a barrier function twice and returns a tuple: nested inlining."""
    total = group_sum(tile, lid, v)
    squares = group_sum(tile, lid, v * v)
    return v / total, squares


@go.func
def early_out(tile: BorrowMut[Array[f32]], lid: i64, v: f32, n: i32) -> f32:
    """A uniform early return before the barrier (every item of the group takes it or none)."""
    if n <= 0:
        return f32(0.0)
    tile[lid] = v
    go.barrier()
    got = tile[(lid + 1) % B]
    go.barrier()
    return got


@go.kernel
def uses_them(out: BorrowMut[Array[f32]], x: Borrow[Array[f32]], n: i32) -> None:
    i = go.global_id(0)
    lid = go.local_id(0)
    tile = go.shared(B, go.f32)
    share, sq = normalise(tile, lid, x[i])
    out[i, 0] = share
    out[i, 1] = sq + early_out(tile, lid, x[i], n)
    if n > 1:
        out[i, 2] = group_sum(tile, lid, 1.0) * 2.0
    else:
        out[i, 2] = 0.0


def _uses_them_numpy(x: np.ndarray[Any, Any], n: int) -> np.ndarray[Any, Any]:
    g = x.reshape(-1, B).astype(np.float64)
    tot = g.sum(1, keepdims=True)
    sq = (g * g).sum(1, keepdims=True)
    nxt = np.roll(g, -1, axis=1) if n > 0 else np.zeros_like(g)
    col2 = np.full_like(g, 2.0 * B if n > 1 else 0.0)
    return np.stack([g / tot, sq + nxt, col2], -1).reshape(-1, 3)


@pytest.mark.parametrize("n", [0, 1, 2])
def test_barrier_functions_nested_with_tuples_and_early_returns(device: str, n: int) -> None:
    x = RNG.random(4 * B).astype(np.float32) + 0.5
    out, _ = agree(uses_them, x.size, np.zeros((x.size, 3), np.float32), x, np.int32(n),
                   block=(B,), rtol=1e-5, atol=1e-5)  # fmt: skip
    np.testing.assert_allclose(out, _uses_them_numpy(x, n), rtol=1e-4, atol=1e-4)


def test_barrier_functions_are_inlined() -> None:
    args = (np.zeros((8, 3), np.float32), np.zeros(8, np.float32), np.int32(1))
    module = lower_kernel(uses_them.pyfunc, arg_types(uses_them, args))
    assert module.functions == ()
    assert not any(isinstance(e, N.Call) for e in walk_exprs(module.kernel.body))


@go.func
def diverging(tile: BorrowMut[Array[f32]], lid: i64) -> None:
    if lid < 32:
        go.barrier()  # L:diverging


@go.kernel
def calls_diverging(out: BorrowMut[Array[f32]]) -> None:
    tile = go.shared(B, go.f32)
    diverging(tile, go.local_id(0))  # L:calls_diverging
    out[go.global_id(0)] = tile[0]


@go.func
def leaves_early(tile: BorrowMut[Array[f32]], lid: i64) -> None:
    if lid == 0:
        return  # L:leaves_early
    go.barrier()


@go.kernel
def calls_leaves_early(out: BorrowMut[Array[f32]]) -> None:
    tile = go.shared(B, go.f32)
    leaves_early(tile, go.local_id(0))  # L:calls_leaves_early
    out[go.global_id(0)] = tile[0]


@go.kernel
def barrier_call_under_id(out: BorrowMut[Array[f32]]) -> None:
    tile = go.shared(B, go.f32)
    if go.local_id(0) > 3:
        total = group_sum(tile, go.local_id(0), 1.0)  # L:under_id
        out[go.global_id(0)] = total


@go.kernel
def in_a_branch(out: BorrowMut[Array[f32]]) -> None:
    tile = go.shared(B, go.f32)
    out[go.global_id(0)] = group_sum(tile, go.local_id(0), 1.0) if B > 1 else 0.0  # L:branch


@pytest.mark.parametrize(("kernel", "marker", "words"), [
    (calls_diverging, "calls_diverging", f"barrier in device function 'diverging' ({THIS}, "
     f"line {line_of('diverging')}) under a condition that may differ between work-items"),
    (calls_leaves_early, "calls_leaves_early", f"'return' in device function 'leaves_early' "
     f"({THIS}, line {line_of('leaves_early')}) under a condition"),
    (barrier_call_under_id, "under_id", "barrier in device function 'group_sum'"),
    (in_a_branch, "branch", "a call of device function 'group_sum', which reaches a barrier, "
     "cannot stand in a conditional expression's branch; assign its result to a variable"),
])  # fmt: skip
def test_divergent_barriers_in_device_functions_are_refused(kernel: Any, marker: str,
                                                            words: str) -> None:  # fmt: skip
    with pytest.raises(CompileError) as info:
        lower_kernel(kernel.pyfunc, arg_types(kernel, (np.zeros(8, np.float32),)))
    msg = str(info.value)
    assert words in msg, msg
    assert f"line {line_of(marker)}, column" in msg, msg  # at the call, in the kernel


@go.kernel
def voted_in_function(out: BorrowMut[Array[f32]], flags: BorrowMut[Array[i32]]) -> None:
    tile = go.shared(B, go.f32)
    total = 0.0
    if flags[0] > 0:  # uniform unless a work-item wrote flags[0] meanwhile: voted
        total = group_sum(tile, go.local_id(0), 1.0)
    out[go.global_id(0)] = total



def test_a_call_under_a_condition_from_memory_is_voted(device: str) -> None:
    out, flags = agree(voted_in_function, 2 * B, np.zeros(2 * B, np.float32),
                       np.ones(1, np.int32), block=(B,))  # fmt: skip
    np.testing.assert_array_equal(out, np.full(2 * B, float(B), np.float32))


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not on the PATH")
@pytest.mark.parametrize("sm", [80, 90])
def test_barrier_functions_assemble_to_ptx(sm: int, tmp_path: Path) -> None:
    args = (np.zeros((8, 3), np.float32), np.zeros(8, np.float32), np.int32(1))
    module = lower_kernel(uses_them.pyfunc, arg_types(uses_them, args))
    ptx = compile_ptx(module, sm=sm).ptx
    assert "bar.sync" in ptx or "barrier.sync" in ptx
    assemble(ptx, sm, tmp_path)
