"""OpenCL C rendering, checked as text (no device needed; building it is tests/backends)."""

from __future__ import annotations

import re
from typing import TypeAlias

import numpy as np
import pytest

import gpuoff as go
from codegen.opencl import render_opencl
from codegen.opencl_exprs import literal
from codegen.opencl_helpers import c_identifier
from gpuoff import Array, Borrow, BorrowMut
from gpuoff.errors import CompileError
from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from gpuoff.ownership import Access
from tests.unit import irbuild as b

T: TypeAlias = go.i64  # the element type each division test substitutes (with_dtype)


def _copy_module(dtype: t.ScalarType, ndim: int = 1, contiguous: bool = True) -> n.Module:
    """``dst[i..] = src[i..]`` over ``global_id``s, unchecked."""
    src = b.ref("src", b.arr(dtype, ndim, contiguous=contiguous))
    dst = b.ref("dst", b.mut(dtype, ndim, contiguous=contiguous))
    idx = tuple(b.gid(d) for d in range(ndim))
    body: list[n.Stmt] = [b.store(dst, idx, b.load(src, *idx), loc=b.L(12))]
    return b.module(b.kernel("copy", [b.param("src", src.type), b.param("dst", dst.type)], body))


def test_saxpy_signature_names_and_source_comments() -> None:
    src = render_opencl(b.saxpy())
    text = src.text
    assert src.kernel_name == "saxpy"
    assert "__kernel void saxpy(" in text
    assert "__global const float* restrict x,\n    __global float* restrict y,\n" \
        "    long8 gpuoff_meta,\n" in text  # fmt: skip
    assert "const long x_offset = gpuoff_meta.s0;" in text
    assert "const long gpuoff_grid2 = gpuoff_meta.s6;" in text
    assert "x_stride0" not in text  # contiguous: strides derived, never passed
    assert "long i = 0L;" in text
    assert "i = (long)get_global_id(0);  /* file.py:11 */" in text
    assert "/* file.py:13 */" in text
    assert src.has_checks
    kinds = [a.kind for a in src.args]
    assert kinds == ["scalar", "buffer", "buffer", "meta", "err", "err_slot"]
    assert [a.param for a in src.args[:3]] == [0, 1, 2]
    meta = src.args[3]
    assert meta.ctype == "long8"
    assert [(p.kind, p.param, p.dim) for p in meta.parts] == [
        ("offset", 1, 0), ("shape", 1, 0), ("offset", 2, 0), ("shape", 2, 0),
        ("grid", -1, 0), ("grid", -1, 1), ("grid", -1, 2),
    ]  # fmt: skip


def test_one_statement_per_line_and_checked_access_form() -> None:
    text = render_opencl(b.saxpy(guarded=False)).text
    # The checked store writes only in range, else records check 3 with index and shape.
    assert "if ((ulong)i < (ulong)y_shape0) {  /* file.py:13 */" in text
    assert "gpuoff_oob1(gpuoff_err, 3, i, y_shape0);" in text
    load = "(ulong)i < (ulong)x_shape0) ? x[i] : (float)gpuoff_oob1(gpuoff_err, 1, i, x_shape0)"
    assert load in text
    for line in text.splitlines():
        assert line.count(";") <= 1 or line.lstrip().startswith(("for (", "/*"))


def test_unchecked_module_has_no_error_record_writes() -> None:
    src = render_opencl(_copy_module(t.f32))
    assert not src.has_checks
    assert "gpuoff_oob" not in src.text
    assert "dst[gpuoff" not in src.text
    assert "dst[(long)get_global_id(0)] = src[(long)get_global_id(0)];" not in src.text
    assert "dst[((long)get_global_id(0))] = src[((long)get_global_id(0))];" in src.text


def test_a_kernel_declares_only_the_arguments_its_code_uses() -> None:
    # every argument costs the driver time per launch: unused shapes, the grid of a kernel
    # with barriers and the error record of one without checks are not declared
    src = render_opencl(_copy_module(t.f32))
    names = [a.name for a in src.args]
    assert "gpuoff_err" not in names and "gpuoff_err_slot" not in names
    assert "gpuoff_err" not in src.text
    assert "src_shape0" not in names and "dst_shape0" not in names
    signature = src.text[src.text.index("__kernel void") : src.text.index(")\n{")]
    declared = [d.split()[-1] for d in signature.split("(", 1)[1].replace("\n", " ").split(",")]
    assert declared == names  # the runtime sets exactly what the kernel declares, in order
    checked = render_opencl(b.saxpy())
    assert [a.kind for a in checked.args][-2:] == ["err", "err_slot"]


