"""Kernel and device-function bodies: what the front end refuses, reported in the editor.

Runs from the decorator call (``@go.kernel``, ``@go.kernel(...)``, ``@go.func``, and the call
form ``go.kernel(fn)``): mypy checks the body first, then the decorator call, so parameter
and local types are known here. It walks the body the way the front end lowers it (the same
dispatch: statements, values, calls, indexes) and takes every word from ``gpuoff.subset``
and ``gpuoff.ownership``, which the front end raises with, so the two agree. Unlike the
front end it reports every mistake in a body, not only the first.

Writes through a shared ``Borrow`` are checked everywhere, from its type (``borrow_write``).
"""

from __future__ import annotations

import ast

from mypy.checker import TypeChecker
from mypy.nodes import (
    GDEF,
    AssertStmt,
    AssignmentExpr,
    AssignmentStmt,
    AwaitExpr,
    Block,
    BreakStmt,
    CallExpr,
    ClassDef,
    ComparisonExpr,
    ConditionalExpr,
    ContinueStmt,
    Decorator,
    DelStmt,
    DictExpr,
    DictionaryComprehension,
    Expression,
    ExpressionStmt,
    ForStmt,
    FuncDef,
    GeneratorExpr,
    GlobalDecl,
    IfStmt,
    Import,
    ImportAll,
    ImportFrom,
    IndexExpr,
    LambdaExpr,
    ListComprehension,
    ListExpr,
    MatchStmt,
    MemberExpr,
    MypyFile,
    NameExpr,
    Node,
    NonlocalDecl,
    OperatorAssignmentStmt,
    OpExpr,
    OverloadedFuncDef,
    PassStmt,
    RaiseStmt,
    RefExpr,
    ReturnStmt,
    SetComprehension,
    SetExpr,
    SliceExpr,
    StarExpr,
    Statement,
    StrExpr,
    TryStmt,
    TupleExpr,
    TypeInfo,
    TypeVarExpr,
    UnaryExpr,
    Var,
    WhileStmt,
    WithStmt,
    YieldExpr,
    YieldFromExpr,
)
from mypy.types import (
    CallableType,
    Instance,
    LiteralType,
    TupleType,
    Type,
    TypeType,
    get_proper_type,
)

from gpuoff import subset as W
from gpuoff.ownership import unsupported_message
from mypy_plugin.kernel_signature import check_signature
from mypy_plugin.names import (
    FUNC_DECORATORS,
    KERNEL_CLASS,
    UNSUPPORTED,
    access_of,
    describe,
    is_device_function,
)

# mypy node -> the Python ``ast`` class the front end rejects, so that both name the construct
# alike (``gpuoff.subset.CONSTRUCT_NAMES``: "try statement", "list literal").
UNSUPPORTED_NODES: dict[type[Node], type[ast.AST]] = {
    TryStmt: ast.Try, WithStmt: ast.With, FuncDef: ast.FunctionDef, Decorator: ast.FunctionDef,
    OverloadedFuncDef: ast.FunctionDef, ClassDef: ast.ClassDef, RaiseStmt: ast.Raise,
    AssertStmt: ast.Assert, DelStmt: ast.Delete, GlobalDecl: ast.Global,
    NonlocalDecl: ast.Nonlocal, Import: ast.Import, ImportFrom: ast.ImportFrom,
    ImportAll: ast.ImportFrom, MatchStmt: ast.Match, LambdaExpr: ast.Lambda,
    ListExpr: ast.List, DictExpr: ast.Dict, SetExpr: ast.Set,
    ListComprehension: ast.ListComp, SetComprehension: ast.SetComp,
    DictionaryComprehension: ast.DictComp, GeneratorExpr: ast.GeneratorExp,
    YieldExpr: ast.Yield, YieldFromExpr: ast.YieldFrom, AwaitExpr: ast.Await,
    AssignmentExpr: ast.NamedExpr,
}  # fmt: skip

ACCEPTED_CALLS = W.accepted_callees()
"""Callees a kernel may call besides ``@go.func`` device functions (``gpuoff.subset``)."""
ARRAY_ARGUMENT_CALLS = frozenset({"builtins.len", *(f"{W.LANG_MODULE}.{n}" for n in W.ATOMICS)})
"""Builtins and intrinsics that take an array itself as (first) argument."""
SHARED = f"{W.LANG_MODULE}.shared"
UNSAFE = f"{W.LANG_MODULE}.{W.UNSAFE}"
LOCAL_ARRAY = f"{W.LANG_MODULE}.local_array"
ITERATORS = frozenset({"builtins.range", "builtins.enumerate", "builtins.zip",
                       "builtins.reversed"})  # fmt: skip
