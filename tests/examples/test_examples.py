"""Every example runs as ``python examples/X.py``, checks itself against NumPy and exits 0."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import gpuoff as go

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
# Small sizes keep the suite fast; each example's defaults are for people.
ARGS: dict[str, list[str]] = {
    "saxpy.py": ["-n", "100003"],
    "stencil2d.py": ["--size", "97", "--steps", "3"],
    "mandelbrot.py": ["--width", "120", "--height", "50", "--iters", "60"],
    "embed.py": ["one kernel", "every device"],  # MiniLM on two short texts
    "dask_scale_out.py": ["--n", "65536"],  # the threaded scheduler (tests/backends/test_dask.py
    # runs the clusters)
}


def test_examples_exist() -> None:
    assert {p.name for p in EXAMPLES} >= {"saxpy.py", "stencil2d.py", "mandelbrot.py"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_runs_and_matches_numpy(path: Path, tmp_path: Path) -> None:
    env = dict(os.environ, GPUOFF_CACHE_DIR=str(tmp_path / "cache"), GPUOFF_DEVICE="cpu")
    proc = subprocess.run(
        [sys.executable, str(path), *ARGS.get(path.name, [])], capture_output=True, text=True,
        cwd=ROOT, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "matches NumPy" in proc.stdout
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_has_no_race_under_the_sanitizer(path: Path, tmp_path: Path) -> None:
    # GPUOFF_SANITIZE=race records every access (docs/races.md): no example races
    env = dict(os.environ, GPUOFF_CACHE_DIR=str(tmp_path / "cache"), GPUOFF_DEVICE="cpu",
               GPUOFF_SANITIZE="race")  # fmt: skip
    proc = subprocess.run(
        [sys.executable, str(path), *ARGS.get(path.name, [])], capture_output=True, text=True,
        cwd=ROOT, env=env, timeout=600, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "matches NumPy" in proc.stdout and "RaceError" not in proc.stderr


def test_mandelbrot_example_detects_a_wrong_result(tmp_path: Path) -> None:
    # The check can fail: compare against a NumPy reference of a different region.
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import mandelbrot as example
    finally:
        sys.path.pop(0)
    a = example.mandelbrot_numpy(20, 30, -2.2, -0.5, 0.1, 30)
    b = example.mandelbrot_numpy(20, 30, -2.0, -0.5, 0.1, 30)
    assert (a != b).mean() > 1e-3
    assert a.max() == 30 and a.min() >= 0


# Every example and the tour exit non-zero when a result is wrong (issue 20, item 7). A wrong
# result is made by the one thing every example reads its results through: each array a
# buffer hands to the host is off by one (or by half of itself), and each NumPy array a launch
# wrote is off by one, as if the device had erred.
WRONG_RESULTS = """
import runpy, sys
import numpy as np
import gpuoff as go

real = go.Buffer.numpy

def wrong(self):
    out = real(self)
    if out.dtype.kind in "iu":
        return out + 1
    return out * 1.5 + 1

go.Buffer.numpy = wrong

# ... and so is every NumPy array a launch wrote (examples that pass NumPy arrays: Dask's)
from gpuoff.runtime import plan

real_finish = plan.Plan._finish_host_arrays

def wrong_finish(self, event, host_arrays):
    real_finish(self, event, host_arrays)
    for i, original, _ in host_arrays:
        if self.decls[i].access.exclusive:
            original += 1

plan.Plan._finish_host_arrays = wrong_finish
sys.argv = sys.argv[1:]
if sys.argv[0] == "tour":
    from gpuoff.cli import main
    sys.exit(main(sys.argv))
runpy.run_path(sys.argv[0], run_name="__main__")
"""


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_exits_non_zero_on_a_wrong_result(path: Path, tmp_path: Path) -> None:
    env = dict(os.environ, GPUOFF_CACHE_DIR=str(tmp_path / "cache"), GPUOFF_DEVICE="cpu")
    proc = subprocess.run(
        [sys.executable, "-c", WRONG_RESULTS, str(path), *ARGS.get(path.name, [])],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "DIFFERS" in proc.stdout and "matches NumPy" not in proc.stdout
    assert "Traceback" not in proc.stderr


def test_tour_exits_non_zero_on_a_wrong_result(tmp_path: Path) -> None:
    env = dict(os.environ, GPUOFF_CACHE_DIR=str(tmp_path / "cache"), GPUOFF_DEVICE="cpu")
    proc = subprocess.run(
        [sys.executable, "-c", WRONG_RESULTS, "tour"], capture_output=True, text=True,
        cwd=ROOT, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout.count("  FAIL ") == 3 and "some results differ" in proc.stdout


DEVICES = [d.name for d in go.devices() if d.available]


@pytest.mark.parametrize("device", DEVICES)
def test_mandelbrot_and_the_tour_match_numpy_exactly_on_every_device(
    device: str, tmp_path: Path
) -> None:
    # IEEE arithmetic as written on every backend: every pixel equal (the FP contraction of
    # the OpenCL driver made the tour fail on opencl:0, issue 20)
    env = dict(os.environ, GPUOFF_CACHE_DIR=str(tmp_path / "cache"))
    for args in ([str(ROOT / "examples" / "mandelbrot.py"), "--device", device],
                 ["-m", "gpuoff", "tour", "--device", device]):  # fmt: skip
        proc = subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT,
                              env=env, timeout=300, check=False)  # fmt: skip
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "(0.0000% pixels differ)" in proc.stdout or "all results match" in proc.stdout
