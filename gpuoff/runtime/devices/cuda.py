"""The CUDA backend: PTX from ``codegen.nvptx``, loaded and launched through cuda-python.

Public names (the device registry calls these):

* ``discover(driver=None) -> list[DeviceInfo]`` (from ``cuda_driver``, with the driver
  loading and error translation): one ``cuda:N`` per device, or one unavailable
  ``cuda`` line with the reason (no cuda-python, no NVIDIA driver, no device). Never raises.
* ``open_device(name)`` / ``CudaDevice(ordinal=0, driver=None)``: the ``Device`` for
  ``cuda:N`` (primary context, one non-blocking stream, a module cache, pinned staging
  buffers, a pool of error records).
* re-exported from ``cuda_launch`` (pure): ``launch_dims(grid, block, max_threads,
  uniform)``, the launch geometry; ``ArgPacker``; ``cuda_array_interface(...)``, the
  ``__cuda_array_interface__`` dict of a device view; ``bounds_error``.

Everything that needs no GPU (argument packing, launch geometry, error translation, discovery
without a driver) works against any object with the driver's function names, so the unit tests
drive it with a fake. ``driver`` is ``cuda.bindings.driver`` unless one is passed in.
"""

from __future__ import annotations

import ctypes
import hashlib
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gpuoff.errors import (
    BarrierError,
    BoundsError,
    CompileError,
    DeviceError,
    GpuoffError,
    OutOfMemoryError,
)
from gpuoff.ir.nodes import Module
from gpuoff.ir.types import ArrayType
from gpuoff.runtime.devices.base import (
    Allocation,
    ArrayArg,
    Device,
    DeviceInfo,
    Event,
    LaunchArg,
    Limits,
    Program,
    Relaunch,
)
from gpuoff.runtime.devices.cuda_driver import (
    NO_BINDINGS,
    NO_DEVICE,
    NO_DRIVER,
    Unavailable,
    capability,
    check,
    discover,
    error_text,
    load_driver,
    ptx_target,
)
from gpuoff.runtime.devices.cuda_launch import (
    SLOT_FORMAT,
    ArgPacker,
    bounds_error,
    cuda_array_interface,
    launch_dims,
    needs_uniform_groups,
)

STAGING_MIN = 1 << 20  # below this, the driver's own staging of pageable memory is as fast
STAGING_CHUNK = 8 << 20
ERR_SLOTS = 256


# --------------------------------------------------------------------------------------------
# The device
# --------------------------------------------------------------------------------------------


@dataclass
class CudaProgram(Program):
    """A kernel loaded on one CUDA device for one signature."""

    module: Module
    ptx: str
    function: Any  # CUfunction
    packer: ArgPacker
    max_threads: int
    uniform: bool
    checked: bool
    geometry: dict[Any, Any] = field(default_factory=dict)  # (grid, block) -> launch_dims
    # (blocks, threads, kernelParams) of the previous launch, for ``CudaDevice.relaunch``
    last: tuple[Any, Any, int] | None = None

    def dims(
        self, grid: tuple[int, int, int], block: tuple[int, int, int] | None
    ) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        """``launch_dims`` for this kernel, memoised (warm launches repeat their grid)."""
        key = (grid, block)
        dims = self.geometry.get(key)
        if dims is None:
            dims = self.geometry[key] = launch_dims(grid, block, self.max_threads, self.uniform)
        return dims


