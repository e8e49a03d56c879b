"""Borrow guards: the ownership rules of ``gpuoff.ownership`` applied at run time.

Per allocation (a ``residency.Storage``) the runtime keeps the live uses by device work
(``Use``: byte range, access, completion event) and the open host views (``HostUse``), in the
style of tinygrad's DepsTracker: a new use is checked against the live ones by interval overlap.

- A launch checks all its arguments together (``check_aliases``) and against open host views
  (``check_host_views``) before anything runs; a failure raises ``BorrowError`` and changes
  nothing.
- Live uses it conflicts with are not errors: the launch is ordered after them
  (``conflicting_events`` gives the events to wait for). Shared uses never conflict.
- A use stays live until its event completes; ``prune`` drops finished uses. Errors that a
  finished event carries (``BoundsError``) are kept and raised at the next synchronisation
  (``raise_deferred``): ``go.synchronize()``, ``numpy()``, ``host()``, ``host_mut()``.

All guard state is protected by one process-wide re-entrant lock, ``LOCK``. ``EPOCH`` changes
(to a value never used before, ``new_epoch``) whenever any of it changes: uses, host views,
residency, allocations, moves, and every launch that is not a repeat. A launch repeating the
previous one with the same argument objects while ``EPOCH`` is unchanged would pass every check
the same way, so it skips them (``Plan.repeat``).
"""

from __future__ import annotations

import itertools
import os
import sys
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from gpuoff.errors import BorrowError, GpuoffError, UseAfterMoveError
from gpuoff.ownership import (
    Access,
    alias_message,
    conflicts,
    host_conflict_message,
    ranges_overlap,
    use_after_move_message,
)
from gpuoff.runtime import stats
from gpuoff.runtime.devices.base import Event
from gpuoff.runtime.tracebacks import entry_point

LOCK = threading.RLock()
"""Protects every Storage's uses, host views, residency, and the pending/deferred lists."""
EPOCH = 0
"""The guard state's version: see the module docstring. Read it, never assign it."""
_epochs = itertools.count(1)


def new_epoch() -> int:
    """Mark the guard state changed; returns the new (never used before) ``EPOCH``."""
    global EPOCH
    EPOCH = epoch = next(_epochs)
    return epoch


@dataclass(eq=False, slots=True)
class Use:
    """Device work using bytes ``[lo, hi)`` of an allocation until ``event`` completes."""

    lo: int
    hi: int
    access: Access
    event: Event


@dataclass(eq=False, slots=True)
class HostUse:
    """An open host view (``host()`` / ``host_mut()``) of bytes ``[lo, hi)``; ``layout`` is
    the view as an ndarray, for the exact overlap test of strided views."""

    lo: int
    hi: int
    access: Access
    layout: Any = None


@dataclass(frozen=True, slots=True)
class MovedAt:
    """Where a buffer handle was moved: the kernel and the user's ``file:line``."""

    kernel: str
    where: str

    def error(self, name: str) -> UseAfterMoveError:
        return UseAfterMoveError(use_after_move_message(name, self.kernel, self.where))


_pending: list[tuple[Event, object]] = []
"""Unfinished device work and what it needs alive (its arguments) until it finishes."""
_deferred: list[BaseException] = []
_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def user_location() -> str:
    """``file:line`` of the innermost frame outside gpuoff (the user's call site)."""
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not os.path.abspath(filename).startswith(_PKG_DIR + os.sep):
            return f"{filename}:{frame.f_lineno}"
        frame = frame.f_back  # type: ignore[assignment]
    return "<unknown>"


def settle(event: Event) -> None:
    """Wait for ``event``; keep a device-side failure for the next synchronisation."""
    try:
        event.wait()
    except GpuoffError as exc:
        with LOCK:
            _deferred.append(exc)


def prune(uses: list[Use]) -> None:
    """Drop the uses whose work has finished (their errors are deferred, not lost), and a use
    superseded by the next one (``_supersedes``): a loop of launches keeps one use, not one
    per launch still in flight. A dropped unfinished use's event stays in ``_pending`` (``track``),
    so its errors still surface at the next synchronisation."""
    if not uses:
        return
    keep: list[Use] = []
    for use in uses:
        if use.event.done():
            settle(use.event)
        elif keep and _supersedes(use, keep[-1]):
            keep[-1] = use
        else:
            keep.append(use)
    uses[:] = keep
    new_epoch()


