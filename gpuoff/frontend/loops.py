"""``for`` loops: over ``range(...)`` (an IR ``ForRange``), and over tuples, unrolled.

A loop over a tuple (``for dx, dy in NEIGHBOURS``, ``for w in (0.25, 0.5, 0.25)``,
``enumerate(t)``, ``zip(t, u)``, ``reversed(t)``) is unrolled at compile time: its body is
lowered once per item, the target assigned that item. A loop over a constant ``range`` whose
body indexes a tuple with the loop variable (``for k in range(len(TAPS)): s += TAPS[k] *
x[i + k]``) is unrolled too, so that the index is a constant in each copy. In an unrolled
body the loop variable (and an integer item of a tuple) is a compile-time constant unless
the body assigns it. ``continue`` runs the next copy: each copy is then a one-trip loop;
``break`` skips the remaining copies through a flag.
"""

from __future__ import annotations

import ast

from gpuoff import subset as W
from gpuoff.frontend import typing_rules as R
from gpuoff.frontend.base import TEMP_PREFIX, Lowerer, StmtHandler, Untyped, assigned_names
from gpuoff.frontend.diagnostics import unsupported
from gpuoff.frontend.exprs import array_of, static, static_value
from gpuoff.frontend.irutil import TupleVal, Val, Value, const
from gpuoff.frontend.stmts import Stmts, assign_pattern, assign_to, nested
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T

MAX_UNROLL = 1024
"""The most copies of a body one unrolled loop may make."""
_ITERATORS = ("enumerate", "zip", "reversed")


def _for(lw: Lowerer, node: ast.For) -> Stmts:
    if node.orelse:
        raise unsupported(lw.src, node.orelse[0], W.FOR_ELSE)
    it = node.iter
    res = static(lw, it.func) if isinstance(it, ast.Call) else None
    if isinstance(it, ast.Call) and res is not None and res.kind == "builtin":
        if res.name == "range":
            return _range_loop(lw, node, it)
        if res.name in _ITERATORS:
            return _unrolled(lw, node, _iterator(lw, it, res.name))
    if array_of(lw, it) is not None:
        raise unsupported(lw.src, it, W.FOR_NOT_RANGE)
    items = lw.value(it)
    if not isinstance(items, TupleVal):
        raise unsupported(lw.src, it, W.FOR_NOT_RANGE)
    return _unrolled(lw, node, list(items.items))


def _iterator(lw: Lowerer, it: ast.Call, name: str) -> list[Value]:
    if it.keywords:
        lw.fail(it, f"{name}() takes positional arguments in kernels")
    tuples: list[TupleVal] = []
    for a in it.args[:1] if name != "zip" else it.args:
        v = None if array_of(lw, a) is not None else lw.value(a)
        if not isinstance(v, TupleVal):
            lw.fail(a, f"{name}() in kernels takes tuples (the loop is unrolled); "
                       f"{ast.unparse(a)!r} is not one")  # fmt: skip
        tuples.append(v)
    if name == "reversed":
        if len(it.args) != 1:
            lw.fail(it, "reversed() takes one tuple")
        return list(reversed(tuples[0].items))
    if name == "enumerate":
        if not 1 <= len(it.args) <= 2:
            lw.fail(it, "enumerate() takes a tuple and an optional constant start")
        start = static_value(lw, it.args[1]) if len(it.args) == 2 else 0
        if isinstance(start, bool) or not isinstance(start, int):
            lw.fail(it.args[1], "enumerate()'s start must be a compile-time constant integer")
        return [TupleVal((_index(lw, start + k, it), v)) for k, v in enumerate(tuples[0].items)]
    if not tuples:
        lw.fail(it, "zip() needs at least one tuple")
    n = min(len(t.items) for t in tuples)
    return [TupleVal(tuple(t.items[k] for t in tuples)) for k in range(n)]


def _index(lw: Lowerer, k: int, node: ast.AST) -> Val:
    return Val(const(k, T.INDEX, lw.loc(node)), True)


# -- unrolling ---------------------------------------------------------------------------------


def _unrolled(lw: Lowerer, node: ast.For, items: list[Value]) -> Stmts:
    if len(items) > MAX_UNROLL:
        lw.fail(node.iter, f"this loop would be unrolled into {len(items)} copies of its body; "
                           f"at most {MAX_UNROLL} (iterate over an array with range(...))")
    target = node.target
    lw.maybe_assigned |= assigned_names(node)
    reassigned = assigned_names(ast.Module(body=node.body, type_ignores=[]))
    exits = _exits(node.body)
    out: Stmts = []
    flag = ""
    if "break" in exits:
        flag = f"{TEMP_PREFIX}{len(lw.temps)}"
        lw.temps[flag] = T.boolean
        out.append(N.Assign(flag, const(False, T.boolean, lw.loc(node)), loc=lw.loc(node)))
    saved = dict(lw.unrolled)
    try:
        for item in items:
            out.extend(_copy(lw, node, target, item, reassigned, exits, flag))
    finally:
        lw.unrolled = saved
    return out


