"""Ctrl-C in the middle of an OpenCL launch loop (issue 20, item 9): a ``KeyboardInterrupt``
that lands while launches are handed to the driver leaves no event without a command behind
(it made the next ``go.synchronize()`` raise ``AttributeError: 'NoneType' object has no
attribute 'wait'``); synchronising, host access and later launches work as before.

The interrupt is raised where the signal handler would raise it: inside the driver calls of
a held batch, of a single launch, and of a checked relaunch."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32
from gpuoff.runtime.devices.opencl_program import OpenCLProgram
from tests.backends.test_opencl_support import has_opencl

pytestmark = pytest.mark.skipif(not has_opencl(), reason="no OpenCL device")


@go.kernel
def bump(y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = y[i] + 1.0


@go.kernel
def bump_from(x: Borrow[Array[f32]], idx: Borrow[Array[i32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = y[i] + x[idx[i]]  # a gathered index keeps its check: the checked launch paths


def _interrupt_after(monkeypatch: pytest.MonkeyPatch, method: str, calls: int) -> list[int]:
    """Make ``OpenCLProgram.<method>`` do its work and then raise KeyboardInterrupt, on its
    ``calls``-th call (a signal arriving as the driver call returns)."""
    real = getattr(OpenCLProgram, method)
    seen = [0]

    def wrapped(self: OpenCLProgram, *args: Any) -> Any:
        seen[0] += 1
        result = real(self, *args)
        if seen[0] == calls:
            raise KeyboardInterrupt
        return result

    monkeypatch.setattr(OpenCLProgram, method, wrapped)
    return seen


def _still_works(y: go.Buffer[Any]) -> None:
    go.synchronize()  # no AttributeError
    got = y.numpy()
    assert len(set(got.tolist())) == 1  # each launch ran over all of y, or not at all
    before = got[0]
    bump[y.shape[0]](y)
    go.synchronize()
    assert (y.numpy() == before + 1.0).all()


def test_interrupt_while_held_launches_reach_the_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    with go.on("opencl:0"):
        y = go.zeros(256)
        bump[256](y)
        go.synchronize()
        _interrupt_after(monkeypatch, "enqueue_repeated", 1)
        with pytest.raises(KeyboardInterrupt):
            for _ in range(500):
                bump[256](y)  # repeats are held and handed over in bursts
            go.synchronize()
        monkeypatch.undo()
        _still_works(y)


def test_interrupt_as_a_launch_reaches_the_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    with go.on("opencl:0"):
        ys = [go.zeros(256) for _ in range(3)]
        for y in ys:
            bump[256](y)
        _interrupt_after(monkeypatch, "enqueue", 2)
        with pytest.raises(KeyboardInterrupt):
            for y in ys:  # another buffer each time: every launch takes the full path
                bump[256](y)
        monkeypatch.undo()
        for y in ys:
            _still_works(y)


def _gather_args() -> tuple[go.Buffer[Any], go.Buffer[Any], go.Buffer[Any]]:
    x = go.array(np.ones(64, np.float32))
    idx = go.array(np.arange(64, dtype=np.int32)[::-1].copy())
    return x, idx, go.zeros(64)


def test_interrupt_in_a_checked_relaunch(monkeypatch: pytest.MonkeyPatch) -> None:
    with go.on("opencl:0"):
        x, idx, y = _gather_args()
        bump_from[64](x, idx, y)
        seen = _interrupt_after(monkeypatch, "enqueue_again", 3)
        with pytest.raises(KeyboardInterrupt):
            for _ in range(10):
                bump_from[64](x, idx, y)
        assert seen[0] == 3
        monkeypatch.undo()
        go.synchronize()
        assert 3.0 <= y.numpy()[0] <= 4.0
        _still_works(y)


def test_launches_after_an_interrupt_recycle_every_error_slot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the ring of error records (4096 slots) comes round to the interrupted launch's slot
    with go.on("opencl:0"):
        x, idx, y = _gather_args()
        _interrupt_after(monkeypatch, "enqueue", 1)
        with pytest.raises(KeyboardInterrupt):
            bump_from[64](x, idx, y)
        monkeypatch.undo()
        for _ in range(4200):
            bump_from[64](x, idx, y)
        go.synchronize()
        assert 4200.0 <= y.numpy()[0] <= 4201.0
