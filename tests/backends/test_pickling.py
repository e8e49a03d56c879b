"""Pickling kernels, device functions and buffers (issue 18, item 2; SPEC §4), shipped to a
child process and run there, as ``multiprocessing`` and Dask's process schedulers do: by
reference from an importable module, by source from ``__main__``, from a notebook-style cell
(text registered in ``linecache``, as IPython does) and from ``exec``.
"""

from __future__ import annotations

import linecache
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32
from gpuoff.shipping import KernelPickleError

ROOT = Path(__file__).resolve().parents[2]
OFFSET = 0.5


@go.func
def doubled(v: f32) -> f32:
    return v * 2.0


@go.kernel
def double_plus(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = doubled(x[i]) + OFFSET


RUN_IN_CHILD = """
import pickle, sys
import numpy as np
import gpuoff as go
kernel = pickle.loads(open(sys.argv[1], "rb").read())
y = np.zeros(4, np.float32)
kernel[4](np.arange(4, dtype=np.float32), y)
print(y.tolist())
print(go.stats().compiles, go.stats().disk_cache_hits)
"""


def run_child(payload: bytes, tmp_path: Path, cache: Path | None = None) -> list[str]:
    """Unpickle ``payload`` in a fresh interpreter, launch it on x = [0, 1, 2, 3] and y = 0:
    its output lines (y, then compiles and disk cache hits)."""
    blob = tmp_path / "kernel.pickle"
    blob.write_bytes(payload)
    env = {**os.environ, "GPUOFF_DEVICE": "cpu",
           "GPUOFF_CACHE_DIR": str(cache or tmp_path / "cache")}  # fmt: skip
    out = subprocess.run([sys.executable, "-c", RUN_IN_CHILD, str(blob)], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=300)  # fmt: skip
    assert out.returncode == 0, out.stderr
    return out.stdout.split("\n")


def test_an_importable_kernel_pickles_by_reference(tmp_path: Path) -> None:
    payload = pickle.dumps(double_plus)
    assert b"tests.backends.test_pickling" in payload and b"def double_plus" not in payload
    assert pickle.loads(payload) is double_plus
    assert run_child(payload, tmp_path)[0] == "[0.5, 2.5, 4.5, 6.5]"


def test_a_device_function_pickles_by_reference() -> None:
    assert pickle.loads(pickle.dumps(doubled)) is doubled


MAIN_SCRIPT = """
import pickle, sys
import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32

SCALE = 3.0

@go.func
def plus_one(v: f32) -> f32:
    return v + 1.0

@go.kernel(fastmath=False)
def scaled(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = plus_one(x[i]) * SCALE

open(sys.argv[1], "wb").write(pickle.dumps(scaled))
"""


def test_a_kernel_from_main_pickles_by_source_and_runs_in_another_process(
    tmp_path: Path,
) -> None:
    script = tmp_path / "user_script.py"
    script.write_text(MAIN_SCRIPT)
    blob = tmp_path / "from_main.pickle"
    subprocess.run([sys.executable, str(script), str(blob)], check=True, timeout=120,
                   env={**os.environ, "GPUOFF_DEVICE": "cpu"})  # fmt: skip
    payload = blob.read_bytes()
    assert b"def scaled" in payload and b"def plus_one" in payload
    script.unlink()  # the receiving side needs nothing of the sender's file
    cache = tmp_path / "shared-cache"
    first = run_child(payload, tmp_path, cache)
    assert first[0] == "[3.0, 6.0, 9.0, 12.0]"
    assert first[1] == "1 0"  # compiled there ...
    second = run_child(payload, tmp_path, cache)
    assert second[:2] == ["[3.0, 6.0, 9.0, 12.0]", "0 1"]  # ... and found on disk the next time


CELL = """
import gpuoff as go
from gpuoff import Array, BorrowMut, f32

def make(step):
    @go.kernel
    def ramp(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
        i = go.global_id(0)
        if i < y.shape[0]:
            y[i] = x[i] * step
    return ramp

from gpuoff import Borrow
ramp = make(10.0)
"""


def exec_cell(name: str, register: bool, text: str = CELL) -> dict[str, Any]:
    """Run ``text`` (``CELL``) the way IPython runs a notebook cell: its text in ``linecache``
    under a made-up file name (``register``), then ``exec``."""
    if register:
        linecache.cache[name] = (len(text), None, text.splitlines(True), name)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(text, name, "exec"), namespace)
    return namespace


