"""The scan benchmark's kernels and baselines (``gpuoff.bench.cases_scan``) are exact on odd
sizes, on every device; the case checks itself against NumPy before timing anything."""

from __future__ import annotations

import numpy as np
import pytest

import gpuoff as go
from gpuoff.bench import cases_scan as cs


def gpuoff_scan(
    x: np.ndarray[tuple[int], np.dtype[np.int32]],
) -> np.ndarray[tuple[int], np.dtype[np.int32]]:
    sizes = cs.level_sizes(x.shape[0])
    outs = [go.zeros(m, go.i32) for m in sizes]
    sums = [go.zeros(cs.tiles_for(m), go.i32) for m in sizes]
    ins = [go.array(x), *sums[:-1]]

    def blocks(k: int) -> None:
        cs.scan_blocks[(cs.tiles_for(sizes[k]) * cs.BLOCK,), (cs.BLOCK,)](ins[k], outs[k], sums[k])

    def add(k: int) -> None:
        cs.add_block_offsets[sizes[k]](outs[k], outs[k + 1])

    cs.scan_levels(blocks, add, len(sizes))
    return outs[0].numpy()


def test_level_sizes() -> None:
    assert cs.level_sizes(1) == [1]
    assert cs.level_sizes(cs.TILE) == [cs.TILE]
    assert cs.level_sizes(cs.TILE + 1) == [cs.TILE + 1, 2]
    assert cs.level_sizes(cs.TILE**2 + 1) == [cs.TILE**2 + 1, cs.TILE + 1, 2]


@pytest.mark.parametrize("n", [1, 7, cs.TILE - 1, cs.TILE, cs.TILE + 1, 3 * cs.TILE + 17, 100_003])
def test_bench_scan_kernels_exact(device: str, n: int) -> None:
    x = np.random.default_rng(n).integers(-9, 9, n, dtype=np.int32)
    np.testing.assert_array_equal(gpuoff_scan(x), np.cumsum(x, dtype=np.int32))


@pytest.mark.parametrize("n", [1, 1001, 2 * cs.TILE + 5])
def test_scan_baselines_exact(device: str, n: int) -> None:
    x = np.random.default_rng(n).integers(0, 4, n, dtype=np.int32)
    impls, skipped = cs.scan_baselines(device, {"x": x})
    if device.startswith("cpu"):
        assert "NumPy" in impls
    for name, impl in impls.items():
        impl.run()
        assert impl.result is not None
        np.testing.assert_array_equal(impl.result(), np.cumsum(x), err_msg=name)
    assert impls or skipped


def test_scan_case_checks_itself() -> None:
    case = cs.ENTRIES[0].make("cpu", True)
    case.gpuoff.run()
    assert case.gpuoff.result is not None and case.reference is not None
    np.testing.assert_array_equal(case.gpuoff.result(), case.reference())
    assert case.work == 8.0 * (1 << 20) and case.unit == "GB/s"


def test_missing_backend_has_no_baselines() -> None:
    impls, skipped = cs.scan_baselines("cuda:0", {"x": np.zeros(4, np.int32)})
    assert impls == {} and skipped == []


def test_unavailable_opencl_baseline_is_skipped_with_a_reason() -> None:
    impls, skipped = cs.scan_baselines("opencl:99", {"x": np.zeros(4, np.int32)})
    assert impls == {} and len(skipped) == 1 and "OpenCL C" in skipped[0]


@pytest.mark.parametrize(("m", "k", "n"), [(16, 16, 16), (33, 17, 50)])
def test_bench_sgemm_tiled_kernel(device: str, m: int, k: int, n: int) -> None:
    rng = np.random.default_rng(m)
    a = rng.random((m, k), dtype=np.float32)
    b = rng.random((k, n), dtype=np.float32)
    c = go.zeros((m, n), go.f32)
    t = cs.SGEMM_TILE
    cs.sgemm_tiled[(-(-n // t) * t, -(-m // t) * t), (t, t)](go.array(a), go.array(b), c)
    np.testing.assert_allclose(c.numpy(), a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)


def test_opencl_tiled_sgemm_twin_on_non_square() -> None:
    if "opencl:0" not in [d.name for d in go.devices() if d.available]:
        pytest.skip("no OpenCL device here")
    rng = np.random.default_rng(0)
    a = rng.random((40, 23), dtype=np.float32)
    b = rng.random((23, 31), dtype=np.float32)
    impl = cs.opencl_sgemm_tiled("opencl:0", {"a": a, "b": b})
    impl.run()
    assert impl.result is not None
    np.testing.assert_allclose(impl.result(), a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)


def test_sgemm_tiled_case_baselines_per_backend() -> None:
    case = cs.ENTRIES[1].make("cpu", True)
    assert case.kernel == "sgemm_tiled" and case.unit == "GFLOP/s"
    assert set(case.baselines) | {s.split("baseline ")[1].split(" ")[0] for s in case.skipped} >= {
        "NumPy"
    }
    case.gpuoff.run()
    assert case.gpuoff.result is not None and case.reference is not None
    np.testing.assert_allclose(case.gpuoff.result(), case.reference(), rtol=1e-4, atol=1e-2)
