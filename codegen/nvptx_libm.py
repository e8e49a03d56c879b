"""C99's math library in LLVM IR for targets without a libm (NVPTX): the bodies of ``exp2,
exp10, expm1, log10, log1p, asin, acos, atan, atan2, sinh, cosh, asinh, acosh, atanh, cbrt,
hypot, erfc, lgamma, tgamma, fmod, remainder`` (f64; ``codegen.nvptx_math`` evaluates f32 in
f64 and rounds once). Only instructions NVPTX selects natively (``fma``, ``sqrt``, ``rint``,
``fabs``, ``copysign``, ``ctlz``, integer arithmetic), plus the other bodies by name.

The algorithms, each the textbook one (fdlibm's where it has one, Sun Microsystems 1993):
* exp2/exp10/expm1: ``x = k ln2 + r`` (Cody-Waite), ``e^r`` by its Taylor polynomial with the
  reduced argument carried as two doubles; expm1 as ``2^k (e^r - 1) + (2^k - 1)``, both terms
  exact, for no cancellation (fdlibm's expm1 idea, with the plain polynomial).
* log10 = log(x) / ln 10; log1p by Kahan's ``log(u) * x / (u - 1)``, ``u = 1 + x`` (exact
  up to log's error: Goldberg 1991, "What every computer scientist...", Theorem 4).
* atan: ``|x| > 1`` -> ``pi/2 - atan(1/|x|)``; ``> tan(pi/8)`` -> ``pi/4 + atan((z-1)/(z+1))``;
  then the Taylor series (21 terms, |z| <= 0.4142). atan2 from it with C99's (Annex F)
  quadrants, zeros and infinities; asin/acos as ``atan2`` of ``sqrt((1-x)(1+x))``.
* sinh/cosh/asinh/acosh/atanh: fdlibm's formulas (expm1/log1p for small arguments,
  ``exp(|x|/2)^2 / 2`` past overflow of exp, ``log(x) + ln2`` for huge ones).
* cbrt: an exponent-divided-by-three first guess, then Newton's iteration to convergence.
* hypot: ``big * sqrt(1 + (small/big)^2)``, inf before NaN as C99 says.
* erfc: ``1 - erf`` below 0.5; ``exp(-x^2) erfcx(x)`` above, erfcx a Chebyshev interpolant
  on [0.5, 2] (its values computed when first needed, to 40 digits with ``decimal``), the
  Laplace continued fraction beyond 2; ``x^2`` kept as two doubles in ``exp(-x^2)``.
* tgamma: Lanczos (g = 7, n = 9; Press et al., Numerical Recipes, 3rd ed. §6.1), the power
  split in two halves to reach 171.6 without overflow, Euler's reflection below 1/2.
  lgamma: log|tgamma| below 10, Stirling's series (7 terms) above, reflection below 1/2.
* fmod: exact, by shift-and-subtract long division of the significands (musl's fmod); one
  loop iteration per bit of exponent difference. remainder: fdlibm's, from fmod(x, 2y).
"""

from __future__ import annotations

import decimal
import math
import struct
from collections.abc import Callable
from functools import cache

from llvmlite import ir as ll

from codegen.nvptx_mathbase import F64, I1, I64, Emit


def _split(exact: decimal.Decimal, clear_bits: int = 0) -> tuple[float, float]:
    """``(hi, lo)``: ``hi`` is ``exact`` rounded to a double with its last ``clear_bits``
    significand bits cleared (so ``k * hi`` is exact for small ints ``k``), ``lo`` the rest."""
    hi = float(exact)
    if clear_bits:
        bits = struct.unpack("<q", struct.pack("<d", hi))[0] & ~((1 << clear_bits) - 1)
        hi = struct.unpack("<d", struct.pack("<q", bits))[0]
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        return hi, float(exact - decimal.Decimal(hi))


def _constants() -> dict[str, tuple[float, float]]:
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        dec = decimal.Decimal
        ln2, ln10 = dec(2).ln(), dec(10).ln()
        pi = dec("3.14159265358979323846264338327950288419716939937510582097494")
        return {"ln2": _split(ln2), "ln2_cw": _split(ln2, 32), "ln10": _split(ln10),
                "lg2_cw": _split(ln2 / ln10, 32), "pio2": _split(pi / 2)}  # fmt: skip


