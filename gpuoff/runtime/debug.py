"""``GPUOFF_DEBUG=N``: the one debug switch. Messages go to stderr, prefixed ``[gpuoff]``.

======  =====================================================================================
Level   What is printed
======  =====================================================================================
0       nothing (default)
1       every launch: kernel, grid, block, device, inline or pooled, waits on earlier work
2       cache decisions: new signature, in-memory hit, disk hit / miss / store, compile times
3       generated code: LLVM IR (optimised), OpenCL C or PTX of each compiled kernel
4       the typed IR of each specialisation after each pass of the compile pipeline, by name
======  =====================================================================================

Each level includes the levels below it. The level is read from the environment at import;
``set_level`` changes it at run time (tests).
"""

from __future__ import annotations

import os
import sys

LAUNCHES = 1
CACHE = 2
CODE = 3
IR = 4


def _from_env() -> int:
    raw = os.environ.get("GPUOFF_DEBUG", "0").strip() or "0"
    try:
        return int(raw)
    except ValueError:
        return 0


_level = _from_env()


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
    """Print ``message`` to stderr when the debug level is ``at`` or higher."""
    if _level >= at:
        print(f"[gpuoff] {message}", file=sys.stderr, flush=True)
