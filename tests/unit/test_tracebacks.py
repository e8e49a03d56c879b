"""What a user sees when gpuoff raises (issue 20): the traceback of a ``go.GpuoffError`` shows
the user's frames, one line for gpuoff's entry point and the message, a ``CompileError``'s with
the kernel's line and a caret; not the front end's, the runtime's and the device's frames
first (as JAX and Triton trim theirs). ``GPUOFF_TRACEBACK=full`` shows every frame."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gpuoff.runtime.tracebacks import entry_point, trimmed

PROGRAM = """
import sys
import numpy as np
import gpuoff as go
from gpuoff import Array, BorrowMut, f32

@go.kernel
def bad(x: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    x[i] = "a"

@go.kernel
def past_the_end(x: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    x[i + 1] = 1.0

def compile_error() -> None:
    bad[4](go.zeros(4))

def bounds_error() -> None:
    past_the_end[4](go.zeros(4))
    go.synchronize()

def dtype_error() -> None:
    go.array(np.zeros(3, object))

def launch_type_error() -> None:
    past_the_end[4](np.zeros(4))

{call}()
"""


def _traceback(tmp_path: Path, call: str, device: str = "cpu", full: bool = False) -> str:
    script = tmp_path / "user_program.py"
    script.write_text(PROGRAM.format(call=call))
    env = dict(os.environ, GPUOFF_CACHE_DIR=str(tmp_path / "cache"), GPUOFF_DEVICE=device)
    env.pop("GPUOFF_TRACEBACK", None)
    if full:
        env["GPUOFF_TRACEBACK"] = "full"
    proc = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                          text=True, timeout=120, check=False)  # fmt: skip
    assert proc.returncode == 1
    return proc.stderr


def _frames(stderr: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = re.findall(r'^  File "([^"]+)", line \d+, in (\S+)$', stderr,
                                              re.M)  # fmt: skip
    return found


@pytest.mark.parametrize("device", ["cpu", "opencl:0"])
@pytest.mark.parametrize(
    ("call", "error", "entry"),
    [
        ("compile_error", "CompileError: strings are not supported in kernels", "__call__"),
        ("bounds_error", "BoundsError: index (4,) out of range", None),
        ("dtype_error", "DTypeError: dtype object is not supported", "array"),
        ("launch_type_error", "LaunchTypeError: past_the_end(): parameter 'x'", "__call__"),
    ],
)
def test_the_traceback_shows_the_users_frames(
    tmp_path: Path, device: str, call: str, error: str, entry: str | None
) -> None:
    import gpuoff as go

    if device not in [d.name for d in go.devices() if d.available]:
        pytest.skip(f"{device} is not available here")
    stderr = _traceback(tmp_path, call, device)
    frames = _frames(stderr)
    users = [name for path, name in frames if path.endswith("user_program.py")]
    assert users == ["<module>", call], stderr
    gpuoffs = [(path, name) for path, name in frames if not path.endswith("user_program.py")]
    assert len(gpuoffs) == 1, stderr  # the entry point only
    if entry is not None:
        assert gpuoffs[0][1] == entry, stderr
    assert f"gpuoff.errors.{error}" in stderr
    assert "frontend" not in stderr and "devices" not in stderr, stderr
    assert "During handling" not in stderr and "direct cause" not in stderr, stderr
    if call == "compile_error":
        assert stderr.rstrip().endswith('x[i] = "a"\n           ^^^'), stderr


def test_full_tracebacks_on_request(tmp_path: Path) -> None:
    stderr = _traceback(tmp_path, "compile_error", full=True)
    assert "gpuoff/frontend/" in stderr and len(_frames(stderr)) > 4


def test_other_exceptions_keep_every_frame() -> None:
    def inner() -> None:
        raise ValueError("a bug")

    @entry_point
    def outer() -> None:
        inner()

    with pytest.raises(ValueError) as info:
        outer()
    names = []
    tb = info.value.__traceback__
    while tb is not None:
        names.append(tb.tb_frame.f_code.co_name)
        tb = tb.tb_next
    assert "inner" in names


def test_trimming_keeps_frames_outside_gpuoff() -> None:
    import gpuoff as go

    def users_code() -> None:
        raise go.LaunchTypeError("x")

    try:
        users_code()
    except go.LaunchTypeError as exc:
        trimmed(exc)
        assert exc.__traceback__ is not None
        assert exc.__traceback__.tb_frame.f_code.co_name.startswith("test_trimming_keeps")
