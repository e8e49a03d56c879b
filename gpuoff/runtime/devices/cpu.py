"""The ``cpu`` device: object code from ``codegen.cpu``, run from llvmlite's JIT in the process
that compiled it and from a shared library (``dlopen``) in later ones (``cpu_loader``: a
disk-cache hit imports neither llvmlite nor the front end), called through ctypes (which
releases the GIL), work-groups split over persistent worker threads.

Small grids run inline on the calling thread (finishing before returning is a valid schedule
of an asynchronous launch, and costs no hand-off); large grids go to the pool and the launch
returns at once. A thread that then waits for a pooled launch runs queued chunks itself (like
OpenMP's master thread) instead of sleeping while the workers wake up. A launch waiting on
unfinished CPU work is queued behind it by completion callbacks, never by blocking a worker.
Each thread owns an error record (``codegen.abi``); a launch's event collects them and raises
``BoundsError`` from ``wait()`` (once).
"""

from __future__ import annotations

import ctypes
import os
import queue
import struct
import threading
from collections.abc import Callable, Sequence
from time import perf_counter
from typing import Any

import numpy as np

from codegen import abi
from gpuoff import __version__
from gpuoff.errors import DeviceError, LaunchConfigError, OutOfMemoryError
from gpuoff.ir.nodes import Module
from gpuoff.ir.types import ScalarType
from gpuoff.runtime import debug, threads
from gpuoff.runtime.devices import cpu_loader
from gpuoff.runtime.devices.base import (
    Allocation,
    ArrayArg,
    Device,
    DeviceInfo,
    Event,
    InlineLaunch,
    LaunchArg,
    Limits,
    PackedLaunch,
    Program,
)  # fmt: skip
from gpuoff.runtime.devices.cpu_pool import (
    DONE,
    Chunk,
    CpuEvent,
    ErrorInfo,
    FailedEvent,
    Pool,
    after,
    error_factory,
    make_error,
    serve,
    take_error,
    thread_err,
    wait_all,
)

ENTRY_TYPE = ctypes.CFUNCTYPE(
    None, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p
)
INLINE_ITEMS = 1 << 15
"""Grids of at most this many work-items run on the calling thread ..."""
INLINE_SECONDS = 200e-6
"""... unless such a launch of the same program took longer than this: then the limit drops
below its size (a compute-heavy kernel on a small grid still gets every core)."""
LIMITS = Limits(max_block_items=8192, max_block=(8192, 8192, 8192), shared_bytes=1 << 20)
"""The ``cpu`` device's documented launch limits: work-groups of at most 8192 work-items (as
Intel's OpenCL CPU runtime allows) and 1 MiB of ``go.shared`` memory per group (GPUs offer
48-228 KiB). A group runs on one thread: shared arrays beyond ``abi.SHARED_ON_STACK`` are on
the heap, and a launch whose groups need more than ``BIG_FRAME`` of stack for their per-item
state runs on a thread of gpuoff's own with a stack of ``RUNNER_STACK``."""
BIG_FRAME = 256 << 10
"""Stack a launch's work-group may take on the thread that launches or waits (whose stack may
be small: a thread made with ``threading.stack_size``); beyond it the launch runs on gpuoff's
big-stack thread instead (one core: such launches are rare)."""
RUNNER_STACK = 64 << 20
"""The stack of that thread (address space; only what is touched becomes memory)."""



class CpuProgram(Program):
    """A loaded kernel: its entry point and packed-argument layout."""

    def __init__(self, module: Module, address: int) -> None:
        self.module = module
        self.address = address
        self.entry = ENTRY_TYPE(address)
        self.layout = abi.arg_layout(module)
        self.inline_items = INLINE_ITEMS
        ndims = {c.id: c.ndim for c in module.checks}
        self.ndim_of: Callable[[int], int] = lambda check: min(
            ndims.get(check, abi.MAX_NDIM), abi.MAX_NDIM
        )
        self.item_bytes, self.fixed_bytes = _stack_need(module)
        # whether some block the device allows needs a big-stack thread (else never checked)
        self.big_frames = self.frame(LIMITS.max_block_items) > BIG_FRAME

    def frame(self, items: int) -> int:
        """An upper bound of the stack one work-group of ``items`` work-items takes."""
        return self.fixed_bytes + items * self.item_bytes

    def block_frame(self, block: Any) -> int:
        """``frame`` for the work-group size in the packed argument ``block``'s header."""
        b0, b1, b2 = struct.unpack_from("<3q", block, 3 * 8)
        return self.frame(b0 * b1 * b2)


