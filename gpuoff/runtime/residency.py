"""Where a buffer's valid bytes live, and the copies that keep it so (SPEC §4).

A ``Storage`` is one allocation shared by a buffer and all its views. It always has host
memory (a contiguous uint8 NumPy array; views' layouts are computed on it) and, per device
that used it, a device allocation. Validity is tracked per byte range: an interval map from
byte ranges to the set of locations (``"host"``, device names) holding their current bytes,
so disjoint views may be written in different places at once (a ``host_mut()`` of one half
while a device writes the other) without one discarding the other. ``ANYWHERE`` marks bytes
never written (``go.empty``): nothing to copy. A device whose memory *is* host memory
(``cpu``) uses the host array itself, so its location is ``"host"``: no copy ever, and the
model still says what is valid.

Rules (all called with ``guards.LOCK`` held):

- ``make_valid_on(D, lo, hi)`` before a launch: copy the stale parts of ``[lo, hi)`` to D
  (through the host when the only valid copy is on another device).
- ``mark_written_on(D, lo, hi)`` for a writer: D holds the only valid copy of ``[lo, hi)``.
- ``make_host_valid(lo, hi)`` when the host asks (``numpy()``, host views): copy back the
  stale parts only.

Memory gpuoff does not own (``foreign``: a NumPy array wrapped by ``go.asarray`` or passed to
a launch, a DLPack import, and a buffer while a DLPack export of it is alive) is written by
its owner outside the guards, so two more rules keep the owner's copy and the device's
coherent at every synchronisation point (docs/memory.md):

- ``claim()`` at a launch: when no gpuoff work on the storage is pending, the owner may have
  written any byte since, so the host copy is taken as the only valid one (a device copy is
  then refreshed by ``make_valid_on``); while work is pending the owner must not touch it.
- ``written_through(D, lo, hi)`` after a launch on a device with its own memory wrote
  ``[lo, hi)``: the runtime has queued the copy back to the host behind the launch (the
  launch's use waits for both), so host and device are both valid: the owner sees the
  kernel's writes as soon as the launch is known finished, without asking the buffer.
"""

from __future__ import annotations

import bisect
import weakref
from collections.abc import Iterator
from typing import Any

import numpy as np

from gpuoff.ownership import ranges_overlap
from gpuoff.runtime import guards, stats
from gpuoff.runtime.devices.base import Allocation, Device, Event

HOST = "host"
ANYWHERE = "*"
_HOST_ONLY = frozenset({HOST})
_NEVER_WRITTEN = frozenset({ANYWHERE})


def location(device: Device) -> str:
    """The residency location of ``device``'s memory (``"host"`` for host-memory devices)."""
    return HOST if device.host_memory else device.name


