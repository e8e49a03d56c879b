"""gpuoff's errors show the user's frames, not gpuoff's (as JAX and Triton trim theirs).

A ``go.GpuoffError`` reaching the user through a public entry point (a launch,
``go.synchronize()``, a buffer's host access and constructors) has the frames of gpuoff's own
files (``gpuoff/``, ``codegen/``) cut from its traceback, and from the tracebacks of the
errors it was raised from; what is left is the user's call chain, then one line naming the
entry point, then the message (a ``CompileError``'s points at the kernel's line with a
caret). Other exceptions (gpuoff's bugs) keep every frame. ``GPUOFF_TRACEBACK=full`` keeps
every frame of every error (for reports of gpuoff's own bugs).
"""

from __future__ import annotations

import functools
import os
import types
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from gpuoff.errors import GpuoffError

P = ParamSpec("P")
R = TypeVar("R")

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOTS = tuple(
    os.path.join(os.path.dirname(os.path.dirname(_HERE)), name) + os.sep
    for name in ("gpuoff", "codegen")
)


def full() -> bool:
    """Whether ``GPUOFF_TRACEBACK=full`` asks for untrimmed tracebacks."""
    return os.environ.get("GPUOFF_TRACEBACK", "").strip().lower() == "full"


def _internal(filename: str) -> bool:
    return filename.startswith(_ROOTS) or (
        not os.path.isabs(filename) and os.path.abspath(filename).startswith(_ROOTS)
    )


def trimmed(exc: BaseException) -> BaseException:
    """``exc`` with gpuoff's frames cut from its traceback and from those of its cause and
    context (unless ``GPUOFF_TRACEBACK=full``); returns ``exc`` itself."""
    if full():
        return exc
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        kept = []
        tb = e.__traceback__
        while tb is not None:
            if not _internal(tb.tb_frame.f_code.co_filename):
                kept.append(tb)
            tb = tb.tb_next
        new: types.TracebackType | None = None
        for t in reversed(kept):
            new = types.TracebackType(new, t.tb_frame, t.tb_lasti, t.tb_lineno)
        e.__traceback__ = new
        todo += [e.__cause__, e.__context__]
    return exc


def entry_point(fn: Callable[P, R]) -> Callable[P, R]:
    """Mark ``fn`` as a public entry point: a ``GpuoffError`` leaves it ``trimmed``."""

    def entry(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except GpuoffError as exc:
            failure = exc
        try:
            raise trimmed(failure)  # gpuoff's own frames are cut (GPUOFF_TRACEBACK=full: kept)
        finally:
            del failure  # no cycle through this frame: it would keep the arguments alive

    # the one line of gpuoff a trimmed traceback shows names the function the user called
    entry.__code__ = entry.__code__.replace(co_name=fn.__name__, co_qualname=fn.__qualname__)
    return functools.wraps(fn)(entry)