_C = _constants()
EXP_TAYLOR = [1 / math.factorial(n) for n in range(15)]
LN2, LN2_LO = _C["ln2"]  # ln 2 as two doubles
LN2_HI_CW, LN2_LO_CW = _C["ln2_cw"]  # Cody-Waite: k * LN2_HI_CW is exact for |k| < 2^20
LN10, LN10_LO = _C["ln10"]
LG2 = math.log10(2)
LG2_HI, LG2_LO = _C["lg2_cw"]  # log10(2), Cody-Waite
PIO2_LO = _C["pio2"][1]  # pi/2 - math.pi/2
ATAN_TAYLOR = [(-1) ** n / (2 * n + 1) for n in range(22)]  # in z^2, times z
TAN_PI_8 = math.sqrt(2) - 1
LANCZOS_G = 7.0
LANCZOS = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
           -176.61502916214059, 12.507343278686905, -0.13857109526572012,
           9.9843695780195716e-6, 1.5056327351493116e-7]  # fmt: skip
STIRLING = [1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156]
HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)
ERFC_CF_DEPTH = 60
ERFCX_LO, ERFCX_HI, ERFCX_NODES = 0.5, 2.0, 40


def _fabs(e: Emit, x: ll.Value) -> ll.Value:
    return e.intr("llvm.fabs.f64", x)


def _copysign(e: Emit, x: ll.Value, s: ll.Value) -> ll.Value:
    return e.intr("llvm.copysign.f64", x, s)


def _scale(e: Emit, p: ll.Value, k: ll.Value) -> ll.Value:
    """``p * 2^k`` for a float-valued integer ``k`` (clamped: out-of-range is the caller's),
    in two steps so that neither power of two overflows."""
    b = e.b
    ki = b.fptosi(e.intr("llvm.maxnum.f64", e.intr("llvm.minnum.f64", k, e.c(1100.0)),
                         e.c(-1100.0)), I64)  # fmt: skip
    k1 = b.ashr(ki, ll.Constant(I64, 1))
    return b.fmul(b.fmul(p, e.pow2(k1)), e.pow2(b.sub(ki, k1)))


def _exp_dd(e: Emit, hi: ll.Value, lo: ll.Value) -> ll.Value:
    """``e^(hi + lo)`` for ``|hi| <= 0.35`` and a tiny ``lo``: ``P(hi) (1 + lo)``."""
    p = e.horner(hi, EXP_TAYLOR)
    return e.fma(p, lo, p)


def _exp2(e: Emit, x: ll.Value) -> ll.Value:
    b = e.b
    k = e.intr("llvm.rint.f64", x)
    r = b.fsub(x, k)  # exact
    hi = b.fmul(r, e.c(LN2))
    lo = b.fadd(e.fma(r, e.c(LN2), b.fneg(hi)), b.fmul(r, e.c(LN2_LO)))
    y = _scale(e, _exp_dd(e, hi, lo), k)
    y = e.sel(e.cmp(">=", x, 1024.0), math.inf, y)
    y = e.sel(e.cmp("<", x, -1080.0), 0.0, y)
    return e.sel(e.isnan(x), x, y)


def _exp10(e: Emit, x: ll.Value) -> ll.Value:
    b = e.b
    k = e.intr("llvm.rint.f64", b.fmul(x, e.c(1 / LG2)))
    nk = b.fneg(k)
    r = e.fma(nk, e.c(LG2_LO), e.fma(nk, e.c(LG2_HI), x))  # x - k log10(2), |r| <= 0.151
    hi = b.fmul(r, e.c(LN10))
    lo = b.fadd(e.fma(r, e.c(LN10), b.fneg(hi)), b.fmul(r, e.c(LN10_LO)))
    y = _scale(e, _exp_dd(e, hi, lo), k)
    y = e.sel(e.cmp(">", x, 308.26), math.inf, y)
    y = e.sel(e.cmp("<", x, -324.0), 0.0, y)
    return e.sel(e.isnan(x), x, y)


