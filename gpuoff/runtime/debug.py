"""``GPUOFF_DEBUG=N``: the one debug switch. Messages go to the ``logging`` logger ``"gpuoff"``,
which prints them to stderr, prefixed ``[gpuoff]``.

======  =====================================================================================
Level   What is printed
======  =====================================================================================
0       nothing (default)
1       every launch: kernel, grid, block, device, inline or pooled, waits on earlier work
2       cache decisions: new signature, in-memory hit, disk hit / miss / store, compile times
3       generated code: LLVM IR (optimised), OpenCL C or PTX of each compiled kernel
4       the typed IR of each specialisation after each pass of the compile pipeline, by name
======  =====================================================================================

Each level includes the levels below it. The level is read from the environment at import
(anything but 0-4 raises ``go.ConfigError``); ``set_level`` changes it at run time (tests).
The logger's own handler writes to whatever ``sys.stderr`` is at the time; to send the
messages elsewhere, replace its handlers (``logging.getLogger("gpuoff").handlers = [h]``) or
let them propagate to yours (``.propagate = True``). Off, a message costs one comparison.
"""

from __future__ import annotations

import logging
import os
import sys

from gpuoff.errors import ConfigError

LAUNCHES = 1
CACHE = 2
CODE = 3
IR = 4

logger = logging.getLogger("gpuoff")


class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
    """A handler writing to the current ``sys.stderr`` (which tests and notebooks replace)."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(logging.Formatter("[gpuoff] %(message)s"))

    @property
    def stream(self) -> object:
        return sys.stderr

    @stream.setter
    def stream(self, value: object) -> None:
        pass


def _from_env() -> int:
    raw = os.environ.get("GPUOFF_DEBUG", "").strip()
    if not raw:
        return 0
    if raw.isdigit() and 0 <= int(raw) <= IR:
        return int(raw)
    raise ConfigError(
        f"GPUOFF_DEBUG is a level from 0 (off) to {IR}: 1 launches, 2 cache decisions, 3 "
        f"generated code, 4 the IR after each pass (docs/debugging.md); got {raw!r}"
    )


_level = _from_env()
if not logger.handlers:
    logger.addHandler(_Stderr())
    logger.propagate = False
logger.setLevel(logging.DEBUG)


def level() -> int:
    """The current debug level (0 = off)."""
    return _level


def set_level(value: int) -> None:
    """Change the debug level for this process."""
    global _level
    _level = value


def enabled(at: int) -> bool:
    """Whether messages of level ``at`` are printed."""
    return _level >= at


def log(at: int, message: str) -> None:
    """Log ``message`` (to stderr unless redirected) when the debug level is ``at`` or higher."""
    if _level >= at:
        logger.debug(message, extra={"gpuoff_level": at})
        for handler in logger.handlers:
            handler.flush()
