"""User-facing names of Python constructs, for "X is not supported in kernels" errors."""

from __future__ import annotations

import ast

from gpuoff.errors import CompileError
from gpuoff.frontend.source import SourceInfo
from gpuoff.ownership import unsupported_message

CONSTRUCT_NAMES: dict[type[ast.AST], str] = {
    ast.Lambda: "lambda expression",
    ast.ListComp: "list comprehension",
    ast.SetComp: "set comprehension",
    ast.DictComp: "dict comprehension",
    ast.GeneratorExp: "generator expression",
    ast.List: "list literal",
    ast.Tuple: "tuple value",
    ast.Dict: "dict literal",
    ast.Set: "set literal",
    ast.Starred: "starred expression (*x)",
    ast.JoinedStr: "f-string",
    ast.FormattedValue: "f-string",
    ast.Yield: "yield",
    ast.YieldFrom: "yield from",
    ast.Await: "await",
    ast.NamedExpr: "assignment expression (:=)",
    ast.Slice: "slicing",
    ast.Try: "try statement",
    ast.With: "with statement",
    ast.AsyncWith: "async with statement",
    ast.AsyncFor: "async for loop",
    ast.FunctionDef: "nested function definition (def)",
    ast.AsyncFunctionDef: "nested function definition (async def)",
    ast.ClassDef: "class definition",
    ast.Global: "global statement",
    ast.Nonlocal: "nonlocal statement",
    ast.Delete: "del statement",
    ast.Assert: "assert statement",
    ast.Raise: "raise statement",
    ast.Import: "import statement",
    ast.ImportFrom: "import statement",
    ast.Match: "match statement",
}
if hasattr(ast, "TryStar"):  # Python 3.11+
    CONSTRUCT_NAMES[ast.TryStar] = "try statement"


def construct_name(node: ast.AST) -> str:
    """How a user would call this construct (``"lambda expression"``)."""
    return CONSTRUCT_NAMES.get(type(node), f"the construct {type(node).__name__}")


def unsupported(src: SourceInfo, node: ast.AST, construct: str | None = None) -> CompileError:
    """``CompileError``: ``construct`` (default: the node's kind) is outside the subset."""
    return src.error(node, unsupported_message(construct or construct_name(node)))
