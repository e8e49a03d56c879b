"""Fully-qualified names the plugin recognises, its error codes, and ownership of a type.

Everything cross-module is decided from *types* (mypy frees function bodies after checking
and the cache drops decorators), so this module maps mypy types to ``gpuoff.ownership``
access modes. The error codes and their summaries come from ``gpuoff.ownership`` so the
static and runtime checks share one source of truth.
"""

from __future__ import annotations

from mypy.errorcodes import ErrorCode
from mypy.nodes import Decorator, Expression, MemberExpr, NameExpr, RefExpr
from mypy.types import Instance, Type, get_proper_type

from gpuoff import ownership
from gpuoff.ownership import Access, Rule


def _code(rule: Rule) -> ErrorCode:
    return ErrorCode(rule.code, rule.summary, "gpuoff")


# Created at import: mypy validates --disable-error-code / ignore codes after plugins load.
ALIAS = _code(ownership.ALIAS)
USE_AFTER_MOVE = _code(ownership.USE_AFTER_MOVE)
BORROW_WRITE = _code(ownership.BORROW_WRITE)
UNSUPPORTED = _code(ownership.UNSUPPORTED)

LANG = "gpuoff.lang"
WRAPPERS: dict[str, Access] = {
    f"{LANG}.{name}": access for name, access in ownership.WRAPPER_ACCESS.items()
}
"""Ownership wrapper class fullname -> access mode."""

DEVICE_FUNCTION = f"{LANG}.DeviceFunction"
KERNEL_CLASS = "gpuoff.runtime.kernel.Kernel"
LAUNCH_CALLS = frozenset({"gpuoff.runtime.kernel.Launch.__call__"})
"""Methods that launch a kernel; their signature is the kernel's (ParamSpec)."""
DEVICE_CALLS = frozenset({f"{DEVICE_FUNCTION}.__call__"})
KERNEL_DECORATORS = frozenset({"gpuoff.runtime.kernel.kernel", "gpuoff.kernel"})
FUNC_DECORATORS = frozenset({f"{LANG}.func", "gpuoff.func"})
BODY_DECORATORS = KERNEL_DECORATORS | FUNC_DECORATORS

FLOAT_SCALARS = frozenset(f"{LANG}.{n}" for n in ("f16", "f32", "f64"))
INT_SCALARS = frozenset(f"{LANG}.{n}" for n in ("i32", "i64", "u32", "u8", "boolean"))
BOOLEAN = f"{LANG}.boolean"


def access_of(typ: Type | None) -> Access | None:
    """The access mode a declared parameter type asks for, or None for a non-wrapper.

    Only the wrapper classes themselves count: ``Array`` subclasses ``Owned`` so that host
    code can pass it anywhere, but a parameter annotated ``Array[f32]`` moves nothing.
    """
    p = get_proper_type(typ) if typ is not None else None
    if isinstance(p, Instance):
        return WRAPPERS.get(p.type.fullname)
    return None


def is_device_function(e: RefExpr) -> bool:
    """Whether ``e`` names a ``@go.func`` device function (decided from its type)."""
    n = e.node
    t = n.var.type if isinstance(n, Decorator) else getattr(n, "type", None)
    if t is None and isinstance(n, Decorator):
        # A forward reference inside the module being checked: its type is not inferred yet,
        # but its decorators are still in this (freshly parsed) tree.
        return any(isinstance(d, RefExpr) and d.fullname in FUNC_DECORATORS for d in n.decorators)
    p = get_proper_type(t) if isinstance(t, Type) else None
    return isinstance(p, Instance) and p.type.fullname == DEVICE_FUNCTION


def place(e: Expression) -> tuple[object, ...] | None:
    """The static place an argument names (a variable and an attribute path), if any."""
    if isinstance(e, NameExpr) and e.node is not None:
        return (e.node,)
    if isinstance(e, MemberExpr):
        base = place(e.expr)
        return None if base is None else (*base, e.name)
    return None


def describe(e: Expression) -> str:
    """Source-like text of a place or callee, for messages."""
    if isinstance(e, NameExpr):
        return e.name
    if isinstance(e, MemberExpr):
        return f"{describe(e.expr)}.{e.name}"
    return "<expression>"
