"""Work-group programs on every device: the examples' reduction, scan, tiled sgemm, histogram
and n-body against NumPy over many sizes (non-multiples of the block included), with the IR
interpreter (``gpuoff.ir.interp.run``) as a second oracle on small cases."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff.cli import lower_for_show
from gpuoff.ir import interp

ROOT = Path(__file__).resolve().parents[2]


def load_example(name: str) -> ModuleType:
    """Import ``examples/<name>.py`` under a private module name (nothing runs on import)."""
    spec = importlib.util.spec_from_file_location(
        f"_wg_example_{name}", ROOT / "examples" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


reduction = load_example("reduction")
scan = load_example("scan")
sgemm = load_example("sgemm_tiled")
hist = load_example("histogram")
nbody = load_example("nbody")


def interp_run(kernel: Any, sig: str, args: list[Any], grid: Any, block: Any) -> None:
    """Run ``kernel`` through the IR interpreter (NumPy arrays are updated in place)."""
    module = lower_for_show(kernel, sig, None, None)
    interp.run(module, args, grid, block)


# --- reduction --------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 7, 255, 256, 257, 1000, 65_537, 300_001])
def test_reduction_f32_many_sizes(device: str, n: int) -> None:
    x = np.random.default_rng(n).random(n, dtype=np.float32)
    got = reduction.total(go.array(x))
    assert got == pytest.approx(float(x.astype(np.float64).sum()), rel=1e-5)


@pytest.mark.parametrize("n", [1, 256, 513, 70_001])
def test_reduction_f64_many_sizes(device: str, n: int) -> None:
    x = np.random.default_rng(n).standard_normal(n)
    got = reduction.total(go.array(x))
    assert got == pytest.approx(float(x.sum()), rel=1e-12, abs=1e-9)


def test_reduction_partial_sums_per_group(device: str) -> None:
    # Each work-group's partial sum, not just the total: a wrong group id would move them.
    n = 3 * reduction.BLOCK + 5
    x = np.arange(n, dtype=np.float32)
    partial = go.zeros(4, go.f32)
    b = reduction.BLOCK
    reduction.block_sum[(4 * b,), (b,)](go.array(x), partial, b)
    b = reduction.BLOCK
    want = [x[g * b : (g + 1) * b].sum() for g in range(4)]
    np.testing.assert_array_equal(partial.numpy(), np.array(want, np.float32))


def test_reduction_interpreter_agrees() -> None:
    n = 2 * reduction.BLOCK + 3
    x = np.random.default_rng(1).random(n, dtype=np.float32)
    partial = np.zeros(3, np.float32)
    b = reduction.BLOCK
    interp_run(reduction.block_sum, f"f32[:], f32[:], {b}", [x, partial], (3 * b,), (b,))
    want = [x[g * b : (g + 1) * b].astype(np.float64).sum() for g in range(3)]
    np.testing.assert_allclose(partial, want, rtol=1e-6)


# --- scan -------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 511, 512, 513, 1024, 4097, 262_145])
def test_scan_many_sizes(device: str, n: int) -> None:
    # 262_145 > TILE**2 elements: three levels of block sums.
    x = np.random.default_rng(n).integers(-1000, 1000, n, dtype=np.int32)
    got = scan.inclusive_scan(go.array(x)).numpy()
    np.testing.assert_array_equal(got, np.cumsum(x, dtype=np.int32))


def test_scan_block_totals(device: str) -> None:
    n = 2 * scan.TILE + 1
    x = np.ones(n, np.int32)
    out, sums = go.zeros(n, go.i32), go.zeros(3, go.i32)
    scan.scan_blocks[(3 * scan.BLOCK,), (scan.BLOCK,)](go.array(x), out, sums)
    np.testing.assert_array_equal(sums.numpy(), [scan.TILE, scan.TILE, 1])
    tiles = np.concatenate([np.arange(1, scan.TILE + 1)] * 2 + [np.array([1])])
    np.testing.assert_array_equal(out.numpy(), tiles)


def test_scan_interpreter_agrees() -> None:
    n = scan.TILE + 100
    x = np.random.default_rng(2).integers(-50, 50, n, dtype=np.int32)
    out, sums = np.zeros(n, np.int32), np.zeros(2, np.int32)
    sig = "i32[:], i32[:], i32[:]"
    interp_run(scan.scan_blocks, sig, [x, out, sums], (2 * scan.BLOCK,), (scan.BLOCK,))
    interp_run(scan.add_block_offsets, "i32[:], i32[:]", [out, np.cumsum(sums, dtype=np.int32)],
               (n,), None)  # fmt: skip
    np.testing.assert_array_equal(out, np.cumsum(x, dtype=np.int32))


# --- tiled sgemm ------------------------------------------------------------------------------


@pytest.mark.parametrize(("m", "k", "n"), [(1, 1, 1), (16, 16, 16), (17, 33, 5), (64, 3, 48),
                                           (100, 70, 130), (5, 200, 1)])  # fmt: skip
def test_sgemm_tiled_non_square(device: str, m: int, k: int, n: int) -> None:
    rng = np.random.default_rng(m * 1000 + n)
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    got = sgemm.matmul(go.array(a), go.array(b)).numpy()
    assert got.shape == (m, n)
    np.testing.assert_allclose(got, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4 * np.sqrt(k))


def test_sgemm_tiled_interpreter_agrees() -> None:
    rng = np.random.default_rng(4)
    a = rng.standard_normal((19, 21), dtype=np.float32)
    b = rng.standard_normal((21, 18), dtype=np.float32)
    c = np.zeros((19, 18), np.float32)
    t = sgemm.TILE
    interp_run(sgemm.sgemm_tiled, "f32[:, :], f32[:, :], f32[:, :]", [a, b, c], (2 * t, 2 * t),
               (t, t))  # fmt: skip
    np.testing.assert_allclose(c, a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)


# --- histogram --------------------------------------------------------------------------------

HIST_DATA: dict[str, Callable[[int], np.ndarray[Any, Any]]] = {
    "one-bin": lambda n: np.full(n, 200, np.uint8),  # every atomic hits the same element
    "two-bins": lambda n: (np.arange(n) % 2 * 255).astype(np.uint8),
    "uniform": lambda n: np.random.default_rng(n).integers(0, 256, n).astype(np.uint8),
    "skewed": lambda n: np.minimum(np.random.default_rng(n).exponential(9.0, n), 255).astype(
        np.uint8
    ),
}


@pytest.mark.parametrize("kind", sorted(HIST_DATA))
@pytest.mark.parametrize("n", [1, 1000, 333_333])
def test_histogram_heavy_contention(device: str, kind: str, n: int) -> None:
    data = HIST_DATA[kind](n)
    got = hist.histogram(go.array(data)).numpy()
    np.testing.assert_array_equal(got, np.bincount(data, minlength=256))


def test_histogram_adds_to_existing_counts(device: str) -> None:
    data = np.full(5000, 3, np.uint8)
    bins = go.array(np.arange(256, dtype=np.uint32))
    hist.histogram256[(2 * hist.BINS,), (hist.BINS,)](go.array(data), bins)
    want = np.arange(256, dtype=np.uint32)
    want[3] += 5000
    np.testing.assert_array_equal(bins.numpy(), want)


def test_histogram_interpreter_agrees() -> None:
    data = np.random.default_rng(8).integers(0, 4, 3000).astype(np.uint8)
    bins = np.zeros(256, np.uint32)
    interp_run(hist.histogram256, "u8[:], u32[:]", [data, bins], (512,), (256,))
    np.testing.assert_array_equal(bins, np.bincount(data, minlength=256))


# --- n-body -----------------------------------------------------------------------------------


def _bodies(n: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    rng = np.random.default_rng(n)
    pos = np.empty((n, 4), np.float32)
    pos[:, :3] = rng.standard_normal((n, 3), dtype=np.float32)
    pos[:, 3] = rng.uniform(0.5, 1.5, n).astype(np.float32)
    return pos


@pytest.mark.parametrize("n", [1, 63, 64, 65, 300])
def test_nbody_against_numpy(device: str, n: int) -> None:
    pos = _bodies(n)
    ins = [go.array(np.ascontiguousarray(pos[:, c])) for c in range(4)]
    outs = [go.zeros(n, go.f32) for _ in range(3)]
    b = nbody.BLOCK
    nbody.nbody[(-(-n // b) * b,), (b,)](*ins, *outs)
    got = np.stack([o.numpy() for o in outs], axis=1)
    want = nbody.nbody_numpy(pos)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5 * max(1.0, np.abs(want).max()))
