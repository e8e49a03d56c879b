"""Compile the C baselines at bench time and load them with ctypes.

The flags are the protocol's (BENCHMARKS.md): ``-O3 -march=native -fopenmp``, plus
``-shared -fPIC`` to build a loadable library, plus ``-fno-math-errno``, which a C programmer
who cares about speed passes and which changes no result: the math functions no longer set
``errno`` (nothing reads it), so GCC inlines ``sqrtf`` as one instruction and may vectorise
loops that call it; without it the Black-Scholes and n-body loops stayed scalar and gpuoff
"won" 4-8x against a weak baseline. ``-ffast-math`` is not used: it changes results
(reassociation, no NaN or infinity). Where GCC needs more than flags to vectorise, a second
variant of the baseline says so in its source (``#pragma omp simd``, glibc's vector math
declared by hand: ``*_libmvec.c``, an OpenMP ``inscan`` reduction: ``scan_inscan.c``); the
suite times every variant and reports against the fastest (``Row.best``).

OpenMP uses one thread per core (``OMP_NUM_THREADS`` is set before the first library loads
libgomp, unless the user set it). The compiler is ``$CC`` or the first of ``cc``, ``gcc``,
``clang`` on ``PATH``.

``OMP_WAIT_POLICY`` defaults to ``passive``: the harness interleaves implementations, and an
OpenMP team that keeps spinning after its region steals the cores from whatever runs next
(on the 2-core machines here it made the C saxpy itself 20x slower, 7 ms instead of 0.35 ms
at 2^20). Passive waiting is the baseline's best configuration here; users may override both.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
from functools import cache
from importlib import resources
from pathlib import Path

from gpuoff.bench.harness import BenchSkip
from gpuoff.bench.scratch import scratch_dir

CFLAGS = ("-O3", "-march=native", "-fopenmp", "-fno-math-errno", "-shared", "-fPIC")
LIBS = ("-lm",)
EXTRA_LIBS = {"blackscholes_libmvec": ("-lmvec",), "softmax_libmvec": ("-lmvec",)}
"""Libraries a baseline needs beyond ``LIBS``: glibc's vector math for the ``*_libmvec`` ones
(a system without it skips that variant, saying why)."""


def find_compiler() -> str:
    """The C compiler to use, or BenchSkip saying that there is none."""
    env = os.environ.get("CC")
    candidates = [env] if env else ["cc", "gcc", "clang"]
    for name in candidates:
        found = shutil.which(name)
        if found:
            return found
    raise BenchSkip("no C compiler found (set CC or install cc/gcc/clang)")


def baseline_source(name: str) -> str:
    """The text of ``gpuoff/bench/baselines/<name>.c``."""
    return resources.files("gpuoff.bench").joinpath("baselines", f"{name}.c").read_text()


def _build_dir() -> Path:
    # The run's scratch folder: the libraries are rebuilt at every bench run on purpose (the
    # protocol compiles the baselines with this machine's compiler and flags, at bench time),
    # and the folder goes away with the run (``scratch``).
    return scratch_dir("c")


def compile_shared(name: str, source: str, libs: tuple[str, ...] = ()) -> Path:
    """Compile ``source`` into a shared library named after ``name``; return its path."""
    cc = find_compiler()
    digest = hashlib.sha256(source.encode()).hexdigest()[:12]
    out_dir = _build_dir()
    src = out_dir / f"{name}-{digest}.c"
    lib = out_dir / f"lib{name}-{digest}.so"
    if lib.exists():
        return lib
    src.write_text(source)
    cmd = [cc, *CFLAGS, "-o", str(lib), str(src), *libs, *LIBS]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise BenchSkip(
            f"C baseline {name!r} did not build with {' '.join(cmd)}:\n{proc.stderr.strip()}"
        )
    return lib


def set_openmp_threads() -> int:
    """Make OpenMP use one thread per core (before libgomp starts); return the count."""
    cores = os.cpu_count() or 1
    os.environ.setdefault("OMP_NUM_THREADS", str(cores))
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    return int(os.environ["OMP_NUM_THREADS"])


@cache
def load_baseline(name: str) -> ctypes.CDLL:
    """Build ``baselines/<name>.c`` with the protocol's flags and load it."""
    set_openmp_threads()
    lib = compile_shared(name, baseline_source(name), EXTRA_LIBS.get(name, ()))
    return ctypes.CDLL(str(lib))
