"""Statement lowering: one handler per ``ast`` statement class (``TABLE``).

An ``ast`` class missing from the table is a construct outside the kernel subset. Assignments,
loops and returns feed the pass's type records (``lw.cur``). Barrier divergence is decided on
the lowered kernel (``frontend.barriers``).
"""

from __future__ import annotations

import ast

from gpuoff import subset as W
from gpuoff.frontend import typing_rules as R
from gpuoff.frontend.base import INFER, Lowerer, StmtHandler, Untyped, assigned_names
from gpuoff.frontend.calls import call, shared_decl, writable_array
from gpuoff.frontend.diagnostics import unsupported
from gpuoff.frontend.exprs import (
    BINOPS,
    array_of,
    binop,
    indices,
    load,
    shape_of,
    static,
    static_value,
)
from gpuoff.frontend.irutil import Val, const, truth
from gpuoff.frontend.signature import scalar_of
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from gpuoff.subset import OTHER_WITH, UNSAFE_BINDS_NOTHING

Stmts = list[N.Stmt]


def _cond(lw: Lowerer, node: ast.expr) -> N.Expr:
    try:
        return truth(lw.expr(node).expr)
    except Untyped:
        if lw.final:
            raise
        return N.Const(T.boolean, True)


def _nested(lw: Lowerer, stmts: list[ast.stmt], loop: bool) -> tuple[N.Stmt, ...]:
    lw.loop_depth += loop
    try:
        return lw.block(stmts)
    finally:
        lw.loop_depth -= loop


# -- assignments -------------------------------------------------------------------------------


def _assign(lw: Lowerer, node: ast.Assign) -> Stmts:
    value_node = node.value
    if isinstance(value_node, ast.Call):
        res = static(lw, value_node.func)
        if res is not None and res.kind == "shared":
            if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
                lw.fail(node, "go.shared(...) must be assigned to a single variable")
            shared_decl(lw, node.targets[0], value_node)
            return []
    targets = node.targets
    if any(isinstance(t, ast.Tuple | ast.List) for t in targets):
        if len(targets) != 1:
            lw.fail(node, "chained assignment with tuple unpacking is not supported")
        return _unpack(lw, targets[0], value_node, node)
    value = lw.expr(value_node)
    if len(targets) == 1:
        return assign_to(lw, targets[0], value)
    out: Stmts = []
    if not isinstance(value.expr, N.Const | N.Var):
        tmp_assign, tmp = lw.new_temp(value.expr, node)
        out.append(tmp_assign)
        value = Val(tmp, value.weak)
    for t in targets:
        out.extend(assign_to(lw, t, value))
    return out


def _unpack(lw: Lowerer, target: ast.expr, value_node: ast.expr, node: ast.AST) -> Stmts:
    assert isinstance(target, ast.Tuple | ast.List)
    if isinstance(value_node, ast.Attribute) and value_node.attr == "shape":
        array = array_of(lw, value_node.value)
        if array is not None:  # rows, cols = x.shape
            ndim, names = array.type.ndim, len(target.elts)
            if names != ndim:
                msg = f"{array.name!r} has {ndim} dimension(s); cannot unpack its shape"
                lw.fail(node, f"{msg} into {names} names")
            dims = [shape_of(lw, array, d, value_node) for d in range(array.type.ndim)]
            return _assign_all(lw, target, dims)
    names = len(target.elts)
    if not isinstance(value_node, ast.Tuple | ast.List):
        what = ast.unparse(value_node)
        res = static(lw, value_node.func) if isinstance(value_node, ast.Call) else None
        if res is not None and res.kind == "device":
            lw.fail(value_node, f"device function {res.name!r} returns a single scalar, which "
                                f"cannot be unpacked into {names} names (a device function "
                                "cannot return a tuple in kernels)")  # fmt: skip
        lw.fail(value_node, f"{what!r} is a single value, which cannot be unpacked into "
                            f"{names} names; tuple unpacking needs as many values on the "
                            "right (a, b = b, a)")  # fmt: skip
    if len(value_node.elts) != names:
        lw.fail(node, "tuple unpacking needs a tuple of as many values on the right: "
                      f"{len(value_node.elts)} values for {names} names")  # fmt: skip
    # The whole right side is evaluated before any target is assigned (Python semantics).
    values = [lw.expr(v) for v in value_node.elts]
    out: Stmts = []
    held: list[Val] = []
    for v, v_node in zip(values, value_node.elts, strict=True):
        if isinstance(v.expr, N.Const):
            held.append(v)
            continue
        tmp_assign, tmp = lw.new_temp(v.expr, v_node)
        out.append(tmp_assign)
        held.append(Val(tmp, v.weak))
    return out + _assign_all(lw, target, held)


