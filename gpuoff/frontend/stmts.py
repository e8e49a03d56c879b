"""Statement lowering: one handler per ``ast`` statement class (``TABLE``).

An ``ast`` class missing from the table is a construct outside the kernel subset. Assignments,
loops and returns feed the pass's type records (``lw.cur``). Barrier divergence is decided on
the lowered kernel (``frontend.barriers``).
"""

from __future__ import annotations

import ast

from gpuoff import subset as W
from gpuoff.frontend import complexes, matrices, vectors
from gpuoff.frontend import typing_rules as R
from gpuoff.frontend.base import (
    INFER,
    Lowerer,
    RType,
    StmtHandler,
    Untyped,
    assigned_names,
    flat_results,
    join_result,
    out_param,
    out_type,
    result_shape,
    result_text,
)
from gpuoff.frontend.calls import call, shared_decl, writable_array
from gpuoff.frontend.diagnostics import unsupported
from gpuoff.frontend.exprs import (
    BINOPS,
    array_of,
    binop,
    indices,
    load,
    static,
    static_value,
)
from gpuoff.frontend.irutil import (
    Kinded,
    TupleVal,
    Val,
    Value,
    ViewVal,
    const,
    kind_of,
    mentions,
    rebuild,
    truth,
)
from gpuoff.frontend.private import is_private_decl, private_decl, store_type
from gpuoff.frontend.signature import scalar_of
from gpuoff.frontend.views import assign_view, makes_view, view_indices, view_of
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from gpuoff.ownership import borrow_write_message
from gpuoff.subset import OTHER_WITH, UNSAFE_BINDS_NOTHING

Stmts = list[N.Stmt]


def _cond(lw: Lowerer, node: ast.expr) -> N.Expr:
    try:
        return truth(lw.expr(node).expr)
    except Untyped:
        if lw.final:
            raise
        return N.Const(T.boolean, True)


def nested(lw: Lowerer, stmts: list[ast.stmt], loop: bool) -> tuple[N.Stmt, ...]:
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
    if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        view = view_of(lw, value_node)
        if view is not None:  # row = img[y]
            return assign_view(lw, node.targets[0].id, view, node.targets[0])
    if is_private_decl(lw, value_node):
        if len(node.targets) != 1:
            lw.fail(node, "a private array must be assigned to a single variable")
        return private_decl(lw, node.targets[0], value_node)
    targets = node.targets
    if any(isinstance(t, ast.Tuple | ast.List) for t in targets):
        if len(targets) != 1:
            lw.fail(node, "chained assignment with tuple unpacking is not supported")
        return _unpack(lw, targets[0], value_node, node)
    value = lw.value(value_node)
    if len(targets) == 1 and isinstance(value, Val):
        return assign_to(lw, targets[0], value)
    out, held = hold(lw, value, node, targets, once=True)
    for t in targets:
        out.extend(assign_to(lw, t, held))
    return out


def hold(lw: Lowerer, value: Value, node: ast.AST, targets: list[ast.expr],
         once: bool = False) -> tuple[Stmts, Value]:  # fmt: skip
    """``value`` with each item that a target's assignment could change evaluated into a
    temporary first: Python evaluates the whole right side before assigning any target
    (``a, b = b, a``). ``once``: every item that is not a constant or a variable (it is
    assigned to several targets, ``a = b = f(x)``, and evaluated once)."""
    names = {t.id for tg in targets for t in ast.walk(tg) if isinstance(t, ast.Name)}
    stores = any(isinstance(t, ast.Subscript) for tg in targets for t in ast.walk(tg))

    def changes(e: N.Node) -> bool:
        if isinstance(e, N.Var):
            return e.name.split(".")[0] in names
        return stores and isinstance(e, N.Load | N.Call | N.AtomicRMW)

    out: Stmts = []
    leaves: list[Val] = []
    for v in value.leaves() if isinstance(value, TupleVal) else [value]:
        if isinstance(v.expr, N.Const) or not (
            mentions(v.expr, changes) or (once and not isinstance(v.expr, N.Var))
        ):
            leaves.append(v)
            continue
        tmp_assign, tmp = lw.new_temp(v.expr, node)
        out.append(tmp_assign)
        leaves.append(Val(tmp, v.weak))
    if isinstance(value, TupleVal):
        return out, rebuild(value.shape, leaves)
    return out, leaves[0]


