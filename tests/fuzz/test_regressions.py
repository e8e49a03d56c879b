"""Every minimised kernel the fuzzer found (``tests/fuzz/regressions/``, written by
``python -m tests.fuzz.reduce``) agrees with the interpreter on every backend now. Each file
starts with its seed, what was found, and the launch and inputs of its case."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.fuzz.reduce import case_of
from tests.fuzz.run import available_devices, run_source

FOLDER = Path(__file__).resolve().parent / "regressions"
CASES = sorted(FOLDER.glob("seed_*.py"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_fuzz_regression(path: Path, tmp_path: Path) -> None:
    text = path.read_text()
    case = case_of(text)
    old = os.environ.get("GPUOFF_CACHE_DIR")
    os.environ["GPUOFF_CACHE_DIR"] = ""
    try:
        findings = run_source(case, text, tmp_path, available_devices())
    finally:
        if old is None:
            del os.environ["GPUOFF_CACHE_DIR"]
        else:
            os.environ["GPUOFF_CACHE_DIR"] = old
    assert not findings, "\n".join(findings)