def _stack_need(module: Module) -> tuple[int, int]:
    """(bytes per work-item, fixed bytes): a bound of the stack a work-group of the CPU code
    takes: per item its locals, its row of error state and flags; fixed: one batch of state
    (``cpu_batch.BATCH_BYTES``), the shared arrays kept on the stack, and slack."""
    kernel = module.kernel
    item = sum(int(t.np_dtype.itemsize) for t in kernel.locals.values())
    item += 8 * (1 + max((c.ndim for c in module.checks), default=0)) + 64
    # private arrays: the kernel's are kept per item where it runs as regions; the device
    # functions' are in their (inlined) frames, once per group function
    item += sum(_private_bytes(pa) for pa in kernel.private)
    callees = sum(_private_bytes(pa) for fn in module.functions for pa in fn.private)
    shared = sum(
        int(np.prod(sa.type.static_shape or (1,))) * sa.type.dtype.itemsize for sa in kernel.shared
    )
    fixed = (shared if shared <= abi.SHARED_ON_STACK else 0) + (32 << 10) + (16 << 10)
    return item, fixed + callees


def _private_bytes(pa: Any) -> int:
    return int(np.prod(pa.type.static_shape or (1,))) * int(pa.type.dtype.itemsize)


# ------------------------------------------------------------------------------------------------
# The device
# ------------------------------------------------------------------------------------------------