"""Callees a ``for`` loop may iterate over besides a tuple (``for dx, dy in OFFSETS``)."""


def construct_message(node: Node) -> str | None:
    """The front end's message for an unsupported statement or expression, else None."""
    kind = UNSUPPORTED_NODES.get(type(node))
    if kind is None:
        return None
    return unsupported_message(W.CONSTRUCT_NAMES.get(kind, f"the construct {kind.__name__}"))


def _is_scalar_constant(t: Type | None) -> bool:
    p = get_proper_type(t) if t is not None else None
    if isinstance(p, LiteralType):
        return isinstance(p.value, int | float | bool)
    if isinstance(p, Instance):
        name = p.type.fullname
        return name in ("builtins.int", "builtins.float", "builtins.bool") or (
            p.type.has_base(f"{W.LANG_MODULE}.DType") or p.type.has_base("numpy.generic"))
    return p is None  # unknown: let the front end decide


def _is_constant(t: Type | None) -> bool:
    """A number, or a tuple or list of constants (a captured ``NEIGHBOURS``)."""
    p = get_proper_type(t) if t is not None else None
    if isinstance(p, TupleType):
        return all(_is_constant(item) for item in p.items)
    if isinstance(p, Instance) and p.type.fullname in ("builtins.tuple", "builtins.list"):
        return all(_is_constant(a) for a in p.args)
    if isinstance(p, Instance) and (p.type.has_base("gpuoff.lang_vec.Vector")
                                    or p.type.has_base("gpuoff.lang_mat.Matrix")):  # fmt: skip
        return True  # a captured go.vec3(...) or go.mat33(...): its elements are constants
    return _is_scalar_constant(t)


def _is_private_decl(e: Expression) -> bool:
    """``[0.0] * N``, ``N * [0.0]``, ``[a, b, c]`` or ``go.local_array(...)``."""
    if isinstance(e, ListExpr):
        return True
    if isinstance(e, OpExpr) and e.op == "*":
        return isinstance(e.left, ListExpr) or isinstance(e.right, ListExpr)
    return isinstance(e, CallExpr) and _fullname(e.callee) == LOCAL_ARRAY


def _type_name(t: Type | None) -> str:
    p = get_proper_type(t) if t is not None else None
    if isinstance(p, TupleType):
        return "tuple"
    if isinstance(p, Instance):
        return p.type.name
    return "object"


