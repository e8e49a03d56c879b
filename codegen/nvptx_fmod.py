"""The exact floating-point remainder (C's ``fmod``) in LLVM IR, for NVPTX.

LLVM's NVPTX backend lowers ``frem`` to ``x - trunc(x / y) * y`` (one fused multiply-add),
which is wrong as soon as the quotient does not fit the mantissa: ``fmod(1e300, 7.0)`` must be
1.0. The IR's ``%`` and ``//`` on floats (``ir.nodes.Binary``) are built on the exact
remainder, so the CUDA target calls ``gpuoff.fmod.f64`` instead: the shift-and-subtract
division of the two mantissas (as musl's ``fmod``), one bit per iteration, at most the
exponent difference (about 2100 for f64) iterations, all in integer arithmetic, hence exact.
f32 and f16 go through f64: the remainder is exactly representable in the narrow type, so
rounding it back changes nothing. The code uses only integer and bit instructions, so the
host compiles it too, which is how the unit tests check it against ``math.fmod``.
"""

from __future__ import annotations

from llvmlite import ir as ll

from gpuoff.ir import types as t

F64 = ll.DoubleType()
I64 = ll.IntType(64)
I1 = ll.IntType(1)
_MANT = (1 << 52) - 1
_HIDDEN = 1 << 52
_ABS = (1 << 63) - 1
_INF_BITS = 0x7FF << 52


def _c(v: int) -> ll.Constant:
    return ll.Constant(I64, v)


def fmod_function(llmod: ll.Module, st: t.ScalarType) -> ll.Function:
    """``gpuoff.fmod.<f16|f32|f64>``: the exact remainder of ``x / y`` with the sign of ``x``
    (C99 ``fmod``: NaN for ``y == 0``, an infinite ``x`` or a NaN; ``x`` for an infinite
    ``y``), defined once per module."""
    wide = _define_f64(llmod)
    if st.bits == 64:
        return wide
    name = f"gpuoff.fmod.f{st.bits}"
    existing = llmod.globals.get(name)
    if isinstance(existing, ll.Function):
        return existing
    ty = ll.FloatType() if st.bits == 32 else ll.HalfType()
    fn = ll.Function(llmod, ll.FunctionType(ty, [ty, ty]), name=name)
    fn.linkage = "internal"
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    x, y = (b.fpext(a, F64) for a in fn.args)
    b.ret(b.fptrunc(b.call(wide, [x, y]), ty))
    return fn


def _ctlz(b: ll.IRBuilder, v: ll.Value) -> ll.Value:
    mod = b.module
    fn = mod.globals.get("llvm.ctlz.i64")
    if not isinstance(fn, ll.Function):
        fn = ll.Function(mod, ll.FunctionType(I64, [I64, I1]), name="llvm.ctlz.i64")
    return b.call(fn, [v, ll.Constant(I1, 0)])


def _mantissa(b: ll.IRBuilder, mag: ll.Value) -> tuple[ll.Value, ll.Value]:
    """(mantissa with the leading one at bit 52, unbiased-by-1075 exponent) of a finite,
    non-zero magnitude; subnormals are normalised."""
    e = b.lshr(mag, _c(52))
    normal = b.icmp_unsigned("!=", e, _c(0))
    shift = b.sub(_ctlz(b, mag), _c(11))  # subnormal: bring the top bit to bit 52
    m_normal = b.or_(b.and_(mag, _c(_MANT)), _c(_HIDDEN))
    m_sub = b.shl(mag, shift)
    e_sub = b.sub(_c(1), shift)
    return b.select(normal, m_normal, m_sub), b.select(normal, e, e_sub)


def _define_f64(llmod: ll.Module) -> ll.Function:
    name = "gpuoff.fmod.f64"
    existing = llmod.globals.get(name)
    if isinstance(existing, ll.Function):
        return existing
    fn = ll.Function(llmod, ll.FunctionType(F64, [F64, F64]), name=name)
    fn.linkage = "internal"
    x, y = fn.args
    names = ("entry", "special", "small", "work", "loop", "step", "shift", "zero", "tail", "done")
    blk = {k: fn.append_basic_block(k) for k in names}
    b = ll.IRBuilder(blk["entry"])
    ux = b.bitcast(x, I64)
    uy = b.bitcast(y, I64)
    sign = b.and_(ux, _c(1 << 63))
    ax = b.and_(ux, _c(_ABS))
    ay = b.and_(uy, _c(_ABS))
    special = b.or_(
        b.or_(b.icmp_unsigned("==", ay, _c(0)), b.icmp_unsigned(">", ay, _c(_INF_BITS))),
        b.icmp_unsigned(">=", ax, _c(_INF_BITS)),
    )  # y zero or NaN, x infinite or NaN
    b.cbranch(special, blk["special"], blk["small"])

    b.position_at_end(blk["special"])
    p = b.fmul(x, y)
    b.ret(b.fdiv(p, p))  # NaN (x * y is NaN, infinite or 0 here)

    b.position_at_end(blk["small"])  # |x| <= |y|: the result is x, or a zero if equal
    zero = b.bitcast(sign, F64)
    with b.if_then(b.icmp_unsigned("<", ax, ay)):
        b.ret(x)
    with b.if_then(b.icmp_unsigned("==", ax, ay)):
        b.ret(zero)
    b.branch(blk["work"])

    b.position_at_end(blk["work"])
    mx0, ex0 = _mantissa(b, ax)
    my, ey = _mantissa(b, ay)
    b.branch(blk["loop"])

    # while ex > ey: subtract my if it fits, then shift one bit (exact integer division)
    b.position_at_end(blk["loop"])
    mx = b.phi(I64)
    ex = b.phi(I64)
    mx.add_incoming(mx0, blk["work"])
    ex.add_incoming(ex0, blk["work"])
    b.cbranch(b.icmp_signed(">", ex, ey), blk["step"], blk["tail"])

    b.position_at_end(blk["step"])
    diff = b.sub(mx, my)
    fits = b.icmp_signed(">=", diff, _c(0))
    b.cbranch(b.and_(fits, b.icmp_unsigned("==", diff, _c(0))), blk["zero"], blk["shift"])
    b.position_at_end(blk["shift"])
    kept = b.select(fits, diff, mx)
    mx.add_incoming(b.shl(kept, _c(1)), blk["shift"])
    ex.add_incoming(b.sub(ex, _c(1)), blk["shift"])
    b.branch(blk["loop"])

    b.position_at_end(blk["zero"])
    b.ret(zero)

    b.position_at_end(blk["tail"])
    diff = b.sub(mx, my)
    fits = b.icmp_signed(">=", diff, _c(0))
    with b.if_then(b.and_(fits, b.icmp_unsigned("==", diff, _c(0)))):
        b.ret(zero)
    r = b.select(fits, diff, mx)  # 0 < r < my < 2**53
    shift = b.sub(_ctlz(b, r), _c(11))
    r = b.shl(r, shift)
    e = b.sub(ex, shift)
    normal = b.icmp_signed(">", e, _c(0))
    bits_normal = b.or_(b.sub(r, _c(_HIDDEN)), b.shl(e, _c(52)))
    bits_sub = b.lshr(r, b.sub(_c(1), e))
    bits = b.or_(b.select(normal, bits_normal, bits_sub), sign)
    b.branch(blk["done"])

    b.position_at_end(blk["done"])
    b.ret(b.bitcast(bits, F64))
    return fn
