"""Tuples as values: the constructs that may give a tuple (``TABLE``, the walker's ``VALUES``).

Tuples never reach the IR. A tuple is a ``TupleVal`` of scalar ``Val``s (nested tuples
allowed) while a statement is lowered; a local holding one is one IR local per scalar item
(``Lowerer.assign_value``); a device function takes one scalar parameter per item and returns
one through private out-arrays (``calls``); a captured tuple or list of numbers is a tuple of
constants. What Python does with tuples, kernels do: ``(a, b)``, ``t[k]`` and ``t[a:b]`` with
constant ``k``, ``a``, ``b``, ``t + u`` (concatenation), ``t * 3`` (repetition), ``len(t)``,
``x in t``, ``==``/``!=`` (every item equal) and ``<``/``<=``/``>``/``>=`` (lexicographic),
unpacking (``a, (b, c), *rest = t``), ``for v in t`` (unrolled: ``stmts``). Arithmetic is not
element-wise (``t + u`` concatenates, as in Python), and a tuple compared with a number is an
error (Python would say ``False``).
"""

from __future__ import annotations

import ast

import numpy as np

from gpuoff import lang_mat, lang_vec
from gpuoff import subset as W
from gpuoff.frontend import complexes, exprs, matrices, vectors, views
from gpuoff.frontend.base import Lowerer, ValueHandler
from gpuoff.frontend.diagnostics import unsupported
from gpuoff.frontend.exprs import (
    CMPOPS,
    array_of,
    compare_pair,
    constant,
    shape_of,
    static,
    static_value,
    user_ndim,
)
from gpuoff.frontend.irutil import TupleVal, Val, Value, has_effects, rebuild, truth
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T

CONSTANT_INDEX = (
    "a tuple is indexed with a compile-time constant: a literal, a captured constant, or the "
    "variable of a for loop over a tuple or a constant range(...), which is then unrolled"
)
MAX_CONSTANT_ITEMS = 4096
"""The most items a captured tuple or list may have (each item becomes a constant)."""


def constant_tuple(lw: Lowerer, value: tuple[object, ...] | list[object],
                   node: ast.AST) -> TupleVal:  # fmt: skip
    """A captured tuple or list of numbers (or of such tuples) as a tuple of constants."""
    if len(value) > MAX_CONSTANT_ITEMS:
        lw.fail(node, f"{ast.unparse(node)!r} has {len(value)} items; kernels take captured "
                      f"tuples and lists of at most {MAX_CONSTANT_ITEMS} (pass a larger one "
                      "as an array)")  # fmt: skip
    items: list[Value] = []
    for v in value:
        if isinstance(v, tuple | list):
            items.append(constant_tuple(lw, v, node))
        elif isinstance(v, np.ndarray) or not isinstance(
            v, bool | int | float | np.bool_ | np.integer | np.floating
        ):
            lw.fail(node, f"{ast.unparse(node)!r} holds {type(v).__name__!r} items; a captured "
                          "tuple or list in a kernel holds numbers (or tuples of them)")
        else:
            items.append(constant(lw, v, node))
    return TupleVal(tuple(items))


def _tuple(lw: Lowerer, node: ast.Tuple) -> Value:
    items: list[Value] = []
    for e in node.elts:
        if isinstance(e, ast.Starred):
            inner = lw.value(e.value)
            if not isinstance(inner, TupleVal):
                lw.fail(e, f"*{ast.unparse(e.value)} needs a tuple")
            items.extend(inner.items)
        else:
            items.append(lw.value(e))
    return TupleVal(tuple(items))


def _static_tuple(lw: Lowerer, node: ast.expr) -> TupleVal | None:
    res = static(lw, node)
    if res is not None and isinstance(res.value, tuple | list):
        return constant_tuple(lw, res.value, node)
    if res is not None and isinstance(res.value, lang_vec.Vector):  # a captured go.vec3(...)
        return vectors.constant(lw, res.value, node)
    if res is not None and isinstance(res.value, lang_mat.Matrix):  # a captured go.mat33(...)
        return matrices.constant(lw, res.value, node)
    return None


