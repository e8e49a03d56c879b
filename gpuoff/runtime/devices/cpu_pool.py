"""The ``cpu`` device's worker pool and events: chunks of work-groups run on long-lived
worker threads (and on any thread that waits for them, like OpenMP's master thread), each
thread with its own error record (``codegen.abi``); a launch's event counts its finished
chunks, keeps the failure ``gpuoff.ir.bounds.failure_order`` puts first and raises it from
``wait()`` once. A launch waiting on unfinished CPU work is queued behind it by completion
callbacks (``after``), never by blocking a worker.
"""

from __future__ import annotations

import ctypes
import os
import queue
import threading
from collections.abc import Callable, Sequence
from typing import Any

from codegen import abi
from gpuoff.errors import BoundsError, OutOfMemoryError
from gpuoff.ir.nodes import Module
from gpuoff.runtime.devices.base import DoneEvent, Event

ErrorFactory = Callable[[int, tuple[int, ...], tuple[int, ...]], Exception]
ErrorInfo = ErrorFactory | tuple[Any, tuple[Any, ...]] | None
"""How to build a launch's BoundsError: a factory ``(check, indices, shape)``, or ``(plan,
args)`` for ``plan.make_error(args, check, indices, shape)`` (no closure per launch on the hot
path). ``shape``: the failing array's, from the error record."""
def make_error(info: ErrorInfo, check: int, indices: tuple[int, ...],
                shape: tuple[int, ...] = ()) -> Exception:  # fmt: skip
    if check == abi.OUT_OF_MEMORY:
        return OutOfMemoryError(f"cpu: cannot allocate {indices[0] if indices else '?'} bytes "
                                "of work-group memory (shared arrays, per-item state) for a "
                                "launch; nothing ran")  # fmt: skip
    if info is None:
        return BoundsError(f"out-of-range access (check {check}, indices {indices})")
    if isinstance(info, tuple):
        error: Exception = info[0].make_error(info[1], check, indices, shape)
        return error
    return info(check, indices, shape)



ErrBlock = ctypes.c_int64 * abi.ERROR_RECORD_LEN



class CpuEvent(Event):
    """Completion of one pooled launch: counts finished chunks, gathers error records."""

    def __init__(self, on_error: ErrorInfo, pool: Pool | None = None) -> None:
        self._flag = threading.Event()
        self._lock = threading.Lock()
        self._remaining = 0
        self._error: tuple[int, tuple[int, ...], tuple[int, ...]] | None = None
        self._error_item = 0  # the failing work-item of _error (failure_order)
        self._on_error = on_error
        self._reported = False
        self._callbacks: list[Callable[[], None]] = []
        self._pool = pool

    def done(self) -> bool:
        return self._flag.is_set()

    def wait(self) -> None:
        """Block until done, running queued chunks (of any launch) on this thread meanwhile."""
        if not self._flag.is_set():
            pool = self._pool
            if pool is not None and pool.pid == os.getpid():  # a forked child's pool has no workers
                pool.help_until(self._flag)
            self._flag.wait()
        if self._error is not None and not self._reported:
            self._reported = True
            raise make_error(self._on_error, *self._error)

    def add_done_callback(self, fn: Callable[[], None]) -> None:
        """Call ``fn`` (on the finishing thread) when the work is done; now if already done."""
        with self._lock:
            if not self._flag.is_set():
                self._callbacks.append(fn)
                return
        fn()

    def _record(self, check: int, indices: tuple[int, ...], item: int,
                shape: tuple[int, ...]) -> None:  # fmt: skip
        """Keep the failure that ``gpuoff.ir.bounds.failure_order`` puts first (chunks of
        work-groups finish in any order)."""
        with self._lock:
            if self._error is None or (item, check) < (self._error_item, self._error[0]):
                self._error = (check, indices, shape)
                self._error_item = item

    def _finish(self, chunks: int = 1) -> None:
        with self._lock:
            self._remaining -= chunks
            if self._remaining > 0:
                return
            self._flag.set()
            callbacks, self._callbacks = self._callbacks, []
        pool = self._pool
        if pool is not None and pool.waiters:
            pool.wake()
        for fn in callbacks:
            fn()


def take_error(err: Any, check_ndim: Callable[[int], int]
                ) -> tuple[int, tuple[int, ...], int, tuple[int, ...]] | None:  # fmt: skip
    """``(check id, indices, work-item, shape)`` of an err block's record (then zeroed), or
    None (``codegen.abi``'s layout)."""
    if not err[0]:
        return None
    check = int(err[0])
    ndim = check_ndim(check)
    indices = tuple(int(err[1 + d]) for d in range(ndim))
    shape = tuple(int(err[abi.SHAPE_SLOT + d]) for d in range(ndim))
    item = int(err[abi.ITEM_SLOT])
    for i in range(abi.ERROR_RECORD_LEN):
        err[i] = 0
    return check, indices, item, shape


Chunk = tuple[CpuEvent, Any, Any, int, int, Any]
"""``(event, entry, packed block, first group, end group, ndim_of)``"""


