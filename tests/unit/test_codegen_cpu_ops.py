"""CPU codegen: scalar operations against the reference interpreter (and NumPy)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence

import numpy as np
import pytest

from gpuoff.errors import BoundsError
from gpuoff.ir import interp
from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from tests.unit import irbuild as b
from tests.unit.test_codegen_cpu_loader import run_cpu


def both(module: n.Module, args: Sequence[object], grid: int | Sequence[int],
         block: Sequence[int] | None = None) -> tuple[np.ndarray, str | None]:  # fmt: skip
    """Run on the CPU and in the interpreter; assert every array agrees bit for bit (NaNs
    equal). Returns the CPU err record and the interpreter's BoundsError message (or None)."""
    ref = copy.deepcopy(list(args))
    message = None
    try:
        interp.run(module, ref, grid, block)
    except BoundsError as e:
        message = str(e)
    err = run_cpu(module, args, grid, block)
    for got, want in zip(args, ref, strict=True):
        if isinstance(got, np.ndarray):
            np.testing.assert_array_equal(got, want)
    return err, message


def eps(st: t.ScalarType) -> float:
    """Machine epsilon of float type ``st``."""
    return float(np.finfo(np.float32 if st.bits == 32 else np.float64).eps)


def elementwise(name: str, dtypes: Sequence[t.ScalarType], out: t.ScalarType,
                f: Callable[[list[n.Expr]], n.Expr]) -> n.Module:  # fmt: skip
    """``out[i] = f(in0[i], in1[i], ...)`` for ``i = global_id(0)``, unchecked."""
    ins = [b.ref(f"in{k}", b.arr(dt)) for k, dt in enumerate(dtypes)]
    o = b.ref("out", b.mut(out))
    i = b.gid(0)
    body: list[n.Stmt] = [b.store(o, i, f([b.load(a, i) for a in ins]))]
    params = [b.param(a.name, a.type) for a in ins] + [b.param("out", o.type)]
    return b.module(b.kernel(name, params, body))


INT_EDGES = {
    t.i32: [0, 1, -1, 2, -2, 7, -7, 3, -3, 2**31 - 1, -(2**31)],
    t.i64: [0, 1, -1, 5, -5, 13, -13, 2**63 - 1, -(2**63)],
    t.u32: [0, 1, 2, 3, 7, 2**32 - 1, 2**31],
    t.u8: [0, 1, 2, 3, 200, 255],
    t.i8: [0, 1, -1, 2, -2, 7, -7, 127, -128, 100],
    t.i16: [0, 1, -1, 3, -3, 255, 256, 32767, -32768, 300],
    t.u16: [0, 1, 2, 3, 255, 256, 300, 65535, 32768],
    t.u64: [0, 1, 2, 3, 7, 2**64 - 1, 2**63, 2**32 + 5],
}


def _pairs(st: t.ScalarType) -> tuple[np.ndarray, np.ndarray]:
    vals = np.array(INT_EDGES[st], dtype=st.np_dtype)
    a, c = np.meshgrid(vals, vals)
    return a.ravel(), c.ravel()


@pytest.mark.parametrize("st", list(INT_EDGES), ids=str)
@pytest.mark.parametrize("op", ["floordiv", "mod", "add", "sub", "mul", "bitand", "bitor",
                                "bitxor", "lshift", "rshift"])  # fmt: skip
def test_integer_binary_ops_match_interpreter(st: t.ScalarType, op: str) -> None:
    a, c = _pairs(st)
    m = elementwise(f"i_{op}", [st, st], st, lambda v: b.bin_(op, v[0], v[1]))
    out = np.zeros_like(a)
    both(m, [a, c, out], a.size)


def test_python_floor_division_and_modulo_on_ints() -> None:
    a = np.array([7, -7, 7, -7, 5, -(2**31), 9], dtype=np.int32)
    c = np.array([2, 2, -2, -2, 0, -1, -1], dtype=np.int32)
    q = np.zeros_like(a)
    r = np.zeros_like(a)
    run_cpu(elementwise("q", [t.i32, t.i32], t.i32, lambda v: b.bin_("floordiv", *v)),
            [a, c, q], a.size)  # fmt: skip
    run_cpu(elementwise("r", [t.i32, t.i32], t.i32, lambda v: b.bin_("mod", *v)),
            [a, c, r], a.size)  # fmt: skip
    np.testing.assert_array_equal(q, [3, -4, -4, 3, 0, -(2**31), -9])
    np.testing.assert_array_equal(r, [1, 1, -1, -1, 0, 0, 0])


