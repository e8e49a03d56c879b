"""The C/OpenMP and NumPy baselines compute what the gpuoff kernels compute (small sizes)."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from gpuoff.bench import cbuild, references
from gpuoff.bench.cpu_baselines import CPU_BASELINES
from gpuoff.bench.harness import BenchSkip

needs_cc = pytest.mark.skipif(
    not any(shutil.which(c) for c in ("cc", "gcc", "clang")), reason="no C compiler"
)


def _saxpy_inputs() -> dict[str, object]:
    rng = np.random.default_rng(3)
    return {"a": 2.5, "x": rng.random(1000, dtype=np.float32),
            "y": rng.random(1000, dtype=np.float32), "ops": 3}  # fmt: skip


@needs_cc
@pytest.mark.parametrize("name", ["C/OpenMP", "NumPy"])
def test_saxpy_baselines_match_reference(name: str) -> None:
    inputs = _saxpy_inputs()
    impl = CPU_BASELINES["saxpy"][name]("cpu", inputs)
    impl.run()
    assert impl.result is not None
    x, y = inputs["x"], inputs["y"]
    assert isinstance(x, np.ndarray) and isinstance(y, np.ndarray)
    np.testing.assert_allclose(impl.result(), references.saxpy_ref(2.5, x, y), rtol=1e-6)
    fresh = _saxpy_inputs()["y"]
    assert isinstance(fresh, np.ndarray)
    assert np.array_equal(y, fresh)  # the caller's input is not modified


@needs_cc
def test_serial_call_floor_runs_ops_times() -> None:
    inputs = _saxpy_inputs()
    impl = CPU_BASELINES["launch"]["ctypes call"]("cpu", inputs)
    assert impl.ops == 3 and impl.run() is None


@needs_cc
@pytest.mark.parametrize("name", ["C/OpenMP", "NumPy"])
@pytest.mark.parametrize("shape", [(7, 9), (64, 33), (3, 3)])
def test_stencil_baselines_match_reference(name: str, shape: tuple[int, int]) -> None:
    src = np.random.default_rng(4).random(shape, dtype=np.float32)
    impl = CPU_BASELINES["stencil2d"][name]("cpu", {"src": src})
    impl.run()
    assert impl.result is not None
    np.testing.assert_allclose(impl.result(), references.stencil5_ref(src), rtol=1e-6)


@needs_cc
@pytest.mark.parametrize("name", ["C/OpenMP", "C/OpenMP+libmvec", "NumPy"])
def test_black_scholes_baselines_match_reference(name: str) -> None:
    price, strike, years = references.black_scholes_inputs(4096)
    inputs = {"price": price, "strike": strike, "years": years, "rate": 0.02, "vol": 0.3}
    impl = CPU_BASELINES["black_scholes"][name]("cpu", inputs)
    impl.run()
    assert impl.result is not None
    wide = [a.astype(np.float64) for a in (price, strike, years)]
    call, put = references.black_scholes_ref(wide[0], wide[1], wide[2], 0.02, 0.3)
    np.testing.assert_allclose(impl.result(), np.stack([call, put]), rtol=1e-3, atol=2e-3)
    # put-call parity holds for the baseline's own prices: C - P = S - K exp(-rT)
    got = impl.result()
    parity = price - strike * np.exp(-0.02 * years)
    np.testing.assert_allclose(got[0] - got[1], parity, atol=5e-3, rtol=1e-4)


def test_reference_erf_is_accurate() -> None:
    import math

    xs = np.linspace(-4, 4, 801)
    exact = np.array([math.erf(v) for v in xs])
    assert np.max(np.abs(references.erf_np(xs) - exact)) < 2e-7


def test_mandelbrot_reference_known_points() -> None:
    # c = 0 never escapes; c = 1 escapes: 0, 1, 2, 5 -> |z|^2 > 4 after 3 steps
    counts = references.mandelbrot_ref(1, 2, 0.0, 0.0, 1.0, 50)
    assert counts.tolist() == [[50, 3]]


@needs_cc
def test_compile_failure_is_a_skip_with_the_log() -> None:
    with pytest.raises(BenchSkip, match="did not build"):
        cbuild.compile_shared("broken", "this is not C;")


def test_missing_compiler_is_a_skip(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC", "no-such-compiler-gpuoff")
    with pytest.raises(BenchSkip, match="no C compiler"):
        cbuild.find_compiler()


def test_openmp_uses_every_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    import os

    assert cbuild.set_openmp_threads() == (os.cpu_count() or 1)


@needs_cc
def test_c_baseline_keeps_its_arrays_alive() -> None:
    import gc

    src = np.random.default_rng(5).random((50, 40), dtype=np.float32)
    impl = CPU_BASELINES["stencil2d"]["C/OpenMP"]("cpu", {"src": src.copy()})
    gc.collect()
    _ = [np.full((50, 40), 7.0, np.float32) for _ in range(20)]  # reuse any freed memory
    impl.run()
    assert impl.result is not None
    np.testing.assert_allclose(impl.result(), references.stencil5_ref(src), rtol=1e-6)


@needs_cc
@pytest.mark.parametrize("name", ["C/OpenMP", "NumPy"])
def test_sum_baselines(name: str) -> None:
    x = np.random.default_rng(8).random(100_003, dtype=np.float32)
    impl = CPU_BASELINES["reduction"][name]("cpu", {"x": x})
    impl.run()
    assert impl.result is not None
    np.testing.assert_allclose(impl.result(), [x.astype(np.float64).sum()], rtol=1e-5)


@needs_cc
@pytest.mark.parametrize("name", ["C/OpenMP", "NumPy"])
def test_sgemm_baselines(name: str) -> None:
    rng = np.random.default_rng(9)
    a, b = rng.random((37, 37), dtype=np.float32), rng.random((37, 37), dtype=np.float32)
    impl = CPU_BASELINES["sgemm"][name]("cpu", {"a": a, "b": b})
    impl.run()
    assert impl.result is not None
    np.testing.assert_allclose(impl.result(), a.astype(np.float64) @ b, rtol=1e-5)


@needs_cc
@pytest.mark.parametrize("name", ["C/OpenMP", "NumPy"])
def test_histogram_baselines(name: str) -> None:
    data = np.random.default_rng(10).integers(0, 256, 50_001).astype(np.uint8)
    impl = CPU_BASELINES["histogram"][name]("cpu", {"data": data})
    impl.run()
    impl.run()  # counts start from zero on every run
    assert impl.result is not None
    assert impl.result().dtype == np.uint32
    assert np.array_equal(impl.result(), np.bincount(data, minlength=256))


@needs_cc
def test_nbody_baseline_matches_reference() -> None:
    px, py, pz, mass = references.nbody_inputs(300)
    impl = CPU_BASELINES["nbody"]["C/OpenMP"]("cpu", {"px": px, "py": py, "pz": pz, "mass": mass})
    impl.run()
    assert impl.result is not None
    expected = references.nbody_ref(px, py, pz, mass, chunk=64)
    np.testing.assert_allclose(impl.result(), expected, rtol=1e-3,
                               atol=1e-4 * float(np.abs(expected).max()))  # fmt: skip


def test_nbody_reference_is_chunk_independent() -> None:
    px, py, pz, mass = references.nbody_inputs(100)
    np.testing.assert_allclose(references.nbody_ref(px, py, pz, mass, chunk=7),
                               references.nbody_ref(px, py, pz, mass, chunk=100))  # fmt: skip


def test_c_flags_keep_results_and_drop_errno() -> None:
    # -fno-math-errno changes no result (nothing reads errno) and lets sqrtf vectorise;
    # -ffast-math would change results (reassociation, no NaN/inf): never used.
    assert "-fno-math-errno" in cbuild.CFLAGS
    assert not any(f in cbuild.CFLAGS for f in ("-ffast-math", "-Ofast", "-ffinite-math-only"))
    assert {"-O3", "-march=native", "-fopenmp"} <= set(cbuild.CFLAGS)


@needs_cc
def test_libraries_are_built_in_the_runs_scratch_folder() -> None:
    from gpuoff.bench import scratch

    lib = cbuild.compile_shared("probe", "int probe(void) { return 7; }\n")
    assert lib.parent == scratch.scratch_dir("c")
    assert lib.parent.is_relative_to(scratch.scratch_root())


@needs_cc
def test_libmvec_variant_links_the_vector_math_library() -> None:
    assert cbuild.EXTRA_LIBS["blackscholes_libmvec"] == ("-lmvec",)
    assert "omp declare simd" in cbuild.baseline_source("blackscholes_libmvec")
    assert "omp simd reduction(inscan" in cbuild.baseline_source("scan_inscan")


@needs_cc
@pytest.mark.parametrize("lib", ["scan", "scan_inscan"])
@pytest.mark.parametrize("n", [1, 7, 1000, 100_003])
def test_c_scan_variants_are_exact(lib: str, n: int) -> None:
    from gpuoff.bench.cases_scan import SCAN_BASELINES

    name = {"scan": "C/OpenMP", "scan_inscan": "C/OpenMP+inscan"}[lib]
    x = np.random.default_rng(n).integers(-9, 9, n, dtype=np.int32)
    impl = SCAN_BASELINES["cpu"][name]("cpu", {"x": x})
    impl.run()
    assert impl.result is not None
    assert np.array_equal(impl.result(), np.cumsum(x, dtype=np.int32))


@needs_cc
@pytest.mark.parametrize("shape", [(1, 1), (33, 65), (64, 32), (100, 7)])
@pytest.mark.parametrize("name", ["C/OpenMP", "NumPy"])
def test_transpose_baselines_are_exact(name: str, shape: tuple[int, int]) -> None:
    from gpuoff.bench.cases_layout import TRANSPOSE_BASELINES

    a = np.random.default_rng(1).random(shape, dtype=np.float32)
    impl = TRANSPOSE_BASELINES["cpu"][name]("cpu", {"a": a})
    impl.run()
    assert impl.result is not None
    assert np.array_equal(impl.result(), a.T)


@needs_cc
@pytest.mark.parametrize("name", ["C/OpenMP", "C/OpenMP+libmvec", "NumPy"])
@pytest.mark.parametrize("shape", [(1, 1), (5, 300), (17, 1024)])
def test_softmax_baselines_match_reference(name: str, shape: tuple[int, int]) -> None:
    from gpuoff.bench.cases_loops import SOFTMAX_BASELINES, softmax_reference

    x = (np.random.default_rng(2).standard_normal(shape) * 4).astype(np.float32)
    impl = SOFTMAX_BASELINES["cpu"][name]("cpu", {"x": x})
    impl.run()
    assert impl.result is not None
    got = impl.result()
    np.testing.assert_allclose(got, softmax_reference(x), rtol=1e-4, atol=1e-8)
    np.testing.assert_allclose(got.sum(axis=1), 1.0, rtol=1e-5)
