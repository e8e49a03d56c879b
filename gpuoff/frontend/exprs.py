"""Expression lowering: one handler per ``ast`` expression class (``TABLE``), and the helpers
other constructs share (names and compile-time constants, arrays and indexing, operators).

An ``ast`` class missing from the table is a construct outside the kernel subset. Calls have
their own module (``calls``), which adds ``ast.Call`` to the walker's table.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable

import numpy as np

from gpuoff import lang
from gpuoff import subset as W
from gpuoff.errors import IndexCountError
from gpuoff.frontend import typing_rules as R
from gpuoff.frontend.base import ExprHandler, Lowerer, Untyped
from gpuoff.frontend.diagnostics import unsupported
from gpuoff.frontend.irutil import Val, Value, const, fold_binary, has_effects, truth
from gpuoff.frontend.resolve import MISSING, Resolved, classify, describe
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T

BINOPS: dict[type[ast.operator], str] = {
    ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv",
    ast.FloorDiv: "floordiv", ast.Mod: "mod", ast.Pow: "pow", ast.BitAnd: "bitand",
    ast.BitOr: "bitor", ast.BitXor: "bitxor", ast.LShift: "lshift", ast.RShift: "rshift",
}  # fmt: skip
CMPOPS: dict[type[ast.cmpop], str] = {
    ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge", ast.Eq: "eq", ast.NotEq: "ne",
}  # fmt: skip
_BITWISE = ("bitand", "bitor", "bitxor", "lshift", "rshift")
# Integer arithmetic a compile-time constant (a ``go.shared`` shape, a dimension) may use.
_STATIC_BINARY: dict[type[ast.operator], Callable[[int, int], object]] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a**b if 0 <= b <= 64 else MISSING,
    ast.LShift: lambda a, b: a << b if b <= 64 else MISSING, ast.RShift: lambda a, b: a >> b,
    ast.BitAnd: lambda a, b: a & b, ast.BitOr: lambda a, b: a | b,
    ast.BitXor: lambda a, b: a ^ b,
}  # fmt: skip
_STATIC_UNARY: dict[type[ast.unaryop], Callable[[int], int]] = {
    ast.USub: lambda v: -v, ast.UAdd: lambda v: v, ast.Invert: lambda v: ~v,
}  # fmt: skip


# -- names and constants -----------------------------------------------------------------------


def static(lw: Lowerer, node: ast.expr) -> Resolved | None:
    """What a non-local name or attribute chain denotes; None for locals and arrays."""
    if isinstance(node, ast.Name):
        if node.id in lw.arrays or node.id in lw.scalars or lw.is_local(node.id):
            return None
        if node.id in lw.spec.consts:  # a go.Const parameter: its value at this launch
            return classify(lw.spec.consts[node.id])
        obj = lw.env.lookup(node.id)
        if obj is MISSING:
            lw.fail(node, f"name {node.id!r} is not defined")
        return classify(obj)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            len(node.args) == 1 and not node.keywords:  # fmt: skip
        fn = static(lw, node.func)
        if fn is not None and fn.value is builtins.type:
            dtype = _type_of(lw, node.args[0])
            return Resolved("dtype", lang.DTYPE_BY_NAME[dtype.np_dtype.name], dtype.name, dtype)
        return None
    if isinstance(node, ast.Attribute):
        base = static(lw, node.value)
        if base is None or base.kind != "namespace":
            return None
        try:
            obj = getattr(base.value, node.attr)
        except AttributeError:
            lw.fail(node, f"{describe(base.value)} has no attribute {node.attr!r}")
        return classify(obj)
    return None


def _type_of(lw: Lowerer, node: ast.expr) -> T.ScalarType:
    """The dtype ``type(node)`` names: of an array's elements (``type(x[i])``, nothing is
    read) or of a scalar variable or parameter; how a generic body that type checkers check
    names its dtype variable's dtype (they refuse a type variable as a value)."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
            and node.value.id in lw.arrays:  # fmt: skip
        return lw.arrays[node.value.id].type.dtype
    if isinstance(node, ast.Name) and node.id not in lw.arrays:
        if lw.is_local(node.id):
            vt = lw.local_type(node.id)
            if vt is None:
                if not lw.final:
                    raise Untyped(node.id)
                lw.fail(node, f"local variable {node.id!r} is used before it is assigned")
            return vt.type
        if node.id in lw.scalars:
            return lw.scalars[node.id]
    lw.fail(node, "type(...) in kernels names a dtype: of an array element (type(x[i])) or of "
                  "a scalar variable (type(v))")  # fmt: skip


