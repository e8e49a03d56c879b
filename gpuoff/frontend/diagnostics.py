"""User-facing names of Python constructs, for "X is not supported in kernels" errors (the
table itself is ``gpuoff.subset.CONSTRUCT_NAMES``, shared with the mypy plugin)."""

from __future__ import annotations

import ast

from gpuoff.errors import CompileError
from gpuoff.frontend.source import SourceInfo
from gpuoff.ownership import unsupported_message
from gpuoff.subset import CONSTRUCT_NAMES

__all__ = ["CONSTRUCT_NAMES", "construct_name", "unsupported"]


def construct_name(node: ast.AST) -> str:
    """How a user would call this construct (``"lambda expression"``)."""
    return CONSTRUCT_NAMES.get(type(node), f"the construct {type(node).__name__}")


def unsupported(src: SourceInfo, node: ast.AST, construct: str | None = None) -> CompileError:
    """``CompileError``: ``construct`` (default: the node's kind) is outside the subset."""
    return src.error(node, unsupported_message(construct or construct_name(node)))
