"""The ``opencl:N`` devices: any OpenCL platform through pyopencl (PoCL, Intel, AMD, NVIDIA, Apple).

Registry entry points: ``discover()`` lists every device of every platform (or one unavailable
entry with the reason: pyopencl missing, no ICD, no platform), ``open_device("opencl:N")``
opens device ``N`` in that order.

Each device has one context and one in-order queue, so commands run in the order they are
enqueued and events of this device never need to be passed along as ``wait_for`` (events of
other devices are waited for on the host first). Launches and copies are asynchronous and
return ``OpenCLEvent``s wrapping ``cl.Event``s, numbered in queue order: completion of one
implies completion of every earlier one (``done``, ``implies``), so the device asks the driver
for an event's status only now and then, and never for a command older than one known done.

Programs are cached in memory (rendered source -> built program) and on disk as driver
binaries (``program.get_info(BINARIES)``) keyed by the source hash, the build options, the
device, the driver version and gpuoff's version (``compile``). The runtime's own disk cache can
use ``cache_key`` / ``build`` / ``load``, whose artifact is the program's source text.

Held launches (``relaunch``): a launch repeating the previous one exactly (the runtime's
repeat path) over at most ``HOLD_ITEMS`` work-items and without bounds checks is numbered and
given its event at once but handed to the driver with the next ones, up to ``HOLD_LAUNCHES`` of
them or ``HOLD_SECONDS`` after the first, in one burst. OpenCL allows holding commands until
``clFlush``; the reason is PoCL (and any CPU driver), whose worker threads wake up for each
command that arrives alone: launches arriving a few microseconds apart cost the launching
thread two to three times what the same launches cost in a burst. Anything that needs them
on the driver hands them over first: every other command on the queue, waiting for or polling
an event, ``go.synchronize()``, host access; and when launching pauses, the device's flusher
thread hands a batch over ``HOLD_LATE_SECONDS`` after it began (later only while other Python
code keeps the interpreter lock, at most its switch interval), and at the latest when the
interpreter exits.

Bounds errors: a kernel whose module keeps checks gets an error record from a ring of small
zeroed buffers; the record is read back only when the launch's event is waited on (so the warm
launch path is at most ``set_args`` plus ``enqueue_nd_range_kernel``, what pyopencl's own
``prg.k(queue, ...)`` does; a launch repeating the previous one's arguments sets only its
record slot, or nothing for a kernel without checks) and raised there, once, as
``BoundsError``.
"""

from __future__ import annotations

import atexit
import hashlib
import itertools
import os
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from codegen.opencl import ERR_LEN, EXACT_GRID_OPTION
from gpuoff import __version__
from gpuoff.errors import DeviceError, OutOfMemoryError
from gpuoff.ir.nodes import Module
from gpuoff.runtime import debug
from gpuoff.runtime.devices.base import (
    Allocation,
    Device,
    DoneEvent,
    Event,
    HeldRelaunch,
    LaunchArg,
    Limits,
    Program,
    address_space_left,
)  # fmt: skip
from gpuoff.runtime.devices.opencl_discovery import cl_module, discover, find_device, unified
from gpuoff.runtime.devices.opencl_events import CL_COMPLETE, NO_COMMAND, UNQUEUED, OpenCLEvent
from gpuoff.runtime.devices.opencl_program import (
    OpenCLProgram,
    build_cl_program,
    build_program,
)

_DONE = DoneEvent()
_ERR_SLOTS = 4096
_ZERO_RECORD = np.zeros(ERR_LEN, np.int64)  # never written: safe as a non-blocking copy source
_POLL_EVERY = 8  # unresolved done() calls per driver status query (see OpenCLEvent.done)
HOLD_LAUNCHES = 64
"""At most this many repeated small launches are held before they go to the driver."""
HOLD_SECONDS = 50e-6
"""... and for at most this long after the first of them, while launching goes on."""
HOLD_ITEMS = 1 << 14
"""Only launches of at most this many work-items are held (their device work is short)."""
HOLD_LATE_SECONDS = 1e-3
"""A batch still held this long after it began (launching paused) is handed over by the
device's flusher thread (later while other Python code holds the interpreter lock)."""


