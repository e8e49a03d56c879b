"""Expression lowering: an explicit dispatch table from ``ast`` expression classes to methods.

An ``ast`` class missing from the table is a construct outside the kernel subset.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

import numpy as np

from gpuoff.frontend import typing_rules as R
from gpuoff.frontend.base import LowererBase
from gpuoff.frontend.diagnostics import unsupported
from gpuoff.frontend.irutil import Val, const, fold_binary, has_effects, truth
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


class ExprMixin(LowererBase):
    """Lowers scalar expressions to typed IR (``Val``)."""

    def expr(self, node: ast.expr) -> Val:
        handler = EXPR_TABLE.get(type(node))
        if handler is None:
            raise unsupported(self.src, node)
        return handler(self, node)

    # -- names and constants -----------------------------------------------------------------

    def static(self, node: ast.expr) -> Resolved | None:
        """What a non-local name or attribute chain denotes; None for locals and arrays."""
        if isinstance(node, ast.Name):
            if node.id in self.arrays or node.id in self.scalars or self.is_local(node.id):
                return None
            obj = self.env.lookup(node.id)
            if obj is MISSING:
                self.fail(node, f"name {node.id!r} is not defined")
            return classify(obj)
        if isinstance(node, ast.Attribute):
            base = self.static(node.value)
            if base is None or base.kind != "namespace":
                return None
            try:
                obj = getattr(base.value, node.attr)
            except AttributeError:
                self.fail(node, f"{describe(base.value)} has no attribute {node.attr!r}")
            return classify(obj)
        return None

    def static_value(self, node: ast.expr) -> object:
        """Evaluate a compile-time constant expression (literals, captured constants, tuples
        and integer arithmetic on them); ``MISSING`` if it is not one."""
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Tuple):
            items = [self.static_value(e) for e in node.elts]
            return MISSING if MISSING in items else tuple(items)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            v = self.static_value(node.operand)
            return -v if isinstance(v, int) else MISSING
        if isinstance(node, ast.BinOp) and type(node.op) in (ast.Add, ast.Sub, ast.Mult,
                                                             ast.FloorDiv):  # fmt: skip
            a, b = self.static_value(node.left), self.static_value(node.right)
            if not (isinstance(a, int) and isinstance(b, int)) or (
                isinstance(node.op, ast.FloorDiv) and b == 0
            ):
                return MISSING
            ops: dict[type[ast.operator], Callable[[int, int], int]] = {
                ast.Add: int.__add__, ast.Sub: int.__sub__, ast.Mult: int.__mul__,
                ast.FloorDiv: int.__floordiv__,
            }  # fmt: skip
            return ops[type(node.op)](a, b)
        res = self.static(node) if isinstance(node, ast.Name | ast.Attribute) else None
        if res is not None and res.kind == "const":
            return res.value
        if res is not None and res.kind == "dtype":
            return res.value
        if res is not None and isinstance(res.value, tuple):
            return res.value
        return MISSING

    def static_int(self, node: ast.expr, what: str) -> int:
        value = self.static_value(node)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(node, f"{what} must be a compile-time constant integer")
        return value

    def _constant(self, node: ast.Constant) -> Val:
        return self.constant(node.value, node)

    def constant(self, value: object, node: ast.AST) -> Val:
        if isinstance(value, str):
            self.fail(node, "strings are not supported in kernels")
        if value is None:
            self.fail(node, "None is not supported as a value in kernels")
        vt: R.VType = self.rule(node, lambda: R.literal(value))
        raw = value.item() if isinstance(value, np.generic) else value
        assert isinstance(raw, int | float | bool)
        return Val(const(raw, vt.type, self.loc(node)), vt.weak)

    def _name(self, node: ast.Name) -> Val:
        name = node.id
        if name in self.arrays:
            self.fail(node, f"array {name!r} cannot be used as a scalar value (index it)")
        if self.is_local(name):
            return self.read_local(name, node)
        if name in self.scalars:
            return Val(N.Var(self.scalars[name], name, loc=self.loc(node)))
        res = self.static(node)
        assert res is not None
        return self.from_static(res, node)

    def from_static(self, res: Resolved, node: ast.expr) -> Val:
        if res.kind == "const":
            return self.constant(res.value, node)
        what = ast.unparse(node)
        if res.kind in ("unsupported", "namespace"):
            self.fail(node, f"{what!r} is {describe(res.value)}, which cannot be used in kernels")
        self.fail(node, f"{what!r} cannot be used as a value (call it?)")

    def array_of(self, node: ast.expr) -> N.ArrayRef | None:
        """The array a ``Name`` names, or None if it is not an array."""
        if isinstance(node, ast.Name) and node.id in self.arrays:
            ref = self.arrays[node.id]
            return N.ArrayRef(ref.name, ref.type, loc=self.loc(node))
        return None

    # -- attributes and indexing -------------------------------------------------------------

    def shape_of(self, array: N.ArrayRef, dim: int, node: ast.AST) -> Val:
        ndim = array.type.ndim
        if not -ndim <= dim < ndim:
            self.fail(node, f"{array.name!r} has {ndim} dimension(s); shape[{dim}] is out of range")
        dim %= ndim
        if array.type.static_shape is not None:
            return Val(const(array.type.static_shape[dim], T.INDEX, self.loc(node)))
        return Val(N.ShapeOf(T.INDEX, array, dim, loc=self.loc(node)))

    def _attribute(self, node: ast.Attribute) -> Val:
        array = self.array_of(node.value)
        if array is not None:
            if node.attr == "ndim":
                return Val(const(array.type.ndim, T.INDEX, self.loc(node)), weak=True)
            if node.attr == "size":
                size = self.shape_of(array, 0, node)
                for d in range(1, array.type.ndim):
                    nxt = self.shape_of(array, d, node).expr
                    size = Val(N.Binary(T.INDEX, "mul", size.expr, nxt, loc=self.loc(node)))
                return size
            if node.attr == "shape":
                self.fail(node, f"{array.name}.shape must be indexed with a constant: "
                                f"{array.name}.shape[0]")  # fmt: skip
            self.fail(node, f"attribute {node.attr!r} of array {array.name!r} is not supported")
        res = self.static(node)
        if res is None:
            self.fail(node, f"attribute access .{node.attr} on a value is not supported")
        return self.from_static(res, node)

    def indices(self, node: ast.Subscript, array: N.ArrayRef) -> tuple[N.Expr, ...]:
        elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        out: list[N.Expr] = []
        for e in elts:
            if isinstance(e, ast.Slice):
                self.fail(e, "slicing (x[a:b]) is not supported in kernels; index elements")
            v = self.expr(e)
            t: T.ScalarType = self.rule(e, lambda: R.index(v.vtype))  # noqa: B023
            out.append(self.coerce(v, t, e))
        if len(out) != array.type.ndim:
            self.fail(node, f"array {array.name!r} has {array.type.ndim} dimension(s) but is "
                            f"indexed with {len(out)} index(es)")  # fmt: skip
        # A constant negative index counts from the end, as in NumPy (x[-1] is the last
        # element); a negative index computed at run time is out of range.
        for d, (i, e) in enumerate(zip(out, elts, strict=True)):
            if isinstance(i, N.Const) and int(i.value) < 0:
                size = self.shape_of(array, d, e).expr
                loc = self.loc(e)
                folded = fold_binary("add", T.INDEX, size, i, loc)
                out[d] = folded or N.Binary(T.INDEX, "add", size, i, loc=loc)
        return tuple(out)

    def load(self, node: ast.Subscript, array: N.ArrayRef, idx: tuple[N.Expr, ...]) -> Val:
        check = self.add_check(node, array)
        return Val(N.Load(array.type.dtype, array, idx, check, loc=self.loc(node)))

    def _subscript(self, node: ast.Subscript) -> Val:
        base = node.value
        if isinstance(base, ast.Attribute) and base.attr == "shape":
            array = self.array_of(base.value)
            if array is not None:
                dim = self.static_int(node.slice, "the dimension in .shape[d]")
                return self.shape_of(array, dim, node)
        array = self.array_of(base)
        if array is None:
            if not isinstance(base, ast.Name | ast.Attribute):
                self.expr(base)  # reports an unsupported construct by its own name
            self.fail(node, f"indexing is only supported on arrays ({ast.unparse(base)!r} "
                            "is not one)")  # fmt: skip
        return self.load(node, array, self.indices(node, array))

    # -- operators ---------------------------------------------------------------------------

    def binop(self, op: str, lhs: Val, rhs: Val, node: ast.AST) -> Val:
        if op in _BITWISE:
            vt: R.VType = self.rule(node, lambda: R.bitwise(op, lhs.vtype, rhs.vtype))
        else:
            vt = self.rule(node, lambda: R.arithmetic(op, lhs.vtype, rhs.vtype))
        a, b = self.coerce(lhs, vt.type, node), self.coerce(rhs, vt.type, node)
        if op == "pow" and vt.type.is_int and isinstance(b, N.Const) and b.value < 0:
            # Python would return a float, NumPy raises; the IR would quietly give 0.
            self.fail(node, "an integer raised to a negative integer power; use a float base")
        folded = fold_binary(op, vt.type, a, b, self.loc(node))
        if folded is not None:
            return Val(folded, vt.weak)
        return Val(N.Binary(vt.type, op, a, b, loc=self.loc(node)), vt.weak)

    def _binop(self, node: ast.BinOp) -> Val:
        op = BINOPS.get(type(node.op))
        if op is None:
            raise unsupported(self.src, node, "the matrix multiplication operator @")
        return self.binop(op, self.expr(node.left), self.expr(node.right), node)

    def _unaryop(self, node: ast.UnaryOp) -> Val:
        v = self.expr(node.operand)
        loc = self.loc(node)
        if isinstance(node.op, ast.Not):
            return Val(N.Unary(T.boolean, "not", truth(v.expr), loc=loc))
        op = {ast.USub: "neg", ast.UAdd: "pos", ast.Invert: "invert"}[type(node.op)]
        vt: R.VType = self.rule(node, lambda: R.unary(op, v.vtype))
        e = self.coerce(v, vt.type, node)
        if op == "pos":
            return Val(e, vt.weak)
        if op == "invert" and vt.type.is_bool:  # R11
            return Val(N.Unary(T.boolean, "not", e, loc=loc), vt.weak)
        if op == "neg" and isinstance(e, N.Const):
            return Val(const(-e.value, vt.type, loc), vt.weak)
        return Val(N.Unary(vt.type, op, e, loc=loc), vt.weak)

    def _boolop(self, node: ast.BoolOp) -> Val:
        op = "and" if isinstance(node.op, ast.And) else "or"
        acc = truth(self.expr(node.values[0]).expr)
        for value in node.values[1:]:
            rhs = truth(self.expr(value).expr)
            acc = N.Logical(T.boolean, op, acc, rhs, loc=self.loc(node))
        return Val(acc)

    def _compare(self, node: ast.Compare) -> Val:
        for cmp in node.ops:
            if type(cmp) not in CMPOPS:
                raise unsupported(self.src, node, f"the {_cmp_name(cmp)} comparison")
        operands = [self.expr(node.left)] + [self.expr(c) for c in node.comparators]
        if any(has_effects(v.expr) for v in operands[1:-1]):
            self.fail(node, "a chained comparison whose middle operand calls a function is not "
                            "supported; assign it to a variable first")  # fmt: skip
        result: N.Expr | None = None
        for k, cmp in enumerate(node.ops):
            op = CMPOPS[type(cmp)]
            lhs, rhs = operands[k], operands[k + 1]
            vt: R.VType = self.rule(node, lambda: R.compare(lhs.vtype, rhs.vtype))  # noqa: B023
            if vt.type.is_int and not all(_fits(v, vt.type) for v in (lhs, rhs)):
                # NumPy 2 compares with an out-of-range Python int exactly (u8 < 300 is
                # True): compare in i64, which holds every value of both sides.
                vt = R.VType(T.i64)
            a, b = self.coerce(lhs, vt.type, node), self.coerce(rhs, vt.type, node)
            c = N.Compare(T.boolean, op, a, b, loc=self.loc(node))
            result = c if result is None else N.Logical(T.boolean, "and", result, c,
                                                        loc=self.loc(node))  # fmt: skip
        assert result is not None
        return Val(result)

    def _ifexp(self, node: ast.IfExp) -> Val:
        cond = truth(self.expr(node.test).expr)
        a, b = self.expr(node.body), self.expr(node.orelse)
        vt: R.VType = self.rule(node, lambda: R.select(a.vtype, b.vtype))
        return Val(
            N.Select(vt.type, cond, self.coerce(a, vt.type, node.body),
                     self.coerce(b, vt.type, node.orelse), loc=self.loc(node)),
            vt.weak,
        )  # fmt: skip

    def _call(self, node: ast.Call) -> Val:
        v = self.call(node, as_stmt=False)
        assert v is not None
        return v


def _fits(v: Val, t: T.ScalarType) -> bool:
    e = v.expr
    return not (v.weak and isinstance(e, N.Const)) or R.fits(e.value, t)


def _cmp_name(op: ast.cmpop) -> str:
    return {ast.Is: "'is'", ast.IsNot: "'is not'", ast.In: "'in'", ast.NotIn: "'not in'"}.get(
        type(op), type(op).__name__
    )


EXPR_TABLE: dict[type[ast.expr], Callable[[ExprMixin, Any], Val]] = {
    ast.Constant: ExprMixin._constant,
    ast.Name: ExprMixin._name,
    ast.Attribute: ExprMixin._attribute,
    ast.Subscript: ExprMixin._subscript,
    ast.BinOp: ExprMixin._binop,
    ast.UnaryOp: ExprMixin._unaryop,
    ast.BoolOp: ExprMixin._boolop,
    ast.Compare: ExprMixin._compare,
    ast.IfExp: ExprMixin._ifexp,
    ast.Call: ExprMixin._call,
}
"""The supported expression constructs; everything else is rejected by name."""
