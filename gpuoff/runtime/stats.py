"""Counters behind ``go.stats()``: launches, compiles, transfers (count and bytes each way), waits.

Counters are process-wide and thread-safe. ``go.stats()`` returns an immutable snapshot, so a
test can take one before and one after and compare.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Stats:
    """A snapshot of the runtime counters (see ``go.stats()``).

    ``transfers_to_device`` / ``bytes_to_device`` count host -> device copies,
    ``transfers_to_host`` / ``bytes_to_host`` device -> host copies. Devices whose memory is host
    memory (``cpu``) never copy. ``compiles`` counts real compilations (not in-memory or disk
    cache hits; disk hits are ``disk_cache_hits``). ``waits`` counts the
    times the host blocked on unfinished device work.
    """

    launches: int = 0
    compiles: int = 0
    disk_cache_hits: int = 0
    transfers_to_device: int = 0
    bytes_to_device: int = 0
    transfers_to_host: int = 0
    bytes_to_host: int = 0
    waits: int = 0

    def __sub__(self, other: Stats) -> Stats:
        return Stats(
            **{f.name: getattr(self, f.name) - getattr(other, f.name) for f in fields(self)}
        )


_NAMES = tuple(f.name for f in fields(Stats))
_counts: dict[str, int] = dict.fromkeys(_NAMES, 0)
_lock = threading.Lock()
TICKS = itertools.count()
"""Launches counted by ``next(stats.TICKS)`` without holding ``guards.LOCK`` (one C call, atomic
under the interpreter lock): the runtime's held-launch joins. Read (and reset) under ``_lock``,
each read taking one tick itself."""
_tick_reads = 0  # ticks taken by reads so far


def _ticks() -> int:
    """Launches counted through ``TICKS`` (the caller holds ``_lock``)."""
    global _tick_reads
    n = next(TICKS) - _tick_reads
    _tick_reads += 1
    return n


def bump(name: str, n: int = 1) -> None:
    """Add ``n`` to counter ``name`` (one of ``Stats``' fields)."""
    with _lock:
        _counts[name] += n


def launched() -> None:
    """Count one launch. The caller holds ``guards.LOCK``, which serialises every launch count:
    no second lock on the hot path."""
    _counts["launches"] += 1


def record_transfer(to_device: bool, nbytes: int) -> None:
    """Count one copy of ``nbytes`` bytes in the given direction."""
    with _lock:
        if to_device:
            _counts["transfers_to_device"] += 1
            _counts["bytes_to_device"] += nbytes
        else:
            _counts["transfers_to_host"] += 1
            _counts["bytes_to_host"] += nbytes


def stats() -> Stats:
    """A snapshot of the runtime counters since start-up or the last ``reset_stats()``."""
    with _lock:
        counts = dict(_counts)
        counts["launches"] += _ticks()
        return Stats(**counts)


def reset_stats() -> None:
    """Set every counter back to zero."""
    global TICKS, _tick_reads
    with _lock:
        for name in _NAMES:
            _counts[name] = 0
        TICKS, _tick_reads = itertools.count(), 0