def _name(lw: Lowerer, node: ast.Name) -> Value:
    name = node.id
    if lw.view(name) is not None:
        lw.fail(node, views.view_text(lw, node))
    if lw.is_local(name) and lw.tuple_shape(name) is not None:
        return lw.read_tuple(name, node)
    if not lw.is_local(name) and name not in lw.arrays and name not in lw.scalars:
        found = _static_tuple(lw, node)
        if found is not None:
            return found
    return exprs.TABLE[ast.Name](lw, node)


COMPLEX_ATTRIBUTES = ("real", "imag")


def _attribute(lw: Lowerer, node: ast.Attribute) -> Value:
    if node.attr in COMPLEX_ATTRIBUTES and _is_value(lw, node.value):
        return complexes.attribute(lw, lw.value(node.value), node.attr, node)
    if node.attr in vectors.COMPONENTS and _is_value(lw, node.value):
        return vectors.attribute(lw, lw.value(node.value), node.attr, node)
    view = views.view_of(lw, node.value) if node.attr in ("shape", "ndim") else None
    if view is not None:
        lengths = [views.view_shape(lw, view, d, node) for d in range(len(view.windows))]
        if node.attr == "ndim":
            return constant(lw, len(lengths), node)
        return TupleVal(tuple(lengths))
    array = array_of(lw, node.value)
    if array is not None and node.attr == "shape":
        return TupleVal(tuple(shape_of(lw, array, d, node) for d in range(user_ndim(array))))
    if array is None:
        found = _static_tuple(lw, node)
        if found is not None:
            return found
    return exprs.TABLE[ast.Attribute](lw, node)


def _is_value(lw: Lowerer, node: ast.expr) -> bool:
    """Whether ``node`` is a number computed in the kernel (not an array, a view, or a
    name resolved at compile time: ``np.real``, ``cfg.x``)."""
    if array_of(lw, node) is not None or views.view_of(lw, node) is not None:
        return False
    return not isinstance(node, ast.Name | ast.Attribute) or static(lw, node) is None


def _is_array_access(lw: Lowerer, base: ast.expr) -> bool:
    if isinstance(base, ast.Attribute) and base.attr == "shape":
        return array_of(lw, base.value) is not None
    return array_of(lw, base) is not None


def _subscript(lw: Lowerer, node: ast.Subscript) -> Value:
    base = node.value
    elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    pairs = array_of(lw, base)
    if pairs is not None and pairs.type.pairs:
        if any(isinstance(e, ast.Slice) for e in elts):
            lw.fail(node, f"{pairs.name!r} holds complex numbers; kernels take no views of it")
        return complexes.load(lw, node, pairs)
    if any(isinstance(e, ast.Slice) for e in elts) and views.makes_view(lw, node):
        lw.fail(node, views.view_text(lw, node))  # (x[i] of a 2-d x: the launch refuses it)
    view = views.view_of(lw, base) if not _is_array_access(lw, base) else None
    if view is not None:
        return exprs.load(lw, node, view.base, views.view_indices(lw, node, view))
    if _is_array_access(lw, base):
        return exprs.TABLE[ast.Subscript](lw, node)
    res = static(lw, base) if isinstance(base, ast.Name | ast.Attribute) else None
    if res is not None and not isinstance(res.value, tuple | list):
        lw.fail(node, W.index_not_array_message(ast.unparse(base)))  # a captured ndarray
    v = lw.value(base)
    if complexes.is_complex(v):
        lw.fail(node, "a complex number is not indexable: take z.real and z.imag")
    if not isinstance(v, TupleVal):
        lw.fail(node, f"indexing is only supported on arrays and tuples "
                      f"({ast.unparse(base)!r} is neither)")  # fmt: skip
    if matrices.is_mat(v) and isinstance(node.slice, ast.Tuple):  # m[i, j]
        i, j = matrices.element_index(lw, node.slice, node)
        row = index_tuple(lw, v, i, node)
        assert isinstance(row, TupleVal)
        return index_tuple(lw, row, j, node)
    return index_tuple(lw, v, node.slice, node)


