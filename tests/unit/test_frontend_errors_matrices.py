"""Misuse of small matrices (issue 15, item 2) is a CompileError at the user's line, with a
caret, saying what to write."""
# ruff: noqa: F841

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, CompileError, f32, mat33
from tests.unit import frontend_errors_support as support

HERE = Path(__file__).resolve()
M23 = go.mat(2, 3, go.f32)
M22I = go.mat(2, 2, go.i32)


def check(fn: Callable[..., Any], construct: str, marker: str, ndim: int = 3) -> CompileError:
    return support.check_at(HERE, fn, construct, marker, ndim)


@go.func
def takes_mat(m: mat33) -> f32:
    return m[0, 0]


def k_matmul_shape(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0, 0] = go.mat33() @ go.vec2(1.0)  # type: ignore[operator]  # E:matmul_shape


def k_matmul_number(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = go.mat22() @ 2.0  # type: ignore[operator]  # E:matmul_number


def k_add_shapes(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = go.mat33() + go.mat22()  # type: ignore[operator]  # E:add_shapes


def k_add_number(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = go.mat22() + 1.0  # type: ignore[operator]  # E:add_number


def k_star_product(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = go.mat22() * go.mat22()  # type: ignore[operator]  # E:star_product


def k_arity(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = go.mat22(1.0, 2.0, 3.0)  # E:arity


def k_row_lengths(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = go.mat22(go.vec3(1.0), go.vec3(2.0))  # E:row_lengths


def k_runtime_index(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    y[0, 0, 0] = go.mat33.load(a, 0)[i, 0]  # E:runtime_index


def k_index_arity(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0, 0, 0] = go.mat33.load(a, 0)[0, 1, 2]  # type: ignore[index]  # E:index_arity


def k_inverse_square(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = go.inverse(M23(1.0))  # E:inverse_square


def k_inverse_ints(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = go.inverse(M22I(1))  # E:inverse_ints


def k_load_index(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    m = go.mat33.load(a, (0, 1))  # E:load_index


def k_store_element(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0, 1] = go.mat22()  # E:store_element


def k_identity_size(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = go.identity(go.global_id(0), go.f32)  # E:identity_size


def k_identity_dtype(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = go.identity(3, go.i8)  # E:identity_dtype


def k_pass_vector(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0, 0, 0] = takes_mat(go.vec3(1.0))  # type: ignore[arg-type]  # E:pass_vector


def k_local_shape(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    m: mat33 = go.mat22()  # type: ignore[assignment]  # E:local_shape


def k_transpose_vector(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = go.transpose(go.vec3(1.0))  # type: ignore[type-var]  # E:transpose_vector


CASES = [
    (k_matmul_shape, "the left's columns (3) must be the right's rows (2)", "matmul_shape"),
    (k_matmul_number, "and its right operand is a number", "matmul_number"),
    (k_add_shapes, "the operands are 3x3 and 2x2 matrices", "add_shapes"),
    (k_add_number, "a matrix is added to or subtracted from a matrix", "add_number"),
    (k_star_product, "write m @ n (or go.mul) for the matrix product", "star_product"),
    (k_arity, "go.mat22() takes 4 numbers row by row", "arity"),
    (k_row_lengths, "takes row vectors of 2 components, got 3, 3", "row_lengths"),
    (k_runtime_index, "indexed with a compile-time constant", "runtime_index"),
    (k_index_arity, "a matrix is indexed m[i, j] (an element) or m[i]", "index_arity"),
    (k_inverse_square, "go.inverse() takes a square matrix, got a 2x3 one", "inverse_square"),
    (k_inverse_ints, "go.inverse() takes a matrix of floats", "inverse_ints"),
    (k_load_index, "index it with 1 index(es), got 2", "load_index"),
    (k_store_element, "a matrix is stored into the last two axes of an array", "store_element"),
    (k_identity_size, "size must be a compile-time constant integer", "identity_size"),
    (k_identity_dtype, "no matrix type of 3x3 i8", "identity_dtype"),
    (k_pass_vector, "is a go.mat33; pass one", "pass_vector"),
    (k_local_shape, "a 2x2 matrix where go.mat33 is needed", "local_shape"),
    (k_transpose_vector, "go.transpose() takes a matrix", "transpose_vector"),
]


@pytest.mark.parametrize(("fn", "construct", "marker"), CASES, ids=[c[2] for c in CASES])
def test_matrix_misuse_is_a_compile_error_at_the_line(
    fn: Callable[..., Any], construct: str, marker: str
) -> None:
    check(fn, construct, marker)