def run_chunk(chunk: Chunk, err: Any) -> None:
    event, entry, block, lo, hi, ndim_of = chunk
    try:
        entry(block, lo, hi, err)  # ctypes releases the GIL for the call
        found = take_error(err, ndim_of)
        if found is not None:
            event._record(*found)
    finally:
        event._finish()


class Pool:
    """Long-lived workers running chunks of work-groups, joined by any thread that waits for a
    pooled launch (``help_until``)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.threads = workers + 1
        """What ``threads.get_num_threads()`` said when the pool was made."""
        self.pid = os.getpid()
        self.queue: queue.SimpleQueue[Chunk | None] = queue.SimpleQueue()
        self.waiters = 0
        """Threads in ``help_until``: submissions and finished launches wake them (``idle``)."""
        self.idle = threading.Condition(threading.Lock())
        self.started = [threading.Thread(target=self._run, name=f"gpuoff-cpu-{i}", daemon=True)
                        for i in range(workers)]  # fmt: skip
        for thread in self.started:
            thread.start()

    def _run(self) -> None:
        err = ErrBlock()
        get = self.queue.get
        while True:
            chunk = get()
            if chunk is None:  # ``retire``: a pool of another size took over
                return
            run_chunk(chunk, err)

    def retire(self) -> None:
        """Let every worker exit once the chunks queued before now have run."""
        for _ in range(self.workers):
            self.queue.put(None)

    def help_until(self, flag: threading.Event) -> None:
        """Run queued chunks on the calling thread until ``flag`` is set; sleep while the
        queue is empty (the launch's chunks are running elsewhere, or it waits for another
        launch). Every queued chunk's dependencies are done (``after`` submits only then),
        so any may run here; a chunk keeps its launch's error record via the event."""
        err = thread_err()
        get = self.queue.get_nowait
        with self.idle:
            self.waiters += 1
        try:
            while not flag.is_set():
                try:
                    chunk = get()
                    if chunk is None:  # retired: leave the signal to a worker, and the
                        self.queue.put(None)  # launch's chunks to the pool that has them
                        flag.wait()
                        break
                except queue.Empty:
                    with self.idle:  # re-checked under the lock: ``wake`` cannot slip between
                        if not flag.is_set() and self.queue.empty():
                            self.idle.wait()
                    continue
                run_chunk(chunk, err)
        finally:
            with self.idle:
                self.waiters -= 1

    def wake(self) -> None:
        """Wake the helping waiters (new chunks queued, or a launch finished)."""
        with self.idle:
            self.idle.notify_all()

    def submit(self, event: CpuEvent, entry: Any, block: Any, n_groups: int, ndim_of: Any) -> None:
        chunks = min(n_groups, 4 * self.workers)
        event._remaining = chunks
        step, extra = divmod(n_groups, chunks)
        lo = 0
        for c in range(chunks):
            hi = lo + step + (1 if c < extra else 0)
            self.queue.put((event, entry, block, lo, hi, ndim_of))
            lo = hi
        if self.waiters:
            self.wake()


DONE = DoneEvent()
_tls = threading.local()


def thread_err() -> Any:
    err = getattr(_tls, "err", None)
    if err is None:
        err = _tls.err = ErrBlock()
    return err


class FailedEvent(Event):
    """An inline launch that finished with a bounds error (raised by the first ``wait``)."""

    inline = True  # the launch path raises it before returning

    def __init__(self, error: Exception) -> None:
        self._error: Exception | None = error

    def done(self) -> bool:
        return True

    def wait(self) -> None:
        error, self._error = self._error, None
        if error is not None:
            raise error



def serve(work: queue.SimpleQueue[Chunk]) -> None:
    """The big-stack thread: run the launches given to it, one after the other."""
    err = ErrBlock()
    while True:
        run_chunk(work.get(), err)



def wait_all(events: Sequence[Event]) -> None:
    for e in events:
        e.wait()


def after(pending: list[Event], start: Callable[[], None]) -> None:
    """Call ``start`` once every pending event is done (CPU events by callback)."""
    foreign = [e for e in pending if not isinstance(e, CpuEvent)]
    if foreign:
        from gpuoff.runtime import guards

        guards.wait_all(foreign)
    ours = [e for e in pending if isinstance(e, CpuEvent)]
    if not ours:
        start()
        return
    counter = [len(ours)]
    lock = threading.Lock()

    def one_done() -> None:
        with lock:
            counter[0] -= 1
            last = counter[0] == 0
        if last:
            start()

    for e in ours:
        e.add_done_callback(one_done)


def error_factory(module: Module, shapes: dict[str, tuple[int, ...]]) -> ErrorFactory:
    """Builds the ``BoundsError`` for a failed check, from the launch's array shapes."""

    def make(check: int, indices: tuple[int, ...], recorded: tuple[int, ...]) -> Exception:
        array = next((c.array for c in module.checks if c.id == check), "")
        shape = recorded or shapes.get(array, ())
        from gpuoff.ir.bounds import launch_error

        return launch_error(module, check, indices, shape)

    return make
