"""The CUDA runtime's logic that needs no GPU: discovery without a driver, error translation,
launch geometry, argument packing, copies, module loading and bounds-error reporting, driven
through a fake driver whose launches run the IR interpreter on the decoded parameters."""

from __future__ import annotations

import ctypes
import struct
import sys
from typing import Any

import numpy as np
import pytest

import gpuoff.runtime.devices.cuda as cu
from codegen.abi import DEVICE_RECORD_LEN, SHAPE_SLOT
from codegen.nvptx import ptx_params
from gpuoff.errors import BoundsError, CompileError, DeviceError
from gpuoff.ir import interp
from gpuoff.ir import nodes as n
from gpuoff.ir.types import ArrayType, f32
from gpuoff.runtime.devices.base import Allocation, ArrayArg, DoneEvent, Event, LaunchArg
from tests.unit import irbuild
from tests.unit.test_cuda_runtime_fake import FakeDriver, Launch

# --------------------------------------------------------------------------------------------
# Discovery and errors
# --------------------------------------------------------------------------------------------


def test_no_driver_is_an_unavailable_entry_not_an_error() -> None:
    [info] = cu.discover(FakeDriver(init_raises=True))
    assert (info.name, info.backend, info.available) == ("cuda", "cuda", False)
    assert info.reason == "no NVIDIA driver found"


def test_real_bindings_without_driver_library() -> None:
    infos = cu.discover()  # the installed cuda-python; this machine may lack a driver
    try:
        from cuda.bindings import driver

        driver.cuInit(0)
        has_driver = True
    except Exception:  # noqa: BLE001 - the loader error this test is about
        has_driver = False
    if has_driver:
        assert all(i.backend == "cuda" for i in infos)
    else:
        assert [(i.available, i.reason) for i in infos] == [(False, cu.NO_DRIVER)]


def test_missing_bindings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cuda.bindings", None)
    [info] = cu.discover()
    assert not info.available and "cuda-python is not installed" in info.reason


@pytest.mark.parametrize(
    ("code", "reason"),
    [(100, "no CUDA device found"), (999, "CUDA_ERROR_UNKNOWN (description of 999)")],
)
def test_init_failures(code: int, reason: str) -> None:
    [info] = cu.discover(FakeDriver(init_result=code))
    assert not info.available and reason in info.reason


def test_zero_devices() -> None:
    [info] = cu.discover(FakeDriver(devices=0))
    assert not info.available and info.reason == cu.NO_DEVICE


def test_devices_are_listed() -> None:
    infos = cu.discover(FakeDriver(devices=2))
    assert [i.name for i in infos] == ["cuda:0", "cuda:1"]
    assert all(i.available and i.kind == "gpu" for i in infos)
    assert "Fake H200, sm_90, 132 SMs, 141 GiB, driver 13.0" == infos[0].description


def test_check_translates_error_codes() -> None:
    drv = FakeDriver()
    assert cu.check(drv, (0, 42), "cuX") == 42
    assert cu.check(drv, (0,), "cuX") is None
    with pytest.raises(DeviceError, match=r"cuda:3: cuMemAlloc failed: CUDA_ERROR_UNKNOWN"):
        cu.check(drv, (999, 0), "cuMemAlloc", "cuda:3")


def test_open_device_names() -> None:
    assert cu.open_device("cuda", FakeDriver()).name == "cuda:0"
    assert cu.open_device("cuda:1", FakeDriver(devices=2)).name == "cuda:1"
    with pytest.raises(ValueError, match="not a CUDA device name"):
        cu.open_device("cuda:x", FakeDriver())
    with pytest.raises(DeviceError, match="cuda:0 is unavailable: no NVIDIA driver found"):
        cu.open_device("cuda:0", FakeDriver(init_raises=True))
    with pytest.raises(DeviceError, match="cuDeviceGet failed"):
        cu.open_device("cuda:5", FakeDriver())


@pytest.mark.parametrize(("cc", "sm"), [((9, 0), 90), ((8, 6), 86), ((12, 0), 90), ((7, 5), 75)])
def test_ptx_target(cc: tuple[int, int], sm: int) -> None:
    assert cu.ptx_target(*cc) == sm
    assert cu.CudaDevice(0, FakeDriver(capability=cc)).sm == sm


