"""The typing rules (NEP 50 promotion, division, comparisons, math) as a table, and as seen
through lowered kernels."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, f64, i32
from gpuoff.frontend import lower_kernel, parse_signature
from gpuoff.frontend import typing_rules as R
from gpuoff.frontend.typing_rules import TypingError, VType
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from gpuoff.ir.verify import verify

NUMERIC = tuple(s for s in T.SCALARS if not s.is_bool)  # every integer width and float
ALL = (T.boolean, *NUMERIC)


def lower(fn: Callable[..., Any]) -> N.Module:
    types: list[T.ScalarType | T.ArrayType] = [
        T.ArrayType(d.dtype, 1) if d.is_array else d.dtype for d in parse_signature(fn)
    ]
    module = lower_kernel(fn, types)
    verify(module)
    for f in (module.kernel, *module.functions):
        for node in _walk(f.body):
            assert node.loc is not None, node
    return module


def _walk(node: object) -> list[N.Node]:
    if isinstance(node, tuple):
        return [n for item in node for n in _walk(item)]
    if not isinstance(node, N.Node):
        return []
    out: list[N.Node] = [node]
    for name in node.__dataclass_fields__:
        if name != "loc":
            out += _walk(getattr(node, name))
    return out


def stored(module: N.Module, k: int = 0) -> N.Expr:
    """The value of the k-th Store in the kernel's top-level body, below its final cast."""
    stores = [s for s in module.kernel.body if isinstance(s, N.Store)]
    value = stores[k].value
    return value.value if isinstance(value, N.Cast) else value


# --------------------------------------------------------------------------------------------
# The rules themselves
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("a", "b"), list(itertools.product(ALL, ALL)))
def test_strong_promotion_matches_numpy(a: T.ScalarType, b: T.ScalarType) -> None:
    # R1: two strong operands promote exactly as NumPy's promote_types.
    expected = np.promote_types(a.np_dtype, b.np_dtype)
    assert R.common(VType(a), VType(b)).type.np_dtype == expected


@pytest.mark.parametrize("strong", ALL)
def test_weak_python_scalars_follow_nep50(strong: T.ScalarType) -> None:
    # R2: compare with NumPy 2 itself (array of `strong` combined with a Python scalar).
    arr = np.zeros(1, dtype=strong.np_dtype)
    for value, weak in ((1, VType(T.i64, True)), (1.0, VType(T.f64, True))):
        expected = (arr + value).dtype if not strong.is_bool or isinstance(value, float) else None
        got = R.common(VType(strong), weak)
        assert not got.weak
        if expected is not None:
            assert got.type.np_dtype == expected, (strong, value)
        else:
            assert got.type == T.i64  # NumPy: bool array + Python int -> default int


def test_weak_with_weak_stays_weak() -> None:
    # R3
    assert R.common(VType(T.i64, True), VType(T.f64, True)) == VType(T.f64, True)
    assert R.common(VType(T.i64, True), VType(T.i64, True)) == VType(T.i64, True)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (VType(T.i32), VType(T.i32), VType(T.f64)),  # int / int -> f64 (NumPy)
        (VType(T.f32), VType(T.i64, True), VType(T.f32)),  # f32 / 2 -> f32
        (VType(T.f32), VType(T.i32), VType(T.f64)),  # f32 / i32 -> f64 (R1)
        (VType(T.f16), VType(T.f16), VType(T.f16)),
        (VType(T.u8), VType(T.u8), VType(T.f64)),
        (VType(T.boolean), VType(T.boolean), VType(T.f64)),
        (VType(T.i64, True), VType(T.i64, True), VType(T.f64, True)),
    ],
)
def test_true_division(a: VType, b: VType, expected: VType) -> None:
    assert R.arithmetic("truediv", a, b) == expected


def test_bool_arithmetic_is_int64() -> None:
    # R4
    assert R.arithmetic("add", VType(T.boolean), VType(T.boolean)) == VType(T.i64)
    assert R.unary("neg", VType(T.boolean)) == VType(T.i64)
    assert R.arithmetic("mul", VType(T.boolean), VType(T.u8)) == VType(T.u8)


