"""The suite's plumbing (entries, selection, per-backend baselines, skips) and, on ``cpu``,
that every entry's gpuoff kernel and baselines agree with NumPy at the quick sizes."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import numpy as np
import pytest

from gpuoff.bench import registry, suite
from gpuoff.bench.harness import BenchSkip, Case, Impl, check_result


def _fake_entry(name: str, backends: frozenset[str] = frozenset({"cpu"})) -> registry.Entry:
    def make(device: str, quick: bool) -> Case:
        if device == "cpu:skip":
            raise BenchSkip("not here")
        out = np.ones(3)
        return Case(name, "3", device, "GB/s", 24.0, Impl(lambda: None, lambda: out),
                    reference=lambda: np.ones(3), skipped=["a baseline was missing"])  # fmt: skip

    return registry.Entry(name, "fake", make, backends)


def test_select_known_and_unknown() -> None:
    assert [e.name for e in suite.select(["saxpy", "launch"])] == ["saxpy", "launch"]
    assert len(suite.select(None)) == len(suite.SUITE)
    with pytest.raises(ValueError, match="unknown benchmark.*nosuch"):
        suite.select(["saxpy", "nosuch"])


def test_suites_are_chosen_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    lib_entry = _fake_entry("lib_fake")
    monkeypatch.setitem(suite.SUITES, "lib", [lib_entry])
    assert suite.select(None, "lib") == [lib_entry]
    assert suite.select(None, "all") == [*suite.SUITE, lib_entry]
    assert suite.select(["lib_fake", "saxpy"])[0] is lib_entry  # --only sees every suite
    with pytest.raises(ValueError, match="unknown suite 'nosuch'"):
        suite.select(None, "nosuch")


def test_suite_names_are_unique_and_cover_the_issue() -> None:
    names = [e.name for e in suite.SUITE]
    assert len(names) == len(set(names))
    assert {"saxpy", "stencil2d", "black_scholes", "launch", "first_launch",
            "cached_launch"} <= set(names)  # fmt: skip


def test_run_suite_records_rows_and_skips(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(suite, "SUITE", [_fake_entry("fake"), _fake_entry(
        "gpu_only", frozenset({"cuda"}))])  # fmt: skip
    result = suite.run_suite(["cpu", "cpu:skip"], progress=False)
    assert [(r.kernel, r.device) for r in result.rows] == [("fake", "cpu")]
    assert "gpu_only on cpu: not for this backend" in result.skipped
    assert "fake on cpu:skip: not here" in result.skipped
    assert "a baseline was missing" in result.skipped


def test_register_replaces_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(suite, "SUITE", [_fake_entry("a"), _fake_entry("b")])
    suite.register(_fake_entry("a", frozenset({"opencl"})))
    assert [e.name for e in suite.SUITE] == ["b", "a"]
    assert suite.SUITE[1].backends == frozenset({"opencl"})


def test_backend_baselines_plug_in(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = types.ModuleType("gpuoff.bench.opencl_baselines")

    def one(device: str, inputs: dict[str, object]) -> Impl:
        return Impl(lambda: None)

    def broken(device: str, inputs: dict[str, object]) -> Impl:
        raise BenchSkip("no such device")

    fake.__dict__["OPENCL_BASELINES"] = {
        "saxpy": one, "stencil2d": {"OpenCL C": one, "CLBlast": broken}}  # fmt: skip
    monkeypatch.setitem(sys.modules, "gpuoff.bench.opencl_baselines", fake)
    assert list(registry.baseline_factories("saxpy", "opencl:1")) == ["OpenCL C"]
    built, skipped = registry.device_baselines("stencil2d", "opencl:0", {})
    assert list(built) == ["OpenCL C"]
    assert skipped == ["stencil2d on opencl:0: baseline CLBlast skipped: no such device"]
    assert registry.baseline_factories("nbody", "opencl:0") == {}
    assert registry.baseline_factories("saxpy", "metal:0") == {}


def test_missing_backend_module_means_no_baselines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gpuoff.bench.cuda_baselines", None)
    assert registry.baseline_factories("saxpy", "cuda:0") == {}


COMPUTE = ["saxpy", "saxpy_gridstride", "stencil2d", "stencil2d_rows", "black_scholes",
           "black_scholes_gridstride", "reduction", "sgemm", "histogram", "nbody", "transpose",
           "transpose_rows", "softmax"]  # fmt: skip
TWINS = {"saxpy_gridstride": "saxpy", "stencil2d_rows": "stencil2d",
         "black_scholes_gridstride": "black_scholes", "transpose": "transpose_rows",
         "transpose_rows": "transpose"}  # fmt: skip


@pytest.fixture
def no_peers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The suite's cases without the peers (tests/unit/test_bench_peers.py checks those at
    small sizes; compiling each with Numba at the quick sizes again costs a minute)."""
    tables = {b: tuple(t for t in specs if t[0] != "gpuoff.bench.peers")
              for b, specs in registry._BACKEND_BASELINES.items()}  # fmt: skip
    monkeypatch.setattr(registry, "_BACKEND_BASELINES", tables)


@pytest.mark.parametrize("name", COMPUTE)
def test_entry_results_agree_with_numpy_on_cpu(name: str, no_peers: None) -> None:
    (entry,) = suite.select([name])
    case = entry.make("cpu", True)
    assert case.reference is not None
    assert case.unchecked is not None  # every row also runs without bounds checks
    expected = np.asarray(case.reference())
    impls = {"gpuoff": case.gpuoff, "gpuoff unchecked": case.unchecked, **case.baselines}
    for label, impl in impls.items():
        check_result(case, label, impl, expected)  # raises BenchCheckError on a mismatch
    assert "C/OpenMP" in case.baselines
    assert case.twin == TWINS.get(name, "")


