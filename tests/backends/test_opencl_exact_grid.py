"""opencl:0 runs launches whose global size is the grid with the build that does not test ids
past the grid (``codegen.opencl.EXACT_GRID_OPTION``), and rounded launches with the one that
does, switching between them on one program as the grid changes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import f32
from gpuoff.runtime.devices import get_device
from gpuoff.runtime.devices.opencl_program import OpenCLProgram
from tests.backends.test_opencl_runtime import axpy
from tests.backends.test_opencl_support import has_opencl

pytestmark = pytest.mark.skipif(not has_opencl(), reason="no OpenCL device")


def _program(kernel: Any) -> OpenCLProgram:
    plans = list(kernel._plans.values())
    assert len(plans) == 1
    programs = [p for p in (plans[0].variants.programs if plans[0].variants else [])
                if p is not None] or [plans[0].program]  # fmt: skip
    assert len(programs) == 1 and isinstance(programs[0], OpenCLProgram)
    return programs[0]


def test_exact_and_rounded_launches_use_their_builds_and_agree() -> None:
    k = go.kernel(axpy.pyfunc)  # a fresh kernel: its own plans and programs
    n = 4096
    x = go.array(np.arange(n, dtype=np.float32))
    y = go.zeros(n, f32)
    want = np.zeros(n, np.float32)
    dev = get_device("opencl:0")
    with go.on("opencl:0"):
        for items in (n, 1000, n, 1000, 64 * 7, n):
            # 1000 is not a multiple of 64: the runtime rounds the global size up
            k[items](1.0, x, y)
            want[:items] += np.arange(items, dtype=np.float32)
            go.synchronize()
            program = _program(k)
            rounded = dev.local_size((items, 1, 1)) is not None  # type: ignore[attr-defined]
            exact = program._exact_kernel
            assert (program._active is exact) != rounded and (rounded or exact is not None)
        np.testing.assert_array_equal(y.numpy(), want)


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
