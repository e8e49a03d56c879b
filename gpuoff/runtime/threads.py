"""How many threads the ``cpu`` device runs work-groups on (SPEC §6).

First match wins: ``go.set_num_threads(n)``, then ``GPUOFF_NUM_THREADS``, then, inside a Dask
``distributed`` worker, that worker's thread count (two one-thread workers on a two-core
machine must not each start a pool of every core), else the cores this process may run on
(``os.sched_getaffinity``: a container's or ``taskset``'s limit, not the machine's count).

``n`` threads means ``n - 1`` pool workers plus the launching thread, which runs queued work
while it waits (``devices.cpu``); with ``n == 1`` there is no pool and every launch runs on the
thread that makes it. The count is read when the pool is first made; ``set_num_threads``
remakes it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from gpuoff.errors import ConfigError

ENV = "GPUOFF_NUM_THREADS"


_chosen: int | None = None
_listeners: list[Callable[[], None]] = []


def _positive(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"{where} is a whole number of threads, at least 1; got {value!r}")
    return value


def set_num_threads(n: int | None) -> None:
    """Run ``cpu`` launches on ``n`` threads (the launching one included) from now on, in this
    process; a pool of another size is replaced once its queued work is done. ``None`` goes
    back to the default (``GPUOFF_NUM_THREADS``, a Dask worker's count, the cores)."""
    global _chosen
    _chosen = None if n is None else _positive(n, "go.set_num_threads(n)")
    for listener in _listeners:
        listener()


def get_num_threads() -> int:
    """The number of threads ``cpu`` launches run on (see the module docstring)."""
    if _chosen is not None:
        return _chosen
    raw = os.environ.get(ENV, "").strip()
    if raw:
        try:
            value = int(raw)
        except ValueError:
            value = -1
        return _positive(value if value >= 1 else raw, ENV)
    workers = dask_worker_threads()
    return workers if workers is not None else available_cores()


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # macOS, Windows
        return max(1, os.cpu_count() or 1)


def dask_worker_threads() -> int | None:
    """The thread count of the Dask ``distributed`` worker this runs in, or None outside one
    (distributed is never imported here: only looked at where the program already has it)."""
    distributed = sys.modules.get("distributed")
    if distributed is None:
        return None
    try:
        worker = distributed.get_worker()
    except (ValueError, AttributeError):
        return None
    count = getattr(getattr(worker, "state", worker), "nthreads", None)
    return int(count) if isinstance(count, int) and count >= 1 else None


def on_change(listener: Callable[[], None]) -> None:
    """Call ``listener`` after each ``set_num_threads`` (the cpu device drops its pool)."""
    _listeners.append(listener)
