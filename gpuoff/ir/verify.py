"""The IR verifier: a table of rules, one small function per node type.

``verify(module)`` raises ``IRVerifyError`` (an internal error: a bug in the front end or a
pass, never the user's fault) naming the function, the source line and the broken rule. The
rules restate the node docstrings of ``gpuoff.ir.nodes``; run it after every pass in tests.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpuoff.ir import nodes as n
from gpuoff.ir.types import INDEX, AddressSpace, ArrayType, ScalarType, boolean, i32


def atomic_supports(op: str, dtype: ScalarType) -> bool:
    """Whether ``AtomicRMW`` ``op`` exists on elements of ``dtype`` (``nodes.ATOMIC_KINDS``;
    32- and 64-bit elements only)."""
    return dtype.kind in n.ATOMIC_KINDS.get(op, "") and dtype.bits in (32, 64)

_BIT_OPS = frozenset({"bitand", "bitor", "bitxor"})
_SHIFT_OPS = frozenset({"lshift", "rshift"})
_FLOAT_MATH = n.FLOAT_FUNCS
_NUMERIC_MATH = n.NUMERIC_FUNCS
_PREDICATE_MATH = n.PREDICATE_FUNCS
_BIT_MATH = n.BIT_FUNCS


class IRVerifyError(Exception):
    """The IR breaks one of its own rules (an internal error in gpuoff, not a user error)."""


@dataclass
class _Ctx:
    module: n.Module
    fn: n.Function
    scalars: dict[str, ScalarType] = field(default_factory=dict)
    arrays: dict[str, ArrayType] = field(default_factory=dict)
    loops: int = 0

    def fail(self, node: n.Node | None, msg: str) -> IRVerifyError:
        line = "" if node is None or node.loc is None else f", line {node.loc.line}"
        kind = "" if node is None else f" [{type(node).__name__}]"
        return IRVerifyError(f"{self.fn.name}{line}{kind}: {msg}")

    def require(self, ok: bool, node: n.Node, msg: str) -> None:
        if not ok:
            raise self.fail(node, msg)


# --------------------------------------------------------------------------------------------
# Expressions
# --------------------------------------------------------------------------------------------


def check_expr(ctx: _Ctx, e: n.Expr, *, as_stmt: bool = False) -> None:
    """Verify expression ``e`` (recursively); ``as_stmt``: it is an ``ExprStmt``'s value."""
    if not isinstance(e, n.Expr):
        raise ctx.fail(None, f"expected a scalar expression, got {type(e).__name__}")
    ctx.require(isinstance(e.type, ScalarType), e, f"type {e.type!r} is not a scalar type")
    rule = _EXPR_RULES.get(type(e))
    if rule is None:
        raise ctx.fail(e, "unknown expression node")
    if isinstance(e, n.Call):
        _call(ctx, e, as_stmt)
    else:
        rule(ctx, e)


def _same(ctx: _Ctx, node: n.Node, *types: ScalarType) -> None:
    ctx.require(len(set(types)) == 1, node, f"operand types disagree: {', '.join(map(str, types))}")


def _const(ctx: _Ctx, e: n.Const) -> None:
    t, v = e.type, e.value
    if t.is_bool:
        ctx.require(isinstance(v, bool), e, f"bool constant {v!r} is not True/False")
    elif t.is_int:
        ctx.require(isinstance(v, int) and not isinstance(v, bool), e, f"{t} constant {v!r}")
        lo = -(1 << (t.bits - 1)) if t.is_signed else 0
        hi = (1 << (t.bits - 1)) - 1 if t.is_signed else (1 << t.bits) - 1
        ctx.require(lo <= int(v) <= hi, e, f"constant {v} out of range of {t}")
    else:
        ok = isinstance(v, float | int) and not isinstance(v, bool)
        ctx.require(ok, e, f"{t} constant {v!r} is not a number")


def _var(ctx: _Ctx, e: n.Var) -> None:
    declared = ctx.scalars.get(e.name)
    ctx.require(declared is not None, e, f"variable {e.name!r} is not declared")
    ctx.require(declared == e.type, e, f"variable {e.name!r} is {declared}, read as {e.type}")


def _unary(ctx: _Ctx, e: n.Unary) -> None:
    check_expr(ctx, e.operand)
    _same(ctx, e, e.type, e.operand.type)
    t = e.type
    allowed = {"neg": not t.is_bool, "not": t.is_bool, "invert": t.is_int}
    ctx.require(e.op in allowed, e, f"unknown unary op {e.op!r}")
    ctx.require(allowed[e.op], e, f"unary {e.op} is not defined on {t}")


