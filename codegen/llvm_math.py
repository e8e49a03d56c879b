"""``MathCall`` lowering shared by the LLVM targets: LLVM intrinsics where LLVM has one, libm
calls (``atan2f``/``atan2``, resolved by the CPU JIT from the process's libm) for the rest, and
plain IR for what is a compare and a select or a few bit operations (``sign``, ``fdim``,
``nextafter``, ``isfinite``, ``signbit``, integer ``abs``/``min``/``max``/``sign`` and the bit
intrinsics ``popc``/``clz``/``ffs``/``brev`` as ``llvm.ctpop``/``ctlz``/``cttz``/
``bitreverse``). Targets without a libm (NVPTX) replace the libm names before this runs
(``codegen.nvptx_math``). f16 goes through f32 for libm functions.
"""

from __future__ import annotations

from llvmlite import ir as ll

from codegen.llvm_base import I1, Lowering, llvm_type
from gpuoff.ir import types as t

I32 = ll.IntType(32)

DIRECT_INTRINSICS = {
    "sqrt": "sqrt", "exp": "exp", "exp2": "exp2", "log": "log", "log2": "log2",
    "log10": "log10", "sin": "sin", "cos": "cos", "pow": "pow", "floor": "floor",
    "ceil": "ceil", "trunc": "trunc", "round": "round", "rint": "rint", "fma": "fma",
    "copysign": "copysign",
}  # fmt: skip
"""IR name -> ``llvm.<name>.f<bits>`` (``llvm.round`` rounds halves away from zero, as C's)."""

LIBM = (
    "tan", "tanh", "erf", "erfc", "asin", "acos", "atan", "atan2", "sinh", "cosh", "asinh",
    "acosh", "atanh", "expm1", "log1p", "cbrt", "hypot", "lgamma", "tgamma", "fmod",
    "remainder", "exp10",
)  # fmt: skip
"""Functions lowered as calls of C's libm (``name`` for f64, ``namef`` for f32). ``fmod`` is a
call, not LLVM's ``frem``, whose NVPTX lowering is inexact."""

PREDICATES = ("isnan", "isinf", "isfinite", "signbit")
BIT_INTRINSICS = ("popc", "clz", "ffs", "brev")


def fsuffix(ty: ll.Type) -> str:
    """``f16``, ``f32`` or ``f64``: the suffix of LLVM intrinsics on float type ``ty``."""
    return {"half": "f16", "float": "f32", "double": "f64"}[str(ty)]


def default_math(fl: Lowering, name: str, args: list[ll.Value], st: t.ScalarType) -> ll.Value:
    """Lower math function ``name`` of ``args``; ``st`` is the arguments' type (for the
    predicates and bit intrinsics) or the result's (the others: they are the same)."""
    b = fl.builder
    fm = fl.ml.fastmath
    if not st.is_float:
        return _int_math(fl, name, args, st)
    ty = llvm_type(st)
    sfx = fsuffix(ty)
    if name in DIRECT_INTRINSICS:
        fn = fl.ml.declare(f"llvm.{DIRECT_INTRINSICS[name]}.{sfx}", ty, [ty] * len(args))
        return b.call(fn, args, fastmath=fm)
    if name in ("min", "max"):
        # NumPy's minimum/maximum (ir.nodes.MathCall): ``x if x < y or isnan(x) else y``, so
        # a NaN operand gives NaN and of equal values (-0.0, 0.0) the second is chosen. A
        # compare and a select, which vectorise.
        x, y = args
        keep = b.fcmp_ordered(">" if name == "max" else "<", x, y)
        return b.select(b.or_(keep, b.fcmp_unordered("uno", x, x)), x, y)
    if name == "abs":
        return b.call(fl.ml.declare(f"llvm.fabs.{sfx}", ty, [ty]), args)
    if name == "rsqrt":
        root = b.call(fl.ml.declare(f"llvm.sqrt.{sfx}", ty, [ty]), args, fastmath=fm)
        return b.fdiv(ll.Constant(ty, 1.0), root, flags=fm)
    if name in PREDICATES:
        return _predicate(fl, name, args[0], st)
    if name in ("sign", "fdim", "nextafter"):
        return _float_select(fl, name, args, st)
    if name in LIBM:
        if st.bits == 16:
            wide = [b.fpext(a, ll.FloatType()) for a in args]
            r = default_math(fl, name, wide, t.f32)
            return b.fptrunc(r, ty)
        cname = name + ("f" if st.bits == 32 else "")
        fn = fl.ml.declare(cname, ty, [ty] * len(args))
        return b.call(fn, args, fastmath=fm)
    raise NotImplementedError(f"math function {name}")


