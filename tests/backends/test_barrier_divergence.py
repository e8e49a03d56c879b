"""Barrier divergence (issue 20, item 1): an exit or a barrier under a condition that depends on
the work-item is a CompileError at the user's line; one that depends only on memory the
work-items write is voted at run time and raises BarrierError instead of hanging, crashing or
computing garbage; on every device and in the IR interpreter."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from codegen.nvptx import compile_ptx
from gpuoff import Array, Borrow, BorrowMut, f32, i32
from gpuoff.cli import lower_for_show
from gpuoff.ir import interp
from tests.backends.test_bounds_rule import under_caret

THIS = Path(__file__).resolve()
TPB = 16


def line_of(tag: str) -> int:
    """The line of this file that ends with the comment ``# L:<tag>``."""
    lines = THIS.read_text().splitlines()
    hits = [k + 1 for k, ln in enumerate(lines) if ln.rstrip().endswith(f"# L:{tag}")]
    assert len(hits) == 1, tag
    return hits[0]


# Ported from the tiled matrix multiplication of the old Numba CUDA documentation ("fast_matmul",
# numba docs, cuda/examples): work-items past the matrix return before the tile loop, so the
# others wait at barriers the returned ones never reach (on cpu: 576 of 1600 elements wrong,
# on opencl:0 a crash, before the check).
@go.kernel
def matmul_early_return(a: Borrow[Array[f32]], b: Borrow[Array[f32]],
                        c: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    tile_a = go.shared((TPB, TPB), go.f32)
    tile_b = go.shared((TPB, TPB), go.f32)
    x = go.global_id(0)
    y = go.global_id(1)
    tx = go.local_id(0)
    ty = go.local_id(1)
    n = c.shape[0]
    if x >= n or y >= n:
        return  # L:early_exit
    acc = 0.0
    for t in range(go.num_groups(0)):
        tile_a[tx, ty] = a[x, ty + t * TPB]
        tile_b[tx, ty] = b[tx + t * TPB, y]
        go.barrier()  # L:tile_barrier
        for j in range(TPB):
            acc += tile_a[tx, j] * tile_b[j, ty]
        go.barrier()
    c[x, y] = acc


# The same kernel written so every work-item reaches every barrier: out-of-range work-items
# load zeros into the tiles and store nothing.
@go.kernel
def matmul_guarded(a: Borrow[Array[f32]], b: Borrow[Array[f32]],
                   c: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    tile_a = go.shared((TPB, TPB), go.f32)
    tile_b = go.shared((TPB, TPB), go.f32)
    x = go.global_id(0)
    y = go.global_id(1)
    tx = go.local_id(0)
    ty = go.local_id(1)
    n = c.shape[0]
    acc = 0.0
    for t in range(go.num_groups(0)):
        col = ty + t * TPB
        row = tx + t * TPB
        tile_a[tx, ty] = a[x, col] if x < n and col < n else 0.0
        tile_b[tx, ty] = b[row, y] if row < n and y < n else 0.0
        go.barrier()
        for j in range(TPB):
            acc += tile_a[tx, j] * tile_b[j, ty]
        go.barrier()
    if x < n and y < n:
        c[x, y] = acc


def _matrices(n: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    rng = np.random.default_rng(n)
    a = rng.integers(-4, 5, (n, n)).astype(np.float32)  # small integers: exact sums
    b = rng.integers(-4, 5, (n, n)).astype(np.float32)
    return a, b


def test_numba_docs_matmul_with_early_return_is_refused_at_the_return(device: str) -> None:
    n = 40
    a, b = _matrices(n)
    c = np.full((n, n), 7.0, np.float32)
    with pytest.raises(go.CompileError) as info:
        matmul_early_return[(48, 48), (TPB, TPB)](a, b, c)
    msg = str(info.value)
    assert f'File "{THIS}", line {line_of("early_exit")}, column 9' in msg, msg
    assert "'return'" in msg and "global_id" in msg
    assert f"barrier at line {line_of('tile_barrier')}" in msg, msg
    np.testing.assert_array_equal(c, np.full((n, n), 7.0, np.float32))  # nothing ran


def test_matmul_that_keeps_every_work_item_is_exact(device: str) -> None:
    n = 40
    a, b = _matrices(n)
    c = np.zeros((n, n), np.float32)
    matmul_guarded[(48, 48), (TPB, TPB)](a, b, c)
    np.testing.assert_array_equal(c, a @ b)
    ref = np.zeros((n, n), np.float32)
    module = lower_for_show(matmul_guarded, "f32[:, :], f32[:, :], f32[:, :]", None, None)
    interp.run(module, [a, b, ref], (48, 48), (TPB, TPB))
    np.testing.assert_array_equal(ref, a @ b)


@go.kernel
def break_before_barrier(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    s = go.shared(64, go.f32)
    lid = go.local_id(0)
    acc = 0.0
    for k in range(8):
        if x[go.global_id(0)] > float(k):
            break  # L:break
        s[lid] = acc
        go.barrier()  # L:break_barrier
        acc += s[(lid + 1) % 64]
    out[go.global_id(0)] = acc


@go.kernel
def continue_before_barrier(out: BorrowMut[Array[f32]]) -> None:
    s = go.shared(64, go.f32)
    lid = go.local_id(0)
    for k in range(4):
        s[lid] = float(k)
        if lid % 2 == 0:
            continue  # L:continue
        go.barrier()  # L:continue_barrier
    out[go.global_id(0)] = s[lid]


@go.kernel
def flag_set_under_local_id(out: BorrowMut[Array[f32]]) -> None:
    lid = go.local_id(0)
    flag = 0
    if lid == 0:
        flag = 1  # a constant, but only some work-items assign it
    if flag == 1:
        go.barrier()  # L:flag
    out[go.global_id(0)] = 1.0


@go.kernel
def loop_variable_after_divergent_break(out: BorrowMut[Array[f32]]) -> None:
    lid = go.local_id(0)
    k = 0
    for k in range(8):
        if lid == k:
            break
    if k > 3:
        go.barrier()  # L:exit_value
    out[go.global_id(0)] = 1.0


@pytest.mark.parametrize(("kernel", "at", "words"), [
    (break_before_barrier, "break",
     ["'break'", "global_id", f"barrier at line {line_of('break_barrier')}"]),
    (continue_before_barrier, "continue",
     ["'continue'", "local_id", f"barrier at line {line_of('continue_barrier')}"]),
    (flag_set_under_local_id, "flag", ["barrier under", "local_id"]),
    (loop_variable_after_divergent_break, "exit_value", ["barrier under", "local_id"]),
])  # fmt: skip
def test_exits_and_barriers_under_work_item_conditions_are_refused(
    device: str, kernel: Any, at: str, words: list[str]
) -> None:
    x = go.zeros(64, go.f32)
    out = go.full(64, 5.0, go.f32)
    args = (x, out) if kernel is break_before_barrier else (out,)
    with pytest.raises(go.CompileError) as info:
        kernel[64, (64,)](*args)
    msg = str(info.value)
    assert f'File "{THIS}", line {line_of(at)},' in msg, msg
    for w in words:
        assert w in msg, msg
    np.testing.assert_array_equal(out.numpy(), np.full(64, 5.0, np.float32))


@go.kernel
def uniform_early_return(out: BorrowMut[Array[f32]]) -> None:
    s = go.shared(64, go.f32)
    lid = go.local_id(0)
    if go.group_id(0) == 1:
        return  # every work-item of group 1 leaves: no divergence
    s[lid] = float(lid)
    go.barrier()
    out[go.global_id(0)] = s[63 - lid]


def test_uniform_early_return_runs(device: str) -> None:
    out = np.full(192, -1.0, np.float32)
    uniform_early_return[192, (64,)](out)
    want = np.concatenate([np.arange(63, -1, -1)] * 3).astype(np.float32)
    want[64:128] = -1.0
    np.testing.assert_array_equal(out, want)


# A race decides the condition: work-item 63 writes s[0] in the same barrier interval in which
# the group reads it, so the items that read before the write keep going and the others
# return. Work-items run in id order within an interval on cpu, opencl:0 (a CPU driver) and
# in the interpreter, so the vote sees both values.
@go.kernel
def racy_early_return(out: BorrowMut[Array[f32]]) -> None:
    s = go.shared(64, go.f32)
    lid = go.local_id(0)
    if lid == 0:
        s[0] = 0.0
    go.barrier()
    if lid == 63:
        s[0] = 1.0
    if s[0] > 0.0:  # L:racy
        return
    go.barrier()
    out[go.global_id(0)] = 1.0


def test_condition_decided_by_a_race_is_a_barrier_error(device: str) -> None:
    out = go.zeros(128, go.f32)
    with pytest.raises(go.BarrierError) as info:
        racy_early_return[128, (64,)](out)
        go.synchronize()
    msg = str(info.value)
    assert isinstance(info.value, RuntimeError) and isinstance(info.value, go.GpuoffError)
    assert f"{THIS}:{line_of('racy')}" in msg, msg
    assert "if s[0] > 0.0:" in msg
    assert under_caret(msg) == "if s[0] > 0.0", msg  # the condition, as a CompileError shows it
    module = lower_for_show(racy_early_return, "f32[:]", None, None)
    with pytest.raises(go.BarrierError):
        interp.run(module, [np.zeros(128, np.float32)], 128, 64)


@go.kernel
def loop_bound_from_memory(n: BorrowMut[Array[i32]], out: BorrowMut[Array[f32]]) -> None:
    s = go.shared(64, go.f32)
    lid = go.local_id(0)
    acc = 0.0
    for k in range(n[0]):  # uniform unless someone wrote n[0] meanwhile: voted
        s[lid] = float(k + lid)
        go.barrier()
        acc += s[(lid + 1) % 64]
        go.barrier()
    k = 0
    while k < n[1]:
        s[lid] = 1.0
        go.barrier()
        acc += s[63 - lid]
        k += 1
        go.barrier()
    out[go.global_id(0)] = acc


def test_conditions_read_from_memory_run_when_uniform(device: str) -> None:
    n = np.array([5, 3], np.int32)
    out = np.zeros(128, np.float32)
    loop_bound_from_memory[128, (64,)](n, out)
    lid = np.arange(128) % 64
    want = sum(((lid + 1) % 64 + k).astype(np.float32) for k in range(5)) + 3.0
    np.testing.assert_array_equal(out, want)
    ref = np.zeros(128, np.float32)
    module = lower_for_show(loop_bound_from_memory, "i32[:], f32[:]", None, None)
    interp.run(module, [n.copy(), ref], 128, 64)
    np.testing.assert_array_equal(ref, want)


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
@pytest.mark.parametrize(("kernel", "sig"), [(racy_early_return, "f32[:]"),
                                             (loop_bound_from_memory, "i32[:], f32[:]")])
def test_voted_kernels_assemble_for_cuda(kernel: Any, sig: str, tmp_path: Path) -> None:
    module = lower_for_show(kernel, sig, None, None)
    assert any(c.kind == "barrier" for c in module.checks)
    ptx = compile_ptx(module, sm=80).ptx
    assert ptx.count("bar.sync") >= 4  # the kernel's own barriers and the votes'
    src = tmp_path / "k.ptx"
    src.write_text(ptx)
    proc = subprocess.run(["ptxas", "-arch=sm_80", str(src), "-o", str(tmp_path / "k.cubin")],
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