def _binary(ctx: _Ctx, e: n.Binary) -> None:
    check_expr(ctx, e.lhs)
    check_expr(ctx, e.rhs)
    ctx.require(e.op in n.BINARY_OPS, e, f"unknown binary op {e.op!r}")
    _same(ctx, e, e.type, e.lhs.type, e.rhs.type)
    t = e.type
    if e.op == "truediv":
        ok = t.is_float
    elif e.op in _BIT_OPS:
        ok = t.is_int or t.is_bool
    elif e.op in _SHIFT_OPS:
        ok = t.is_int
    else:
        ok = not t.is_bool
    ctx.require(ok, e, f"binary {e.op} is not defined on {t}")


def _compare(ctx: _Ctx, e: n.Compare) -> None:
    check_expr(ctx, e.lhs)
    check_expr(ctx, e.rhs)
    ctx.require(e.op in n.COMPARE_OPS, e, f"unknown comparison {e.op!r}")
    _same(ctx, e, e.lhs.type, e.rhs.type)
    ctx.require(e.type == boolean, e, f"comparison gives bool, not {e.type}")


def _logical(ctx: _Ctx, e: n.Logical) -> None:
    check_expr(ctx, e.lhs)
    check_expr(ctx, e.rhs)
    ctx.require(e.op in ("and", "or"), e, f"unknown logical op {e.op!r}")
    for t in (e.type, e.lhs.type, e.rhs.type):
        ctx.require(t == boolean, e, f"logical {e.op} needs bool operands and result, got {t}")


def _select(ctx: _Ctx, e: n.Select) -> None:
    for sub in (e.cond, e.if_true, e.if_false):
        check_expr(ctx, sub)
    ctx.require(e.cond.type == boolean, e, f"select condition is {e.cond.type}, not bool")
    _same(ctx, e, e.type, e.if_true.type, e.if_false.type)


def _cast(ctx: _Ctx, e: n.Cast) -> None:
    check_expr(ctx, e.value)


def _array(ctx: _Ctx, ref: n.ArrayRef) -> ArrayType:
    ctx.require(isinstance(ref, n.ArrayRef), ref, "array operand is not an ArrayRef")
    declared = ctx.arrays.get(ref.name)
    ctx.require(declared is not None, ref, f"array {ref.name!r} is not declared")
    ctx.require(declared == ref.type, ref, f"array {ref.name!r} is {declared}, used as {ref.type}")
    return ref.type


def _access(
    ctx: _Ctx, node: n.Node, ref: n.ArrayRef, indices: tuple[n.Expr, ...], check: int | None
) -> ArrayType:
    at = _array(ctx, ref)
    ctx.require(
        len(indices) == at.ndim, node, f"{ref.name} has {at.ndim} dims, {len(indices)} indices"
    )
    for i in indices:
        check_expr(ctx, i)
        ctx.require(i.type == INDEX, node, f"index of {ref.name} is {i.type}, not {INDEX}")
    if check is not None:
        n_checks = len(ctx.module.checks)
        ctx.require(1 <= check <= n_checks, node, f"check id {check} not in 1..{n_checks}")
    return at


def _writable(ctx: _Ctx, node: n.Node, at: ArrayType, name: str) -> None:
    ok = at.space is not AddressSpace.GLOBAL or at.access.writes
    ctx.require(ok, node, f"write to {name}, which is {at.access.value} (not writable)")


def _load(ctx: _Ctx, e: n.Load) -> None:
    at = _access(ctx, e, e.array, e.indices, e.check)
    ctx.require(e.type == at.dtype, e, f"load of {at.dtype} array typed {e.type}")


def _shape_of(ctx: _Ctx, e: n.ShapeOf) -> None:
    at = _array(ctx, e.array)
    ctx.require(0 <= e.dim < at.ndim, e, f"shape dim {e.dim} out of range for {at.ndim}-d array")
    ctx.require(e.type == INDEX, e, f"shape is {INDEX}, not {e.type}")


def _work_item(ctx: _Ctx, e: n.WorkItem) -> None:
    ctx.require(e.name in n.WORK_ITEM_FUNCS, e, f"unknown work-item query {e.name!r}")
    ctx.require(e.dim in (0, 1, 2), e, f"{e.name}({e.dim}): dimension must be 0, 1 or 2")
    ctx.require(e.type == INDEX, e, f"{e.name} is {INDEX}, not {e.type}")


