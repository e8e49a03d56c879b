"""What every backend provides to the runtime: discovery, memory, copies, compile, launch.

A backend is three small parts (DESIGN.md): render (``codegen``), compile (here, cached), and
load-and-launch (here). Backends never look at ownership: the runtime's guards and residency
model decide what to copy and when; a backend only does what it is told, asynchronously, and
hands back ``Event``s the runtime waits on.

What a backend must provide is ``Device`` (and its ``Program`` and ``Event``). What it may
provide on top, the fast paths of the warm launch, are the capability classes at the end of
this file: a backend declares one by naming it among its bases (``class CpuDevice(Device,
PackedLaunch[CpuProgram], ...)``), so mypy checks the signatures, and the runtime finds it with
one ``isinstance`` when it makes a launch plan (``runtime.plan.Plan``), never per launch. A
device that declares none gets the general path: ``Device.launch`` with one ``ArrayArg`` per
array argument.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np

from gpuoff.ir.nodes import Module


@dataclass(frozen=True)
class DeviceInfo:
    """One line of ``go.devices()``: a usable device, or a backend that is unavailable and why."""

    name: str  # "cpu", "opencl:0", "cuda:0"; for an unavailable backend: the backend name
    backend: str  # "cpu" | "opencl" | "cuda"
    description: str  # human-readable (device model, driver, compute units)
    available: bool = True
    reason: str = ""  # why unavailable
    kind: str = ""  # "gpu" | "cpu" | "accelerator" | "" (unknown); the default device prefers GPUs


class Event(ABC):
    """Completion of asynchronous work on a device."""

    inline: ClassVar[bool] = False
    """True for an event type whose launch ran on the calling thread and finished (so the
    launch path raises its error before returning instead of at the next sync point)."""

    @abstractmethod
    def wait(self) -> None:
        """Block until the work is done; re-raise a device-side failure (e.g. BoundsError)."""

    @abstractmethod
    def done(self) -> bool:
        """True when the work has finished (never blocks)."""

    def known_done(self) -> bool:
        """True when the work is known to have finished without asking the driver: what a
        caller about to wait anyway checks (default: ``done()``)."""
        return self.done()

    def implies(self, other: Event) -> bool:
        """True when this work finishing means ``other`` has finished too (a later command of
        the same in-order queue); False when unknown. Lets the guards keep one use for a run
        of launches. Optional: the default knows nothing."""
        return False


class DoneEvent(Event):
    """An event that has already completed (synchronous work)."""

    def wait(self) -> None:
        return None

    def done(self) -> bool:
        return True


class AllOf(Event):
    """Completion of several pieces of work: a launch and the copies that follow it (the
    write-back of memory gpuoff does not own, ``residency``). ``wait`` waits for every part
    before it raises the first part's failure, so a launch's bounds error never cuts short
    the copy that brings its in-range writes home."""

    __slots__ = ("parts",)

    def __init__(self, *parts: Event) -> None:
        self.parts = parts

    def wait(self) -> None:
        failure: BaseException | None = None
        for part in self.parts:
            try:
                part.wait()
            except Exception as exc:  # noqa: BLE001 - re-raised below, after every part
                failure = failure or exc
        if failure is not None:
            raise failure

    def done(self) -> bool:
        return all(part.done() for part in self.parts)

    def known_done(self) -> bool:
        return all(part.known_done() for part in self.parts)

    def implies(self, other: Event) -> bool:
        return other is self or any(part.implies(other) or part is other for part in self.parts)


def address_space_left() -> int | None:
    """Bytes of address space this process may still map under ``RLIMIT_AS`` (``ulimit -v``),
    or None when there is no such limit (or no way to tell). Drivers that put device memory
    in host memory and allocate it lazily (PoCL) crash at the first use of an allocation the
    limit refuses, so such devices ask this first and refuse it themselves."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY:
            return None
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmSize:"):
                    return max(soft - int(line.split()[1]) * 1024, 0)
    except (ImportError, OSError, ValueError):
        return None
    return None


I64_MAX = 2**63 - 1
"""Global ids and sizes are i64 in every backend: no grid (rounded up to whole groups) and no
count of work-items may exceed this."""


