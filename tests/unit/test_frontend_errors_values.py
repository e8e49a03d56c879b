"""Misuse of tuples, private arrays and unrolled loops (issue 15, items 1, 3 and 4) is a
CompileError at the user's line, with a caret, in words that say what to write instead."""
# ruff: noqa: F841, B007

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, CompileError, f32, i32, i64
from gpuoff.ir.types import PRIVATE_BYTES_LIMIT
from tests.unit import frontend_errors_support as support

HERE = Path(__file__).resolve()
PAIR = (1.0, 2.0)
BIG = tuple(range(2000))


def check(fn: Callable[..., Any], construct: str, marker: str) -> CompileError:
    return support.check_at(HERE, fn, construct, marker)


@go.func
def one(x: f32) -> f32:
    return x * 2


@go.func
def two(x: f32) -> tuple[f32, f32]:
    return x, x * 2


@go.func
def declared_two(x: f32) -> tuple[f32, f32]:
    return x, x, x  # type: ignore[return-value]  # E:declared_two


@go.func
def takes_pair(p: tuple[f32, f32]) -> f32:
    return p[0] + p[1]


# -- tuples ------------------------------------------------------------------------------------


def k_unpack_scalar(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    c, p = one(x[0])  # type: ignore[misc]  # E:unpack_scalar


def k_index_var(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], i: i64) -> None:
    t = (x[0], x[1])
    y[0] = t[i]  # E:index_var


