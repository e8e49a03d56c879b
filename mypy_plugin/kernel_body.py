"""Kernel and device-function bodies: constructs and calls outside the kernel subset
(SPEC.md §1). Writes through a shared ``Borrow`` are checked everywhere, in ``borrow_write``.

Runs from the decorator call (``@go.kernel``, ``@go.kernel(...)``, ``@go.func``): mypy checks
the body first, then the decorator call, so parameter and local types are known here.
Messages use the runtime front end's wording (``gpuoff.ownership``).
"""

from __future__ import annotations

import ast

import numpy as np
from mypy.checker import TypeChecker
from mypy.nodes import (
    AssertStmt,
    AssignmentExpr,
    AwaitExpr,
    Block,
    CallExpr,
    ClassDef,
    Decorator,
    DelStmt,
    DictExpr,
    DictionaryComprehension,
    FuncDef,
    GeneratorExpr,
    GlobalDecl,
    IfStmt,
    Import,
    ImportAll,
    ImportFrom,
    LambdaExpr,
    ListComprehension,
    ListExpr,
    MatchStmt,
    MemberExpr,
    Node,
    NonlocalDecl,
    OverloadedFuncDef,
    RaiseStmt,
    RefExpr,
    SetComprehension,
    SetExpr,
    SliceExpr,
    StarExpr,
    Statement,
    StrExpr,
    TryStmt,
    TypeInfo,
    Var,
    WithStmt,
    YieldExpr,
    YieldFromExpr,
)
from mypy.plugin import FunctionContext
from mypy.server.subexpr import get_subexpressions
from mypy.types import Instance, Type, get_proper_type

from gpuoff import lang
from gpuoff.frontend.diagnostics import CONSTRUCT_NAMES
from gpuoff.frontend.resolve import BUILTINS, MATH_BY_OBJECT, unsupported_math_message
from gpuoff.ownership import unsupported_message
from mypy_plugin.names import KERNEL_CLASS, UNSUPPORTED, describe, is_device_function

# mypy node -> the Python ``ast`` class the front end rejects, so that both name the construct
# alike (``gpuoff.frontend.diagnostics.CONSTRUCT_NAMES``: "try statement", "list literal").
UNSUPPORTED_NODES: dict[type[Node], type[ast.AST]] = {
    TryStmt: ast.Try,
    WithStmt: ast.With,
    FuncDef: ast.FunctionDef,
    Decorator: ast.FunctionDef,
    OverloadedFuncDef: ast.FunctionDef,
    ClassDef: ast.ClassDef,
    RaiseStmt: ast.Raise,
    AssertStmt: ast.Assert,
    DelStmt: ast.Delete,
    GlobalDecl: ast.Global,
    NonlocalDecl: ast.Nonlocal,
    Import: ast.Import,
    ImportFrom: ast.ImportFrom,
    ImportAll: ast.ImportFrom,
    MatchStmt: ast.Match,
    LambdaExpr: ast.Lambda,
    ListExpr: ast.List,
    DictExpr: ast.Dict,
    SetExpr: ast.Set,
    ListComprehension: ast.ListComp,
    SetComprehension: ast.SetComp,
    DictionaryComprehension: ast.DictComp,
    GeneratorExpr: ast.GeneratorExp,
    YieldExpr: ast.Yield,
    YieldFromExpr: ast.YieldFrom,
    AwaitExpr: ast.Await,
    StarExpr: ast.Starred,
    SliceExpr: ast.Slice,
    AssignmentExpr: ast.NamedExpr,
}

CALL_HINT = (
    "only gpuoff intrinsics, math functions, builtins and @go.func device functions can be called"
)
"""The front end's explanation after ``calling X is not supported in kernels``."""
KERNEL_CALL = "a kernel cannot be called from a kernel; declare the helper with @go.func to call it"


def construct_message(node: Node) -> str | None:
    """The front end's message for an unsupported statement or expression, else None."""
    kind = UNSUPPORTED_NODES.get(type(node))
    if kind is None:
        return None
    return unsupported_message(CONSTRUCT_NAMES.get(kind, f"the construct {kind.__name__}"))


def _fullnames(obj: object) -> set[str]:
    """The names mypy gives a callable the front end accepts (``np.abs`` is ``numpy.abs``)."""
    name = getattr(obj, "__name__", "")
    module = getattr(obj, "__module__", None) or ""
    if isinstance(obj, np.ufunc) or module.startswith("numpy"):
        return {f"numpy.{n}" for n in dir(np) if getattr(np, n, None) is obj}
    return {f"{module}.{name}"}