def _predicate(fl: Lowering, name: str, x: ll.Value, st: t.ScalarType) -> ll.Value:
    b = fl.builder
    ty = llvm_type(st)
    if name == "isnan":
        return b.fcmp_unordered("uno", x, x)
    if name == "signbit":  # the sign bit itself: true for -0.0 and for negative NaNs
        ity = ll.IntType(st.bits)
        return b.icmp_signed("<", b.bitcast(x, ity), ll.Constant(ity, 0))
    mag = b.call(fl.ml.declare(f"llvm.fabs.{fsuffix(ty)}", ty, [ty]), [x])
    inf = ll.Constant(ty, float("inf"))
    return b.fcmp_ordered("==" if name == "isinf" else "<", mag, inf)


def _float_select(fl: Lowering, name: str, args: list[ll.Value], st: t.ScalarType) -> ll.Value:
    """``sign``, ``fdim`` and ``nextafter`` as compares and selects (they vectorise, and every
    target has them: no libm)."""
    b = fl.builder
    ty = llvm_type(st)
    x = args[0]
    nan_x = b.fcmp_unordered("uno", x, x)
    zero = ll.Constant(ty, 0.0)
    if name == "sign":  # NumPy's: +0.0 for both zeros, NaN stays NaN
        r = b.select(nan_x, x, zero)
        r = b.select(b.fcmp_ordered("<", x, zero), ll.Constant(ty, -1.0), r)
        return b.select(b.fcmp_ordered(">", x, zero), ll.Constant(ty, 1.0), r)
    y = args[1]
    either_nan = b.fcmp_unordered("uno", x, y)
    if name == "fdim":
        r = b.select(b.fcmp_ordered(">", x, y), b.fsub(x, y), zero)
        return b.select(either_nan, b.fadd(x, y), r)
    # nextafter: one step of the bit pattern (its magnitude grows when y lies beyond x, away
    # from zero); from a zero, the smallest subnormal with y's sign; x == y gives y.
    ity = ll.IntType(st.bits)
    xi = b.bitcast(x, ity)
    away = b.icmp_unsigned("==", b.fcmp_ordered("<", x, y), b.fcmp_ordered(">", x, zero))
    step = b.select(away, ll.Constant(ity, 1), ll.Constant(ity, -1))
    r = b.bitcast(b.add(xi, step), ty)
    sign_y = b.and_(b.bitcast(y, ity), ll.Constant(ity, 1 << (st.bits - 1)))
    tiny = b.bitcast(b.or_(sign_y, ll.Constant(ity, 1)), ty)
    r = b.select(b.fcmp_ordered("==", x, zero), tiny, r)
    r = b.select(b.fcmp_ordered("==", x, y), y, r)
    return b.select(either_nan, b.fadd(x, y), r)


def _int_math(fl: Lowering, name: str, args: list[ll.Value], st: t.ScalarType) -> ll.Value:
    b = fl.builder
    ty = llvm_type(st)
    sfx = f"i{st.bits}"
    x = args[0]
    zero = ll.Constant(ty, 0)
    if name in BIT_INTRINSICS:
        return _bits(fl, name, x, st)
    if name == "abs":
        if not st.is_signed:
            return x
        fn = fl.ml.declare(f"llvm.abs.{sfx}", ty, [ty, I1])
        return b.call(fn, [x, ll.Constant(I1, 0)])
    if name == "sign":
        r = b.zext(b.icmp_unsigned("!=", x, zero), ty)
        if not st.is_signed:
            return r
        return b.select(b.icmp_signed("<", x, zero), ll.Constant(ty, -1), r)
    if name in ("min", "max"):
        kind = ("s" if st.is_signed else "u") + name
        return b.call(fl.ml.declare(f"llvm.{kind}.{sfx}", ty, [ty, ty]), args)
    raise NotImplementedError(f"integer math function {name}")


def _bits(fl: Lowering, name: str, x: ll.Value, st: t.ScalarType) -> ll.Value:
    """CUDA's ``__popc``, ``__clz``, ``__ffs`` (i32 results) and ``__brev`` on 32- and 64-bit
    integers (the verifier admits no other widths)."""
    b = fl.builder
    ty = llvm_type(st)
    sfx = f"i{st.bits}"
    if name == "brev":
        return b.call(fl.ml.declare(f"llvm.bitreverse.{sfx}", ty, [ty]), [x])
    if name == "popc":
        r = b.call(fl.ml.declare(f"llvm.ctpop.{sfx}", ty, [ty]), [x])
    elif name == "clz":  # defined at 0 (the width), as CUDA's __clz(0) == 32
        r = b.call(fl.ml.declare(f"llvm.ctlz.{sfx}", ty, [ty, I1]), [x, ll.Constant(I1, 0)])
    else:  # ffs: 1 + the trailing zeros, 0 for 0
        tz = b.call(fl.ml.declare(f"llvm.cttz.{sfx}", ty, [ty, I1]), [x, ll.Constant(I1, 0)])
        is0 = b.icmp_unsigned("==", x, ll.Constant(ty, 0))
        r = b.select(is0, ll.Constant(ty, 0), b.add(tz, ll.Constant(ty, 1)))
    return b.trunc(r, I32) if st.bits > 32 else r