def k_index_range(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = PAIR[2]  # type: ignore[misc]  # E:index_range


def k_tuple_store(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = two(x[0])  # type: ignore[assignment]  # E:tuple_store


def k_tuple_number(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = go.sqrt(two(x[0]))  # type: ignore[type-var,assignment]  # E:tuple_number


def k_tuple_eq_number(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    if (x[0], x[1]) == x[2]:  # type: ignore[comparison-overlap]  # E:tuple_eq_number
        y[0] = 1.0


def k_tuple_arith(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    t = PAIR + 1.0  # type: ignore[operator]  # E:tuple_arith


def k_declared_two(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    a, b = declared_two(x[0])


def k_tuple_then_number(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    t = (x[0], x[1])
    t = x[2]  # type: ignore[assignment]  # E:tuple_then_number


def k_tuple_length(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    t = (x[0], x[1])
    t = (x[0], x[1], x[2])  # type: ignore[assignment]  # E:tuple_length


def k_pair_given_number(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = takes_pair(x[0])  # type: ignore[arg-type]  # E:pair_given_number


def k_tuple_in_while(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    while two(x[0])[0] > 1.0:  # E:tuple_in_while
        y[0] = 1.0


def k_unpack_count(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    a, b, c = two(x[0])  # type: ignore[misc]  # E:unpack_count


# -- private arrays ----------------------------------------------------------------------------


def k_private_size_var(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], n: i32) -> None:
    b = [0.0] * n  # E:private_size_var


def k_local_array_var(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], n: i32) -> None:
    b = go.local_array(n, go.f32)  # E:local_array_var


def k_private_too_large(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    b = go.local_array((32, 64), go.f32)  # E:private_too_large


def k_private_total(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    a = go.local_array(400, go.f32)
    b = go.local_array(400, go.f64)  # E:private_total


def k_private_dtype(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    b = go.local_array(4, np.str_)  # type: ignore[type-var]  # E:private_dtype


def k_private_dtype_value(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    b = go.local_array(4, 3)  # type: ignore[arg-type,var-annotated]  # E:private_dtype_value


def k_private_reassign(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    b = [0.0] * 4
    b = x[0]  # type: ignore[assignment]  # E:private_reassign


def k_private_nested(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    b = [[0.0] * 3] * 3  # E:private_nested


def k_private_atomic(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    b = [0.0] * 4
    go.atomic_add(b, 0, 1.0)  # type: ignore[arg-type]  # E:private_atomic


def k_private_shape_change(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    b = [0.0] * 4
    if x[0] > 0:
        b = [0.0] * 5  # E:private_shape_change


def k_private_empty(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    b = [0.0] * 0  # E:private_empty


# -- unrolled loops ----------------------------------------------------------------------------


def k_unroll_many(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    for v in BIG:  # E:unroll_many
        y[0] += v


def k_loop_unpack_number(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    for a, b in PAIR:  # type: ignore[misc]  # E:loop_unpack_number
        y[0] += a  # type: ignore[has-type]


def k_loop_index_runtime(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], n: i32) -> None:
    for k in range(n):
        y[0] += PAIR[k]  # E:loop_index_runtime


def k_zip_array(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    for a, b in zip(PAIR, x):  # type: ignore[call-overload]  # noqa: B905  # E:zip_array
        y[0] += a


CASES = [
    (k_unpack_scalar, "returns a single value, which cannot be unpacked into 2 names",
     "unpack_scalar"),
    (k_index_var, "a tuple is indexed with a compile-time constant", "index_var"),
    (k_index_range, "tuple index 2 is out of range for a tuple of 2 values", "index_range"),
    (k_tuple_store, "holds one number; a tuple of 2 values cannot be stored in it",
     "tuple_store"),
    (k_tuple_number, "is a tuple of 2 values, used where a number is needed", "tuple_number"),
    (k_tuple_eq_number, "a tuple compared with a number", "tuple_eq_number"),
    (k_tuple_arith, "arithmetic on tuples is not element-wise", "tuple_arith"),
    (k_declared_two, "is declared to return a tuple of 2 values, but returns a tuple of 3",
     "declared_two"),
    (k_tuple_then_number, "holds a tuple elsewhere; it cannot also hold a number",
     "tuple_then_number"),
    (k_tuple_length, "a tuple variable keeps its length", "tuple_length"),
    (k_pair_given_number, "parameter 'p' of 'takes_pair' is a tuple, got a number",
     "pair_given_number"),
    (k_tuple_in_while, "cannot stand in", "tuple_in_while"),
    (k_unpack_count, "3 names", "unpack_count"),
    (k_private_size_var, "the length of a private array ([x] * N) must be a compile-time "
     "constant int", "private_size_var"),
    (k_local_array_var, "the shape of go.local_array must be a compile-time constant",
     "local_array_var"),
    (k_private_too_large, f"takes 8192 bytes; a work-item may hold at most "
     f"{PRIVATE_BYTES_LIMIT} bytes", "private_too_large"),
    (k_private_total, f"hold 4800 bytes of private arrays per work-item ('b': 3200); a "
     f"work-item may hold at most {PRIVATE_BYTES_LIMIT}", "private_total"),
    (k_private_dtype, "must be a gpuoff scalar type", "private_dtype"),
    (k_private_dtype_value, "must be a gpuoff scalar type", "private_dtype_value"),
    (k_private_reassign, "cannot assign to 'b': it is an array", "private_reassign"),
    (k_private_nested, "a private array of lists", "private_nested"),
    (k_private_atomic, "private array", "private_atomic"),
    (k_private_shape_change, "has shape (4,) elsewhere and (5,) here", "private_shape_change"),
    (k_private_empty, "needs at least one element", "private_empty"),
    (k_unroll_many, "unrolled into 2000 copies of its body; at most 1024", "unroll_many"),
    (k_loop_unpack_number, "unpacks a tuple, but an item of the loop's tuple is a number",
     "loop_unpack_number"),
    (k_loop_index_runtime, "a tuple is indexed with a compile-time constant",
     "loop_index_runtime"),
    (k_zip_array, "zip() in kernels takes tuples", "zip_array"),
]  # fmt: skip


@pytest.mark.parametrize(("fn", "construct", "marker"), CASES, ids=[c[2] for c in CASES])
def test_misuse_is_a_compile_error_at_the_line(fn: Callable[..., Any], construct: str,
                                               marker: str) -> None:  # fmt: skip
    check(fn, construct, marker)