def test_too_old_gpu() -> None:
    with pytest.raises(DeviceError, match="too old"):
        cu.ptx_target(3, 5)


# --------------------------------------------------------------------------------------------
# Launch geometry
# --------------------------------------------------------------------------------------------


def test_default_block_covers_the_grid() -> None:
    assert cu.launch_dims((1000, 1, 1), None) == ((4, 1, 1), (256, 1, 1))
    assert cu.launch_dims((5, 1, 1), None) == ((1, 1, 1), (8, 1, 1))
    assert cu.launch_dims((100, 100, 1), None) == ((4, 13, 1), (32, 8, 1))
    assert cu.launch_dims((64, 64, 64), None) == ((2, 8, 64), (32, 8, 1))
    assert cu.launch_dims((1, 1, 1), None) == ((1, 1, 1), (1, 1, 1))


def test_default_block_respects_the_kernel_limit() -> None:
    assert cu.launch_dims((4096, 1, 1), None, max_threads=64)[1] == (64, 1, 1)


def test_uniform_default_block_divides_the_grid() -> None:
    blocks, threads = cu.launch_dims((1000, 1, 1), None, uniform=True)
    assert threads == (250, 1, 1) and blocks == (4, 1, 1)
    assert cu.launch_dims((1000, 6, 1), None, uniform=True) == ((40, 1, 1), (25, 6, 1))
    assert cu.launch_dims((7919, 1, 1), None, uniform=True)[1] == (1, 1, 1)  # a prime


def test_explicit_block() -> None:
    assert cu.launch_dims((64, 32, 1), (16, 16, 1)) == ((4, 2, 1), (16, 16, 1))
    with pytest.raises(ValueError, match=r"not a multiple of block \(16, 16\) in dimension 1"):
        cu.launch_dims((64, 30, 1), (16, 16, 1))
    with pytest.raises(ValueError, match="at most 512"):
        cu.launch_dims((1024, 1, 1), (1024, 1, 1), max_threads=512)
    with pytest.raises(ValueError, match="positive"):
        cu.launch_dims((8, 1, 1), (0, 1, 1))


def test_grid_limits() -> None:
    with pytest.raises(ValueError, match="at most 65535"):
        cu.launch_dims((1, 65536 * 256, 1), (1, 1, 1))
    with pytest.raises(ValueError, match="non-negative"):
        cu.launch_dims((-1, 1, 1), None)


def test_uniform_groups_detection() -> None:
    assert not cu.needs_uniform_groups(irbuild.saxpy())
    k = irbuild.kernel("k", [], [n.Barrier()])
    assert cu.needs_uniform_groups(n.Module(k))
    k2 = irbuild.kernel("k", [], [n.ExprStmt(irbuild.wi("local_id"))])
    assert cu.needs_uniform_groups(n.Module(k2))


# --------------------------------------------------------------------------------------------
# Argument packing
# --------------------------------------------------------------------------------------------


def _slots(packer: cu.ArgPacker) -> list[bytes]:
    ptrs = (ctypes.c_void_p * len(packer.kinds)).from_address(packer.kernel_params)
    return [ctypes.string_at(p or 0, 8) for p in ptrs]


def test_packing_follows_the_c_abi() -> None:
    alloc = Allocation(0x10000, 4096)
    kinds = ["ptr", "i64", "i64", "i64", "f32", "ptr", "i64", "i64", "i64", "i64", "u8", "bool"]
    packer = cu.ArgPacker(kinds, [None, (2, True), None, None])
    view = ArrayArg(alloc, 64, (3, 5), (1, 3))
    addr = packer.pack(0xE000, (7, 1, 1), [2.5, view, 255, True])
    assert addr == packer.kernel_params
    slots = _slots(packer)
    assert struct.unpack("<Q", slots[0])[0] == 0xE000
    assert [struct.unpack("<q", s)[0] for s in slots[1:4]] == [7, 1, 1]
    assert struct.unpack("<f", slots[4][:4])[0] == 2.5
    assert struct.unpack("<Q", slots[5])[0] == 0x10000 + 64  # the view's first element
    assert [struct.unpack("<q", s)[0] for s in slots[6:10]] == [3, 5, 1, 3]
    assert slots[10][0] == 255 and slots[11][0] == 1