def _copy(lw: Lowerer, node: ast.For, target: ast.expr, item: Value, reassigned: frozenset[str],
          exits: set[str], flag: str) -> Stmts:  # fmt: skip
    """One copy of an unrolled loop's body, its target assigned ``item``."""
    loc = lw.loc(node)
    if isinstance(target, ast.Tuple | ast.List):
        if not isinstance(item, TupleVal):
            lw.fail(target, f"{ast.unparse(target)} unpacks a tuple, but an item of the loop's "
                            "tuple is a number")  # fmt: skip
        assign = assign_pattern(lw, target, item, node)
    else:
        assign = assign_to(lw, target, item)
    _bind_constants(lw, target, item, reassigned)
    lw.unroll_breaks.append((lw.loop_depth + 1, flag))
    try:
        body = nested(lw, node.body, True) if exits else lw.block(node.body)
    finally:
        lw.unroll_breaks.pop()
    copy: Stmts = [*assign, *body]
    if exits:  # a one-trip loop: ``continue`` (and a ``break``'s continue) ends this copy
        var = f"{TEMP_PREFIX}{len(lw.temps)}"
        lw.temps[var] = T.INDEX
        one = (const(0, T.INDEX, loc), const(1, T.INDEX, loc), const(1, T.INDEX, loc))
        copy = [N.ForRange(var, *one, tuple(copy), loc=loc)]
    if flag:
        go_on = N.Unary(T.boolean, "not", N.Var(T.boolean, flag, loc=loc), loc=loc)
        copy = [N.If(go_on, tuple(copy), (), loc=loc)]
    return copy


def _bind_constants(lw: Lowerer, target: ast.expr, item: Value, reassigned: frozenset[str]) -> None:
    """In this copy, a name the target binds to an integer constant is that constant (so it
    can index a tuple), unless the body assigns it."""
    if isinstance(target, ast.Tuple | ast.List) and isinstance(item, TupleVal):
        for t, v in zip(target.elts, item.items, strict=False):
            _bind_constants(lw, t, v, reassigned)
        return
    if not isinstance(target, ast.Name) or target.id in reassigned:
        return
    if isinstance(item, Val) and isinstance(item.expr, N.Const) and item.expr.type.is_int:
        lw.unrolled[target.id] = int(item.expr.value)
    else:
        lw.unrolled.pop(target.id, None)


def _exits(body: list[ast.stmt]) -> set[str]:
    """``break``/``continue`` that leave this loop (not those of nested loops)."""
    out: set[str] = set()
    todo = list(body)
    while todo:
        s = todo.pop()
        if isinstance(s, ast.Break):
            out.add("break")
        elif isinstance(s, ast.Continue):
            out.add("continue")
        elif isinstance(s, ast.If):
            todo += s.body + s.orelse
        elif isinstance(s, ast.While | ast.For):
            todo += s.orelse
    return out


# -- range loops -------------------------------------------------------------------------------


def _range_loop(lw: Lowerer, node: ast.For, it: ast.Call) -> Stmts:
    if it.keywords or not 1 <= len(it.args) <= 3:
        lw.fail(it, "range() takes 1 to 3 positional arguments")
    if not isinstance(node.target, ast.Name):
        lw.fail(node.target, W.FOR_TARGET)
    var = node.target.id
    bounds = [static_value(lw, a) for a in it.args]
    ints = [b for b in bounds if isinstance(b, int) and not isinstance(b, bool)]
    if len(ints) == len(bounds) and (0 not in ints[2:]) and _indexes_tuple(lw, node, var):
        steps = range(*ints)
        if len(steps) > MAX_UNROLL:
            lw.fail(it, f"this loop indexes a tuple with {var!r}, so it is unrolled, into "
                        f"{len(steps)} copies; at most {MAX_UNROLL}")  # fmt: skip
        return _unrolled(lw, node, [_index(lw, k, it) for k in steps])
    lw.maybe_assigned |= assigned_names(node) - {var}
    try:
        header: tuple[N.Expr, N.Expr, N.Expr] | None = _range(lw, var, it, node.target)
    except Untyped:
        if lw.final:
            raise
        header = None
    body = nested(lw, node.body, True)
    if header is None:
        return []
    start, stop, step = header
    return [N.ForRange(var, start, stop, step, body, loc=lw.loc(node))]


def _indexes_tuple(lw: Lowerer, node: ast.For, var: str) -> bool:
    """Whether the body indexes something that is not an array (a tuple) with ``var``."""
    for sub in ast.walk(ast.Module(body=node.body, type_ignores=[])):
        if not isinstance(sub, ast.Subscript):
            continue
        if not any(isinstance(n, ast.Name) and n.id == var for n in ast.walk(sub.slice)):
            continue
        base = sub.value
        if isinstance(base, ast.Attribute) and base.attr == "shape":
            return True
        if isinstance(base, ast.Name) and base.id in lw.arrays:
            continue
        if array_of(lw, base) is None:
            return True
    return False


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


TABLE: dict[type[ast.stmt], StmtHandler] = {
    ast.For: _for,
}
"""The ``for`` statement (the walker adds it to ``stmts.TABLE``)."""