class BodyChecker:
    """One kernel or device-function body, checked like the front end lowers it."""

    def __init__(self, api: TypeChecker, func: FuncDef, kernel: bool) -> None:
        self.api = api
        self.func = func
        self.kernel = kernel
        self.locals = {a.variable for a in func.arguments}
        # Arrays: parameters with a wrapper, and go.shared(...) locals. The body may be
        # checked after the decorator (local types not inferred yet): decide from syntax.
        sig = func.type
        types = sig.arg_types if isinstance(sig, CallableType) else []
        self.arrays = {a.variable for a, t in zip(func.arguments, types, strict=False)
                       if access_of(t) is not None}  # fmt: skip

    def fail(self, msg: str, node: Node) -> None:
        self.api.fail(msg, node, code=UNSUPPORTED)

    def is_array(self, e: Expression) -> bool:
        return isinstance(e, NameExpr) and isinstance(e.node, Var) and e.node in self.arrays

    def run(self) -> None:
        body = self.func.body.body
        if body and isinstance(body[0], ExpressionStmt) and isinstance(body[0].expr, StrExpr):
            body = body[1:]  # the docstring
        self.stmts(body)

    def stmts(self, body: list[Statement]) -> None:
        for s in body:
            self.stmt(s)

    def block(self, b: Block | None) -> None:
        if b is not None:
            self.stmts(b.body)

    def stmt(self, s: Statement) -> None:
        if isinstance(s, AssignmentStmt):
            self.assignment(s)
        elif isinstance(s, OperatorAssignmentStmt):
            if isinstance(s.lvalue, MemberExpr):
                self.fail(W.AUGMENTED_ATTRIBUTE, s.lvalue)
            else:
                self.target(s.lvalue)
            self.value(s.rvalue)
        elif isinstance(s, ExpressionStmt):
            if isinstance(s.expr, CallExpr):
                self.call(s.expr)
            else:
                self.fail(W.EXPRESSION_STATEMENT, s)
                self.value(s.expr)
        elif isinstance(s, IfStmt):
            for cond, body in zip(s.expr, s.body, strict=True):
                self.value(cond)
                self.block(body)
            self.block(s.else_body)
        elif isinstance(s, WhileStmt):
            self.value(s.expr)
            self.block(s.body)
            if s.else_body is not None and s.else_body.body:
                self.fail(unsupported_message(W.WHILE_ELSE), s.else_body.body[0])
        elif isinstance(s, ForStmt):
            self.for_loop(s)
        elif isinstance(s, ReturnStmt):
            if s.expr is not None and self.kernel:
                self.fail(W.KERNEL_RETURNS_VALUE, s)
            self.value(s.expr)
        elif isinstance(s, BreakStmt | ContinueStmt | PassStmt):
            pass
        elif isinstance(s, WithStmt) and len(s.expr) == 1 and _is_unsafe(s.expr[0]):
            if s.target[0] is not None:  # `with go.unsafe():`, the one with a kernel has
                self.fail(W.UNSAFE_BINDS_NOTHING, s)
            self.block(s.body)
        else:
            msg = construct_message(s)
            if isinstance(s, WithStmt):
                msg = unsupported_message(W.OTHER_WITH)
            if msg is not None:
                self.fail(msg, s)
            if isinstance(s, TryStmt | WithStmt):  # mistakes inside are still reported
                self.block(s.body)

    def assignment(self, s: AssignmentStmt) -> None:
        rvalue = s.rvalue
        for lv in s.lvalues:
            if isinstance(lv, MemberExpr):
                self.fail(W.ATTRIBUTE_ASSIGNMENT, lv)
            else:
                self.target(lv)
        declares = _is_private_decl(rvalue) or (
            isinstance(rvalue, CallExpr) and _fullname(rvalue.callee) == SHARED) or (
            self._is_view(rvalue))
        if declares:
            for lv in s.lvalues:
                if isinstance(lv, NameExpr) and isinstance(lv.node, Var):
                    self.arrays.add(lv.node)
        if isinstance(rvalue, CallExpr) and _fullname(rvalue.callee) in (SHARED, LOCAL_ARRAY):
            return  # s = go.shared(shape, dtype): a declaration
        if _is_private_decl(rvalue):  # b = [0.0] * N: a private array; its items are values
            lists = [x for x in (rvalue, getattr(rvalue, "left", None),
                                 getattr(rvalue, "right", None)) if isinstance(x, ListExpr)]
            for item in (x for lst in lists for x in lst.items):
                self.value(item)
            if isinstance(rvalue, OpExpr):
                self.value(rvalue.right if isinstance(rvalue.left, ListExpr) else rvalue.left)
            return
        self.value(rvalue)

    def target(self, lv: Expression) -> None:
        if isinstance(lv, IndexExpr):
            self.index(lv)
        elif isinstance(lv, NameExpr) and isinstance(lv.node, Var):
            self.locals.add(lv.node)
        elif isinstance(lv, TupleExpr | ListExpr):  # a, (b, c), *rest = ...
            for item in lv.items:
                self.target(item)
        elif isinstance(lv, StarExpr):
            self.target(lv.expr)
        elif isinstance(lv, MemberExpr):
            self.fail(W.ATTRIBUTE_ASSIGNMENT, lv)

    def for_loop(self, s: ForStmt) -> None:
        self.target(s.index)
        it = s.expr
        if isinstance(it, CallExpr) and _fullname(it.callee) in ITERATORS:
            for a in it.args:
                self.value(a)  # (range's bounds, or the tuples enumerate/zip/reversed take)
        elif self.is_array(it):
            self.fail(unsupported_message(W.FOR_NOT_RANGE), it)
        else:
            self.value(it)  # a tuple: the loop is unrolled (the front end checks its kind)
        self.block(s.body)
        if s.else_body is not None and s.else_body.body:
            self.fail(unsupported_message(W.FOR_ELSE), s.else_body.body[0])

    # -- values -------------------------------------------------------------------------------

    def value(self, e: Expression | None) -> None:
        if e is None:
            return
        if isinstance(e, StrExpr):
            self.fail(W.STRING_VALUE, e)
        elif isinstance(e, NameExpr):
            self.name(e)
        elif isinstance(e, MemberExpr):
            self.member(e)
        elif isinstance(e, IndexExpr):
            self.index(e)
        elif isinstance(e, CallExpr):
            self.call(e)
        elif isinstance(e, UnaryExpr):
            self.value(e.expr)
        elif isinstance(e, OpExpr):
            self.value(e.left)
            self.value(e.right)
        elif isinstance(e, ComparisonExpr):
            for op in e.operators:
                if op in ("is", "is not"):
                    self.fail(unsupported_message(W.comparison_name(op)), e)
            for operand in e.operands:
                self.value(operand)
        elif isinstance(e, ConditionalExpr):
            self.value(e.if_expr)
            self.value(e.cond)
            self.value(e.else_expr)
        else:
            msg = construct_message(e)
            if msg is not None:
                self.fail(msg, e)
            if isinstance(e, AssignmentExpr):
                self.value(e.value)
            elif isinstance(e, ListExpr | SetExpr | TupleExpr):
                for item in e.items:
                    self.value(item)
            elif isinstance(e, StarExpr):  # (*t, 1): a tuple's items
                self.value(e.expr)

    def name(self, e: NameExpr) -> None:
        node = e.node
        if e.fullname == "builtins.None":
            self.fail(W.NONE_VALUE, e)
        elif isinstance(node, Var):
            if self.is_array(e):
                self.fail(W.array_as_scalar_message(e.name), e)
            elif e.kind == GDEF and not _is_constant(node.type):
                what = f"a value of type {_type_name(node.type)!r}"
                self.fail(W.unusable_value_message(e.name, what), e)

    def member(self, e: MemberExpr) -> None:
        if self.is_array(e.expr):
            if e.name not in W.ARRAY_ATTRIBUTES:  # (x.shape is a tuple)
                self.fail(W.array_attribute_message(e.name, describe(e.expr, self.api)), e)
        elif isinstance(e.expr, NameExpr) and not isinstance(e.expr.node, MypyFile | TypeInfo):
            base = e.expr.node
            if isinstance(base, Var) and base in self.locals:
                return  # attribute of a local scalar: the front end says which
            # a captured configuration object: its attributes are constants

    def index(self, e: IndexExpr) -> None:
        base = e.base
        if isinstance(base, MemberExpr) and base.name == "shape" and self.is_array(base.expr):
            return
        if self.is_array(base):
            items = e.index.items if isinstance(e.index, TupleExpr) else [e.index]
            for item in items:
                if isinstance(item, SliceExpr):  # a view: img[y, :], a[lo:hi]
                    for part in (item.begin_index, item.end_index, item.stride):
                        if part is not None:
                            self.value(part)
                else:
                    self.value(item)
            return
        constant = isinstance(base, NameExpr) and base.kind == GDEF and isinstance(
            base.node, Var) and _is_constant(base.node.type)  # a captured tuple: TAPS[0]
        if not constant and (isinstance(base, MemberExpr) and not self._shape(base) or (
                isinstance(base, NameExpr) and base.kind == GDEF)):
            self.fail(W.index_not_array_message(describe(base, self.api)), e)
        elif not constant:
            self.value(base)
        items = e.index.items if isinstance(e.index, TupleExpr) else [e.index]
        for item in items:  # a tuple's slice t[1:] is fine
            if isinstance(item, SliceExpr):
                for part in (item.begin_index, item.end_index, item.stride):
                    self.value(part)
            else:
                self.value(item)

    def _is_view(self, e: Expression) -> bool:
        """``img[y, :]``, ``a[lo:hi]``, ``row[1:]``: a view of an array (an array itself)."""
        if not (isinstance(e, IndexExpr) and self.is_array(e.base)):
            return False
        items = e.index.items if isinstance(e.index, TupleExpr) else [e.index]
        return any(isinstance(item, SliceExpr) for item in items)

    def _shape(self, e: MemberExpr) -> bool:
        return e.name == "shape" and self.is_array(e.expr)

    # -- calls --------------------------------------------------------------------------------

    def call(self, e: CallExpr) -> None:
        callee = e.callee
        if isinstance(callee, MemberExpr) and isinstance(callee.expr, StrExpr):
            self.fail(unsupported_message("f-string"), e)  # mypy lowers f"..." to str.format
            return
        if isinstance(callee, MemberExpr) and self.is_array(callee.expr):
            self.fail(W.array_method_message(callee.name, describe(callee.expr, self.api)), e)
            return
        if isinstance(callee, MemberExpr) and callee.name in ("conjugate", "conj") \
                and not e.args:  # z.conjugate() of a complex number (the front end's check)
            self.value(callee.expr)
            return
        if isinstance(callee, MemberExpr) and callee.name == "load" and _is_value_class(
            callee.expr
        ):  # go.vec3.load(a, i), go.mat33.load(a, i): an array and its row's index
            for a in e.args[1:]:
                self.value(a)
            return
        device = isinstance(callee, RefExpr) and is_device_function(callee)
        msg = self.callee_message(callee) if not device else None
        if msg is not None:
            self.fail(msg, e)
            return  # the front end stops at the callee: its arguments are not the mistake
        name = _fullname(callee)
        if device and isinstance(callee, RefExpr):
            self.recursion(e, callee)
        if name == "builtins.float" and len(e.args) == 1 and isinstance(e.args[0], StrExpr):
            try:  # float("inf"), float("nan"): a constant, as in the front end
                float(e.args[0].value)
            except ValueError:
                self.fail(W.float_text_message(e.args[0].value), e.args[0])
            return
        for k, (a, kind, kw) in enumerate(zip(e.args, e.arg_kinds, e.arg_names, strict=True)):
            if kind.is_star():
                self.fail(W.STARRED_ARGUMENTS, a)
                continue
            if kw is not None and not device:
                self.fail(W.KEYWORD_ARGUMENTS, a)
            if self.is_array(a) and (device or (k == 0 and name in ARRAY_ARGUMENT_CALLS)):
                continue
            if k == 1 and name in ARRAY_ARGUMENT_CALLS and isinstance(a, TupleExpr):
                for item in a.items:  # go.atomic_add(f, (i, 0), v): one index per dimension
                    self.value(item)
                continue
            if name in (SHARED, LOCAL_ARRAY):
                continue
            self.value(a)

    def callee_message(self, callee: Expression) -> str | None:
        """The front end's message for a callee outside the kernel subset, else None."""
        if (isinstance(callee, CallExpr) and isinstance(callee.callee, RefExpr)
                and callee.callee.fullname == "builtins.type" and len(callee.args) == 1):
            return None  # type(x[i])(v): a cast to a dtype (a generic body's type variable)
        if not isinstance(callee, RefExpr):
            return W.computed_call_message(describe(callee, self.api))
        if callee.fullname in ACCEPTED_CALLS or _is_value_class(callee):
            return None
        if callee.fullname == UNSAFE:
            return W.UNSAFE_ONLY_AS_BLOCK
        node = callee.node
        if node is None and isinstance(callee, NameExpr):  # (unbound: mypy refused it)
            sym = self.api.globals.get(callee.name)
            node = sym.node if sym is not None else None
        if isinstance(node, TypeVarExpr):
            return None  # T(v): a cast to a go.DTypeVar's dtype (mypy's own error says the rest)
        t = node.var.type if isinstance(node, Decorator) else getattr(node, "type", None)
        p = get_proper_type(t) if t is not None else None
        if isinstance(p, Instance) and p.type.fullname == KERNEL_CLASS:
            return W.KERNEL_CALL
        if isinstance(node, TypeInfo):
            return W.call_message(f"the class {node.name!r}")
        home = callee.fullname.partition(".")[0]
        if home in ("math", "numpy"):  # math.atan2, np.sum: say which math functions there are
            return W.unsupported_math_message(describe(callee, self.api),
                                              "np" if home == "numpy" else "math")  # fmt: skip
        short = describe(callee, self.api).rpartition(".")[2]
        return W.call_message(f"the Python function {short!r}")

    def recursion(self, call: CallExpr, callee: RefExpr) -> None:
        """A call to a device function that (through others in this module) calls back."""
        target = _device_def(callee)
        if target is None:
            return
        if target is self.func or _reaches(target, self.func, set()):
            self.fail(W.recursion_message(target.name), call)


