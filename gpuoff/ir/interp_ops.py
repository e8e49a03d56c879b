"""Scalar semantics of the IR, exactly as the node docstrings state them.

Values are NumPy scalars of the node's type (``np.float32(1.5)``, ``np.int32(-3)``,
``np.bool_(True)``). Integer arithmetic is done on Python ints and wrapped explicitly, so it
never depends on NumPy's overflow behaviour; float arithmetic uses NumPy scalar operations of
the exact width, so f32 rounds like f32 hardware.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from gpuoff.ir import interp_math as M
from gpuoff.ir.types import ScalarType, f16, f32, f64

Value = np.generic


def wrap(value: int, t: ScalarType) -> int:
    """``value`` reduced to the range of integer type ``t`` (two's complement)."""
    mask = (1 << t.bits) - 1
    v = value & mask
    if t.is_signed and v >> (t.bits - 1):
        v -= 1 << t.bits
    return v


def make(value: int | float | bool, t: ScalarType) -> Value:
    """A NumPy scalar of type ``t`` from a Python value (ints wrap, floats round)."""
    if t.is_bool:
        return np.bool_(bool(value))
    if t.is_int:
        return t.np_dtype.type(wrap(int(value), t))
    return t.np_dtype.type(float(value))


def _int(v: Value) -> int:
    return int(v)


# --------------------------------------------------------------------------------------------
# Casts
# --------------------------------------------------------------------------------------------


def cast(v: Value, src: ScalarType, dst: ScalarType) -> Value:
    """``Cast`` semantics: int wraps, float->int truncates and saturates (NaN -> 0),
    int->float rounds to nearest, anything->bool is ``!= 0``, bool->number is 0 or 1."""
    if dst.is_bool:
        return np.bool_(bool(v != 0))
    if src.is_bool:
        return make(1 if bool(v) else 0, dst)
    if dst.is_int:
        if src.is_int:
            return make(wrap(_int(v), dst), dst)
        x = float(v)
        if math.isnan(x):
            return make(0, dst)
        lo, hi = int_range(dst)
        if math.isinf(x):
            return make(hi if x > 0 else lo, dst)
        return make(min(max(math.trunc(x), lo), hi), dst)
    # Float destination: NumPy's own conversion rounds once, to nearest (no detour via f64
    # for i64 -> f32, which could double-round).
    out: Value = np.array([v]).astype(dst.np_dtype)[0]
    return out


def int_range(t: ScalarType) -> tuple[int, int]:
    """Smallest and largest value of integer type ``t``."""
    if t.is_signed:
        return -(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1
    return 0, (1 << t.bits) - 1


# --------------------------------------------------------------------------------------------
# Unary and binary operators
# --------------------------------------------------------------------------------------------


def unary(op: str, v: Value, t: ScalarType) -> Value:
    """``Unary`` semantics."""
    if op == "not":
        return np.bool_(not bool(v))
    if op == "neg":
        if t.is_int:
            return make(-_int(v), t)
        return -v  # type: ignore[operator,no-any-return]
    if op == "invert":
        return make(~_int(v), t)
    raise ValueError(f"unknown unary op {op!r}")


def _int_floordiv(a: int, b: int) -> int:
    return 0 if b == 0 else a // b


def _int_mod(a: int, b: int) -> int:
    return 0 if b == 0 else a % b


def _int_pow(a: int, b: int, t: ScalarType) -> int:
    if b < 0:
        return 0
    # Modular exponentiation keeps huge exponents cheap; the result wraps anyway.
    return pow(a, b, 1 << t.bits)


def _shift_count(b: int, t: ScalarType) -> int:
    return b & (t.bits - 1)


_INT_BINARY: dict[str, Callable[[int, int, ScalarType], int]] = {
    "add": lambda a, b, t: a + b,
    "sub": lambda a, b, t: a - b,
    "mul": lambda a, b, t: a * b,
    "floordiv": lambda a, b, t: _int_floordiv(a, b),
    "mod": lambda a, b, t: _int_mod(a, b),
    "pow": _int_pow,
    "bitand": lambda a, b, t: a & b,
    "bitor": lambda a, b, t: a | b,
    "bitxor": lambda a, b, t: a ^ b,
    "lshift": lambda a, b, t: a << _shift_count(b, t),
    # Python's >> on a negative int is arithmetic; unsigned values are never negative here.
    "rshift": lambda a, b, t: a >> _shift_count(b, t),
}

_FLOAT_BINARY: dict[str, Callable[[Value, Value], Value]] = {
    "add": lambda a, b: a + b,  # type: ignore[operator]
    "sub": lambda a, b: a - b,  # type: ignore[operator]
    "mul": lambda a, b: a * b,  # type: ignore[operator]
    "truediv": lambda a, b: a / b,  # type: ignore[operator]
    # NumPy's float // and % follow Python (floored quotient, remainder has the divisor's
    # sign) and give inf / nan instead of raising on division by zero.
    "floordiv": lambda a, b: a // b,  # type: ignore[operator]
    "mod": lambda a, b: a % b,  # type: ignore[operator]
    "pow": lambda a, b: np.power(a, b),
}

_BOOL_BINARY: dict[str, Callable[[bool, bool], bool]] = {
    "bitand": lambda a, b: a and b,
    "bitor": lambda a, b: a or b,
    "bitxor": lambda a, b: a != b,
}


def binary(op: str, a: Value, b: Value, t: ScalarType) -> Value:
    """``Binary`` semantics for operands (and result) of type ``t``."""
    if t.is_bool:
        return np.bool_(_BOOL_BINARY[op](bool(a), bool(b)))
    if t.is_int:
        return make(_INT_BINARY[op](_int(a), _int(b), t), t)
    return t.np_dtype.type(_FLOAT_BINARY[op](a, b))


_COMPARE: dict[str, Callable[[Value, Value], object]] = {
    "lt": lambda a, b: a < b,  # type: ignore[operator]
    "le": lambda a, b: a <= b,  # type: ignore[operator]
    "gt": lambda a, b: a > b,  # type: ignore[operator]
    "ge": lambda a, b: a >= b,  # type: ignore[operator]
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
}


def compare(op: str, a: Value, b: Value, t: ScalarType) -> Value:
    """``Compare`` semantics (IEEE: NaN compares unordered, ``ne`` is then True)."""
    if t.is_int or t.is_bool:
        return np.bool_(bool(_COMPARE[op](_int(a), _int(b))))  # type: ignore[arg-type]
    return np.bool_(bool(_COMPARE[op](a, b)))


# --------------------------------------------------------------------------------------------
# Math functions
# --------------------------------------------------------------------------------------------


def _round_fraction(x: Fraction, t: ScalarType) -> Value:
    """Round an exact rational to float type ``t`` once (no double rounding via f64)."""
    d = float(x)  # correctly rounded to f64
    if t is f64:
        return np.float64(d)
    r = t.np_dtype.type(d)
    if Fraction(d) == x or not math.isfinite(float(r)):
        return r
    # f64 -> narrower can only double-round when d lies exactly halfway between two
    # neighbours of the narrow type; break the tie by the exact value's side of d.
    lo = r if float(r) <= d else np.nextafter(r, t.np_dtype.type(-np.inf))
    hi = np.nextafter(lo, t.np_dtype.type(np.inf))
    if (float(lo) + float(hi)) / 2 == d:
        return hi if x > Fraction(d) else lo
    return r


def fma(a: Value, b: Value, c: Value, t: ScalarType) -> Value:
    """``a * b + c`` with a single rounding to ``t``."""
    fa, fb, fc = float(a), float(b), float(c)
    if not (math.isfinite(fa) and math.isfinite(fb) and math.isfinite(fc)):
        return t.np_dtype.type(fa * fb + fc)
    exact = Fraction(fa) * Fraction(fb) + Fraction(fc)
    if exact == 0:
        # The sign of an exact zero follows IEEE rules, which f64 arithmetic reproduces
        # exactly here (the product of two narrower floats is exact in f64).
        return t.np_dtype.type(fa * fb + fc) if t is not f64 else np.float64(fa * fb + fc)
    try:
        return _round_fraction(exact, t)
    except OverflowError:
        return t.np_dtype.type(math.copysign(math.inf, exact))


def _erf(x: Value, t: ScalarType) -> Value:
    return t.np_dtype.type(math.erf(float(x)))


def _rsqrt(x: Value, t: ScalarType) -> Value:
    one = t.np_dtype.type(1.0)
    return t.np_dtype.type(one / np.sqrt(x))


_FLOAT_MATH1: dict[str, Callable[[Value], Value]] = {
    "sqrt": np.sqrt,
    "exp": np.exp,
    "log": np.log,
    "log2": np.log2,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "tanh": np.tanh,
    "abs": np.abs,
    "floor": np.floor,
    "ceil": np.ceil,
}


def math_call(name: str, args: list[Value], arg_types: list[ScalarType], t: ScalarType) -> Value:
    """``MathCall`` semantics; ``t`` is the result type."""
    if name == "isnan":
        return np.bool_(bool(np.isnan(args[0])))
    if name == "isinf":
        return np.bool_(bool(np.isinf(args[0])))
    if name == "isfinite":
        return np.bool_(bool(np.isfinite(args[0])))
    if name == "signbit":
        return np.bool_(bool(np.signbit(args[0])))
    if name in ("popc", "clz", "ffs", "brev"):
        return make(M.bit_function(name, _int(args[0]), arg_types[0].bits), t)
    if t.is_int:
        ints = [_int(a) for a in args]
        if name == "sign":
            return make((ints[0] > 0) - (ints[0] < 0), t)
        if name == "abs":
            return make(abs(ints[0]), t)
        if name == "min":
            return make(min(ints), t)
        if name == "max":
            return make(max(ints), t)
        raise ValueError(f"{name} does not take integers")
    if t is f16:
        # Half precision: compute in f32, round once more (devices widen f16 math too).
        wide: list[Value] = [np.float32(a) for a in args]
        return np.float16(math_call(name, wide, [f32] * len(args), f32))
    if name in _FLOAT_MATH1:
        return t.np_dtype.type(_FLOAT_MATH1[name](args[0]))
    if name == "rsqrt":
        return _rsqrt(args[0], t)
    if name == "erf":
        return _erf(args[0], t)
    if name == "pow":
        return t.np_dtype.type(np.power(args[0], args[1]))
    if name in ("min", "max"):
        return float_min_max(name, args[0], args[1], t)
    if name == "fma":
        return fma(args[0], args[1], args[2], t)
    return _c99(name, args, t)


def _c99(name: str, args: list[Value], t: ScalarType) -> Value:
    """The functions of ``interp_math``: evaluated in f64, rounded once to ``t``."""
    if name == "nextafter":
        return t.np_dtype.type(np.nextafter(args[0], t.np_dtype.type(args[1])))
    if name == "sign":
        return t.np_dtype.type(M.sign(float(args[0])))
    with np.errstate(over="ignore"):
        if name in M.FLOAT1:
            return t.np_dtype.type(M.FLOAT1[name](float(args[0])))
        if name in M.FLOAT2:
            return t.np_dtype.type(M.FLOAT2[name](float(args[0]), float(args[1])))
    raise ValueError(f"unknown math function {name!r}")


def float_min_max(name: str, a: Value, b: Value, t: ScalarType) -> Value:
    """Float ``min``/``max`` as NumPy's ``np.minimum``/``np.maximum``: a NaN operand gives
    NaN, and of two equal values (``-0.0`` and ``0.0``) the second: ``a if a < b or isnan(a)
    else b`` (``>`` for max)."""
    x, y = float(a), float(b)
    keep = (x < y) if name == "min" else (x > y)
    return t.np_dtype.type(a if keep or math.isnan(x) else b)


def atomic(op: str, old: Value, value: Value, t: ScalarType, compare: Value | None = None) -> Value:
    """The new value stored by ``AtomicRMW`` ``op`` (its docstring): add/sub wrap (ints) or
    round (floats); cas compares bit patterns; inc/dec are CUDA's wrapping counters; integer
    min/max are exact; float min/max are C's ``fmin``/``fmax``, which ignore a NaN operand (as
    CUDA's and OpenCL's float atomics do), unlike ``MathCall``'s min/max."""
    if op in ("add", "sub"):
        return binary(op, old, value, t)
    if op == "exch":
        return value
    if op == "cas":
        assert compare is not None
        return value if old.tobytes() == compare.tobytes() else old
    if op in _ATOMIC_BITWISE:
        return binary(_ATOMIC_BITWISE[op], old, value, t)
    if op == "inc":
        return make(0 if int(old) >= int(value) else int(old) + 1, t)
    if op == "dec":
        return value if int(old) == 0 or int(old) > int(value) else make(int(old) - 1, t)
    if t.is_float:
        fn = np.fmin if op == "min" else np.fmax
        return t.np_dtype.type(fn(old, value))
    return math_call(op, [old, value], [t, t], t)


_ATOMIC_BITWISE = {"and": "bitand", "or": "bitor", "xor": "bitxor"}
