"""A stand-in for ``cuda.bindings.driver`` for tests on machines without a GPU (no tests here).

"Device memory" is host memory (so copies really move bytes), streams run everything at once,
and ``cuLaunchKernel`` decodes the packed parameters and hands them to ``on_launch``.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

OK = 0
NAMES = {0: "CUDA_SUCCESS", 2: "CUDA_ERROR_OUT_OF_MEMORY", 100: "CUDA_ERROR_NO_DEVICE",
         218: "CUDA_ERROR_INVALID_PTX", 600: "CUDA_ERROR_NOT_READY",
         999: "CUDA_ERROR_UNKNOWN"}  # fmt: skip


@dataclass
class Launch:
    function: str
    blocks: tuple[int, int, int]
    threads: tuple[int, int, int]
    slots: list[bytes]  # 8 bytes per parameter, as packed


@dataclass
class FakeDriver:
    """The subset of the driver API that ``gpuoff.runtime.devices.cuda`` uses."""

    devices: int = 1
    init_result: int = OK
    init_raises: bool = False
    capability: tuple[int, int] = (9, 0)
    max_threads: int = 1024
    nparams: int = 0  # how many parameter pointers cuLaunchKernel reads
    count_params: Callable[[str], int] | None = None  # per function, overrides nparams
    jit_error: str = ""  # non-empty: cuModuleLoadDataEx fails with this log
    memory_limit: int = 1 << 40
    on_launch: Callable[[Launch], None] | None = None
    launches: list[Launch] = field(default_factory=list)
    loaded: list[bytes] = field(default_factory=list)
    buffers: dict[int, Any] = field(default_factory=dict)
    calls: list[str] = field(default_factory=list)
    not_ready: bool = False

    CUdevice_attribute = SimpleNamespace(
        CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR=75,
        CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR=76,
        CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT=16,
    )
    CUstream_flags = SimpleNamespace(CU_STREAM_NON_BLOCKING=1)
    CUevent_flags = SimpleNamespace(CU_EVENT_DISABLE_TIMING=2)
    CUjit_option = SimpleNamespace(CU_JIT_ERROR_LOG_BUFFER=5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES=6)
    CUfunction_attribute = SimpleNamespace(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK=0)

    # -- initialisation and discovery ----------------------------------------------------

    def cuInit(self, flags: int) -> tuple[int]:  # noqa: N802 - the driver's names
        if self.init_raises:
            raise RuntimeError('"cuda" is an NVIDIA driver library and can only be found...')
        return (self.init_result,)

    def cuGetErrorName(self, err: int) -> tuple[int, bytes]:  # noqa: N802
        return OK, NAMES.get(int(err), f"CUDA_ERROR_{int(err)}").encode()

    def cuGetErrorString(self, err: int) -> tuple[int, bytes]:  # noqa: N802
        return OK, f"description of {int(err)}".encode()

    def cuDeviceGetCount(self) -> tuple[int, int]:  # noqa: N802
        return OK, self.devices

    def cuDriverGetVersion(self) -> tuple[int, int]:  # noqa: N802
        return OK, 13000

    def cuDeviceGet(self, ordinal: int) -> tuple[int, int]:  # noqa: N802
        return (OK, ordinal) if ordinal < self.devices else (101, 0)

    def cuDeviceGetName(self, length: int, dev: int) -> tuple[int, bytes]:  # noqa: N802
        return OK, b"Fake H200\0\0\0"

    def cuDeviceGetAttribute(self, attr: int, dev: int) -> tuple[int, int]:  # noqa: N802
        return OK, {75: self.capability[0], 76: self.capability[1], 16: 132}[attr]

    def cuDeviceTotalMem(self, dev: int) -> tuple[int, int]:  # noqa: N802
        return OK, 141 << 30

    # -- context, streams, events ---------------------------------------------------------

    def cuDevicePrimaryCtxRetain(self, dev: int) -> tuple[int, str]:  # noqa: N802
        return OK, f"ctx{dev}"

    def cuCtxSetCurrent(self, ctx: str) -> tuple[int]:  # noqa: N802
        self.calls.append("cuCtxSetCurrent")
        return (OK,)

    def cuStreamCreate(self, flags: int) -> tuple[int, str]:  # noqa: N802
        return OK, "stream"

    def cuStreamSynchronize(self, stream: str) -> tuple[int]:  # noqa: N802
        return (OK,)

    def cuEventCreate(self, flags: int) -> tuple[int, object]:  # noqa: N802
        return OK, object()

    def cuEventRecord(self, ev: object, stream: str) -> tuple[int]:  # noqa: N802
        return (OK,)

    def cuEventSynchronize(self, ev: object) -> tuple[int]:  # noqa: N802
        return (OK,)

    def cuEventQuery(self, ev: object) -> tuple[int]:  # noqa: N802
        return (600 if self.not_ready else OK,)

    def cuEventDestroy(self, ev: object) -> tuple[int]:  # noqa: N802
        return (OK,)

    def cuStreamWaitEvent(self, stream: str, ev: object, flags: int) -> tuple[int]:  # noqa: N802
        self.calls.append("cuStreamWaitEvent")
        return (OK,)

    # -- memory ---------------------------------------------------------------------------

    def _alloc(self, n: int) -> int:
        buf = ctypes.create_string_buffer(n)
        addr = ctypes.addressof(buf)
        self.buffers[addr] = buf
        return addr

    def cuMemAlloc(self, n: int) -> tuple[int, int]:  # noqa: N802
        if n > self.memory_limit:
            return 2, 0
        return OK, self._alloc(n)

    def cuMemHostAlloc(self, n: int, flags: int) -> tuple[int, int]:  # noqa: N802
        return OK, self._alloc(n)

    def cuMemFree(self, ptr: int) -> tuple[int]:  # noqa: N802
        del self.buffers[int(ptr)]
        return (OK,)

    def cuMemsetD8(self, ptr: int, value: int, n: int) -> tuple[int]:  # noqa: N802
        ctypes.memset(int(ptr), value, n)
        return (OK,)

    def cuMemcpyHtoDAsync(self, dst: int, src: int, n: int, stream: str) -> tuple[int]:  # noqa: N802
        self.calls.append("HtoD")
        ctypes.memmove(int(dst), int(src), n)
        return (OK,)

    def cuMemcpyDtoHAsync(self, dst: int, src: int, n: int, stream: str) -> tuple[int]:  # noqa: N802
        self.calls.append("DtoH")
        ctypes.memmove(int(dst), int(src), n)
        return (OK,)

    # -- modules and launches ---------------------------------------------------------------

    def cuModuleLoadDataEx(  # noqa: N802
        self, image: bytes, n: int, options: list[int], values: list[Any]
    ) -> tuple[int, str]:
        assert image.endswith(b"\0")
        if self.jit_error:
            log = values[0]
            text = self.jit_error.encode()
            log[: len(text)] = text
            return 218, ""
        self.loaded.append(image)
        return OK, f"module{len(self.loaded)}"

    def cuModuleLoadData(self, image: bytes) -> tuple[int, str]:  # noqa: N802
        return self.cuModuleLoadDataEx(image, 0, [], [bytearray(16)])

    def cuModuleGetFunction(self, module: str, name: bytes) -> tuple[int, str]:  # noqa: N802
        return OK, f"{module}:{name.decode()}"

    def cuFuncGetAttribute(self, attr: int, fn: str) -> tuple[int, int]:  # noqa: N802
        return OK, self.max_threads

    def cuLaunchKernel(  # noqa: N802
        self, f: str, gx: int, gy: int, gz: int, bx: int, by: int, bz: int, shmem: int,
        stream: str, params: int, extra: int,
    ) -> tuple[int]:  # fmt: skip
        count = self.nparams if self.count_params is None else self.count_params(f)
        ptrs = (ctypes.c_void_p * count).from_address(params)
        slots = [ctypes.string_at(p or 0, 8) for p in ptrs]
        launch = Launch(f, (gx, gy, gz), (bx, by, bz), slots)
        self.launches.append(launch)
        if self.on_launch is not None:
            self.on_launch(launch)
        return (OK,)
