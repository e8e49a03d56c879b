"""The bench's MiniLM cases (gpuoff/bench/cases_models.py): every implementation agrees with
the NumPy reference, and a peer that is missing is named with the reason, never dropped."""

from __future__ import annotations

import numpy as np

from gpuoff.bench import cases_lib, cases_models
from gpuoff.bench.harness import check_result
from tests.models.test_minilm import real_model_dir


def test_minilm_entries_are_in_the_lib_suite() -> None:
    names = [e.name for e in cases_lib.ENTRIES]
    assert "minilm" in names and "minilm_latency" in names


def test_latency_case_checks_every_implementation() -> None:
    real_model_dir()  # skips (or fails under GPUOFF_REQUIRE_MODELS=1) without the weights
    case = cases_models.minilm_latency_case("cpu", quick=True)
    assert case.reference is not None
    expected = np.asarray(case.reference())
    for name, impl in {"gpuoff": case.gpuoff, **case.baselines}.items():
        check_result(case, name, impl, expected)
    assert "NumPy" in case.baselines
    for peer in ("PyTorch", "ONNX Runtime"):
        assert peer in case.baselines or any(f"baseline {peer} skipped" in s
                                             for s in case.skipped), peer  # fmt: skip
