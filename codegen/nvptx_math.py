"""Math functions written in LLVM IR, for targets without a libm (NVPTX: no libdevice here).

``math_function(llmod, name, st)`` returns (defining it once per module) an internal LLVM
function ``gpuoff.<name>.<f32|f64>`` for ``exp, log, log2, sin, cos, tan, tanh, erf, pow``.
It uses only instructions and intrinsics that NVPTX selects natively (``fma``, ``rint``,
``fabs``, ``sqrt``), so the same code compiles for the host too, which is how the unit tests
measure its accuracy against NumPy.

Accuracy (f64, measured in tests/unit/test_codegen_nvptx_math.py): exp, log, log2, sin, cos
within a few ulp for arguments the reduction handles (``|x| < 1e5`` for sin/cos/tan: a
three-part Cody-Waite reduction, no Payne-Hanek); tan, tanh, erf within ~1e-14 relative;
``pow`` as ``exp(y * log|x|)`` loses ``|y log x|`` ulp (about 1e-13 relative near the range
limits). f32 functions evaluate the f64 code and round once: correctly rounded in practice,
except erf (a cheaper f32-grade formula, within 2 ulp like CUDA's ``erff``).
"""

from __future__ import annotations

import math

from llvmlite import ir as ll

from codegen.nvptx_libm import LIBM_BODIES
from codegen.nvptx_mathbase import ARITY, BODIES, F64, I1, I64, define
from codegen.nvptx_mathbase import Emit as _Emit
from gpuoff.ir import types as t

LN2_HI = float.fromhex("0x1.62e42fee00000p-1")  # 1/ln2 times this is exact for |k| < 2^21
LN2_LO = 1.90821492927058770002e-10  # ln2 - LN2_HI (fdlibm)
PIO2_1 = math.pi / 2
PIO2_2 = float.fromhex("0x1.1a62633145c07p-54")  # pi/2 - PIO2_1
PIO2_3 = float.fromhex("-0x1.f1976b7ed8fbcp-110")  # pi/2 - PIO2_1 - PIO2_2
EXP_POLY = [1 / math.factorial(n) for n in range(14)]  # |r| <= ln2/2: error < 1e-17
SIN_POLY = [(-1) ** n / math.factorial(2 * n + 1) for n in range(10)]  # in r^2, times r
COS_POLY = [(-1) ** n / math.factorial(2 * n) for n in range(10)]
ATANH_POLY = [1 / (2 * n + 1) for n in range(13)]  # log(m) = 2 s * P(s^2), |s| <= 0.172
ERF_POLY = [
    2 / math.sqrt(math.pi) * (-1) ** n / (math.factorial(n) * (2 * n + 1)) for n in range(36)
]  # Taylor series of erf(x)/x in x^2, used for |x| < 2
ERFCC_POLY = [-1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807,
              -1.13520398, 1.48851587, -0.82215223, 0.17087277]  # fmt: skip
ERFC_CF_DEPTH = 60  # Laplace continued fraction of erfc, used for 2 <= |x| < 6


def math_function(llmod: ll.Module, name: str, st: t.ScalarType) -> ll.Function:
    """The LLVM function computing ``name`` in ``st`` (f32 or f64), defined on first use."""
    if st.bits == 64:
        return define(llmod, name)
    fname = f"gpuoff.{name}.f{st.bits}"
    existing = llmod.globals.get(fname)
    if isinstance(existing, ll.Function):
        return existing
    fty = ll.FloatType() if st.bits == 32 else ll.HalfType()
    nargs = ARITY.get(name, 1)
    fn = ll.Function(llmod, ll.FunctionType(fty, [fty] * nargs), name=fname)
    fn.linkage = "internal"
    b = ll.IRBuilder(fn.append_basic_block("entry"))
    wide = [b.fpext(a, F64) for a in fn.args]
    if name == "erf":
        # Full f64 erf costs ~60 divisions; f32 needs far less (see _erf_narrow).
        b.ret(b.fptrunc(_erf_narrow(_Emit(llmod, b), wide[0]), fty))
        return fn
    b.ret(b.fptrunc(b.call(define(llmod, name), wide), fty))
    return fn


def _exp(e: _Emit, x: ll.Value) -> ll.Value:
    b = e.b
    k = e.intr("llvm.rint.f64", b.fmul(x, e.c(1 / math.log(2))))
    r = e.fma(b.fneg(k), e.c(LN2_LO), e.fma(b.fneg(k), e.c(LN2_HI), x))
    p = e.horner(r, EXP_POLY)
    # Clamp k so the two-step scaling stays finite to compute; out-of-range x is fixed below.
    ki = b.fptosi(e.intr("llvm.maxnum.f64", e.intr("llvm.minnum.f64", k, e.c(1100.0)),
                         e.c(-1100.0)), I64)  # fmt: skip
    k1 = b.ashr(ki, ll.Constant(I64, 1))
    y = b.fmul(b.fmul(p, e.pow2(k1)), e.pow2(b.sub(ki, k1)))
    y = e.sel(e.cmp(">", x, 709.782712893384), math.inf, y)
    y = e.sel(e.cmp("<", x, -745.2), 0.0, y)
    return e.sel(e.isnan(x), x, y)