def _is_unsafe(e: Expression) -> bool:
    """``go.unsafe()`` (no arguments: the front end says more about anything else)."""
    return isinstance(e, CallExpr) and _fullname(e.callee) == UNSAFE


VALUE_CLASSES = ("gpuoff.lang_vec.Vector", "gpuoff.lang_mat.Matrix")


def _is_value_class(e: Expression) -> bool:
    """``go.vec3``, ``go.mat33`` or a name bound to one (``M23 = go.mat(2, 3, go.f32)``)."""
    node = e.node if isinstance(e, RefExpr) else None
    if isinstance(node, TypeInfo):
        return any(node.has_base(c) for c in VALUE_CLASSES)
    p = get_proper_type(node.type) if isinstance(node, Var) and node.type is not None else None
    item = get_proper_type(p.item) if isinstance(p, TypeType) else None
    return isinstance(item, Instance) and any(item.type.has_base(c) for c in VALUE_CLASSES)


def _fullname(e: Expression) -> str:
    return e.fullname if isinstance(e, RefExpr) else ""


def _device_def(callee: RefExpr) -> FuncDef | None:
    node = callee.node
    if isinstance(node, Decorator) and any(
        isinstance(d, RefExpr) and d.fullname in FUNC_DECORATORS for d in node.original_decorators
    ):
        return node.func
    return None


