"""Writes through a shared ``Borrow``: one gpuoff error instead of mypy's type error.

``Borrow.__setitem__`` exists only for type checkers and takes a value type nothing has
(``CannotWriteThroughBorrow``), so without the plugin mypy and pyright report an incompatible
assignment. The plugin replaces that signature by an accepting one and reports the write with
the runtime's message and the ``gpuoff-borrow-write`` code instead. Aliases (``z = x``) and
augmented assignments (``x[i] += v``) are caught too, because the check follows the type.
"""

from __future__ import annotations

from mypy.nodes import IndexExpr, OperatorAssignmentStmt
from mypy.plugin import MethodSigContext
from mypy.types import CallableType

from gpuoff.ownership import borrow_write_message
from mypy_plugin.names import BORROW_WRITE, describe

BORROW_SETITEM = "gpuoff.lang.Borrow.__setitem__"


def borrow_setitem_signature(ctx: MethodSigContext) -> CallableType:
    """Report the write; accept any value so mypy adds no second error for it."""
    target = ctx.context
    if isinstance(target, OperatorAssignmentStmt):
        target = target.lvalue
    name = describe(target.base) if isinstance(target, IndexExpr) else "the array"
    ctx.api.fail(borrow_write_message(name), ctx.context, code=BORROW_WRITE)
    sig = ctx.default_signature
    anything = ctx.api.named_generic_type("builtins.object", [])
    return sig.copy_modified(arg_types=[*sig.arg_types[:-1], anything])