def index_tuple(lw: Lowerer, v: TupleVal, index: ast.expr, node: ast.AST) -> Value:
    """``v[index]`` with a constant index or slice."""
    n = len(v.items)
    if isinstance(index, ast.Slice):
        parts = [None if p is None else static_value(lw, p) for p in
                 (index.lower, index.upper, index.step)]  # fmt: skip
        if any(p is not None and (isinstance(p, bool) or not isinstance(p, int)) for p in parts):
            lw.fail(index, f"a tuple's slice bounds must be constants: {CONSTANT_INDEX}")
        if parts[2] == 0:
            lw.fail(index, "slice step cannot be zero")
        lo, hi, step = (p if isinstance(p, int) else None for p in parts)
        return TupleVal(v.items[lo:hi:step])
    k = static_value(lw, index)
    if isinstance(k, bool) or not isinstance(k, int):
        lw.fail(index, CONSTANT_INDEX)
    if not -n <= k < n:
        lw.fail(index, f"tuple index {k} is out of range for a tuple of {n} values")
    return v.items[k]


def _binop(lw: Lowerer, node: ast.BinOp) -> Value:
    # Only the operands that can be tuples are lowered here; numbers go to ``exprs`` as they
    # are (lowering an operand twice would register its bounds checks twice).
    if not (_maybe_tuple(node.left) or _maybe_tuple(node.right)):
        return exprs.TABLE[ast.BinOp](lw, node)
    op = exprs.BINOPS.get(type(node.op))
    if op is None and not isinstance(node.op, ast.MatMult):
        raise unsupported(lw.src, node, f"the operator {type(node.op).__name__}")
    left, right = lw.value(node.left), lw.value(node.right)
    if op is None:  # m @ n, m @ v, v @ m
        return matrices.matmul(lw, left, right, node)
    if isinstance(left, Val) and isinstance(right, Val):
        return exprs.binop(lw, op, left, right, node)
    if matrices.is_mat(left) or matrices.is_mat(right):
        return matrices.binop(lw, op, left, right, node)
    if vectors.is_vec(left) or vectors.is_vec(right):
        return vectors.binop(lw, op, left, right, node)
    if complexes.is_complex(left) or complexes.is_complex(right):
        return complexes.binop(lw, op, left, right, node)
    if isinstance(node.op, ast.Add) and isinstance(left, TupleVal) and isinstance(right, TupleVal):
        return TupleVal(left.items + right.items)
    if isinstance(node.op, ast.Mult):
        count_node = node.right if isinstance(left, TupleVal) else node.left
        tup = left if isinstance(left, TupleVal) else right
        k = static_value(lw, count_node)
        if isinstance(tup, TupleVal) and isinstance(k, int) and not isinstance(k, bool):
            return TupleVal(tup.items * max(k, 0))
        lw.fail(count_node, "a tuple is repeated by a compile-time constant count (t * 3)")
    lw.fail(node, "arithmetic on tuples is not element-wise (in Python t + u concatenates "
                  "and t * 3 repeats); compute each item: (a[0] + b[0], a[1] + b[1])")


