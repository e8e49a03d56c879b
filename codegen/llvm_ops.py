"""Expression lowering: IR expressions -> LLVM values, with the IR's exact semantics.

Python floor division and modulo (ints and floats), integer division by zero -> 0 without a
trap, masked shift counts, saturating float -> int casts, short-circuit ``Logical``/``Select``.
"""

from __future__ import annotations

from collections.abc import Callable

from llvmlite import ir as ll

from codegen.llvm_base import I1, I64, Lowering, const, llvm_type, memory_type
from codegen.llvm_math import BIT_INTRINSICS, PREDICATES, default_math
from codegen.llvm_math import fsuffix as _fsuffix
from gpuoff.ir import nodes as n
from gpuoff.ir import types as t


def lower_expr(fl: Lowering, e: n.Expr) -> ll.Value:
    """Lower expression ``e`` at ``fl.builder``'s position and return its value."""
    handler = _HANDLERS.get(type(e))
    if handler is None:
        raise NotImplementedError(f"LLVM lowering of {type(e).__name__}")
    return handler(fl, e)


def _const(fl: Lowering, e: n.Expr) -> ll.Value:
    assert isinstance(e, n.Const)
    return const(e.type, e.value)


def _var(fl: Lowering, e: n.Expr) -> ll.Value:
    assert isinstance(e, n.Var)
    return fl.builder.load(fl.slots[e.name], typ=llvm_type(e.type))


def _unary(fl: Lowering, e: n.Expr) -> ll.Value:
    assert isinstance(e, n.Unary)
    b = fl.builder
    v = fl.expr(e.operand)
    if e.op == "neg":
        if e.type.is_float:
            return b.fneg(v, flags=fl.ml.fastmath)
        return b.sub(ll.Constant(v.type, 0), v)
    if e.op == "not":
        return b.xor(v, ll.Constant(I1, 1))
    return b.xor(v, ll.Constant(v.type, -1))


def _binary(fl: Lowering, e: n.Expr) -> ll.Value:
    assert isinstance(e, n.Binary)
    lhs = fl.expr(e.lhs)
    rhs = fl.expr(e.rhs)
    return binary_op(fl, e.op, e.type, lhs, rhs)


def binary_op(
    fl: Lowering, op: str, st: t.ScalarType, a: ll.Value, b_: ll.Value
) -> ll.Value:
    """``a op b`` on values of scalar type ``st`` (``ir.nodes.Binary`` semantics)."""
    b = fl.builder
    fm = fl.ml.fastmath
    if st.is_float:
        simple = {"add": b.fadd, "sub": b.fsub, "mul": b.fmul, "truediv": b.fdiv}
        if op in simple:
            return simple[op](a, b_, flags=fm)
        if op in ("floordiv", "mod"):
            return _float_floordiv_mod(fl, op, st, a, b_)
        if op == "pow":
            return fl.math_call("pow", [a, b_], st)
        raise NotImplementedError(f"float {op}")
    if op == "add":
        return b.add(a, b_)
    if op == "sub":
        return b.sub(a, b_)
    if op == "mul":
        return b.mul(a, b_)
    if op in ("floordiv", "mod"):
        return _int_floordiv_mod(fl, op, st, a, b_)
    if op == "pow":
        return _int_pow(fl, st, a, b_)
    if op in ("bitand", "bitor", "bitxor"):
        return {"bitand": b.and_, "bitor": b.or_, "bitxor": b.xor}[op](a, b_)
    if op in ("lshift", "rshift"):
        count = b.and_(b_, ll.Constant(b_.type, st.bits - 1))
        if op == "lshift":
            return b.shl(a, count)
        return b.ashr(a, count) if st.is_signed else b.lshr(a, count)
    raise NotImplementedError(f"int {op}")