def _expm1(e: Emit, x: ll.Value) -> ll.Value:
    b = e.b
    xc = e.intr("llvm.maxnum.f64", e.intr("llvm.minnum.f64", x, e.c(60.0)), e.c(-60.0))
    k = e.intr("llvm.rint.f64", b.fmul(xc, e.c(1 / LN2)))
    nk = b.fneg(k)
    r = e.fma(nk, e.c(LN2_LO_CW), e.fma(nk, e.c(LN2_HI_CW), xc))
    em1 = b.fmul(r, e.horner(r, EXP_TAYLOR[1:]))  # e^r - 1, |r| <= ln2 / 2
    p2k = _scale(e, e.c(1.0), k)
    y = e.fma(p2k, em1, b.fsub(p2k, e.c(1.0)))  # 2^k (e^r - 1) + (2^k - 1): both exact
    y = e.sel(e.cmp(">", x, 60.0), e.call("exp", x), y)
    y = e.sel(e.cmp("<", x, -60.0), -1.0, y)
    y = e.sel(e.cmp("==", x, 0.0), x, y)  # keeps -0.0
    return e.sel(e.isnan(x), x, y)


def _log10(e: Emit, x: ll.Value) -> ll.Value:
    return e.b.fmul(e.call("log", x), e.c(1 / LN10))


def _log1p(e: Emit, x: ll.Value) -> ll.Value:
    b = e.b
    u = b.fadd(x, e.c(1.0))
    d = b.fsub(u, e.c(1.0))
    y = b.fmul(e.call("log", u), b.fdiv(x, e.sel(e.cmp("==", d, 0.0), 1.0, d)))
    y = e.sel(e.cmp("==", d, 0.0), x, y)  # 1 + x rounds to 1: log1p(x) = x (keeps -0.0)
    y = e.sel(e.cmp("==", x, math.inf), math.inf, y)
    y = e.sel(e.cmp("==", x, -1.0), -math.inf, y)
    y = e.sel(e.cmp("<", x, -1.0), math.nan, y)
    return e.sel(e.isnan(x), x, y)


def _atan01(e: Emit, z: ll.Value) -> ll.Value:
    """``atan(z)`` for ``0 <= z <= 1``."""
    b = e.b
    shifted = e.cmp(">", z, TAN_PI_8)
    w = e.sel(shifted, b.fdiv(b.fsub(z, e.c(1.0)), b.fadd(z, e.c(1.0))), z)
    p = b.fmul(w, e.horner(b.fmul(w, w), ATAN_TAYLOR))
    return e.sel(shifted, b.fadd(e.c(math.pi / 4), p), p)


def _pio2_minus(e: Emit, a: ll.Value) -> ll.Value:
    return e.b.fadd(e.b.fsub(e.c(math.pi / 2), a), e.c(PIO2_LO))


def _atan(e: Emit, x: ll.Value) -> ll.Value:
    b = e.b
    ax = _fabs(e, x)
    inv = e.cmp(">", ax, 1.0)
    r = _atan01(e, e.sel(inv, b.fdiv(e.c(1.0), ax), ax))
    r = e.sel(inv, _pio2_minus(e, r), r)
    return e.sel(e.isnan(x), x, _copysign(e, r, x))


def _atan2(e: Emit, y: ll.Value, x: ll.Value) -> ll.Value:
    b = e.b
    ax, ay = _fabs(e, x), _fabs(e, y)
    steep = e.cmp(">", ay, ax)
    big, small = e.sel(steep, ay, ax), e.sel(steep, ax, ay)
    both_inf = b.and_(e.cmp("==", ax, math.inf), e.cmp("==", ay, math.inf))
    ratio = e.sel(both_inf, 1.0, b.fdiv(small, e.sel(e.cmp("==", big, 0.0), 1.0, big)))
    r = _atan01(e, ratio)
    r = e.sel(steep, _pio2_minus(e, r), r)
    x_neg = b.icmp_signed("<", b.bitcast(x, I64), ll.Constant(I64, 0))  # -0.0 too
    r = b.select(x_neg, b.fadd(b.fsub(e.c(math.pi), r), e.c(2 * PIO2_LO)), r)
    r = _copysign(e, r, y)
    return b.select(b.fcmp_unordered("uno", x, y), b.fadd(x, y), r)


def _asin_acos_root(e: Emit, x: ll.Value) -> ll.Value:
    b = e.b
    return e.intr("llvm.sqrt.f64", b.fmul(b.fsub(e.c(1.0), x), b.fadd(e.c(1.0), x)))


def _asin(e: Emit, x: ll.Value) -> ll.Value:
    return e.call("atan2", x, _asin_acos_root(e, x))


