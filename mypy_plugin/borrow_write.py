"""Writes through a shared ``Borrow``: one gpuoff error instead of mypy's type error.

``Borrow.__setitem__`` exists only for type checkers and takes a value type nothing has
(``CannotWriteThroughBorrow``), so without the plugin mypy and pyright report an incompatible
assignment. The plugin replaces that signature by an accepting one and reports the write with
the runtime's message and the ``gpuoff-borrow-write`` code instead. Aliases (``z = x``) and
augmented assignments (``x[i] += v``) are caught too, because the check follows the type.
"""

from __future__ import annotations

from mypy.nodes import IndexExpr, NameExpr, OperatorAssignmentStmt, Var
from mypy.plugin import FunctionSigContext, MethodSigContext
from mypy.types import CallableType, Instance, get_proper_type

from gpuoff.ownership import Access, borrow_write_message
from gpuoff.subset import ATOMICS, LANG_MODULE
from mypy_plugin.names import BORROW_WRITE, access_of, describe

BORROW_SETITEM = f"{LANG_MODULE}.Borrow.__setitem__"
ATOMIC_CALLS = frozenset(f"{LANG_MODULE}.{name}" for name in ATOMICS)


def borrow_setitem_signature(ctx: MethodSigContext) -> CallableType:
    """Report the write; accept any value so mypy adds no second error for it."""
    target = ctx.context
    if isinstance(target, OperatorAssignmentStmt):
        target = target.lvalue
    name = describe(target.base, ctx.api) if isinstance(target, IndexExpr) else "the array"
    ctx.api.fail(borrow_write_message(name), ctx.context, code=BORROW_WRITE)
    sig = ctx.default_signature
    anything = ctx.api.named_generic_type("builtins.object", [])
    return sig.copy_modified(arg_types=[*sig.arg_types[:-1], anything])


def atomic_signature(ctx: FunctionSigContext) -> CallableType:
    """``go.atomic_add(x, i, v)`` on a shared ``Borrow``: the front end's write error, in
    place of mypy's ``expected "BorrowMut[Array[Never]]"``."""
    sig = ctx.default_signature
    if not ctx.args or not ctx.args[0]:
        return sig
    arg = ctx.args[0][0]
    if not (isinstance(arg, NameExpr) and isinstance(arg.node, Var)):
        return sig
    have = get_proper_type(arg.node.type) if arg.node.type is not None else None
    want = get_proper_type(sig.arg_types[0])
    if access_of(have) is not Access.BORROW or not isinstance(want, Instance):
        return sig
    assert isinstance(have, Instance)
    ctx.api.fail(borrow_write_message(describe(arg, ctx.api)), arg, code=BORROW_WRITE)
    accepting = Instance(have.type, want.args)  # Borrow[Array[DT]]: one error, not two
    return sig.copy_modified(arg_types=[accepting, *sig.arg_types[1:]])
