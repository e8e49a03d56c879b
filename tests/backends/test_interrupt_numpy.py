"""Ctrl-C during a launch with NumPy arguments (issue 20, item 9): a ``KeyboardInterrupt`` that
lands while the launch waits for the device, or while its results are copied back, loses
nothing. The launch was handed to the device and runs to its end; before the interrupt
reaches the caller its writes are in the NumPy ``BorrowMut`` arguments (on a device with its
own memory they used to stay on the device: a lost write), and ``go.synchronize()`` and later
launches work as before.

The interrupt is raised where Python's signal handler raises it (between two steps of the
launch: ``_interrupt_once``), and also sent as a real SIGINT at a random moment of a loop of
launches."""

from __future__ import annotations

import signal
import sys
import threading
import time
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, BorrowMut, i32
from gpuoff.runtime import guards

DEVICES = [d for d in ("cpu", "opencl:0") if any(x.name == d and x.available
                                                 for x in go.devices())]  # fmt: skip
N = 256


@go.kernel
def slow_bump(y: BorrowMut[Array[i32]], z: BorrowMut[Array[i32]], reps: i32) -> None:
    # reps rounds of a hash per work-item: long enough that an interrupt lands mid-kernel
    i = go.global_id(0)
    if i < y.shape[0]:
        h = i
        for _ in range(reps):
            h = h * 1103515245 + 12345
        z[i] = h
        y[i] = y[i] + 1


def _hashes(reps: int) -> np.ndarray[Any, Any]:
    h = np.arange(N, dtype=np.int64)
    for _ in range(reps):
        h = (h * 1103515245 + 12345) & 0xFFFFFFFF
    out: np.ndarray[Any, Any] = h.astype(np.uint32).view(np.int32)
    return out


def _interrupt_once(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, caller: str) -> None:
    """``module.name`` raises KeyboardInterrupt on its first call from a function named
    ``caller``, before doing its work (a signal arriving as the launch starts to wait for the
    device or to copy the results back)."""
    real = getattr(module, name)
    fired = [False]

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not fired[0] and sys._getframe(1).f_code.co_name == caller:
            fired[0] = True
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapped)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("where", ["wait", "copy"])
def test_interrupt_while_a_numpy_launch_finishes(
    monkeypatch: pytest.MonkeyPatch, device: str, where: str
) -> None:
    reps = 20000
    with go.on(device):
        y = np.zeros(N, np.int32)
        z = np.zeros(N, np.int32)
        slow_bump[N](y, z, 1)  # compiled and warm: the interrupt hits the launch itself
        if where == "wait":
            _interrupt_once(monkeypatch, guards, "wait_all", "_finish_host_arrays")
        else:
            _interrupt_once(monkeypatch, np, "copyto", "_copy_back")
        # a strided view: copied for the launch and back on every device
        zv = np.zeros(2 * N, np.int32)[::2]
        with pytest.raises(KeyboardInterrupt):
            slow_bump[N](y, zv, reps)
        monkeypatch.undo()
        # nothing lost: the interrupted launch's writes are there, and nothing more comes
        assert (y == 2).all() and (zv == _hashes(reps)).all()
        go.synchronize()
        assert (y == 2).all() and (zv == _hashes(reps)).all()
        slow_bump[N](y, z, 3)
        assert (y == 3).all() and (z == _hashes(3)).all()


@pytest.mark.parametrize("device", DEVICES)
def test_a_real_sigint_in_a_loop_of_numpy_launches(device: str) -> None:
    # Every launch that started either ran completely (its +1 is in y) or never reached the
    # device; none ran without its write arriving, none arrives after the interrupt.
    with go.on(device):
        y = np.zeros(N, np.int32)
        z = np.zeros(2 * N, np.int32)[::2]
        slow_bump[N](y, z, 1)
        main = threading.get_ident()
        timer = threading.Timer(0.3, signal.pthread_kill, (main, signal.SIGINT))
        started = 1
        timer.start()
        try:
            with pytest.raises(KeyboardInterrupt):
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline:
                    started += 1
                    slow_bump[N](y, z, 2000)
        finally:
            timer.cancel()
        seen = y.copy()
        assert seen.min() == seen.max() and started - 1 <= seen[0] <= started, (seen, started)
        go.synchronize()
        assert (y == seen).all()  # nothing arrived after the interrupt reached the loop
        slow_bump[N](y, z, 2000)
        assert (y == seen + 1).all() and (z == _hashes(2000)).all()