def static_value(lw: Lowerer, node: ast.expr) -> object:
    """Evaluate a compile-time constant expression (literals, captured constants, tuples
    and integer arithmetic on them); ``MISSING`` if it is not one."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in lw.unrolled:
        return lw.unrolled[node.id]  # the variable of an unrolled loop (``loops``)
    if isinstance(node, ast.Tuple):
        items = [static_value(lw, e) for e in node.elts]
        return MISSING if MISSING in items else tuple(items)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _STATIC_UNARY:
        v = static_value(lw, node.operand)
        if not isinstance(v, int) or isinstance(v, bool):
            return MISSING
        return _STATIC_UNARY[type(node.op)](v)
    if isinstance(node, ast.BinOp) and type(node.op) in _STATIC_BINARY:
        a, b = static_value(lw, node.left), static_value(lw, node.right)
        if not (isinstance(a, int) and isinstance(b, int)) or isinstance(a, bool) \
                or isinstance(b, bool):  # fmt: skip
            return MISSING
        try:
            value = _STATIC_BINARY[type(node.op)](a, b)
        except (ZeroDivisionError, ValueError, OverflowError):
            return MISSING  # x // 0, 1 << -1: not a constant; lowered (and reported) later
        return value if isinstance(value, int) and value.bit_length() <= 64 else MISSING
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        fn = static(lw, node.func)
        if fn is not None and fn.kind == "builtin" and fn.name == "len":
            over = static_value(lw, node.args[0])  # len(TAPS) of a captured tuple
            return len(over) if isinstance(over, tuple | list) else MISSING
        if fn is not None and fn.value is builtins.type:  # type(x[i]): a dtype
            named = static(lw, node)
            return named.value if named is not None else MISSING
        return MISSING
    res = static(lw, node) if isinstance(node, ast.Name | ast.Attribute) else None
    if res is not None and res.kind == "const":
        return res.value
    if res is not None and res.kind == "dtype":
        return res.value
    if res is not None and isinstance(res.value, tuple | list):
        return res.value
    return MISSING


def static_int(lw: Lowerer, node: ast.expr, what: str) -> int:
    value = static_value(lw, node)
    if isinstance(value, bool) or not isinstance(value, int):
        lw.fail(node, f"{what} must be a compile-time constant integer")
    return value


def _constant(lw: Lowerer, node: ast.Constant) -> Val:
    return constant(lw, node.value, node)


def constant(lw: Lowerer, value: object, node: ast.AST) -> Val:
    if isinstance(value, str):
        lw.fail(node, W.STRING_VALUE)
    if value is None:
        lw.fail(node, W.NONE_VALUE)
    vt: R.VType = lw.rule(node, lambda: R.literal(value))
    raw = value.item() if isinstance(value, np.generic) else value
    assert isinstance(raw, int | float | bool)
    return Val(const(raw, vt.type, lw.loc(node)), vt.weak)


def _name(lw: Lowerer, node: ast.Name) -> Val:
    name = node.id
    if name in lw.arrays:
        lw.fail(node, W.array_as_scalar_message(name))
    if lw.is_local(name):
        return lw.read_local(name, node)
    if name in lw.scalars:
        return Val(N.Var(lw.scalars[name], name, loc=lw.loc(node)))
    res = static(lw, node)
    assert res is not None
    return from_static(lw, res, node)


def from_static(lw: Lowerer, res: Resolved, node: ast.expr) -> Val:
    if res.kind == "const":
        return constant(lw, res.value, node)
    what = ast.unparse(node)
    if res.kind in ("unsupported", "namespace"):
        lw.fail(node, W.unusable_value_message(what, describe(res.value)))
    lw.fail(node, f"{what!r} cannot be used as a value (call it?)")


def array_of(lw: Lowerer, node: ast.expr) -> N.ArrayRef | None:
    """The array a ``Name`` names, or None if it is not an array."""
    if isinstance(node, ast.Name) and node.id in lw.arrays:
        ref = lw.arrays[node.id]
        return N.ArrayRef(ref.name, ref.type, loc=lw.loc(node))
    return None


# -- attributes and indexing -------------------------------------------------------------------


def user_ndim(array: N.ArrayRef) -> int:
    """The dimensions the kernel sees: a complex array's last axis (its parts) is not one."""
    return array.type.ndim - array.type.pairs


