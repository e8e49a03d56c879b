"""What the race-check tests share: a kernel's verdict for one launch shape, a source line."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

from gpuoff.cli import lower_for_show
from gpuoff.ir.races import LaunchShape, Refusal, check


def verdict(kernel: Any, sig: str, grid: Sequence[int], block: Sequence[int] | None = None,
            **args: Any) -> Refusal | None:  # fmt: skip
    module = lower_for_show(kernel, sig, None, None)
    g3 = (*grid, 1, 1)[:3]
    b3 = None if block is None else (*block, 1, 1)[:3]
    return check(module, LaunchShape.of(g3, b3), {"grid": g3, "block": b3, "args": args})


def line_of(kernel: Any, needle: str) -> int:
    lines, start = inspect.getsourcelines(kernel.pyfunc)
    return start + next(k for k, text in enumerate(lines) if needle in text)
