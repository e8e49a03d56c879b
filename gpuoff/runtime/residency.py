"""Where a buffer's valid bytes live, and the copies that keep it so (SPEC §4).

A ``Storage`` is one allocation shared by a buffer and all its views. It always has host
memory (a contiguous uint8 NumPy array; its layout is what views are computed on), and, per
device that used it, a device allocation. ``valid`` names the locations holding the current
bytes: ``"host"`` and device names. A device whose memory *is* host memory (``cpu``) uses the
host array itself, so its location is ``"host"``: no copy ever, and the model still says what
is valid.

Rules (all called with ``guards.LOCK`` held):

- ``make_valid_on(D)`` before a launch: if D's copy is stale, copy from a valid location
  (through the host when the only valid copy is on another device). A storage never written
  (``go.empty``) has nothing to copy.
- ``mark_written_on(D)`` after launching a writer: D's copy becomes the only valid one.
- ``make_host_valid()`` when the host asks (``numpy()``, host views): copy back if stale.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gpuoff.runtime import guards, stats
from gpuoff.runtime.devices.base import Allocation, Device, Event

HOST = "host"


def location(device: Device) -> str:
    """The residency location of ``device``'s memory (``"host"`` for host-memory devices)."""
    return HOST if device.host_memory else device.name


class Storage:
    """One allocation: host bytes, device copies, validity, and its live borrows."""

    __slots__ = (
        "host", "host_ptr", "nbytes", "valid", "written", "copies", "uses", "host_views",
        "_host_alloc", "__weakref__",
    )  # fmt: skip

    def __init__(self, host: np.ndarray[Any, Any], written: bool) -> None:
        self.host = host
        self.host_ptr: int = host.__array_interface__["data"][0]
        self.nbytes: int = host.nbytes
        self.valid: set[str] = {HOST}
        self.written = written
        self.copies: dict[str, tuple[Device, Allocation]] = {}
        self.uses: list[guards.Use] = []
        self.host_views: list[guards.HostUse] = []
        self._host_alloc: Allocation | None = None

    def allocation_on(self, device: Device) -> Allocation:
        """The allocation holding this storage's bytes on ``device`` (made on first use)."""
        if device.host_memory:
            if self._host_alloc is None:
                self._host_alloc = Allocation(self.host, self.nbytes)
            return self._host_alloc
        entry = self.copies.get(device.name)
        if entry is None:
            entry = (device, device.allocate(self.nbytes))
            self.copies[device.name] = entry
        return entry[1]

    def make_valid_on(self, device: Device) -> list[Event]:
        """Copy the current bytes to ``device`` if its copy is stale; events to wait for."""
        loc = location(device)
        if loc in self.valid:
            return []
        if not self.written:
            self.allocation_on(device)
            self.valid.add(loc)
            return []
        if loc == HOST:
            self.make_host_valid()
            return []
        if HOST not in self.valid:
            self.make_host_valid()
        dst = self.allocation_on(device)
        event = device.copy_from_host(dst, 0, self.host, ())
        stats.record_transfer(True, self.nbytes)
        self.valid.add(loc)
        return [event]

    def mark_written_on(self, device: Device) -> None:
        """After a write on ``device``: its copy is the only valid one."""
        self.valid = {location(device)}
        self.written = True

    def make_host_valid(self) -> None:
        """Copy the bytes back to the host if the host copy is stale (blocks until done)."""
        if HOST in self.valid:
            return
        if not self.written:
            self.valid.add(HOST)
            return
        name = next(iter(self.valid))
        device, alloc = self.copies[name]
        writers = [u.event for u in self.uses if u.access.writes]
        guards.wait_all([device.copy_to_host(self.host, alloc, 0, writers)])
        stats.record_transfer(False, self.nbytes)
        self.valid.add(HOST)

    def host_written(self) -> None:
        """After the host wrote its bytes (``host_mut``, DLPack export): only host is valid."""
        self.valid = {HOST}
        self.written = True

    def __del__(self) -> None:
        for device, alloc in self.copies.values():
            try:
                device.free(alloc)
            except Exception:  # noqa: BLE001 - interpreter shutdown may have torn the driver down
                pass