def _expm1(e: _Emit, x: ll.Value) -> ll.Value:
    small = e.cmp("<", e.intr("llvm.fabs.f64", x), 0.34)
    poly = e.b.fmul(x, e.horner(x, EXP_POLY[1:]))
    return e.sel(small, poly, e.b.fsub(e.call("exp", x), e.c(1.0)))


def _log_parts(e: _Emit, x: ll.Value) -> tuple[ll.Value, ll.Value]:
    """(exponent as f64, log of the mantissa in [sqrt(1/2), sqrt(2))) for finite x > 0."""
    b = e.b
    sub = e.cmp("<", x, 2.0**-1022)
    xs = e.sel(sub, b.fmul(x, e.c(2.0**54)), x)
    bits = b.bitcast(xs, I64)
    ex = b.sub(b.lshr(bits, ll.Constant(I64, 52)), ll.Constant(I64, 1023))
    ex = b.sub(ex, b.select(sub, ll.Constant(I64, 54), ll.Constant(I64, 0)))
    mbits = b.or_(b.and_(bits, ll.Constant(I64, (1 << 52) - 1)), ll.Constant(I64, 1023 << 52))
    m = b.bitcast(mbits, F64)
    big = e.cmp(">", m, math.sqrt(2))
    m = e.sel(big, b.fmul(m, e.c(0.5)), m)
    ef = b.fadd(b.sitofp(ex, F64), e.sel(big, 1.0, 0.0))
    f = b.fsub(m, e.c(1.0))
    s = b.fdiv(f, b.fadd(f, e.c(2.0)))
    logm = b.fmul(b.fmul(s, e.c(2.0)), e.horner(b.fmul(s, s), ATANH_POLY))
    return ef, logm


def _log_special(e: _Emit, x: ll.Value, y: ll.Value) -> ll.Value:
    y = e.sel(e.cmp("==", x, math.inf), math.inf, y)
    y = e.sel(e.cmp("==", x, 0.0), -math.inf, y)
    y = e.sel(e.cmp("<", x, 0.0), math.nan, y)
    return e.sel(e.isnan(x), x, y)


def _log(e: _Emit, x: ll.Value) -> ll.Value:
    ef, logm = _log_parts(e, x)
    y = e.fma(ef, e.c(LN2_HI), e.fma(ef, e.c(LN2_LO), logm))
    return _log_special(e, x, y)


def _log2(e: _Emit, x: ll.Value) -> ll.Value:
    ef, logm = _log_parts(e, x)
    return _log_special(e, x, e.fma(logm, e.c(1 / math.log(2)), ef))


def _sincos(e: _Emit, x: ll.Value) -> tuple[ll.Value, ll.Value]:
    """(sin x, cos x) after reducing x by multiples of pi/2."""
    b = e.b
    k = e.intr("llvm.rint.f64", b.fmul(x, e.c(2 / math.pi)))
    nk = b.fneg(k)
    r = e.fma(nk, e.c(PIO2_3), e.fma(nk, e.c(PIO2_2), e.fma(nk, e.c(PIO2_1), x)))
    z = b.fmul(r, r)
    s = b.fmul(r, e.horner(z, SIN_POLY))
    c = e.horner(z, COS_POLY)
    q = b.and_(b.fptosi(k, I64), ll.Constant(I64, 3))  # two's complement: k mod 4
    swap = b.trunc(q, I1)
    sin_v = b.select(swap, c, s)
    cos_v = b.select(swap, s, c)
    sin_neg = b.icmp_unsigned(">=", q, ll.Constant(I64, 2))
    cos_neg = b.icmp_unsigned("==", b.and_(b.add(q, ll.Constant(I64, 1)), ll.Constant(I64, 2)),
                              ll.Constant(I64, 2))  # fmt: skip
    sin_v = b.select(sin_neg, b.fneg(sin_v), sin_v)
    cos_v = b.select(cos_neg, b.fneg(cos_v), cos_v)
    bad = e.b.fcmp_unordered("uno", b.fsub(x, x), e.c(0.0))  # inf or NaN
    return e.sel(bad, math.nan, sin_v), e.sel(bad, math.nan, cos_v)


def _sin(e: _Emit, x: ll.Value) -> ll.Value:
    return e.sel(e.cmp("==", x, 0.0), x, _sincos(e, x)[0])  # keeps the sign of -0.0