def test_contiguous_arrays_pass_no_strides() -> None:
    packer = cu.ArgPacker(["ptr", "i64", "i64", "i64", "ptr", "i64"], [(1, False)])
    values = packer.values(0, (4, 1, 1), [ArrayArg(Allocation(100, 16), 0, (4,), (1,))])
    assert values == [0, 4, 1, 1, 100, 4]


def test_packing_rejects_mismatches() -> None:
    packer = cu.ArgPacker(["ptr", "i64", "i64", "i64", "u8"], [None])
    with pytest.raises(DeviceError, match="does not fit"):
        packer.pack(0, (1, 1, 1), [300])
    with pytest.raises(DeviceError, match="1 parameters"):
        packer.pack(0, (1, 1, 1), [1, 2])
    view = ArrayArg(Allocation(0, 4), 0, (1,), (1,))
    with pytest.raises(DeviceError, match="array was passed for a scalar"):
        packer.pack(0, (1, 1, 1), [view])
    arrays = cu.ArgPacker(["ptr", "i64", "i64", "i64", "ptr", "i64", "i64"], [(2, False)])
    with pytest.raises(DeviceError, match="2-d array"):
        arrays.pack(0, (1, 1, 1), [view])


def test_cuda_array_interface() -> None:
    d = np.dtype(np.float32)
    cai = cu.cuda_array_interface(0x1000, (4, 3), (3, 1), d)
    assert cai == {"shape": (4, 3), "typestr": "<f4", "data": (0x1000, False), "strides": None,
                   "version": 3, "stream": None}  # fmt: skip
    assert cu.cuda_array_interface(0x1000, (4,), (3,), d, readonly=True)["strides"] == (12,)
    assert cu.cuda_array_interface(0x1000, (4,), (3,), d, readonly=True)["data"][1] is True


# --------------------------------------------------------------------------------------------
# A device on the fake driver: copies, compile, launch through the IR interpreter
# --------------------------------------------------------------------------------------------


def _interpret(drv: FakeDriver, module: n.Module, launch: Launch) -> None:
    """Run ``module`` on the arguments decoded from the packed slots, in 'device' memory."""
    params = ptx_params(module)
    fmt = {"ptr": "<Q", "i64": "<q", "f32": "<f", "f64": "<d", "i32": "<i", "u32": "<I",
           "u8": "<B", "bool": "<?", "f16": "<e"}  # fmt: skip
    vals = [struct.unpack(fmt[p.kind], s[: struct.calcsize(fmt[p.kind])])[0]
            for p, s in zip(params, launch.slots, strict=True)]  # fmt: skip
    grid = tuple(vals[1:4])
    args: list[Any] = []
    k = 4
    for p in module.kernel.params:
        if isinstance(p.type, ArrayType):
            nd, dt = p.type.ndim, p.type.dtype.np_dtype
            ptr, shape = vals[k], tuple(vals[k + 1 : k + 1 + nd])
            k += 1 + nd
            if p.type.contiguous:
                strides = [1] * nd
                for d in range(nd - 2, -1, -1):
                    strides[d] = strides[d + 1] * shape[d + 1]
            else:
                strides = list(vals[k : k + nd])
                k += nd
            base = next(a for a in drv.buffers if a <= ptr < a + len(drv.buffers[a]))
            mem = np.frombuffer(drv.buffers[base], np.uint8)
            args.append(np.ndarray(shape, dt, mem, ptr - base, [s * dt.itemsize for s in strides]))
        else:
            args.append(vals[k])
            k += 1
    # The launch's blocks when they tile the grid exactly (groups matter); else the default.
    nd = max([d + 1 for d in range(3) if grid[d] > 1 or launch.threads[d] > 1] or [1])
    block = tuple(launch.threads[:nd])
    tiles = all(grid[d] % block[d] == 0 for d in range(nd))
    try:
        interp.run(module, args, grid[:nd], block if tiles else None)
    except BoundsError:
        pass  # the test that needs an error record writes it itself