def test_strided_arrays_pass_strides_contiguous_derive_them() -> None:
    source = render_opencl(_copy_module(t.f32, 2, contiguous=False))
    strided = source.text
    # unchecked: the shapes are never read, so only the strides are arguments
    names = [p.name for a in source.args if a.kind == "meta" for p in a.parts]
    assert names[:3] == ["src_offset", "src_stride0", "src_stride1"]
    assert not any("shape" in name for name in names)
    assert "const long src_stride1 = gpuoff_meta.s2;" in strided
    assert "src_stride1]" in strided
    contiguous = render_opencl(_copy_module(t.f32, 3)).text
    assert "const long src_stride1 = src_shape2;" in contiguous
    assert "const long src_stride0 = src_shape1 * src_stride1;" in contiguous
    assert "src_stride2" not in contiguous


def test_f64_needs_the_extension_and_names_the_device() -> None:
    m = _copy_module(t.f64)
    assert "#pragma OPENCL EXTENSION cl_khr_fp64 : enable" in render_opencl(m).text
    with pytest.raises(CompileError, match=r"'opencl:7' has no cl_khr_fp64"):
        render_opencl(m, fp64=False, device_name="opencl:7")
    assert "cl_khr_fp64" not in render_opencl(_copy_module(t.f32)).text


def test_f16_needs_the_extension() -> None:
    m = _copy_module(t.f16)
    with pytest.raises(CompileError, match="cl_khr_fp16"):
        render_opencl(m, device_name="opencl:0")
    text = render_opencl(m, fp16=True).text
    assert "#pragma OPENCL EXTENSION cl_khr_fp16 : enable" in text
    assert "__global const half* restrict src" in text


def test_bool_is_uchar_in_memory_and_in_kernel_arguments() -> None:
    flags = b.ref("flags", b.mut(t.boolean))
    body: list[n.Stmt] = [b.store(flags, b.gid(), b.var("on", t.boolean))]
    m = b.module(b.kernel("k", [b.param("on", t.boolean), b.param("flags", flags.type)], body))
    text = render_opencl(m).text
    assert "uchar on_arg," in text
    assert "const bool on = on_arg != 0;" in text
    assert "__global uchar* restrict flags" in text
    assert "= (uchar)on;" in text


def test_user_names_that_clash_are_renamed() -> None:
    out = b.ref("out", b.mut(t.f32))
    body: list[n.Stmt] = [
        b.assign("exp", b.c(1.5)),
        b.assign("int", b.c(2.0)),
        b.assign("out_shape0", b.c(3.0)),
        b.store(out, b.gid(),
                b.bin_("add", b.var("exp", t.f32), b.math("exp", b.var("int", t.f32)))),
    ]
    m = b.module(b.kernel("k", [b.param("out", out.type)], body,
                          {"exp": t.f32, "int": t.f32, "out_shape0": t.f32}))  # fmt: skip
    text = render_opencl(m).text
    assert "float exp_ = 0.0f;" in text
    assert "float int_ = 0.0f;" in text
    assert "float out_shape0_ = 0.0f;" in text
    assert "exp_ + exp(int_)" in text
    assert c_identifier("x\u00e9", set()) == "x_ue9"
    assert c_identifier("v", {"v"}) == "v_"


@pytest.mark.parametrize(("value", "dtype", "text"), [
    (True, t.boolean, "true"),
    (-(2**31), t.i32, "(-2147483647 - 1)"),
    (-(2**63), t.i64, "(-9223372036854775807L - 1L)"),
    (7, t.i64, "7L"),
    (7, t.u32, "7u"),
    (200, t.u8, "(uchar)200"),
    (0.1, t.f32, "0.1f"),
    (1e39, t.f32, "INFINITY"),  # rounded to f32 first
    (16777217.0, t.f32, "1.6777216e+07f"),
    (1.5, t.f16, "(half)1.5f"),
    (1e-30, t.f64, "1e-30"),
    (float("inf"), t.f32, "INFINITY"),
    (float("-inf"), t.f64, "(double)(-INFINITY)"),
    (float("nan"), t.f32, "NAN"),
])  # fmt: skip
def test_literals(value: int | float | bool, dtype: t.ScalarType, text: str) -> None:
    assert literal(value, dtype) == text