def _assign_all(lw: Lowerer, target: ast.Tuple | ast.List, values: list[Val]) -> Stmts:
    out: Stmts = []
    for t, v in zip(target.elts, values, strict=True):
        if isinstance(t, ast.Tuple | ast.List | ast.Starred):
            raise unsupported(lw.src, t, W.NESTED_UNPACKING)
        out.extend(assign_to(lw, t, v))
    return out


def assign_to(lw: Lowerer, target: ast.expr, value: Val) -> Stmts:
    """``target = value`` for a name or an array element."""
    if isinstance(target, ast.Name):
        return [lw.assign_local(target.id, value, target)]
    if isinstance(target, ast.Subscript):
        array = writable_array(lw, target.value, "assignment to an element")
        idx = indices(lw, target, array)
        return [_store(lw, target, array, idx, value)]
    if isinstance(target, ast.Attribute):
        lw.fail(target, W.ATTRIBUTE_ASSIGNMENT)
    raise unsupported(lw.src, target)


def _store(
    lw: Lowerer, target: ast.Subscript, array: N.ArrayRef, idx: tuple[N.Expr, ...], value: Val
) -> N.Store:
    v = lw.coerce(value, array.type.dtype, target)
    check = lw.add_check(target, array)
    return N.Store(array, idx, v, check, loc=lw.loc(target), unsafe=lw.unsafe_depth > 0)


def _augassign(lw: Lowerer, node: ast.AugAssign) -> Stmts:
    op = BINOPS.get(type(node.op))
    if op is None:
        raise unsupported(lw.src, node, "the matrix multiplication operator @=")
    target = node.target
    if isinstance(target, ast.Name):
        if target.id in lw.arrays:
            lw.fail(target, f"cannot assign to {target.id!r}: it is an array")
        current = lw.read_local(target.id, target)
        new = binop(lw, op, current, lw.expr(node.value), node)
        return [lw.assign_local(target.id, new, target)]
    if not isinstance(target, ast.Subscript):
        lw.fail(target, W.AUGMENTED_ATTRIBUTE)
    array = writable_array(lw, target.value, "augmented assignment to an element")
    out: Stmts = []
    idx: list[N.Expr] = []
    # The index is evaluated once: anything beyond a name or a constant goes to a temp.
    for e in indices(lw, target, array):
        if _cheap(e):
            idx.append(e)
        else:
            tmp_assign, tmp = lw.new_temp(e, target)
            out.append(tmp_assign)
            idx.append(tmp)
    current = load(lw, target, array, tuple(idx))
    new = binop(lw, op, current, lw.expr(node.value), node)
    out.append(_store(lw, target, array, tuple(idx), new))
    return out


def _annassign(lw: Lowerer, node: ast.AnnAssign) -> Stmts:
    if not isinstance(node.target, ast.Name):
        lw.fail(node.target, "annotated assignment only declares local variables")
    name = node.target.id
    t = scalar_of(static_value(lw, node.annotation))
    if t is None:
        lw.fail(node.annotation, "a local variable's annotation must be a scalar type "
                                 "(go.f32, go.i32, float, int, bool, ...)")  # fmt: skip
    if lw.cur.declared.get(name, t) != t:
        lw.fail(node, f"variable {name!r} is declared with two different types")
    lw.cur.declared[name] = t
    if node.value is None:
        return []
    return [lw.assign_local(name, lw.expr(node.value), node.target)]