class CpuDevice(Device, PackedLaunch["CpuProgram"], InlineLaunch["CpuProgram"]):
    """All host cores as one device; its memory is host memory."""

    name = "cpu"
    backend = "cpu"
    host_memory = True
    runs_default_block = True  # a launch without a block runs ``default_block``'s exactly

    def __init__(self) -> None:
        self._pool: Pool | None = None
        self._pool_lock = threading.Lock()
        self._single: bool | None = None
        threads.on_change(self._threads_changed)
        self._runner: tuple[int, queue.SimpleQueue[Chunk]] | None = None
        self._key: str | None = None

    @property
    def pool(self) -> Pool:
        """The worker threads, ``threads.get_num_threads()`` but one (made on first use, again
        in a forked child, which inherits the pool object but not its threads, and after
        ``go.set_num_threads``)."""
        pool = self._pool
        if pool is None or pool.pid != os.getpid():
            with self._pool_lock:
                if self._pool is None or self._pool.pid != os.getpid():
                    # one thread is the launching one, which runs chunks when it waits
                    # (OpenMP's layout: no more threads than cores, fewer wake-ups), or does
                    # host work meanwhile; measured 0.67x -> 0.79x on the reduction bench
                    self._pool = Pool(max(1, threads.get_num_threads() - 1))
                pool = self._pool
        return pool

    def _threads_changed(self) -> None:
        """``go.set_num_threads``: the next pooled launch makes a pool of the new size."""
        with self._pool_lock:
            old, self._pool = self._pool, None
            self._single = None
        if old is not None and old.pid == os.getpid():
            old.retire()

    @property
    def single_threaded(self) -> bool:
        """Whether every launch runs on its launching thread (one thread: no pool)."""
        single = self._single
        if single is None:
            single = self._single = threads.get_num_threads() == 1
        return single

    # memory: plain host arrays
    def allocate(self, nbytes: int) -> Allocation:
        try:
            return Allocation(np.empty(nbytes, np.uint8), nbytes)
        except MemoryError:
            raise OutOfMemoryError(f"cpu: cannot allocate {nbytes} bytes") from None

    def free(self, allocation: Allocation) -> None:
        allocation.handle = None

    def copy_from_host(
        self, dst: Allocation, dst_offset: int, src: np.ndarray[Any, Any], wait_for: Sequence[Event]
    ) -> Event:
        wait_all(wait_for)
        flat = src.reshape(-1).view(np.uint8)
        dst.handle[dst_offset : dst_offset + flat.nbytes] = flat
        return DONE

    def copy_to_host(
        self, dst: np.ndarray[Any, Any], src: Allocation, src_offset: int, wait_for: Sequence[Event]
    ) -> Event:
        wait_all(wait_for)
        flat = dst.reshape(-1).view(np.uint8)
        flat[:] = src.handle[src_offset : src_offset + flat.nbytes]
        return DONE

    def host_view(self, allocation: Allocation) -> np.ndarray[Any, Any]:
        handle: np.ndarray[Any, Any] = allocation.handle
        return handle

    # compile: object code (in the disk cache, replaced by its shared library once linked)
    def cache_key(self) -> str:
        """``cpu|<host target key>|<version>``; remembered in the cache folder so that a
        process whose kernels are all cached never imports llvmlite to compute it."""
        if self._key is None:
            from gpuoff.runtime import cache

            folder = cache.cache_dir()
            key = cpu_loader.cached_target_key(folder)
            if key is None:
                from codegen.cpu import host_target_key

                key = f"cpu|{host_target_key()}|{__version__}"
                cpu_loader.remember_target_key(folder, key)
            self._key = key
        return self._key

    def build(self, module: Module) -> bytes:
        """The relocatable object of ``module`` (``load`` links it into a shared library in
        the background and the disk cache entry then holds that library)."""
        from codegen.cpu import compile_cpu

        obj = compile_cpu(module)
        if debug.enabled(debug.CODE):
            debug.log(debug.CODE, f"optimised LLVM IR of {module.kernel.name}:\n{obj.optimized_ir}")
        return bytes(obj.object_code)

    def load(self, module: Module, artifact: bytes) -> CpuProgram:
        """Load a cached or just-built artifact: ``dlopen`` a shared library; JIT an object
        (and link it for the cache, in the background). A library that does not load is
        compiled again for the JIT."""
        from gpuoff.runtime import cache

        symbol = abi.entry_name(module)
        if not cpu_loader.is_shared_object(artifact):
            program = CpuProgram(module, cpu_loader.jit_load(artifact, symbol))
            if cache.cache_dir() is not None:
                cpu_loader.link_later(artifact, lambda image: _store_library(artifact, image))
            return program
        try:
            return CpuProgram(module, cpu_loader.load_shared(artifact, symbol, cache.cache_dir()))
        except OSError as exc:
            debug.log(debug.CACHE, f"{module.kernel.name}: cannot load its library ({exc}); "
                      "compiling it for the JIT")  # fmt: skip
            return CpuProgram(module, cpu_loader.jit_load(self.build(module), symbol))

    def compile(self, module: Module) -> CpuProgram:
        return self.load(module, self.build(module))

    def limits(self) -> Limits:
        return LIMITS

    # launch
    def default_block(self, grid: tuple[int, int, int], fast: int = 0) -> tuple[int, int, int]:
        """One row of up to 1024 work-items per group along the kernel's fast dimension: the
        vectorised inner loop's trip count."""
        block = [1, 1, 1]
        block[fast] = max(1, min(grid[fast], 1024))
        return (block[0], block[1], block[2])

    def fast_dim(self, module: Module) -> int:
        """``gpuoff.ir.fast_axis.fast_dim``: the generated code's innermost loop
        (``codegen.cpu``)."""
        from gpuoff.ir.fast_axis import fast_dim

        return fast_dim(module)

    def launch_packed(
        self,
        program: CpuProgram,
        block: Any,
        n_groups: int,
        items: int,
        wait_for: Sequence[Event],
        on_error: ErrorInfo,
    ) -> Event:
        """Run ``program`` over groups ``[0, n_groups)`` with the packed argument ``block``
        (a ctypes buffer). Inline when small and nothing to wait for; else pooled, and then
        ``block`` is copied so the caller may reuse it."""
        pending = [e for e in wait_for if not e.done()] if wait_for else wait_for
        if program.big_frames and program.block_frame(block) > BIG_FRAME:
            return self._run_big(program, block, n_groups, list(pending), on_error)
        if self.single_threaded:  # one thread: run here, once what it waits for is done
            if pending:
                ready = threading.Event()
                after(list(pending), ready.set)  # (their errors stay theirs)
                ready.wait()
            return self._run_here(program, block, n_groups, on_error)
        if not pending:
            done = self.launch_inline(program, block, n_groups, items, on_error)
            if done is not None:
                return done
        own = (ctypes.c_char * ctypes.sizeof(block)).from_buffer_copy(block)
        event = CpuEvent(on_error, self.pool)
        start = lambda: self.pool.submit(event, program.entry, own, n_groups, program.ndim_of)  # noqa: E731
        after(list(pending), start)
        return event

    def launch_inline(
        self, program: CpuProgram, block: Any, n_groups: int, items: int, on_error: ErrorInfo
    ) -> Event | None:
        """Run a small launch on this thread (``launch_packed`` with nothing to wait for; the
        runtime's repeat path calls it directly): its finished event, or None when the launch
        is too large to run inline and nothing ran."""
        if items > program.inline_items or not n_groups:
            return None
        if program.big_frames and program.block_frame(block) > BIG_FRAME:
            return None  # not on this thread's stack: launch_packed runs it on the runner
        t0 = perf_counter()
        done = self._run_here(program, block, n_groups, on_error)
        if perf_counter() - t0 > INLINE_SECONDS and n_groups > 1:
            # heavy work-items: grids this large are worth all cores from now on
            program.inline_items = items - 1
        return done

    def _run_here(
        self, program: CpuProgram, block: Any, n_groups: int, on_error: ErrorInfo
    ) -> Event:
        """Run every group of a launch on this thread: its finished event."""
        err = thread_err()
        program.entry(block, 0, n_groups, err)
        if not err[0]:
            return DONE
        found = take_error(err, program.ndim_of)
        assert found is not None
        return FailedEvent(make_error(on_error, found[0], found[1], found[3]))

    def _run_big(self, program: CpuProgram, block: Any, n_groups: int, pending: list[Event],
                 on_error: ErrorInfo) -> Event:  # fmt: skip
        """Run a launch whose work-groups need a big stack on the runner thread, whose stack
        is ``RUNNER_STACK`` (waiting threads do not help: they would run it on theirs)."""
        frame = program.block_frame(block)
        if frame > RUNNER_STACK // 2:
            raise LaunchConfigError(
                f"cpu: a work-group of kernel {program.module.kernel.name} needs about "
                f"{frame >> 20} MiB of per-item state; at most {RUNNER_STACK >> 21} MiB: "
                "launch it with a smaller block"
            )
        own = (ctypes.c_char * ctypes.sizeof(block)).from_buffer_copy(block)
        event = CpuEvent(on_error)
        event._remaining = 1
        chunk: Chunk = (event, program.entry, own, 0, n_groups, program.ndim_of)
        runner = self.runner
        after(pending, lambda: runner.put(chunk))
        return event

    @property
    def runner(self) -> queue.SimpleQueue[Chunk]:
        """The queue of the big-stack thread (made on first use, again in a forked child)."""
        runner = self._runner
        if runner is None or runner[0] != os.getpid():
            with self._pool_lock:
                if self._runner is None or self._runner[0] != os.getpid():
                    work: queue.SimpleQueue[Chunk] = queue.SimpleQueue()
                    previous = threading.stack_size()
                    try:
                        threading.stack_size(RUNNER_STACK)
                        thread = threading.Thread(target=serve, args=(work,), daemon=True,
                                                  name="gpuoff-cpu-big-stack")  # fmt: skip
                        thread.start()
                    finally:
                        threading.stack_size(previous)
                    self._runner = (os.getpid(), work)
                runner = self._runner
        return runner[1]

    def launch(
        self,
        program: Program,
        args: Sequence[LaunchArg],
        grid: tuple[int, int, int],
        block: tuple[int, int, int] | None,
        wait_for: Sequence[Event],
    ) -> Event:
        assert isinstance(program, CpuProgram)
        local = block or self.default_block(grid, self.fast_dim(program.module))
        packed, n_groups = pack_generic(program, args, grid, local)
        items = grid[0] * grid[1] * grid[2]
        if items == 0:
            return DONE
        shapes = {p.name: a.shape for p, a in zip(program.module.kernel.params, args, strict=True)
                  if isinstance(a, ArrayArg)}  # fmt: skip
        return self.launch_packed(
            program, packed, n_groups, items, wait_for, error_factory(program.module, shapes)
        )


