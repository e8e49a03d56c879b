"""The kernel language's math functions and bit intrinsics (``go.sqrt``, ``go.atan2``,
``go.popc``, ...), by name: C99's math library for f32 and f64 and CUDA's bit intrinsics.

Like everything in ``gpuoff.lang`` (which holds the dtypes, arrays and the other intrinsics),
each is a real function with a type signature, so mypy and pyright understand kernel bodies,
and the front end resolves calls by identity (``MATH_FUNCTIONS``; ``math.*`` and NumPy's
ufuncs of the same names map to the same IR functions, ``gpuoff.subset``). Called outside a
kernel they raise: they only have meaning on a device. What each computes, exactly, is
``gpuoff.ir.nodes.MathCall`` (and ``docs/language.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from gpuoff import subset
from gpuoff.lang import _outside_kernel, i32

F = TypeVar("F", bound=float)
"""A float type (f16, f32, f64, or a Python float): the result has the argument's type."""
N = TypeVar("N", bound=float)
"""Any number (ints too): ``abs``, ``min``, ``max``, ``sign`` keep the argument's type."""
Int = TypeVar("Int", bound=int)
"""An integer type: ``brev`` keeps the argument's type."""

# --------------------------------------------------------------------------------------------
# Float functions (f32 and f64; an integer argument becomes f64)
# --------------------------------------------------------------------------------------------


def sqrt(x: F) -> F:
    """Square root."""
    raise _outside_kernel("go.sqrt")


def rsqrt(x: F) -> F:
    """Reciprocal square root ``1 / sqrt(x)``."""
    raise _outside_kernel("go.rsqrt")


def exp(x: F) -> F:
    """``e ** x``."""
    raise _outside_kernel("go.exp")


def log(x: F) -> F:
    """Natural logarithm."""
    raise _outside_kernel("go.log")


def log2(x: F) -> F:
    """Base-2 logarithm."""
    raise _outside_kernel("go.log2")


def sin(x: F) -> F:
    """Sine (radians)."""
    raise _outside_kernel("go.sin")


def cos(x: F) -> F:
    """Cosine (radians)."""
    raise _outside_kernel("go.cos")


def tan(x: F) -> F:
    """Tangent (radians)."""
    raise _outside_kernel("go.tan")


def tanh(x: F) -> F:
    """Hyperbolic tangent."""
    raise _outside_kernel("go.tanh")


def pow(x: F, y: F | float) -> F:  # noqa: A001 - mirrors math.pow
    """``x ** y``."""
    raise _outside_kernel("go.pow")


def floor(x: F) -> F:
    """Largest integral value not greater than ``x`` (as a float, unlike ``math.floor``)."""
    raise _outside_kernel("go.floor")


def ceil(x: F) -> F:
    """Smallest integral value not less than ``x`` (as a float, unlike ``math.ceil``)."""
    raise _outside_kernel("go.ceil")


def fma(x: F, y: F | float, z: F | float) -> F:
    """``x * y + z`` with one rounding."""
    raise _outside_kernel("go.fma")


def erf(x: F) -> F:
    """Error function."""
    raise _outside_kernel("go.erf")


def exp2(x: F) -> F:
    """``2 ** x``."""
    raise _outside_kernel("go.exp2")


def exp10(x: F) -> F:
    """``10 ** x``."""
    raise _outside_kernel("go.exp10")


def expm1(x: F) -> F:
    """``exp(x) - 1``, accurate for small ``x``."""
    raise _outside_kernel("go.expm1")


def log10(x: F) -> F:
    """Base-10 logarithm."""
    raise _outside_kernel("go.log10")


def log1p(x: F) -> F:
    """``log(1 + x)``, accurate for small ``x``."""
    raise _outside_kernel("go.log1p")


def asin(x: F) -> F:
    """Arc sine, in ``[-pi/2, pi/2]``."""
    raise _outside_kernel("go.asin")


def acos(x: F) -> F:
    """Arc cosine, in ``[0, pi]``."""
    raise _outside_kernel("go.acos")


def atan(x: F) -> F:
    """Arc tangent, in ``[-pi/2, pi/2]``."""
    raise _outside_kernel("go.atan")


def atan2(y: F, x: F | float) -> F:
    """The angle of the point ``(x, y)``, in ``[-pi, pi]`` (C99's quadrants and zeros)."""
    raise _outside_kernel("go.atan2")


def sinh(x: F) -> F:
    """Hyperbolic sine."""
    raise _outside_kernel("go.sinh")


def cosh(x: F) -> F:
    """Hyperbolic cosine."""
    raise _outside_kernel("go.cosh")


def asinh(x: F) -> F:
    """Inverse hyperbolic sine."""
    raise _outside_kernel("go.asinh")


def acosh(x: F) -> F:
    """Inverse hyperbolic cosine (NaN below 1)."""
    raise _outside_kernel("go.acosh")


def atanh(x: F) -> F:
    """Inverse hyperbolic tangent (+-inf at +-1, NaN beyond)."""
    raise _outside_kernel("go.atanh")


