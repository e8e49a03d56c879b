"""Events of the ``opencl:N`` devices (``gpuoff.runtime.devices.opencl``): a command on the
device's in-order queue, numbered in queue order, whose completion implies every earlier
command's; held launches (``OpenCLDevice.relaunch``) get theirs before the driver has the
command (``cl_event`` is then ``None`` until the batch is handed over).

An event reads its device's queue bookkeeping (``EventQueue``, which ``OpenCLDevice``
implements), so this module needs nothing from the device module."""

from __future__ import annotations

from typing import Any, Protocol

from gpuoff.runtime.devices.base import Event, Program

UNQUEUED = 1 << 62  # an event's order until its command is enqueued: never "done" by order
CL_COMPLETE = 0


class EventQueue(Protocol):
    """What an event reads and advances of its device's in-order queue: the device's own
    bookkeeping (``OpenCLDevice``), shared with its events only."""

    _done_upto: int
    """Every command with ``order`` at or before this has completed."""
    _read_upto: int
    """The error records of checked launches before this launch number have been read."""

    def _poll(self, event: OpenCLEvent) -> bool:
        """Whether ``event`` (past ``_done_upto``) has completed; asks the driver now and then."""
        ...

    def flush(self) -> None:
        """Hand held launches over to the driver."""
        ...

    def _read_records(self, upto: int) -> None:
        """Read the error records of the finished launches up to number ``upto``."""
        ...


class OpenCLEvent(Event):
    """A command on an OpenCL queue. For a launch with bounds checks, ``wait`` reads the
    launch's error record and raises its ``BoundsError`` (once)."""

    __slots__ = ("cl_event", "_device", "order", "seq", "_program", "_error", "_keep")

    def __init__(self, cl_event: Any, device: EventQueue, keep: object = None) -> None:
        self.cl_event = cl_event
        self._device = device
        self.order = UNQUEUED  # position in the device's in-order queue (set when enqueued)
        self.seq = -1  # launch number for checked launches (its error-record slot)
        self._program: Program | None = None  # a checked launch's program (its error)
        self._error: Exception | None = None
        self._keep = keep  # a host array that must outlive the copy

    def done(self) -> bool:
        # The queue is in order: once a command is complete, so is everything before it, so
        # a command at or before the newest one known complete needs no driver call. Past it,
        # the device asks the driver only now and then (``_poll``): on PoCL a status query
        # per launch makes the queue's worker threads run each launch on its own, which costs
        # the launching thread more than the query. "Not done" for finished work is only
        # conservative: the guards keep the use a little longer.
        dev = self._device
        if self.order <= dev._done_upto:
            return True
        return dev._poll(self)

    def known_done(self) -> bool:
        # no status query (``done()`` makes one every ``_POLL_EVERY``th call): the caller
        # waits next anyway, and PoCL answers under the event's lock, which its worker
        # threads take while the command runs
        return self.order <= self._device._done_upto

    def implies(self, other: Event) -> bool:
        # One in-order queue: a command completes after every command enqueued before it.
        return (type(other) is OpenCLEvent and other._device is self._device
                and other.order <= self.order != UNQUEUED)  # fmt: skip

    def wait(self) -> None:
        dev = self._device
        order = self.order
        if order > dev._done_upto:
            if self.cl_event is None:
                dev.flush()
            (self.cl_event or NO_COMMAND).wait()  # None only if flushing failed outright
            if order > dev._done_upto and order != UNQUEUED:
                dev._done_upto = order
        self._keep = None
        if self.seq >= dev._read_upto:
            dev._read_records(self.seq)
        if self._error is not None:
            error, self._error = self._error, None
            raise error


class _NoCommand:
    """The ``cl_event`` of held launches the driver refused: complete, nothing to wait for."""

    def wait(self) -> None:
        pass

    def get_info(self, what: Any) -> int:
        return CL_COMPLETE


NO_COMMAND = _NoCommand()
