"""Kernel and device-function bodies: constructs and calls outside the kernel subset
(SPEC.md §1). Writes through a shared ``Borrow`` are checked everywhere, in ``borrow_write``.

Runs from the decorator call (``@go.kernel``, ``@go.kernel(...)``, ``@go.func``): mypy checks
the body first, then the decorator call, so parameter and local types are known here.
Messages use the runtime front end's wording (``gpuoff.ownership``).
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.nodes import (
    AssignmentExpr,
    AwaitExpr,
    Block,
    BytesExpr,
    CallExpr,
    ClassDef,
    ComplexExpr,
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
    TryStmt,
    WithStmt,
    YieldExpr,
    YieldFromExpr,
)
from mypy.plugin import FunctionContext
from mypy.server.subexpr import get_subexpressions
from mypy.types import Type

from gpuoff import lang
from gpuoff.ownership import unsupported_message
from mypy_plugin.names import (
    UNSUPPORTED,
    describe,
    is_device_function,
)

# mypy node -> the Python ``ast`` class the runtime front end names in its CompileError.
UNSUPPORTED_NODES: dict[type[Node], str] = {
    TryStmt: "Try",
    WithStmt: "With",
    FuncDef: "FunctionDef",
    Decorator: "FunctionDef",
    OverloadedFuncDef: "FunctionDef",
    ClassDef: "ClassDef",
    RaiseStmt: "Raise",
    DelStmt: "Delete",
    GlobalDecl: "Global",
    NonlocalDecl: "Nonlocal",
    Import: "Import",
    ImportFrom: "ImportFrom",
    ImportAll: "ImportFrom",
    MatchStmt: "Match",
    LambdaExpr: "Lambda",
    ListExpr: "List",
    DictExpr: "Dict",
    SetExpr: "Set",
    ListComprehension: "ListComp",
    SetComprehension: "SetComp",
    DictionaryComprehension: "DictComp",
    GeneratorExpr: "GeneratorExp",
    YieldExpr: "Yield",
    YieldFromExpr: "YieldFrom",
    AwaitExpr: "Await",
    StarExpr: "Starred",
    SliceExpr: "Slice",
    AssignmentExpr: "NamedExpr",
    BytesExpr: "Constant (bytes)",
    ComplexExpr: "Constant (complex)",
}

_LANG_CALLABLES: list[object] = [
    *lang.INTRINSICS,
    *lang.MATH_FUNCTIONS,
    *lang.ATOMICS,
    *lang.SCALAR_TYPES,
    lang.barrier,
    lang.shared,
]
ALLOWED_CALLS = frozenset(
    {f"gpuoff.lang.{getattr(f, '__name__', '')}" for f in _LANG_CALLABLES}
    | {f"builtins.{n}" for n in ("range", "len", "abs", "min", "max", "int", "float")}
    | {f"math.{n}" for n in lang.MATH_FUNCTIONS.values() if n not in ("abs", "min", "max")}
    | {"math.fabs"}
)
"""Callees a kernel body may call besides ``@go.func`` device functions (SPEC.md §1)."""


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


def _check_call(api: TypeChecker, call: CallExpr) -> None:
    callee = call.callee
    if isinstance(callee, RefExpr):
        if callee.fullname in ALLOWED_CALLS or is_device_function(callee):
            return
        what = f"calling {describe(callee)}()"
    else:
        what = "calling a computed callee"
    api.fail(unsupported_message(what), call, code=UNSUPPORTED)


def check_body(api: TypeChecker, func: FuncDef) -> None:
    """Report every unsupported construct and call in one kernel or device-function body."""
    for s in _statements(func.body):
        construct = UNSUPPORTED_NODES.get(type(s))
        if construct is not None:
            api.fail(unsupported_message(f"construct {construct}"), s, code=UNSUPPORTED)
    for e in get_subexpressions(func.body):
        construct = UNSUPPORTED_NODES.get(type(e))
        if construct is not None:
            api.fail(unsupported_message(f"construct {construct}"), e, code=UNSUPPORTED)
        elif isinstance(e, CallExpr):
            _check_call(api, e)


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
