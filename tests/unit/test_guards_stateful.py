"""A hypothesis state machine drives allocations, views, launches (Borrow / BorrowMut / Owned),
host views, host writes, waits, moves and concurrent launches from several threads against a
simple model of the ownership rules and of the contents, on a slow asynchronous fake device."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Owned, f32
from gpuoff.runtime.devices import register
from gpuoff.runtime.testing import FakeDevice, nd, py_kernel


@py_kernel
def add(a: Borrow[Array[f32]], b: BorrowMut[Array[f32]]) -> None:
    m = min(a.shape[0], b.shape[0])
    nd(b)[:m] += nd(a)[:m]


@py_kernel
def double(b: Owned[Array[f32]]) -> None:
    nd(b)[...] *= 2


@py_kernel
def bump(b: BorrowMut[Array[f32]]) -> None:
    nd(b)[...] += 1


@dataclass
class Handle:
    buf: Any
    alloc: int  # model allocation id
    idx: np.ndarray[Any, Any]  # the view's elements, as indices into the allocation
    moved: bool = False

    @property
    def span(self) -> tuple[int, int]:
        """The element range the view spans (what per-range validity sees)."""
        if not self.idx.size:
            return (0, 0)
        return int(self.idx.min()), int(self.idx.max()) + 1


@dataclass
class View:
    cm: Any
    handle: Handle
    write: bool
    arr: Any = None


@dataclass
class Model:
    contents: dict[int, np.ndarray[Any, Any]] = field(default_factory=dict)


def _overlap(a: Handle, b: Handle) -> bool:
    """Exact: the two views share an element."""
    return a.alloc == b.alloc and bool(np.intersect1d(a.idx, b.idx).size)


def _spans_overlap(a: Handle, b: Handle) -> bool:
    """Conservative: the ranges the two views span overlap (interleaved views do)."""
    (alo, ahi), (blo, bhi) = a.span, b.span
    return a.alloc == b.alloc and alo < ahi and blo < bhi and alo < bhi and blo < ahi


class GuardMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.device = FakeDevice("fake:stateful", delay=0.001)
        register(self.device)
        self.scope = go.on(self.device.name)
        self.scope.__enter__()
        self.handles: list[Handle] = []
        self.views: list[View] = []
        self.model = Model()
        self.next_alloc = 0

    def teardown(self) -> None:
        for view in self.views:
            view.cm.__exit__(None, None, None)
        self.scope.__exit__(None, None, None)
        go.synchronize()

    # -- helpers ---------------------------------------------------------------------------

    def _host_conflict(self, h: Handle, exclusive: bool) -> bool:
        # a launch on a device with its own memory: judged on spans (per-range residency)
        return any(_spans_overlap(v.handle, h) and (exclusive or v.write) for v in self.views)

    def _view_conflict(self, h: Handle, exclusive: bool) -> bool:
        # host view against host view: exact
        return any(_overlap(v.handle, h) and (exclusive or v.write) for v in self.views)

    def _model(self, h: Handle) -> np.ndarray[Any, Any]:
        values: np.ndarray[Any, Any] = self.model.contents[h.alloc][h.idx]
        return values

    def _set_model(self, h: Handle, values: Any) -> None:
        self.model.contents[h.alloc][h.idx] = values

    # -- rules -----------------------------------------------------------------------------

    @precondition(lambda self: len(self.handles) < 8)
    @rule(n=st.integers(0, 12), value=st.integers(-4, 4))
    def alloc(self, n: int, value: float) -> None:
        buf = go.full(n, value)
        self.model.contents[self.next_alloc] = np.full(n, value, np.float32)
        self.handles.append(Handle(buf, self.next_alloc, np.arange(n)))
        self.next_alloc += 1

    @precondition(lambda self: self.handles and len(self.handles) < 12)
    @rule(data=st.data())
    def view(self, data: st.DataObject) -> None:
        h = data.draw(st.sampled_from(self.handles))
        n = h.idx.size
        lo = data.draw(st.integers(0, n))
        hi = data.draw(st.integers(lo, n))
        step = data.draw(st.sampled_from([1, 1, 2, -1]))
        start, stop = (lo, hi) if step > 0 else (hi - 1, lo - 1 if lo else None)
        if h.moved:
            with pytest.raises(go.UseAfterMoveError):
                h.buf[start:stop:step]
            return
        sl = slice(start, stop, step)
        self.handles.append(Handle(h.buf[sl], h.alloc, h.idx[sl]))

    @precondition(lambda self: self.handles)
    @rule(data=st.data(), threaded=st.booleans())
    def launch_add(self, data: st.DataObject, threaded: bool) -> None:
        a = data.draw(st.sampled_from(self.handles))
        b = data.draw(st.sampled_from(self.handles))
        expected: type[BaseException] | None = None
        if a.moved or b.moved:
            expected = go.UseAfterMoveError
        elif _overlap(a, b) or self._host_conflict(a, False) or self._host_conflict(b, True):
            expected = go.BorrowError
        outcome: list[BaseException | None] = [None]

        def run() -> None:
            try:
                with go.on(self.device.name):  # go.on is per thread
                    add[1](a.buf, b.buf)
            except BaseException as exc:  # noqa: BLE001
                outcome[0] = exc

        if threaded:
            t = threading.Thread(target=run)
            t.start()
            t.join()
        else:
            run()
        self._expect(outcome[0], expected)
        if expected is None:
            m = min(a.idx.size, b.idx.size)
            src = self._model(a)[:m]
            out = self._model(b)
            out[:m] += src
            self._set_model(b, out)

    @precondition(lambda self: self.handles)
    @rule(data=st.data())
    def launch_owned(self, data: st.DataObject) -> None:
        h = data.draw(st.sampled_from(self.handles))
        expected: type[BaseException] | None = None
        if h.moved:
            expected = go.UseAfterMoveError
        elif self._host_conflict(h, True):
            expected = go.BorrowError
        try:
            new = double[1](h.buf)
            error: BaseException | None = None
        except BaseException as exc:  # noqa: BLE001
            error = exc
        self._expect(error, expected)
        if expected is None:
            h.moved = True
            for other in self.handles:  # a move kills every handle sharing an element with it
                if _overlap(other, h):
                    other.moved = True
            self._set_model(h, self._model(h) * 2)
            self.handles.append(Handle(new, h.alloc, h.idx))

    @precondition(lambda self: self.handles)
    @rule(data=st.data(), threads=st.integers(2, 3), count=st.integers(1, 4))
    def concurrent_bumps(self, data: st.DataObject, threads: int, count: int) -> None:
        h = data.draw(st.sampled_from(self.handles))
        if h.moved or self._host_conflict(h, True):
            return
        errors: list[BaseException] = []

        def work() -> None:
            try:
                with go.on(self.device.name):
                    for _ in range(count):
                        bump[1](h.buf)
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)

        pool = [threading.Thread(target=work) for _ in range(threads)]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
        assert not errors
        for _ in range(threads * count):  # the same float operations as the device did
            self._set_model(h, self._model(h) + 1)

    @precondition(lambda self: self.handles and len(self.views) < 3)
    @rule(data=st.data(), write=st.booleans())
    def open_host_view(self, data: st.DataObject, write: bool) -> None:
        h = data.draw(st.sampled_from(self.handles))
        if h.moved:
            with pytest.raises(go.UseAfterMoveError):
                h.buf.host()
            return
        cm = h.buf.host_mut() if write else h.buf.host()
        expected = go.BorrowError if self._view_conflict(h, write) else None
        try:
            arr = cm.__enter__()
            error: BaseException | None = None
        except BaseException as exc:  # noqa: BLE001
            error = exc
        self._expect(error, expected)
        if expected is None:
            np.testing.assert_array_equal(arr, self._model(h))
            self.views.append(View(cm, h, write, arr))

    @precondition(lambda self: any(v.write for v in self.views))
    @rule(data=st.data(), value=st.integers(-4, 4))
    def host_write(self, data: st.DataObject, value: float) -> None:
        view = data.draw(st.sampled_from([v for v in self.views if v.write]))
        view.arr[:] = value
        self._set_model(view.handle, value)

    @precondition(lambda self: self.views)
    @rule(data=st.data())
    def close_host_view(self, data: st.DataObject) -> None:
        view = data.draw(st.sampled_from(self.views))
        view.cm.__exit__(None, None, None)
        self.views.remove(view)

    @rule()
    def synchronize(self) -> None:
        go.synchronize()

    @precondition(lambda self: self.handles)
    @rule(data=st.data())
    def read(self, data: st.DataObject) -> None:
        h = data.draw(st.sampled_from(self.handles))
        if h.moved:
            with pytest.raises(go.UseAfterMoveError):
                h.buf.numpy()
            return
        np.testing.assert_array_equal(h.buf.numpy(), self._model(h))

    @invariant()
    def host_views_match_the_model(self) -> None:
        storages = {id(h.buf._st): h.buf._st for h in self.handles}
        assert sum(len(s.host_views) for s in storages.values()) == len(self.views)

    def _expect(self, error: BaseException | None, expected: type[BaseException] | None) -> None:
        if expected is None:
            if error is not None:
                raise error
            return
        assert isinstance(error, expected), f"expected {expected.__name__}, got {error!r}"
        if expected is go.BorrowError:
            assert not isinstance(error, go.UseAfterMoveError)


GuardMachine.TestCase.settings = settings(
    max_examples=40, stateful_step_count=30, deadline=None, print_blob=True
)
TestGuardMachine = GuardMachine.TestCase