def _acos(e: Emit, x: ll.Value) -> ll.Value:
    return e.call("atan2", _asin_acos_root(e, x), x)


def _half_exp_squared(e: Emit, a: ll.Value) -> ll.Value:
    """``e^a / 2`` past the overflow of ``e^a``: ``(e^(a/2) / 2) e^(a/2)``."""
    w = e.call("exp", e.b.fmul(a, e.c(0.5)))
    return e.b.fmul(e.b.fmul(w, e.c(0.5)), w)


def _sinh(e: Emit, x: ll.Value) -> ll.Value:
    b = e.b
    a = _fabs(e, x)
    t = e.call("expm1", e.intr("llvm.minnum.f64", a, e.c(22.0)))
    small = b.fmul(e.c(0.5), b.fadd(t, b.fdiv(t, b.fadd(t, e.c(1.0)))))
    h = e.sel(e.cmp("<", a, 22.0), small, _half_exp_squared(e, a))
    return e.sel(e.isnan(x), x, _copysign(e, h, x))


def _cosh(e: Emit, x: ll.Value) -> ll.Value:
    b = e.b
    a = _fabs(e, x)
    w = e.call("exp", e.intr("llvm.minnum.f64", a, e.c(22.0)))
    small = e.fma(w, e.c(0.5), b.fdiv(e.c(0.5), w))
    h = e.sel(e.cmp("<", a, 22.0), small, _half_exp_squared(e, a))
    return e.sel(e.isnan(x), x, h)


def _asinh(e: Emit, x: ll.Value) -> ll.Value:
    b = e.b
    a = _fabs(e, x)
    huge = e.cmp(">", a, 2.0**28)
    am = e.sel(huge, 1.0, a)
    sq = b.fmul(am, am)
    root = e.intr("llvm.sqrt.f64", b.fadd(sq, e.c(1.0)))
    mid = e.call("log1p", b.fadd(am, b.fdiv(sq, b.fadd(e.c(1.0), root))))
    r = e.sel(huge, b.fadd(e.call("log", a), e.c(LN2)), mid)
    return e.sel(e.isnan(x), x, _copysign(e, r, x))


def _acosh(e: Emit, x: ll.Value) -> ll.Value:
    b = e.b
    sqrt = "llvm.sqrt.f64"
    xm = e.intr("llvm.minnum.f64", x, e.c(2.0**28))
    mid = e.call("log", b.fsub(b.fmul(xm, e.c(2.0)), b.fdiv(e.c(1.0), b.fadd(
        xm, e.intr(sqrt, e.fma(xm, xm, e.c(-1.0)))))))  # fmt: skip
    t = b.fsub(xm, e.c(1.0))
    near1 = e.call("log1p", b.fadd(t, e.intr(sqrt, e.fma(t, t, b.fmul(t, e.c(2.0))))))
    r = e.sel(e.cmp(">", x, 2.0), mid, near1)
    r = e.sel(e.cmp(">", x, 2.0**28), b.fadd(e.call("log", x), e.c(LN2)), r)
    r = e.sel(e.cmp("<", x, 1.0), math.nan, r)
    return e.sel(e.isnan(x), x, r)


def _atanh(e: Emit, x: ll.Value) -> ll.Value:
    b = e.b
    a = _fabs(e, x)
    t = b.fadd(a, a)
    one_minus = b.fsub(e.c(1.0), a)
    small = e.call("log1p", b.fadd(t, b.fdiv(b.fmul(t, a), one_minus)))
    large = e.call("log1p", b.fdiv(t, one_minus))
    r = b.fmul(e.c(0.5), e.sel(e.cmp("<", a, 0.5), small, large))
    r = e.sel(e.cmp(">", a, 1.0), math.nan, r)
    return e.sel(e.isnan(x), x, _copysign(e, r, x))


def _cbrt(e: Emit, x: ll.Value) -> ll.Value:
    b = e.b
    a = _fabs(e, x)
    sub = e.cmp("<", a, 2.0**-1022)
    s = e.sel(sub, b.fmul(a, e.c(2.0**54)), a)
    bits = b.add(b.udiv(b.bitcast(s, I64), ll.Constant(I64, 3)),
                 ll.Constant(I64, 0x2AA0000000000000))  # exponent / 3: within 6 %  # fmt: skip
    t = b.bitcast(bits, F64)
    for _ in range(5):  # Newton: t <- t - (t - s / t^2) / 3, quadratic from 6 %
        t = b.fsub(t, b.fmul(b.fsub(t, b.fdiv(s, b.fmul(t, t))), e.c(1 / 3)))
    t = e.sel(sub, b.fmul(t, e.c(2.0**-18)), t)
    special = b.or_(e.cmp("==", a, 0.0), b.fcmp_unordered("uno", b.fsub(x, x), e.c(0.0)))
    return e.sel(special, x, _copysign(e, t, x))


