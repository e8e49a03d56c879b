"""Kernels ported from Taichi's examples, written as their sources write them (in our own
words), on every device against the interpreter and NumPy."""

from __future__ import annotations

from typing import Any

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, i32, i64
from tests.backends.agree import agree

NDArray = np.ndarray[Any, Any]

# -- Game of Life ------------------------------------------------------------------------------
# Source: taichi, python/taichi/examples/simulation/game_of_life.py: a device function counts
# the live neighbours of a cell (cells outside the board are dead), and the rule asks whether
# the count is in the captured lists of birth and survival counts. Here the neighbours are a
# captured tuple of offsets the loop walks (unrolled at compile time).

NEIGHBOURS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
BIRTH = [3]
SURVIVAL = [2, 3]


@go.func
def alive_at(board: Borrow[Array[i32]], i: i64, j: i64) -> i32:
    rows, cols = board.shape
    return board[i, j] if 0 <= i < rows and 0 <= j < cols else i32(0)


@go.func
def live_neighbours(board: Borrow[Array[i32]], i: i64, j: i64) -> i32:
    count = i32(0)
    for di, dj in NEIGHBOURS:
        count += alive_at(board, i + di, j + dj)
    return count


@go.kernel
def life_step(new: BorrowMut[Array[i32]], board: Borrow[Array[i32]]) -> None:
    i, j = go.global_id(0), go.global_id(1)
    c = live_neighbours(board, i, j)
    a = board[i, j]
    if a == 0:
        if c in BIRTH:
            a = i32(1)
    elif c not in SURVIVAL:
        a = i32(0)
    new[i, j] = a


def _life_numpy(board: NDArray) -> NDArray:
    padded = np.pad(board, 1)
    h, w = board.shape
    count = sum(padded[1 + di: 1 + di + h, 1 + dj: 1 + dj + w] for di, dj in NEIGHBOURS)
    born = (board == 0) & np.isin(count, BIRTH)
    stays = (board == 1) & np.isin(count, SURVIVAL)
    out: NDArray = (born | stays).astype(np.int32)
    return out


def test_game_of_life_over_a_neighbour_tuple(device: str) -> None:
    board = (np.random.default_rng(7).random((24, 40)) < 0.35).astype(np.int32)
    for _ in range(3):
        (new, _) = agree(life_step, board.shape, np.zeros_like(board), board)
        np.testing.assert_array_equal(new, _life_numpy(board))
        board = new


# -- Julia set ---------------------------------------------------------------------------------
# Source: taichi, python/taichi/examples/simulation/fractal.py: each pixel iterates z = z^2 + c
# (Taichi spells z as a vec2 and squares it with a helper) until |z| reaches 20 or 50 steps
# pass, for a c that turns with the time t, and paints 1 - steps * 0.02. Here z and c are
# complex numbers, as the mathematics writes them.

JULIA_STEPS = 50


@go.kernel
def julia(pixels: BorrowMut[Array[go.f32]], t: go.f32) -> None:
    i, j = go.global_id(0), go.global_id(1)
    n = pixels.shape[1]
    c = complex(go.f32(-0.8), go.cos(t) * 0.2)
    z = complex(go.f32(i / n - 1), go.f32(j / n - 0.5)) * 2
    iterations = 0
    while abs(z) < 20 and iterations < JULIA_STEPS:
        z = z * z + c
        iterations += 1
    pixels[i, j] = 1 - iterations * 0.02


def _julia_numpy(n: int, t: float) -> NDArray:
    """The same iteration in NumPy's complex64 (the product written out as NumPy's scalar
    code computes it: its array loops may contract it to FMA)."""
    i, j = np.meshgrid(np.arange(2 * n), np.arange(n), indexing="ij")
    f = np.float32
    c = np.complex64(complex(f(-0.8), f(np.cos(f(t))) * f(0.2)))
    z = ((i / n - 1).astype(f) + 1j * (j / n - 0.5).astype(f)).astype(np.complex64) * f(2)
    steps = np.zeros(z.shape, np.int64)
    for _ in range(JULIA_STEPS):
        going = np.abs(z) < 20
        re = z.real * z.real - z.imag * z.imag + c.real
        im = z.real * z.imag + z.imag * z.real + c.imag
        z = np.where(going, re + 1j * im, z).astype(np.complex64)
        steps += going
    out: NDArray = (1 - steps * 0.02).astype(np.float32)
    return out


def test_julia_set_with_complex_numbers(device: str) -> None:
    n, t = 16, 0.7
    (pixels,) = agree(julia, (2 * n, n), np.zeros((2 * n, n), np.float32), t)
    want = _julia_numpy(n, t)
    # |z| < 20 may decide differently where hypot's last bit does: allow a few pixels
    assert np.mean(pixels != want) < 0.01, np.argwhere(pixels != want)
    assert len(np.unique(pixels)) > 10  # a picture, not a constant
