"""The C99 math library (``go.*``, ``math.*``, ``np.*``) and CUDA's bit intrinsics on every
device, in f32 and f64, against the interpreter's definition (``gpuoff.ir.interp_math``:
Python's ``math`` and NumPy with C99's special values), which is itself checked against
NumPy and Python here.

Tolerances, in units in the last place of the reference: the functions that are exact in
IEEE arithmetic (trunc, round, rint, copysign, fmod, remainder, fdim, nextafter, sign, the
bit intrinsics) must match bit for bit, special values (NaN, infinities, signed zeros)
included; the others within OpenCL's required accuracy (its ``ULP`` table: the loosest of
the backends' contracts; CPU's libm and the NVPTX code are tighter, codegen tests measure
the latter), lgamma, for which OpenCL requires nothing, within 16 ulp or 4e-15 (f64) /
1e-6 (f32) absolute: near its zeros (1, 2, -2.457...) only absolute accuracy is to be had,
and CPython's own ``math.lgamma``, the reference, is off by 20 ulp at 2.52.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path
from typing import Any, TypeAlias

import numpy as np
import pytest

import gpuoff as go
from codegen.nvptx import compile_ptx
from gpuoff import Array, Borrow, BorrowMut
from gpuoff.frontend import lower_kernel
from gpuoff.ir import interp_math as M
from gpuoff.ir import types as t
from gpuoff.ir.interp_ops import math_call
from tests.backends.agree import agree, arg_types, specialise
from tests.backends.test_ptx import assemble

T: TypeAlias = go.f64  # the float type each test substitutes (specialise)
NDArray = np.ndarray[Any, Any]

UNARY = ["exp2", "exp10", "expm1", "log10", "log1p", "asin", "acos", "atan", "sinh", "cosh",
         "asinh", "acosh", "atanh", "cbrt", "erfc", "lgamma", "tgamma", "trunc", "round",
         "rint", "sign"]  # fmt: skip
BINARY = ["atan2", "hypot", "copysign", "fmod", "remainder", "fdim", "nextafter"]
ULP = {
    "exp2": 3, "exp10": 3, "expm1": 3, "log10": 3, "log1p": 2, "asin": 4, "acos": 4,
    "atan": 5, "sinh": 4, "cosh": 4, "asinh": 4, "acosh": 4, "atanh": 5, "cbrt": 2,
    "erfc": 16, "lgamma": 16, "tgamma": 16, "atan2": 6, "hypot": 4,
}  # fmt: skip
"""OpenCL 1.2's accuracy table (section 7.4) for single precision; functions absent are exact."""


def unary(x: Borrow[Array[T]], out: BorrowMut[Array[T]]) -> None:
    # One column per function of UNARY, in its order; go.* and math.* / np.* spellings mixed.
    i = go.global_id(0)
    if i < x.shape[0]:
        v = x[i]
        out[0, i] = go.exp2(v)
        out[1, i] = go.exp10(v)
        out[2, i] = math.expm1(v)
        out[3, i] = np.log10(v)
        out[4, i] = go.log1p(v)
        out[5, i] = math.asin(v)
        out[6, i] = np.arccos(v)
        out[7, i] = go.atan(v)
        out[8, i] = go.sinh(v)
        out[9, i] = math.cosh(v)
        out[10, i] = np.arcsinh(v)
        out[11, i] = go.acosh(v)
        out[12, i] = math.atanh(v)
        out[13, i] = np.cbrt(v)
        out[14, i] = math.erfc(v)
        out[15, i] = math.lgamma(v)
        out[16, i] = math.gamma(v)
        out[17, i] = math.trunc(v)
        out[18, i] = go.round(v)
        out[19, i] = np.round(v)
        out[20, i] = np.sign(v)