def _hypot(e: Emit, x: ll.Value, y: ll.Value) -> ll.Value:
    b = e.b
    ax, ay = _fabs(e, x), _fabs(e, y)
    big = e.intr("llvm.maxnum.f64", ax, ay)
    small = e.intr("llvm.minnum.f64", ax, ay)
    r = b.fdiv(small, e.sel(e.cmp("==", big, 0.0), 1.0, big))
    h = b.fmul(big, e.intr("llvm.sqrt.f64", e.fma(r, r, e.c(1.0))))
    h = b.select(b.fcmp_unordered("uno", x, y), b.fadd(x, y), h)
    return e.sel(b.or_(e.cmp("==", ax, math.inf), e.cmp("==", ay, math.inf)), math.inf, h)


# -- erfc ----------------------------------------------------------------------------------


PI_DIGITS = "3.14159265358979323846264338327950288419716939937510582097494"


def _decimal_erfc(x: decimal.Decimal) -> decimal.Decimal:
    """erfc to the context's precision by the Taylor series of erf (fine for ``x <= 2``)."""
    pi = decimal.Decimal(PI_DIGITS)
    term, total, n, x2 = x, x, 0, x * x
    while abs(term) > decimal.Decimal(10) ** -45:
        n += 1
        term = -term * x2 / n
        total += term / (2 * n + 1)
    return 1 - 2 / pi.sqrt() * total


def _decimal_cos(th: decimal.Decimal) -> decimal.Decimal:
    term, total, n = decimal.Decimal(1), decimal.Decimal(1), 0
    while abs(term) > decimal.Decimal(10) ** -45:
        n += 2
        term = -term * th * th / (n * (n - 1))
        total += term
    return total


@cache
def erfcx_chebyshev() -> tuple[float, ...]:
    """Chebyshev coefficients of ``erfcx(x) = e^(x^2) erfc(x)`` on [0.5, 2]: the interpolant
    at 40 Chebyshev nodes, all in 50-digit decimal arithmetic (a float DCT would leave
    ``2 eps |f|`` of noise in every coefficient), the negligible tail dropped."""
    with decimal.localcontext() as ctx:
        ctx.prec = 50
        dec = decimal.Decimal
        mid, half = dec(ERFCX_HI + ERFCX_LO) / 2, dec(ERFCX_HI - ERFCX_LO) / 2
        nodes = [_decimal_cos(dec(PI_DIGITS) * (j + dec("0.5")) / ERFCX_NODES)
                 for j in range(ERFCX_NODES)]  # fmt: skip
        values = []
        for tj in nodes:
            xd = mid + half * tj
            values.append((xd * xd).exp() * _decimal_erfc(xd))
        coeffs = [dec(0)] * ERFCX_NODES
        for tj, v in zip(nodes, values, strict=True):
            t_prev, t_k = dec(1), tj  # T_0, T_1 at the node
            coeffs[0] += v
            for k in range(1, ERFCX_NODES):
                coeffs[k] += v * t_k
                t_prev, t_k = t_k, 2 * tj * t_k - t_prev
        out = [float(c * 2 / ERFCX_NODES) for c in coeffs]
    out[0] /= 2
    while abs(out[-1]) < 1e-19:
        out.pop()
    return tuple(out)


def _clenshaw(e: Emit, t: ll.Value, coeffs: tuple[float, ...]) -> ll.Value:
    """``sum c_k T_k(t)`` by Clenshaw's recurrence."""
    b = e.b
    b1: ll.Value = e.c(0.0)
    b2: ll.Value = e.c(0.0)
    t2 = b.fmul(t, e.c(2.0))
    for ck in reversed(coeffs[1:]):
        b1, b2 = b.fadd(e.fma(t2, b1, b.fneg(b2)), e.c(ck)), b1
    return b.fadd(e.fma(t, b1, b.fneg(b2)), e.c(coeffs[0]))