ALLOWED_CALLS = frozenset(
    n
    for obj in [
        *BUILTINS,
        *MATH_BY_OBJECT,  # math.*, NumPy ufuncs and gpuoff's math functions
        *lang.INTRINSICS,
        *lang.ATOMICS,
        *lang.SCALAR_TYPES,  # casts: go.f32(v)
        lang.barrier,
        lang.shared,
    ]
    for n in _fullnames(obj)
) | {f"numpy.{name}" for name in [*lang.DTYPE_BY_NAME, "bool_"]}  # casts: np.float32(v)
"""Callees a kernel body may call besides ``@go.func`` device functions: the front end's
own tables (``gpuoff.frontend.resolve``), so the two accept the same calls."""


def _statements(body: Block) -> list[Statement]:
    """Every statement in ``body``, nested blocks included (stops at nested defs)."""
    out: list[Statement] = []
    todo: list[Statement] = list(body.body)
    while todo:
        s = todo.pop()
        out.append(s)
        if isinstance(s, (FuncDef, Decorator, OverloadedFuncDef, ClassDef)):
            continue
        blocks: list[Block | None] = []
        if isinstance(s, IfStmt):
            blocks += [*s.body, s.else_body]
        elif isinstance(s, TryStmt):
            blocks += [s.body, *s.handlers, s.else_body, s.finally_body]
        else:
            for attr in ("body", "else_body"):
                b = getattr(s, attr, None)
                blocks.append(b if isinstance(b, Block) else None)
        todo += [x for b in blocks if b is not None for x in b.body]
    return sorted(out, key=lambda s: (s.line, s.column))


def _callee_text(callee: RefExpr) -> str:
    """Like the front end's ``describe``: what is being called."""
    node = callee.node
    if isinstance(node, TypeInfo):
        return f"the class {node.name!r}"
    return f"the Python function {describe(callee).rpartition('.')[2]!r}"


def call_message(call: CallExpr) -> str | None:
    """The front end's message for a call outside the kernel subset, else None."""
    callee = call.callee
    if isinstance(callee, MemberExpr) and isinstance(callee.expr, StrExpr):
        return unsupported_message("f-string")  # mypy lowers f"..." to str.format/join
    if not isinstance(callee, RefExpr):
        return f"calling a computed value is not supported in kernels: {CALL_HINT}"
    if callee.fullname in ALLOWED_CALLS or is_device_function(callee):
        return None
    node = callee.node
    t = (
        node.var.type
        if isinstance(node, Decorator)
        else node.type
        if isinstance(node, Var)
        else None
    )
    p = get_proper_type(t) if t is not None else None
    if isinstance(p, Instance) and p.type.fullname == KERNEL_CLASS:
        return KERNEL_CALL
    home = callee.fullname.partition(".")[0]
    if home in ("math", "numpy"):
        short = "np" if home == "numpy" else "math"
        name = callee.fullname.rpartition(".")[2]
        return unsupported_math_message(f"{short}.{name}", short)
    return f"calling {_callee_text(callee)} is not supported in kernels: {CALL_HINT}"


def check_body(api: TypeChecker, func: FuncDef) -> None:
    """Report every unsupported construct and call in one kernel or device-function body."""
    for s in _statements(func.body):
        msg = construct_message(s)
        if msg is not None:
            api.fail(msg, s, code=UNSUPPORTED)
    for e in get_subexpressions(func.body):
        msg = construct_message(e) or (call_message(e) if isinstance(e, CallExpr) else None)
        if msg is not None:
            api.fail(msg, e, code=UNSUPPORTED)


def _find_decorated(stmts: list[Statement], call: CallExpr) -> Decorator | None:
    """The function that ``call`` (``go.kernel(...)``) decorates, searched in ``stmts``."""
    for s in stmts:
        if isinstance(s, Decorator):
            if any(d is call for d in s.original_decorators):
                return s
            found = _find_decorated(s.func.body.body, call)
        elif isinstance(s, FuncDef):
            found = _find_decorated(s.body.body, call)
        elif isinstance(s, ClassDef):
            found = _find_decorated(s.defs.body, call)
        elif isinstance(s, IfStmt):
            found = _find_decorated([x for b in (*s.body, s.else_body) if b for x in b.body], call)
        else:
            found = None
        if found is not None:
            return found
    return None


def decorator_hook(ctx: FunctionContext) -> Type:
    """``@go.kernel`` / ``@go.func`` (context: the Decorator) or ``go.kernel(...)`` (a call)."""
    api = ctx.api
    if not isinstance(api, TypeChecker):
        return ctx.default_return_type
    dec: Decorator | None = None
    if isinstance(ctx.context, Decorator):
        dec = ctx.context
    elif isinstance(ctx.context, CallExpr):  # the factory form: find what it decorates
        dec = _find_decorated(api.tree.defs, ctx.context)
    if dec is not None:
        check_body(api, dec.func)
    return ctx.default_return_type
