"""What a launch that raises ``go.BoundsError`` leaves behind (SPEC §5, docs/memory.md), on
every device and for every kind of argument: an out-of-range load yields 0, an out-of-range
store writes nothing, the work-item goes on, and every in-range store happens; the launch
then raises, once. The interpreter (``gpuoff.ir.interp``) is the definition, so each result
is compared with its run on copies of the same arguments.

Found by the differential fuzzer of issue 20 (item 9): on ``opencl:0`` a bounds error lost
every write to a NumPy ``BorrowMut`` argument, because the copy back was skipped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Owned, f32
from gpuoff.cli import lower_for_show
from gpuoff.ir import interp

N = 12


@go.func
def fetch(x: Borrow[Array[f32]], k: int) -> float:
    return x[k]  # out of range for k >= len(x): yields 0


@go.func
def put(y: BorrowMut[Array[f32]], k: int, v: float) -> None:
    y[k] = v  # out of range for k >= len(y): writes nothing


@go.kernel
def mid_kernel(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    # every work-item writes before and after its out-of-range accesses
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = -1.0
        v = fetch(x, i + 5)  # past the end for the last five items
        put(y, i + N, 99.0)  # past the end of an N-element y: writes nothing
        # (with i + 7, item i and item i + 7 would both write y[i + 7]: a data race whose
        # result depends on scheduling, and a flaky test)
        y[i] = y[i] + v * 2.0 + 1.0


@go.kernel
def mid_kernel_owned(x: Borrow[Array[f32]], y: Owned[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = x[i + 3]


def expected(x: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The interpreter's result on copies (and that it raises)."""
    module = lower_for_show(mid_kernel, "f32[:], f32[:]", None, None)
    xs, ys = np.ascontiguousarray(x).copy(), np.ascontiguousarray(y).copy()
    with pytest.raises(go.BoundsError):
        interp.run(module, [xs, ys], (ys.shape[0],))
    return ys


def _x() -> np.ndarray[Any, Any]:
    return np.arange(1, N + 1, dtype=np.float32)


def _y() -> np.ndarray[Any, Any]:
    return np.linspace(0.5, 6.0, N, dtype=np.float32)


# each maker: (the argument to pass for y, a function reading its contents afterwards)
Maker = Callable[[np.ndarray[Any, Any]], tuple[Any, Callable[[], np.ndarray[Any, Any]]]]


def _buffer(y: np.ndarray[Any, Any]) -> tuple[Any, Callable[[], np.ndarray[Any, Any]]]:
    b = go.array(y)
    return b, b.numpy


