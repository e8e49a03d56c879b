"""The hand-written CUDA C baselines of ``gpuoff bench``: they compile to PTX (NVRTC or nvcc)
that ptxas accepts for sm_80/sm_90, with the parameters the launcher packs; and a factory
launches them with the right C-ABI slots (on the fake driver; real runs: scripts/gpu-check)."""

from __future__ import annotations

import re
import shutil
import struct
from pathlib import Path

import numpy as np
import pytest

import gpuoff.bench.cuda_baselines as cb
import gpuoff.runtime.devices as registry
from gpuoff.runtime.devices.cuda import CudaDevice
from tests.backends.test_ptx import assemble
from tests.unit.test_cuda_runtime_fake import FakeDriver, Launch

needs_toolkit = pytest.mark.skipif(
    shutil.which("ptxas") is None or shutil.which("nvcc") is None,
    reason="the CUDA toolkit (nvcc, ptxas) is not on the PATH",
)


@needs_toolkit
@pytest.mark.parametrize("sm", [80, 90])
def test_baselines_compile_and_assemble(sm: int, tmp_path: Path) -> None:
    ptx = cb.compile_source(sm)
    for name, kinds in cb.KERNEL_PARAMS.items():
        m = re.search(rf"\.entry {name}\(([^)]*)\)", ptx)
        assert m is not None, name
        assert m.group(1).count(".param") == len(kinds), name
    assemble(ptx, sm, tmp_path)


def test_every_suite_kernel_with_a_device_side_has_a_baseline() -> None:
    assert set(cb.CUDA_BASELINES) >= {"saxpy", "stencil2d", "black_scholes", "reduction",
                                      "sgemm", "histogram", "nbody", "launch"}  # fmt: skip


@needs_toolkit
def test_saxpy_factory_packs_the_c_abi(monkeypatch: pytest.MonkeyPatch) -> None:
    drv = FakeDriver(nparams=4)
    dev = CudaDevice(0, drv)
    monkeypatch.setattr(registry, "get_device", lambda name: dev)
    cb.baseline.cache_clear()

    def saxpy(launch: Launch) -> None:  # what the CUDA C does, on "device" memory
        a = struct.unpack("<f", launch.slots[0][:4])[0]
        px, py, n = (struct.unpack("<q", s)[0] for s in launch.slots[1:])
        x = np.frombuffer(drv.buffers[px], np.float32, n)
        y = np.frombuffer(drv.buffers[py], np.float32, n)
        y[:] = a * x + y

    drv.on_launch = saxpy
    x, y = np.arange(300, dtype=np.float32), np.ones(300, np.float32)
    impl = cb.CUDA_BASELINES["saxpy"]("cuda:0", {"a": 3.0, "x": x, "y": y})
    impl.run()
    assert impl.result is not None
    np.testing.assert_array_equal(impl.result(), 3 * x + 1)
    assert drv.launches[0].blocks == (2, 1, 1) and drv.launches[0].threads == (256, 1, 1)
    cb.baseline.cache_clear()
