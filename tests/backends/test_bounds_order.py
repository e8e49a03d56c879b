"""Which failed access a BoundsError reports (issue 20, item 9): the lowest work-item's, then
that work-item's lowest check id, then the first failure of that check
(``gpuoff.ir.bounds.failure_order``), identical in the interpreter, on every device and, as
code, in the PTX: whatever order the work-items run in, in parallel or one after another."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import gpuoff as go
from codegen.nvptx import compile_ptx
from gpuoff import Array, Borrow, BorrowMut, f32
from gpuoff.cli import lower_for_show
from gpuoff.ir import interp


@go.kernel
def two_checks(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    v = go.f32(0.0)
    if i % 2 == 0:
        v = x[i + 3]  # check 1: fails for i = 6 only (8 elements)
    out[i] = v + x[i * 7]  # check 2: fails for every i >= 2


@go.kernel
def later_iteration_lower_check(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    acc = go.f32(0.0)
    for k in range(2):
        if k == 1:
            acc += x[100 + i]  # check 1, reached second
        acc += x[200 + k + i]  # check 2, fails first
    out[i] = acc


@go.kernel
def after_a_barrier(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    s = go.shared(16, go.f32)
    lid = go.local_id(0)
    i = go.global_id(0)
    s[lid] = x[i + 24]  # before the barrier: fails for i >= 16 (40 elements), the lower id
    go.barrier()
    out[i] = s[(lid + 1) % 16] + x[i * 3]  # after it: fails for i >= 14, the lower items


def _message(kernel: go.Kernel[...], sig: str, x: np.ndarray, out: np.ndarray, grid: int,
             block: int | None, device: str | None) -> str:  # fmt: skip
    with pytest.raises(go.BoundsError) as info:
        if device is None:
            module = lower_for_show(kernel, sig, None, None)
            interp.run(module, [x, out], grid, None if block is None else (block,))
        else:
            cfg = grid if block is None else (grid, (block,))
            kernel[cfg](x, out)
            go.synchronize()
    return str(info.value).split(" in ")[0]


CASES = [
    (two_checks, 8, 8, None, "index (14,) out of range for x with shape (8,)"),
    (later_iteration_lower_check, 4, 4, None, "index (100,) out of range for x with shape (4,)"),
    (after_a_barrier, 40, 32, 16, "index (42,) out of range for x with shape (40,)"),
]


@pytest.mark.parametrize(("kernel", "n", "grid", "block", "want"), CASES,
                         ids=[c[0].__name__ for c in CASES])  # fmt: skip
def test_the_earliest_failure_is_reported(
    device: str, kernel: go.Kernel[...], n: int, grid: int, block: int | None, want: str
) -> None:
    x = np.arange(n, dtype=np.float32)
    ref = _message(kernel, "f32[:], f32[:]", x, np.zeros(grid, np.float32), grid, block, None)
    got = _message(kernel, "f32[:], f32[:]", x, np.zeros(grid, np.float32), grid, block, device)
    assert ref == want
    assert got == want


def test_many_work_items_racing_to_fail_report_the_lowest(device: str) -> None:
    # every work-item fails, in parallel on multi-core devices: the lowest one is reported
    x = np.zeros(4, np.float32)
    n = 200_000
    for _ in range(3):
        got = _message(two_checks, "", x, np.zeros(n, np.float32), n, None, device)
        assert got == "index (7,) out of range for x with shape (4,)", got


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
def test_the_ptx_publishes_with_a_key_and_a_lock(tmp_path: Path) -> None:
    ptx = compile_ptx(lower_for_show(two_checks, "f32[:], f32[:]", None, None), sm=80).ptx
    assert re.search(r"atom\.global\.max\.u64", ptx), ptx
    assert re.search(r"atom(\.\w+)*\.cas\.b64", ptx), ptx
    assert re.search(r"\b(fence|membar)\.", ptx), ptx
    src = tmp_path / "k.ptx"
    src.write_text(ptx)
    proc = subprocess.run(["ptxas", "-arch=sm_80", str(src), "-o", str(tmp_path / "k.cubin")],
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr


@go.func
def pick(arr: Borrow[Array[f32]], k: int) -> f32:
    return arr[k]  # the failing access is in the device function


@go.kernel
def through_a_function(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    out[i] = pick(x, i + 2)


def test_a_device_functions_array_is_reported_with_its_own_shape(device: str) -> None:
    # found by the fuzzer (seed 20000011): cpu said "shape ()" for a device function's array
    x = np.arange(10, dtype=np.float32)
    want = "index (10,) out of range for arr with shape (10,)"
    ref = _message(through_a_function, "f32[:], f32[:]", x, np.zeros(10, np.float32), 10, None,
                   None)  # fmt: skip
    assert ref == want
    got = _message(through_a_function, "f32[:], f32[:]", x, np.zeros(10, np.float32), 10, None,
                   device)  # fmt: skip
    assert got == want
