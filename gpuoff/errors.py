"""The exception hierarchy (SPEC.md, last line).

Every gpuoff error derives from :class:`GpuoffError` and also from the builtin a user would
catch for that kind of mistake, so ``except TypeError`` around a bad launch works as expected.
"""

from __future__ import annotations

from dataclasses import dataclass


class GpuoffError(Exception):
    """Base class of every error gpuoff raises on purpose."""


@dataclass(frozen=True)
class SourceLocation:
    """A place in the user's source: file, 1-based line, 0-based column, and the line's text."""

    filename: str
    line: int
    col: int
    text: str = ""
    end_col: int | None = None

    def render(self) -> str:
        """``File "f.py", line 3, column 9`` then the source line and a caret under the column."""
        head = f'  File "{self.filename}", line {self.line}, column {self.col + 1}'
        if not self.text:
            return head
        stripped = self.text.rstrip("\n")
        indent = len(stripped) - len(stripped.lstrip())
        body = stripped.strip()
        width = 1
        if self.end_col is not None and self.end_col > self.col:
            width = self.end_col - self.col
        caret = " " * (max(self.col - indent, 0)) + "^" * width
        return f"{head}\n    {body}\n    {caret}"


class CompileError(GpuoffError, TypeError):
    """The kernel's source uses something outside the kernel subset, or does not type-check.

    The message names the construct and shows the user's file, line and column with a caret.
    """

    def __init__(self, message: str, location: SourceLocation | None = None) -> None:
        self.message = message
        self.location = location
        text = message if location is None else f"{message}\n{location.render()}"
        super().__init__(text)


class IndexCountError(CompileError):
    """An array is indexed with another number of indices than it has dimensions. At a
    launch, when the array is a kernel parameter (its dimensions come from the argument), the
    runtime reports it as the ``LaunchTypeError`` of that argument instead."""

    def __init__(self, message: str, location: SourceLocation | None, array: str, ndim: int,
                 used: int, at_least: bool = False) -> None:  # fmt: skip
        super().__init__(message, location)
        self.array = array
        self.ndim = ndim
        self.used = used  # the dimensions the kernel indexes (at least, for ``x.shape[d]``)
        self.at_least = at_least


class RaceError(CompileError):
    """Two work-items of one launch may write the same element of an array (a data race).

    Raised at the first launch of a kernel specialisation whose stores the compiler cannot
    prove distinct per work-item, pointing at the store (SPEC §3b), and by the race sanitizer
    (``GPUOFF_SANITIZE=race``) for a conflict it saw, naming both work-items and both lines.
    ``hint`` (text after the location) says how to fix it."""

    def __init__(self, message: str, location: SourceLocation | None = None,
                 hint: str = "") -> None:  # fmt: skip
        super().__init__(message, location)
        self.hint = hint
        if hint:
            self.args = (f"{self.args[0]}\n{hint}",)


class LaunchTypeError(GpuoffError, TypeError):
    """A launch argument does not match the kernel's parameter (dtype, ndim, kind, range)."""


class LaunchConfigError(GpuoffError, ValueError):
    """A launch configuration with a bad value: dimensions, a grid that is not a multiple of
    its block, a grid or a block beyond what the device allows. A configuration of the wrong
    type is a ``LaunchTypeError``."""


class ShapeError(GpuoffError, ValueError):
    """A shape that does not fit: a buffer constructor's (not ints, a negative dimension,
    ragged data), a host assignment's, or the arguments of a library function (``gpuoff.lib``:
    ``matmul`` of (3, 4) and (5, 6), an ``out=`` of the wrong shape or dtype, an axis beyond
    the array's dimensions; the message names the function and the argument)."""


class ConfigError(GpuoffError, ValueError):
    """A setting gpuoff does not understand: an environment variable (``GPUOFF_NUM_THREADS``,
    ``GPUOFF_DEBUG``) or the argument of a setting function; the message lists what it takes."""


class DTypeError(GpuoffError, TypeError):
    """A dtype gpuoff has no scalar type for (``object``, ``complex128``, strings, ...)."""


class BorrowError(GpuoffError, RuntimeError):
    """An ownership rule was broken: aliasing at a launch, or a conflict with a host view."""


class UseAfterMoveError(BorrowError):
    """A buffer handle was used after it was moved into an ``Owned`` parameter."""


class BoundsError(GpuoffError, IndexError):
    """An array access in a kernel was out of range; the access was not performed."""


class BarrierError(GpuoffError, RuntimeError):
    """Work-items of one work-group did not reach the same barriers: a condition deciding
    whether a barrier is reached (or skipped by an exit) had different values within a group.
    Found at run time where the compiler could not decide it; the launch's results are not
    meaningful (the group went on with its first work-item's value, so nothing hung)."""


class DeviceError(GpuoffError, RuntimeError):
    """A device or backend is unavailable or failed (no driver, out of memory, ...)."""


class OutOfMemoryError(DeviceError, MemoryError):
    """Memory for a buffer could not be allocated, on the host or on a device (also a
    ``MemoryError``, as NumPy raises)."""


__all__ = [
    "BarrierError",
    "BorrowError",
    "BoundsError",
    "CompileError",
    "ConfigError",
    "DTypeError",
    "DeviceError",
    "GpuoffError",
    "IndexCountError",
    "LaunchConfigError",
    "LaunchTypeError",
    "OutOfMemoryError",
    "RaceError",
    "SourceLocation",
    "UseAfterMoveError",
]
