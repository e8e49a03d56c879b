"""Fully-qualified names the plugin recognises, its error codes, ownership of a type, and how
messages spell the user's expressions.

Everything cross-module is decided from *types* (mypy frees function bodies after checking
and the cache drops decorators), so this module maps mypy types to ``gpuoff.ownership``
access modes. The error codes and their summaries come from ``gpuoff.ownership`` so the
static and runtime checks share one source of truth. Nothing here imports the runtime.
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.errorcodes import ErrorCode
from mypy.nodes import (
    AssignmentExpr,
    CallExpr,
    ConditionalExpr,
    Decorator,
    EllipsisExpr,
    Expression,
    FloatExpr,
    IndexExpr,
    IntExpr,
    MemberExpr,
    NameExpr,
    RefExpr,
    SliceExpr,
    StrExpr,
    TupleExpr,
    UnaryExpr,
)
from mypy.types import Instance, Type, get_proper_type

from gpuoff import ownership
from gpuoff.ownership import Access, Rule
from gpuoff.subset import LANG_MODULE


def _code(rule: Rule) -> ErrorCode:
    return ErrorCode(rule.code, rule.summary, "gpuoff")


# Created at import: mypy validates --disable-error-code / ignore codes after plugins load.
ALIAS = _code(ownership.ALIAS)
USE_AFTER_MOVE = _code(ownership.USE_AFTER_MOVE)
BORROW_WRITE = _code(ownership.BORROW_WRITE)
UNSUPPORTED = _code(ownership.UNSUPPORTED)
SIGNATURE = _code(ownership.SIGNATURE)

LANG = LANG_MODULE
WRAPPERS: dict[str, Access] = {
    f"{LANG}.{name}": access for name, access in ownership.WRAPPER_ACCESS.items()
}
"""Ownership wrapper class fullname -> access mode."""

ARRAY_CLASS = f"{LANG}.Array"
BUFFER_CLASS = "gpuoff.runtime.buffer.Buffer"
DEVICE_FUNCTION = f"{LANG}.DeviceFunction"
KERNEL_CLASS = "gpuoff.runtime.kernel.Kernel"
LAUNCH_CLASS = "gpuoff.runtime.kernel.Launch"
LAUNCH_CALLS = frozenset({f"{LAUNCH_CLASS}.__call__"})
"""Methods that launch a kernel; their signature is the kernel's (ParamSpec)."""
DEVICE_CALLS = frozenset({f"{DEVICE_FUNCTION}.__call__"})
PARTIAL_CALL = "functools.partial.__call__"
PARTIAL = "functools.partial"
KERNEL_DECORATORS = frozenset({"gpuoff.runtime.kernel.kernel", "gpuoff.kernel"})
FUNC_DECORATORS = frozenset({f"{LANG}.func", "gpuoff.func"})
BODY_DECORATORS = KERNEL_DECORATORS | FUNC_DECORATORS
ASARRAY = frozenset({"gpuoff.runtime.buffer.asarray", "gpuoff.runtime.asarray", "gpuoff.asarray"})
"""Returns its argument when that is already a buffer: the result aliases the argument."""

ERRORS = "gpuoff.errors"
OWNERSHIP_ERRORS = frozenset(f"{ERRORS}.{n}" for n in ("BorrowError", "UseAfterMoveError",
                                                        "GpuoffError"))  # fmt: skip
"""A ``try`` whose handler catches one of these expects its body to break an ownership rule."""
RAISES = frozenset({"_pytest.raises.raises", "_pytest.python_api.raises", "pytest.raises"})
ASSERT_RAISES = frozenset({"assertRaises", "assertRaisesRegex"})
"""``with pytest.raises(...)`` / ``with self.assertRaises(...)``: deliberate misuse."""

FLOAT_SCALARS = frozenset(f"{LANG}.{n}" for n in ("f16", "f32", "f64"))
INT_SCALARS = frozenset(
    f"{LANG}.{n}" for n in ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "boolean")
)
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


def is_array_type(typ: Type | None) -> bool:
    """A gpuoff array: a wrapper, ``Array`` or ``Buffer`` (anything under ``Borrow``)."""
    p = get_proper_type(typ) if typ is not None else None
    return isinstance(p, Instance) and p.type.has_base(f"{LANG}.Borrow")


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


def source_text(api: object, e: Expression) -> str | None:
    """The user's own spelling of ``e`` (one line of its file), if mypy can read it."""
    if not isinstance(api, TypeChecker) or e.end_line != e.line or e.end_column is None:
        return None
    lines = _lines(api)
    if not lines or not 0 < e.line <= len(lines):
        return None
    text = lines[e.line - 1][e.column : e.end_column].strip()
    return text or None


_SOURCE: dict[str, tuple[int, list[str] | None]] = {}
"""path -> (id of the tree being checked, its lines): messages read a file once per check."""


def _lines(api: TypeChecker) -> list[str] | None:
    cached = _SOURCE.get(api.path)
    if cached is not None and cached[0] == id(api.tree):
        return cached[1]
    read = api.errors.read_source
    lines = read(api.path) if read is not None else None
    if len(_SOURCE) > 64:
        _SOURCE.clear()
    _SOURCE[api.path] = (id(api.tree), lines)
    return lines


def describe(e: Expression, api: object = None) -> str:
    """Source-like text of an expression for messages (``a``, ``self.buf``, ``a[1:]``)."""
    if isinstance(e, AssignmentExpr):
        return describe(e.target, api)  # (b := a) is b
    text = source_text(api, e) if api is not None else None
    return text if text is not None else render(e)


def render(e: Expression) -> str:
    if isinstance(e, NameExpr):
        return e.name
    if isinstance(e, MemberExpr):
        return f"{render(e.expr)}.{e.name}"
    if isinstance(e, IndexExpr):
        index = e.index
        items = index.items if isinstance(index, TupleExpr) else [index]
        return f"{render(e.base)}[{', '.join(render(i) for i in items)}]"
    if isinstance(e, SliceExpr):
        parts = [e.begin_index, e.end_index] + ([e.stride] if e.stride is not None else [])
        return ":".join("" if p is None else render(p) for p in parts)
    if isinstance(e, IntExpr | FloatExpr):
        return str(e.value)
    if isinstance(e, StrExpr):
        return f'"{e.value}"'
    if isinstance(e, UnaryExpr):
        return f"{e.op}{render(e.expr)}"
    if isinstance(e, AssignmentExpr):
        return render(e.target)
    if isinstance(e, ConditionalExpr):
        return f"{render(e.if_expr)} if {render(e.cond)} else {render(e.else_expr)}"
    if isinstance(e, CallExpr):
        return f"{render(e.callee)}(...)"
    if isinstance(e, EllipsisExpr):
        return "..."
    return "<expression>"
