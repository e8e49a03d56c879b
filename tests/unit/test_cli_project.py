"""The project's front door: the README's two commands, CI calling exactly the test command,
and the console script wired to ``gpuoff.cli:main``."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _sh_blocks(text: str) -> list[str]:
    return [b.strip() for b in re.findall(r"```sh\n(.*?)```", text, flags=re.S)]


def test_readme_gives_the_two_commands() -> None:
    blocks = _sh_blocks((ROOT / "README.md").read_text())
    main_job, tests = blocks[0], blocks[1]
    assert "pip install -e '.[opencl]'" in main_job and main_job.endswith("gpuoff tour")
    assert tests == "scripts/test"


def test_ci_runs_the_readme_test_command_in_a_fresh_venv() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert "set -euo pipefail" in ci
    assert re.search(r"^scripts/test$", ci, flags=re.M)
    assert "GPUOFF_VENV=" in ci and "mktemp -d" in ci


def test_scripts_are_executable_and_strict() -> None:
    for path in (ROOT / ".ci" / "run", ROOT / "scripts" / "test"):
        assert os.access(path, os.X_OK), path
        assert "set -euo pipefail" in path.read_text()


def test_test_script_runs_every_stage_and_refuses_no_tests() -> None:
    text = (ROOT / "scripts" / "test").read_text()
    for stage in ('ruff" check .', '"$venv/bin/mypy"', "pytest -n"):
        assert stage in text
    assert '"$status" -eq 5' in text  # pytest's "no tests collected" fails the run


def test_console_script_and_extras() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["scripts"]["gpuoff"] == "gpuoff.cli:main"
    assert "pytest-xdist>=3" in project["optional-dependencies"]["dev"]
    assert any(d.startswith("numba") for d in project["optional-dependencies"]["bench"])


def test_c_baselines_ship_with_the_package() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "bench/baselines/*" in data["package-data"]["gpuoff"]
    assert {p.name for p in (ROOT / "gpuoff" / "bench" / "baselines").glob("*.c")} >= {
        "saxpy.c", "stencil.c", "blackscholes.c"}  # fmt: skip