def _store_library(obj: bytes, image: bytes) -> None:
    from gpuoff.runtime import cache

    if cache.replace_artifact(obj, image):
        debug.log(debug.CACHE, f"cached a linked library ({len(image)} bytes) for a kernel")


def pack_generic(
    program: CpuProgram,
    args: Sequence[LaunchArg],
    grid: tuple[int, int, int],
    local: tuple[int, int, int],
) -> tuple[Any, int]:
    """Pack ``args`` per ``codegen.abi`` (slow path; the kernel's cached plan packs faster)."""
    from gpuoff.runtime.args import SCALAR_FORMAT

    groups = tuple(-(-g // b) for g, b in zip(grid, local, strict=True))
    values: list[Any] = [*grid, *local, *groups]
    fmt = "<" + "q" * abi.HEADER_SLOTS
    for ps, arg in zip(program.layout.params, args, strict=True):
        if isinstance(arg, ArrayArg):
            base = int(arg.allocation.handle.__array_interface__["data"][0])
            values += [base + arg.offset, *arg.shape, *arg.strides]
            fmt += "Q" + "q" * (2 * len(arg.shape))
        else:
            assert isinstance(ps.type, ScalarType)
            fmt += SCALAR_FORMAT[ps.type.name]
            values.append(arg)
    block = ctypes.create_string_buffer(max(struct.calcsize(fmt), 8))
    struct.pack_into(fmt, block, 0, *values)
    return block, groups[0] * groups[1] * groups[2]


_device: CpuDevice | None = None


def discover() -> list[DeviceInfo]:
    """The one CPU device."""
    return [DeviceInfo("cpu", "cpu", f"host CPU, {os.cpu_count()} cores (LLVM JIT)", kind="cpu")]


def open_device(name: str) -> CpuDevice:
    """The process's CPU device (``name`` must be ``"cpu"``)."""
    global _device
    if name != "cpu":
        raise DeviceError(f"unknown CPU device {name!r} (there is one: 'cpu')")
    if _device is None:
        _device = CpuDevice()
    return _device