def _math_call(ctx: _Ctx, e: n.MathCall) -> None:
    for a in e.args:
        check_expr(ctx, a)
    name, types = e.name, [a.type for a in e.args]
    arity = {**_FLOAT_MATH, **_NUMERIC_MATH, **_PREDICATE_MATH, **_BIT_MATH}.get(name)
    ctx.require(arity is not None, e, f"unknown math function {name!r}")
    ctx.require(len(types) == arity, e, f"{name} takes {arity} arguments, got {len(types)}")
    if name in _PREDICATE_MATH:
        ctx.require(types[0].is_float, e, f"{name} takes a float, got {types[0]}")
        ctx.require(e.type == boolean, e, f"{name} returns bool, not {e.type}")
        return
    if name in _BIT_MATH:
        at = types[0]
        ctx.require(at.is_int and at.bits in (32, 64), e,
                    f"{name} takes a 32- or 64-bit integer, got {at}")  # fmt: skip
        want = at if name == "brev" else i32
        ctx.require(e.type == want, e, f"{name} returns {want}, not {e.type}")
        return
    _same(ctx, e, e.type, *types)
    numeric_ok = e.type.is_float or (name in _NUMERIC_MATH and e.type.is_int)
    ctx.require(numeric_ok, e, f"{name} is not defined on {e.type}")


def _call(ctx: _Ctx, e: n.Call, as_stmt: bool) -> None:
    try:
        callee = ctx.module.function(e.callee)
    except KeyError:
        raise ctx.fail(e, f"call to unknown function {e.callee!r}") from None
    ctx.require(not callee.is_kernel, e, f"call to kernel {e.callee!r}")
    ctx.require(
        len(e.args) == len(callee.params),
        e,
        f"{e.callee} takes {len(callee.params)} arguments, got {len(e.args)}",
    )
    for p, a in zip(callee.params, e.args, strict=False):
        if isinstance(p.type, ArrayType):
            ctx.require(isinstance(a, n.ArrayRef), e, f"{e.callee}({p.name}) needs an array")
            assert isinstance(a, n.ArrayRef)
            _array_arg(ctx, e, p, _array(ctx, a))
        else:
            ctx.require(isinstance(a, n.Expr), e, f"{e.callee}({p.name}) needs a scalar")
            assert isinstance(a, n.Expr)
            check_expr(ctx, a)
            ctx.require(a.type == p.type, e, f"{e.callee}({p.name}) is {p.type}, got {a.type}")
    if callee.return_type is None:
        ctx.require(as_stmt, e, f"{e.callee} returns nothing: its call must be a statement")
    else:
        ok = e.type == callee.return_type
        ctx.require(ok, e, f"{e.callee} returns {callee.return_type}, call typed {e.type}")


def _array_arg(ctx: _Ctx, e: n.Call, p: n.Param, arg: ArrayType) -> None:
    pt = p.type
    assert isinstance(pt, ArrayType)
    what = f"{e.callee}({p.name}: {pt})"
    ctx.require(arg.dtype == pt.dtype and arg.ndim == pt.ndim, e, f"{what} given {arg}")
    ctx.require(arg.space == pt.space, e, f"{what} given an array in {arg.space.value} memory")
    ctx.require(arg.contiguous or not pt.contiguous, e, f"{what} given a strided array")
    if pt.access.writes:
        _writable(ctx, e, arg, p.name)


def _atomic(ctx: _Ctx, e: n.AtomicRMW) -> None:
    ctx.require(e.op in n.ATOMIC_OPS, e, f"unknown atomic op {e.op!r}")
    at = _access(ctx, e, e.array, e.indices, e.check)
    _writable(ctx, e, at, e.array.name)
    ok = at.space is not AddressSpace.PRIVATE
    ctx.require(ok, e, f"atomic on {e.array.name}, a private array (only one work-item sees it)")
    ctx.require(atomic_supports(e.op, at.dtype), e, f"atomic_{e.op} is not supported on {at.dtype}")
    check_expr(ctx, e.value)
    ctx.require(e.value.type == at.dtype, e, f"atomic value is {e.value.type}, not {at.dtype}")
    ctx.require((e.compare is not None) == (e.op == "cas"), e,
                "atomic_cas (and only it) has a compare operand")  # fmt: skip
    if e.compare is not None:
        check_expr(ctx, e.compare)
        ctx.require(e.compare.type == at.dtype, e,
                    f"atomic compare operand is {e.compare.type}, not {at.dtype}")  # fmt: skip
    ctx.require(e.type == at.dtype, e, f"atomic result typed {e.type}, not {at.dtype}")