def _erfc(e: Emit, x: ll.Value) -> ll.Value:
    b = e.b
    a = e.intr("llvm.minnum.f64", e.intr("llvm.maxnum.f64", x, e.c(ERFCX_LO)), e.c(28.0))
    mid, half = (ERFCX_HI + ERFCX_LO) / 2, (ERFCX_HI - ERFCX_LO) / 2
    tch = b.fmul(b.fsub(e.intr("llvm.minnum.f64", a, e.c(ERFCX_HI)), e.c(mid)), e.c(1 / half))
    cheb = _clenshaw(e, tch, erfcx_chebyshev())
    ac = e.intr("llvm.maxnum.f64", a, e.c(ERFCX_HI))
    f = ac
    for k in range(ERFC_CF_DEPTH, 0, -1):
        f = b.fadd(ac, b.fdiv(e.c(k / 2), f))
    cf = b.fdiv(e.c(1 / math.sqrt(math.pi)), f)
    erfcx = e.sel(e.cmp("<", a, ERFCX_HI), cheb, cf)
    sq = b.fmul(a, a)
    sq_lo = e.fma(a, a, b.fneg(sq))  # a^2 = sq + sq_lo exactly
    g = e.call("exp", b.fneg(sq))
    decay = e.fma(b.fneg(g), sq_lo, g)  # e^-(sq + sq_lo)
    y = b.fmul(decay, erfcx)
    y = e.sel(e.cmp("<", x, ERFCX_LO), b.fsub(e.c(1.0), e.call("erf", x)), y)
    y = e.sel(e.cmp(">=", x, 28.0), 0.0, y)
    return e.sel(e.isnan(x), x, y)


# -- gamma ---------------------------------------------------------------------------------


def _gamma_halves(e: Emit, w: ll.Value) -> tuple[ll.Value, ll.Value]:
    """Lanczos' gamma for ``w >= 0.5``, ``sqrt(2 pi) t^(z + 1/2) e^-t A(z)`` with ``z = w - 1``,
    ``t = z + g + 1/2``, as ``(h, rest)``, gamma = ``h * rest * h``: the power taken as two
    halves stays finite up to the overflow of gamma (and its reciprocal to its underflow)."""
    b = e.b
    z = b.fsub(w, e.c(1.0))
    acc: ll.Value = e.c(LANCZOS[0])
    for i, p in enumerate(LANCZOS[1:], start=1):
        acc = b.fadd(acc, b.fdiv(e.c(p), b.fadd(z, e.c(float(i)))))
    t = b.fadd(z, e.c(LANCZOS_G + 0.5))
    h = e.call("pow", t, b.fmul(b.fadd(z, e.c(0.5)), e.c(0.5)))
    front = b.fmul(b.fmul(e.call("exp", b.fneg(t)), acc), e.c(math.sqrt(2 * math.pi)))
    return h, front


def _gamma_pos(e: Emit, w: ll.Value) -> ll.Value:
    h, front = _gamma_halves(e, w)
    return e.b.fmul(e.b.fmul(h, front), h)


def _sinpi(e: Emit, x: ll.Value) -> ll.Value:
    """``sin(pi x)`` with ``x``'s integer part removed exactly first."""
    b = e.b
    n = e.intr("llvm.rint.f64", x)
    s = e.call("sin", b.fmul(b.fsub(x, n), e.c(math.pi)))
    half_n = b.fmul(n, e.c(0.5))
    odd = e.cmp("!=", e.intr("llvm.floor.f64", half_n), half_n)
    return b.select(odd, b.fneg(s), s)


def _tgamma(e: Emit, x: ll.Value) -> ll.Value:
    b = e.b
    reflect = e.cmp("<", x, 0.5)
    w = e.sel(reflect, b.fsub(e.c(1.0), x), x)
    h, front = _gamma_halves(e, e.intr("llvm.minnum.f64", w, e.c(190.0)))
    g = e.sel(e.cmp(">", w, 172.0), math.inf, b.fmul(b.fmul(h, front), h))
    refl = b.fdiv(b.fdiv(e.c(math.pi), b.fmul(_sinpi(e, x), b.fmul(h, front))), h)
    y = e.sel(reflect, refl, g)
    for k in range(1, 24):  # (k - 1)! is exact in f64 up to 22!: gamma(k) exactly
        y = e.sel(e.cmp("==", x, float(k)), float(math.factorial(k - 1)), y)
    pole = b.and_(e.cmp("<", x, 0.0), e.cmp("==", e.intr("llvm.rint.f64", x), x))
    y = e.sel(pole, math.nan, y)  # negative integers and -inf
    y = e.sel(e.cmp("==", x, 0.0), _copysign(e, e.c(math.inf), x), y)
    return e.sel(e.isnan(x), x, y)