def open_device(name: str) -> OpenCLDevice:
    """Open ``opencl:N`` (``DeviceError`` if there is no such device)."""
    platform, device = find_device(name)
    return OpenCLDevice(name, platform, device)


# --------------------------------------------------------------------------------------------
# The device
# --------------------------------------------------------------------------------------------


class OpenCLDevice(Device, HeldRelaunch[OpenCLProgram]):
    """One OpenCL device: a context, an in-order queue, buffers, programs, launches."""

    backend = "opencl"
    host_memory = False

    def __init__(self, name: str, platform: Any, device: Any) -> None:
        cl = cl_module()
        self.name = name
        self.cl_device = device
        self.platform = platform
        self.context = cl.Context([device])
        self.queue = cl.CommandQueue(self.context, device)
        self._side_queue = cl.CommandQueue(self.context, device)  # error-record reads
        self.fp64 = "cl_khr_fp64" in device.extensions
        self.fp16 = "cl_khr_fp16" in device.extensions
        self.int64_atomics = ("cl_khr_int64_base_atomics" in device.extensions,
                              "cl_khr_int64_extended_atomics" in device.extensions)  # fmt: skip
        # whether f32 division and sqrt can be asked to round correctly (codegen.opencl)
        self.correct_div_sqrt = bool(
            int(device.single_fp_config) & int(cl.device_fp_config.CORRECTLY_ROUNDED_DIVIDE_SQRT)
        )
        self.description = f"{device.name.strip()} ({platform.name.strip()})"
        self.max_group = int(device.max_work_group_size)
        # device memory in host memory (CPU drivers, integrated GPUs): see ``allocate``
        self._host_backed = unified(device) or bool(device.type & cl.device_type.CPU)
        sizes = [int(v) for v in device.max_work_item_sizes][:3]
        self._limits = Limits(
            max_block_items=self.max_group,
            max_block=(*sizes, *(1,) * (3 - len(sizes))),  # type: ignore[arg-type]
            shared_bytes=int(device.local_mem_size),
        )
        self._programs: dict[str, OpenCLProgram] = {}
        self._lock = threading.Lock()
        self._err_host = _aligned_zeros(_ERR_SLOTS * ERR_LEN) if unified(device) else None
        if self._err_host is not None:
            # Device memory is host memory: the records are read in place, with no command.
            flags = cl.mem_flags.READ_WRITE | cl.mem_flags.USE_HOST_PTR
            self._err_buf = cl.Buffer(self.context, flags, hostbuf=self._err_host)
        else:
            flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
            zeros = np.zeros(_ERR_SLOTS * ERR_LEN, np.int64)
            self._err_buf = cl.Buffer(self.context, flags, hostbuf=zeros)
        self._owners: list[OpenCLEvent | None] = [None] * _ERR_SLOTS
        self._seq = 0  # next checked launch
        self._read_upto = 0  # records of launches before this one have been read
        self._read_lock = threading.RLock()
        self._order = itertools.count(1)
        self._queue_lock = threading.Lock()
        self._done_upto = 0  # every command with order <= this has completed
        self._unresolved = 0  # done() calls answered "not done" without asking the driver
        self._status = cl.event_info.COMMAND_EXECUTION_STATUS
        # held launches: ``_held_count`` launches of ``_held_program``, one event for all
        self._held_event: OpenCLEvent | None = None
        self._held_program: OpenCLProgram | None = None
        self._held_count = 0
        self._held_since = 0.0
        self._batch = 0  # batches held so far
        self._batch_started = threading.Event()  # wakes the flusher thread
        self._flusher: threading.Thread | None = None
        # held launches still held when the interpreter exits go to the driver then (the
        # flusher is a daemon thread, which exit does not wait for)
        self._pid = os.getpid()
        atexit.register(self._hand_over_at_exit)

    def _enqueued(self, event: OpenCLEvent) -> OpenCLEvent:
        """Number ``event`` in queue order (callers hold ``_queue_lock`` around the enqueue)."""
        event.order = next(self._order)
        return event

    def _poll(self, event: OpenCLEvent) -> bool:
        """Whether ``event`` (past ``_done_upto``) has completed, asking the driver once every
        ``_POLL_EVERY`` calls (a polling loop still sees it finish); "no" in between."""
        self._unresolved += 1
        if self._unresolved < _POLL_EVERY:
            return False
        self._unresolved = 0
        if event.cl_event is None:
            self.flush()  # a held launch: a polling loop must see it finish
            if event.cl_event is None:  # not a launch (yet)
                return False
        if event.cl_event.get_info(self._status) != CL_COMPLETE:
            return False
        if event.order > self._done_upto:
            self._done_upto = event.order
        return True

    def __repr__(self) -> str:
        return f"<OpenCLDevice {self.name}: {self.description}>"

    # -- memory -------------------------------------------------------------------------------

    def allocate(self, nbytes: int) -> Allocation:
        cl = cl_module()
        limit = int(self.cl_device.max_mem_alloc_size)
        if nbytes > limit:
            raise OutOfMemoryError(f"{self.name}: cannot allocate {nbytes} bytes: the device "
                                   f"allocates at most {limit} bytes at once")  # fmt: skip
        if self._host_backed:
            left = address_space_left()
            if left is not None and nbytes + (64 << 20) > left:  # the driver needs some too
                raise OutOfMemoryError(f"{self.name}: cannot allocate {nbytes} bytes: the "
                                       f"process may map only {left} more (ulimit -v)")  # fmt: skip
        try:
            buf = cl.Buffer(self.context, cl.mem_flags.READ_WRITE, size=max(nbytes, 1))
        except cl.Error as exc:
            raise OutOfMemoryError(f"{self.name}: cannot allocate {nbytes} bytes: "
                                   f"{exc}") from exc  # fmt: skip
        return Allocation(buf, nbytes)

    def free(self, allocation: Allocation) -> None:
        if allocation.handle is not None:
            allocation.handle.release()
            allocation.handle = None

    def _foreign_wait(self, wait_for: Sequence[Event]) -> None:
        # Our own events are ordered by the in-order queue; anything else finishes first.
        for e in wait_for:
            if not (isinstance(e, OpenCLEvent) and e._device is self) and not e.done():
                e.wait()

    def copy_from_host(
        self, dst: Allocation, dst_offset: int, src: np.ndarray[Any, Any], wait_for: Sequence[Event]
    ) -> Event:
        self._foreign_wait(wait_for)
        if src.nbytes == 0:
            return _DONE
        flat = src.reshape(-1).view(np.uint8)
        with self._queue_lock:
            if self._held_event is not None:
                self._flush_locked()
            ev = cl_module().enqueue_copy(self.queue, dst.handle, flat, dst_offset=dst_offset,
                                    is_blocking=False)  # fmt: skip
            return self._enqueued(OpenCLEvent(ev, self, keep=flat))

    def copy_to_host(
        self, dst: np.ndarray[Any, Any], src: Allocation, src_offset: int, wait_for: Sequence[Event]
    ) -> Event:
        self._foreign_wait(wait_for)
        if dst.nbytes == 0:
            return _DONE
        flat = dst.reshape(-1).view(np.uint8)
        with self._queue_lock:
            if self._held_event is not None:
                self._flush_locked()
            ev = cl_module().enqueue_copy(self.queue, flat, src.handle, src_offset=src_offset,
                                    is_blocking=False)  # fmt: skip
            return self._enqueued(OpenCLEvent(ev, self, keep=flat))

    # -- compile ------------------------------------------------------------------------------

    def target_key(self) -> str:
        """What a compiled binary depends on besides the source: device, driver, gpuoff."""
        d = self.cl_device
        return "|".join(("opencl", self.platform.name.strip(), self.platform.version.strip(),
                         d.name.strip(), d.version.strip(), d.driver_version.strip(),
                         __version__))  # fmt: skip

    def cache_key(self) -> str:
        return self.target_key()

    def limits(self) -> Limits:
        """The driver's: ``MAX_WORK_GROUP_SIZE``, ``MAX_WORK_ITEM_SIZES``, ``LOCAL_MEM_SIZE``."""
        return self._limits

    def build(self, module: Module) -> bytes:
        """The runtime's disk-cache artifact: the rendered OpenCL C (the driver binary is
        cached separately by ``compile``, keyed by this text)."""
        text: str = self.render(module).text
        return text.encode()

    def load(self, module: Module, artifact: bytes) -> OpenCLProgram:
        return self.compile(module)

    def render(self, module: Module) -> Any:
        """The ``codegen.opencl.OpenCLSource`` of ``module`` for this device."""
        from codegen.opencl import render_opencl

        return render_opencl(module, fp64=self.fp64, fp16=self.fp16, device_name=self.name,
                             correct_div_sqrt=self.correct_div_sqrt,
                             int64_atomics=self.int64_atomics,
                             fast=self.fast_dim(module))  # fmt: skip

    def fast_dim(self, module: Module) -> int:
        """``gpuoff.ir.fast_axis.fast_dim`` (rendered as dimension 0, where neighbouring
        work-items coalesce and Intel's CPU runtime vectorises), when the device allows the
        same work-group extent along both dimensions (a given block is exchanged too)."""
        from gpuoff.ir.fast_axis import fast_dim

        fast = fast_dim(module)
        sizes = self.limits().max_block
        return fast if sizes[fast] == sizes[0] else 0

    def compile(self, module: Module) -> OpenCLProgram:
        source = self.render(module)
        key = hashlib.sha256(
            "\0".join((source.text, " ".join(source.build_options), self.target_key())).encode()
        ).hexdigest()
        with self._lock:
            cached = self._programs.get(key)
            if cached is not None and cached.module == module:
                return cached
        if debug.enabled(debug.CODE):
            debug.log(debug.CODE, f"OpenCL C of {module.name} for {self.name}:\n{source.text}")
        program = build_program(self, module, source, _binary_path(key))
        if not source.uses_barrier:
            exact_key = hashlib.sha256(f"{key}\0{EXACT_GRID_OPTION}".encode()).hexdigest()
            program.exact_builder = lambda: build_cl_program(
                self, module, source, _binary_path(exact_key), (EXACT_GRID_OPTION,)
            )[0]
        with self._lock:
            self._programs[key] = program
        return program

    # -- launch -------------------------------------------------------------------------------

    def default_block(self, grid: tuple[int, int, int], fast: int = 0) -> tuple[int, int, int]:
        """The work-group shape used when the launch gives none (for the runtime's bookkeeping;
        see ``local_size`` for what the driver is actually asked for)."""
        return self.local_size(grid) or (min(grid[0], 64) or 1, 1, 1)

    def local_size(self, grid: tuple[int, int, int]) -> tuple[int, int, int] | None:
        """``None`` (the driver picks a divisor of the grid) when the grid has many divisors;
        else 64 along dim 0, the global size rounded up (the kernel ignores ids past the grid)."""
        total = grid[0] * grid[1] * grid[2]
        if total % 64 == 0 or total <= 64:
            return None
        return (min(64, self.max_group), 1, 1)

    def launch(
        self,
        program: Program,
        args: Sequence[LaunchArg],
        grid: tuple[int, int, int],
        block: tuple[int, int, int] | None,
        wait_for: Sequence[Event],
    ) -> Event:
        assert isinstance(program, OpenCLProgram)
        if grid[0] * grid[1] * grid[2] == 0:
            self._foreign_wait(wait_for)
            return _DONE
        fast = program.source.fast
        if fast:  # the kernel was rendered with its fast dimension as dimension 0
            grid = _exchanged(grid, fast)
            block = None if block is None else _exchanged(block, fast)
        if block is None and not program.uses_barrier:
            block = self.local_size(grid)
        if wait_for:
            self._foreign_wait(wait_for)
        event = OpenCLEvent(None, self)
        slot = self._take_slot(event, program) if program.checked else 0
        with self._queue_lock:
            if self._held_event is not None:
                self._flush_locked()
            try:
                event.cl_event = program.enqueue(self.queue, args, grid, block, self._err_buf,
                                                 slot)  # fmt: skip
            except BaseException:
                self._stand_in(event)
                raise
            return self._enqueued(event)

    def relaunch(self, program: OpenCLProgram) -> Event:
        """Launch ``program`` again exactly as it was last launched (arguments, grid,
        block), with a fresh error-record slot: the runtime's repeat path (``Plan.repeat``),
        which knows nothing has changed since (so ``program`` is an ``OpenCLProgram``)."""
        if program.checked or program.last_items > HOLD_ITEMS:
            event = OpenCLEvent(None, self)
            slot = self._take_slot(event, program) if program.checked else 0
            with self._queue_lock:
                if self._held_event is not None:
                    self._flush_locked()
                try:
                    event.cl_event = program.enqueue_again(self.queue, slot)
                except BaseException:
                    self._stand_in(event)
                    raise
                event.order = next(self._order)
            return event
        with self._queue_lock:  # held (see the module docstring)
            if self._held_event is not None:
                self._flush_locked()
            event = OpenCLEvent(None, self)
            event.order = next(self._order)
            self._held_event = event
            self._held_program = program
            self._held_count = 1
            self._held_since = time.perf_counter()
            self._batch += 1
            if self._flusher is None:
                self._flusher = threading.Thread(
                    target=self._flush_late, name=f"gpuoff {self.name} flusher", daemon=True
                )
                self._flusher.start()
            self._batch_started.set()
            return event

    def join(self, event: Event) -> bool:
        """Launch the held program once more in the batch whose event is ``event`` (what
        ``relaunch`` returned for the previous launch), if that batch is still held; False
        (nothing launched) else. The runtime's repeat path calls this without its guard lock:
        a batch stays held only while the device gets no other command and nobody waits for
        or polls its event (each hands the batch over first), so a launch that joins it is
        ordered before whatever anyone did with the guard state since. One event stands for
        the whole batch, numbered when it began: no other command comes between its launches,
        so that number orders it against every other command."""
        with self._queue_lock:
            if event is not self._held_event:
                return False
            count = self._held_count = self._held_count + 1
            # the clock is read every 8th launch: a launch costs well under HOLD_SECONDS/8
            if count >= HOLD_LAUNCHES or (
                not count & 7 and time.perf_counter() - self._held_since > HOLD_SECONDS
            ):  # fmt: skip
                self._flush_locked()
            return True

    def _flush_late(self) -> None:
        """The flusher thread: hands over a batch still held ``HOLD_LATE_SECONDS`` after it
        began, so that a pause in launching does not keep its last launches from the driver."""
        while True:
            self._batch_started.wait()
            self._batch_started.clear()
            batch = self._batch
            time.sleep(HOLD_LATE_SECONDS)
            with self._queue_lock:
                if self._held_event is not None and self._batch == batch:
                    try:
                        self._flush_locked()
                    except DeviceError:
                        pass  # kept on the batch's event: waiting for it raises the error

    def _hand_over_at_exit(self) -> None:
        if os.getpid() != self._pid:  # a forked child: the driver and the queue are the parent's
            return
        try:
            self.flush()
            self.queue.flush()
        except Exception:  # noqa: BLE001 - exiting: a refused burst has nobody to tell
            pass

    def flush(self) -> None:
        """Hand the held launches to the driver (``clFlush`` is the driver's own business)."""
        with self._queue_lock:
            if self._held_event is not None:
                self._flush_locked()

    def _flush_locked(self) -> None:
        event, program = self._held_event, self._held_program
        assert event is not None and program is not None
        self._held_event = self._held_program = None
        try:
            event.cl_event = program.enqueue_repeated(self.queue, self._held_count)
        except DeviceError as exc:  # the driver refused: waiting for the batch raises it
            event.cl_event = NO_COMMAND
            event._error = exc
            raise
        except BaseException:  # interrupted (Ctrl-C) part-way through the burst
            self._stand_in(event)
            raise

    def _stand_in(self, event: OpenCLEvent) -> None:
        """Give ``event`` a command after an interrupt (``KeyboardInterrupt``) cut its launch
        short: a marker, which completes after whatever of it reached the queue (the caller
        holds ``_queue_lock``), or no command at all; never ``None``, which every wait for it
        would trip over."""
        if event.cl_event is not None:
            return
        try:
            event.cl_event = cl_module().enqueue_marker(self.queue)
        except BaseException:  # noqa: BLE001 - a second interrupt, a broken queue
            event.cl_event = NO_COMMAND
        if event.order == UNQUEUED:
            event.order = next(self._order)

    # -- error records --------------------------------------------------------------------------
    #
    # Checked launches are numbered; launch ``seq`` writes its record into slot
    # ``seq % _ERR_SLOTS`` of one device buffer. Waiting for launch ``seq`` reads, in one copy,
    # the records of every launch not read yet up to ``seq`` (all finished: the queue is in
    # order), hands errors to their events and zeroes those slots. A tight loop of launches
    # that nobody waits for reads nothing until the ring wraps.

    def _take_slot(self, event: OpenCLEvent, program: OpenCLProgram) -> int:
        with self._lock:
            seq = self._seq
            self._seq += 1
            stale = seq - _ERR_SLOTS
        if stale >= self._read_upto:
            owner = self._owners[stale % _ERR_SLOTS]
            if owner is not None:
                if owner.cl_event is None:
                    self.flush()
                (owner.cl_event or NO_COMMAND).wait()
            self._read_records(stale)
        event.seq = seq
        event._program = program
        self._owners[seq % _ERR_SLOTS] = event
        return seq % _ERR_SLOTS

    def _read_records(self, upto: int) -> None:
        """Read the records of launches ``[_read_upto, upto]`` (all finished)."""
        with self._read_lock:
            lo = self._read_upto
            if upto < lo:
                return
            host_all = self._err_host
            if upto == lo and host_all is not None:
                # The common case (each launch's event settled in turn): one record, in place.
                slot = lo % _ERR_SLOTS
                if host_all[slot * ERR_LEN]:
                    self._fail(slot, host_all[slot * ERR_LEN : (slot + 1) * ERR_LEN])
                self._owners[slot] = None
                self._read_upto = lo + 1
                return
            first, count = lo % _ERR_SLOTS, min(upto - lo + 1, _ERR_SLOTS)
            spans = [(first, min(count, _ERR_SLOTS - first))]
            if spans[0][1] < count:
                spans.append((0, count - spans[0][1]))
            for start, n in spans:
                if self._err_host is not None:
                    host = self._err_host.reshape(-1, ERR_LEN)[start : start + n]
                else:
                    host = np.empty((n, ERR_LEN), np.int64)
                    # The side queue does not wait for work enqueued after these launches.
                    cl_module().enqueue_copy(self._side_queue, host, self._err_buf,
                                    src_offset=start * ERR_LEN * 8, is_blocking=True)  # fmt: skip
                for row in np.flatnonzero(host[:, 0]):
                    self._fail(int(start + row), host[row])
            for s in range(lo, upto + 1):
                self._owners[s % _ERR_SLOTS] = None
            self._read_upto = upto + 1

    def _fail(self, slot: int, record: np.ndarray[Any, Any]) -> None:
        event = self._owners[slot]
        record = record.copy()
        if self._err_host is not None:
            self._err_host[slot * ERR_LEN : (slot + 1) * ERR_LEN] = 0
        else:
            cl_module().enqueue_copy(self._side_queue, self._err_buf, _ZERO_RECORD,
                               dst_offset=slot * ERR_LEN * 8, is_blocking=True)  # fmt: skip
        if event is not None and event._program is not None:
            event._error = _bounds_error(event._program.module, record)