_EXPR_RULES: dict[type[n.Expr], Callable[[_Ctx, Any], None]] = {
    n.Const: _const,
    n.Var: _var,
    n.Unary: _unary,
    n.Binary: _binary,
    n.Compare: _compare,
    n.Logical: _logical,
    n.Select: _select,
    n.Cast: _cast,
    n.Load: _load,
    n.ShapeOf: _shape_of,
    n.WorkItem: _work_item,
    n.MathCall: _math_call,
    n.Call: lambda ctx, e: None,  # dispatched in check_expr (needs as_stmt)
    n.AtomicRMW: _atomic,
}


# --------------------------------------------------------------------------------------------
# Statements
# --------------------------------------------------------------------------------------------


def check_block(ctx: _Ctx, body: tuple[n.Stmt, ...]) -> None:
    """Verify each statement of ``body``."""
    for s in body:
        rule = _STMT_RULES.get(type(s))
        if rule is None:
            raise ctx.fail(s if isinstance(s, n.Node) else None, f"not a statement: {s!r}")
        rule(ctx, s)


def _cond(ctx: _Ctx, node: n.Node, cond: n.Expr) -> None:
    check_expr(ctx, cond)
    ctx.require(cond.type == boolean, node, f"condition is {cond.type}, not bool")


def _assign(ctx: _Ctx, s: n.Assign) -> None:
    check_expr(ctx, s.value)
    declared = ctx.scalars.get(s.target)
    ctx.require(declared is not None, s, f"assignment to undeclared variable {s.target!r}")
    ctx.require(declared == s.value.type, s, f"{s.target} is {declared}, assigned {s.value.type}")


def _store(ctx: _Ctx, s: n.Store) -> None:
    at = _access(ctx, s, s.array, s.indices, s.check)
    _writable(ctx, s, at, s.array.name)
    check_expr(ctx, s.value)
    ctx.require(s.value.type == at.dtype, s, f"store of {s.value.type} into {at.dtype} array")


def _if(ctx: _Ctx, s: n.If) -> None:
    _cond(ctx, s, s.cond)
    check_block(ctx, s.body)
    check_block(ctx, s.orelse)


def _loop_body(ctx: _Ctx, body: tuple[n.Stmt, ...]) -> None:
    ctx.loops += 1
    try:
        check_block(ctx, body)
    finally:
        ctx.loops -= 1


def _for_range(ctx: _Ctx, s: n.ForRange) -> None:
    t = ctx.scalars.get(s.var)
    ctx.require(t is not None, s, f"loop variable {s.var!r} is not declared")
    assert t is not None
    ctx.require(t.is_int, s, f"loop variable {s.var} is {t}, not an integer")
    for part in (s.start, s.stop, s.step):
        check_expr(ctx, part)
        ctx.require(part.type == t, s, f"range bound is {part.type}, loop variable is {t}")
    _loop_body(ctx, s.body)


def _while(ctx: _Ctx, s: n.While) -> None:
    _cond(ctx, s, s.cond)
    _loop_body(ctx, s.body)


def _jump(ctx: _Ctx, s: n.Stmt) -> None:
    ctx.require(ctx.loops > 0, s, f"{type(s).__name__.lower()} outside a loop")


def _return(ctx: _Ctx, s: n.Return) -> None:
    rt = ctx.fn.return_type
    if s.value is None:
        ctx.require(rt is None, s, f"return without a value in a function returning {rt}")
        return
    check_expr(ctx, s.value)
    ctx.require(rt is not None, s, "return with a value in a function returning nothing")
    ctx.require(s.value.type == rt, s, f"returns {s.value.type}, declared {rt}")


def _expr_stmt(ctx: _Ctx, s: n.ExprStmt) -> None:
    ok = isinstance(s.expr, n.Call | n.AtomicRMW)
    ctx.require(ok, s, "expression statement must be a call or an atomic")
    check_expr(ctx, s.expr, as_stmt=True)


def _barrier(ctx: _Ctx, s: n.Barrier) -> None:
    ctx.require(ctx.fn.is_kernel, s, "barrier outside a kernel (device functions cannot sync)")


_STMT_RULES: dict[type[n.Stmt], Callable[[_Ctx, Any], None]] = {
    n.Assign: _assign,
    n.Store: _store,
    n.If: _if,
    n.ForRange: _for_range,
    n.While: _while,
    n.Break: _jump,
    n.Continue: _jump,
    n.Return: _return,
    n.ExprStmt: _expr_stmt,
    n.Barrier: _barrier,
}


# --------------------------------------------------------------------------------------------
# Functions and the module
# --------------------------------------------------------------------------------------------


