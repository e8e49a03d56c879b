"""The public API (``go.array``, ``kernel[grid](...)``, ``numpy()``, bounds errors, the disk
cache) on ``cuda:0``, with the CUDA device running on the fake driver: what the runtime asks of
the CUDA backend, end to end, without a GPU. Launches run the IR interpreter."""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

import gpuoff as go
import gpuoff.runtime.devices as registry
from codegen.abi import DEVICE_RECORD_LEN, SHAPE_SLOT
from gpuoff import Array, Borrow, BorrowMut, f32
from gpuoff.ir.nodes import Module
from gpuoff.runtime.devices.cuda import CudaDevice, CudaProgram
from tests.unit.test_cuda_runtime import _interpret
from tests.unit.test_cuda_runtime_fake import FakeDriver, Launch


@go.kernel
def scale_add(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


@go.kernel
def shifted(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    y[i] = x[i + 1]


@pytest.fixture
def cuda(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[FakeDriver]:
    monkeypatch.setenv("GPUOFF_CACHE_DIR", str(tmp_path))
    drv = FakeDriver()
    dev = CudaDevice(0, drv)

    loaded: list[CudaProgram] = []
    real_load = dev.load

    def load(module: Module, artifact: bytes) -> CudaProgram:
        loaded.append(real_load(module, artifact))  # the runtime's disk-cache path
        return loaded[-1]

    monkeypatch.setattr(dev, "load", load)

    def program(function: str) -> CudaProgram:
        return next(p for p in loaded if p.function == function)

    drv.count_params = lambda function: len(program(function).packer.kinds)
    drv.on_launch = lambda launch: _interpret(drv, program(launch.function).module, launch)
    monkeypatch.setitem(registry._opened, "cuda:0", dev)
    with go.on("cuda:0"):
        yield drv
        go.synchronize()


def test_launch_through_the_public_api(cuda: FakeDriver) -> None:
    x = go.array(np.arange(1000, dtype=np.float32))
    y = go.zeros(1000, go.f32)
    for _ in range(3):
        scale_add[1000](f32(2.0), x, y)
    np.testing.assert_array_equal(y.numpy(), 6.0 * np.arange(1000, dtype=np.float32))
    assert b".entry scale_add(" in cuda.loaded[0]
    assert len(cuda.launches) == 3


def test_views_and_numpy_arguments(cuda: FakeDriver) -> None:
    base = go.array(np.arange(20, dtype=np.float32))
    out = np.zeros(10, np.float32)
    # A view (byte offset) and a NumPy BorrowMut argument (SPEC §4; the stubs want a Buffer).
    scale_add[10](f32(1.0), base[10:], out)
    np.testing.assert_array_equal(out, np.arange(10, 20, dtype=np.float32))


def test_bounds_error_from_the_device(cuda: FakeDriver) -> None:
    x = go.array(np.zeros(8, np.float32))
    y = go.zeros(8, go.f32)

    def fail(launch: Launch) -> None:
        import ctypes
        import struct

        err = struct.unpack("<Q", launch.slots[0])[0]
        assert err != 0
        rec = (ctypes.c_int64 * DEVICE_RECORD_LEN).from_address(err)
        rec[0], rec[1], rec[SHAPE_SLOT] = 1, 8, 8  # check, index, the array's extent

    cuda.on_launch = fail
    with pytest.raises(go.BoundsError, match=r"index \(8,\) out of range for x with shape \(8,\)"):
        shifted[8](x, y)
        go.synchronize()


def test_repeated_launches_take_the_repeat_path(
    cuda: FakeDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gpuoff.runtime import plan

    repeats: list[bool] = []
    real = plan.Plan.repeat

    def spy(p: plan.Plan, launch: object, rep: plan.Repeat, args: tuple[object, ...]) -> bool:
        repeats.append(real(p, launch, rep, args))
        return repeats[-1]

    monkeypatch.setattr(plan.Plan, "repeat", spy)
    cuda.not_ready = True  # launches stay in flight: their uses are recorded
    x = go.array(np.arange(1000, dtype=np.float32))
    y = go.zeros(1000, go.f32)
    a = f32(2.0)
    for _ in range(5):
        scale_add[1000](a, x, y)
    assert repeats == [True] * 4  # the first launch takes the full path
    assert len(cuda.launches) == 5
    # the repeats relaunched the packed parameters of the first launch
    assert all(launch.slots == cuda.launches[0].slots for launch in cuda.launches)
    with y.host_mut() as h:  # a change in between: the next launch checks everything again
        h[:] = 1.0
    scale_add[1000](a, x, y)
    assert repeats == [True] * 4  # the guard epoch moved: not even tried
    assert len(cuda.launches) == 6 and cuda.calls.count("HtoD") == 3  # y went back again
    cuda.not_ready = False
    want = 2.0 * np.arange(1000, dtype=np.float32) + 1.0
    np.testing.assert_array_equal(y.numpy(), want)


def test_a_kernel_with_checks_is_never_relaunched(cuda: FakeDriver) -> None:
    cuda.not_ready = True
    x = go.array(np.zeros(8, np.float32))  # x[i + 1] is out of range for the last item
    y = go.zeros(8, go.f32)
    for _ in range(3):
        shifted[8](x, y)  # keeps its check: each launch needs its own error record
    slots = {launch.slots[0] for launch in cuda.launches}
    assert len(cuda.launches) == 3 and len(slots) == 3
    cuda.not_ready = False
    go.synchronize()  # (the fake driver's interpreter writes no error records)


def test_a_launch_proven_variant_records_no_errors(cuda: FakeDriver) -> None:
    x = go.array(np.zeros(9, np.float32))  # x[i + 1] in range for every item
    y = go.zeros(8, go.f32)
    shifted[8](x, y)
    assert struct.unpack("<Q", cuda.launches[0].slots[0])[0] == 0  # no error record
    assert "DtoH" not in cuda.calls  # and no copy of one after the launch


# -- memory gpuoff does not own (docs/memory.md): the same contract as on every device --------


@go.kernel
def bump(z: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < z.shape[0]:
        z[i] = z[i] + 1.0


def test_numpy_argument_edited_between_launches(cuda: FakeDriver) -> None:
    z = np.zeros(4, np.float32)
    bump[4](z)
    z[:] = 100
    bump[4](z)
    assert z.tolist() == [101.0] * 4
    assert cuda.calls.count("HtoD") == 2  # copied in at each launch: the host may have written


def test_asarray_memory_is_written_through_and_claimed_back(cuda: FakeDriver) -> None:
    a = np.zeros(8, np.float32)
    b = go.asarray(a)
    bump[8](b)
    go.synchronize()
    assert a.tolist() == [1.0] * 8  # the launch's write reached the owner
    a[:] = 10
    bump[8](b)
    go.synchronize()
    assert a.tolist() == [11.0] * 8  # the owner's write reached the launch
    assert cuda.calls.count("HtoD") == 2 and cuda.calls.count("DtoH") == 2


def test_dlpack_export_is_coherent_with_its_consumer(cuda: FakeDriver) -> None:
    b = go.zeros(4, go.f32)
    bump[4](b)
    view = np.from_dlpack(b)
    bump[4](b)
    go.synchronize()
    assert view.tolist() == [2.0] * 4
    view[:] = 5
    bump[4](b)
    go.synchronize()
    assert view.tolist() == [6.0] * 4
    del view
    import gc

    gc.collect()  # the export is gone: after one more claim the buffer is gpuoff's alone
    bump[4](b)
    go.synchronize()
    before = cuda.calls.count("HtoD")
    bump[4](b)
    assert b.numpy().tolist() == [8.0] * 4
    assert cuda.calls.count("HtoD") == before  # resident on the device again


def test_numpy_argument_keeps_in_range_writes_of_a_failed_launch(cuda: FakeDriver) -> None:
    x = np.arange(8, dtype=np.float32)
    y = np.full(8, -1.0, np.float32)

    def run_then_fail(launch: Launch) -> None:
        import ctypes

        real(launch)  # the interpreter: in-range writes done, the out-of-range one skipped
        err = struct.unpack("<Q", launch.slots[0])[0]
        rec = (ctypes.c_int64 * DEVICE_RECORD_LEN).from_address(err)
        rec[0], rec[1], rec[SHAPE_SLOT] = 1, 8, 8  # check, index, the array's extent

    real: Callable[[Launch], None] = cuda.on_launch  # type: ignore[assignment]
    cuda.on_launch = run_then_fail
    with pytest.raises(go.BoundsError):
        shifted[8](x, y)
    assert y.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 0.0]  # x[8] reads as 0


# -- launch limits (docs/memory.md's neighbour: what a launch may ask of the device) ---------


@go.kernel
def with_shared(x: BorrowMut[Array[f32]]) -> None:
    tile = go.shared(16384, go.f32)  # 64 KiB: over the 48 KiB of static shared memory
    i = go.local_id(0)
    tile[i] = x[go.global_id(0)]
    go.barrier()
    x[go.global_id(0)] = tile[i]


def test_limits_are_the_devices(cuda: FakeDriver) -> None:
    limits = registry.get_device("cuda:0").limits()
    assert limits.max_block_items == 1024 and limits.max_block == (1024, 1024, 64)
    assert limits.max_groups == (2**31 - 1, 65535, 65535) and limits.shared_bytes == 48 << 10


def test_shared_memory_over_the_limit_is_a_compile_error(cuda: FakeDriver) -> None:
    x = go.zeros(64, go.f32)
    with pytest.raises(go.CompileError, match=r"shared array 'tile' takes 64 KiB; cuda:0 "
                       r"offers 48 KiB"):  # fmt: skip
        with_shared[(64,), (64,)](x)
    assert not cuda.launches


def test_blocks_and_grids_beyond_the_device(cuda: FakeDriver) -> None:
    x = go.zeros(64, go.f32)
    with pytest.raises(go.LaunchConfigError, match="cuda:0 allows at most 1024 per work-group"):
        bump[(2048,), (2048,)](x)
    with pytest.raises(go.LaunchConfigError, match="at most 64 work-items along dimension 2"):
        bump[(1, 1, 128), (1, 1, 128)](x)
    with pytest.raises(go.LaunchConfigError, match="CUDA allows at most 2147483647"):
        bump[2**40](x)  # in the default blocks of 256: 2**32 of them
    assert not cuda.launches