class CudaEvent(Event):
    """A CUDA event recorded after a launch or copy; owns the launch's error-record slot."""

    def __init__(
        self,
        device: CudaDevice,
        event: Any,
        slot: int | None = None,
        program: CudaProgram | None = None,
        args: Sequence[LaunchArg] = (),
        keep: Any = None,
    ) -> None:
        self.device = device
        self.event = event
        self.slot = slot
        self.program = program
        self.args = tuple(args)
        self.keep = keep  # host memory the copy reads or writes: alive until done
        self.error: GpuoffError | None = None
        self.finished = False

    def _finish(self) -> None:
        with self.device.lock:  # one harvest per slot, whichever thread sees completion first
            if self.finished:
                return
            self.finished = True
            if self.slot is not None and self.program is not None:
                record = self.device.errors.harvest(self.slot)
                if record is not None:
                    self.error = bounds_error(self.program.module, record, self.args)
            self.keep = None

    def wait(self) -> None:
        if not self.finished:
            self.device.current()
            check(
                self.device.drv,
                self.device.drv.cuEventSynchronize(self.event),
                "cuEventSynchronize",
                self.device.name,
            )
            self._finish()
        if self.error is not None:  # raised once, as on every device
            error, self.error = self.error, None
            raise error

    def done(self) -> bool:
        if self.finished:
            return True
        self.device.current()
        err = self.device.drv.cuEventQuery(self.event)[0]
        if int(err) == 600:  # CUDA_ERROR_NOT_READY
            return False
        check(self.device.drv, (err,), "cuEventQuery", self.device.name)
        self._finish()
        return True

    def __del__(self) -> None:
        try:
            self.device.drv.cuEventDestroy(self.event)
        except Exception:  # noqa: BLE001 - interpreter shutdown: the driver may be gone
            pass


