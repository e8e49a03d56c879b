"""The compile caches: in memory per signature, and on disk across processes (cpu)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, f64
from gpuoff.runtime import debug
from gpuoff.runtime.testing import nd

SCRIPT = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    import gpuoff as go
    from gpuoff import Array, Borrow, BorrowMut, f32

    SCALE = 3.0

    @go.kernel
    def scale(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
        i = go.global_id(0)
        if i < y.shape[0]:
            y[i] = x[i] * SCALE

    y = go.zeros(4)
    scale[4](go.array(np.arange(4, dtype=np.float32)), y)
    s = go.stats()
    print(json.dumps({"out": y.numpy().tolist(), "compiles": s.compiles,
                      "hits": s.disk_cache_hits,
                      "frontend": "gpuoff.frontend" in sys.modules}))
    """
)


def _run(path: Path, cache: Path) -> dict[str, object]:
    env = dict(os.environ, GPUOFF_CACHE_DIR=str(cache), GPUOFF_DEVICE="cpu")
    done = subprocess.run(
        [sys.executable, str(path)], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_second_process_compiles_nothing(tmp_path: Path) -> None:
    script = tmp_path / "kern.py"
    script.write_text(SCRIPT)
    cache = tmp_path / "cache"
    first = _run(script, cache)
    assert first == {"out": [0.0, 3.0, 6.0, 9.0], "compiles": 1, "hits": 0, "frontend": True}
    assert len(list(cache.glob("*.bin"))) == 2  # the signature and the compiled kernel
    second = _run(script, cache)
    # a fully cached first launch neither compiles nor loads the front end
    assert second == {"out": [0.0, 3.0, 6.0, 9.0], "compiles": 0, "hits": 1, "frontend": False}
    # a changed captured constant is a different kernel
    script.write_text(SCRIPT.replace("SCALE = 3.0", "SCALE = 2.0"))
    third = _run(script, cache)
    assert third["out"] == [0.0, 2.0, 4.0, 6.0] and (third["compiles"], third["hits"]) == (1, 0)


def test_corrupt_cache_entries_are_recompiled(tmp_path: Path) -> None:
    script = tmp_path / "kern.py"
    script.write_text(SCRIPT)
    cache = tmp_path / "cache"
    _run(script, cache)
    for entry in cache.glob("*.bin"):
        entry.write_bytes(b"not a pickle")
    again = _run(script, cache)
    assert again["compiles"] == 1 and again["out"] == [0.0, 3.0, 6.0, 9.0]


@go.kernel
def copy(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = x[i]


@go.kernel
def copy64(x: Borrow[Array[f64]], y: BorrowMut[Array[f64]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = x[i]


def test_one_specialisation_per_signature(device: str) -> None:
    before = len(copy._plans)
    x, y = go.full(8, 2.0), go.zeros(8)
    for _ in range(3):
        copy[8](x, y)  # same signature: one plan
    copy[4](x[::2], y[:4])  # non-contiguous x: a second one
    m = go.zeros((2, 4))
    copy[2](go.full((2, 4), 1.0)[:, 0], m[:, 0])  # strided on both sides
    assert len(copy._plans) - before == 3  # (C, C), (strided, C), (strided, strided)
    assert y.numpy().tolist() == [2.0] * 8
    assert m.numpy()[:, 0].tolist() == [1.0, 1.0]


def test_same_kernel_name_two_signatures_in_one_process(device: str) -> None:
    a = go.array(np.arange(3, dtype=np.float64))
    b = go.zeros(3, go.f64)
    copy64[3](a, b)
    copy64[3](nd(np.arange(3, dtype=np.float64)[::-1]), b)
    assert b.numpy().tolist() == [2.0, 1.0, 0.0]


def test_debug_levels_report_launches_and_cache_decisions(
    device: str, capsys: pytest.CaptureFixture[str]
) -> None:
    old = debug.level()
    try:
        debug.set_level(2)
        x, y = go.full(5, 1.0, go.f64), go.zeros(5, go.f64)
        copy64[5](x, y)
        copy64[(5,), (5,)](x, y)
        err = capsys.readouterr().err
    finally:
        debug.set_level(old)
    assert "[gpuoff] launch copy64" in err
    assert f"on {device}" in err
    debug.set_level(0)
    copy64[5](x, y)
    assert capsys.readouterr().err == ""
    debug.set_level(old)
