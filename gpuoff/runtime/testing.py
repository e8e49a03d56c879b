"""A fake device and Python-bodied kernels, for testing the runtime without a compiler.

``FakeDevice`` keeps "device memory" in NumPy byte arrays filled with 0xCD (so a missing copy
shows), runs each launch asynchronously on its own thread after the events it must wait for,
and can hold launches in flight (``hold()`` / ``release()``) to test ordering rules. Set
``host_memory=True`` to model a device that shares host memory (like ``cpu``).

``py_kernel`` makes a ``Kernel`` whose body is ordinary Python run on NumPy views of the
arguments: the annotations give the signature, exactly as for a compiled kernel, so guards,
residency and argument checks run unchanged. An ``IndexError`` raised by the body becomes the
launch's ``BoundsError``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, ParamSpec

import numpy as np

from gpuoff.errors import BoundsError
from gpuoff.ir.nodes import Module
from gpuoff.runtime.devices.base import (
    Allocation,
    ArrayArg,
    Device,
    DoneEvent,
    Event,
    LaunchArg,
    Program,
    Relaunch,
)  # fmt: skip
from gpuoff.runtime.kernel import Kernel

P = ParamSpec("P")


class FakeEvent(Event):
    """Completion of one fake launch; ``wait`` raises its error once."""

    def __init__(self) -> None:
        self.flag = threading.Event()
        self.error: BaseException | None = None

    def done(self) -> bool:
        return self.flag.is_set()

    def wait(self) -> None:
        self.flag.wait()
        error, self.error = self.error, None
        if error is not None:
            raise error


class PyProgram(Program):
    """A 'compiled' kernel that is a Python function over NumPy views."""

    def __init__(self, fn: Callable[..., Any], dtypes: Sequence[np.dtype[Any]]) -> None:
        self.fn = fn
        self.dtypes = tuple(dtypes)
        self.module = Module.__new__(Module)


class FakeDevice(Device, Relaunch[Program]):
    """An asynchronous device with separate memory (or host memory) for tests."""

    backend = "fake"

    def __init__(self, name: str = "fake:0", host_memory: bool = False, delay: float = 0.0) -> None:
        self.name = name
        self.host_memory = host_memory
        self.delay = delay  # seconds each launch takes: keeps work in flight
        self.log: list[str] = []
        self._gate = threading.Event()
        self._gate.set()
        self.launched = 0
        self.relaunched = 0  # launches made by ``relaunch`` (the runtime's repeat path)
        # per program: the values and the event of its newest launch (for ``relaunch``)
        self._last: dict[Program, tuple[list[Any], FakeEvent]] = {}

    def hold(self) -> None:
        """Launches from now on stay in flight until ``release()``."""
        self._gate.clear()

    def release(self) -> None:
        self._gate.set()

    def allocate(self, nbytes: int) -> Allocation:
        self.log.append(f"alloc {nbytes}")
        return Allocation(np.full(nbytes, 0xCD, np.uint8), nbytes)

    def free(self, allocation: Allocation) -> None:
        allocation.handle = None

    def copy_from_host(
        self, dst: Allocation, dst_offset: int, src: np.ndarray[Any, Any], wait_for: Sequence[Event]
    ) -> Event:
        for e in wait_for:
            e.wait()
        flat = src.reshape(-1).view(np.uint8)
        dst.handle[dst_offset : dst_offset + flat.nbytes] = flat
        self.log.append(f"to_device {flat.nbytes}")
        return DoneEvent()

    def copy_to_host(
        self, dst: np.ndarray[Any, Any], src: Allocation, src_offset: int, wait_for: Sequence[Event]
    ) -> Event:
        for e in wait_for:
            e.wait()
        flat = dst.reshape(-1).view(np.uint8)
        flat[:] = src.handle[src_offset : src_offset + flat.nbytes]
        self.log.append(f"to_host {flat.nbytes}")
        return DoneEvent()

    def host_view(self, allocation: Allocation) -> np.ndarray[Any, Any]:
        handle: np.ndarray[Any, Any] = allocation.handle
        return handle

    def compile(self, module: Module) -> Program:
        raise NotImplementedError("FakeDevice runs py_kernel programs only")

    def launch(
        self,
        program: Program,
        args: Sequence[LaunchArg],
        grid: tuple[int, int, int],
        block: tuple[int, int, int] | None,
        wait_for: Sequence[Event],
    ) -> Event:
        assert isinstance(program, PyProgram)
        values = [
            _view(program.dtypes[i], a) if isinstance(a, ArrayArg) else a
            for i, a in enumerate(args)
        ]

        def before() -> None:
            for e in wait_for:
                e.wait()

        return self._start(program, values, before)

    def relaunch(self, program: Program) -> Event | None:
        """The runtime's repeat path: ``program`` again with the values of its previous
        launch, after it (this device runs launches concurrently, so the order the runtime
        relies on, as on an in-order queue, is made here)."""
        last = self._last.get(program)
        if last is None:
            return None
        values, previous = last
        assert isinstance(program, PyProgram)
        self.relaunched += 1
        return self._start(program, values, previous.flag.wait)

    def _start(self, program: PyProgram, values: list[Any], before: Callable[[], Any]) -> Event:
        """Run ``program`` on ``values`` in a thread of its own, after ``before()``."""
        event = FakeEvent()
        self.launched += 1
        self._last[program] = (values, event)

        def run() -> None:
            try:
                before()
                self._gate.wait()
                if self.delay:
                    time.sleep(self.delay)
                program.fn(*values)
            except IndexError as exc:
                event.error = BoundsError(f"fake kernel: {exc}")
            except BaseException as exc:  # noqa: BLE001 - handed to the waiter
                event.error = exc
            finally:
                event.flag.set()

        threading.Thread(target=run, daemon=True).start()
        return event


def _view(dtype: np.dtype[Any], arg: ArrayArg) -> np.ndarray[Any, Any]:
    return np.ndarray(
        arg.shape, dtype, buffer=arg.allocation.handle, offset=arg.offset,
        strides=tuple(s * dtype.itemsize for s in arg.strides),
    )  # fmt: skip


class PyKernel(Kernel[P]):
    """A kernel whose body runs as Python on NumPy views (see the module docstring)."""

    def _compile(self, device: Device, types: list[Any]) -> tuple[Any, Program]:
        from gpuoff.runtime import stats

        stats.bump("compiles")
        dtypes = [getattr(t, "dtype", t).np_dtype for t in types]
        program = PyProgram(self.pyfunc, dtypes)
        return program.module, program


def nd(value: object) -> Any:
    """``value`` typed as ``Any``: lets a ``py_kernel`` body use its parameters as NumPy
    arrays, and lets tests pass NumPy arrays or wrong values to launches, under mypy."""
    return value


def py_kernel(fn: Callable[P, Any]) -> PyKernel[P]:
    """``@py_kernel`` on a function annotated like a kernel whose body uses NumPy views."""
    return PyKernel(fn)
