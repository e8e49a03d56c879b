"""Source capture, the line map and diagnostics with carets.

A kernel's source is read with ``inspect.getsourcelines`` and dedented before parsing; the AST's
positions are then relative to that snippet. ``SourceInfo`` maps them back to the user's file
(real line numbers, real columns) so every ``CompileError`` points where the user looks.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpuoff.errors import CompileError, SourceLocation
from gpuoff.ir.nodes import Loc
from gpuoff.subset import not_plain_def_message


@dataclass(frozen=True)
class SourceInfo:
    """One Python function's source, parsed, with the map back to its file."""

    filename: str
    firstlineno: int
    """File line of the snippet's first line (the first decorator, like ``co_firstlineno``)."""
    raw_lines: tuple[str, ...]
    """The snippet's lines as they are in the file (not dedented)."""
    indent: int
    """Columns removed by ``textwrap.dedent``."""
    tree: ast.FunctionDef

    def file_line(self, node_line: int) -> int:
        """The user's file line of a line number in the parsed snippet."""
        return node_line + self.firstlineno - 1

    def line_text(self, node_line: int) -> str:
        idx = node_line - 1
        return self.raw_lines[idx] if 0 <= idx < len(self.raw_lines) else ""

    def _file_col(self, node_line: int, byte_col: int) -> int:
        # ast columns are UTF-8 byte offsets into the dedented line; report characters.
        text = self.line_text(node_line)[self.indent :]
        return len(text.encode("utf-8")[:byte_col].decode("utf-8", "replace")) + self.indent

    def loc(self, node: ast.AST) -> Loc:
        """The IR location of an AST node (line in the user's file, 0-based column)."""
        line: int = getattr(node, "lineno", 1)
        col = self._file_col(line, getattr(node, "col_offset", 0))
        end_line: int | None = getattr(node, "end_lineno", None)
        end_byte: int | None = getattr(node, "end_col_offset", None)
        end_col = None
        if end_line == line and end_byte is not None:
            end_col = self._file_col(line, end_byte)
        return Loc(self.file_line(line), col, end_col)

    def location(self, node: ast.AST) -> SourceLocation:
        """The diagnostic location of an AST node, with its source line for the caret."""
        loc = self.loc(node)
        text = self.line_text(getattr(node, "lineno", 1))
        return SourceLocation(self.filename, loc.line, loc.col, text, loc.end_col)

    def location_at(self, loc: Loc) -> SourceLocation:
        """The diagnostic location of an IR ``Loc`` of this function (file coordinates)."""
        idx = loc.line - self.firstlineno
        text = self.raw_lines[idx] if 0 <= idx < len(self.raw_lines) else ""
        return SourceLocation(self.filename, loc.line, loc.col, text, loc.end_col)

    def error(self, node: ast.AST, message: str) -> CompileError:
        """A ``CompileError`` with ``message`` pointing at ``node`` (raise it ``from None``)."""
        return CompileError(message, self.location(node))


def load_source(pyfunc: Callable[..., Any]) -> SourceInfo:
    """Read and parse ``pyfunc``'s source; ``CompileError`` if it cannot be read or parsed."""
    name = getattr(pyfunc, "__qualname__", repr(pyfunc))
    code = getattr(pyfunc, "__code__", None)
    filename = code.co_filename if code is not None else "<unknown>"
    try:
        lines, start = inspect.getsourcelines(pyfunc)
    except (OSError, TypeError):
        raise CompileError(
            f"cannot read the source of {name!r}: kernels and device functions must be "
            "defined in a file (not typed at an interactive prompt or created with exec)",
            SourceLocation(filename, code.co_firstlineno if code is not None else 1, 0),
        ) from None
    # Remove the first line's indentation from every line that has it. (textwrap.dedent would
    # remove nothing when a multi-line string in the body has less indented lines.)
    first_raw = lines[0] if lines else ""
    prefix = first_raw[: len(first_raw) - len(first_raw.lstrip())]
    indent = len(prefix)
    dedented = "".join(ln[indent:] if ln.startswith(prefix) else ln for ln in lines)
    try:
        module = ast.parse(dedented, filename=filename)
    except SyntaxError as exc:
        line = (exc.lineno or 1) + max(start, 1) - 1
        raise CompileError(
            f"cannot parse the source of {name!r}: {exc.msg}",
            SourceLocation(filename, line, max((exc.offset or 1) - 1 + indent, 0), exc.text or ""),
        ) from None
    func = next((n for n in module.body if isinstance(n, ast.FunctionDef)), None)
    info_lines = tuple(line.rstrip("\n") for line in lines)
    if func is None:
        raise CompileError(
            not_plain_def_message(name),
            SourceLocation(filename, max(start, 1), indent, info_lines[0] if info_lines else ""),
        )
    return SourceInfo(filename, max(start, 1), info_lines, indent, func)