def _device(module: n.Module, **kw: Any) -> tuple[cu.CudaDevice, FakeDriver]:
    drv = FakeDriver(nparams=len(ptx_params(module)), **kw)
    drv.on_launch = lambda launch: _interpret(drv, module, launch)
    return cu.CudaDevice(0, drv), drv


def test_saxpy_end_to_end() -> None:
    module = irbuild.saxpy()
    dev, drv = _device(module)
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, dtype=np.float32)
    ax, ay = dev.allocate(x.nbytes), dev.allocate(y.nbytes)
    dev.copy_from_host(ax, 0, x, []).wait()
    ev = dev.copy_from_host(ay, 0, y, [DoneEvent()])
    program = dev.compile(module)
    assert dev.compile(module) is program  # in-memory cache
    assert b".entry saxpy(" in drv.loaded[0]
    args: list[LaunchArg] = [2.0, ArrayArg(ax, 0, (1000,), (1,)), ArrayArg(ay, 0, (1000,), (1,))]
    done = dev.launch(program, args, (1000, 1, 1), None, [ev])
    assert drv.launches[-1].blocks == (4, 1, 1) and drv.launches[-1].threads == (256, 1, 1)
    done.wait()
    assert done.done()
    out = np.empty_like(y)
    dev.copy_to_host(out, ay, 0, [done]).wait()
    np.testing.assert_array_equal(out, 2.0 * x + 1.0)
    dev.synchronize()
    dev.free(ax)
    assert int(ax.handle) not in drv.buffers


def test_views_pass_their_offset() -> None:
    module = irbuild.saxpy()
    dev, drv = _device(module)
    buf = dev.allocate(4 * 16)
    data = np.arange(16, dtype=np.float32)
    dev.copy_from_host(buf, 0, data, [])
    program = dev.compile(module)
    view_x = ArrayArg(buf, 0, (8,), (1,))
    view_y = ArrayArg(buf, 32, (8,), (1,))  # second half: y[i] = 1 * x[i] + y[i]
    dev.launch(program, [1.0, view_x, view_y], (8, 1, 1), None, []).wait()
    out = np.empty(16, np.float32)
    dev.copy_to_host(out, buf, 0, []).wait()
    np.testing.assert_array_equal(out[8:], data[:8] + data[8:])


def test_large_copies_are_staged_in_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cu, "STAGING_MIN", 1024)
    monkeypatch.setattr(cu, "STAGING_CHUNK", 1000)
    dev, drv = _device(irbuild.saxpy())
    data = np.random.default_rng(0).integers(0, 255, 4500, dtype=np.uint8)
    alloc = dev.allocate(data.nbytes)
    dev.copy_from_host(alloc, 0, data, []).wait()
    assert drv.calls.count("HtoD") == 5
    out = np.zeros_like(data)
    dev.copy_to_host(out, alloc, 0, []).wait()
    assert drv.calls.count("DtoH") == 5
    np.testing.assert_array_equal(out, data)


def test_empty_grid_launches_nothing() -> None:
    module = irbuild.saxpy()
    dev, drv = _device(module)
    a = dev.allocate(4)
    arg = ArrayArg(a, 0, (0,), (1,))
    dev.launch(dev.compile(module), [1.0, arg, arg], (0, 1, 1), None, []).wait()
    assert drv.launches == []


def test_bounds_error_surfaces_from_the_event() -> None:
    module = irbuild.saxpy(guarded=False)
    dev, drv = _device(module)
    ax, ay = dev.allocate(16), dev.allocate(16)
    program = dev.compile(module)
    assert program.checked

    def fail(launch: Launch) -> None:
        err = struct.unpack("<Q", launch.slots[0])[0]
        rec = (ctypes.c_int64 * DEVICE_RECORD_LEN).from_address(err)
        rec[0], rec[1], rec[SHAPE_SLOT] = 1, 7, 4  # check 1 (x[i]), index 7, x's extent 4

    drv.on_launch = fail
    args: list[LaunchArg] = [2.0, ArrayArg(ax, 0, (4,), (1,)), ArrayArg(ay, 0, (4,), (1,))]
    ev = dev.launch(program, args, (8, 1, 1), None, [])
    with pytest.raises(BoundsError, match=r"index \(7,\) out of range for x with shape \(4,\)"):
        ev.wait()
    ev.wait()  # raised once, as by every device's event: the runtime reports it once
    drv.on_launch = None
    dev.launch(program, args, (4, 1, 1), None, []).wait()  # the record was cleared