# -- control flow ------------------------------------------------------------------------------


def _if(lw: Lowerer, node: ast.If) -> Stmts:
    cond = _cond(lw, node.test)
    before = set(lw.maybe_assigned)
    body = _nested(lw, node.body, False)
    after_body, lw.maybe_assigned = lw.maybe_assigned, before
    orelse = _nested(lw, node.orelse, False)
    lw.maybe_assigned |= after_body
    return [N.If(cond, body, orelse, loc=lw.loc(node))]


def _while(lw: Lowerer, node: ast.While) -> Stmts:
    if node.orelse:
        raise unsupported(lw.src, node.orelse[0], W.WHILE_ELSE)
    lw.maybe_assigned |= assigned_names(node)
    cond = _cond(lw, node.test)
    body = _nested(lw, node.body, True)
    return [N.While(cond, body, loc=lw.loc(node))]


def _for(lw: Lowerer, node: ast.For) -> Stmts:
    if node.orelse:
        raise unsupported(lw.src, node.orelse[0], W.FOR_ELSE)
    if not isinstance(node.target, ast.Name):
        lw.fail(node.target, W.FOR_TARGET)
    it = node.iter
    res = static(lw, it.func) if isinstance(it, ast.Call) else None
    if (
        not isinstance(it, ast.Call)
        or res is None
        or res.name != "range"
        or res.kind != ("builtin")
    ):
        raise unsupported(lw.src, it, W.FOR_NOT_RANGE)
    if it.keywords or not 1 <= len(it.args) <= 3:
        lw.fail(it, "range() takes 1 to 3 positional arguments")
    var = node.target.id
    lw.maybe_assigned |= assigned_names(node) - {var}
    try:
        header: tuple[N.Expr, N.Expr, N.Expr] | None = _range(lw, var, it, node.target)
    except Untyped:
        if lw.final:
            raise
        header = None
    body = _nested(lw, node.body, True)
    if header is None:
        return []
    start, stop, step = header
    return [N.ForRange(var, start, stop, step, body, loc=lw.loc(node))]


def _range(lw: Lowerer, var: str, it: ast.Call, target: ast.Name) -> tuple[N.Expr, N.Expr, N.Expr]:
    args = [lw.expr(a) for a in it.args]
    vt: R.VType = lw.rule(it, lambda: R.range_type([a.vtype for a in args]))
    loc = lw.loc(it)
    if len(args) == 1:
        args = [Val(const(0, vt.type, loc), True), args[0]]
    if len(args) == 2:
        args.append(Val(const(1, vt.type, loc), True))
    # The loop variable is an ordinary local: its type joins the range's with any other
    # assignment to it (it must stay an integer).
    assign = lw.assign_local(var, Val(lw.coerce(args[0], vt.type, it), vt.weak), target)
    var_t = assign.value.type
    if not var_t.is_int:
        lw.fail(target, f"loop variable {var!r} must be an integer, but it is also "
                        f"assigned a {var_t} elsewhere")  # fmt: skip
    nodes = it.args if len(it.args) == 3 else [it.args[0]] * (3 - len(it.args)) + it.args
    return tuple(  # type: ignore[return-value]
        lw.coerce(a, var_t, n) for a, n in zip(args, nodes, strict=True)
    )


def _break(lw: Lowerer, node: ast.Break) -> Stmts:
    if lw.loop_depth == 0:
        lw.fail(node, "'break' outside a loop")
    return [N.Break(loc=lw.loc(node))]


def _continue(lw: Lowerer, node: ast.Continue) -> Stmts:
    if lw.loop_depth == 0:
        lw.fail(node, "'continue' outside a loop")
    return [N.Continue(loc=lw.loc(node))]


