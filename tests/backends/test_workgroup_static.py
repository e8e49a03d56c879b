"""What is checked before anything runs: the CompileErrors of work-group code (a barrier under
a work-item-dependent condition, a shared array whose shape is not a constant), and the PTX of
the work-group kernels assembled by ptxas for sm_80 and sm_90."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from codegen.nvptx import compile_ptx
from gpuoff import Array, BorrowMut, f32
from gpuoff.cli import lower_for_show
from tests.backends.test_ptx import assemble

ROOT = Path(__file__).resolve().parents[2]
THIS = Path(__file__).resolve()


@go.kernel
def barrier_under_local_id(out: BorrowMut[Array[f32]]) -> None:
    lid = go.local_id(0)
    if lid < 4:
        go.barrier()
    out[go.global_id(0)] = 1.0


@go.kernel
def barrier_in_divergent_loop(out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    k = 0
    limit = i % 3  # derived from the work-item's id: the trip count differs between items
    while k < limit:
        go.barrier()
        k += 1
    out[i] = 1.0


@go.kernel
def shared_with_runtime_shape(out: BorrowMut[Array[f32]]) -> None:
    tile = go.shared(out.shape[0], go.f32)
    tile[0] = 1.0
    out[0] = tile[0]


@pytest.mark.parametrize(("kernel", "line_text", "words", "caret_at"), [
    (barrier_under_local_id, "        go.barrier()\n    out[go.global_id(0)]", "barrier",
     "go.barrier()"),
    (barrier_in_divergent_loop, "        go.barrier()\n        k += 1", "barrier",
     "go.barrier()"),
    (shared_with_runtime_shape, "    tile = go.shared(out.shape[0], go.f32)",
     "compile-time constant", "out.shape[0]"),
])  # fmt: skip
def test_compile_errors_point_at_the_user_code(
    device: str, kernel: Any, line_text: str, words: str, caret_at: str
) -> None:
    text = THIS.read_text()
    line = text[: text.index(line_text)].count("\n") + 1
    out = go.zeros(8, go.f32)
    with pytest.raises(go.CompileError) as info:
        kernel[(8,), (8,)](out)
    msg = str(info.value)
    assert words in msg
    assert f'File "{THIS}", line {line}' in msg, msg
    src_line = text.splitlines()[line - 1]
    assert src_line.strip() in msg and "^" in msg
    caret = next(ln for ln in msg.splitlines() if set(ln.strip()) == {"^"})
    # The caret starts under the offending construct of the quoted line.
    quoted = msg.splitlines()[msg.splitlines().index(caret) - 1]
    assert quoted[caret.index("^") :].startswith(caret_at)
    # Nothing ran: the output is untouched.
    np.testing.assert_array_equal(out.numpy(), np.zeros(8, np.float32))


def test_barrier_error_names_the_rule() -> None:
    with pytest.raises(go.CompileError, match="work-item"):
        lower_for_show(barrier_under_local_id, "f32[:]", None, None)


# --- PTX ----------------------------------------------------------------------------------------

needs_ptxas = pytest.mark.skipif(shutil.which("ptxas") is None,
                                 reason="ptxas (CUDA toolkit) is not on the PATH")  # fmt: skip


def _load(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(f"_wg_ptx_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# (file, kernel, signature): the examples' kernels and this directory's work-group tests.
PTX_KERNELS = [
    ("examples/reduction.py", "block_sum", "f32[:], f32[:], 256"),  # generic: one source,
    ("examples/reduction.py", "block_sum", "f64[:], f64[:], 128"),  # two specialisations
    ("examples/scan.py", "scan_blocks", "i32[:], i32[:], i32[:]"),
    ("examples/scan.py", "add_block_offsets", "i32[:], i32[:]"),
    ("examples/sgemm_tiled.py", "sgemm_tiled", "f32[:, :], f32[:, :], f32[:, :]"),
    ("examples/histogram.py", "histogram256", "u8[:], u32[:]"),
    ("gpuoff/bench/cases_scan.py", "scan_blocks", "i32[:], i32[:], i32[:]"),
    ("gpuoff/bench/cases_scan.py", "add_block_offsets", "i32[:], i32[:]"),
    ("gpuoff/bench/cases_scan.py", "sgemm_tiled", "f32[:, :], f32[:, :], f32[:, :]"),
    ("examples/nbody.py", "nbody", None),
    ("tests/backends/test_workgroup_ids.py", "ids3", "i32[:, :, :]"),
    ("tests/backends/test_workgroup_ids.py", "rotate", "f32[:], i32, f32[:]"),
    ("tests/backends/test_workgroup_ids.py", "maybe_reverse", "f32[:], i32, f32[:]"),
    ("tests/backends/test_workgroup_atomics.py", "atomics_i32", "i32[:], i32[:], i32[:, :]"),
    ("tests/backends/test_workgroup_atomics.py", "atomics_u32", "u32[:], u32[:], u32[:, :]"),
    ("tests/backends/test_workgroup_atomics.py", "atomics_i64", "i64[:], i64[:], i64[:, :]"),
    ("tests/backends/test_workgroup_atomics.py", "atomics_f32", "f32[:], f32[:], f32[:, :]"),
    ("tests/backends/test_workgroup_atomics.py", "atomics_f64", "f64[:], f64[:], f64[:, :]"),
    ("tests/backends/test_workgroup_atomics.py", "shared_counter", "i32[:], i32[:]"),
    ("tests/backends/test_workgroup_atomics.py", "shared_min_f32", "f32[:], f32[:]"),
]


@needs_ptxas
@pytest.mark.parametrize("sm", [80, 90])
@pytest.mark.parametrize(("path", "name", "sig"), PTX_KERNELS,
                         ids=[f"{Path(p).stem}:{k}:{s}" for p, k, s in PTX_KERNELS])  # fmt: skip
def test_workgroup_kernels_assemble(path: str, name: str, sig: str | None, sm: int,
                                    tmp_path: Path) -> None:  # fmt: skip
    kernel = getattr(_load(ROOT / path), name)
    module = lower_for_show(kernel, sig, None, None)
    ptx = compile_ptx(module, sm=sm).ptx
    if "barrier" in Path(ROOT / path).read_text().split(f"def {name}(")[1].split("\n\n\n")[0]:
        assert "bar.sync" in ptx or "barrier.sync" in ptx
    assemble(ptx, sm, tmp_path)