def _maybe_tuple(node: ast.expr) -> bool:
    """Whether lowering ``node`` could give a tuple (names, calls, literals, indexing)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, complex)  # 2j: a complex number
    return isinstance(node, ast.Tuple | ast.Name | ast.Attribute | ast.Call | ast.Subscript
                      | ast.BinOp | ast.IfExp | ast.UnaryOp)  # fmt: skip


def _constant(lw: Lowerer, node: ast.Constant) -> Value:
    if isinstance(node.value, complex):  # a Python complex: weak, as a Python float is
        loc = lw.loc(node)
        z = node.value
        return complexes.of_parts(Val(N.Const(T.f64, z.real, loc=loc), True),
                                  Val(N.Const(T.f64, z.imag, loc=loc), True))  # fmt: skip
    return exprs.TABLE[ast.Constant](lw, node)


def _unaryop(lw: Lowerer, node: ast.UnaryOp) -> Value:
    if isinstance(node.op, ast.Not) or not _maybe_tuple(node.operand) or (
        isinstance(node.operand, ast.Constant) and not isinstance(node.operand.value, complex)
    ):
        return exprs.TABLE[ast.UnaryOp](lw, node)
    v = lw.value(node.operand)
    if complexes.is_complex(v):
        op = {ast.USub: "neg", ast.UAdd: "pos", ast.Invert: "invert"}[type(node.op)]
        return complexes.negate(lw, v, node, op)
    if matrices.is_mat(v):
        return matrices.negate(lw, v, node)
    if vectors.is_vec(v):
        return vectors.negate(lw, v, node)
    if isinstance(v, TupleVal):
        lw.fail(node, "arithmetic on tuples is not element-wise; negate each item")
    return exprs.unary_value(lw, node, v)


# -- comparisons -------------------------------------------------------------------------------


def _compare(lw: Lowerer, node: ast.Compare) -> Value:
    ops = node.ops
    for cmp in ops:
        if type(cmp) not in CMPOPS and not isinstance(cmp, ast.In | ast.NotIn):
            raise unsupported(lw.src, node, W.comparison_name(exprs.cmp_name(cmp)))
    operands = [lw.value(node.left)] + [lw.value(c) for c in node.comparators]
    if any(has_effects(x.expr) for v in operands[1:-1] for x in _leaves(v)):
        lw.fail(node, "a chained comparison whose middle operand calls a function is not "
                      "supported; assign it to a variable first")  # fmt: skip
    result: N.Expr | None = None
    for k, cmp in enumerate(ops):
        c = _one_compare(lw, node, cmp, operands[k], operands[k + 1])
        result = c if result is None else N.Logical(T.boolean, "and", result, c,
                                                    loc=lw.loc(node))  # fmt: skip
    assert result is not None
    return Val(result)


def _leaves(v: Value) -> list[Val]:
    return v.leaves() if isinstance(v, TupleVal) else [v]


def _one_compare(lw: Lowerer, node: ast.Compare, cmp: ast.cmpop, lhs: Value,
                 rhs: Value) -> N.Expr:  # fmt: skip
    loc = lw.loc(node)
    if isinstance(cmp, ast.In | ast.NotIn):
        if not isinstance(rhs, TupleVal):
            lw.fail(node, "'in' in kernels tests membership in a tuple: x in (1, 2, 3)")
        _pure(lw, lhs, node)
        found: N.Expr = N.Const(T.boolean, False, loc=loc)
        for item in rhs.items:
            eq = equal(lw, node, lhs, item)
            found = eq if isinstance(found, N.Const) else N.Logical(T.boolean, "or", found,
                                                                    eq, loc=loc)  # fmt: skip
        if isinstance(cmp, ast.NotIn):
            return N.Unary(T.boolean, "not", found, loc=loc)
        return found
    op = CMPOPS[type(cmp)]
    if isinstance(lhs, Val) and isinstance(rhs, Val):
        return compare_pair(lw, node, op, lhs, rhs)
    if complexes.is_complex(lhs) or complexes.is_complex(rhs):
        for side in (lhs, rhs):
            _pure(lw, side, node)
        return complexes.equal(lw, node, op, lhs, rhs)
    if not (isinstance(lhs, TupleVal) and isinstance(rhs, TupleVal)):
        lw.fail(node, "a tuple compared with a number: compare a tuple with a tuple, or "
                      "an item (t[0]) with a number")  # fmt: skip
    for side in (lhs, rhs):
        _pure(lw, side, node)
    if op in ("eq", "ne"):
        eq = equal(lw, node, lhs, rhs)
        return eq if op == "eq" else N.Unary(T.boolean, "not", eq, loc=loc)
    return _lexicographic(lw, node, op, list(lhs.items), list(rhs.items))


def equal(lw: Lowerer, node: ast.AST, a: Value, b: Value) -> N.Expr:
    """``a == b`` with Python's meaning for tuples: the same length and every item equal."""
    loc = lw.loc(node)
    if isinstance(a, Val) and isinstance(b, Val):
        return compare_pair(lw, node, "eq", a, b)
    if isinstance(a, Val) or isinstance(b, Val):
        lw.fail(node, "a tuple compared with a number")
    assert isinstance(a, TupleVal) and isinstance(b, TupleVal)
    if len(a.items) != len(b.items):
        return N.Const(T.boolean, False, loc=loc)
    out: N.Expr = N.Const(T.boolean, True, loc=loc)
    for x, y in zip(a.items, b.items, strict=True):
        eq = equal(lw, node, x, y)
        out = eq if isinstance(out, N.Const) else N.Logical(T.boolean, "and", out, eq, loc=loc)
    return out