class Storage:
    """One allocation: host bytes, device copies, per-range validity, and its live borrows."""

    __slots__ = (
        "host", "host_ptr", "nbytes", "copies", "uses", "host_views", "_starts", "_sets",
        "_host_alloc", "plain", "foreign", "owner", "exports", "handles", "__weakref__",
    )  # fmt: skip

    def __init__(self, host: np.ndarray[Any, Any], written: bool, owner: object = None) -> None:
        self.host = host
        self.host_ptr: int = host.__array_interface__["data"][0]
        self.nbytes: int = host.nbytes
        self.copies: dict[str, tuple[Device, Allocation]] = {}
        self.uses: list[guards.Use] = []
        self.host_views: list[guards.HostUse] = []
        self._host_alloc: Allocation | None = None
        # the interval map: segment k covers [_starts[k], _starts[k + 1]) (last: to nbytes)
        self._starts: list[int] = [0] if self.nbytes else []
        self._sets: list[frozenset[str]] = [_HOST_ONLY if written else _NEVER_WRITTEN]
        if not self.nbytes:
            self._sets = []
        self.plain = self._is_plain()
        self.owner = owner
        """The object owning the memory (a NumPy array) when gpuoff does not own it."""
        self.exports = 0
        """DLPack exports of this storage still alive (their consumers share the memory)."""
        self.foreign = owner is not None
        """Whether someone outside gpuoff may read or write the host bytes (module docstring)."""
        self.handles: weakref.WeakSet[Any] = weakref.WeakSet()
        """Every live ``Buffer`` over this storage (views too): a move kills those it overlaps."""

    # -- memory shared with an owner outside gpuoff ---------------------------------------------

    def claim(self) -> None:
        """At a launch of foreign memory: with no gpuoff work on it pending, the owner's
        (host) bytes are the truth; device copies are refreshed before use. Bytes only a
        device holds (written there through ``__cuda_array_interface__``) stay as they are."""
        guards.prune(self.uses)
        if not self.uses and not self.plain:
            self._assign(0, self.nbytes, _host_if_valid)
        if self.owner is None and not self.exports:
            self.foreign = False  # the last export is gone and its writes are claimed

    def exported(self, view: np.ndarray[Any, Any]) -> None:
        """``view`` (an ndarray over the host bytes) is handed to a DLPack consumer: until it
        is gone the storage is foreign."""
        self.exports += 1
        self.foreign = True
        weakref.finalize(view, self._export_gone)

    def _export_gone(self) -> None:
        # a finaliser: may run on any thread, at any time; the next claim() clears ``foreign``
        self.exports -= 1

    def written_through(self, device: Device, lo: int, hi: int) -> None:
        """After a launch on ``device`` wrote ``[lo, hi)`` and its copy back to the host was
        queued behind it: both hold the bytes (waiting for the launch's use waits for both)."""
        both = frozenset({location(device), HOST})
        self._assign(lo, hi, lambda s: both)

    # -- the interval map ----------------------------------------------------------------------

    def _is_plain(self) -> bool:
        """Whether the host alone holds every byte (kept in ``plain``: the ``cpu`` fast path)."""
        return not self._sets or (len(self._sets) == 1 and self._sets[0] == _HOST_ONLY)

    def segments(self, lo: int, hi: int) -> Iterator[tuple[int, int, frozenset[str]]]:
        """``(start, end, locations)`` of the segments covering ``[lo, hi)``, clipped."""
        if lo >= hi:
            return
        k = max(bisect.bisect_right(self._starts, lo) - 1, 0)
        while k < len(self._starts) and self._starts[k] < hi:
            end = self._starts[k + 1] if k + 1 < len(self._starts) else self.nbytes
            yield max(lo, self._starts[k]), min(hi, end), self._sets[k]
            k += 1

    def valid_set(self, lo: int, hi: int) -> set[str]:
        """Locations valid for every byte of ``[lo, hi)`` (``ANYWHERE`` counts for all)."""
        out: set[str] | None = None
        for _, _, s in self.segments(lo, hi):
            if ANYWHERE not in s:
                out = set(s) if out is None else out & s
        return {ANYWHERE} if out is None else out

    def _split(self, at: int) -> int:
        k = bisect.bisect_right(self._starts, at) - 1
        if self._starts[k] != at:
            self._starts.insert(k + 1, at)
            self._sets.insert(k + 1, self._sets[k])
            k += 1
        return k

    def _assign(self, lo: int, hi: int, update: Any) -> None:
        """Set segment sets in ``[lo, hi)`` to ``update(old)``; then merge equal neighbours."""
        lo, hi = max(lo, 0), min(hi, self.nbytes)
        if lo >= hi:
            return
        first = self._split(lo)
        last = self._split(hi) if hi < self.nbytes else len(self._starts)
        for k in range(first, last):
            self._sets[k] = update(self._sets[k])
        starts, sets = [self._starts[0]], [self._sets[0]]
        for start, s in zip(self._starts[1:], self._sets[1:], strict=True):
            if s != sets[-1]:
                starts.append(start)
                sets.append(s)
        self._starts, self._sets = starts, sets
        self.plain = self._is_plain()
        guards.new_epoch()

    # -- allocations and copies ----------------------------------------------------------------

    def allocation_on(self, device: Device) -> Allocation:
        """The allocation holding this storage's bytes on ``device`` (made on first use)."""
        if device.host_memory:
            if self._host_alloc is None:
                self._host_alloc = Allocation(self.host, self.nbytes)
                guards.new_epoch()
            return self._host_alloc
        entry = self.copies.get(device.name)
        if entry is None:
            entry = (device, device.allocate(self.nbytes))
            self.copies[device.name] = entry
            guards.new_epoch()
        return entry[1]

    def make_valid_on(self, device: Device, lo: int = 0, hi: int | None = None) -> list[Event]:
        """Copy the stale parts of ``[lo, hi)`` to ``device``; the copies' events."""
        hi = self.nbytes if hi is None else hi
        loc = location(device)
        if loc == HOST:
            self.make_host_valid(lo, hi)
            return []
        sets = self._sets
        if len(sets) == 1 and loc in sets[0] and loc in self.copies:
            return []  # the warm path: every byte is valid on the device already
        dst = self.allocation_on(device)
        stale = [(a, b) for a, b, s in self.segments(lo, hi) if loc not in s and ANYWHERE not in s]
        if stale:
            # the bytes come from the host (or through it): writers still running elsewhere
            # (a pooled cpu launch, another device) must finish first
            guards.wait_all(
                [
                    u.event
                    for u in self.uses
                    if u.access.writes and ranges_overlap(u.lo, u.hi, lo, hi)
                ]
            )
        events = []
        for a, b in _coalesce(stale):
            self.make_host_valid(a, b)
            events.append(device.copy_from_host(dst, a, self.host[a:b], ()))
            stats.record_transfer(True, b - a)
            self._assign(a, b, lambda s: s | {loc})
        return events

    def make_host_valid(self, lo: int = 0, hi: int | None = None) -> None:
        """Copy back the parts of ``[lo, hi)`` whose host bytes are stale (blocks until done)."""
        hi = self.nbytes if hi is None else hi
        if self.plain:
            return
        stale = [
            (a, b, min(s))
            for a, b, s in self.segments(lo, hi)
            if HOST not in s and ANYWHERE not in s
        ]
        if not stale:
            return
        writers = [u.event for u in self.uses if u.access.writes]
        runs: list[tuple[int, int, str]] = []
        for a, b, src in stale:
            if runs and runs[-1][1] == a and runs[-1][2] == src:
                runs[-1] = (runs[-1][0], b, src)
            else:
                runs.append((a, b, src))
        for a, b, src in runs:
            device, alloc = self.copies[src]
            guards.wait_all([device.copy_to_host(self.host[a:b], alloc, a, writers)])
            stats.record_transfer(False, b - a)
            self._assign(a, b, lambda s: s | _HOST_ONLY)

    def mark_written_on(self, device: Device, lo: int = 0, hi: int | None = None) -> None:
        """After a write of ``[lo, hi)`` on ``device``: its copy is the only valid one."""
        loc = location(device)
        if loc == HOST and self.plain:
            return
        sets = self._sets
        if len(sets) == 1 and len(sets[0]) == 1 and loc in sets[0]:
            return  # the device holds the only valid copy of every byte already
        only = _HOST_ONLY if loc == HOST else frozenset({loc})
        self._assign(lo, self.nbytes if hi is None else hi, lambda s: only)

    def host_written(self, lo: int = 0, hi: int | None = None) -> None:
        """After the host wrote ``[lo, hi)`` (``host_mut``, DLPack export): only host is valid."""
        if not self.plain:
            self._assign(lo, self.nbytes if hi is None else hi, lambda s: _HOST_ONLY)

    def __del__(self) -> None:
        for device, alloc in self.copies.values():
            try:
                device.free(alloc)
            except Exception:  # noqa: BLE001 - interpreter shutdown may have torn the driver down
                pass


def _host_if_valid(s: frozenset[str]) -> frozenset[str]:
    return _HOST_ONLY if HOST in s or ANYWHERE in s else s


def _coalesce(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in ranges:
        if out and out[-1][1] == a:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out
