"""The kernel language's typing rules, in one place: one function per operation.

Values carry a ``VType``: an IR scalar type plus ``weak``. Python literals and captured Python
ints/floats are *weak* (NEP 50, NumPy 2): they adapt to the other operand's type instead of
widening it, so ``x[i] * 2.0`` stays f32 for an f32 ``x`` and ``i + 1`` stays i32 for an i32
``i``. Everything else (array elements, parameters, ids, casts, NumPy scalars) is *strong*.

Promotion rules (numbered; other functions cite them):

 R1. strong op strong: NumPy's ``promote_types`` (bool < ints < floats; the smallest type
     holding both: i8 with u8 -> i16, u16 with i16 -> i32, u32 with i32 -> i64, u64 with any
     signed int -> f64 (NumPy's rule: no integer holds both), i16 with f16 -> f32, i32 with
     f32 -> f64, u8 with f16 -> f16).
 R2. weak op strong: the strong type, except a weak float with a strong int or bool gives f64,
     and a weak int with a strong bool gives i64 (NumPy's default int / float).
 R3. weak op weak: weak, the wider kind of the two (bool < int < float; ints are i64, floats
     f64).
 R4. Arithmetic (``+ - * // % **``, unary ``-``/``+``, shifts) whose common type is bool
     computes in i64 (as Python does; NumPy would reject it or turn ``+`` into ``or``).
 R5. ``/`` gives a float: the R1-R3 common type if it is a float, else f64.
 R6. Bitwise ``& | ^`` on ints and bools only (bool & bool is bool); shifts on ints only
     (bools are first widened by R4); floats are an error.
 R7. Comparisons convert both operands to the R1-R3 common type and give (strong) bool.
 R8. Float math functions take floats: int and bool arguments become f64 (weak if they were
     weak). ``abs``/``min``/``max``/``sign`` keep ints (bools widen by R4). ``isnan``/
     ``isinf``/``isfinite``/``signbit`` give bool.
 R9. A local variable's type is the join (R1-R3) of everything assigned to it; it stays weak
     only if every value assigned was weak. A bool joined with a number is an error.
 R10. Array indices are ints or bools, converted to INDEX (i64); a float index is an error.
 R11. ``~`` on a bool is logical not (NumPy); on ints the bitwise complement.
 R12. Atomics (``atomic``): 32- and 64-bit elements; the value (and cas's compare) is
      converted to the element type, the result is the element type.
 R13. Bit intrinsics (``bit_argument``): integers, narrower than 32 bits widened to 32 as C
      does; ``popc``/``clz``/``ffs`` give i32, ``brev`` the (widened) argument's type.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from gpuoff.ir import verify


class TypingError(Exception):
    """A typing rule was broken; the front end turns it into a ``CompileError`` at the node."""


@dataclass(frozen=True)
class VType:
    """A value's type during lowering: the IR scalar type and whether it is weak (NEP 50)."""

    type: T.ScalarType
    weak: bool = False

    def __str__(self) -> str:
        return f"{self.type} (Python literal)" if self.weak else str(self.type)


_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2}


def _strong(a: T.ScalarType, b: T.ScalarType) -> T.ScalarType:
    # R1
    return T.scalar_from_numpy(np.promote_types(a.np_dtype, b.np_dtype))


def common(a: VType, b: VType) -> VType:
    """The common type of two operands (R1-R3)."""
    if not a.weak and not b.weak:
        return VType(_strong(a.type, b.type))
    if a.weak and b.weak:
        # R3
        return a if _KIND_RANK[a.type.kind] >= _KIND_RANK[b.type.kind] else b
    weak, strong = (a, b) if a.weak else (b, a)
    # R2
    if weak.type.is_float and not strong.type.is_float:
        return VType(T.f64)
    if weak.type.is_int and strong.type.is_bool:
        return VType(T.i64)
    return strong


def _arith(v: VType) -> VType:
    # R4
    return VType(T.i64, v.weak) if v.type.is_bool else v


def arithmetic(op: str, a: VType, b: VType) -> VType:
    """Operand (= result) type of ``add sub mul floordiv mod pow`` (R1-R4) and ``truediv``
    (R5: the result type; operands are converted to it)."""
    c = _arith(common(a, b))
    if op == "truediv" and not c.type.is_float:
        return VType(T.f64, c.weak)
    return c


def bitwise(op: str, a: VType, b: VType) -> VType:
    """Operand (= result) type of ``bitand bitor bitxor lshift rshift`` (R6)."""
    for v in (a, b):
        if v.type.is_float:
            raise TypingError(f"bitwise operators need integers or bools, got {v}")
    if op in ("lshift", "rshift"):
        return _arith(common(a, b))
    return common(a, b)


def compare(a: VType, b: VType) -> VType:
    """Operand type of a comparison (R7); the result is bool."""
    return common(a, b)


def unary(op: str, a: VType) -> VType:
    """Operand (= result) type of unary ``neg``, ``pos``, ``invert`` (R4, R6, R11)."""
    if op in ("neg", "pos"):
        return _arith(a)
    if a.type.is_float:
        raise TypingError(f"~ needs an integer or a bool, got {a}")
    return a


def float_of(v: VType) -> VType:
    """The float type an int or bool argument of a float function becomes (R8)."""
    return v if v.type.is_float else VType(T.f64, v.weak)