def _view(y: np.ndarray[Any, Any]) -> tuple[Any, Callable[[], np.ndarray[Any, Any]]]:
    base = go.array(np.concatenate([y, y]))
    return base[N // 2 : N // 2 + N], base[N // 2 : N // 2 + N].numpy


def _strided(y: np.ndarray[Any, Any]) -> tuple[Any, Callable[[], np.ndarray[Any, Any]]]:
    base = go.array(np.repeat(y, 2))
    return base[::2], base[::2].numpy


def _numpy(y: np.ndarray[Any, Any]) -> tuple[Any, Callable[[], np.ndarray[Any, Any]]]:
    a = y.copy()
    return a, lambda: a


def _numpy_strided(y: np.ndarray[Any, Any]) -> tuple[Any, Callable[[], np.ndarray[Any, Any]]]:
    a = np.repeat(y, 2)
    return a[::2], lambda: a[::2]


def _numpy_fortran(y: np.ndarray[Any, Any]) -> tuple[Any, Callable[[], np.ndarray[Any, Any]]]:
    a = np.asfortranarray(np.stack([y, y]))[0]  # a row of a Fortran array: strided
    return a, lambda: a


def _asarray(y: np.ndarray[Any, Any]) -> tuple[Any, Callable[[], np.ndarray[Any, Any]]]:
    a = y.copy()
    b = go.asarray(a)

    def read() -> np.ndarray[Any, Any]:
        go.synchronize()
        return a  # the owner's array, not the buffer: it must hold the writes itself

    return b, read


MAKERS: dict[str, Maker] = {
    "buffer": _buffer, "view": _view, "strided-view": _strided, "numpy": _numpy,
    "numpy-strided": _numpy_strided, "numpy-row-of-fortran": _numpy_fortran,
    "asarray": _asarray,
}  # fmt: skip


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_in_range_writes_of_a_failed_launch_are_kept(device: str, kind: str) -> None:
    y_arg, read = MAKERS[kind](_y())
    x = go.array(_x())
    with pytest.raises(go.BoundsError):
        mid_kernel[N](x, y_arg)
        go.synchronize()
    go.synchronize()  # raised once: nothing left
    want = expected(_x(), _y())
    np.testing.assert_array_equal(read(), want)
    np.testing.assert_array_equal(x.numpy(), _x())  # the shared borrow is unchanged


def test_the_bounds_error_names_the_access_inside_the_device_function(device: str) -> None:
    with pytest.raises(go.BoundsError, match=r"x\[k\]|y\[k\] = v"):
        mid_kernel[N](go.array(_x()), go.array(_y()))
        go.synchronize()


def under_caret(message: str) -> str:
    """The text of the source line the last line's carets stand under (a CompileError's
    location block: File ... / the line / the carets)."""
    *_, head, body, caret = message.splitlines()
    assert head.startswith('  File "') and ", column " in head, message
    start = len(caret) - len(caret.lstrip())
    return body[start : len(caret)]


def test_the_bounds_error_shows_the_line_with_a_caret_under_the_access(device: str) -> None:
    with pytest.raises(go.BoundsError) as info:
        mid_kernel[N](go.array(_x()), go.array(_y()))
        go.synchronize()
    message = str(info.value)
    assert f'File "{__file__}", line ' in message
    assert under_caret(message) in ("x[k]", "y[k]"), message


def _owned_launch(x: Any, y: go.Buffer[Any]) -> tuple[go.Buffer[Any], go.Buffer[Any] | None]:
    """``mid_kernel_owned[N](x, y)``, out of range for its last three items: (the one live
    handle to y's memory afterwards, the handle the launch returned or None if it raised)."""
    back = None
    with pytest.raises(go.BoundsError, match=r"x\[i \+ 3\]"):
        back = mid_kernel_owned[N](x, y)
        go.synchronize()
    return (y if back is None else back), back


def test_owned_argument_of_a_failed_launch_comes_back_with_its_writes(device: str) -> None:
    # Whether the error is raised at the launch (cpu runs a small launch on the calling
    # thread) or at go.synchronize() (opencl:0), exactly one handle reaches the moved memory
    # with the in-range writes: the returned one, or else the one passed (a move the caller
    # never got the result of is undone; before, the writes were lost with the new handle).
    y = go.array(np.zeros(N, np.float32))
    alive, back = _owned_launch(go.array(_x()), y)
    want = np.zeros(N, np.float32)
    want[: N - 3] = _x()[3:]
    np.testing.assert_array_equal(alive.numpy(), want)
    if back is not None:
        with pytest.raises(go.UseAfterMoveError):
            y.numpy()
    back = mid_kernel_owned[N](go.array(np.arange(N + 3, dtype=np.float32)), go.zeros(N))
    assert back.numpy().tolist() == list(np.arange(3, N + 3, dtype=np.float32))


def test_a_launch_that_raises_at_the_call_moves_nothing(device: str) -> None:
    # A NumPy argument makes every device finish the launch before it returns, so the bounds
    # error comes from the call itself: the Owned buffer, the views the move would have
    # killed and the base stay usable, holding the in-range writes.
    base = go.array(np.zeros(2 * N, np.float32))
    y = base[N:]
    earlier_view = base[N : N + 4]
    alive, back = _owned_launch(_x(), y)
    assert back is None and alive is y
    want = np.zeros(N, np.float32)
    want[: N - 3] = _x()[3:]
    np.testing.assert_array_equal(y.numpy(), want)
    np.testing.assert_array_equal(earlier_view.numpy(), want[:4])
    np.testing.assert_array_equal(base.numpy(), np.concatenate([np.zeros(N, np.float32), want]))
    moved = mid_kernel_owned[N](np.arange(N + 3, dtype=np.float32), y)  # moves it now
    with pytest.raises(go.UseAfterMoveError):
        earlier_view.numpy()
    assert moved.numpy().tolist() == list(np.arange(3, N + 3, dtype=np.float32))


def test_a_failed_launch_then_a_good_one(device: str) -> None:
    y = go.array(_y())
    with pytest.raises(go.BoundsError):
        mid_kernel[N](go.array(_x()), y)
        go.synchronize()
    good = go.array(np.arange(N + 7, dtype=np.float32))
    out = go.zeros(N + 7)
    # a grid of the good size: nothing out of range, nothing raised
    mid_kernel[N - 7](good, out)
    go.synchronize()
    i = np.arange(N - 7)
    want = np.zeros(N + 7, np.float32)
    want[i + N] = 99.0
    want[i] = -1.0 + good.numpy()[i + 5] * 2.0 + 1.0
    np.testing.assert_array_equal(out.numpy(), want)