def test_python_semantics_helpers_are_emitted_once() -> None:
    out = b.ref("out", b.mut(t.i32))
    a, c = b.cast(t.i32, b.gid()), b.c(3, t.i32)
    body: list[n.Stmt] = [
        b.store(out, b.gid(), b.bin_("floordiv", a, c)),
        b.store(out, b.gid(), b.bin_("floordiv", c, a)),
        b.store(out, b.gid(), b.bin_("mod", a, c)),
        b.store(out, b.gid(), b.bin_("pow", a, c)),
        b.store(out, b.gid(), b.bin_("lshift", a, c)),
        b.store(out, b.gid(), b.cast(t.i32, b.cast(t.f32, a))),
    ]
    text = render_opencl(b.module(b.kernel("k", [b.param("out", out.type)], body))).text
    assert text.count("int gpuoff_floordiv_int(int a, int b)") == 1
    assert "int gpuoff_mod_int(int a, int b)" in text
    assert "int gpuoff_pow_int(int a, int b)" in text
    assert "<< (3 & 31)" in text  # shift counts masked like the IR says
    assert "return isnan(x) ? 0 : convert_int_sat_rtz(x);" in text
    assert "gpuoff_int_from_float((float)((int)((long)get_global_id(0))))" in text


def test_shared_memory_barrier_and_group_queries() -> None:
    src = render_opencl(b.tree_reduction(block=16))
    assert src.uses_barrier
    assert "__local float tmp[16];" in src.text
    assert "const long tmp_shape0 = 16;" in src.text
    assert "barrier(CLK_LOCAL_MEM_FENCE);  /* file.py:17 */" in src.text
    assert "(long)get_local_size(0)" in src.text
    # No early return in a kernel with barriers: PoCL hangs when some work-items skip one.
    assert "return;" not in src.text
    assert "get_global_id(0) >= " in render_opencl(b.saxpy()).text


def test_device_functions_atomics_and_hidden_parameters() -> None:
    src = render_opencl(b.kitchen_sink())
    text = src.text
    # helper reads m with a check: it receives the error record; poke does not.
    assert ("double helper(\n    double v,\n    __global double* m, long m_shape0, long m_shape1, "
            "long m_stride0, long m_stride1,\n    __global long* gpuoff_err)") in text
    assert "void poke(\n    __global int* cnt, long cnt_shape0)" in text
    # The call's value is kept in a temporary; the pure indices stay inline.
    tmp = re.search(r"(gpuoff_t\d+) = helper\(f, m, m_shape0, m_shape1, m_stride0, m_stride1, "
                    r"gpuoff_err\);", text)  # fmt: skip
    assert tmp is not None, text
    assert f"m[i * m_stride0 + 1L * m_stride1] = {tmp.group(1)};" in text
    assert "gpuoff_atomic_max_int_global(&cnt[0L], 7)" in text
    assert "int gpuoff_atomic_add_int_global(volatile __global int* p, int v)" in text
    assert text.index("double helper(") < text.index("__kernel void sink(")
    assert "gpuoff_oob2(gpuoff_err, 3, 0L, 0L, m_shape0, m_shape1)" in text


def test_float_atomics_use_compare_and_swap() -> None:
    acc = b.ref("acc", b.mut(t.f32))
    body: list[n.Stmt] = [n.ExprStmt(b.atomic("add", acc, 0, b.c(1.0)))]
    text = render_opencl(b.module(b.kernel("k", [b.param("acc", acc.type)], body))).text
    assert "atomic_cmpxchg(q, expected, as_uint(as_float(expected) + v))" in text
    # The dropped old value is cast to void (no "expression result unused" warning).
    assert "(void)(gpuoff_atomic_add_float_global(&acc[0L], 1.0f));" in text


def test_atomics_on_bytes_are_a_compile_error() -> None:
    acc = b.ref("acc", b.mut(t.u8))
    body: list[n.Stmt] = [n.ExprStmt(b.atomic("add", acc, 0, b.c(1, t.u8)))]
    with pytest.raises(CompileError, match="atomic_add on u8"):
        render_opencl(b.module(b.kernel("k", [b.param("acc", acc.type)], body)))