FLOAT_MATH = frozenset(N.FLOAT_FUNCS)
MATH_ARITY = {**N.FLOAT_FUNCS, **N.NUMERIC_FUNCS, **N.PREDICATE_FUNCS, **N.BIT_FUNCS}


def math_call(name: str, args: list[VType]) -> tuple[VType, VType]:
    """``(argument type, result type)`` of math function ``name`` (R8, R13)."""
    want = MATH_ARITY.get(name, 1)
    if len(args) != want:
        raise TypingError(f"{name}() takes {want} argument{'s' if want > 1 else ''}")
    joined = args[0]
    for v in args[1:]:
        joined = common(joined, v)
    if name in FLOAT_MATH:
        f = float_of(joined)
        return f, f
    if name in N.PREDICATE_FUNCS:
        return float_of(joined), VType(T.boolean)
    if name in N.BIT_FUNCS:
        return bit_argument(name, joined), bit_result(name, bit_argument(name, joined))
    arith = _arith(joined) if name in ("abs", "sign") else joined
    if arith.type.is_bool:
        arith = VType(T.i64, arith.weak)
    return arith, arith


def bit_argument(name: str, v: VType) -> VType:
    """R13. The bit intrinsics (``popc``, ``clz``, ``ffs``, ``brev``) take integers: 32- and
    64-bit ones as they are, narrower ones converted to 32 bits first as C converts them for
    CUDA's ``__popc`` & co. (i8/i16 to i32, u8/u16 to u32), a Python literal as i64. Floats
    and bools are an error."""
    if not v.type.is_int:
        raise TypingError(f"go.{name}() takes an integer, got {v}")
    if v.weak:
        return VType(T.i64)
    if v.type.bits < 32:
        return VType(T.i32 if v.type.is_signed else T.u32)
    return VType(v.type)


def bit_result(name: str, arg: VType) -> VType:
    """R13. ``popc``, ``clz`` and ``ffs`` give i32 (as CUDA's); ``brev`` the argument's type."""
    return arg if name == "brev" else VType(T.i32)


def select(a: VType, b: VType) -> VType:
    """Type of a conditional expression's two branches (R1-R3; bool with number -> error)."""
    return join(a, b, what="the two branches of a conditional expression")


def join(old: VType | None, new: VType, what: str = "a variable") -> VType:
    """The join of types assigned to one variable or returned by one function (R9)."""
    if old is None:
        return new
    if old.type.is_bool != new.type.is_bool:
        raise TypingError(
            f"{what} holds both a bool and a number ({old} and {new}); convert explicitly "
            "with int(...) or bool(...)"
        )
    return common(old, new)


def index(v: VType) -> T.ScalarType:
    """The type an index is converted to (R10)."""
    if v.type.is_float:
        raise TypingError(f"array indices must be integers, got {v}")
    return T.INDEX


def range_type(args: list[VType]) -> VType:
    """The loop variable type of ``range(*args)``: the join of the integer arguments."""
    out: VType | None = None
    for v in args:
        if v.type.is_float:
            raise TypingError(f"range() arguments must be integers, got {v}")
        out = v if out is None else common(out, v)
    assert out is not None
    return _arith(out)


ATOMIC_KIND_NAMES = {"iuf": "32- and 64-bit integer and float", "iu": "32- and 64-bit integer",
                     "u": "unsigned 32- and 64-bit integer (u32, u64)"}  # fmt: skip


def atomic(op: str, dtype: T.ScalarType) -> None:
    """R12. Atomics take arrays of 32- or 64-bit elements: every op on i32, u32, i64, u64;
    add, sub, exch, cas, min and max also on f32 and f64; inc and dec (CUDA's wrapping
    counters) on u32 and u64 only. 8- and 16-bit elements have no atomics on any device."""
    kinds = N.ATOMIC_KINDS[op]
    if verify.atomic_supports(op, dtype):
        return
    raise TypingError(f"go.atomic_{op} is not available for {dtype} arrays (it takes "
                      f"{ATOMIC_KIND_NAMES[kinds]} elements)")  # fmt: skip


def fits(value: int | float | bool, t: T.ScalarType) -> bool:
    """Whether a Python constant is representable in ``t`` without wrapping."""
    if t.is_bool or t.is_float or isinstance(value, float):
        return not (t.is_int and isinstance(value, float) and not math.isfinite(value))
    info = np.iinfo(t.np_dtype)  # type: ignore[type-var]
    return int(info.min) <= int(value) <= int(info.max)


def literal(value: object) -> VType:
    """The type of a Python or NumPy constant (Python numbers are weak)."""
    if isinstance(value, bool | np.bool_):
        return VType(T.boolean)
    if isinstance(value, np.generic):
        try:
            return VType(T.scalar_from_numpy(value.dtype))
        except KeyError:
            raise TypingError(f"NumPy type {value.dtype} is not supported in kernels") from None
    if isinstance(value, int):
        if not fits(value, T.i64):
            raise TypingError(f"integer constant {value} does not fit in 64 bits")
        return VType(T.i64, weak=True)
    if isinstance(value, float):
        return VType(T.f64, weak=True)
    raise TypingError(f"constant {value!r} of type {type(value).__name__} cannot be used")
