"""A one-line progress indicator on stderr for work that takes more than a second or two.

On a terminal the line is redrawn in place; otherwise (CI logs, pipes) one line is printed per
step so logs stay readable. Nothing is printed when ``enabled`` is false.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """``Progress(total)``; ``step(label)`` before each unit of work, ``tick()`` inside it."""

    def __init__(self, total: int, *, stream: TextIO | None = None, enabled: bool = True) -> None:
        self.total = max(total, 1)
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.label = ""
        self.ticks = 0
        self.started = time.perf_counter()
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def step(self, label: str) -> None:
        """Start the next unit of work, named ``label``."""
        if self.label:
            self.done += 1
        self.label = label
        self.ticks = 0
        if self._tty:
            self._draw()
        elif self.enabled:
            self.stream.write(f"[{self.done + 1}/{self.total}] {label}\n")
            self.stream.flush()

    def tick(self) -> None:
        """Show that the current unit is still making progress (a timed run finished)."""
        self.ticks += 1
        if self._tty:
            self._draw()

    def close(self) -> None:
        """Clear the line (terminal) once all work is done."""
        if self.enabled and self._tty:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()

    def _draw(self) -> None:
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.started
        dots = "." * (self.ticks % 20)
        line = f"[{self.done + 1}/{self.total}] {self.label} {dots} {elapsed:5.1f}s"
        self.stream.write("\r\x1b[2K" + line)
        self.stream.flush()