def _unpack(lw: Lowerer, target: ast.expr, value_node: ast.expr, node: ast.AST) -> Stmts:
    assert isinstance(target, ast.Tuple | ast.List)
    names = len(target.elts)
    value = lw.value(value_node)
    if isinstance(value_node, ast.Attribute) and value_node.attr == "shape":
        array = array_of(lw, value_node.value)
        if array is not None and array.type.ndim != names:  # rows, cols = x.shape
            lw.fail(node, f"{array.name!r} has {array.type.ndim} dimension(s); cannot unpack "
                          f"its shape into {names} names")  # fmt: skip
    if not isinstance(value, TupleVal):
        res = static(lw, value_node.func) if isinstance(value_node, ast.Call) else None
        if res is not None and res.kind == "device":
            lw.fail(value_node, f"device function {res.name!r} returns a single value, which "
                                f"cannot be unpacked into {names} names; a device function "
                                "returns several values as a tuple: return a, b")  # fmt: skip
        lw.fail(value_node, f"{ast.unparse(value_node)!r} is a single value, which cannot be "
                            f"unpacked into {names} names; tuple unpacking needs a tuple on "
                            "the right (a, b = b, a)")  # fmt: skip
    out, held = hold(lw, value, node, [target])
    assert isinstance(held, TupleVal)
    return out + assign_pattern(lw, target, held, node)


def assign_pattern(lw: Lowerer, target: ast.Tuple | ast.List, value: TupleVal,
                    node: ast.AST) -> Stmts:  # fmt: skip
    """``a, (b, c), *rest = value`` (Python's rules: one starred name takes the rest)."""
    starred = [k for k, t in enumerate(target.elts) if isinstance(t, ast.Starred)]
    items = list(value.items)
    n = len(target.elts)
    if len(starred) > 1:
        lw.fail(target, "multiple starred expressions in assignment")
    if starred:
        k = starred[0]
        if len(items) < n - 1:
            lw.fail(node, f"not enough values to unpack: {len(items)} values for at least "
                          f"{n - 1} names")  # fmt: skip
        rest = TupleVal(tuple(items[k : len(items) - (n - 1 - k)]))
        items = items[:k] + [rest] + items[len(items) - (n - 1 - k):]
    elif len(items) != n:
        lw.fail(node, "tuple unpacking needs a tuple of as many values on the right: "
                      f"{len(items)} values for {n} names")  # fmt: skip
    out: Stmts = []
    for t, v in zip(target.elts, items, strict=True):
        if isinstance(t, ast.Starred):
            t = t.value
        if isinstance(t, ast.Tuple | ast.List):
            if not isinstance(v, TupleVal):
                lw.fail(t, f"{ast.unparse(t)} unpacks a tuple, but that item is a number")
            out.extend(assign_pattern(lw, t, v, node))
        else:
            out.extend(assign_to(lw, t, v))
    return out


def assign_to(lw: Lowerer, target: ast.expr, value: Value) -> Stmts:
    """``target = value`` for a name or an array element."""
    if isinstance(target, ast.Name):
        return lw.assign_value(target.id, value, target)
    if isinstance(target, ast.Subscript):
        pairs = array_of(lw, target.value)
        if pairs is not None and pairs.type.pairs:
            return complexes.store(lw, target, pairs, value)
        if pairs is not None and matrices.is_mat(value):  # a[i] = m: a's last two axes
            if not pairs.type.access.writes:
                lw.fail(target, borrow_write_message(pairs.name))
            return matrices.store(lw, target, pairs, value)
        if pairs is not None and vectors.is_vec(value):  # a[i] = v: a row of a
            if not pairs.type.access.writes:
                lw.fail(target, borrow_write_message(pairs.name))
            return vectors.store(lw, target, pairs, value)
        if makes_view(lw, target) and any(isinstance(e, ast.Slice) for e in _elts(target)):
            lw.fail(target, "assigning to a view (x[a:b] = ...) is not supported in kernels; "
                            "assign its elements in a loop")  # fmt: skip
        view = _writable_view(lw, target.value)
        if view is not None:
            if isinstance(value, TupleVal):
                lw.fail(target, "an element holds one number; a tuple cannot be stored in it")
            idx = view_indices(lw, target, view)
            return [_store(lw, target, view.base, idx, value)]
        array = writable_array(lw, target.value, "assignment to an element")
        if complexes.is_complex(value):
            lw.fail(target, f"{array.name!r} holds real numbers; take .real, .imag or abs() of "
                            "the complex number to store (NumPy would drop the imaginary "
                            "part with a ComplexWarning)")  # fmt: skip
        if isinstance(value, TupleVal):
            lw.fail(target, f"an element of {array.name!r} holds one number; a tuple of "
                            f"{len(value.items)} values cannot be stored in it")  # fmt: skip
        idx = indices(lw, target, array)
        return [_store(lw, target, array, idx, value)]
    if isinstance(target, ast.Attribute):
        lw.fail(target, W.ATTRIBUTE_ASSIGNMENT)
    raise unsupported(lw.src, target)