def shape_of(lw: Lowerer, array: N.ArrayRef, dim: int, node: ast.AST) -> Val:
    ndim = user_ndim(array)
    if not -ndim <= dim < ndim:
        err = lw.error(node, f"{array.name!r} has {ndim} dimension(s); shape[{dim}] is out of "
                             "range")  # fmt: skip
        raise IndexCountError(err.message, err.location, array.name, ndim,
                              dim + 1 if dim >= 0 else -dim, at_least=True) from None
    dim %= ndim
    if array.type.static_shape is not None:
        return Val(const(array.type.static_shape[dim], T.INDEX, lw.loc(node)))
    return Val(N.ShapeOf(T.INDEX, array, dim, loc=lw.loc(node)))


def _attribute(lw: Lowerer, node: ast.Attribute) -> Val:
    array = array_of(lw, node.value)
    if array is not None:
        if node.attr == "ndim":
            return Val(const(user_ndim(array), T.INDEX, lw.loc(node)), weak=True)
        if node.attr == "size":
            size = shape_of(lw, array, 0, node)
            for d in range(1, user_ndim(array)):
                nxt = shape_of(lw, array, d, node).expr
                size = Val(N.Binary(T.INDEX, "mul", size.expr, nxt, loc=lw.loc(node)))
            return size
        if node.attr == "shape":
            lw.fail(node, W.shape_index_message(array.name))
        lw.fail(node, W.array_attribute_message(node.attr, array.name))
    res = static(lw, node)
    if res is None:
        lw.fail(node, f"attribute access .{node.attr} on a value is not supported")
    return from_static(lw, res, node)


def indices(lw: Lowerer, node: ast.Subscript, array: N.ArrayRef,
            whole: bool = False) -> tuple[N.Expr, ...]:  # fmt: skip
    """The indices of ``array[...]``; ``whole``: of a complex array's element (the caller
    adds the part's index), which no other access of one may be."""
    elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    if array.type.pairs and not whole:
        lw.fail(node, f"{array.name!r} holds complex numbers; kernels read one as z = "
                      f"{array.name}[i] and write one as {array.name}[i] = z (no atomics, "
                      "views or other access)")  # fmt: skip
    ndim = user_ndim(array)
    out: list[N.Expr] = []
    for e in elts:
        if isinstance(e, ast.Slice):
            lw.fail(e, W.SLICING)
        v = lw.expr(e)
        t: T.ScalarType = lw.rule(e, lambda: R.index(v.vtype))  # noqa: B023
        out.append(lw.coerce(v, t, e))
    if len(out) != ndim:
        err = lw.error(node, f"array {array.name!r} has {ndim} dimension(s) but is "
                             f"indexed with {len(out)} index(es)")  # fmt: skip
        # the runtime reports it as the argument's LaunchTypeError when it is a parameter
        raise IndexCountError(err.message, err.location, array.name, ndim,
                              len(out)) from None  # fmt: skip
    # A constant negative index counts from the end, as in NumPy (x[-1] is the last
    # element); a negative index computed at run time is out of range.
    for d, (i, e) in enumerate(zip(out, elts, strict=True)):
        if isinstance(i, N.Const) and int(i.value) < 0:
            size = shape_of(lw, array, d, e).expr
            loc = lw.loc(e)
            folded = fold_binary("add", T.INDEX, size, i, loc)
            out[d] = folded or N.Binary(T.INDEX, "add", size, i, loc=loc)
    return tuple(out)


def load(lw: Lowerer, node: ast.Subscript, array: N.ArrayRef, idx: tuple[N.Expr, ...]) -> Val:
    check = lw.add_check(node, array)
    # An element of a private list that holds only Python numbers so far is weak, as a
    # local holding one is (R9): ``b = [0.0] * 4`` later filled with f32 values reads as f32.
    info = lw.cur.private.get(array.name) or lw.prev.private.get(array.name)
    weak = info is not None and not info.declared and info.elem.weak
    return Val(N.Load(array.type.dtype, array, idx, check, loc=lw.loc(node)), weak)


