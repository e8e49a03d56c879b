"""The realistic clean programs of the golden set are programs that work.

The plugin must report nothing in them (test_plugin.py); here they run on the CPU, so a
"clean" verdict is about real code, and the tests of misuse in them really raise.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from tests.mypy.cases import kernel_accepts, real_class, real_module, real_training
from tests.mypy.harness import CASES, ROOT


def test_image_module_runs() -> None:
    out = real_module.demo()
    counts = out["histogram"]
    assert isinstance(counts, np.ndarray) and int(counts.sum()) == 24 * 32
    mask = out["mask"]
    assert isinstance(mask, np.ndarray) and set(np.unique(mask).tolist()) <= {0.0, 1.0}
    assert out["spread"] == 1.0  # the stretched pixels span [0, 1]


def test_particle_class_runs() -> None:
    energy, spread, lowest = real_class.simulate(n=64, steps=5)
    assert energy > 0 and spread > 0 and lowest >= -2.0


def test_training_script_learns() -> None:
    loss, accuracy = real_training.train(epochs=10)
    assert accuracy > 0.8 and loss < 0.6


def test_every_accepted_construct_compiles() -> None:
    totals = kernel_accepts.launch_all()
    assert all(np.isfinite(totals)) and totals[2] == 28.0


def test_user_test_modules_pass_under_pytest() -> None:
    files = [str(CASES / "real_pytest.py"), str(CASES / "real_unittest.py")]
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", *files],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " passed" in proc.stdout and "failed" not in proc.stdout