@dataclass(frozen=True)
class Limits:
    """What one launch may ask of a device (checked before anything runs: ``LaunchConfigError``
    for a grid or block beyond them, ``CompileError`` for shared memory)."""

    max_block_items: int
    """Work-items per work-group."""
    max_block: tuple[int, int, int]
    """Work-group extent per dimension."""
    max_groups: tuple[int, int, int] = (I64_MAX, I64_MAX, I64_MAX)
    """Work-groups per dimension."""
    shared_bytes: int = 48 << 10
    """Bytes of ``go.shared`` memory per work-group."""


NO_LIMITS = Limits(I64_MAX, (I64_MAX, I64_MAX, I64_MAX), shared_bytes=I64_MAX)


@dataclass
class Allocation:
    """Device memory owned by one backend. ``handle`` is backend-specific (a pointer, a
    ``cl.Buffer``, a ``CUdeviceptr``); ``nbytes`` is its size."""

    handle: Any
    nbytes: int


@dataclass(frozen=True)
class ArrayArg:
    """An array argument for a launch: the allocation on this device, the byte offset of the
    view's first element, and the view's shape and strides in elements."""

    allocation: Allocation
    offset: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]


LaunchArg = ArrayArg | int | float | bool


class Program(ABC):
    """A kernel compiled for one device and one signature, ready to launch."""

    module: Module
    checked: bool = True
    """Whether its launches may report a bounds error (``False`` only where none can)."""


class Device(ABC):
    """One device of one backend.

    A backend module ``gpuoff.runtime.devices.<backend>`` offers two module-level functions
    that the registry (``gpuoff.runtime.devices``) calls, importing the module only then:
    ``discover() -> list[DeviceInfo]`` (never raises: a missing driver is an unavailable entry
    with its reason) and ``open_device(name: str) -> Device``.

    Optional fast paths: the capability classes below (``PackedLaunch``, ``InlineLaunch``,
    ``Relaunch``, ``HeldRelaunch``).
    """

    name: str
    backend: str
    host_memory: bool
    """True when device allocations are host memory visible to NumPy (the CPU device): then the
    host copy and the device copy are the same bytes and no transfer is ever needed."""

    @abstractmethod
    def allocate(self, nbytes: int) -> Allocation: ...

    @abstractmethod
    def free(self, allocation: Allocation) -> None: ...

    @abstractmethod
    def copy_from_host(
        self, dst: Allocation, dst_offset: int, src: np.ndarray[Any, Any], wait_for: Sequence[Event]
    ) -> Event:
        """Copy the bytes of contiguous ``src`` into ``dst`` at ``dst_offset``. ``src`` must stay
        alive and unchanged until the returned event completes."""

    @abstractmethod
    def copy_to_host(
        self, dst: np.ndarray[Any, Any], src: Allocation, src_offset: int, wait_for: Sequence[Event]
    ) -> Event:
        """Copy ``dst.nbytes`` bytes from ``src`` at ``src_offset`` into contiguous ``dst``."""

    @abstractmethod
    def compile(self, module: Module) -> Program:
        """Compile (or fetch from the in-memory / disk cache) ``module`` for this device."""

    @abstractmethod
    def launch(
        self,
        program: Program,
        args: Sequence[LaunchArg],
        grid: tuple[int, int, int],
        block: tuple[int, int, int] | None,
        wait_for: Sequence[Event],
    ) -> Event:
        """Run ``program`` over ``grid`` work-items (blocks of ``block``, or the backend's
        default when ``None``) after ``wait_for``. Bounds errors surface from ``Event.wait``."""

    def limits(self) -> Limits:
        """The launch limits of this device (default: none beyond the i64 of global ids)."""
        return NO_LIMITS

    def cache_key(self) -> str | None:
        """A stable key of the compilation target (e.g. CPU triple and features) when the
        runtime may cache this device's artifacts on disk via ``build``/``load``; ``None``
        (the default) makes the runtime call ``compile`` instead."""
        return None

    def build(self, module: Module) -> bytes:
        """Compile ``module`` to a serialisable artifact (only if ``cache_key`` is not None)."""
        raise NotImplementedError

    def load(self, module: Module, artifact: bytes) -> Program:
        """Load an artifact made by ``build`` (only if ``cache_key`` is not None)."""
        raise NotImplementedError

    def host_view(self, allocation: Allocation) -> np.ndarray[Any, Any]:
        """For ``host_memory`` devices: the allocation as a uint8 NumPy array (no copy)."""
        raise NotImplementedError(f"{self.name} memory is not host-visible")

    runs_default_block: ClassVar[bool] = False
    """True when a launch without a block runs exactly ``default_block(grid)``'s groups; False
    (the default) when the driver may choose another (then the launch-time predicate of
    ``gpuoff.ir.launch_checks`` cannot rely on the block of such a launch)."""

    def default_block(self, grid: tuple[int, int, int], fast: int = 0) -> tuple[int, int, int]:
        """The block a launch without one is accounted with (its groups, the ABI header's
        block slots); ``fast``: the kernel's ``fast_dim``. Default: one work-item per group."""
        return (1, 1, 1)

    def fast_dim(self, module: Module) -> int:
        """The work-item dimension this device runs as its fast one for ``module``'s kernel
        (``gpuoff.ir.fast_axis``), along which ``default_block`` lays out a launch without a
        block. Default: dimension 0, as the kernel wrote it."""
        return 0