def cbrt(x: F) -> F:
    """Cube root (negative for negative ``x``)."""
    raise _outside_kernel("go.cbrt")


def hypot(x: F, y: F | float) -> F:
    """``sqrt(x * x + y * y)`` without overflow or underflow in between."""
    raise _outside_kernel("go.hypot")


def erfc(x: F) -> F:
    """Complementary error function ``1 - erf(x)``, accurate where it is small."""
    raise _outside_kernel("go.erfc")


def lgamma(x: F) -> F:
    """``log(abs(gamma(x)))``."""
    raise _outside_kernel("go.lgamma")


def tgamma(x: F) -> F:
    """The gamma function (``math.gamma``)."""
    raise _outside_kernel("go.tgamma")


def trunc(x: F) -> F:
    """``x`` rounded toward zero (as a float, unlike ``math.trunc``)."""
    raise _outside_kernel("go.trunc")


def round(x: F) -> F:  # noqa: A001 - C's round, not the builtin
    """``x`` rounded to the nearest integer, halves away from zero, as a float (C99's and CUDA's
    ``round``, OpenCL's ``round``). Python's ``round(x)`` and NumPy's ``np.round``/``np.rint``
    round halves to even: in kernels they do too (``round(x)`` gives an int, as in Python),
    and ``go.rint`` is that rule as a float."""
    raise _outside_kernel("go.round")


def rint(x: F) -> F:
    """``x`` rounded to the nearest integer, halves to even (``np.rint``)."""
    raise _outside_kernel("go.rint")


def copysign(x: F, y: F | float) -> F:
    """``abs(x)`` with the sign of ``y``."""
    raise _outside_kernel("go.copysign")


def fmod(x: F, y: F | float) -> F:
    """C's remainder of ``x / y`` truncated toward zero: the result has ``x``'s sign (Python's
    ``%`` has ``y``'s)."""
    raise _outside_kernel("go.fmod")


def remainder(x: F, y: F | float) -> F:
    """IEEE remainder ``x - n * y`` with ``n = rint(x / y)`` (``math.remainder``)."""
    raise _outside_kernel("go.remainder")


def fdim(x: F, y: F | float) -> F:
    """``x - y`` if ``x > y`` else ``+0.0`` (NaN if either is NaN)."""
    raise _outside_kernel("go.fdim")


def nextafter(x: F, y: F | float) -> F:
    """The next representable value after ``x`` toward ``y``."""
    raise _outside_kernel("go.nextafter")


def isnan(x: float) -> bool:
    """True where ``x`` is NaN."""
    raise _outside_kernel("go.isnan")


def isinf(x: float) -> bool:
    """True where ``x`` is +/-infinity."""
    raise _outside_kernel("go.isinf")


def isfinite(x: float) -> bool:
    """True where ``x`` is neither infinite nor NaN."""
    raise _outside_kernel("go.isfinite")


def signbit(x: float) -> bool:
    """True where ``x``'s sign bit is set (``-0.0`` too)."""
    raise _outside_kernel("go.signbit")


# --------------------------------------------------------------------------------------------
# Functions of any number
# --------------------------------------------------------------------------------------------


def fabs(x: N) -> N:
    """Absolute value (``abs`` and ``go.abs`` do the same for every numeric type)."""
    raise _outside_kernel("go.abs")


def minimum(x: N, y: N) -> N:
    """The smaller of two numbers (``min`` in kernels)."""
    raise _outside_kernel("go.min")


def maximum(x: N, y: N) -> N:
    """The larger of two numbers (``max`` in kernels)."""
    raise _outside_kernel("go.max")


def sign(x: N) -> N:
    """-1, 0 or 1 by the sign of ``x``, in its type (NumPy's ``np.sign``: ``sign(-0.0)`` is
    ``0.0``, NaN stays NaN)."""
    raise _outside_kernel("go.sign")


# --------------------------------------------------------------------------------------------
# Bit intrinsics (CUDA's names and semantics; 32- and 64-bit integers, narrower ones widened)
# --------------------------------------------------------------------------------------------


def popc(x: int) -> i32:
    """The number of set bits (CUDA's ``__popc``/``__popcll``)."""
    raise _outside_kernel("go.popc")


def clz(x: int) -> i32:
    """The number of leading zero bits: 32 or 64 for 0 (CUDA's ``__clz``/``__clzll``)."""
    raise _outside_kernel("go.clz")


def ffs(x: int) -> i32:
    """The 1-based position of the least significant set bit, 0 for 0 (CUDA's ``__ffs``)."""
    raise _outside_kernel("go.ffs")


def brev(x: Int) -> Int:
    """The bits of ``x`` in reverse order (CUDA's ``__brev``/``__brevll``)."""
    raise _outside_kernel("go.brev")


MATH_FUNCTIONS: dict[Callable[..., Any], str] = {
    globals()[name]: ir for name, ir in subset.LANG_MATH.items()
}
"""gpuoff math functions -> IR math name. The front end also maps ``math.*`` and builtins."""