def test_impure_index_is_evaluated_once_through_a_temporary() -> None:
    cnt = b.ref("cnt", b.mut(t.i64))
    out = b.ref("out", b.mut(t.f32))
    x = b.ref("x", b.arr(t.f32))
    bump = b.atomic("add", cnt, 0, b.c(1, t.i64))
    body: list[n.Stmt] = [b.store(out, b.gid(), b.load(x, bump, check=1))]
    m = b.module(b.kernel("k", [b.param("cnt", cnt.type), b.param("out", out.type),
                                b.param("x", x.type)], body), checks=1)  # fmt: skip
    text = render_opencl(m).text
    assert "(gpuoff_t0 = gpuoff_atomic_add_long_global(&cnt[0L], 1L), " in text
    assert "long gpuoff_t0;" in text
    assert "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable" in text


def test_for_range_keeps_python_rules() -> None:
    out = b.ref("out", b.mut(t.i64))
    k = b.var("k")
    loop = b.for_("k", 0, b.shape(out), b.var("stride"), [b.store(out, k, k)])
    m = b.module(b.kernel("loop", [b.param("stride", t.i64), b.param("out", out.type)], [loop],
                          {"k": t.i64}))  # fmt: skip
    text = render_opencl(m).text
    # The trip count in ulong, exact like Python's (no counter that can overflow), then the
    # variable from the iteration number on unsigned bits.
    up = "((ulong)(long)out_shape0 - (ulong)(long)0L - 1) / (ulong)(long)stride + 1"
    down = "((ulong)(long)0L - (ulong)(long)out_shape0 - 1) / (0 - (ulong)(long)stride) + 1"
    assert (f"gpuoff_t0 = (stride > 0) ? (0L < out_shape0 ? {up} : 0) : "
            f"(stride < 0 && 0L > out_shape0) ? {down} : 0;") in text  # fmt: skip
    assert "for (gpuoff_t1 = 0; gpuoff_t1 < gpuoff_t0; gpuoff_t1++) {" in text
    assert "k = (long)((ulong)0L + (ulong)gpuoff_t1 * (ulong)stride);" in text
    const = b.for_("k", 0, 10, 1, [b.store(out, k, k)])
    text = render_opencl(b.module(b.kernel("loop", [b.param("out", out.type)], [const],
                                           {"k": t.i64}))).text  # fmt: skip
    assert "gpuoff_t0 = 0L < 10L ? (ulong)(long)10L - (ulong)(long)0L : 0;" in text
    assert "k = (long)((ulong)0L + (ulong)gpuoff_t1);" in text
    # A builtin's name (step) or the kernel's own name is never shadowed by a user's local.
    assert c_identifier("step", set()) == "step_"


def test_fastmath_is_a_build_option() -> None:
    m = _copy_module(t.f32)
    assert render_opencl(m).build_options == ()
    fast = n.Module(m.kernel, m.functions, m.checks, fastmath=True)
    assert render_opencl(fast).build_options == ("-cl-fast-relaxed-math",)


def test_division_by_a_positive_constant_is_inline() -> None:
    out = b.ref("out", b.mut(t.i32))
    uout = b.ref("uout", b.mut(t.u32))
    a = b.cast(t.i32, b.gid())
    u = b.cast(t.u32, b.gid())
    body: list[n.Stmt] = [
        b.store(out, b.gid(), b.bin_("floordiv", a, b.c(8, t.i32))),
        b.store(out, b.gid(), b.bin_("mod", a, b.c(8, t.i32))),
        b.store(uout, b.gid(), b.bin_("floordiv", u, b.c(6, t.u32))),
        b.store(uout, b.gid(), b.bin_("mod", u, b.c(6, t.u32))),
    ]
    params = [b.param("out", out.type), b.param("uout", uout.type)]
    text = render_opencl(b.module(b.kernel("k", params, body))).text
    assert "gpuoff_floordiv" not in text and "gpuoff_mod" not in text
    assert "= ((int)((long)get_global_id(0))) >> 3;" in text  # floor, also below zero
    assert "= ((int)((long)get_global_id(0))) & 7;" in text
    assert "= ((uint)((long)get_global_id(0))) / 6u;" in text
    assert "= ((uint)((long)get_global_id(0))) % 6u;" in text
    # Signed divisors that are not powers of two, and negative ones, keep the helpers.
    for c in (6, -8):
        body = [b.store(out, b.gid(), b.bin_("floordiv", a, b.c(c, t.i32)))]
        odd = render_opencl(b.module(b.kernel("k", [b.param("out", out.type)], body))).text
        assert "gpuoff_floordiv_int(" in odd