def _lgamma(e: Emit, x: ll.Value) -> ll.Value:
    b = e.b
    reflect = e.cmp("<", x, 0.5)
    w = e.sel(reflect, b.fsub(e.c(1.0), x), x)
    small = e.call("log", _fabs(e, _gamma_pos(e, e.intr("llvm.minnum.f64", w, e.c(10.0)))))
    wl = e.intr("llvm.maxnum.f64", w, e.c(10.0))
    inv = b.fdiv(e.c(1.0), wl)
    series = b.fmul(inv, e.horner(b.fmul(inv, inv), STIRLING))
    lw = e.call("log", wl)
    big = b.fadd(b.fsub(e.fma(b.fsub(wl, e.c(0.5)), lw, e.c(HALF_LOG_2PI)), wl), series)
    lpos = e.sel(e.cmp("<", w, 10.0), small, big)
    refl = b.fsub(e.call("log", b.fdiv(e.c(math.pi), _fabs(e, _sinpi(e, x)))), lpos)
    y = e.sel(reflect, refl, lpos)
    pole = b.and_(e.cmp("<=", x, 0.0), e.cmp("==", e.intr("llvm.rint.f64", x), x))
    y = e.sel(b.or_(pole, e.cmp("==", _fabs(e, x), math.inf)), math.inf, y)
    y = e.sel(b.or_(e.cmp("==", x, 1.0), e.cmp("==", x, 2.0)), 0.0, y)  # exact zeros
    return e.sel(e.isnan(x), x, y)


# -- fmod, remainder -----------------------------------------------------------------------


def _int_intr(e: Emit, name: str, *args: ll.Value) -> ll.Value:
    fn = e.m.globals.get(name)
    if not isinstance(fn, ll.Function):
        fn = ll.Function(e.m, ll.FunctionType(I64, [a.type for a in args]), name=name)
    return e.b.call(fn, list(args))


def _significand(e: Emit, bits: ll.Value) -> tuple[ll.Value, ll.Value]:
    """(significand with its leading one at bit 52, biased exponent) of a finite nonzero
    double's magnitude bits; subnormals are normalised (their exponent drops below 1)."""
    b = e.b
    ex = b.lshr(bits, ll.Constant(I64, 52))
    frac = b.and_(bits, ll.Constant(I64, (1 << 52) - 1))
    is_sub = b.icmp_unsigned("==", ex, ll.Constant(I64, 0))
    shift = b.sub(_int_intr(e, "llvm.ctlz.i64", frac, ll.Constant(I1, 0)), ll.Constant(I64, 11))
    sub_m = b.shl(frac, shift)
    sub_e = b.sub(ll.Constant(I64, 1), shift)
    norm_m = b.or_(frac, ll.Constant(I64, 1 << 52))
    return b.select(is_sub, sub_m, norm_m), b.select(is_sub, sub_e, ex)


