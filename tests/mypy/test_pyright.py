"""What pyright reports from gpuoff's types alone (no plugin): docs/static-checking.md's
"pyright" column. pyright is installed from PyPI (the ``dev`` extra) and runs offline."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.mypy.harness import ROOT

SOURCE = """\
import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Owned, f32, f64
from gpuoff.runtime.buffer import Buffer

@go.kernel
def saxpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    y[i] = a * x[i] + y[i]
    x[i] = 1.0
    go.atomic_add(x, 0, 1.0)

@go.func
def fill(y: BorrowMut[Array[f32]]) -> None:
    y[0] = 1.0

@go.kernel
def calls(x: Borrow[Array[f32]]) -> None:
    fill(x)

@go.kernel
def consume(x: Owned[Array[f32]]) -> None:
    x[0] = 1.0

def host(x: Buffer[f32], y: Array[f32], d: Array[f64]) -> None:
    saxpy[4](go.f32(2.0), x, y)
    saxpy[4](go.f32(2.0), d, y)
    saxpy[4](2.0, x, y)
    saxpy[4](go.f32(2.0), x)
    saxpy[4](go.f32(2.0), x, go.zeros(4, go.i32))
    saxpy[4](go.f32(2.0), x, x)
    consume[4](x)
    print(x)
"""

EXPECTED = {
    (9, "reportArgumentType"),  # a write through a Borrow (CannotWriteThroughBorrow)
    (10, "reportArgumentType"),  # an atomic on a Borrow
    (18, "reportArgumentType"),  # a Borrow passed to a device function's BorrowMut parameter
    (26, "reportArgumentType"),  # Array[f64] for Borrow[Array[f32]]
    (27, "reportArgumentType"),  # a Python float for an f32 parameter (the plugin widens)
    (28, "reportCallIssue"),  # a missing argument
    (29, "reportArgumentType"),  # an inline buffer of the wrong dtype
}
"""Not reported by types alone: the alias on line 30 and the use after move on line 32."""


def test_pyright_reports_what_the_types_give(tmp_path: Path) -> None:
    pyright = shutil.which("pyright", path=str(Path(sys.executable).parent))
    assert pyright is not None, "pyright is part of the dev extra: pip install -e '.[dev]'"
    shutil.copytree(ROOT / "gpuoff", tmp_path / "gpuoff",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    (tmp_path / "user.py").write_text(SOURCE)
    proc = subprocess.run(
        [pyright, "--outputjson", "--pythonpath", sys.executable, "user.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    report = json.loads(proc.stdout)
    got = {
        (d["range"]["start"]["line"] + 1, d.get("rule", ""))
        for d in report["generalDiagnostics"]
        if d["file"].endswith("user.py") and d["severity"] == "error"
    }
    assert got == EXPECTED, proc.stdout
