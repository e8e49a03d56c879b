"""What the public types give mypy without the plugin (pyright reports the same mistakes)."""
# ruff: noqa: E501

from __future__ import annotations

from pathlib import Path

import mypy.api
import pytest

from tests.mypy.harness import make_workspace, parse_errors

SOURCE = """\
import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, f64
from gpuoff.runtime.buffer import Buffer

@go.kernel
def saxpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    y[i] = a * x[i] + y[i]
    x[i] = 1.0
    z = x
    z[i] += a

def host(x: Buffer[f32], y: Array[f32], d: Array[f64]) -> None:
    saxpy[4](go.f32(2.0), x, y)
    saxpy[4](go.f32(2.0), d, y)
    saxpy[4](2.0, x, y)
    saxpy[4](go.f32(2.0), x)

def kernel_types(a: f32, n: go.i32) -> f32:
    return go.sqrt(a * 2 + 1) + go.f32(n % 3)
"""

WRITE = 'Incompatible types in assignment (expression has type "{}", target has type "CannotWriteThroughBorrow")  [assignment]'
EXPECTED = {
    (9, WRITE.format("float")),
    (11, WRITE.format("f32")),
    (
        15,
        'Argument 2 to "__call__" of "Launch" has incompatible type "Array[f64]"; '
        'expected "Borrow[Array[f32]]"  [arg-type]',
    ),
    (
        16,
        'Argument 1 to "__call__" of "Launch" has incompatible type "float"; '
        'expected "f32"  [arg-type]',
    ),
    (17, 'Missing positional argument "y" in call to "__call__" of "Launch"  [call-arg]'),
}


def test_types_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = make_workspace(tmp_path, plugin=False)
    (tmp_path / "user.py").write_text(SOURCE)
    monkeypatch.chdir(tmp_path)
    stdout, stderr, _ = mypy.api.run(["--config-file", str(cfg), "user.py"])
    got = {(line, msg) for path, line, msg in parse_errors(stdout) if path == "user.py"}
    assert got == EXPECTED, stdout + stderr