def _supersedes(new: Use, old: Use) -> bool:
    """Whether ``old`` tells nothing ``new`` does not: ``new`` finishing implies ``old`` has,
    it covers ``old``'s bytes, and it conflicts with every use ``old`` conflicts with (and
    writes if ``old`` does). Waiting for ``new`` then orders after both."""
    return (
        (new.access is old.access or new.access.exclusive)
        and new.lo <= old.lo
        and old.hi <= new.hi
        and new.event.implies(old.event)
    )


def conflicting_events(uses: Iterable[Use], lo: int, hi: int, access: Access) -> list[Event]:
    """Events of live uses that a new use of ``[lo, hi)`` with ``access`` must wait for."""
    return [
        u.event for u in uses if conflicts(u.access, access) and ranges_overlap(u.lo, u.hi, lo, hi)
    ]


def shares_bytes(a: Any, b: Any) -> bool:
    """Whether two views (ndarrays over the same memory) share a byte, exactly when that is
    cheap to decide (``b[:, 0]`` and ``b[:, 1]`` do not); if unknown or too hard: True."""
    if a is None or b is None:
        return True
    try:
        # NumPy's stubs only list -1 and 0, but a positive bound is documented and works
        return bool(np.shares_memory(a, b, max_work=_EXACT_WORK))  # type: ignore[arg-type]
    except np.exceptions.TooHardError:
        return True


_EXACT_WORK = 10_000


def check_host_views(
    views: Iterable[HostUse],
    lo: int,
    hi: int,
    access: Access,
    name: str,
    kernel: str,
    layout: Any = None,
) -> None:
    """Raise ``BorrowError`` if an open host view conflicts with a launch's use of ``[lo, hi)``
    (``layout``: the argument's view, for the exact test when byte ranges interleave)."""
    for view in views:
        if (
            conflicts(view.access, access)
            and ranges_overlap(view.lo, view.hi, lo, hi)
            and shares_bytes(view.layout, layout)
        ):
            raise BorrowError(host_conflict_message(name, view.access, access, kernel))


@dataclass(frozen=True, slots=True)
class ArgUse:
    """One array argument of a launch, for the aliasing check: parameter name, access, and its
    absolute host byte range (views of one allocation, or NumPy arrays sharing memory, overlap)."""

    name: str
    access: Access
    lo: int
    hi: int
    layout: Any = None  # the view as an ndarray: exact test for interleaved strided views


def check_aliases(kernel: str, args: Sequence[ArgUse]) -> None:
    """Rule 3: an exclusive argument must not overlap any other argument of the same launch."""
    n = len(args)
    for i in range(n):
        a = args[i]
        for j in range(i + 1, n):
            b = args[j]
            if (
                (a.access.exclusive or b.access.exclusive)
                and ranges_overlap(a.lo, a.hi, b.lo, b.hi)
                and shares_bytes(a.layout, b.layout)
            ):
                raise BorrowError(alias_message(kernel, a.name, a.access, b.name, b.access))


def track(event: Event, keep_alive: object = None) -> None:
    """Remember unfinished device work for ``synchronize()``, holding ``keep_alive`` (the
    launch's arguments: their memory must outlive the work) until it is done. The caller
    holds ``LOCK``."""
    if len(_pending) > 64:
        _pending[:] = [p for p in _pending if not _finished(p[0])]
    else:  # drop finished work from the front, so that its arguments are not kept long
        while _pending and _finished(_pending[0][0]):
            del _pending[0]
    _pending.append((event, keep_alive))


def _finished(event: Event) -> bool:
    if event.done():
        settle(event)
        return True
    return False


def wait_all(events: Sequence[Event]) -> None:
    """Block until ``events`` finish (counted in ``stats().waits`` when the host blocks on
    work not known to be finished: ``Event.known_done``, which asks no driver)."""
    for event in events:
        if not event.known_done():
            stats.bump("waits")
        settle(event)


def raise_deferred() -> None:
    """Raise the oldest device-side error not yet reported (then forget it)."""
    with LOCK:
        if not _deferred:
            return
        exc = _deferred.pop(0)
    raise exc


@entry_point
def synchronize() -> None:
    """Wait for all device work launched so far; raise the first error it reported."""
    with LOCK:
        pending = list(_pending)  # holds the arguments alive until their work is done
        _pending.clear()
    wait_all([event for event, _ in pending])
    del pending
    raise_deferred()


def _after_fork_in_child() -> None:
    # another thread may have held the lock at fork time; no thread of the parent exists here
    global LOCK
    LOCK = threading.RLock()
    _pending.clear()


os.register_at_fork(after_in_child=_after_fork_in_child)