def _elts(node: ast.Subscript) -> list[ast.expr]:
    return list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]


def _writable_view(lw: Lowerer, node: ast.expr) -> ViewVal | None:
    """The view ``node`` denotes, which must allow writes (its base is not a ``Borrow``)."""
    view = view_of(lw, node)
    if view is not None and not view.base.type.access.writes:
        lw.fail(node, borrow_write_message(view.base.name))
    return view


def _store(
    lw: Lowerer, target: ast.Subscript, array: N.ArrayRef, idx: tuple[N.Expr, ...], value: Val
) -> N.Store:
    store_type(lw, array, value, target)
    v = lw.coerce(value, array.type.dtype, target)
    check = lw.add_check(target, array)
    return N.Store(array, idx, v, check, loc=lw.loc(target), unsafe=lw.unsafe_depth > 0)


def _augassign(lw: Lowerer, node: ast.AugAssign) -> Stmts:
    op = BINOPS.get(type(node.op))
    target = node.target
    if op is None and isinstance(target, ast.Name) and kind_of(
        lw.tuple_shape(target.id)
    ) == matrices.KIND:  # m @= n
        product = matrices.matmul(lw, lw.read_tuple(target.id, target), lw.value(node.value),
                                  node)  # fmt: skip
        first, held = hold(lw, product, node, [target])  # (each element reads the old m)
        return first + lw.assign_value(target.id, held, target)
    if op is None:
        raise unsupported(lw.src, node, "the matrix multiplication operator @= (but on a "
                                        "matrix local)")  # fmt: skip
    if isinstance(target, ast.Name):
        if target.id in lw.arrays:
            lw.fail(target, f"cannot assign to {target.id!r}: it is an array")
        if kind_of(lw.tuple_shape(target.id)) == complexes.KIND:  # z *= w
            current_z = lw.read_tuple(target.id, target)
            new_z = complexes.binop(lw, op, current_z, lw.value(node.value), node)
            return lw.assign_value(target.id, new_z, target)
        if kind_of(lw.tuple_shape(target.id)) == matrices.KIND:  # m += n, m *= 2.0
            current_m = lw.read_tuple(target.id, target)
            new_m = matrices.binop(lw, op, current_m, lw.value(node.value), node)
            return lw.assign_value(target.id, new_m, target)
        if kind_of(lw.tuple_shape(target.id)) == vectors.KIND:  # v += w
            current_v = lw.read_tuple(target.id, target)
            new_v = vectors.binop(lw, op, current_v, lw.value(node.value), node)
            return lw.assign_value(target.id, new_v, target)
        if lw.tuple_shape(target.id) is not None:
            lw.fail(node, f"{target.id!r} holds a tuple, whose length is fixed in kernels; "
                          f"{ast.unparse(node).strip()} would change it")  # fmt: skip
        current = lw.read_local(target.id, target)
        new = binop(lw, op, current, lw.expr(node.value), node)
        return [lw.assign_local(target.id, new, target)]
    if not isinstance(target, ast.Subscript):
        lw.fail(target, W.AUGMENTED_ATTRIBUTE)
    pairs = array_of(lw, target.value)
    if pairs is not None and matrices.is_block(pairs, target):  # a[i] += m
        return _augassign_block(lw, node, target, pairs, op)
    if pairs is not None and vectors.is_row(pairs, target):  # a[i] += v: a row of a
        rhs = lw.value(node.value)
        if not vectors.is_vec(rhs):
            lw.fail(node.value, f"{ast.unparse(target)} is a row of {pairs.name!r}; add a "
                                "vector to it (go.vec3(...))")  # fmt: skip
        row_idx = vectors.row_index(lw, target, pairs, target.slice, len(rhs.items))
        row = vectors.load_at(lw, target, pairs, row_idx, len(rhs.items))
        new_row = vectors.binop(lw, op, row, rhs, node)
        return vectors.store_at(lw, target, pairs, row_idx, new_row)
    if pairs is not None and pairs.type.pairs:  # a[i] += z: the index is evaluated once
        z = complexes.load(lw, target, pairs)
        new_z = complexes.binop(lw, op, z, lw.value(node.value), node)
        return complexes.store(lw, target, pairs, new_z)
    view = _writable_view(lw, target.value)
    if view is not None:
        array, base_idx = view.base, view_indices(lw, target, view)
    else:
        array = writable_array(lw, target.value, "augmented assignment to an element")
        base_idx = indices(lw, target, array)
    out: Stmts = []
    idx: list[N.Expr] = []
    # The index is evaluated once: anything beyond a name or a constant goes to a temp.
    for e in base_idx:
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