def binary(x: Borrow[Array[T]], y: Borrow[Array[T]], out: BorrowMut[Array[T]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        a = x[i]
        b = y[i]
        out[0, i] = math.atan2(a, b)
        out[1, i] = np.hypot(a, b)
        out[2, i] = math.copysign(a, b)
        out[3, i] = math.fmod(a, b)
        out[4, i] = math.remainder(a, b)
        out[5, i] = go.fdim(a, b)
        out[6, i] = np.nextafter(a, b)


SPECIAL = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 2.0,
           -2.0, 3.0, -3.0, 0.49999999999999994, 1e-300, -1e-300, 5e-324, 1e300, 170.5, 172.0,
           -170.5, 35.0, 0.999, 1.001, 2.2, 711.0, -745.0, 308.0, 27.0]  # fmt: skip


def inputs(dtype: str, n: int = 700, seed: int = 7) -> NDArray:
    rng = np.random.default_rng(seed)
    parts = [np.array(SPECIAL), rng.uniform(-12, 12, n), rng.uniform(-1.2, 1.2, n // 2),
             rng.uniform(-1e-4, 1e-4, 50), np.exp(rng.uniform(-80, 80, n // 4)),
             rng.integers(-20, 20, 60).astype(float) + 0.5]  # fmt: skip
    with np.errstate(over="ignore"):
        return np.concatenate(parts).astype(dtype)


def reference(names: list[str], st: t.ScalarType, *args: NDArray) -> NDArray:
    """The interpreter's results, one row per function."""
    out = np.empty((len(names), args[0].size), dtype=st.np_dtype)
    for k, name in enumerate(names):
        for i in range(args[0].size):
            out[k, i] = math_call(name, [a[i] for a in args], [st] * len(args), st)
    return out


def ulp_errors(got: NDArray, want: NDArray) -> NDArray:
    """Error of each element in units of ``want``'s last place (0 where both are the same
    value or both NaN; inf where one is NaN or a different infinity, or zeros differ in sign)."""
    g, w = got.astype(np.float64), want.astype(np.float64)
    with np.errstate(all="ignore"):
        err = np.abs(g - w) / np.spacing(np.abs(want)).astype(np.float64)
    same = (got == want) & (np.signbit(got) == np.signbit(want))
    same |= np.isnan(got) & np.isnan(want)
    err[same] = 0.0
    err[~same & ~(np.isfinite(got) & np.isfinite(want))] = np.inf
    err[~same & (got == 0) & (want == 0)] = np.inf  # +0.0 for -0.0
    return err


def check_rows(names: list[str], got: NDArray, want: NDArray, x: NDArray) -> None:
    f32 = got.dtype == np.float32
    for k, name in enumerate(names):
        err = ulp_errors(got[k], want[k])
        if name == "lgamma":  # absolute accuracy near the zeros at 1 and 2
            with np.errstate(invalid="ignore"):
                diff = np.abs(got[k].astype(np.float64) - want[k])
            near = diff <= (1e-6 if f32 else 4e-15)
            err[near] = 0.0
        bad = np.flatnonzero(err > ULP.get(name, 0))
        assert bad.size == 0, (name, [(x[i], got[k][i], want[k][i]) for i in bad[:5]])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_one_argument_functions(device: str, dtype: str) -> None:
    kernel = specialise(unary, T=go.f32 if dtype == "float32" else go.f64)
    x = inputs(dtype)
    out = go.zeros((len(UNARY), x.size), dtype)
    kernel[x.size](go.asarray(x), out)
    got = out.numpy()
    check_rows(UNARY, got, reference(UNARY, t.scalar_from_numpy(x.dtype), x), x)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_two_argument_functions(device: str, dtype: str) -> None:
    kernel = specialise(binary, T=go.f32 if dtype == "float32" else go.f64)
    x = inputs(dtype)
    y = np.random.default_rng(8).permutation(inputs(dtype, seed=9))
    y[:40] = np.array([0.0, -0.0, np.inf, -np.inf, np.nan] * 8, dtype=dtype)  # each against them
    out = go.zeros((len(BINARY), x.size), dtype)
    kernel[x.size](go.asarray(x), go.asarray(y), out)
    got = out.numpy()
    check_rows(BINARY, got, reference(BINARY, t.scalar_from_numpy(x.dtype), x, y), x)


def test_the_interpreter_agrees_with_numpy_and_python() -> None:
    x = inputs("float64")
    with np.errstate(all="ignore"):
        numpy_refs = {"exp2": np.exp2, "expm1": np.expm1, "log10": np.log10, "log1p": np.log1p,
                      "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
                      "sinh": np.sinh, "cosh": np.cosh, "asinh": np.arcsinh,
                      "acosh": np.arccosh, "atanh": np.arctanh, "cbrt": np.cbrt,
                      "trunc": np.trunc, "rint": np.rint, "sign": np.sign}  # fmt: skip
        want = reference(list(numpy_refs), t.f64, x)
        for k, fn in enumerate(numpy_refs.values()):
            np.testing.assert_array_equal(want[k], fn(x))
    finite = x[np.isfinite(x)]
    assert [M.FLOAT1["erfc"](v) for v in finite] == [math.erfc(v) for v in finite]
    assert M.FLOAT1["tgamma"](5.0) == 24.0 and M.FLOAT1["tgamma"](-0.0) == -math.inf
    assert math.isnan(M.FLOAT1["tgamma"](-3.0)) and M.FLOAT1["lgamma"](-3.0) == math.inf
    assert M.FLOAT2["remainder"](5.0, 2.0) == 1.0 and M.FLOAT2["remainder"](7.0, 2.0) == -1.0
    # C's round takes halves away from zero; Python's and NumPy's (rint) to even.
    assert [M.FLOAT1["round"](v) for v in (0.5, 1.5, 2.5, -2.5, 0.49999999999999994)] == [
        1.0, 2.0, 3.0, -3.0, 0.0]
    assert [M.FLOAT1["rint"](v) for v in (0.5, 1.5, 2.5, -2.5)] == [0.0, 2.0, 2.0, -2.0]


# -- bit intrinsics ----------------------------------------------------------------------------

IT: TypeAlias = go.i32  # the integer type each test substitutes


def bits(x: Borrow[Array[IT]], counts: BorrowMut[Array[go.i32]], rev: BorrowMut[Array[IT]],
         sgn: BorrowMut[Array[IT]]) -> None:  # fmt: skip
    i = go.global_id(0)
    if i < x.shape[0]:
        v = x[i]
        counts[0, i] = go.popc(v)
        counts[1, i] = go.clz(v)
        counts[2, i] = go.ffs(v)
        rev[i] = go.brev(v)
        sgn[i] = np.sign(v)


@pytest.mark.parametrize("dtype", ["int32", "uint32", "int64", "uint64"])
def test_bit_intrinsics(device: str, dtype: str) -> None:
    info = np.iinfo(dtype)
    rng = np.random.default_rng(11)
    edge = [0, 1, 2, 3, info.max, info.min, info.max - 1, 1 << (info.bits - 2), 0x80, 0x100]
    rand = rng.integers(info.min, info.max, 300, dtype=dtype, endpoint=True)
    x = np.concatenate([np.array(edge, dtype=dtype), rand])
    kernel = specialise(bits, IT=getattr(go, {"int": "i", "uint": "u"}[dtype.rstrip("0123456789")]
                                         + dtype[-2:]))  # fmt: skip
    counts, rev, sgn = agree(kernel, x.size, x, np.zeros((3, x.size), np.int32),
                             np.zeros_like(x), np.zeros_like(x))[1:]  # fmt: skip
    u = [int(v) & ((1 << info.bits) - 1) for v in x]
    np.testing.assert_array_equal(counts[0], [v.bit_count() for v in u])
    np.testing.assert_array_equal(counts[1], [info.bits - v.bit_length() for v in u])
    np.testing.assert_array_equal(counts[2], [(v & -v).bit_length() for v in u])
    want_rev = [int(format(v, f"0{info.bits}b")[::-1], 2) for v in u]
    np.testing.assert_array_equal(rev.astype(f"u{info.bits // 8}"), want_rev)
    np.testing.assert_array_equal(sgn, np.sign(x))


def narrow_bits(x: Borrow[Array[go.i8]], y: Borrow[Array[go.u16]],
                out: BorrowMut[Array[go.i64]]) -> None:  # fmt: skip
    i = go.global_id(0)
    if i < x.shape[0]:
        out[0, i] = go.popc(x[i])  # an i8 widens to i32 first, as C's integer promotion does
        out[1, i] = go.clz(y[i])  # a u16 to u32
        out[2, i] = go.brev(y[i])


def test_narrow_integers_widen_to_32_bits(device: str) -> None:
    x = np.array([-1, 1, -128, 0], np.int8)
    y = np.array([1, 0xFFFF, 0, 0x8000], np.uint16)
    (out,) = agree(go.kernel(narrow_bits), 4, x, y, np.zeros((3, 4), np.int64))[2:]
    np.testing.assert_array_equal(out[0], [32, 1, 25, 0])
    np.testing.assert_array_equal(out[1], [31, 16, 32, 16])
    np.testing.assert_array_equal(out[2], [0x80000000, 0xFFFF0000, 0, 0x10000])


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not on the PATH")
@pytest.mark.parametrize("sm", [80, 90])
def test_every_function_assembles_for_nvidia_gpus(sm: int, tmp_path: Path) -> None:
    """The same kernels through NVPTX (no libdevice: the functions are gpuoff's own IR,
    ``codegen.nvptx_libm``, whose accuracy tests/unit/test_codegen_nvptx_math.py measures)."""
    for dtype in ("float32", "float64"):
        x = inputs(dtype, n=10)
        cases: list[tuple[Any, tuple[Any, ...]]] = [
            (unary, (x, np.zeros((len(UNARY), x.size), dtype))),
            (binary, (x, x, np.zeros((len(BINARY), x.size), dtype))),
        ]
        for pyfunc, args in cases:
            kernel = specialise(pyfunc, T=go.f32 if dtype == "float32" else go.f64)
            ptx = compile_ptx(lower_kernel(kernel.pyfunc, arg_types(kernel, args)), sm=sm).ptx
            assert ".extern" not in ptx
            assemble(ptx, sm, tmp_path)
    for it in (go.i32, go.u32, go.i64, go.u64):
        xi = np.zeros(4, it.np_dtype)
        kernel = specialise(bits, IT=it)
        args = (xi, np.zeros((3, 4), np.int32), xi, xi)
        assemble(compile_ptx(lower_kernel(kernel.pyfunc, arg_types(kernel, args)), sm=sm).ptx,
                 sm, tmp_path)  # fmt: skip


# -- Python's round --------------------------------------------------------------------------


@go.kernel
def python_round(x: Borrow[Array[go.f64]], n: BorrowMut[Array[go.i64]],
                 f: BorrowMut[Array[go.f64]]) -> None:  # fmt: skip
    i = go.global_id(0)
    if i < x.shape[0]:
        n[i] = round(x[i])
        f[0, i] = np.round(x[i])
        f[1, i] = go.rint(x[i])
        f[2, i] = go.round(x[i])


def test_round_halves_to_even_as_python_does(device: str) -> None:
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999999999999994, 3.7, -3.7, 1e15 + 0.5])
    n, f = agree(python_round, x.size, x, np.zeros(x.size, np.int64),
                 np.zeros((3, x.size)))[1:]  # fmt: skip
    assert list(n) == [round(v) for v in x]
    np.testing.assert_array_equal(f[0], np.round(x))
    np.testing.assert_array_equal(f[1], np.rint(x))
    np.testing.assert_array_equal(f[2], [M.FLOAT1["round"](v) for v in x])  # C's: away from 0
    assert list(f[2][:6]) == [1.0, 2.0, 3.0, -1.0, -2.0, -3.0]


# -- misuse ----------------------------------------------------------------------------------


@go.kernel
def popc_of_float(x: BorrowMut[Array[go.f32]]) -> None:
    x[0] = go.popc(x[0])  # type: ignore[arg-type]


@go.kernel
def brev_of_bool(x: BorrowMut[Array[go.i32]]) -> None:
    x[0] = go.brev(x[0] > 0)


@go.kernel
def atan2_one_argument(x: BorrowMut[Array[go.f32]]) -> None:
    x[0] = go.atan2(x[0])  # type: ignore[call-arg]


@go.kernel
def round_ndigits(x: BorrowMut[Array[go.f64]]) -> None:
    x[0] = round(x[0], 2)


@go.kernel
def hypot_three(x: BorrowMut[Array[go.f64]]) -> None:
    x[0] = math.hypot(x[0], x[1], x[2])


@pytest.mark.parametrize(("kernel", "dtype", "words"), [
    (popc_of_float, "float32", "go.popc() takes an integer, got f32"),
    (brev_of_bool, "int32", "go.brev() takes an integer, got bool"),
    (atan2_one_argument, "float32", "atan2() takes 2 arguments"),
    (round_ndigits, "float64", "round(x, ndigits) is not supported"),
    (hypot_three, "float64", "hypot() takes 2 arguments"),
])  # fmt: skip
def test_misuse_is_a_compile_error(kernel: go.Kernel[...], dtype: str, words: str) -> None:
    with pytest.raises(go.CompileError) as info:
        kernel[1](go.zeros(3, dtype))
    assert words in str(info.value), str(info.value)
    assert __file__ in str(info.value)