def _cos(e: _Emit, x: ll.Value) -> ll.Value:
    return _sincos(e, x)[1]


def _tan(e: _Emit, x: ll.Value) -> ll.Value:
    s, c = _sincos(e, x)
    return e.sel(e.cmp("==", x, 0.0), x, e.b.fdiv(s, c))


def _tanh(e: _Emit, x: ll.Value) -> ll.Value:
    b = e.b
    ax = e.intr("llvm.fabs.f64", x)
    m = _expm1(e, b.fmul(ax, e.c(2.0)))
    y = b.fdiv(m, b.fadd(m, e.c(2.0)))
    y = e.sel(e.cmp(">", ax, 22.0), 1.0, y)
    y = e.intr("llvm.copysign.f64", y, x)
    return e.sel(e.isnan(x), x, y)


def _erf(e: _Emit, x: ll.Value) -> ll.Value:
    b = e.b
    ax = e.intr("llvm.fabs.f64", x)
    taylor = b.fmul(ax, e.horner(b.fmul(ax, ax), ERF_POLY))
    # erfc(a) = exp(-a^2) / sqrt(pi) / (a + (1/2)/(a + 1/(a + (3/2)/(a + ...)))), backwards.
    a = e.intr("llvm.maxnum.f64", ax, e.c(2.0))
    f = a
    for k in range(ERFC_CF_DEPTH, 0, -1):
        f = b.fadd(a, b.fdiv(e.c(k / 2), f))
    erfc = b.fdiv(b.fmul(e.call("exp", b.fneg(b.fmul(a, a))), e.c(1 / math.sqrt(math.pi))), f)
    y = e.sel(e.cmp("<", ax, 2.0), taylor, b.fsub(e.c(1.0), erfc))
    y = e.sel(e.cmp(">=", ax, 6.0), 1.0, y)
    y = e.intr("llvm.copysign.f64", y, x)
    return e.sel(e.isnan(x), x, y)


def _erf_narrow(e: _Emit, x: ll.Value) -> ll.Value:
    """erf to f32 accuracy (<= 2 ulp, like CUDA's erff), evaluated in f64: the Taylor series
    for |x| < 0.5, else 1 - erfc with Numerical Recipes' erfcc (relative error < 1.2e-7)."""
    b = e.b
    ax = e.intr("llvm.fabs.f64", x)
    taylor = b.fmul(ax, e.horner(b.fmul(ax, ax), ERF_POLY[:10]))
    tt = b.fdiv(e.c(1.0), e.fma(ax, e.c(0.5), e.c(1.0)))
    poly = b.fsub(e.horner(tt, ERFCC_POLY), b.fmul(ax, ax))
    erfc = b.fmul(tt, e.call("exp", poly))
    y = e.sel(e.cmp("<", ax, 0.5), taylor, b.fsub(e.c(1.0), erfc))
    y = e.sel(e.cmp(">=", ax, 6.0), 1.0, y)
    y = e.intr("llvm.copysign.f64", y, x)
    return e.sel(e.isnan(x), x, y)


def _pow(e: _Emit, x: ll.Value, y: ll.Value) -> ll.Value:
    b = e.b
    ax = e.intr("llvm.fabs.f64", x)
    r = e.call("exp", b.fmul(y, e.call("log", ax)))
    y_int = e.cmp("==", e.intr("llvm.floor.f64", y), y)
    half = b.fmul(y, e.c(0.5))
    y_odd = b.and_(y_int, e.cmp("!=", e.intr("llvm.floor.f64", half), half))
    neg = e.cmp("<", x, 0.0)
    r = b.select(b.and_(neg, y_odd), b.fneg(r), r)
    r = b.select(b.and_(neg, b.not_(y_int)), e.c(math.nan), r)
    r = b.select(b.and_(e.cmp("==", x, 0.0), y_odd), e.intr("llvm.copysign.f64", r, x), r)
    # IEEE: pow(x, 0) = 1 and pow(1, y) = 1 even for NaN; pow(-1, +-inf) = 1.
    one = b.or_(e.cmp("==", y, 0.0), e.cmp("==", x, 1.0))
    one = b.or_(one, b.and_(e.cmp("==", x, -1.0), e.cmp("==", e.intr("llvm.fabs.f64", y),
                                                         math.inf)))  # fmt: skip
    return e.sel(one, 1.0, r)


BODIES.update({
    "exp": _exp,
    "log": _log,
    "log2": _log2,
    "sin": _sin,
    "cos": _cos,
    "tan": _tan,
    "tanh": _tanh,
    "erf": _erf,
    "pow": _pow,
})
BODIES.update(LIBM_BODIES)
FUNCS: tuple[str, ...] = tuple(BODIES)
"""Every function defined here (the NVPTX target routes these names to ``math_function``)."""