def _int_floordiv_mod(
    fl: Lowering, op: str, st: t.ScalarType, a: ll.Value, d: ll.Value
) -> ll.Value:
    b = fl.builder
    ty = a.type
    zero = ll.Constant(ty, 0)
    one = ll.Constant(ty, 1)
    is_zero = b.icmp_unsigned("==", d, zero)
    if not st.is_signed:
        safe = b.select(is_zero, one, d)
        r = b.udiv(a, safe) if op == "floordiv" else b.urem(a, safe)
        return b.select(is_zero, zero, r)
    # Divisor 0 and -1 are special-cased: no trap, and INT_MIN // -1 wraps like Python mod 2^n.
    minus_one = b.icmp_signed("==", d, ll.Constant(ty, -1))
    safe = b.select(b.or_(is_zero, minus_one), one, d)
    q = b.sdiv(a, safe)
    r = b.srem(a, safe)
    # Floor: when the remainder is non-zero and its sign differs from the divisor's.
    adjust = b.and_(b.icmp_signed("!=", r, zero), b.icmp_signed("<", b.xor(r, d), zero))
    if op == "floordiv":
        q = b.select(adjust, b.sub(q, one), q)
        q = b.select(minus_one, b.sub(zero, a), q)
        return b.select(is_zero, zero, q)
    r = b.select(adjust, b.add(r, d), r)
    return b.select(b.or_(is_zero, minus_one), zero, r)


def _float_floordiv_mod(fl: Lowering, op: str, st: t.ScalarType, a: ll.Value, d: ll.Value
                        ) -> ll.Value:  # fmt: skip
    """NumPy's ``npy_divmod`` (Python's rule; ``a / b`` for a zero divisor), branch-free."""
    b = fl.builder
    ty = a.type
    fzero = ll.Constant(ty, 0.0)
    m = fl.frem(a, d, st)
    m_nonzero = b.fcmp_unordered("!=", m, fzero)
    signs_differ = b.xor(b.fcmp_ordered("<", d, fzero), b.fcmp_ordered("<", m, fzero))
    fix = b.and_(m_nonzero, signs_differ)
    copysign = fl.ml.declare(f"llvm.copysign.{_fsuffix(ty)}", ty, [ty, ty])
    if op == "mod":
        return b.select(
            m_nonzero, b.select(fix, b.fadd(m, d), m), b.call(copysign, [fzero, d])
        )
    div = b.fdiv(b.fsub(a, m), d)
    div = b.select(fix, b.fsub(div, ll.Constant(ty, 1.0)), div)
    floor = fl.ml.declare(f"llvm.floor.{_fsuffix(ty)}", ty, [ty])
    fd = b.call(floor, [div])
    fd = b.select(
        b.fcmp_ordered(">", b.fsub(div, fd), ll.Constant(ty, 0.5)),
        b.fadd(fd, ll.Constant(ty, 1.0)),
        fd,
    )
    div_zero = b.fcmp_ordered("==", div, fzero)
    fd = b.select(div_zero, b.call(copysign, [fzero, b.fdiv(a, d)]), fd)
    # NumPy (npy_divmod): a zero divisor gives a / b (inf or nan).
    return b.select(b.fcmp_ordered("==", d, fzero), b.fdiv(a, d), fd)


def _int_pow(fl: Lowering, st: t.ScalarType, base: ll.Value, exp: ll.Value) -> ll.Value:
    """Square-and-multiply; a negative exponent gives 0."""
    b = fl.builder
    ty = base.type
    pre = b.block
    head = fl.new_block("ipow.head")
    step = fl.new_block("ipow.step")
    end = fl.new_block("ipow.end")
    b.branch(head)
    b.position_at_end(head)
    acc = b.phi(ty)
    bb = b.phi(ty)
    ee = b.phi(ty)
    acc.add_incoming(ll.Constant(ty, 1), pre)
    bb.add_incoming(base, pre)
    ee.add_incoming(exp, pre)
    more = b.icmp_signed(">", ee, ll.Constant(ty, 0)) if st.is_signed else b.icmp_unsigned(
        "!=", ee, ll.Constant(ty, 0)
    )
    b.cbranch(more, step, end)
    b.position_at_end(step)
    odd = b.trunc(ee, I1)
    acc.add_incoming(b.select(odd, b.mul(acc, bb), acc), step)
    bb.add_incoming(b.mul(bb, bb), step)
    ee.add_incoming(b.lshr(ee, ll.Constant(ty, 1)), step)
    b.branch(head)
    b.position_at_end(end)
    if not st.is_signed:
        return acc
    negative = b.icmp_signed("<", exp, ll.Constant(ty, 0))
    return b.select(negative, ll.Constant(ty, 0), acc)


