"""First launch of a small kernel in a new process, with an empty and with a warm disk cache.

Each timed run starts a fresh Python process that imports gpuoff, makes two small buffers and
times its first launch of ``saxpy`` (trace, compile or load from disk, run, synchronise). The
child reports the time it measured, so interpreter start-up is not counted, and its compile
count, which must be 0 when the disk cache is warm. Children share a bytecode cache
(``child_env``), so Python compiling gpuoff's own sources is not counted either.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

from gpuoff.bench.harness import BenchCheckError, BenchSkip, Impl
from gpuoff.bench.scratch import scratch_dir

CACHE_ENV = "GPUOFF_CACHE_DIR"
"""The runtime's disk-cache location (``gpuoff.runtime.cache``)."""

CHILD = r"""
import json, sys, time
import numpy as np
import gpuoff as go
from gpuoff.bench.kernels import saxpy
if sys.argv[2] == "unchecked":
    saxpy = go.kernel(saxpy.pyfunc, boundscheck=False)
x = go.array(np.arange(64, dtype=np.float32))
y = go.zeros(64, go.f32)
go.synchronize()
with go.on(sys.argv[1]):
    start = time.perf_counter()
    saxpy[64](2.0, x, y)
    go.synchronize()
    elapsed = time.perf_counter() - start
ok = bool(np.array_equal(y.numpy(), 2.0 * np.arange(64, dtype=np.float32)))
stats = go.stats()
compiles = stats.get("compiles") if isinstance(stats, dict) else getattr(stats, "compiles", None)
print("GPUOFF_COLDSTART " + json.dumps({"s": elapsed, "ok": ok, "compiles": compiles}))
"""


def _cache_root() -> str:
    """The run's scratch folder for the children's disk caches and bytecode (``scratch``)."""
    return str(scratch_dir("coldstart"))


def child_env(**extra: str) -> dict[str, str]:
    """The environment of a child: this one, with a bytecode cache that children share.

    Compiling Python sources to bytecode is interpreter start-up, not a first launch: with
    ``PYTHONDONTWRITEBYTECODE`` set (or an unwritable source folder) every child would compile
    the modules a launch imports lazily (front end, code generator) again, inside the timed
    region. Children write and reuse bytecode under the bench's own folder instead (the
    warm-up run fills it), as an installed package would have it.
    """
    env = dict(os.environ, **extra)
    env.pop("GPUOFF_DEBUG", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = os.path.join(_cache_root(), "pycache")
    return env


def run_child(device: str, cache_dir: str, *, boundscheck: bool = True) -> dict[str, object]:
    """Run the child once with ``cache_dir`` as disk cache; return its report."""
    env = child_env(**{CACHE_ENV: cache_dir})
    checks = "checked" if boundscheck else "unchecked"
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, device, checks], capture_output=True, text=True, env=env,
        timeout=300, check=False,
    )  # fmt: skip
    for line in proc.stdout.splitlines():
        if line.startswith("GPUOFF_COLDSTART "):
            report: dict[str, object] = json.loads(line.split(" ", 1)[1])
            return report
    raise BenchSkip(f"first-launch child process failed:\n{proc.stderr.strip()[-2000:]}")


def cold_start_impl(device: str, *, cached: bool, boundscheck: bool = True) -> Impl:
    """An Impl whose each run is one new process; times are those the child measured.
    ``boundscheck=False``: the child launches saxpy compiled without bounds checks."""
    counter = [0]
    tag = f"{device.replace(':', '_')}-{'checked' if boundscheck else 'unchecked'}"
    warm_dir = os.path.join(_cache_root(), f"warm-{tag}")
    if cached:
        run_child(device, warm_dir, boundscheck=boundscheck)  # fill the cache once

    def run() -> float:
        if cached:
            cache_dir = warm_dir
        else:
            counter[0] += 1
            cache_dir = os.path.join(_cache_root(), f"cold-{tag}-{counter[0]}")
        report = run_child(device, cache_dir, boundscheck=boundscheck)
        if not report.get("ok"):
            raise BenchCheckError(f"first launch on {device} gave a wrong saxpy result")
        if cached and report.get("compiles") not in (0, None):
            raise BenchCheckError(
                f"disk cache missed on {device}: {report.get('compiles')} compile(s) in a new "
                "process with a warm cache"
            )
        return float(report["s"])  # type: ignore[arg-type]

    return Impl(run, primed=False)  # each run is a new process


NUMBA_CHILD = r"""
import json, time
import numpy as np
import numba
x = np.arange(64, dtype=np.float32)
y = np.zeros(64, dtype=np.float32)

@numba.njit(cache=CACHED)
def saxpy(a, x, y):
    for i in range(x.shape[0]):
        y[i] = a * x[i] + y[i]

start = time.perf_counter()
saxpy(np.float32(2.0), x, y)
elapsed = time.perf_counter() - start
ok = bool(np.array_equal(y, 2.0 * x))
print("GPUOFF_COLDSTART " + json.dumps({"s": elapsed, "ok": ok, "compiles": None}))
"""


def numba_cold_start_impl(*, cached: bool) -> Impl:
    """Numba's first call of the same saxpy in a new process (``cache=True`` when ``cached``,
    with its cache filled once beforehand)."""
    folder = tempfile.mkdtemp(prefix="gpuoff-bench-numba-", dir=_cache_root())
    script = os.path.join(folder, "numba_child.py")
    with open(script, "w") as f:
        f.write(NUMBA_CHILD.replace("CACHED", "True" if cached else "False"))
    env = child_env(NUMBA_CACHE_DIR=os.path.join(folder, "cache"))

    def child() -> float:
        proc = subprocess.run([sys.executable, script], capture_output=True, text=True,
                              env=env, timeout=300, check=False)  # fmt: skip
        for line in proc.stdout.splitlines():
            if line.startswith("GPUOFF_COLDSTART "):
                report = json.loads(line.split(" ", 1)[1])
                if not report["ok"]:
                    raise BenchCheckError("Numba's first call gave a wrong saxpy result")
                return float(report["s"])
        raise BenchSkip(f"Numba child process failed:\n{proc.stderr.strip()[-2000:]}")

    if cached:
        child()
    return Impl(child, primed=False)  # each run is a new process