def test_a_store_guard_covers_the_load_of_the_same_element() -> None:
    y = b.ref("y", b.mut(t.f32))
    x = b.ref("x", b.arr(t.f32))
    i = b.gid()
    value = b.bin_("add", b.load(y, i, check=1), b.load(x, i, check=2))
    body: list[n.Stmt] = [b.store(y, i, value, check=3)]
    module = b.module(b.kernel("k", [b.param("y", y.type), b.param("x", x.type)], body),
                      checks=3)  # fmt: skip
    text = render_opencl(module).text
    assert "if ((ulong)((long)get_global_id(0)) < (ulong)y_shape0) {" in text
    assert "gpuoff_oob1(gpuoff_err, 1," not in text  # y[i] is read only where the guard holds
    assert "gpuoff_oob1(gpuoff_err, 2," in text  # x's own shape still needs its test
    assert "gpuoff_oob1(gpuoff_err, 3," in text


def _const_divisions(a: Borrow[Array[T]], out: BorrowMut[Array[T]]) -> None:
    i = go.global_id(0)
    if i < a.shape[0]:
        x = a[i]
        out[0, i] = x // 8
        out[1, i] = x % 8
        out[2, i] = x // 1
        out[3, i] = x % 1
        out[4, i] = x // 6
        out[5, i] = x % 6
        out[6, i] = x // 128
        out[7, i] = x % 128


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint32", "uint8"])
def test_division_by_a_constant_runs_like_python(dtype: str) -> None:
    from tests.backends.test_opencl_support import has_opencl, lower, run_both, with_dtype

    if not has_opencl():
        pytest.skip("no OpenCL device")
    info = np.iinfo(dtype)
    vals = [0, 1, 7, 8, 9, 13, 255, info.max, info.min, info.max - 7]
    if info.min < 0:
        vals += [-1, -7, -8, -9, -13, info.min + 1]
    a = np.array(vals, dtype)
    out = np.zeros((8, a.size), dtype)
    st = t.scalar_from_numpy(np.dtype(dtype))
    types = [t.ArrayType(st, 1), t.ArrayType(st, 2, access=Access.BORROW_MUT)]
    run_both(lower(with_dtype(_const_divisions, st.lang_type), types), [a, out], (a.size,))
    if dtype == "int32":
        k = vals.index(-9)
        assert (out[0, k], out[1, k], out[4, k], out[5, k]) == (-2, 7, -2, 3)



def _many_arrays(count: int, ndim: int) -> n.Module:
    """``a0[...] = a1[...] + ...`` over ``count`` strided ``ndim``-D arrays, unchecked."""
    arrays = [b.ref(f"a{k}", (b.mut if k == 0 else b.arr)(t.f32, ndim, contiguous=False))
              for k in range(count)]  # fmt: skip
    idx = tuple(b.gid(d) for d in range(ndim))
    value: n.Expr = b.load(arrays[1], *idx)
    for a in arrays[2:]:
        value = b.bin_("add", value, b.load(a, *idx))
    body: list[n.Stmt] = [b.store(arrays[0], idx, value, loc=b.L(12))]
    return b.module(b.kernel("many", [b.param(a.name, a.type) for a in arrays], body))


def test_long_arguments_travel_in_vectors_of_at_most_16() -> None:
    # 5 strided 3-D arrays: 5 offsets + 15 strides + 3 grid extents = 23 longs
    src = render_opencl(_many_arrays(5, 3))
    meta = [a for a in src.args if a.kind == "meta"]
    assert [(a.name, a.ctype, len(a.parts)) for a in meta] == [
        ("gpuoff_meta0", "long16", 16), ("gpuoff_meta1", "long8", 7)]  # fmt: skip
    assert "const long a3_stride2 = gpuoff_meta0.sf;" in src.text
    assert "const long gpuoff_grid2 = gpuoff_meta1.s6;" in src.text
    assert "long16 gpuoff_meta0, long8 gpuoff_meta1" in src.text
    assert [a.kind for a in src.args] == ["buffer"] * 5 + ["meta", "meta"]


def test_a_single_long_argument_is_not_packed() -> None:
    # with a barrier the kernel reads no grid: one contiguous array leaves its offset alone
    dst = b.ref("dst", b.mut(t.f32))
    body: list[n.Stmt] = [n.Barrier(), b.store(dst, (b.gid(0),), b.c(1.0, t.f32), loc=b.L(12))]
    src = render_opencl(b.module(b.kernel("one", [b.param("dst", dst.type)], body)))
    assert [(a.kind, a.name) for a in src.args] == [("buffer", "dst"), ("offset", "dst_offset")]
    assert "__global float* restrict dst, long dst_offset)" in src.text
    assert "gpuoff_meta" not in src.text