def _subscript(lw: Lowerer, node: ast.Subscript) -> Val:
    base = node.value
    if isinstance(base, ast.Attribute) and base.attr == "shape":
        array = array_of(lw, base.value)
        if array is not None:
            dim = static_int(lw, node.slice, "the dimension in .shape[d]")
            return shape_of(lw, array, dim, node)
    array = array_of(lw, base)
    if array is None:
        if not isinstance(base, ast.Name | ast.Attribute):
            lw.expr(base)  # reports an unsupported construct by its own name
        lw.fail(node, W.index_not_array_message(ast.unparse(base)))
    return load(lw, node, array, indices(lw, node, array))


# -- operators ---------------------------------------------------------------------------------


def binop(lw: Lowerer, op: str, lhs: Val, rhs: Val, node: ast.AST) -> Val:
    if op in _BITWISE:
        vt: R.VType = lw.rule(node, lambda: R.bitwise(op, lhs.vtype, rhs.vtype))
    else:
        vt = lw.rule(node, lambda: R.arithmetic(op, lhs.vtype, rhs.vtype))
    a, b = lw.coerce(lhs, vt.type, node), lw.coerce(rhs, vt.type, node)
    if op == "pow" and vt.type.is_int and isinstance(b, N.Const) and b.value < 0:
        # Python would return a float, NumPy raises; the IR would quietly give 0.
        lw.fail(node, "an integer raised to a negative integer power; use a float base")
    folded = fold_binary(op, vt.type, a, b, lw.loc(node))
    if folded is not None:
        return Val(folded, vt.weak)
    return Val(N.Binary(vt.type, op, a, b, loc=lw.loc(node)), vt.weak)


def _binop(lw: Lowerer, node: ast.BinOp) -> Val:
    op = BINOPS.get(type(node.op))
    if op is None:
        raise unsupported(lw.src, node, "the matrix multiplication operator @")
    return binop(lw, op, lw.expr(node.left), lw.expr(node.right), node)


def _unaryop(lw: Lowerer, node: ast.UnaryOp) -> Val:
    operand = node.operand
    if isinstance(node.op, ast.USub) and isinstance(operand, ast.Constant) and isinstance(
        operand.value, int | float
    ) and not isinstance(operand.value, bool):
        # A negative literal is one constant: -9223372036854775808 fits in i64 although
        # its magnitude alone does not.
        return constant(lw, -operand.value, node)
    return unary_value(lw, node, lw.expr(operand))


def unary_value(lw: Lowerer, node: ast.UnaryOp, v: Val) -> Val:
    """``node``'s operator applied to its lowered operand ``v``."""
    loc = lw.loc(node)
    if isinstance(node.op, ast.Not):
        return Val(N.Unary(T.boolean, "not", truth(v.expr), loc=loc))
    op = {ast.USub: "neg", ast.UAdd: "pos", ast.Invert: "invert"}[type(node.op)]
    vt: R.VType = lw.rule(node, lambda: R.unary(op, v.vtype))
    e = lw.coerce(v, vt.type, node)
    if op == "pos":
        return Val(e, vt.weak)
    if op == "invert" and vt.type.is_bool:  # R11
        return Val(N.Unary(T.boolean, "not", e, loc=loc), vt.weak)
    if op == "neg" and isinstance(e, N.Const):
        return Val(const(-e.value, vt.type, loc), vt.weak)
    return Val(N.Unary(vt.type, op, e, loc=loc), vt.weak)


def _boolop(lw: Lowerer, node: ast.BoolOp) -> Val:
    op = "and" if isinstance(node.op, ast.And) else "or"
    acc = truth(lw.expr(node.values[0]).expr)
    for value in node.values[1:]:
        rhs = truth(conditional(lw, value, f"the right operand of '{op}'").expr)
        acc = N.Logical(T.boolean, op, acc, rhs, loc=lw.loc(node))
    return Val(acc)