def test_error_slots_are_recycled() -> None:
    module = irbuild.saxpy()
    dev, drv = _device(module)
    drv.on_launch = None
    a = dev.allocate(16)
    args: list[LaunchArg] = [1.0, ArrayArg(a, 0, (4,), (1,)), ArrayArg(a, 0, (4,), (1,))]
    program = dev.compile(module)
    for _ in range(3 * cu.ERR_SLOTS):
        dev.launch(program, args, (4, 1, 1), None, [])  # never waited: harvested by sweeps
    assert len(dev.errors.chunks) == 1


def test_unchecked_kernels_pass_a_null_error_pointer() -> None:
    m = irbuild.saxpy()
    module = n.Module(m.kernel, m.functions, m.checks, boundscheck=False)
    dev, drv = _device(module)
    drv.on_launch = None
    a = dev.allocate(16)
    args: list[LaunchArg] = [1.0, ArrayArg(a, 0, (4,), (1,)), ArrayArg(a, 0, (4,), (1,))]
    dev.launch(dev.compile(module), args, (4, 1, 1), None, []).wait()
    assert struct.unpack("<Q", drv.launches[0].slots[0])[0] == 0
    assert "DtoH" not in drv.calls


def test_jit_failure_is_a_compile_error() -> None:
    dev, _ = _device(irbuild.saxpy(), jit_error="ptxas fatal: Unresolved extern function 'foo'")
    with pytest.raises(CompileError, match=r"(?s)rejected the PTX of kernel 'saxpy'.*foo"):
        dev.compile(irbuild.saxpy())


def test_out_of_memory() -> None:
    dev, _ = _device(irbuild.saxpy(), memory_limit=1024)
    with pytest.raises(DeviceError, match="out of device memory allocating 4096 bytes"):
        dev.allocate(4096)


def test_disk_cache_hooks_round_trip() -> None:
    module = irbuild.saxpy()
    dev, drv = _device(module)
    assert dev.cache_key().startswith("cuda|sm_90|")
    ptx = dev.build(module)
    program = dev.load(module, ptx)
    assert program.ptx == ptx.decode() and len(drv.loaded) == 1
    dev.load(module, ptx)
    assert len(drv.loaded) == 1  # same PTX: the loaded module is reused


def test_ordering_on_foreign_events() -> None:
    dev, drv = _device(irbuild.saxpy())
    other, _ = _device(irbuild.saxpy())

    class Failed(Event):
        def wait(self) -> None:
            raise BoundsError("reported by its owner")

        def done(self) -> bool:
            return True

    drv.not_ready = True
    foreign = other.copy_from_host(other.allocate(4), 0, np.zeros(1, np.float32), [])
    dev.copy_from_host(dev.allocate(4), 0, np.zeros(1, np.float32), [Failed(), foreign])
    assert "cuStreamWaitEvent" in drv.calls
    ev = dev.copy_from_host(dev.allocate(4), 0, np.zeros(1, np.float32), [])
    assert not ev.done()


def test_context_is_made_current_once_per_thread() -> None:
    dev, drv = _device(irbuild.saxpy())
    before = drv.calls.count("cuCtxSetCurrent")
    for _ in range(5):
        dev.allocate(8)
    assert drv.calls.count("cuCtxSetCurrent") == before


def test_bounds_message_for_shared_arrays_and_device_functions() -> None:
    module = irbuild.module(
        irbuild.kernel("k", [], []),
        checks=[irbuild.check(1, "xs", function="helper"), irbuild.check(2, "x", function="k")],
    )
    err = cu.bounds_error(module, [1, 3, 0], [])
    assert "function helper (called from kernel k)" in str(err)
    assert isinstance(err, IndexError)
    assert f32.name == "f32"
