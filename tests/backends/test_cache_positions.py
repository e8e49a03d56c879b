"""A kernel served from the disk cache reports its errors where its source is now.

The cached IR module carries the file and lines its bounds errors (and barrier errors and
launch-time CompileErrors) point at. The key hashed only the source text, so the same
kernel in a second script, or the same script after a line was added above the kernel,
reused the entry of whichever process compiled it first, and a ``BoundsError`` named the
other file or a line that now holds something else: the user's first clue pointed at the
wrong place. Found trying the bounds-error example of the README in two scripts.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.backends.conftest import available_devices

HELPERS = textwrap.dedent(
    """
    import gpuoff as go
    from gpuoff import Array, BorrowMut, f32

    @go.func
    def put(y: BorrowMut[Array[f32]], k: int, v: float) -> None:
        y[k] = v
    """
)

KERNEL = textwrap.dedent(
    """
    import numpy as np
    import gpuoff as go
    from gpuoff import Array, BorrowMut, f32
    import helpers

    @go.kernel
    def fill(y: BorrowMut[Array[f32]]) -> None:
        i = go.global_id(0)
        v = 2.0
        helpers.put(y, i + 8, v)  # past the end for every work-item

    try:
        fill[8](go.zeros(8, go.f32))
        go.synchronize()
    except go.BoundsError as e:
        print(e)
    print("compiles:", go.stats().compiles)
    """
)


def _bounds_error(script: Path, cache: Path, device: str) -> str:
    env = dict(os.environ, GPUOFF_CACHE_DIR=str(cache), GPUOFF_DEVICE=device,
               PYTHONPATH=str(script.parent))  # fmt: skip
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("device", available_devices())
def test_a_cached_kernel_names_its_own_file_and_line(tmp_path: Path, device: str) -> None:
    cache = tmp_path / "cache"
    first, second = tmp_path / "a", tmp_path / "b"
    for folder, above in ((first, ""), (second, "\n\n# three lines more above the kernel\n")):
        folder.mkdir()
        (folder / "helpers.py").write_text(above + HELPERS)
        (folder / "script.py").write_text(above + KERNEL)
    out = _bounds_error(first / "script.py", cache, device)
    assert f"{first / 'helpers.py'}:7: y[k] = v" in out, out
    out = _bounds_error(second / "script.py", cache, device)  # same source, other place
    assert f"{second / 'helpers.py'}:10: y[k] = v" in out, out
    assert str(first) not in out
    # the same place again: served from the cache, with the same positions
    again = _bounds_error(second / "script.py", cache, device)
    assert again.replace("compiles: 0", "compiles: 1") == out, (again, out)
    assert "compiles: 0" in again