def _compare(fl: Lowering, e: n.Expr) -> ll.Value:
    assert isinstance(e, n.Compare)
    a = fl.expr(e.lhs)
    c = fl.expr(e.rhs)
    sym = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}[e.op]
    st = e.lhs.type
    b = fl.builder
    if st.is_float:
        if e.op == "ne":
            return b.fcmp_unordered(sym, a, c)
        return b.fcmp_ordered(sym, a, c)
    if st.is_signed:
        return b.icmp_signed(sym, a, c)
    return b.icmp_unsigned(sym, a, c)


def _logical(fl: Lowering, e: n.Expr) -> ll.Value:
    assert isinstance(e, n.Logical)
    b = fl.builder
    lhs = fl.expr(e.lhs)
    lhs_end = b.block
    rhs_bb = fl.new_block(f"{e.op}.rhs")
    end = fl.new_block(f"{e.op}.end")
    if e.op == "and":
        b.cbranch(lhs, rhs_bb, end)
    else:
        b.cbranch(lhs, end, rhs_bb)
    b.position_at_end(rhs_bb)
    rhs = fl.expr(e.rhs)
    rhs_end = b.block
    b.branch(end)
    b.position_at_end(end)
    phi = b.phi(I1)
    phi.add_incoming(ll.Constant(I1, 0 if e.op == "and" else 1), lhs_end)
    phi.add_incoming(rhs, rhs_end)
    return phi


def _select(fl: Lowering, e: n.Expr) -> ll.Value:
    assert isinstance(e, n.Select)
    b = fl.builder
    cond = fl.expr(e.cond)
    tb = fl.new_block("sel.true")
    fb = fl.new_block("sel.false")
    end = fl.new_block("sel.end")
    b.cbranch(cond, tb, fb)
    b.position_at_end(tb)
    tv = fl.expr(e.if_true)
    t_end = b.block
    b.branch(end)
    b.position_at_end(fb)
    fv = fl.expr(e.if_false)
    f_end = b.block
    b.branch(end)
    b.position_at_end(end)
    phi = b.phi(llvm_type(e.type))
    phi.add_incoming(tv, t_end)
    phi.add_incoming(fv, f_end)
    return phi


def _cast(fl: Lowering, e: n.Expr) -> ll.Value:
    assert isinstance(e, n.Cast)
    return cast_value(fl, fl.expr(e.value), e.value.type, e.type)


def cast_value(fl: Lowering, v: ll.Value, src: t.ScalarType, dst: t.ScalarType) -> ll.Value:
    """Convert ``v`` from ``src`` to ``dst`` (``ir.nodes.Cast`` semantics)."""
    b = fl.builder
    dty = llvm_type(dst)
    if src == dst:
        return v
    if dst.is_bool:
        if src.is_float:
            return b.fcmp_unordered("!=", v, ll.Constant(v.type, 0.0))
        return b.icmp_unsigned("!=", v, ll.Constant(v.type, 0))
    if src.is_bool:
        return b.uitofp(v, dty) if dst.is_float else b.zext(v, dty)
    if src.is_float and dst.is_float:
        return b.fpext(v, dty) if dst.bits > src.bits else b.fptrunc(v, dty)
    if src.is_float:
        kind = "fptosi" if dst.is_signed else "fptoui"
        fn = fl.ml.declare(f"llvm.{kind}.sat.i{dst.bits}.{_fsuffix(v.type)}", dty, [v.type])
        return b.call(fn, [v])
    if dst.is_float:
        return b.sitofp(v, dty) if src.is_signed else b.uitofp(v, dty)
    if dst.bits < src.bits:
        return b.trunc(v, dty)
    if dst.bits > src.bits:
        return b.sext(v, dty) if src.is_signed else b.zext(v, dty)
    return v


