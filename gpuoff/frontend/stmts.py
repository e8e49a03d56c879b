"""Statement lowering: an explicit dispatch table from ``ast`` statement classes to methods.

An ``ast`` class missing from the table is a construct outside the kernel subset.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from gpuoff.frontend import typing_rules as R
from gpuoff.frontend.base import INFER, LowererBase, Untyped, assigned_names
from gpuoff.frontend.diagnostics import unsupported
from gpuoff.frontend.exprs import BINOPS
from gpuoff.frontend.irutil import Val, const, truth
from gpuoff.frontend.signature import scalar_of
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T

Stmts = list[N.Stmt]


class StmtMixin(LowererBase):
    """Lowers statements; assignments, loops and returns feed the pass's type records."""

    def block(self, stmts: list[ast.stmt]) -> tuple[N.Stmt, ...]:
        """Lower a statement list (a statement reading a not-yet-typed local is skipped in
        the non-final passes; the final pass reports it)."""
        out: Stmts = []
        for s in stmts:
            try:
                out.extend(self.stmt(s))
            except Untyped:
                if self.final:
                    raise
        return tuple(out)

    def stmt(self, node: ast.stmt) -> Stmts:
        handler = STMT_TABLE.get(type(node))
        if handler is None:
            raise unsupported(self.src, node)
        return handler(self, node)

    def _cond(self, node: ast.expr) -> N.Expr:
        try:
            return truth(self.expr(node).expr)
        except Untyped:
            if self.final:
                raise
            return N.Const(T.boolean, True)

    def _nested(self, stmts: list[ast.stmt], divergent: bool, loop: bool) -> tuple[N.Stmt, ...]:
        self.divergent_depth += divergent
        self.loop_depth += loop
        try:
            return self.block(stmts)
        finally:
            self.divergent_depth -= divergent
            self.loop_depth -= loop

    # -- assignments -------------------------------------------------------------------------

    def _assign(self, node: ast.Assign) -> Stmts:
        value_node = node.value
        if isinstance(value_node, ast.Call):
            res = self.static(value_node.func)
            if res is not None and res.kind == "shared":
                if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
                    self.fail(node, "go.shared(...) must be assigned to a single variable")
                self.shared_decl(node.targets[0], value_node)
                return []
        targets = node.targets
        if any(isinstance(t, ast.Tuple | ast.List) for t in targets):
            if len(targets) != 1:
                self.fail(node, "chained assignment with tuple unpacking is not supported")
            return self._unpack(targets[0], value_node, node)
        value = self.expr(value_node)
        if len(targets) == 1:
            return self.assign_to(targets[0], value)
        out: Stmts = []
        if not isinstance(value.expr, N.Const | N.Var):
            tmp_assign, tmp = self.new_temp(value.expr, node)
            out.append(tmp_assign)
            value = Val(tmp, value.weak)
        for t in targets:
            out.extend(self.assign_to(t, value))
        return out

    def _unpack(self, target: ast.expr, value_node: ast.expr, node: ast.AST) -> Stmts:
        assert isinstance(target, ast.Tuple | ast.List)
        if isinstance(value_node, ast.Attribute) and value_node.attr == "shape":
            array = self.array_of(value_node.value)
            if array is not None:  # rows, cols = x.shape
                ndim, names = array.type.ndim, len(target.elts)
                if names != ndim:
                    msg = f"{array.name!r} has {ndim} dimension(s); cannot unpack its shape"
                    self.fail(node, f"{msg} into {names} names")
                return self._assign_all(
                    target, [self.shape_of(array, d, value_node) for d in range(array.type.ndim)]
                )
        if not isinstance(value_node, ast.Tuple | ast.List) or len(value_node.elts) != len(
            target.elts
        ):
            self.fail(node, "tuple unpacking needs a tuple of as many values on the right "
                            "(a, b = b, a)")  # fmt: skip
        # The whole right side is evaluated before any target is assigned (Python semantics).
        values = [self.expr(v) for v in value_node.elts]
        out: Stmts = []
        held: list[Val] = []
        for v, v_node in zip(values, value_node.elts, strict=True):
            if isinstance(v.expr, N.Const):
                held.append(v)
                continue
            tmp_assign, tmp = self.new_temp(v.expr, v_node)
            out.append(tmp_assign)
            held.append(Val(tmp, v.weak))
        return out + self._assign_all(target, held)

    def _assign_all(self, target: ast.Tuple | ast.List, values: list[Val]) -> Stmts:
        out: Stmts = []
        for t, v in zip(target.elts, values, strict=True):
            if isinstance(t, ast.Tuple | ast.List | ast.Starred):
                raise unsupported(self.src, t, "nested or starred tuple unpacking")
            out.extend(self.assign_to(t, v))
        return out

    def assign_to(self, target: ast.expr, value: Val) -> Stmts:
        """``target = value`` for a name or an array element."""
        if isinstance(target, ast.Name):
            return [self.assign_local(target.id, value, target)]
        if isinstance(target, ast.Subscript):
            array = self.writable_array(target.value, "assignment to an element")
            idx = self.indices(target, array)
            return [self._store(target, array, idx, value)]
        if isinstance(target, ast.Attribute):
            self.fail(target, "assigning to an attribute is not supported in kernels")
        raise unsupported(self.src, target)

    def _store(
        self, target: ast.Subscript, array: N.ArrayRef, idx: tuple[N.Expr, ...], value: Val
    ) -> N.Store:
        v = self.coerce(value, array.type.dtype, target)
        check = self.add_check(target, array)
        return N.Store(array, idx, v, check, loc=self.loc(target))

    def _augassign(self, node: ast.AugAssign) -> Stmts:
        op = BINOPS.get(type(node.op))
        if op is None:
            raise unsupported(self.src, node, "the matrix multiplication operator @=")
        target = node.target
        if isinstance(target, ast.Name):
            if target.id in self.arrays:
                self.fail(target, f"cannot assign to {target.id!r}: it is an array")
            current = self.read_local(target.id, target)
            new = self.binop(op, current, self.expr(node.value), node)
            return [self.assign_local(target.id, new, target)]
        if not isinstance(target, ast.Subscript):
            self.fail(target, "augmented assignment to an attribute is not supported in kernels")
        array = self.writable_array(target.value, "augmented assignment to an element")
        out: Stmts = []
        idx: list[N.Expr] = []
        # The index is evaluated once: anything beyond a name or a constant goes to a temp.
        for e in self.indices(target, array):
            if _cheap(e):
                idx.append(e)
            else:
                tmp_assign, tmp = self.new_temp(e, target)
                out.append(tmp_assign)
                idx.append(tmp)
        current = self.load(target, array, tuple(idx))
        new = self.binop(op, current, self.expr(node.value), node)
        out.append(self._store(target, array, tuple(idx), new))
        return out

    def _annassign(self, node: ast.AnnAssign) -> Stmts:
        if not isinstance(node.target, ast.Name):
            self.fail(node.target, "annotated assignment only declares local variables")
        name = node.target.id
        t = scalar_of(self.static_value(node.annotation))
        if t is None:
            self.fail(node.annotation, "a local variable's annotation must be a scalar type "
                                       "(go.f32, go.i32, float, int, bool, ...)")  # fmt: skip
        if self.cur.declared.get(name, t) != t:
            self.fail(node, f"variable {name!r} is declared with two different types")
        self.cur.declared[name] = t
        if node.value is None:
            return []
        return [self.assign_local(name, self.expr(node.value), node.target)]

    # -- control flow ------------------------------------------------------------------------

    def _if(self, node: ast.If) -> Stmts:
        cond = self._cond(node.test)
        div = self.is_divergent(cond)
        before = set(self.maybe_assigned)
        body = self._nested(node.body, div, False)
        after_body, self.maybe_assigned = self.maybe_assigned, before
        orelse = self._nested(node.orelse, div, False)
        self.maybe_assigned |= after_body
        return [N.If(cond, body, orelse, loc=self.loc(node))]

    def _while(self, node: ast.While) -> Stmts:
        if node.orelse:
            raise unsupported(self.src, node.orelse[0], "while ... else")
        self.maybe_assigned |= assigned_names(node)
        cond = self._cond(node.test)
        body = self._nested(node.body, self.is_divergent(cond), True)
        return [N.While(cond, body, loc=self.loc(node))]

    def _for(self, node: ast.For) -> Stmts:
        if node.orelse:
            raise unsupported(self.src, node.orelse[0], "for ... else")
        if not isinstance(node.target, ast.Name):
            self.fail(node.target, "a for loop needs a single variable: for i in range(n)")
        it = node.iter
        res = self.static(it.func) if isinstance(it, ast.Call) else None
        if (
            not isinstance(it, ast.Call)
            or res is None
            or res.name != "range"
            or res.kind != ("builtin")
        ):
            raise unsupported(self.src, it, "a for loop over anything but range(...)")
        if it.keywords or not 1 <= len(it.args) <= 3:
            self.fail(it, "range() takes 1 to 3 positional arguments")
        var = node.target.id
        self.maybe_assigned |= assigned_names(node) - {var}
        try:
            header: tuple[N.Expr, N.Expr, N.Expr] | None = self._range(var, it, node.target)
        except Untyped:
            if self.final:
                raise
            header = None
        div = header is not None and any(self.is_divergent(e) for e in header)
        body = self._nested(node.body, div, True)
        if header is None:
            return []
        start, stop, step = header
        return [N.ForRange(var, start, stop, step, body, loc=self.loc(node))]

    def _range(self, var: str, it: ast.Call, target: ast.Name) -> tuple[N.Expr, N.Expr, N.Expr]:
        args = [self.expr(a) for a in it.args]
        vt: R.VType = self.rule(it, lambda: R.range_type([a.vtype for a in args]))
        loc = self.loc(it)
        if len(args) == 1:
            args = [Val(const(0, vt.type, loc), True), args[0]]
        if len(args) == 2:
            args.append(Val(const(1, vt.type, loc), True))
        # The loop variable is an ordinary local: its type joins the range's with any other
        # assignment to it (it must stay an integer).
        assign = self.assign_local(var, Val(self.coerce(args[0], vt.type, it), vt.weak), target)
        if any(self.is_divergent(a.expr) for a in args):
            self.cur.divergent.add(var)
        var_t = assign.value.type
        if not var_t.is_int:
            self.fail(target, f"loop variable {var!r} must be an integer, but it is also "
                              f"assigned a {var_t} elsewhere")  # fmt: skip
        nodes = it.args if len(it.args) == 3 else [it.args[0]] * (3 - len(it.args)) + it.args
        return tuple(  # type: ignore[return-value]
            self.coerce(a, var_t, n) for a, n in zip(args, nodes, strict=True)
        )

    def _break(self, node: ast.Break) -> Stmts:
        if self.loop_depth == 0:
            self.fail(node, "'break' outside a loop")
        return [N.Break(loc=self.loc(node))]

    def _continue(self, node: ast.Continue) -> Stmts:
        if self.loop_depth == 0:
            self.fail(node, "'continue' outside a loop")
        return [N.Continue(loc=self.loc(node))]

    def _return(self, node: ast.Return) -> Stmts:
        loc = self.loc(node)
        declared = self.spec.declared_return
        if node.value is None:
            if self.spec.is_kernel or declared is None:
                return [N.Return(loc=loc)]
            if declared is not INFER:
                self.fail(node, f"{self.spec.display_name} must return a value of type {declared}")
            self.cur.bare_return = True
            return [N.Return(loc=loc)]
        if self.spec.is_kernel:
            self.fail(node, "a kernel cannot return a value (write results into a BorrowMut "
                            "array)")  # fmt: skip
        if declared is None:
            self.fail(node, f"{self.spec.display_name} is declared '-> None' but returns a value")
        value = self.expr(node.value)
        if isinstance(declared, T.ScalarType):
            return [N.Return(self.coerce(value, declared, node.value), loc=loc)]
        self.cur.returns = self.rule(node, lambda: R.join(
            self.cur.returns, value.vtype, "the function's return value"))  # fmt: skip
        target = self.prev.returns if self.final and self.prev.returns else self.cur.returns
        return [N.Return(self.coerce(value, target.type, node.value), loc=loc)]

    def _pass(self, node: ast.Pass) -> Stmts:
        return []

    def _expr_stmt(self, node: ast.Expr) -> Stmts:
        value = node.value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return []  # a docstring or a string used as a comment
        if not isinstance(value, ast.Call):
            self.fail(node, "an expression statement has no effect; only calls can stand alone")
        res = self.static(value.func)
        if res is not None and res.kind == "barrier":
            if value.args or value.keywords:
                self.fail(value, "go.barrier() takes no arguments")
            if not self.spec.is_kernel:
                self.fail(value, "go.barrier() can only be used in a kernel, not in a device "
                                 "function")  # fmt: skip
            if self.final and self.divergent_depth > 0:
                self.fail(value, "barrier under a condition that may differ between work-items "
                                 "(it depends on global_id/local_id): every work-item of a group "
                                 "must reach the same barriers")  # fmt: skip
            return [N.Barrier(loc=self.loc(node))]
        v = self.call(value, as_stmt=True)
        assert v is not None
        if not isinstance(v.expr, N.Call | N.AtomicRMW):
            self.fail(node, f"the result of {ast.unparse(value.func)}() is unused: the call has "
                            "no effect")  # fmt: skip
        return [N.ExprStmt(v.expr, loc=self.loc(node))]


def _cheap(e: N.Expr) -> bool:
    """Pure and trivial: evaluating it twice equals evaluating it once."""
    if isinstance(e, N.Cast):
        return _cheap(e.value)
    return isinstance(e, N.Const | N.Var | N.WorkItem | N.ShapeOf)


STMT_TABLE: dict[type[ast.stmt], Callable[[StmtMixin, Any], Stmts]] = {
    ast.Assign: StmtMixin._assign,
    ast.AugAssign: StmtMixin._augassign,
    ast.AnnAssign: StmtMixin._annassign,
    ast.If: StmtMixin._if,
    ast.While: StmtMixin._while,
    ast.For: StmtMixin._for,
    ast.Break: StmtMixin._break,
    ast.Continue: StmtMixin._continue,
    ast.Return: StmtMixin._return,
    ast.Pass: StmtMixin._pass,
    ast.Expr: StmtMixin._expr_stmt,
}
"""The supported statement constructs; everything else is rejected by name."""
