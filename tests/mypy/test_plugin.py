"""The gpuoff mypy plugin against golden files, incrementally, and under dmypy."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import mypy.api
import pytest

from tests.mypy.harness import CASES, expected_errors, make_workspace, parse_errors


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cfg = make_workspace(tmp_path)
    monkeypatch.chdir(tmp_path)
    return cfg


def test_golden_cases(workspace: Path) -> None:
    stdout, stderr, _ = mypy.api.run(["--config-file", str(workspace), "tests/mypy/cases"])
    assert "Traceback" not in stderr, stderr
    want: set[tuple[str, int, str]] = set()
    for case in sorted(CASES.glob("*.py")):
        want |= expected_errors(case, f"tests/mypy/cases/{case.name}")
    got = parse_errors(stdout)
    unexpected = "\n".join(map(str, sorted(got - want)))
    missing = "\n".join(map(str, sorted(want - got)))
    assert not unexpected and not missing, f"unexpected:\n{unexpected}\nmissing:\n{missing}"


def test_disable_error_code(workspace: Path) -> None:
    args = ["--config-file", str(workspace), "tests/mypy/cases/case_moves.py"]
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
    y[0]
"""

USE_MODULE = """\
from gpuoff import Array, f32
from kmod import k

def main(a: Array[f32]) -> None:
    k[1](a, a)
    print(a)
"""

ALIAS = (
    "argument 'x' is passed as {0} and also as 'y' (Borrow) to k: "
    "{1} {0} argument must not alias any other argument  [gpuoff-alias]"
)
MOVED = "'a' was moved into k at line 5 and cannot be used any more  [gpuoff-use-after-move]"
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

NOT_DEVICE = (
    "calling the Python function 'twice' is not supported in kernels: only gpuoff intrinsics,"
    " math functions, builtins and @go.func device functions can be called  [gpuoff-unsupported]"
)


def test_incremental_device_function_decorator_removed(workspace: Path) -> None:
    """Whether a callee is a device function is read from its type, which survives the cache."""
    root = workspace.parent
    (root / "kern.py").write_text(KERNEL_USING_HELPER)
    steps = [("@go.func", set()), ("", {("kern.py", 7, NOT_DEVICE)}), ("@go.func", set())]
    for decorator, want in steps:
        _write(root / "helper.py", HELPER_MODULE.format(decorator=decorator))
        stdout, _, _ = mypy.api.run(["--config-file", str(workspace), "kern.py", "helper.py"])
        assert parse_errors(stdout) == want, (decorator, stdout)
