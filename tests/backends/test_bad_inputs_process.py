"""The bad-input cases of issue 20 that need a process of their own, because before they were
fixed they killed it: a damaged disk cache (a truncated OpenCL program binary segfaulted the
driver), processes filling one cache at once, allocations beyond what the process may map
(``ulimit -v``), and arrays of more than 2**31 elements touched at their last element.

Each case runs a small script in a fresh interpreter and asserts its exit status, its output
and that it printed no traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import gpuoff as go

DEVICES = [d.name for d in go.devices() if d.available]

SCRIPT = """
import sys
import numpy as np
import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32

@go.kernel
def saxpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]

@go.kernel
def gather(x: Borrow[Array[f32]], idx: Borrow[Array[i32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = x[idx[i]]

with go.on(sys.argv[1]):
    x = go.array(np.arange(1000, dtype=np.float32))
    y = go.zeros(1000)
    saxpy[1000](2.0, x, y)
    gather[1000](x, go.array(np.arange(1000, dtype=np.int32)[::-1].copy()), y)
    ok = (y.numpy() == np.arange(1000, dtype=np.float32)[::-1]).all()
    print("ok" if ok else "WRONG", go.stats().compiles)
"""


def _run(args: list[str], cache: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, GPUOFF_CACHE_DIR=str(cache))
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)  # fmt: skip


def _clean(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.stdout


def _damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "flipped":
        mid = len(data) // 2
        path.write_bytes(data[:mid] + bytes([data[mid] ^ 0xFF]) + data[mid + 1 :])
    else:
        path.write_bytes(os.urandom(len(data)))


DAMAGE = ("truncated", "empty", "flipped", "garbage")


@pytest.mark.parametrize("how", ["truncated", "mixed"])
@pytest.mark.parametrize("device", DEVICES)
def test_a_damaged_disk_cache_is_rebuilt(tmp_path: Path, device: str, how: str) -> None:
    script = tmp_path / "k.py"
    script.write_text(SCRIPT)
    cache = tmp_path / "cache"
    assert _clean(_run([str(script), device], cache)).split()[0] == "ok"
    files = sorted(p for p in cache.rglob("*") if p.is_file() and p.stat().st_size)
    assert files
    for k, path in enumerate(files):  # every file: kernels, signatures, driver binaries, ...
        _damage(path, how if how != "mixed" else DAMAGE[k % len(DAMAGE)])
    out = _clean(_run([str(script), device], cache))
    assert out.split()[0] == "ok", out
    assert _clean(_run([str(script), device], cache)).split() == ["ok", "0"]  # rewritten


@pytest.mark.parametrize("device", DEVICES)
def test_processes_filling_one_cache_at_once(tmp_path: Path, device: str) -> None:
    script = tmp_path / "k.py"
    script.write_text(SCRIPT)
    cache = tmp_path / "cache"
    env = dict(os.environ, GPUOFF_CACHE_DIR=str(cache))
    procs = [subprocess.Popen([sys.executable, str(script), device], env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(3)]  # fmt: skip
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0 and "Traceback" not in err, err
        assert out.split()[0] == "ok"
    assert _clean(_run([str(script), device], cache)).split() == ["ok", "0"]
    assert not list(cache.rglob("*.tmp"))  # no temporary left behind


OOM = """
import resource, sys
import numpy as np
import gpuoff as go
from gpuoff import Array, BorrowMut, u8
from gpuoff.runtime.devices import current_device

@go.kernel
def touch(x: BorrowMut[Array[u8]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        x[i] = x[i] + 1

with go.on(sys.argv[1]):
    small = go.zeros(64, go.u8)
    touch[64](small)
    go.synchronize()
    with open("/proc/self/status") as fh:
        vm = next(int(l.split()[1]) * 1024 for l in fh if l.startswith("VmSize"))
    limit = vm + (1 << 30)  # ulimit -v: one more GiB than the process maps now
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    sizes = [("host", 3 << 30)]
    if not current_device().host_memory:  # a device copy of its own, made at the launch
        sizes.append(("device", 700 << 20))
    for what, nbytes in sizes:
        try:
            big = go.zeros(nbytes, go.u8)
            touch[nbytes](big)
            go.synchronize()
            print(what, "ran", big[nbytes - 1])
        except go.OutOfMemoryError as exc:
            assert isinstance(exc, MemoryError) and isinstance(exc, go.DeviceError)
            print(what, "refused:", exc)
        big = None
    touch[64](small)  # the process goes on
    print("after", small.numpy()[0])
"""


@pytest.mark.parametrize("device", DEVICES)
def test_an_allocation_beyond_the_address_space_limit(tmp_path: Path, device: str) -> None:
    script = tmp_path / "oom.py"
    script.write_text(OOM)
    out = _clean(_run([str(script), device], tmp_path / "cache"))
    lines = dict(line.split(" ", 1) for line in out.strip().splitlines())
    assert lines["host"].startswith("refused: cannot allocate 3221225472 bytes of host memory")
    if device != "cpu":  # 700 MiB fits once, not twice (the host's and the device's copy)
        assert lines["device"].startswith(f"refused: {device}: cannot allocate"), lines
    assert lines["after"] == "2"


HUGE = """
import sys
import numpy as np
import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, i64, u8

@go.kernel
def last(x: Borrow[Array[u8]], at: i64, out: BorrowMut[Array[u8]]) -> None:
    i = go.global_id(0)
    out[i] = x[at + i]

@go.kernel
def bump_tail(x: BorrowMut[Array[u8]], n: i64) -> None:
    i = go.global_id(0)
    if i == n - 1:  # (a store under `i > n - 4` runs 40x slower on cpu: issue 17's business)
        x[i] = x[i] + 7

with go.on(sys.argv[1]):
    n = 2**31 + 5
    x = go.zeros(n, go.u8)
    with x.host_mut() as h:
        h[-4:] = [1, 2, 3, 4]
    out = go.zeros(4, go.u8)
    last[4](x, n - 4, out)  # indices past 2**31: i64 arithmetic
    print("last", out.numpy().tolist())
    bump_tail[n](x, n)  # a grid of more than 2**31 work-items
    print("tail", x[n - 4 : n].numpy().tolist())
    try:
        last[5](x, n - 4, go.zeros(5, go.u8))
        go.synchronize()
    except go.BoundsError as exc:
        print("bounds", "2147483653" in str(exc))
"""


@pytest.mark.parametrize("device", DEVICES)
def test_arrays_of_more_than_two_to_the_31_elements(tmp_path: Path, device: str) -> None:
    with open("/proc/meminfo") as fh:
        free = next(int(line.split()[1]) << 10 for line in fh if line.startswith("MemAvailable"))
    if free < (8 << 30):
        pytest.skip(f"needs 8 GiB of free memory, {free >> 20} MiB here")
    script = tmp_path / "huge.py"
    script.write_text(HUGE)
    out = _clean(_run([str(script), device], tmp_path / "cache", timeout=600))
    lines = dict(line.split(" ", 1) for line in out.strip().splitlines())
    assert lines == {"last": "[1, 2, 3, 4]", "tail": "[1, 2, 3, 11]", "bounds": "True"}
