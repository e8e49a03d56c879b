"""The gpuoff mypy plugin against golden files, incrementally, and under dmypy."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import mypy.api
import pytest

from gpuoff.subset import call_message
from tests.mypy.harness import (
    CASES,
    Expected,
    category,
    compare,
    expected_errors,
    make_workspace,
    parse_errors,
)


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cfg = make_workspace(tmp_path)
    monkeypatch.chdir(tmp_path)
    return cfg


def test_golden_cases(workspace: Path) -> None:
    stdout, stderr, _ = mypy.api.run(["--config-file", str(workspace), "tests/mypy/cases"])
    assert "Traceback" not in stderr, stderr
    want: list[Expected] = []
    for case in sorted(CASES.glob("*.py")):
        want += expected_errors(case, f"tests/mypy/cases/{case.name}")
    missing, unexpected = compare(want, parse_errors(stdout))
    assert not unexpected and not missing, (
        "unexpected:\n" + "\n".join(map(str, unexpected))
        + "\nmissing:\n" + "\n".join(f"{e.path}:{e.line}: {e.pattern}" for e in missing)
    )  # fmt: skip


def test_golden_set_size() -> None:
    """At least 200 expected errors across the categories, and clean realistic programs."""
    want = [e for case in CASES.glob("*.py") for e in expected_errors(case, case.name)]
    per: dict[str, int] = {}
    for e in want:
        per[category(e.path)] = per.get(category(e.path), 0) + 1
    assert len(want) >= 200, per
    assert {"alias", "move", "kernel", "borrow", "types"} <= per.keys(), per
    real = sorted(CASES.glob("real_*.py"))
    assert len(real) >= 5 and not any(expected_errors(p, p.name) for p in real)
    assert len((CASES / "real_module.py").read_text().splitlines()) >= 200


def test_disable_error_code(workspace: Path) -> None:
    args = ["--config-file", str(workspace), "tests/mypy/cases/move_flow.py"]
    off = ["--disable-error-code", "gpuoff-use-after-move"]
    stdout, _, _ = mypy.api.run([*args, *off])
    assert "was moved into" not in stdout
    # The one ignore for that code is now unused, and strict mode says so.
    assert 'Unused "type: ignore" comment  [unused-ignore]' in stdout
    stdout, stderr, status = mypy.api.run([*args, "--disable-error-code", "gpuoff-nope"])
    assert status != 0 and "gpuoff-nope" in stdout + stderr  # a misspelt code is refused


KERNEL_MODULE = """\
import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Owned, f32

@go.kernel
def k(x: {access}[Array[f32]], y: Borrow[Array[f32]]) -> None:
    pass
"""

USE_MODULE = """\
from gpuoff import Array, f32
from kmod import k

def main(a: Array[f32]) -> None:
    k[1](a, a)
    print(a)
"""

ALIAS = (
    "'a' is passed to k as 'x' ({0}) and as 'y' (Borrow): {1} {0} argument must not alias "
    "any other argument; pass a copy (a.copy()) or declare 'x' Borrow if k only reads it"
    "  [gpuoff-alias]"
)
MOVED = (
    "'a' was moved into k at line 5 and cannot be used any more; keep the handle the launch "
    "returns (a = k[...](...)) or pass a.copy()  [gpuoff-use-after-move]"
)
STEPS: list[tuple[str, set[tuple[str, int, str]]]] = [
    ("Borrow", set()),
    ("BorrowMut", {("use.py", 5, ALIAS.format("BorrowMut", "a"))}),
    ("Owned", {("use.py", 5, ALIAS.format("Owned", "an")), ("use.py", 6, MOVED)}),
]


def _write(path: Path, text: str) -> None:
    path.write_text(text)
    st = path.stat()  # a fresh mtime even within the file system's time granularity
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))


def _write_kernel(root: Path, access: str) -> None:
    _write(root / "kmod.py", KERNEL_MODULE.format(access=access))


def test_incremental_edit_in_other_module(workspace: Path) -> None:
    root = workspace.parent
    (root / "use.py").write_text(USE_MODULE)
    for access, want in STEPS:
        _write_kernel(root, access)
        stdout, stderr, _ = mypy.api.run(["--config-file", str(workspace), "use.py", "kmod.py"])
        assert parse_errors(stdout) == want, (access, stdout, stderr)


def test_dmypy_run(workspace: Path) -> None:
    root = workspace.parent
    (root / "use.py").write_text(USE_MODULE)
    dmypy = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(root / ".dmypy.json")]
    run = [*dmypy, "run", "--", "--config-file", str(workspace), "use.py", "kmod.py"]
    try:
        for access, want in STEPS:
            _write_kernel(root, access)
            proc = subprocess.run(run, cwd=root, capture_output=True, text=True, timeout=300)
            assert parse_errors(proc.stdout) == want, (access, proc.stdout, proc.stderr)
    finally:
        subprocess.run([*dmypy, "stop"], cwd=root, capture_output=True, timeout=60)


HELPER_MODULE = """\
import gpuoff as go
from gpuoff import f32

{decorator}
def twice(v: f32) -> f32:
    return v * 2
"""

KERNEL_USING_HELPER = """\
import gpuoff as go
from gpuoff import Array, BorrowMut, f32
from helper import twice

@go.kernel
def k(y: BorrowMut[Array[f32]]) -> None:
    y[0] = twice(y[0])
"""

NOT_DEVICE = call_message("the Python function 'twice'") + "  [gpuoff-unsupported]"


def test_incremental_device_function_decorator_removed(workspace: Path) -> None:
    """Whether a callee is a device function is read from its type, which survives the cache."""
    root = workspace.parent
    (root / "kern.py").write_text(KERNEL_USING_HELPER)
    steps = [("@go.func", set()), ("", {("kern.py", 7, NOT_DEVICE)}), ("@go.func", set())]
    for decorator, want in steps:
        _write(root / "helper.py", HELPER_MODULE.format(decorator=decorator))
        stdout, _, _ = mypy.api.run(["--config-file", str(workspace), "kern.py", "helper.py"])
        assert parse_errors(stdout) == want, (decorator, stdout)