class ErrorRecords:
    """Device memory for per-launch bounds-error records, mirrored into pinned host memory by
    an async copy queued after each checked launch. A slot is zero while free."""

    def __init__(self, device: CudaDevice) -> None:
        self.device = device
        self.chunks: list[tuple[int, int]] = []  # (device pointer, pinned host pointer)
        self.free: list[int] = []
        from codegen.abi import DEVICE_RECORD_LEN

        self.nbytes = 8 * DEVICE_RECORD_LEN  # the record, its key and its lock (codegen.abi)

    def take(self) -> int:
        if not self.free:
            self._grow()
        return self.free.pop()

    def addresses(self, slot: int) -> tuple[int, int]:
        dev, host = self.chunks[slot // ERR_SLOTS]
        off = (slot % ERR_SLOTS) * self.nbytes
        return dev + off, host + off

    def harvest(self, slot: int) -> list[int] | None:
        """Read a finished launch's record, zero it, release the slot."""
        dev, host = self.addresses(slot)
        record = list((ctypes.c_int64 * (self.nbytes // 8)).from_address(host))
        if record[0]:
            ctypes.memset(host, 0, self.nbytes)
            d = self.device
            check(d.drv, d.drv.cuMemsetD8(dev, 0, self.nbytes), "cuMemsetD8", d.name)
        self.free.append(slot)
        return record if record[0] else None

    def _grow(self) -> None:
        d = self.device
        size = ERR_SLOTS * self.nbytes
        dev = int(check(d.drv, d.drv.cuMemAlloc(size), "cuMemAlloc", d.name))
        check(d.drv, d.drv.cuMemsetD8(dev, 0, size), "cuMemsetD8", d.name)
        host = int(check(d.drv, d.drv.cuMemHostAlloc(size, 0), "cuMemHostAlloc", d.name))
        ctypes.memset(host, 0, size)
        base = len(self.chunks) * ERR_SLOTS
        self.chunks.append((dev, host))
        self.free.extend(range(base + ERR_SLOTS - 1, base - 1, -1))


class CudaDevice(Device, Relaunch["CudaProgram"]):
    """``cuda:N``: the device's primary context and one non-blocking stream. Work is queued
    in order on that stream; ``wait_for`` events from elsewhere are waited on first."""

    backend = "cuda"
    host_memory = False

    def __init__(self, ordinal: int = 0, driver: Any = None) -> None:
        try:
            self.drv = load_driver(driver)
        except Unavailable as e:
            raise DeviceError(f"cuda:{ordinal} is unavailable: {e}") from e
        self.name = f"cuda:{ordinal}"
        self.ordinal = ordinal
        self.dev = self._check(self.drv.cuDeviceGet(ordinal), "cuDeviceGet")
        self.sm = ptx_target(*capability(self.drv, self.dev))
        self.context = self._check(self.drv.cuDevicePrimaryCtxRetain(self.dev), "cuCtxRetain")
        self._local = threading.local()
        self.current()
        flags = self.drv.CUstream_flags.CU_STREAM_NON_BLOCKING
        self.stream = self._check(self.drv.cuStreamCreate(flags), "cuStreamCreate")
        self.lock = threading.RLock()
        self.errors = ErrorRecords(self)
        self._limits = self._query_limits()
        self.pending: list[CudaEvent] = []  # checked launches not yet harvested
        self.programs: dict[str, CudaProgram] = {}
        self.modules: dict[str, tuple[Any, Any]] = {}  # sha256(ptx) -> (CUmodule, CUfunction)
        self._staging: list[tuple[int, Any]] = []  # (pinned pointer, event of its last use)

    def _check(self, result: Any, what: str) -> Any:
        return check(self.drv, result, what, self.name)

    def _query_limits(self) -> Limits:
        """The device's block, grid and shared-memory limits (CUDA's documented values for
        compute capability 5.0 and later where the driver does not say)."""

        def attribute(name: str, default: int) -> int:
            code = getattr(self.drv.CUdevice_attribute, f"CU_DEVICE_ATTRIBUTE_{name}", None)
            if code is None:
                return default
            result = self.drv.cuDeviceGetAttribute(code, self.dev)
            return int(result[1]) if int(result[0]) == 0 else default

        return Limits(
            max_block_items=attribute("MAX_THREADS_PER_BLOCK", 1024),
            max_block=(attribute("MAX_BLOCK_DIM_X", 1024), attribute("MAX_BLOCK_DIM_Y", 1024),
                       attribute("MAX_BLOCK_DIM_Z", 64)),
            max_groups=(attribute("MAX_GRID_DIM_X", 2**31 - 1),
                        attribute("MAX_GRID_DIM_Y", 65535), attribute("MAX_GRID_DIM_Z", 65535)),
            shared_bytes=attribute("MAX_SHARED_MEMORY_PER_BLOCK", 48 << 10),
        )  # fmt: skip

    def limits(self) -> Limits:
        return self._limits

    def current(self) -> None:
        """Make this device's context current on the calling thread (once per thread)."""
        if getattr(self._local, "bound", False):
            return
        self._check(self.drv.cuCtxSetCurrent(self.context), "cuCtxSetCurrent")
        self._local.bound = True

    # -- memory ---------------------------------------------------------------------------

    def allocate(self, nbytes: int) -> Allocation:
        self.current()
        result = self.drv.cuMemAlloc(max(nbytes, 1))
        if int(result[0]) == 2:  # CUDA_ERROR_OUT_OF_MEMORY
            raise OutOfMemoryError(f"{self.name}: out of device memory allocating {nbytes} "
                                   "bytes")  # fmt: skip
        return Allocation(int(self._check(result, "cuMemAlloc")), nbytes)

    def free(self, allocation: Allocation) -> None:
        self.current()
        self._check(self.drv.cuMemFree(allocation.handle), "cuMemFree")

    def _event(self, **kw: Any) -> CudaEvent:
        flags = self.drv.CUevent_flags.CU_EVENT_DISABLE_TIMING
        ev = self._check(self.drv.cuEventCreate(flags), "cuEventCreate")
        self._check(self.drv.cuEventRecord(ev, self.stream), "cuEventRecord")
        return CudaEvent(self, ev, **kw)

    def _order(self, wait_for: Sequence[Event]) -> None:
        for e in wait_for:
            if isinstance(e, CudaEvent):
                if e.device is not self and not e.finished:
                    self._check(
                        self.drv.cuStreamWaitEvent(self.stream, e.event, 0), "cuStreamWaitEvent"
                    )
                continue  # same stream: already ordered
            try:
                e.wait()
            except (BoundsError, BarrierError):
                pass  # reported by that event's owner; here it only orders

    def _stage(self, k: int) -> int:
        """Pinned staging buffer ``k`` (0 or 1), after its previous copy has finished."""
        while len(self._staging) <= k:
            ptr = self._check(self.drv.cuMemHostAlloc(STAGING_CHUNK, 0), "cuMemHostAlloc")
            self._staging.append((int(ptr), None))
        ptr, ev = self._staging[k]
        if ev is not None:
            ev.wait()
        return ptr

    def copy_from_host(
        self, dst: Allocation, dst_offset: int, src: np.ndarray[Any, Any], wait_for: Sequence[Event]
    ) -> Event:
        self.current()
        with self.lock:
            self._order(wait_for)
            base, n = int(dst.handle) + dst_offset, src.nbytes
            if n < STAGING_MIN:
                # Pageable source: the driver stages it before returning, so src may go.
                self._check(
                    self.drv.cuMemcpyHtoDAsync(base, src.ctypes.data, n, self.stream),
                    "cuMemcpyHtoDAsync",
                )
                return self._event()
            flat = src.reshape(-1).view(np.uint8)
            for i, off in enumerate(range(0, n, STAGING_CHUNK)):
                k, m = i % 2, min(STAGING_CHUNK, n - off)
                ptr = self._stage(k)  # host fills one buffer while the DMA drains the other
                ctypes.memmove(ptr, flat[off:].ctypes.data, m)
                self._check(
                    self.drv.cuMemcpyHtoDAsync(base + off, ptr, m, self.stream), "cuMemcpyHtoDAsync"
                )
                self._staging[k] = (ptr, self._event())
            return self._event()

    def copy_to_host(
        self, dst: np.ndarray[Any, Any], src: Allocation, src_offset: int, wait_for: Sequence[Event]
    ) -> Event:
        self.current()
        with self.lock:
            self._order(wait_for)
            base, n = int(src.handle) + src_offset, dst.nbytes
            if n < STAGING_MIN:
                # Pageable destination: the call returns once the bytes have landed.
                self._check(
                    self.drv.cuMemcpyDtoHAsync(dst.ctypes.data, base, n, self.stream),
                    "cuMemcpyDtoHAsync",
                )
                return self._event(keep=dst)
            flat = dst.reshape(-1).view(np.uint8)
            queued: list[tuple[int, int, int, CudaEvent]] = []
            for i, off in enumerate(range(0, n, STAGING_CHUNK)):
                k, m = i % 2, min(STAGING_CHUNK, n - off)
                if len(queued) == 2:
                    self._drain(flat, queued.pop(0))
                ptr = self._stage(k)
                self._check(
                    self.drv.cuMemcpyDtoHAsync(ptr, base + off, m, self.stream), "cuMemcpyDtoHAsync"
                )
                ev = self._event()
                self._staging[k] = (ptr, ev)
                queued.append((ptr, off, m, ev))
            for q in queued:
                self._drain(flat, q)
            return self._event()

    @staticmethod
    def _drain(flat: np.ndarray[Any, Any], q: tuple[int, int, int, CudaEvent]) -> None:
        ptr, off, m, ev = q
        ev.wait()
        ctypes.memmove(flat[off:].ctypes.data, ptr, m)

    # -- compile and launch ---------------------------------------------------------------

    def cache_key(self) -> str:
        """PTX depends on the target ``sm`` and the LLVM that made it."""
        import llvmlite

        return f"cuda|sm_{self.sm}|llvmlite {llvmlite.__version__}"

    def build(self, module: Module) -> bytes:
        """The PTX text of ``module`` for this device (the disk-cacheable artifact)."""
        from codegen.nvptx import compile_ptx

        return compile_ptx(module, sm=self.sm).ptx.encode()

    def load(self, module: Module, artifact: bytes) -> CudaProgram:
        """Load PTX made by ``build`` (here or in an earlier process)."""
        return self._program(module, artifact.decode())

    def compile(self, module: Module) -> CudaProgram:
        key = hashlib.sha256(f"{self.sm}\0{module!r}".encode()).hexdigest()
        program = self.programs.get(key)
        if program is None:
            program = self.programs[key] = self.load(module, self.build(module))
        return program

    def _program(self, module: Module, ptx: str) -> CudaProgram:
        from codegen.llvm_walk import has_live_checks
        from codegen.nvptx import ptx_params

        function = self._load(module, ptx, module.kernel.name)
        attr = self.drv.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK
        max_threads = self._check(self.drv.cuFuncGetAttribute(attr, function), "cuFuncGetAttribute")
        arrays = [
            (p.type.ndim, not p.type.contiguous) if isinstance(p.type, ArrayType) else None
            for p in module.kernel.params
        ]
        packer = ArgPacker([p.kind for p in ptx_params(module)], arrays)
        checked = has_live_checks(module)
        uniform = needs_uniform_groups(module)
        return CudaProgram(module, ptx, function, packer, int(max_threads), uniform, checked)

    def _load(self, module: Module, ptx: str, entry: str) -> Any:
        """Load PTX (cached by its hash); a JIT failure becomes ``CompileError`` with the log."""
        key = hashlib.sha256(ptx.encode()).hexdigest()
        if key in self.modules:
            return self.modules[key][1]
        self.current()
        log = bytearray(16384)
        opt = self.drv.CUjit_option
        options = [opt.CU_JIT_ERROR_LOG_BUFFER, opt.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES]
        result = self.drv.cuModuleLoadDataEx(ptx.encode() + b"\0", 2, options, [log, len(log)])
        if int(result[0]) != 0:
            text = log.split(b"\0", 1)[0].decode(errors="replace").strip()
            raise CompileError(
                f"{self.name}: the CUDA driver rejected the PTX of kernel '{module.name}': "
                f"{error_text(self.drv, result[0])}" + (f"\n{text}" if text else "")
            )
        cumodule = result[1]
        function = self._check(
            self.drv.cuModuleGetFunction(cumodule, entry.encode()), "cuModuleGetFunction"
        )
        self.modules[key] = (cumodule, function)
        return function

    def launch(
        self,
        program: Program,
        args: Sequence[LaunchArg],
        grid: tuple[int, int, int],
        block: tuple[int, int, int] | None,
        wait_for: Sequence[Event],
    ) -> Event:
        assert isinstance(program, CudaProgram)
        blocks, threads = program.dims(grid, block)
        self.current()
        with self.lock:
            self._order(wait_for)
            if 0 in grid:
                program.last = None
                return self._event()
            slot = self._take_slot() if program.checked else None
            err_dev = self.errors.addresses(slot)[0] if slot is not None else 0
            program.last = None  # until the launch below is known to have been made
            params = program.packer.pack(err_dev, grid, args)
            self._check(
                self.drv.cuLaunchKernel(
                    program.function, *blocks, *threads, 0, self.stream, params, 0
                ),
                "cuLaunchKernel",
            )
            if slot is None:
                program.last = (blocks, threads, params)
                return self._event()
            dev, host = self.errors.addresses(slot)
            self._check(
                self.drv.cuMemcpyDtoHAsync(host, dev, self.errors.nbytes, self.stream),
                "cuMemcpyDtoHAsync",
            )
            event = self._event(slot=slot, program=program, args=args)
            self.pending.append(event)
            return event

    def relaunch(self, program: CudaProgram) -> Event | None:
        """The runtime's repeat path: launch ``program`` again as it was last launched (its
        packed parameters are still in place); None, launching nothing, for a kernel with
        checks (each launch needs its own error record) or without such a launch."""
        last = program.last
        if last is None:
            return None
        self.current()
        with self.lock:
            blocks, threads, params = last
            self._check(
                self.drv.cuLaunchKernel(
                    program.function, *blocks, *threads, 0, self.stream, params, 0
                ),
                "cuLaunchKernel",
            )
            return self._event()

    def _take_slot(self) -> int:
        if not self.errors.free and self.pending:
            # Harvest finished launches nobody waited for before growing the pool.
            self.pending = [e for e in self.pending if not e.done()]
        return self.errors.take()

    def synchronize(self) -> None:
        """Wait for everything queued on this device (errors stay with their events)."""
        self.current()
        self._check(self.drv.cuStreamSynchronize(self.stream), "cuStreamSynchronize")


def open_device(name: str, driver: Any = None) -> CudaDevice:
    """The device called ``name`` (``"cuda"`` or ``"cuda:N"``); ``DeviceError`` if unusable."""
    _, _, index = name.partition(":")
    if index and not index.isdigit():
        raise ValueError(f"not a CUDA device name: {name!r} (expected 'cuda:N')")
    return CudaDevice(int(index or 0), driver)


__all__ = [
    "SLOT_FORMAT", "Allocation", "ArgPacker", "ArrayArg", "CudaDevice", "CudaEvent",
    "CudaProgram", "DeviceInfo", "ErrorRecords", "NO_BINDINGS", "NO_DEVICE", "NO_DRIVER",
    "Unavailable", "bounds_error", "check",
    "cuda_array_interface", "discover", "error_text", "launch_dims", "load_driver",
    "needs_uniform_groups", "open_device", "ptx_target",
]  # fmt: skip