def _device_calls(func: FuncDef) -> list[FuncDef]:
    from mypy.server.subexpr import get_subexpressions

    out = []
    for e in get_subexpressions(func.body):
        if isinstance(e, CallExpr) and isinstance(e.callee, RefExpr):
            target = _device_def(e.callee)
            if target is not None:
                out.append(target)
    return out


def _reaches(start: FuncDef, goal: FuncDef, seen: set[int]) -> bool:
    if id(start) in seen or not start.body.body:
        return False
    seen.add(id(start))
    return any(f is goal or _reaches(f, goal, seen) for f in _device_calls(start))


# -- the hook ---------------------------------------------------------------------------------


def _find_target(stmts: list[Statement], call: CallExpr) -> tuple[FuncDef, bool] | None:
    """The function that ``call`` (``go.kernel(...)``/``go.func(...)``) makes a kernel of:
    one it decorates, or the argument of ``go.kernel(...)(fn)``. Returns (function, is a
    device function)."""
    for s in stmts:
        if isinstance(s, Decorator):
            if any(d is call for d in s.original_decorators):
                return s.func, False
            found = _find_target(s.func.body.body, call)
        elif isinstance(s, FuncDef):
            found = _find_target(s.body.body, call)
        elif isinstance(s, ClassDef):
            found = _find_target(s.defs.body, call)
        elif isinstance(s, IfStmt):
            found = _find_target([x for b in (*s.body, s.else_body) if b for x in b.body], call)
        elif isinstance(s, AssignmentStmt) or isinstance(s, ExpressionStmt):
            found = _outer_call(s.rvalue if isinstance(s, AssignmentStmt) else s.expr, call)
        else:
            found = None
        if found is not None:
            return found
    return None


