"""The benchmark protocol: results checked before timing, interleaving, medians, ratios."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

from gpuoff.bench.harness import (
    MAX_REPEATS,
    MIN_REPEATS,
    BenchCheckError,
    Case,
    Impl,
    Row,
    Timing,
    family_of,
    measure,
)


def _counting_impl(log: list[str], name: str, out: np.ndarray[Any, Any]) -> Impl:
    def run() -> None:
        log.append(name)

    return Impl(run, lambda: out)


def test_runs_are_interleaved_after_check_and_warmup() -> None:
    log: list[str] = []
    ref = np.arange(4.0)
    case = Case("k", "4", "cpu", "GB/s", 32.0, _counting_impl(log, "A", ref),
                {"B": _counting_impl(log, "B", ref)}, reference=lambda: ref)  # fmt: skip
    measure(case, repeats=5, warmup=2)
    # check (A, B) which is also the first warm-up, one more warm-up (A, B), then 5 timed
    # rounds whose order rotates (A B, B A, A B, ...), each timed run right after an untimed
    # one of the same implementation
    rounds = [["A", "B"] if r % 2 == 0 else ["B", "A"] for r in range(5)]
    assert log == ["A", "B"] * 2 + [name for r in rounds for name in r for _ in range(2)]


def test_unprimed_implementations_run_once_per_sample() -> None:
    log: list[str] = []
    case = Case("k", "1", "cpu", "ms", 0.0, Impl(lambda: log.append("A"), primed=False),
                {"B": Impl(lambda: log.append("B"))})  # fmt: skip
    row = measure(case, repeats=5, warmup=0)
    assert log.count("A") == len(row.gpuoff.samples) == 5
    assert log.count("B") == 2 * len(row.baselines["B"].samples) == 10


def test_warmup_without_reference() -> None:
    log: list[str] = []
    case = Case("k", "1", "cpu", "us", 0.0, Impl(lambda: log.append("A")))
    measure(case, repeats=5, warmup=1)
    assert log == ["A"] * (1 + 2 * 5)


def test_repeats_never_below_protocol_minimum() -> None:
    calls: list[int] = []
    case = Case("k", "1", "cpu", "us", 0.0, Impl(lambda: calls.append(1)))
    row = measure(case, repeats=2, warmup=0)
    assert len(row.gpuoff.samples) == MIN_REPEATS == 5


def test_short_runs_get_more_rounds_up_to_a_bound() -> None:
    log: list[str] = []
    case = Case("k", "1", "cpu", "us", 0.0, Impl(lambda: log.append("A")),
                {"B": Impl(lambda: log.append("B"))})  # fmt: skip
    row = measure(case, repeats=5, warmup=0, min_seconds=60.0)
    assert len(row.gpuoff.samples) == len(row.baselines["B"].samples) == MAX_REPEATS
    assert log.count("A") == log.count("B") == 2 * MAX_REPEATS  # each timed run primed


def test_long_runs_stop_at_the_rounds_asked_for() -> None:
    def slow() -> None:
        time.sleep(0.002)

    case = Case("k", "1", "cpu", "us", 0.0, Impl(slow))
    row = measure(case, repeats=5, warmup=0, min_seconds=0.004)
    assert len(row.gpuoff.samples) == 5  # 5 runs already took 10 ms


def test_wrong_result_is_refused_before_timing() -> None:
    log: list[str] = []
    ref = np.arange(4.0)
    bad = ref.copy()
    bad[2] = 99.0
    case = Case("k", "4", "cpu", "GB/s", 1.0, _counting_impl(log, "A", ref),
                {"B": _counting_impl(log, "B", bad)}, reference=lambda: ref)  # fmt: skip
    with pytest.raises(BenchCheckError, match=r"B differs from NumPy at 1 of 4 .*\(2,\)"):
        measure(case)
    assert log == ["A", "B"]  # nothing timed


def test_shape_mismatch_is_refused() -> None:
    case = Case("k", "4", "cpu", "GB/s", 1.0, Impl(lambda: None, lambda: np.zeros(3)),
                reference=lambda: np.zeros(4))  # fmt: skip
    with pytest.raises(BenchCheckError, match="shape"):
        measure(case)


def test_self_measured_runs_and_ops_divide() -> None:
    case = Case("k", "1", "cpu", "ms", 0.0, Impl(lambda: 0.5, ops=10),
                {"B": Impl(lambda: 2.0, ops=10)})  # fmt: skip
    row = measure(case, warmup=0)
    assert row.gpuoff.median == pytest.approx(0.05)
    assert row.baselines["B"].median == pytest.approx(0.2)
    assert row.ratio("B") == pytest.approx(4.0)


def test_median_not_mean() -> None:
    values = iter([1.0, 1.0, 100.0, 1.0, 1.0])
    case = Case("k", "1", "cpu", "ms", 0.0, Impl(lambda: next(values), primed=False))
    assert measure(case, warmup=0).gpuoff.median == 1.0


def test_rates_and_json() -> None:
    row = Row("saxpy", "2^24", "cpu", "GB/s", 12e9, Timing(1.0, (1.0,)),
              {"C": Timing(0.5, (0.5,))})  # fmt: skip
    assert row.rate(row.gpuoff) == pytest.approx(12.0)
    assert row.ratio("C") == pytest.approx(0.5)
    doc = row.to_json()
    assert doc["baselines"]["C"]["ratio"] == pytest.approx(0.5)
    assert doc["gpuoff_rate"] == pytest.approx(12.0)
    timed = Row("launch", "64", "cpu", "us", 0.0, Timing(3e-6, (3e-6,)), {})
    assert timed.rate(timed.gpuoff) is None


def test_unchecked_run_is_checked_timed_interleaved_and_kept_apart() -> None:
    log: list[str] = []
    ref = np.arange(3.0)
    case = Case("k", "3", "cpu", "GB/s", 24.0, _counting_impl(log, "A", ref),
                {"C/OpenMP": _counting_impl(log, "C", ref)}, reference=lambda: ref,
                unchecked=_counting_impl(log, "U", ref), twin="other")  # fmt: skip
    row = measure(case, repeats=5, warmup=1)
    assert log[:3] == ["A", "U", "C"]  # each checked against NumPy first
    assert log.count("U") == log.count("A") == log.count("C") == 1 + 2 * 5
    assert list(row.baselines) == ["C/OpenMP"]  # not a baseline
    assert row.unchecked is not None and len(row.unchecked.samples) == 5
    assert row.twin == "other"


def test_a_wrong_unchecked_result_is_refused() -> None:
    ref = np.arange(3.0)
    case = Case("k", "3", "cpu", "GB/s", 1.0, Impl(lambda: None, lambda: ref),
                unchecked=Impl(lambda: None, lambda: ref + 1), reference=lambda: ref)  # fmt: skip
    with pytest.raises(BenchCheckError, match="gpuoff unchecked differs from NumPy"):
        measure(case)


def test_boundscheck_cost_and_fastest_variant() -> None:
    row = Row("k", "1", "cpu", "GB/s", 1.0, Timing(1.1, (1.1,)),
              {"C/OpenMP": Timing(2.0, (2.0,)), "C/OpenMP+libmvec": Timing(0.5, (0.5,)),
               "NumPy": Timing(0.1, (0.1,)), "OpenCL C": Timing(1.0, (1.0,))},
              unchecked=Timing(1.0, (1.0,)))  # fmt: skip
    assert row.boundscheck_cost() == pytest.approx(1.1)
    assert row.best("C") == "C/OpenMP+libmvec"  # NumPy is faster, but not a C variant
    assert row.best("CUDA C") is None
    assert row.families() == ["C", "OpenCL C"]
    assert family_of("NumPy") is None and family_of("OpenCL C, same ids") == "OpenCL C"
    plain = Row("k", "1", "cpu", "us", 0.0, Timing(1.0, (1.0,)), {})
    assert plain.boundscheck_cost() is None and "boundscheck_cost" not in plain.to_json()


def test_an_implementation_may_carry_its_own_tolerance() -> None:
    ref = np.array([1000.0])
    off = Impl(lambda: None, lambda: np.array([1000.3]))  # 3e-4 off: a sequential f32 sum
    case = Case("k", "1", "cpu", "GB/s", 1.0, Impl(lambda: None, lambda: ref),
                {"peer": off}, reference=lambda: ref, rtol=1e-5, atol=0.0)  # fmt: skip
    with pytest.raises(BenchCheckError, match="peer differs"):
        measure(case)
    off.rtol = 1e-3
    assert measure(case).baselines["peer"].median >= 0.0