def _lexicographic(lw: Lowerer, node: ast.AST, op: str, a: list[Value],
                   b: list[Value]) -> N.Expr:  # fmt: skip
    """Python's order of tuples: the first unequal items decide, else the lengths."""
    loc = lw.loc(node)
    if not a or not b:
        la, lb = len(a), len(b)
        value = {"lt": la < lb, "le": la <= lb, "gt": la > lb, "ge": la >= lb}[op]
        return N.Const(T.boolean, value, loc=loc)
    x, y = a[0], b[0]
    strict = {"lt": "lt", "le": "lt", "gt": "gt", "ge": "gt"}[op]
    if isinstance(x, TupleVal) or isinstance(y, TupleVal):
        if not (isinstance(x, TupleVal) and isinstance(y, TupleVal)):
            lw.fail(node, "a tuple compared with a number")
        first = _lexicographic(lw, node, strict, list(x.items), list(y.items))
    else:
        first = compare_pair(lw, node, strict, x, y)
    same = equal(lw, node, x, y)
    rest = _lexicographic(lw, node, op, a[1:], b[1:])
    tail = N.Logical(T.boolean, "and", same, rest, loc=loc)
    return N.Logical(T.boolean, "or", first, tail, loc=loc)


def _pure(lw: Lowerer, v: Value, node: ast.AST) -> None:
    """Items compared more than once must not call anything (each is evaluated again)."""
    if any(has_effects(x.expr) for x in _leaves(v)):
        lw.fail(node, "this comparison evaluates its operands more than once, and one calls "
                      "a function; assign it to a variable first")  # fmt: skip


def _ifexp(lw: Lowerer, node: ast.IfExp) -> Value:
    if not (_maybe_tuple(node.body) or _maybe_tuple(node.orelse)):
        return exprs.TABLE[ast.IfExp](lw, node)
    cond = truth(lw.expr(node.test).expr)
    a = exprs.conditional_value(lw, node.body, "a conditional expression's branch")
    b = exprs.conditional_value(lw, node.orelse, "a conditional expression's branch")
    if isinstance(a, Val) and isinstance(b, Val):
        return exprs.select(lw, node, cond, a, b)
    if not (isinstance(a, TupleVal) and isinstance(b, TupleVal)) or a.shape != b.shape:
        lw.fail(node, "both branches of a conditional expression must be numbers or tuples "
                      "of the same length")  # fmt: skip
    for side in (a, b):
        _pure(lw, side, node)
    leaves = [exprs.select(lw, node, cond, x, y)
              for x, y in zip(a.leaves(), b.leaves(), strict=True)]  # fmt: skip
    return rebuild(a.shape, leaves)


TABLE: dict[type[ast.expr], ValueHandler] = {
    ast.Tuple: _tuple,
    ast.Constant: _constant,
    ast.UnaryOp: _unaryop,
    ast.Name: _name,
    ast.Attribute: _attribute,
    ast.Subscript: _subscript,
    ast.BinOp: _binop,
    ast.Compare: _compare,
    ast.IfExp: _ifexp,
}
"""The constructs that may give a tuple (the walker tries them before ``EXPRS``)."""