def test_bitwise_rules() -> None:
    # R6
    assert R.bitwise("bitand", VType(T.boolean), VType(T.boolean)) == VType(T.boolean)
    assert R.bitwise("bitor", VType(T.i32), VType(T.i64, True)) == VType(T.i32)
    assert R.bitwise("lshift", VType(T.boolean), VType(T.boolean)) == VType(T.i64)
    with pytest.raises(TypingError, match="integers or bools"):
        R.bitwise("bitxor", VType(T.f32), VType(T.i32))
    with pytest.raises(TypingError):
        R.unary("invert", VType(T.f64))


def test_math_rules() -> None:
    # R8
    assert R.math_call("sqrt", [VType(T.i32)]) == (VType(T.f64), VType(T.f64))
    assert R.math_call("sqrt", [VType(T.f32)]) == (VType(T.f32), VType(T.f32))
    assert R.math_call("pow", [VType(T.f32), VType(T.f64, True)])[1] == VType(T.f32)
    assert R.math_call("abs", [VType(T.i32)]) == (VType(T.i32), VType(T.i32))
    assert R.math_call("abs", [VType(T.boolean)])[1] == VType(T.i64)
    assert R.math_call("max", [VType(T.u8), VType(T.i32)])[1] == VType(T.i32)
    assert R.math_call("isnan", [VType(T.f32)]) == (VType(T.f32), VType(T.boolean))
    assert R.math_call("isinf", [VType(T.i64)]) == (VType(T.f64), VType(T.boolean))
    with pytest.raises(TypingError, match="takes 3 arguments"):
        R.math_call("fma", [VType(T.f32)])
    assert R.math_call("atan2", [VType(T.f32), VType(T.i64, True)]) == (VType(T.f32),
                                                                        VType(T.f32))  # fmt: skip
    assert R.math_call("sign", [VType(T.i16)]) == (VType(T.i16), VType(T.i16))
    assert R.math_call("signbit", [VType(T.f64)])[1] == VType(T.boolean)


def test_bit_intrinsic_rules() -> None:
    # R13: 32- and 64-bit integers as they are, narrower ones widened as C widens them
    assert R.math_call("popc", [VType(T.u64)]) == (VType(T.u64), VType(T.i32))
    assert R.math_call("clz", [VType(T.i8)]) == (VType(T.i32), VType(T.i32))
    assert R.math_call("ffs", [VType(T.u16)]) == (VType(T.u32), VType(T.i32))
    assert R.math_call("brev", [VType(T.u8)]) == (VType(T.u32), VType(T.u32))
    assert R.math_call("brev", [VType(T.i64, True)]) == (VType(T.i64), VType(T.i64))
    for bad in (T.f32, T.f64, T.boolean):
        with pytest.raises(TypingError, match="takes an integer"):
            R.math_call("popc", [VType(bad)])


def test_join_rules() -> None:
    # R9
    assert R.join(None, VType(T.i64, True)) == VType(T.i64, True)
    assert R.join(VType(T.f64, True), VType(T.f32)) == VType(T.f32)
    assert R.join(VType(T.i32), VType(T.f32)) == VType(T.f64)
    with pytest.raises(TypingError, match="both a bool and a number"):
        R.join(VType(T.boolean), VType(T.i32))


def test_index_and_range_rules() -> None:
    # R10
    assert R.index(VType(T.u8)) == T.INDEX
    assert R.index(VType(T.boolean)) == T.INDEX
    with pytest.raises(TypingError):
        R.index(VType(T.f32))
    assert R.range_type([VType(T.i32), VType(T.i64, True)]) == VType(T.i32)
    assert R.range_type([VType(T.i64, True)]) == VType(T.i64, True)
    with pytest.raises(TypingError):
        R.range_type([VType(T.f64, True)])


def test_literals_and_fits() -> None:
    assert R.literal(3) == VType(T.i64, True)
    assert R.literal(2.5) == VType(T.f64, True)
    assert R.literal(True) == VType(T.boolean)
    assert R.literal(np.float32(1)) == VType(T.f32)
    assert R.literal(np.int32(1)) == VType(T.i32)
    with pytest.raises(TypingError, match="64 bits"):
        R.literal(2**70)
    assert R.fits(255, T.u8) and not R.fits(256, T.u8) and not R.fits(-1, T.u32)
    with pytest.raises(TypingError):
        R.atomic("add", T.u8)
    R.atomic("max", T.f32)


# --------------------------------------------------------------------------------------------
# The rules through the front end
# --------------------------------------------------------------------------------------------