def _aligned_zeros(count: int) -> np.ndarray[Any, Any]:
    """``count`` zeroed int64s at a 4096-byte boundary (what USE_HOST_PTR wants for zero copy)."""
    raw = np.zeros(count * 8 + 4096, np.uint8)
    start = -raw.ctypes.data % 4096
    return raw[start : start + count * 8].view(np.int64)


def _bounds_error(module: Module, record: np.ndarray[Any, Any]) -> Exception:
    from codegen.abi import MAX_NDIM
    from gpuoff.ir.bounds import launch_error

    check = int(record[0])
    ndim = module.check(check).ndim
    indices = tuple(int(i) for i in record[1 : 1 + ndim])
    shape = tuple(int(s) for s in record[1 + MAX_NDIM : 1 + MAX_NDIM + ndim])
    return launch_error(module, check, indices, shape)


def _binary_path(key: str) -> Path | None:
    from gpuoff.runtime.cache import cache_dir

    base = cache_dir()
    return None if base is None else base / "opencl" / f"{key}.bin"


__all__ = ["OpenCLDevice", "OpenCLEvent", "discover", "open_device"]


def _exchanged(dims: tuple[int, int, int], d: int) -> tuple[int, int, int]:
    """``dims`` with entries 0 and ``d`` exchanged (``codegen.opencl.render_opencl``'s
    ``fast``)."""
    out = list(dims)
    out[0], out[d] = out[d], out[0]
    return (out[0], out[1], out[2])
