"""The reference meaning of the C99 math functions and the bit intrinsics (``MathCall``), for
the interpreter: Python's ``math`` and NumPy, with C99's answers (Annex F) where Python raises
instead (``math.gamma(0.0)`` raises; C's ``tgamma(+0.0)`` is ``+inf``).

Float functions are evaluated in f64 and the caller rounds once to the result type, so an
f32 result is the f64 one rounded (correctly rounded in practice). Bit intrinsics work on the
two's complement bits of the argument (``bits`` wide) and give a Python int.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np


def _c_round(x: float) -> float:
    """C's ``round``: halves away from zero. ``x - trunc(x)`` is exact, so no double rounding
    (``floor(x + 0.5)`` is wrong for 0.49999999999999994)."""
    if not math.isfinite(x):
        return x
    t = float(math.trunc(x)) if x != 0 else x
    if abs(x - t) >= 0.5:
        t += math.copysign(1.0, x)
    return math.copysign(t, x) if t == 0 else t


def _tgamma(x: float) -> float:
    if math.isnan(x) or x == math.inf:
        return x
    if x == 0:
        return math.copysign(math.inf, x)  # C99: tgamma(+-0) = +-inf
    if x == -math.inf or (x < 0 and x == math.floor(x)):
        return math.nan  # negative integers are poles with no sign: NaN, as C99 says
    try:
        return math.gamma(x)
    except OverflowError:
        return math.inf if x > 0 or math.floor(x) % 2 == 0 else -math.inf


def _lgamma(x: float) -> float:
    if math.isinf(x):
        return math.inf
    try:
        return math.lgamma(x)
    except ValueError:
        return math.inf  # a pole: non-positive integers
    except OverflowError:
        return math.inf


def _remainder(x: float, y: float) -> float:
    if math.isnan(x) or math.isnan(y) or math.isinf(x) or y == 0:
        return x + y if math.isnan(x) or math.isnan(y) else math.nan
    return math.remainder(x, y)


def _exp10(x: float) -> float:
    with np.errstate(over="ignore"):
        return float(np.power(np.float64(10.0), np.float64(x)))


def _fdim(x: float, y: float) -> float:
    if math.isnan(x) or math.isnan(y):
        return x + y
    return x - y if x > y else 0.0


def _np1(fn: Callable[[np.float64], np.float64]) -> Callable[[float], float]:
    def call(x: float) -> float:
        with np.errstate(all="ignore"):
            return float(fn(np.float64(x)))

    return call


def _np2(fn: Callable[[np.float64, np.float64], np.float64]) -> Callable[[float, float], float]:
    def call(x: float, y: float) -> float:
        with np.errstate(all="ignore"):
            return float(fn(np.float64(x), np.float64(y)))

    return call


FLOAT1: dict[str, Callable[[float], float]] = {
    "exp2": _np1(np.exp2), "exp10": _exp10, "expm1": _np1(np.expm1),
    "log10": _np1(np.log10), "log1p": _np1(np.log1p), "asin": _np1(np.arcsin),
    "acos": _np1(np.arccos), "atan": _np1(np.arctan), "sinh": _np1(np.sinh),
    "cosh": _np1(np.cosh), "asinh": _np1(np.arcsinh), "acosh": _np1(np.arccosh),
    "atanh": _np1(np.arctanh), "cbrt": _np1(np.cbrt), "erfc": math.erfc, "lgamma": _lgamma,
    "tgamma": _tgamma, "trunc": _np1(np.trunc), "round": _c_round, "rint": _np1(np.rint),
}  # fmt: skip
"""One-argument float functions (f64 in, f64 out)."""

FLOAT2: dict[str, Callable[[float, float], float]] = {
    "atan2": _np2(np.arctan2), "hypot": _np2(np.hypot), "copysign": _np2(np.copysign),
    "fmod": _np2(np.fmod), "remainder": _remainder, "fdim": _fdim,
}  # fmt: skip
"""Two-argument float functions (``nextafter`` depends on the type: the interpreter's own)."""


def bit_function(name: str, x: int, bits: int) -> int:
    """CUDA's ``__popc``/``__clz``/``__ffs``/``__brev`` (and their ``ll`` forms) on the
    ``bits``-bit two's complement pattern of ``x``; ``brev`` gives the reversed pattern as an
    unsigned int (the caller wraps it into the type)."""
    u = x & ((1 << bits) - 1)
    if name == "popc":
        return u.bit_count()
    if name == "clz":
        return bits - u.bit_length()
    if name == "ffs":
        return (u & -u).bit_length()
    if name == "brev":
        return int(format(u, f"0{bits}b")[::-1], 2)
    raise ValueError(f"unknown bit intrinsic {name!r}")


def sign(x: float) -> float:
    """NumPy's ``sign``: -1.0, 0.0 (for both zeros) or 1.0; NaN stays NaN."""
    if math.isnan(x):
        return x
    return 1.0 if x > 0 else -1.0 if x < 0 else 0.0