def _return(lw: Lowerer, node: ast.Return) -> Stmts:
    loc = lw.loc(node)
    declared = lw.spec.declared_return
    if node.value is None:
        if lw.spec.is_kernel or declared is None:
            return [N.Return(loc=loc)]
        if declared is not INFER:
            lw.fail(node, f"{lw.spec.display_name} must return a value of type {declared}")
        lw.cur.bare_return = True
        return [N.Return(loc=loc)]
    if lw.spec.is_kernel:
        lw.fail(node, W.KERNEL_RETURNS_VALUE)
    if declared is None:
        lw.fail(node, f"{lw.spec.display_name} is declared '-> None' but returns a value")
    value = lw.expr(node.value)
    if isinstance(declared, T.ScalarType):
        return [N.Return(lw.coerce(value, declared, node.value), loc=loc)]
    lw.cur.returns = lw.rule(node, lambda: R.join(
        lw.cur.returns, value.vtype, "the function's return value"))  # fmt: skip
    target = lw.prev.returns if lw.final and lw.prev.returns else lw.cur.returns
    return [N.Return(lw.coerce(value, target.type, node.value), loc=loc)]


def _with(lw: Lowerer, node: ast.With) -> Stmts:
    """``with go.unsafe():``, the one ``with`` a kernel has: its body, with stores (and the
    device-function calls) marked unsafe, so the race analysis does not check them."""
    item = node.items[0] if len(node.items) == 1 else None
    expr = item.context_expr if item is not None else None
    res = static(lw, expr.func) if isinstance(expr, ast.Call) else None
    if item is None or res is None or res.kind != "unsafe":
        raise unsupported(lw.src, node, OTHER_WITH)
    assert isinstance(expr, ast.Call)
    if expr.args or expr.keywords:
        lw.fail(expr, "go.unsafe() takes no arguments")
    if item.optional_vars is not None:
        lw.fail(item.optional_vars, UNSAFE_BINDS_NOTHING)
    lw.unsafe_depth += 1
    try:
        return list(lw.block(node.body))
    finally:
        lw.unsafe_depth -= 1


def _pass(lw: Lowerer, node: ast.Pass) -> Stmts:
    return []


def _expr_stmt(lw: Lowerer, node: ast.Expr) -> Stmts:
    value = node.value
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return []  # a docstring or a string used as a comment
    if not isinstance(value, ast.Call):
        lw.fail(node, W.EXPRESSION_STATEMENT)
    res = static(lw, value.func)
    if res is not None and res.kind == "barrier":
        if value.args or value.keywords:
            lw.fail(value, "go.barrier() takes no arguments")
        if not lw.spec.is_kernel:
            lw.fail(value, "go.barrier() can only be used in a kernel, not in a device "
                           "function")  # fmt: skip
        return [N.Barrier(loc=lw.loc(node))]
    v = call(lw, value, as_stmt=True)
    assert v is not None
    if not isinstance(v.expr, N.Call | N.AtomicRMW):
        lw.fail(node, f"the result of {ast.unparse(value.func)}() is unused: the call has "
                      "no effect")  # fmt: skip
    return [N.ExprStmt(v.expr, loc=lw.loc(node))]
def _cheap(e: N.Expr) -> bool:
    """Pure and trivial: evaluating it twice equals evaluating it once."""
    if isinstance(e, N.Cast):
        return _cheap(e.value)
    return isinstance(e, N.Const | N.Var | N.WorkItem | N.ShapeOf)


TABLE: dict[type[ast.stmt], StmtHandler] = {
    ast.Assign: _assign,
    ast.AugAssign: _augassign,
    ast.AnnAssign: _annassign,
    ast.If: _if,
    ast.While: _while,
    ast.For: _for,
    ast.Break: _break,
    ast.Continue: _continue,
    ast.Return: _return,
    ast.Pass: _pass,
    ast.With: _with,
    ast.Expr: _expr_stmt,
}
"""The supported statement constructs; everything else is rejected by name."""