def _augassign_block(lw: Lowerer, node: ast.AugAssign, target: ast.Subscript,
                     array: N.ArrayRef, op: str) -> Stmts:  # fmt: skip
    """``a[i] += m``: the matrix ``a[i]`` (its index evaluated once) updated element-wise."""
    rhs = lw.value(node.value)
    if not matrices.is_mat(rhs):
        lw.fail(node.value, f"{ast.unparse(target)} is a matrix of {array.name!r}; update it "
                            "with a matrix (go.mat33(...))")  # fmt: skip
    if not array.type.access.writes:
        lw.fail(target, borrow_write_message(array.name))
    rows = matrices.rows_of(rhs)
    shape = (len(rows), len(rows[0]))
    idx = matrices.block_index(lw, target, array, target.slice, shape)
    new = matrices.binop(lw, op, matrices.load_at(lw, target, array, idx, shape), rhs, node)
    return matrices.store_at(lw, target, array, idx, new)


def _annassign(lw: Lowerer, node: ast.AnnAssign) -> Stmts:
    if not isinstance(node.target, ast.Name):
        lw.fail(node.target, "annotated assignment only declares local variables")
    name = node.target.id
    ann = static(lw, node.annotation)
    mcls = matrices.matrix_class(ann.value) if ann is not None else None
    if mcls is not None:  # m: go.mat33 = ...
        if node.value is None:
            lw.fail(node, f"a matrix local is declared by assigning it: {name}: "
                          f"go.{mcls.__name__} = go.{mcls.__name__}()")  # fmt: skip
        value = matrices.coerce_to(lw, lw.value(node.value), mcls, node.value)
        return lw.assign_value(name, value, node.target)
    cls = vectors.vector_class(ann.value) if ann is not None else None
    if cls is not None:  # v: go.vec3 = ...
        if node.value is None:
            lw.fail(node, f"a vector local is declared by assigning it: {name}: "
                          f"go.{cls.__name__} = go.{cls.__name__}(0.0)")  # fmt: skip
        value = vectors.coerce_to(lw, lw.value(node.value), cls, node.value)
        return lw.assign_value(name, value, node.target)
    t = scalar_of(static_value(lw, node.annotation))
    if t is None:
        lw.fail(node.annotation, "a local variable's annotation must be a scalar type "
                                 "(go.f32, go.i32, float, int, bool, ...)")  # fmt: skip
    cls = vectors.vector_class(static_value(lw, node.annotation))
    if cls is not None:  # v: go.vec3 = ...
        if node.value is None:
            lw.fail(node, f"a vector local is declared by assigning it: {name}: "
                          f"go.{cls.__name__} = go.{cls.__name__}(0.0)")  # fmt: skip
        return lw.assign_value(name, vectors.coerce_to(lw, lw.value(node.value), cls,
                                                       node.value), node.target)  # fmt: skip
    if t.is_complex:  # z: go.complex64 = ...: a complex local of that type from here
        if node.value is None:
            lw.fail(node, f"a complex local is declared by assigning it: {name}: {t.name} = 0j")
        value = complexes.coerce_to(lw, lw.value(node.value), t, node.value)
        return lw.assign_value(name, value, node.target)
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
    body = nested(lw, node.body, False)
    after_body, lw.maybe_assigned = lw.maybe_assigned, before
    orelse = nested(lw, node.orelse, False)
    lw.maybe_assigned |= after_body
    return [N.If(cond, body, orelse, loc=lw.loc(node))]


def _while(lw: Lowerer, node: ast.While) -> Stmts:
    if node.orelse:
        raise unsupported(lw.src, node.orelse[0], W.WHILE_ELSE)
    lw.maybe_assigned |= assigned_names(node)
    # (the condition is evaluated before every trip: nothing can be hoisted out of it)
    ban, lw.hoist_ban = lw.hoist_ban, "a while loop's condition"
    try:
        cond = _cond(lw, node.test)
    finally:
        lw.hoist_ban = ban
    body = nested(lw, node.body, True)
    return [N.While(cond, body, loc=lw.loc(node))]


def _break(lw: Lowerer, node: ast.Break) -> Stmts:
    if lw.loop_depth == 0:
        lw.fail(node, "'break' outside a loop")
    return _unrolled_exit(lw, node) or [N.Break(loc=lw.loc(node))]


def _continue(lw: Lowerer, node: ast.Continue) -> Stmts:
    if lw.loop_depth == 0:
        lw.fail(node, "'continue' outside a loop")
    return _unrolled_exit(lw, node) or [N.Continue(loc=lw.loc(node))]