def test_a_closure_from_a_notebook_cell_pickles_by_source(tmp_path: Path) -> None:
    cell = exec_cell("<ipython-input-7-0123456789ab>", register=True)
    payload = pickle.dumps(cell["ramp"])
    assert b"<ipython-input-7" in payload
    assert run_child(payload, tmp_path)[0] == "[0.0, 10.0, 20.0, 30.0]"


GENERIC_CELL = """
import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut
T = go.DTypeVar("T")

@go.func
def triple(v: T) -> T:
    return v * 3

@go.kernel
def ramp(x: Borrow[Array[T]], y: BorrowMut[Array[T]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = triple(x[i])
"""


def test_a_generic_kernel_pickles_by_source(tmp_path: Path) -> None:
    """Its dtype variable travels with it (by value): the receiver specialises its own."""
    cell = exec_cell("<ipython-input-8-0123456789ab>", register=True, text=GENERIC_CELL)
    payload = pickle.dumps(cell["ramp"])
    assert run_child(payload, tmp_path)[0] == "[0.0, 3.0, 6.0, 9.0]"


def test_exec_without_source_is_refused_with_the_way_out(tmp_path: Path) -> None:
    cell = exec_cell("<string>", register=False)
    with pytest.raises(KernelPickleError, match="cannot pickle <gpuoff.kernel .*ramp> by source.*"
                                                 "notebook cell or an importable module"):
        pickle.dumps(cell["ramp"])


def test_an_error_in_a_shipped_kernel_points_at_the_senders_file_and_line(tmp_path: Path) -> None:
    source = textwrap.dedent("""
        import gpuoff as go
        from gpuoff import Array, BorrowMut, f32

        @go.kernel
        def broken(y: BorrowMut[Array[f32]]) -> None:
            i = go.global_id(0)
            y[i] = undefined_name
    """)
    name = str(tmp_path / "gone.py")
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(source, name, "exec"), namespace)
    blob = tmp_path / "broken.pickle"
    blob.write_bytes(pickle.dumps(namespace["broken"]))
    code = ("import pickle, sys, numpy as np\nk = pickle.loads(open(sys.argv[1], 'rb').read())\n"
            "k[2](np.zeros(2, np.float32))\n")  # fmt: skip
    env = {**os.environ, "GPUOFF_DEVICE": "cpu"}
    out = subprocess.run([sys.executable, "-c", code, str(blob)], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, env=env)  # fmt: skip
    assert out.returncode != 0
    assert f'File "{name}", line 8' in out.stderr and "y[i] = undefined_name" in out.stderr


def test_copies_of_kernels_are_the_kernel() -> None:
    import copy

    assert copy.copy(double_plus) is double_plus and copy.deepcopy(doubled) is doubled


def test_buffers_pickle_by_value_after_pending_writers(device: str) -> None:
    x = go.array(np.arange(1 << 16, dtype=np.float32))
    y = go.zeros(1 << 16)
    double_plus[1 << 16](x, y)  # maybe still running: pickling waits for it
    back = pickle.loads(pickle.dumps(y))
    assert np.array_equal(back.numpy(), np.arange(1 << 16, dtype=np.float32) * 2 + 0.5)
    assert back is not y


def test_a_view_pickles_only_its_elements() -> None:
    y = go.array(np.arange(1000, dtype=np.float32))
    view = y[10:20]
    payload = pickle.dumps(view)
    assert len(payload) < len(pickle.dumps(y)) / 10  # 40 bytes of elements, not 4000
    assert pickle.loads(payload).numpy().tolist() == list(range(10, 20))