def test_integer_pow_with_negative_exponent_is_zero() -> None:
    a = np.array([2, 3, -2, 5, 2, 1], dtype=np.int64)
    e = np.array([10, 0, 3, -1, 62, -5], dtype=np.int64)
    out = np.zeros_like(a)
    both(elementwise("ipow", [t.i64, t.i64], t.i64, lambda v: b.bin_("pow", *v)),
         [a, e, out], a.size)  # fmt: skip
    np.testing.assert_array_equal(out, [1024, 1, -8, 0, 2**62, 0])


FLOATS = [0.0, -0.0, 1.5, -1.5, 7.0, -7.0, 0.3, -2.5, 1e30, -1e-30, np.inf, -np.inf, np.nan]


@pytest.mark.parametrize("st", [t.f32, t.f64], ids=str)
@pytest.mark.parametrize("op", ["floordiv", "mod", "add", "sub", "mul", "truediv", "pow"])
def test_float_binary_ops_match_numpy(st: t.ScalarType, op: str) -> None:
    a, c = (x.ravel().astype(st.np_dtype) for x in np.meshgrid(FLOATS, FLOATS))
    out = np.zeros_like(a)
    run_cpu(elementwise(f"f_{op}", [st, st], st, lambda v: b.bin_(op, *v)), [a, c, out], a.size)
    ref = {
        "floordiv": np.floor_divide, "mod": np.mod, "add": np.add, "sub": np.subtract,
        "mul": np.multiply, "truediv": np.divide, "pow": np.power,
    }[op]  # fmt: skip
    with np.errstate(all="ignore"):
        want = ref(a, c)
    finite_div = np.isfinite(a) & np.isfinite(c) & (c != 0)
    if op in ("floordiv", "mod"):
        # Python/NumPy agree on finite operands with a non-zero divisor; elsewhere NumPy's
        # rules (inf/nan, no exception) are the IR's, and the interpreter's.
        np.testing.assert_array_equal(out[finite_div], want[finite_div])
        np.testing.assert_array_equal(out, want)
    elif op == "pow":  # libm accuracy: a few ulp
        np.testing.assert_allclose(out, want, rtol=4 * eps(st))
    else:
        np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("src", [t.f32, t.f64], ids=str)
@pytest.mark.parametrize("dst", [*t.INTEGERS, t.boolean], ids=str)
def test_float_to_int_casts_saturate_and_truncate(src: t.ScalarType, dst: t.ScalarType) -> None:
    vals = [0.0, -0.7, 0.7, 2.9, -2.9, 255.9, 256.0, -1.0, 3e9, -3e9, 1e20, -1e20,
            np.inf, -np.inf, np.nan]  # fmt: skip
    a = np.array(vals, dtype=src.np_dtype)
    out = np.zeros(a.size, dtype=dst.np_dtype)
    both(elementwise("fcast", [src], dst, lambda v: b.cast(dst, v[0])), [a, out], a.size)
    if dst.is_int:
        info = np.iinfo(out.dtype)
        lim = [float(info.min), float(info.max)]
        want = [0 if np.isnan(v) else int(min(max(float(v), lim[0]), lim[1])) for v in a]
        want = [min(max(w, int(info.min)), int(info.max)) for w in want]
        assert out.tolist() == want
    else:
        np.testing.assert_array_equal(out, a != 0)


@pytest.mark.parametrize("src", [*t.INTEGERS, t.boolean, t.f32, t.f64], ids=str)
@pytest.mark.parametrize("dst", [*t.INTEGERS, t.f32, t.f64], ids=str)
def test_casts_match_interpreter(src: t.ScalarType, dst: t.ScalarType) -> None:
    if src.is_bool:
        a = np.array([True, False, True])
    elif src.is_float:
        a = np.array([0.0, 1.5, -2.5, 1e6, 3e4], dtype=src.np_dtype)
    else:
        a = np.array(INT_EDGES[src], dtype=src.np_dtype)
    out = np.zeros(a.size, dtype=dst.np_dtype)
    both(elementwise("cast", [src], dst, lambda v: b.cast(dst, v[0])), [a, out], a.size)


