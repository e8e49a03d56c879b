"""Work-group geometry and barriers on every device: ``local_id``/``group_id``/``local_size``/
``num_groups`` in 1-3 dimensions checked element-wise against NumPy, and barriers inside loops
and uniform ``if``s (the interpreter is the second oracle)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32
from gpuoff.cli import lower_for_show
from gpuoff.ir import interp


@go.kernel
def ids3(out: BorrowMut[Array[i32]]) -> None:
    """``out[z, y, x * 15 : (x + 1) * 15]`` = local ids, group ids, local sizes, num groups,
    global sizes (3 slots each; the dimension of an intrinsic is a compile-time constant)."""
    x = go.global_id(0)
    y = go.global_id(1)
    z = go.global_id(2)
    out[z, y, x * 15 + 0] = go.local_id(0)
    out[z, y, x * 15 + 3] = go.group_id(0)
    out[z, y, x * 15 + 6] = go.local_size(0)
    out[z, y, x * 15 + 9] = go.num_groups(0)
    out[z, y, x * 15 + 12] = go.global_size(0)
    out[z, y, x * 15 + 1] = go.local_id(1)
    out[z, y, x * 15 + 4] = go.group_id(1)
    out[z, y, x * 15 + 7] = go.local_size(1)
    out[z, y, x * 15 + 10] = go.num_groups(1)
    out[z, y, x * 15 + 13] = go.global_size(1)
    out[z, y, x * 15 + 2] = go.local_id(2)
    out[z, y, x * 15 + 5] = go.group_id(2)
    out[z, y, x * 15 + 8] = go.local_size(2)
    out[z, y, x * 15 + 11] = go.num_groups(2)
    out[z, y, x * 15 + 14] = go.global_size(2)


@go.kernel
def ids2(out: BorrowMut[Array[i32]]) -> None:
    """The 2-D twin of ``ids3``: ``out[y, x, :]``."""
    x = go.global_id(0)
    y = go.global_id(1)
    out[y, x, 0] = go.local_id(0)
    out[y, x, 3] = go.group_id(0)
    out[y, x, 6] = go.local_size(0)
    out[y, x, 9] = go.num_groups(0)
    out[y, x, 12] = go.global_size(0)
    out[y, x, 1] = go.local_id(1)
    out[y, x, 4] = go.group_id(1)
    out[y, x, 7] = go.local_size(1)
    out[y, x, 10] = go.num_groups(1)
    out[y, x, 13] = go.global_size(1)


def expected_ids(grid: tuple[int, ...], block: tuple[int, ...]) -> np.ndarray[Any, Any]:
    """What ``ids2``/``ids3`` write, from NumPy index grids (dimension 0 is the last axis)."""
    nd = len(grid)
    out = np.zeros((*grid[::-1], 15), np.int32)
    axes = np.indices(grid[::-1])  # axes[k] runs along array axis k = grid dimension nd-1-k
    for d in range(nd):
        gid = axes[nd - 1 - d]
        out[..., d] = gid % block[d]
        out[..., 3 + d] = gid // block[d]
        out[..., 6 + d] = block[d]
        out[..., 9 + d] = grid[d] // block[d]
        out[..., 12 + d] = grid[d]
    return out


@pytest.mark.parametrize(("grid", "block"), [((8, 6), (4, 3)), ((32, 4), (16, 1)),
                                             ((5, 7), (5, 7)), ((12, 12), (2, 6))])  # fmt: skip
def test_2d_blocks(device: str, grid: tuple[int, int], block: tuple[int, int]) -> None:
    out = go.zeros((*grid[::-1], 15), go.i32)
    ids2[grid, block](out)
    np.testing.assert_array_equal(out.numpy(), expected_ids(grid, block))


@pytest.mark.parametrize(("grid", "block"), [((4, 6, 4), (2, 3, 2)), ((8, 2, 3), (4, 1, 3)),
                                             ((3, 3, 3), (1, 1, 1))])  # fmt: skip
def test_3d_blocks(device: str, grid: tuple[int, int, int], block: tuple[int, int, int]) -> None:
    out = go.zeros((grid[2], grid[1], grid[0] * 15), go.i32)  # arrays have at most 3 dims
    ids3[grid, block](out)
    np.testing.assert_array_equal(out.numpy().reshape(*grid[::-1], 15), expected_ids(grid, block))


def test_3d_blocks_interpreter_agrees() -> None:
    grid, block = (4, 6, 2), (2, 3, 2)
    out = np.zeros((grid[2], grid[1], grid[0] * 15), np.int32)
    interp.run(lower_for_show(ids3, "i32[:, :, :]", None, None), [out], grid, block)
    np.testing.assert_array_equal(out.reshape(*grid[::-1], 15), expected_ids(grid, block))


BLOCK = 32


@go.kernel
def rotate(x: Borrow[Array[f32]], steps: i32, out: BorrowMut[Array[f32]]) -> None:
    """Pass values around the work-group ``steps`` times through shared memory: after the
    loop each work-item holds ``x[base + (lid + steps) % BLOCK]``. Two barriers per step, in a
    loop whose bound is a kernel argument (uniform)."""
    lid = go.local_id(0)
    base = go.group_id(0) * BLOCK
    tile = go.shared(BLOCK, go.f32)
    v = x[base + lid]
    for _ in range(steps):
        tile[lid] = v
        go.barrier()
        v = tile[(lid + 1) % BLOCK]
        go.barrier()
    out[base + lid] = v


@go.kernel
def maybe_reverse(x: Borrow[Array[f32]], flag: i32, out: BorrowMut[Array[f32]]) -> None:
    """Reverse each block through shared memory when ``flag`` (uniform) is set, in a while
    loop run ``flag`` times with a barrier under an ``if`` inside it."""
    lid = go.local_id(0)
    base = go.group_id(0) * BLOCK
    tile = go.shared(BLOCK, go.f32)
    v = x[base + lid]
    k = 0
    while k < flag:
        if flag > 0:
            tile[lid] = v
            go.barrier()
            v = tile[BLOCK - 1 - lid]
            go.barrier()
        k += 1
    out[base + lid] = v


def _rotated(x: np.ndarray[Any, Any], steps: int) -> np.ndarray[Any, Any]:
    blocks = x.reshape(-1, BLOCK)
    return np.roll(blocks, -steps, axis=1).reshape(-1)


@pytest.mark.parametrize("steps", [0, 1, 5, 33])
def test_barriers_inside_loop(device: str, steps: int) -> None:
    x = np.random.default_rng(steps).random(4 * BLOCK, dtype=np.float32)
    out = go.zeros(x.shape[0], go.f32)
    rotate[(x.shape[0],), (BLOCK,)](go.array(x), steps, out)
    np.testing.assert_array_equal(out.numpy(), _rotated(x, steps))


@pytest.mark.parametrize("times", [0, 1, 2, 3])
def test_barrier_under_uniform_if_in_while(device: str, times: int) -> None:
    x = np.arange(3 * BLOCK, dtype=np.float32)
    out = go.zeros(x.shape[0], go.f32)
    maybe_reverse[(x.shape[0],), (BLOCK,)](go.array(x), times, out)
    want = x.reshape(-1, BLOCK)
    if times % 2:
        want = want[:, ::-1]
    np.testing.assert_array_equal(out.numpy(), want.reshape(-1))


def test_barrier_loops_interpreter_agrees() -> None:
    x = np.random.default_rng(0).random(2 * BLOCK, dtype=np.float32)
    out = np.zeros_like(x)
    module = lower_for_show(rotate, "f32[:], i32, f32[:]", None, None)
    interp.run(module, [x, 3, out], (x.shape[0],), (BLOCK,))
    np.testing.assert_array_equal(out, _rotated(x, 3))


def test_default_block_covers_the_grid(device: str) -> None:
    # Without a block the device picks one; the ids must still tile the grid exactly.
    grid = (37, 5)
    out = go.zeros((5, 37, 15), go.i32)
    ids2[grid](out)
    got = out.numpy()
    lsize, ngroups = got[..., 6:8], got[..., 9:11]
    assert (lsize == lsize[0, 0]).all() and (ngroups == ngroups[0, 0]).all()
    block = tuple(int(b) for b in lsize[0, 0])
    np.testing.assert_array_equal(got[..., 12:14], np.broadcast_to(grid, (5, 37, 2)))
    for d in range(2):
        gid = np.indices((5, 37))[1 - d]
        np.testing.assert_array_equal(got[..., d] + got[..., 3 + d] * block[d], gid)


@go.kernel
def shared_overrun(out: BorrowMut[Array[f32]]) -> None:
    """Writes one past the end of its shared tile from the last work-item of each group."""
    lid = go.local_id(0)
    tile = go.shared(BLOCK, go.f32)
    tile[lid] = 1.0
    go.barrier()
    if lid == BLOCK - 1:
        tile[lid + 1] = 2.0
    out[go.global_id(0)] = tile[lid]


def test_shared_arrays_are_bounds_checked(device: str) -> None:
    out = go.zeros(2 * BLOCK, go.f32)
    with pytest.raises(go.BoundsError) as info:
        shared_overrun[(2 * BLOCK,), (BLOCK,)](out)
        go.synchronize()
    msg = str(info.value)
    assert "tile" in msg and str(BLOCK) in msg and "shared_overrun" in msg