def test_every_entry_runs_unchecked_too(no_peers: None) -> None:
    for name in ("launch", "scan", "sgemm_tiled"):
        (entry,) = suite.select([name])
        assert entry.make("cpu", True).unchecked is not None, name


def test_unchecked_twin_compiles_without_bounds_checks() -> None:
    from gpuoff.bench.kernels import saxpy

    raw = registry.unchecked(saxpy)
    assert raw is registry.unchecked(saxpy)  # one twin per kernel: compiled once
    assert raw.boundscheck is False and saxpy.boundscheck is True
    assert raw.pyfunc is saxpy.pyfunc and raw.fastmath == saxpy.fastmath
    assert registry.checked(saxpy, True) is saxpy and registry.checked(saxpy, False) is raw


def test_unchecked_twin_really_drops_the_checks() -> None:
    from gpuoff.bench.cases_layout import transpose_tiled
    from gpuoff.cli import lower_for_show, render_target

    sig = "f32[:, :], f32[:, :]"
    with_checks = render_target(lower_for_show(transpose_tiled, sig, None, None), "ir")
    raw = render_target(lower_for_show(registry.unchecked(transpose_tiled), sig, None, None), "ir")
    assert " check " in with_checks and " check " not in raw


def test_twins_are_registered_next_to_each_other() -> None:
    names = [e.name for e in suite.SUITE]
    for twin, of in TWINS.items():
        assert abs(names.index(twin) - names.index(of)) == 1, twin


def test_make_case_merges_shared_and_own_baselines(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = types.ModuleType("gpuoff.bench.opencl_baselines")

    def one(device: str, inputs: dict[str, object]) -> Impl:
        return Impl(lambda: None)

    fake.__dict__["OPENCL_BASELINES"] = {"saxpy": one}
    monkeypatch.setitem(sys.modules, "gpuoff.bench.opencl_baselines", fake)
    case = registry.make_case("saxpy_gridstride", "opencl:0", {}, Impl(lambda: None),
                              baselines_of="saxpy", extra={"opencl": {"OpenCL C, g": one}},
                              size="1", unit="us", work=0.0, twin="saxpy")  # fmt: skip
    assert list(case.baselines) == ["OpenCL C", "OpenCL C, g"]  # shared first, then its own
    assert case.kernel == "saxpy_gridstride" and case.twin == "saxpy"


def test_launch_entry_counts_launches() -> None:
    import gpuoff as go

    (entry,) = suite.select(["launch"])
    case = entry.make("cpu", True)
    go.reset_stats()
    case.gpuoff.run()
    stats = go.stats()
    launches = stats["launches"] if isinstance(stats, dict) else stats.launches
    assert launches == case.gpuoff.ops == 200


def test_cold_start_children_report_compiles(tmp_path: Path) -> None:
    from gpuoff.bench import coldstart

    cache = str(tmp_path)
    first = coldstart.run_child("cpu", cache)
    again = coldstart.run_child("cpu", cache)
    assert first["ok"] and again["ok"]
    assert first["compiles"] == 1
    assert again["compiles"] == 0  # the disk cache served the new process
    assert isinstance(again["s"], float) and again["s"] > 0


def test_cached_launch_impl_times_a_new_process() -> None:
    from gpuoff.bench import coldstart

    impl = coldstart.cold_start_impl("cpu", cached=True)
    seconds = impl.run()
    assert isinstance(seconds, float) and 0 < seconds < 60


def test_watchdog_reports_a_hung_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading
    import time

    fired = threading.Event()
    seen: list[tuple[str, int]] = []

    def slow(device: str, quick: bool) -> Case:
        fired.wait(5.0)  # "hangs" until the watchdog has fired
        time.sleep(0.05)
        return Case("slow", "1", device, "us", 0.0, Impl(lambda: None))

    def on_timeout(what: str, partial: suite.SuiteResult) -> None:
        seen.append((what, len(partial.rows)))
        fired.set()

    monkeypatch.setattr(suite, "SUITE", [_fake_entry("fast"), registry.Entry("slow", "", slow)])
    result = suite.run_suite(["cpu"], progress=False, timeout=0.3, on_timeout=on_timeout)
    assert seen == [("slow on cpu", 1)]  # called once, with the finished row so far
    assert [r.kernel for r in result.rows] == ["fast", "slow"]


def test_cli_bench_timeout_exits_124_with_partial_results(tmp_path: Path) -> None:
    import subprocess

    code = (
        "import sys, time\n"
        "from gpuoff import cli\n"
        "from gpuoff.bench import registry, suite\n"
        "from gpuoff.bench.harness import Case, Impl\n"
        "def hang(device, quick):\n"
        "    time.sleep(60)\n"
        "suite.SUITE[:] = [registry.Entry('hang', '', hang)]\n"
        "sys.exit(cli.main(['bench', '--only', 'hang', '--timeout', '0.5', '--no-progress']))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=50, check=False)  # fmt: skip
    assert proc.returncode == 124
    assert "hang on cpu did not finish within 0.5 s" in proc.stderr
    assert "skipped: hang on cpu: did not finish within 0.5 s" in proc.stdout