def _outer_call(e: Expression, inner: CallExpr) -> tuple[FuncDef, bool] | None:
    """``go.kernel(boundscheck=False)(fn)``: the call whose callee is ``inner``."""
    if isinstance(e, CallExpr) and e.callee is inner and e.args:
        fn = e.args[0]
        if isinstance(fn, NameExpr) and isinstance(fn.node, FuncDef):
            return fn.node, False
    return None


def decorator_hook(ctx: object) -> object:
    """``@go.kernel`` / ``@go.func`` (context: the Decorator), ``go.kernel(fn)`` (a call with
    the function), or ``go.kernel(...)`` used as ``go.kernel(...)(fn)``."""
    from mypy.plugin import FunctionContext

    assert isinstance(ctx, FunctionContext)
    api = ctx.api
    if not isinstance(api, TypeChecker):
        return ctx.default_return_type
    target: tuple[FuncDef, bool] | None = None
    context = ctx.context
    if isinstance(context, Decorator):
        device = any(isinstance(d, RefExpr) and d.fullname in FUNC_DECORATORS
                     for d in context.original_decorators)  # fmt: skip
        target = (context.func, device)
    elif isinstance(context, CallExpr):
        if context.args and isinstance(context.args[0], NameExpr) and isinstance(
            context.args[0].node, FuncDef
        ):
            target = (context.args[0].node, _fullname(context.callee) in FUNC_DECORATORS)
        elif not context.args:
            target = _find_target(api.tree.defs, context)
    if target is not None:
        func, device = target
        if func.is_coroutine:
            api.fail(W.not_plain_def_message(func.name), func, code=UNSUPPORTED)
        check_signature(api, func, kernel=not device)
        BodyChecker(api, func, kernel=not device).run()
    return ctx.default_return_type
