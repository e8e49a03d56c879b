"""opencl:0 runs launches whose global size is the grid with the build that does not test ids
past the grid (``codegen.opencl.EXACT_GRID_OPTION``), and rounded launches with the one that
does, switching between them on one program as the grid changes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32
from gpuoff.runtime.devices.opencl_program import OpenCLProgram
from tests.backends.test_opencl_runtime import axpy
from tests.backends.test_opencl_support import has_opencl

pytestmark = pytest.mark.skipif(not has_opencl(), reason="no OpenCL device")


# Kernels of their own: the device caches programs by their text, so a kernel another test
# launches would come with its launch counts (and its exact build) already made.
@go.kernel
def axpy_steps(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


@go.kernel
def axpy_loop(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


def _program(kernel: Any) -> OpenCLProgram:
    plans = list(kernel._plans.values())
    assert len(plans) == 1
    programs = [p for p in (plans[0].variants.programs if plans[0].variants else [])
                if p is not None] or [plans[0].program]  # fmt: skip
    assert len(programs) == 1 and isinstance(programs[0], OpenCLProgram)
    return programs[0]


def test_exact_and_rounded_launches_use_their_builds_and_agree() -> None:
    from gpuoff.runtime.devices.opencl_program import EXACT_AFTER

    assert EXACT_AFTER == 3
    k = axpy_steps
    n = 4096
    x = go.array(np.arange(n, dtype=np.float32))
    y = go.zeros(n, f32)
    want = np.zeros(n, np.float32)
    # (work-items, whether the exact build runs): 1000 is not a multiple of 64, so the runtime
    # rounds its global size up; the third exact launch gets the exact build
    steps = [(n, False), (1000, False), (n, False), (n, True), (1000, False), (64 * 7, True),
             (n, True)]  # fmt: skip
    with go.on("opencl:0"):
        for items, exact in steps:
            k[items](1.0, x, y)
            want[:items] += np.arange(items, dtype=np.float32)
            go.synchronize()
            program = _program(k)
            assert (program._active is program._exact_kernel) == exact, items
        np.testing.assert_array_equal(y.numpy(), want)


def test_a_loop_of_repeated_launches_moves_to_the_exact_build() -> None:
    k = axpy_loop
    x, y = go.array(np.ones(64, np.float32)), go.zeros(64, f32)
    with go.on("opencl:0"):
        for _ in range(40):  # repeats, held in bursts: the count goes on all the same
            k[64](1.0, x, y)
        np.testing.assert_array_equal(y.numpy(), np.full(64, 40.0, np.float32))
        program = _program(k)
        assert program._exact_kernel is not None and program._active is program._exact_kernel
        for _ in range(5):
            k[64](1.0, x, y)
        np.testing.assert_array_equal(y.numpy(), np.full(64, 45.0, np.float32))


def test_the_exact_build_leaves_out_the_test_of_ids_past_the_grid() -> None:
    from codegen.opencl import EXACT_GRID_OPTION

    k = go.kernel(axpy.pyfunc)
    x, y = go.array(np.ones(64, np.float32)), go.zeros(64, f32)
    with go.on("opencl:0"):
        k[64](1.0, x, y)
        go.synchronize()
    text = _program(k).source.text
    guard = text.index("#ifndef " + EXACT_GRID_OPTION.removeprefix("-D"))
    assert "get_global_id(0) >= (size_t)gpuoff_grid0" in text[guard : text.index("#endif")]