def _function_ctx(module: n.Module, fn: n.Function) -> _Ctx:
    ctx = _Ctx(module, fn)
    for p in fn.params:
        ctx.require(p.name not in ctx.scalars and p.name not in ctx.arrays, p, f"{p.name} twice")
        if isinstance(p.type, ArrayType):
            ok = p.type.space is AddressSpace.GLOBAL or not fn.is_kernel
            ctx.require(ok, p, f"kernel parameter {p.name} is not in global memory")
            ctx.arrays[p.name] = p.type
        else:
            ctx.scalars[p.name] = p.type
    for name, t in fn.locals.items():
        owned = {x.name for x in fn.shared} | {x.name for x in fn.private}
        taken = name in ctx.scalars or name in ctx.arrays or name in owned
        ctx.require(not taken, fn, f"local {name!r} shadows a parameter or array")
        ctx.require(isinstance(t, ScalarType), fn, f"local {name!r} is not a scalar")
        ctx.scalars[name] = t
    ctx.require(fn.is_kernel or not fn.shared, fn, "shared arrays outside a kernel")
    for sh in fn.shared:
        st = sh.type
        ctx.require(sh.name not in ctx.arrays, sh, f"shared array {sh.name!r} declared twice")
        ctx.require(st.space is AddressSpace.SHARED, sh, f"{sh.name} is not in shared memory")
        shape = st.static_shape
        ok = shape is not None and len(shape) == st.ndim and all(d > 0 for d in shape)
        ctx.require(ok, sh, f"shared array {sh.name} needs a positive static shape")
        ctx.require(st.contiguous, sh, f"shared array {sh.name} must be contiguous")
        ctx.arrays[sh.name] = st
    for pa in fn.private:
        _static_array(ctx, pa, AddressSpace.PRIVATE, "private")
        taken = pa.name in ctx.arrays or pa.name in ctx.scalars
        ctx.require(not taken, pa, f"private array {pa.name!r} shadows another name")
        ctx.arrays[pa.name] = pa.type
    return ctx


def _static_array(ctx: _Ctx, decl: n.PrivateArray | n.SharedArray, space: AddressSpace,
                  what: str) -> None:  # fmt: skip
    at = decl.type
    ctx.require(at.space is space, decl, f"{decl.name} is not in {space.value} memory")
    shape = at.static_shape
    ok = shape is not None and len(shape) == at.ndim and all(d > 0 for d in shape)
    ctx.require(ok, decl, f"{what} array {decl.name} needs a positive static shape")
    ctx.require(at.contiguous, decl, f"{what} array {decl.name} must be contiguous")
    ctx.require(at.access.writes, decl, f"{what} array {decl.name} must be writable")


def verify_function(module: n.Module, fn: n.Function) -> None:
    """Verify one function of ``module``."""
    ctx = _function_ctx(module, fn)
    if fn.is_kernel:
        ctx.require(fn.return_type is None, fn, "a kernel returns nothing")
    check_block(ctx, fn.body)


def _calls(body: tuple[n.Stmt, ...]) -> set[str]:
    found: set[str] = set()

    def visit(x: object) -> None:
        if isinstance(x, n.Call):
            found.add(x.callee)
        if isinstance(x, n.Node):
            for v in vars(x).values():
                visit(v)
        elif isinstance(x, tuple):
            for v in x:
                visit(v)

    visit(body)
    return found


def _check_module(module: n.Module) -> None:
    k = module.kernel
    if not k.is_kernel:
        raise IRVerifyError(f"{k.name}: Module.kernel is not marked is_kernel")
    names = [k.name]
    for pos, f in enumerate(module.functions):
        if f.is_kernel:
            raise IRVerifyError(f"{f.name}: a kernel among Module.functions")
        if f.name in names:
            raise IRVerifyError(f"{f.name}: function defined twice")
        # Callees before callers: a call may only name a function listed earlier, which
        # also rules out recursion (direct or mutual).
        for callee in sorted(_calls(f.body)):
            if callee not in {g.name for g in module.functions[:pos]}:
                raise IRVerifyError(
                    f"{f.name}: calls {callee!r}, which is not defined before it "
                    "(recursion, or functions not ordered callees first)"
                )
        names.append(f.name)
    for i, c in enumerate(module.checks):
        if c.id != i + 1:
            raise IRVerifyError(f"Module.checks[{i}] has id {c.id}, expected {i + 1}")


def verify(module: n.Module) -> None:
    """Check every rule of the IR on ``module``; raise ``IRVerifyError`` on the first broken one."""
    _check_module(module)
    for fn in (*module.functions, module.kernel):
        verify_function(module, fn)
