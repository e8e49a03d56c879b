"""Grid-stride ``for`` loops as users write them, on every device, against the interpreter and
NumPy. (On ``cpu`` they run masked at work-group level: ``codegen.cpu_masked``.)"""

from __future__ import annotations

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32
from gpuoff.bench.cases_loops import SOFTMAX_BLOCK as BLOCK
from gpuoff.bench.cases_loops import black_scholes_gridstride, softmax_rows
from gpuoff.bench.references import black_scholes_inputs, black_scholes_ref
from tests.backends.agree import agree


@go.kernel
def saxpy_n(n: i32, a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    """NVIDIA's "CUDA Pro Tip: Write Flexible Kernels with Grid-Stride Loops" saxpy, with the
    CUDA spelling of the start and the stride (blockIdx.x * blockDim.x + threadIdx.x,
    blockDim.x * gridDim.x) and an ``int n``."""
    start = go.group_id(0) * go.local_size(0) + go.local_id(0)
    for i in range(start, n, go.local_size(0) * go.num_groups(0)):
        y[i] = a * x[i] + y[i]


@go.kernel
def two_passes(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], z: BorrowMut[Array[f32]]) -> None:
    """Two grid-stride passes over one loop variable, the second from an offset start."""
    for i in range(go.global_id(0), y.shape[0], go.global_size(0)):
        y[i] = 2.0 * x[i]
    for i in range(go.global_id(0) + 1, z.shape[0], go.global_size(0)):
        z[i] = x[i] + 1.0


@pytest.mark.parametrize("grid,block", [((256,), (64,)), ((1000,), (100,)), ((7,), (7,))])
def test_cuda_style_grid_stride_saxpy(device: str, grid: tuple[int], block: tuple[int]) -> None:
    rng = np.random.default_rng(11)
    n = 10_001
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    (_, got) = agree(saxpy_n, grid, n - 5, 3.0, x, y, block=block)
    want = y.copy()
    want[: n - 5] = np.float32(3.0) * x[: n - 5] + y[: n - 5]
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert got[-1] == y[-1]  # past n: untouched


def test_a_grid_stride_loop_that_reads_past_the_end_fails_cleanly(device: str) -> None:
    x = np.ones(100, np.float32)
    y = np.zeros(200, np.float32)
    yb = go.array(y)
    with pytest.raises(go.BoundsError, match="x"):
        saxpy_n[(64,), (32,)](150, 1.0, go.asarray(x), yb)
        go.synchronize()


def test_two_passes_over_one_loop_variable(device: str) -> None:
    x = np.random.default_rng(12).random(5000, dtype=np.float32)
    y, z = np.zeros_like(x), np.zeros_like(x)
    (_, got_y, got_z) = agree(two_passes, (640,), x, y, z, block=(64,))
    np.testing.assert_array_equal(got_y, 2.0 * x)
    np.testing.assert_array_equal(got_z[1:], x[1:] + np.float32(1.0))
    assert got_z[0] == 0.0


def test_cuda_samples_black_scholes_grid_stride(device: str) -> None:
    n = 20_000
    price, strike, years = black_scholes_inputs(n)
    call, put = np.zeros(n, np.float32), np.zeros(n, np.float32)
    got = agree(black_scholes_gridstride, (480 * 32,), price, strike, years, 0.02, 0.30, call,
                put, block=(32,), rtol=2e-5, atol=2e-5)  # fmt: skip
    wide = [a.astype(np.float64) for a in (price, strike, years)]
    want_call, want_put = black_scholes_ref(wide[0], wide[1], wide[2], 0.02, 0.30)
    np.testing.assert_allclose(got[3], want_call, rtol=1e-3, atol=2e-3)
    np.testing.assert_allclose(got[4], want_put, rtol=1e-3, atol=2e-3)


def test_row_softmax_with_strided_loops_in_a_work_group(device: str) -> None:
    rows, cols = 6, 700  # cols not a multiple of the block: the last stride is partial
    x = (np.random.default_rng(13).standard_normal((rows, cols)) * 4).astype(np.float32)
    out = np.zeros_like(x)
    (_, got) = agree(softmax_rows, (rows * BLOCK,), x, out, block=(BLOCK,), rtol=1e-6,
                     atol=1e-9)  # fmt: skip
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(got, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-8)