def _load(fl: Lowering, e: n.Expr) -> ll.Value:
    assert isinstance(e, n.Load)
    arr, ptr, ok = fl.element_pointer(e.array, e.indices, e.check)
    b = fl.builder
    mty = memory_type(arr.type.dtype)
    align = arr.type.dtype.itemsize
    if ok is None:
        return _from_memory(fl, arr.type.dtype, b.load(ptr, typ=mty, align=align))
    # A conditional load: no access when out of range (masked load once vectorised).
    pre = b.block
    then = fl.new_block("load.ok")
    end = fl.new_block("load.end")
    b.cbranch(ok, then, end)
    b.position_at_end(then)
    v = b.load(ptr, typ=mty, align=align)
    b.branch(end)
    b.position_at_end(end)
    phi = b.phi(mty)
    phi.add_incoming(v, then)
    phi.add_incoming(ll.Constant(mty, None), pre)
    return _from_memory(fl, arr.type.dtype, phi)


def _from_memory(fl: Lowering, st: t.ScalarType, v: ll.Value) -> ll.Value:
    if st.is_bool:
        return fl.builder.icmp_unsigned("!=", v, ll.Constant(v.type, 0))
    return v


def _shape_of(fl: Lowering, e: n.Expr) -> ll.Value:
    assert isinstance(e, n.ShapeOf)
    return fl.arrays[e.array.name].shape[e.dim]


def _work_item(fl: Lowering, e: n.Expr) -> ll.Value:
    assert isinstance(e, n.WorkItem)
    return fl.work_item(e.name, e.dim)


def _math_call(fl: Lowering, e: n.Expr) -> ll.Value:
    assert isinstance(e, n.MathCall)
    args = [fl.expr(a) for a in e.args]
    by_argument = e.name in (*PREDICATES, *BIT_INTRINSICS)
    st = e.args[0].type if by_argument else e.type
    return fl.math_call(e.name, args, st)


def _call(fl: Lowering, e: n.Expr) -> ll.Value:
    assert isinstance(e, n.Call)
    args: list[ll.Value] = []
    for a in e.args:
        if isinstance(a, n.ArrayRef):
            arr = fl.arrays[a.name]
            args += [arr.ptr, *arr.shape, *arr.strides]
        else:
            args.append(fl.expr(a))
    err_state, check_mode = fl.call_check_state()
    args.append(err_state)
    # A callee that may record a failure exactly (check mode not the constant 1 of a fast row)
    # names the failing work-item, so it needs the work-item block too.
    folds = isinstance(check_mode, ll.Constant) and check_mode.constant == 1
    records = e.callee in fl.ml.checks and not folds
    needs_wi = (e.callee in fl.ml.uses_wi or records) and fl.device_wi_context
    args.append(fl.fill_wi_context() if needs_wi else ll.Constant(ll.PointerType(), None))
    args.append(check_mode)
    result = fl.builder.call(fl.ml.functions[e.callee], args)
    return result if fl.ml.ir.function(e.callee).return_type is not None else ll.Constant(I1, 0)


def _atomic(fl: Lowering, e: n.Expr) -> ll.Value:
    assert isinstance(e, n.AtomicRMW)
    arr, ptr, ok = fl.element_pointer(e.array, e.indices, e.check)
    compare = None if e.compare is None else fl.expr(e.compare)
    value = fl.expr(e.value)
    st = arr.type.dtype
    b = fl.builder
    if not fl.side_effects:
        return ll.Constant(llvm_type(st), None)
    if ok is None:
        return fl.atomic_rmw(e.op, ptr, value, st, compare)
    pre = b.block
    then = fl.new_block("atomic.ok")
    end = fl.new_block("atomic.end")
    b.cbranch(ok, then, end)
    b.position_at_end(then)
    old = fl.atomic_rmw(e.op, ptr, value, st, compare)
    then_end = b.block
    b.branch(end)
    b.position_at_end(end)
    phi = b.phi(old.type)
    phi.add_incoming(old, then_end)
    phi.add_incoming(ll.Constant(old.type, None), pre)
    return phi


_HANDLERS: dict[type, Callable[[Lowering, n.Expr], ll.Value]] = {
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
    n.Call: _call,
    n.AtomicRMW: _atomic,
}

__all__ = ["I64", "binary_op", "cast_value", "default_math", "lower_expr"]