@pytest.mark.parametrize("op", list(n.COMPARE_OPS))
@pytest.mark.parametrize("st", [t.f32, t.i32, t.u32, t.i8, t.u64], ids=str)
def test_comparisons_with_nan_and_signedness(op: str, st: t.ScalarType) -> None:
    vals = [0.0, 1.0, -1.0, np.nan] if st.is_float else [0, 1, 2 ** (st.bits - 1) - 1, 5]
    a, c = (x.ravel().astype(st.np_dtype) for x in np.meshgrid(vals, vals))
    if st.is_int and not st.is_signed:
        a[0] = 2**st.bits - 1  # the largest unsigned value compares above every other
    out = np.zeros(a.size, dtype=np.bool_)
    both(elementwise("cmp", [st, st], t.boolean, lambda v: b.cmp(op, *v)), [a, c, out], a.size)


@pytest.mark.parametrize("op", ["neg", "invert"])
@pytest.mark.parametrize("st", [t.i32, t.i8, t.i16, t.u16, t.u64], ids=str)
def test_unary_ops(op: str, st: t.ScalarType) -> None:
    a = np.array(INT_EDGES[st], dtype=st.np_dtype)
    out = np.zeros_like(a)
    both(elementwise("un", [st], st, lambda v: n.Unary(st, op, v[0])), [a, out], a.size)
    want = np.negative(a) if op == "neg" else np.invert(a)  # NumPy wraps the same way
    np.testing.assert_array_equal(out, want)
    f = np.array([1.5, -0.0, np.inf], dtype=np.float32)
    fo = np.zeros_like(f)
    run_cpu(elementwise("fneg", [t.f32], t.f32, lambda v: n.Unary(t.f32, "neg", v[0])),
            [f, fo], f.size)  # fmt: skip
    np.testing.assert_array_equal(np.signbit(fo), ~np.signbit(f))


def test_bool_arrays_are_bytes() -> None:
    a = np.array([True, False, True, False])
    c = np.array([True, True, False, False])
    out = np.zeros(4, dtype=np.bool_)
    both(elementwise("band", [t.boolean, t.boolean], t.boolean, lambda v: b.bin_("bitxor", *v)),
         [a, c, out], 4)  # fmt: skip
    np.testing.assert_array_equal(out, a ^ c)


def test_scalar_params_of_every_type_reach_the_kernel() -> None:
    # out[k] = f64(param_k) for one scalar parameter of each type, packed in 8-byte slots.
    types = [t.f16, t.f32, t.f64, t.i32, t.i64, t.u32, t.u8, t.boolean, t.i8, t.i16, t.u16,
             t.u64]  # fmt: skip
    values: list[object] = [np.float16(1.5), np.float32(-2.25), -3.125, -(2**31), 2**40,
                            2**32 - 1, 255, True, -128, -32768, 65535, 2**64 - 1]  # fmt: skip
    out = b.ref("out", b.mut(t.f64))
    body: list[n.Stmt] = [
        b.store(out, k, b.cast(t.f64, b.var(f"p{k}", st))) for k, st in enumerate(types)
    ]
    params = [b.param(f"p{k}", st) for k, st in enumerate(types)] + [b.param("out", out.type)]
    res = np.zeros(len(types))
    both(b.module(b.kernel("scalars", params, body)), [*values, res], 1)
    np.testing.assert_array_equal(res, [1.5, -2.25, -3.125, -(2**31), 2**40, 2**32 - 1, 255, 1,
                                        -128, -32768, 65535, 2.0**64])  # fmt: skip


def test_half_precision_arithmetic_and_math() -> None:
    a = np.array([0.5, 1.5, -2.0, 3.25], dtype=np.float16)
    out = np.zeros_like(a)
    both(elementwise("h", [t.f16, t.f16], t.f16, lambda v: b.bin_("mul", *v)), [a, a, out], 4)
    np.testing.assert_array_equal(out, a * a)
    run_cpu(elementwise("hs", [t.f16], t.f16, lambda v: b.math("tanh", v[0])), [a, out], 4)
    np.testing.assert_allclose(out, np.tanh(a), rtol=1e-3)