def _unrolled_exit(lw: Lowerer, node: ast.Break | ast.Continue) -> Stmts | None:
    """``break``/``continue`` of an unrolled loop (``loops``: each copy of its body is a
    one-trip loop, and ``break`` sets a flag that skips the remaining copies); None for a real
    loop's."""
    if not lw.unroll_breaks or lw.unroll_breaks[-1][0] != lw.loop_depth:
        return None
    loc = lw.loc(node)
    if isinstance(node, ast.Break):
        flag = lw.unroll_breaks[-1][1]
        return [N.Assign(flag, const(True, T.boolean, loc), loc=loc), N.Continue(loc=loc)]
    return [N.Continue(loc=loc)]


def _return(lw: Lowerer, node: ast.Return) -> Stmts:
    loc = lw.loc(node)
    declared = lw.spec.declared_return
    if node.value is None:
        if lw.spec.is_kernel or declared is None:
            return [N.Return(loc=loc)]
        if declared is not INFER:
            lw.fail(node, f"{lw.spec.display_name} must return a value of type "
                          f"{result_text(declared)}")  # fmt: skip
        lw.cur.bare_return = True
        return [N.Return(loc=loc)]
    if lw.spec.is_kernel:
        lw.fail(node, W.KERNEL_RETURNS_VALUE)
    if declared is None:
        lw.fail(node, f"{lw.spec.display_name} is declared '-> None' but returns a value")
    value = lw.value(node.value)
    if isinstance(declared, T.ScalarType):
        if isinstance(value, TupleVal):
            lw.fail(node.value, f"{lw.spec.display_name} is declared '-> {declared}' but "
                                f"returns a tuple of {len(value.items)} values")  # fmt: skip
        return [N.Return(lw.coerce(value, declared, node.value), loc=loc)]
    if isinstance(declared, tuple):
        if kind_of(declared) == complexes.KIND:  # -> go.complex64: a real converts
            value = complexes.coerce_to(lw, value, complexes.complex_type(
                flat_results(declared)[0].type), node.value)  # fmt: skip
        if not isinstance(value, TupleVal) or value.shape != result_shape(declared):
            lw.fail(node.value, f"{lw.spec.display_name} is declared to return "
                                f"{result_text(declared)}, but returns "
                                f"{result_text(_result_type(value))}")  # fmt: skip
        return _return_tuple(lw, node, value, flat_results(declared))
    rt = _result_type(value)
    lw.cur.returns = lw.rule(node, lambda: join_result(
        lw.cur.returns, rt, "the function's return value"))  # fmt: skip
    target = lw.prev.returns if lw.final and lw.prev.returns else lw.cur.returns
    if isinstance(target, tuple):
        assert isinstance(value, TupleVal)
        return _return_tuple(lw, node, value, flat_results(target))
    assert isinstance(target, R.VType) and isinstance(value, Val)
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


def _result_type(value: Value) -> RType:
    if isinstance(value, Val):
        return value.vtype
    items = tuple(_result_type(v) for v in value.items)
    return Kinded(items, value.kind) if value.kind else items


def _return_tuple(lw: Lowerer, node: ast.Return, value: TupleVal,
                  types: list[R.VType]) -> Stmts:  # fmt: skip
    """``return a, b`` in a device function: each item into its out-array (the function's
    last parameters, ``function.lower_function``), then return."""
    loc = lw.loc(node)
    if not lw.final:
        return [N.Return(loc=loc)]  # the result's types settle only by the final pass
    out: Stmts = []
    zero = (const(0, T.INDEX, loc),)
    for k, (leaf, vt) in enumerate(zip(value.leaves(), types, strict=True)):
        ref = N.ArrayRef(out_param(k), out_type(vt.type), loc=loc)
        out.append(N.Store(ref, zero, lw.coerce(leaf, vt.type, node), None, loc=loc))
    out.append(N.Return(loc=loc))
    return out


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
        return [N.Barrier(loc=lw.loc(node))]
    v = call(lw, value, as_stmt=True)
    if isinstance(v, TupleVal):  # a device function's (hoisted) or a row's atomics
        loc = lw.loc(node)
        return [N.ExprStmt(x.expr, loc=loc) for x in v.leaves()
                if isinstance(x.expr, N.AtomicRMW)]
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
    ast.Break: _break,
    ast.Continue: _continue,
    ast.Return: _return,
    ast.Pass: _pass,
    ast.With: _with,
    ast.Expr: _expr_stmt,
}
"""The supported statement constructs; everything else is rejected by name."""