def _fmod(e: Emit, x: ll.Value, y: ll.Value) -> ll.Value:
    b = e.b
    mag = ll.Constant(I64, (1 << 63) - 1)
    ux = b.and_(b.bitcast(x, I64), mag)
    uy = b.and_(b.bitcast(y, I64), mag)
    nan_case = b.or_(b.fcmp_unordered("uno", x, y), e.cmp("==", y, 0.0))
    nan_case = b.or_(nan_case, e.cmp("==", _fabs(e, x), math.inf))
    keep_x = b.icmp_unsigned("<", ux, uy)  # |x| < |y| (y = inf included)
    trivial = b.or_(nan_case, keep_x)
    one = ll.Constant(I64, 1)
    safe = ll.Constant(I64, 1 << 52)  # 1.0's bits: harmless operands for the trivial cases
    mx, ex = _significand(e, b.select(trivial, safe, ux))
    my, ey = _significand(e, b.select(trivial, safe, uy))
    # Long division: for each bit of exponent difference, subtract where it fits, shift.
    n0 = b.sub(ex, ey)
    pre = b.block
    head = b.function.append_basic_block("fmod.head")
    body = b.function.append_basic_block("fmod.body")
    done = b.function.append_basic_block("fmod.done")
    b.branch(head)
    b.position_at_end(head)
    m = b.phi(I64)
    n = b.phi(I64)
    m.add_incoming(mx, pre)
    n.add_incoming(n0, pre)
    b.cbranch(b.icmp_signed(">", n, ll.Constant(I64, 0)), body, done)
    b.position_at_end(body)
    diff = b.sub(m, my)
    m_next = b.shl(b.select(b.icmp_signed(">=", diff, ll.Constant(I64, 0)), diff, m), one)
    m.add_incoming(m_next, body)
    n.add_incoming(b.sub(n, one), body)
    b.branch(head)
    b.position_at_end(done)
    diff = b.sub(m, my)
    r = b.select(b.icmp_signed(">=", diff, ll.Constant(I64, 0)), diff, m)
    # Renormalise (leading one back to bit 52) and rebuild the double.
    shift = b.sub(_int_intr(e, "llvm.ctlz.i64", r, ll.Constant(I1, 0)), ll.Constant(I64, 11))
    r_norm = b.shl(r, shift)
    er = b.sub(ey, shift)
    normal = b.or_(b.sub(r_norm, ll.Constant(I64, 1 << 52)), b.shl(er, ll.Constant(I64, 52)))
    tiny_shift = b.sub(one, er)
    subnormal = b.lshr(r_norm, e.b.select(b.icmp_signed(">", tiny_shift, ll.Constant(I64, 63)),
                                          ll.Constant(I64, 63), tiny_shift))  # fmt: skip
    bits = b.select(b.icmp_signed(">", er, ll.Constant(I64, 0)), normal, subnormal)
    bits = b.select(b.icmp_unsigned("==", r, ll.Constant(I64, 0)), ll.Constant(I64, 0), bits)
    res = _copysign(e, b.bitcast(bits, F64), x)
    res = b.select(keep_x, x, res)
    return e.sel(nan_case, math.nan, res)


def _remainder(e: Emit, x: ll.Value, y: ll.Value) -> ll.Value:
    b = e.b
    p = _fabs(e, y)
    finite_2p = e.cmp("<", p, 2.0**1023)
    r = _fabs(e, e.sel(finite_2p, e.call("fmod", x, b.fmul(p, e.c(2.0))), x))
    tiny = e.cmp("<", p, 2.0**-1021)
    # |x| mod 2p in [0, 2p): take p off once or twice so it lands in [-p/2, p/2], ties even.
    half = b.fmul(p, e.c(0.5))
    lhs = e.sel(tiny, b.fadd(r, r), r)
    rhs = e.sel(tiny, p, half)
    r1 = e.sel(e.cmp(">", lhs, rhs), b.fsub(r, p), r)
    lhs1 = e.sel(tiny, b.fadd(r1, r1), r1)
    r2 = b.select(b.and_(e.cmp(">", lhs, rhs), e.cmp(">=", lhs1, rhs)), b.fsub(r1, p), r1)
    x_neg = b.icmp_signed("<", b.bitcast(x, I64), ll.Constant(I64, 0))
    res = b.select(x_neg, b.fneg(r2), r2)
    nan_case = b.or_(b.fcmp_unordered("uno", x, y), e.cmp("==", y, 0.0))
    nan_case = b.or_(nan_case, e.cmp("==", _fabs(e, x), math.inf))
    return e.sel(nan_case, math.nan, res)


LIBM_BODIES: dict[str, Callable[..., ll.Value]] = {
    "exp2": _exp2, "exp10": _exp10, "expm1": _expm1, "log10": _log10, "log1p": _log1p,
    "atan": _atan, "atan2": _atan2, "asin": _asin, "acos": _acos, "sinh": _sinh,
    "cosh": _cosh, "asinh": _asinh, "acosh": _acosh, "atanh": _atanh, "cbrt": _cbrt,
    "hypot": _hypot, "erfc": _erfc, "tgamma": _tgamma, "lgamma": _lgamma, "fmod": _fmod,
    "remainder": _remainder,
}  # fmt: skip
"""The bodies of this module (``codegen.nvptx_math`` merges them into ``BODIES``)."""