# ------------------------------------------------------------------------------------------------
# Optional capabilities: fast paths of the warm launch. Declare one by naming it as a base of
# the device class; ``runtime.plan.Plan`` checks each with ``isinstance`` once per plan.
# ------------------------------------------------------------------------------------------------

ProgramT = TypeVar("ProgramT", bound=Program)
LaunchErrors = tuple[Any, tuple[Any, ...]]
"""How a packed launch builds its ``BoundsError``: ``(plan, args)``, for
``plan.make_error(args, check, indices, shape)`` (no closure per launch on the warm path)."""


class PackedLaunch(ABC, Generic[ProgramT]):
    """A host-memory device (``host_memory``) that launches from one packed argument block:
    the ABI header (``codegen.abi``: grid, block, groups) then each argument's slots, written
    by ``Plan`` into one preallocated ctypes buffer from the pointers cached on each Buffer.
    Residency is never consulted: host and device bytes are the same."""

    @abstractmethod
    def launch_packed(
        self,
        program: ProgramT,
        block: Any,
        n_groups: int,
        items: int,
        wait_for: Sequence[Event],
        on_error: LaunchErrors,
    ) -> Event:
        """Run groups ``[0, n_groups)`` (``items`` work-items in all) of ``program`` with the
        packed arguments in ``block`` (a ctypes buffer the caller reuses: copy it to keep it)
        after ``wait_for``."""


class InlineLaunch(ABC, Generic[ProgramT]):
    """A ``PackedLaunch`` device that can run a small launch on the calling thread; the repeat
    path (``Plan.repeat``) of a plan on it runs a repeated small launch straight through."""

    @abstractmethod
    def launch_inline(
        self, program: ProgramT, block: Any, n_groups: int, items: int, on_error: LaunchErrors
    ) -> Event | None:
        """``launch_packed`` with nothing to wait for, run on this thread: its finished event
        (``DoneEvent``, or one with ``inline`` true that holds the error), or None, running
        nothing, when the launch is too large to run here."""


class Relaunch(ABC, Generic[ProgramT]):
    """A device with its own memory that can launch a program again exactly as it was last
    launched. The runtime calls it (``Plan.repeat``) for a launch with the very argument
    objects of the previous launch of the same ``Launch`` while nothing in the guard state has
    changed since, so every check would pass the same way."""

    @abstractmethod
    def relaunch(self, program: ProgramT) -> Event | None:
        """Launch ``program`` again with the arguments, grid and block of its last launch,
        ordered after everything the device was asked to do before (as an in-order queue
        is); or return None, launching nothing (the runtime then takes the full path)."""


class HeldRelaunch(Relaunch[ProgramT]):
    """A ``Relaunch`` device that may hold repeated launches back from the driver and hand
    them over as one batch (``OpenCLDevice``: one event for the batch)."""

    @abstractmethod
    def join(self, event: Event) -> bool:
        """Launch the held program once more under ``event`` (what ``relaunch`` returned for
        the launch before) while that launch is still held back, so a use recorded with
        ``event`` covers both; False, launching nothing, once anything else reached the device
        or waited. The runtime calls it without its guard lock."""
