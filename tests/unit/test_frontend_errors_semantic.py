"""Ownership, typing, structure, device-function and call errors are CompileErrors at the
user's line, with a caret and without gpuoff-internal files in the message."""
# ruff: noqa: E731, F841, B018, B007, F401, F821

from __future__ import annotations

import importlib.util
import math
import re
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, CompileError, f32, i32
from gpuoff.frontend import lower_kernel, parse_signature
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from tests.unit import frontend_errors_support as support
from tests.unit.frontend_errors_support import assert_points_at, compile_error, lower
from tests.unit.test_frontend_errors import k_lambda, k_undefined

HERE = Path(__file__).resolve()


def line_of(marker: str) -> int:
    return support.line_of(HERE, marker)


def check(fn: Callable[..., Any], construct: str, marker: str, ndim: int = 1) -> CompileError:
    return support.check_at(HERE, fn, construct, marker, ndim)

# --------------------------------------------------------------------------------------------
# Ownership, typing and structure errors
# --------------------------------------------------------------------------------------------


def k_borrow_write(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    x[0] = 1.0  # type: ignore  # E:borrow_write


def k_borrow_augwrite(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    x[0] += 1.0  # type: ignore  # E:borrow_augwrite


def k_borrow_atomic(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    go.atomic_add(x, 0, 1.0)  # type: ignore[gpuoff-borrow-write]  # E:borrow_atomic


def k_assign_array(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    x = 1.0  # type: ignore[assignment]  # E:assign_array


def k_alias_array(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    z = x  # E:alias_array


def k_float_index(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = x[1.5]  # type: ignore[call-overload]  # E:float_index


def k_ndim(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = x[0, 1]  # E:ndim


def k_bool_num(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    flag = True
    flag = 2.0  # type: ignore[assignment]  # E:bool_num


def k_return_value(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    return 1  # type: ignore[return-value]  # E:return_value


def k_dim_var(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], n: i32) -> None:
    i = go.global_id(n)  # E:dim_var


def k_dim_range(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(3)  # E:dim_range


def k_shape_dim(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], n: i32) -> None:
    y[0] = x.shape[n]  # E:shape_dim


def k_shared_shape(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], n: i32) -> None:
    s = go.shared(n, f32)  # E:shared_shape


def k_barrier_divergent(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    j = i + 1
    if j < 10:
        go.barrier()  # E:barrier


def k_barrier_loop(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    for k in range(go.local_id(0)):
        go.barrier()  # E:barrier_loop


def k_range_float(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    for k in range(2.5):  # type: ignore[call-overload]  # E:range_float
        pass


def k_for_list(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    for k in x:  # type: ignore[attr-defined]  # E:for_list
        pass


def k_before_assign(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = v  # type: ignore[has-type, used-before-def]  # E:before_assign
    v = 1.0


def k_atomic_dtype(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    s = go.shared(4, go.u8)
    go.atomic_add(s, 0, 1)  # E:atomic_dtype


def k_bitwise_float(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = x[0] & 1  # type: ignore[operator]  # E:bitwise_float


def k_const_range(x: Borrow[Array[f32]], y: BorrowMut[Array[i32]]) -> None:
    y[0] = y[0] + 2**40  # E:const_range


def k_min_one(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = min(x[0])  # type: ignore[call-overload]  # E:min_one


def k_kw(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = go.sqrt(x=x[0])  # E:kw


def k_unused_math(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    go.sqrt(x[0])  # E:unused_math


def k_expr_stmt(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    x[0] + 1.0  # E:expr_stmt


ERROR_CASES = [
    (k_borrow_write, "cannot write to 'x': it is a shared Borrow", "borrow_write"),
    (k_borrow_augwrite, "cannot write to 'x': it is a shared Borrow", "borrow_augwrite"),
    (k_borrow_atomic, "cannot write to 'x': it is a shared Borrow", "borrow_atomic"),
    (k_assign_array, "cannot assign to 'x': it is an array", "assign_array"),
    (k_alias_array, "array 'x' cannot be used as a scalar value", "alias_array"),
    (k_float_index, "array indices must be integers", "float_index"),
    (k_ndim, "has 1 dimension(s) but is indexed with 2", "ndim"),
    (k_bool_num, "both a bool and a number", "bool_num"),
    (k_return_value, "a kernel cannot return a value", "return_value"),
    (k_dim_var, "must be a compile-time constant integer", "dim_var"),
    (k_dim_range, "must be 0, 1 or 2", "dim_range"),
    (k_shape_dim, "must be a compile-time constant integer", "shape_dim"),
    (k_shared_shape, "shape of go.shared must be a compile-time constant", "shared_shape"),
    (k_barrier_divergent, "barrier under a condition that may differ between work-items",
     "barrier"),
    (k_barrier_loop, "barrier under a condition that may differ between work-items",
     "barrier_loop"),
    (k_range_float, "range() arguments must be integers", "range_float"),
    (k_for_list, "a for loop over anything but range(...) or a tuple", "for_list"),
    (k_before_assign, "local variable 'v' is used before it is assigned", "before_assign"),
    (k_atomic_dtype, "atomic_add is not available for u8 arrays", "atomic_dtype"),
    (k_bitwise_float, "bitwise operators need integers or bools", "bitwise_float"),
    (k_const_range, "does not fit in i32", "const_range"),
    (k_min_one, "min() in kernels takes two or more numbers", "min_one"),
    (k_kw, "keyword arguments are only supported in calls to device functions", "kw"),
    (k_unused_math, "is unused", "unused_math"),
    (k_expr_stmt, "only calls can stand alone", "expr_stmt"),
]  # fmt: skip


@pytest.mark.parametrize(("fn", "construct", "marker"), ERROR_CASES,
                         ids=[c[2] for c in ERROR_CASES])  # fmt: skip
def test_compile_error(fn: Callable[..., Any], construct: str, marker: str) -> None:
    check(fn, construct, marker)


def test_compile_error_is_type_error_and_gpuoff_error() -> None:
    err = compile_error(k_lambda)
    assert isinstance(err, TypeError) and isinstance(err, go.GpuoffError)


def test_no_chained_exception_context() -> None:
    err = compile_error(k_undefined)
    assert err.__cause__ is None and err.__suppress_context__


# --------------------------------------------------------------------------------------------
# Device-function errors point into the device function's own source
# --------------------------------------------------------------------------------------------


@go.func
def dev_write_borrow(a: Borrow[Array[f32]]) -> None:
    a[0] = 1.0  # type: ignore  # E:dev_write


def k_dev_write(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    dev_write_borrow(y)


@go.func
def dev_needs_mut(a: BorrowMut[Array[f32]]) -> None:
    a[0] = 1.0


def k_dev_pass_borrow(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    dev_needs_mut(x)  # type: ignore[gpuoff-borrow-write]  # E:dev_pass_borrow


@go.func
def dev_void(a: f32) -> None:
    pass


def k_dev_void_value(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = dev_void(x[0])  # type: ignore[assignment]  # E:dev_void


@go.func
def dev_mixed(a: f32):  # type: ignore[no-untyped-def]  # E:dev_mixed
    if a > 0:
        return a
    return


def k_dev_mixed(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = dev_mixed(x[0])


@go.func
def dev_falls_off(a: f32) -> f32:  # type: ignore[return]  # E:dev_falls_off
    if a > 0:
        return a


def k_dev_falls_off(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = dev_falls_off(x[0])


@go.func
def dev_no_annotation(a):  # type: ignore[no-untyped-def]  # E:dev_no_annotation
    return a


def k_dev_no_annotation(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = dev_no_annotation(x[0])


def k_dev_arity(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = dev_falls_off(x[0], 2.0)  # type: ignore[call-arg]  # E:dev_arity


@go.func
def dev_shared() -> None:
    s = go.shared(4, f32)  # E:dev_shared


def k_dev_shared(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    dev_shared()


DEVICE_CASES = [
    (k_dev_write, "cannot write to 'a': it is a shared Borrow", "dev_write"),
    (k_dev_pass_borrow, "cannot pass 'x' (Borrow) to parameter 'a' of 'dev_needs_mut', which "
                        "is declared BorrowMut", "dev_pass_borrow"),
    (k_dev_void_value, "returns nothing; its call cannot be used as a value", "dev_void"),
    (k_dev_mixed, "returns a value on some paths and nothing on others", "dev_mixed"),
    (k_dev_falls_off, "may reach its end without returning a value", "dev_falls_off"),
    (k_dev_no_annotation, "it has no type annotation", "dev_no_annotation"),
    (k_dev_arity, "takes 1 argument(s), got 2", "dev_arity"),
    (k_dev_shared, "go.shared(...) can only be used in a kernel", "dev_shared"),
]  # fmt: skip


@pytest.mark.parametrize(("fn", "construct", "marker"), DEVICE_CASES,
                         ids=[c[2] for c in DEVICE_CASES])  # fmt: skip
def test_device_function_error(fn: Callable[..., Any], construct: str, marker: str) -> None:
    check(fn, construct, marker)


def test_math_constant_is_not_callable() -> None:
    def k(y: BorrowMut[Array[f32]]) -> None:
        y[0] = math.pi()  # type: ignore[operator]  # E:call_const

    check(k, "calling a value of type 'float' is not supported", "call_const")


def k_shape_bare(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = x.shape  # type: ignore[assignment]  # E:shape_bare


def k_shape_range(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = x.shape[1]  # E:shape_range


def k_loop_var_float(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    for k in range(3):  # E:loop_var_float
        pass
    k = 0.5  # type: ignore[assignment]


def k_call_local(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    f = 1
    y[0] = f()  # type: ignore[operator]  # E:call_local


def k_while_barrier(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    k = go.global_id(0)
    while k > 0:
        k = k // 2
        go.barrier()  # E:while_barrier


def k_shared_dtype(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    s = go.shared(4, "float32")  # type: ignore  # E:shared_dtype


def k_break_outside(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], n: i32) -> None:
    if n > 0:
        return
    y[0] = x.missing  # type: ignore[attr-defined]  # E:attr_missing


def k_tuple_len(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    a, b = 1, 2, 3  # type: ignore[misc]  # E:tuple_len


def k_index_non_array(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], n: i32) -> None:
    y[0] = n[0]  # type: ignore[index]  # E:index_non_array


def k_range_kw(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    for k in range(1, 2, 3, 4):  # type: ignore[call-overload]  # E:range_kw
        pass


def k_len_scalar(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], n: i32) -> None:
    y[0] = len(n)  # type: ignore[arg-type]  # E:len_scalar


def k_range_value(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    r = range(3)  # E:range_value


def k_int_ops(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = go.sqrt  # type: ignore[assignment]  # E:func_value


def k_select_bool(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], n: i32) -> None:
    y[0] = True if n > 0 else 1.5  # E:select_bool


def k_cast_args(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = go.f32(1.0, 2.0)  # type: ignore[call-arg]  # E:cast_args


MORE_CASES = [
    (k_shape_bare, "an element of 'y' holds one number; a tuple of 1 values", "shape_bare"),
    (k_shape_range, "'x' has 1 dimension(s); shape[1] is out of range", "shape_range"),
    (k_loop_var_float, "loop variable 'k' must be an integer", "loop_var_float"),
    (k_call_local, "'f' is a variable, not a function", "call_local"),
    (k_while_barrier, "barrier under a condition that may differ", "while_barrier"),
    (k_shared_dtype, "the dtype of go.shared must be a gpuoff scalar type", "shared_dtype"),
    (k_break_outside, "attribute 'missing' of array 'x' is not supported", "attr_missing"),
    (k_tuple_len, "tuple unpacking needs a tuple of as many values", "tuple_len"),
    (k_index_non_array, "indexing is only supported on arrays", "index_non_array"),
    (k_range_kw, "range() takes 1 to 3 positional arguments", "range_kw"),
    (k_len_scalar, "len() is only supported on arrays", "len_scalar"),
    (k_range_value, "range() can only be used as the iterable of a for loop", "range_value"),
    (k_int_ops, "cannot be used as a value", "func_value"),
    (k_select_bool, "both a bool and a number", "select_bool"),
    (k_cast_args, "the cast to f32 takes 1 argument, got 2", "cast_args"),
]


@pytest.mark.parametrize(("fn", "construct", "marker"), MORE_CASES, ids=[c[2] for c in MORE_CASES])
def test_more_compile_errors(fn: Callable[..., Any], construct: str, marker: str) -> None:
    check(fn, construct, marker)


def k_neg_pow(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], n: i32) -> None:
    y[0] = n**-1  # E:neg_pow


def k_kernel_call(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = kernel_object(x)  # E:kernel_call


class _FakeKernel:
    """Stands in for a @go.kernel object (anything wrapping a ``pyfunc``)."""

    def __init__(self, pyfunc: Callable[..., Any]) -> None:
        self.pyfunc = pyfunc

    def __call__(self, *args: Any) -> float:
        return 0.0


kernel_object = _FakeKernel(k_lambda)


@go.func
def dev_kw(a: f32, b: f32) -> f32:
    return a + b


def k_dev_kw_unknown(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = dev_kw(x[0], c=1.0)  # type: ignore[call-arg]  # E:dev_kw_unknown


def k_dev_kw_twice(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = dev_kw(x[0], a=1.0)  # type: ignore[call-arg, misc]  # E:dev_kw_twice


def k_dev_missing(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = dev_kw(x[0])  # type: ignore[call-arg]  # E:dev_missing


LAST_CASES = [
    (k_neg_pow, "an integer raised to a negative integer power", "neg_pow"),
    (k_kernel_call, "a kernel cannot be called from a kernel", "kernel_call"),
    (k_dev_kw_unknown, "dev_kw() has no parameter 'c'", "dev_kw_unknown"),
    (k_dev_kw_twice, "dev_kw() got two values for 'a'", "dev_kw_twice"),
    (k_dev_missing, "dev_kw() is missing the argument 'b'", "dev_missing"),
]


@pytest.mark.parametrize(("fn", "construct", "marker"), LAST_CASES, ids=[c[2] for c in LAST_CASES])
def test_call_errors(fn: Callable[..., Any], construct: str, marker: str) -> None:
    check(fn, construct, marker)


def test_lambda_kernel_is_rejected() -> None:
    k = lambda: None  # E:lambda_kernel
    with pytest.raises(CompileError) as info:
        lower_kernel(k, [])
    assert "not a plain 'def' function" in str(info.value)
    assert_points_at(info.value, str(HERE), line_of("lambda_kernel"))


def test_kernel_without_source_is_rejected() -> None:
    namespace: dict[str, Any] = {}
    exec("def k() -> None:\n    pass\n", namespace)  # noqa: S102 - a function with no file
    with pytest.raises(CompileError, match="cannot read the source"):
        lower_kernel(namespace["k"], [])


@go.func
def dev_value(v: f32) -> f32:
    return v


def k_chain_effect(x: Borrow[Array[f32]], y: BorrowMut[Array[go.boolean]]) -> None:
    y[0] = 0 < dev_value(x[0]) < 2  # E:chain_effect


def test_chained_comparison_with_a_call_in_the_middle() -> None:
    check(
        k_chain_effect, "a chained comparison whose middle operand calls a function", "chain_effect"
    )


def k_unicode(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    ĝĝ = 1.0
    y[0] = ĝĝ + [1.0][0]  # E:unicode


def test_columns_count_characters_not_bytes() -> None:
    err = check(k_unicode, "list literal", "unicode")
    text = support.source_line(HERE, "unicode")
    assert err.location is not None and err.location.col == text.index("[1.0]")
    assert err.location.end_col == text.index("[1.0]") + len("[1.0]")


def k_reserved(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    _gpuoff_t0 = 1.0  # E:reserved


def test_reserved_names() -> None:
    check(k_reserved, "names starting with '_gpuoff_' are reserved", "reserved")


def k_shape_unpack_bad(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    a, b = x.shape  # E:shape_unpack_bad


def test_shape_unpacking_needs_ndim_names() -> None:
    check(k_shape_unpack_bad, "cannot unpack its shape into 2 names", "shape_unpack_bad")