def conditional(lw: Lowerer, node: ast.expr, where: str) -> Val:
    """A scalar operand evaluated only sometimes (``where`` says which): nothing may be
    hoisted out of it (``Lowerer.hoist``)."""
    ban, lw.hoist_ban = lw.hoist_ban, lw.hoist_ban or where
    try:
        return lw.expr(node)
    finally:
        lw.hoist_ban = ban


def conditional_value(lw: Lowerer, node: ast.expr, where: str) -> Value:
    """``conditional`` for an operand that may be a tuple."""
    ban, lw.hoist_ban = lw.hoist_ban, lw.hoist_ban or where
    try:
        return lw.value(node)
    finally:
        lw.hoist_ban = ban


def _compare(lw: Lowerer, node: ast.Compare) -> Val:
    for cmp in node.ops:
        if type(cmp) not in CMPOPS:
            raise unsupported(lw.src, node, W.comparison_name(cmp_name(cmp)))
    operands = [lw.expr(node.left)] + [lw.expr(c) for c in node.comparators]
    if any(has_effects(v.expr) for v in operands[1:-1]):
        lw.fail(node, "a chained comparison whose middle operand calls a function is not "
                      "supported; assign it to a variable first")  # fmt: skip
    result: N.Expr | None = None
    for k, cmp in enumerate(node.ops):
        c = compare_pair(lw, node, CMPOPS[type(cmp)], operands[k], operands[k + 1])
        result = c if result is None else N.Logical(T.boolean, "and", result, c,
                                                    loc=lw.loc(node))  # fmt: skip
    assert result is not None
    return Val(result)


def compare_pair(lw: Lowerer, node: ast.AST, op: str, lhs: Val, rhs: Val) -> N.Expr:
    """``lhs op rhs`` for two scalars (R7)."""
    vt: R.VType = lw.rule(node, lambda: R.compare(lhs.vtype, rhs.vtype))
    if vt.type.is_int and not all(_fits(v, vt.type) for v in (lhs, rhs)):
        # NumPy 2 compares with an out-of-range Python int exactly (u8 < 300 is True):
        # compare in i64, which holds every value of both sides. A Python-int local
        # (``v = 300; x[i] < v``) follows the same rule as the literal: its value is only
        # known at run time, so it is never narrowed.
        vt = R.VType(T.i64)
    a, b = lw.coerce(lhs, vt.type, node), lw.coerce(rhs, vt.type, node)
    return N.Compare(T.boolean, op, a, b, loc=lw.loc(node))


def _ifexp(lw: Lowerer, node: ast.IfExp) -> Val:
    cond = truth(lw.expr(node.test).expr)
    a = conditional(lw, node.body, "a conditional expression's branch")
    b = conditional(lw, node.orelse, "a conditional expression's branch")
    return select(lw, node, cond, a, b)


def select(lw: Lowerer, node: ast.IfExp, cond: N.Expr, a: Val, b: Val) -> Val:
    """``a if cond else b`` (the common type of the two, R1-R3)."""
    vt: R.VType = lw.rule(node, lambda: R.select(a.vtype, b.vtype))
    return Val(
        N.Select(vt.type, cond, lw.coerce(a, vt.type, node.body),
                 lw.coerce(b, vt.type, node.orelse), loc=lw.loc(node)),
        vt.weak,
    )  # fmt: skip
def _fits(v: Val, t: T.ScalarType) -> bool:
    """Whether converting ``v`` to ``t`` keeps its value: always for strong values (their
    type is ``t`` or promotes to it), for a weak constant when it is in range, and for another
    weak value (a Python-int local, a device function returning literals) only when ``t``
    is i64, the type Python ints have in kernels."""
    e = v.expr
    if not v.weak:
        return True
    if isinstance(e, N.Const):
        return R.fits(e.value, t)
    return not t.is_int or t == T.i64


def cmp_name(op: ast.cmpop) -> str:
    return {ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}.get(
        type(op), type(op).__name__
    )


TABLE: dict[type[ast.expr], ExprHandler] = {
    ast.Constant: _constant,
    ast.Name: _name,
    ast.Attribute: _attribute,
    ast.Subscript: _subscript,
    ast.BinOp: _binop,
    ast.UnaryOp: _unaryop,
    ast.BoolOp: _boolop,
    ast.Compare: _compare,
    ast.IfExp: _ifexp,
}
"""The supported expression constructs except calls (``calls.TABLE``); everything else is
rejected by name."""
