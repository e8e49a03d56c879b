"""Work-group memory on ``cpu`` never depends on a thread's stack (issue 20, item 4): shared
arrays up to the device's documented limit and the per-item state of the largest work-groups
it allows run correctly, also on a thread with a small stack; the heap refusing that memory is
``go.OutOfMemoryError``, not a dead process. (An 8 MiB ``go.shared`` used to overflow the
stack and kill the interpreter; ``test_bad_inputs`` checks the limit itself.)

Each case runs in a fresh interpreter: before the fix, it crashed the process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = """
import resource, sys, threading
import numpy as np
import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, f64
from gpuoff.runtime.devices.cpu import LIMITS

SHARED = LIMITS.shared_bytes // 4  # f32 elements: exactly the cpu device's limit

@go.kernel
def big_tile(x: BorrowMut[Array[f32]]) -> None:
    tile = go.shared(SHARED, go.f32)
    i = go.local_id(0)
    n = go.local_size(0)
    tile[SHARED - 1 - i] = x[go.global_id(0)]
    go.barrier()
    x[go.global_id(0)] = tile[SHARED - n + i] + 1.0

@go.kernel
def heavy_items(x: Borrow[Array[f64]], y: BorrowMut[Array[f64]]) -> None:
    # a work-group of 8192 items, each with many locals live across the barrier
    i = go.global_id(0)
    a0 = x[i]
    a1 = a0 + 1.0
    a2 = a1 * 2.0
    a3 = a2 - 3.0
    a4 = a3 * a0
    a5 = a4 + a1
    a6 = a5 * 0.5
    a7 = a6 + a2
    a8 = a7 - a3
    a9 = a8 * 1.5
    go.barrier()
    y[8191 - go.local_id(0)] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9

def run() -> None:
    x = go.array(np.arange(64, dtype=np.float32))
    big_tile[(64,), (64,)](x)
    got = x.numpy()
    print("shared", bool((got == np.arange(64, dtype=np.float32)[::-1] + 1).all()))
    v = np.linspace(0.0, 1.0, 8192)
    y = go.zeros(8192, go.f64)
    heavy_items[(8192,), (8192,)](go.array(v), y)
    a1 = v + 1; a2 = a1 * 2; a3 = a2 - 3; a4 = a3 * v; a5 = a4 + a1; a6 = a5 * 0.5
    a7 = a6 + a2; a8 = a7 - a3; a9 = a8 * 1.5
    want = (v + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9)[::-1]
    print("items", bool(np.allclose(y.numpy(), want, rtol=1e-12)))

with go.on("cpu"):
    if sys.argv[1] == "small-stack":
        threading.stack_size(256 << 10)  # launches run inline on this thread's stack
        t = threading.Thread(target=run)
        t.start()
        t.join()
    else:
        run()
        with open("/proc/self/status") as fh:
            vm = next(int(l.split()[1]) * 1024 for l in fh if l.startswith("VmSize"))
        x = go.array(np.arange(64, dtype=np.float32))
        resource.setrlimit(resource.RLIMIT_AS, (vm + (8 << 20), vm + (8 << 20)))
        filler = []
        try:
            while True:  # take what the limit leaves (and what the heap kept), 64 KiB at a time
                filler.append(bytearray(64 << 10))
        except MemoryError:
            filler.pop()  # a little for Python itself
        try:
            big_tile[(64,), (64,)](x)
            go.synchronize()
            print("oom ran")
        except go.OutOfMemoryError as exc:
            print("oom refused", "work-group memory" in str(exc))
        filler = None
"""


@pytest.mark.parametrize("how", ["small-stack", "out-of-memory"])
def test_work_group_memory_is_not_on_the_stack(tmp_path: Path, how: str) -> None:
    script = tmp_path / "groups.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, GPUOFF_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, str(script), how], env=env, capture_output=True,
                          text=True, timeout=300, check=False)  # fmt: skip
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stdout.split("\n")
    assert "shared True" in lines and "items True" in lines, proc.stdout
    if how == "out-of-memory":
        assert "oom refused True" in lines, proc.stdout