def k_weak_float(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    y[i] = x[i] * 2.0


def test_weak_literal_keeps_f32() -> None:
    value = stored(lower(k_weak_float))
    assert isinstance(value, N.Binary) and value.type == T.f32
    assert isinstance(value.rhs, N.Const) and value.rhs.type == T.f32 and value.rhs.value == 2.0


def k_i32_plus_one(n: i32, y: BorrowMut[Array[i32]]) -> None:
    y[0] = n + 1


def test_int_literal_keeps_i32() -> None:
    value = stored(lower(k_i32_plus_one))
    assert isinstance(value, N.Binary) and value.type == T.i32 and value.op == "add"
    assert value.rhs == N.Const(T.i32, 1)


def k_strong_mix(n: i32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = x[0] * n


def test_strong_i32_times_f32_is_f64_then_cast() -> None:
    module = lower(k_strong_mix)
    store = next(s for s in module.kernel.body if isinstance(s, N.Store))
    assert isinstance(store.value, N.Cast) and store.value.type == T.f32
    inner = store.value.value
    assert isinstance(inner, N.Binary) and inner.type == T.f64
    assert isinstance(inner.lhs, N.Cast) and isinstance(inner.rhs, N.Cast)


def k_divisions(n: i32, m: i32, x: Borrow[Array[f32]], y: BorrowMut[Array[f64]]) -> None:
    y[0] = n / m
    y[1] = x[0] / 2
    y[2] = n // m
    y[3] = n % m
    y[4] = x[0] // 2.0
    y[5] = -7 // 2


def test_division_nodes() -> None:
    module = lower(k_divisions)
    true_int = stored(module, 0)
    assert isinstance(true_int, N.Binary) and true_int.op == "truediv" and true_int.type == T.f64
    assert isinstance(true_int.lhs, N.Cast) and true_int.lhs.value == N.Var(T.i32, "n")
    f32_div = stored(module, 1)
    assert isinstance(f32_div, N.Binary) and f32_div.type == T.f32
    floordiv = stored(module, 2)
    assert isinstance(floordiv, N.Binary) and floordiv.op == "floordiv"
    assert floordiv.type == T.i32
    mod = stored(module, 3)
    assert isinstance(mod, N.Binary) and mod.op == "mod" and mod.type == T.i32
    ffloor = stored(module, 4)
    assert isinstance(ffloor, N.Binary) and ffloor.op == "floordiv" and ffloor.type == T.f32
    # Constant folding follows Python's floor semantics.
    assert stored(module, 5) == N.Const(T.f64, -4.0)


def k_compare(n: i32, x: Borrow[Array[f32]], y: BorrowMut[Array[go.boolean]]) -> None:
    y[0] = 0 < n < 10
    y[1] = x[0] != 1  # type: ignore[comparison-overlap]
    y[2] = not n
    y[3] = n > 0 and x[0] > 0 or False


def test_comparisons_and_logic() -> None:
    module = lower(k_compare)
    chained = stored(module, 0)
    assert isinstance(chained, N.Logical) and chained.op == "and"
    assert isinstance(chained.lhs, N.Compare) and chained.lhs.op == "lt"
    assert chained.lhs.lhs == N.Const(T.i32, 0)
    assert isinstance(chained.rhs, N.Compare) and chained.rhs.lhs == N.Var(T.i32, "n")
    ne = stored(module, 1)
    assert isinstance(ne, N.Compare) and ne.op == "ne" and ne.lhs.type == T.f32
    not_n = stored(module, 2)
    assert isinstance(not_n, N.Unary) and not_n.op == "not"
    assert isinstance(not_n.operand, N.Compare) and not_n.operand.op == "ne"
    logic = stored(module, 3)
    assert isinstance(logic, N.Logical) and logic.op == "or"
    assert isinstance(logic.lhs, N.Logical) and logic.lhs.op == "and"


def k_unary(n: i32, b: go.boolean, y: BorrowMut[Array[i32]]) -> None:
    y[0] = -n
    y[1] = ~n
    y[2] = ~b
    y[3] = +n
    y[4] = -3


def test_unary_ops() -> None:
    module = lower(k_unary)
    neg = stored(module, 0)
    assert isinstance(neg, N.Unary) and neg.op == "neg" and neg.type == T.i32
    inv = stored(module, 1)
    assert isinstance(inv, N.Unary) and inv.op == "invert"
    bool_inv = stored(module, 2)  # R11: ~bool is logical not
    assert isinstance(bool_inv, N.Unary) and bool_inv.op == "not" and bool_inv.type == T.boolean
    assert stored(module, 3) == N.Var(T.i32, "n")
    assert stored(module, 4) == N.Const(T.i32, -3)


def k_select(n: i32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = x[0] if n > 0 else 0


def test_conditional_expression() -> None:
    sel = stored(lower(k_select))
    assert isinstance(sel, N.Select) and sel.type == T.f32
    assert sel.if_false == N.Const(T.f32, 0.0)


def k_casts(x: Borrow[Array[f32]], y: BorrowMut[Array[f64]]) -> None:
    y[0] = int(x[0])
    y[1] = float(x[0])
    y[2] = bool(x[0])
    y[3] = go.f32(x[0]) + go.i32(2)
    y[4] = np.float32(x[0])  # type: ignore[assignment]


def test_casts() -> None:
    module = lower(k_casts)
    to_int = stored(module, 0)
    assert isinstance(to_int, N.Cast) and to_int.type == T.i64
    raw = [s for s in module.kernel.body if isinstance(s, N.Store)][1].value
    assert isinstance(raw, N.Cast) and raw.type == T.f64
    assert isinstance(raw.value, N.Load) and raw.value.indices == (N.Const(T.i64, 0),)
    to_bool = stored(module, 2)
    assert isinstance(to_bool, N.Compare) and to_bool.op == "ne"
    mixed = stored(module, 3)  # f32 + i32 -> f64 (both strong)
    assert isinstance(mixed, N.Binary) and mixed.type == T.f64
    np_cast = stored(module, 4)
    assert isinstance(np_cast, N.Load) and np_cast.type == T.f32  # already f32: no Cast node


def k_math(n: i32, x: Borrow[Array[f32]], y: BorrowMut[Array[f64]]) -> None:
    import_free = x[0]
    y[0] = go.sqrt(import_free)
    y[1] = go.sqrt(n)
    y[2] = abs(n)
    y[3] = min(n, 3, x[0])
    y[4] = go.isnan(import_free)
    y[5] = go.fma(import_free, 2.0, 1.0)
    y[6] = pow(import_free, 2) + n**2


def test_math_calls() -> None:
    module = lower(k_math)
    sq = stored(module, 0)
    assert isinstance(sq, N.MathCall) and sq.name == "sqrt" and sq.type == T.f32
    sq_int = stored(module, 1)
    assert isinstance(sq_int, N.MathCall) and sq_int.type == T.f64
    assert isinstance(sq_int.args[0], N.Cast)
    ab = stored(module, 2)
    assert isinstance(ab, N.MathCall) and ab.name == "abs" and ab.type == T.i32
    mn = stored(module, 3)  # min(min(n, 3), x[0]) -> promoted to f64 (i32 with f32)
    assert isinstance(mn, N.MathCall) and mn.name == "min" and mn.type == T.f64
    assert isinstance(mn.args[0], N.Cast) and isinstance(mn.args[0].value, N.MathCall)
    isnan = stored(module, 4)
    assert isinstance(isnan, N.MathCall) and isnan.type == T.boolean
    fma = stored(module, 5)
    assert isinstance(fma, N.MathCall) and fma.type == T.f32
    assert fma.args[1] == N.Const(T.f32, 2.0)
    pows = stored(module, 6)
    assert isinstance(pows, N.Binary) and pows.type == T.f64
    assert isinstance(pows.lhs, N.Cast) and isinstance(pows.lhs.value, N.Binary)
    assert pows.lhs.value.op == "pow" and pows.lhs.value.type == T.f32


def k_compare_out_of_range(c: go.u8, out: BorrowMut[Array[go.boolean]]) -> None:
    out[0] = c < 300
    out[1] = c > -1


def test_comparison_with_out_of_range_literal_is_exact() -> None:
    module = lower(k_compare_out_of_range)
    for k in (0, 1):
        cmp = stored(module, k)
        assert isinstance(cmp, N.Compare) and cmp.lhs == N.Cast(T.i64, N.Var(T.u8, "c"))
    assert stored(module, 0).rhs == N.Const(T.i64, 300)  # type: ignore[attr-defined]
