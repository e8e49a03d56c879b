"""Misuse of small vectors (issue 15, item 2) is a CompileError at the user's line, with a
caret, saying what to write."""
# ruff: noqa: F841

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, CompileError, f32, vec3
from tests.unit import frontend_errors_support as support

HERE = Path(__file__).resolve()


def check(fn: Callable[..., Any], construct: str, marker: str, ndim: int = 2) -> CompileError:
    return support.check_at(HERE, fn, construct, marker, ndim)


@go.func
def takes_vec(v: vec3) -> f32:
    return v.x


def k_mixed_lengths(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = go.vec3(1.0) + go.vec2(1.0)  # type: ignore[operator]  # E:mixed_lengths


def k_arity(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = go.vec3(1.0, 2.0)  # E:arity


def k_cross_2d(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0, 0] = go.cross(go.vec2(1.0), go.vec2(2.0)).x  # E:cross_2d


def k_component(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0, 0] = go.vec2(1.0).z  # E:component


def k_row_index(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    v = go.vec3.load(a, (0, 1))  # E:row_index


def k_element(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0, 1] = go.vec3(1.0)  # E:element


def k_write_borrow(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    a[0] = go.vec3(1.0)  # type: ignore[gpuoff-borrow-write]  # E:write_borrow


def k_dot_scalar(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0, 0] = go.dot(a[0, 0], go.vec3(1.0))  # type: ignore[arg-type]  # E:dot_scalar


def k_as_number(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0, 0] = go.sqrt(go.vec3(1.0))  # type: ignore[type-var]  # E:as_number


def k_pass_scalar(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0, 0] = takes_vec(a[0, 0])  # type: ignore[arg-type]  # E:pass_scalar


def k_atomic_and(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    go.atomic_and(y, 0, go.vec3(1.0))  # type: ignore[arg-type]  # E:atomic_and


CASES = [
    (k_mixed_lengths, "the operands are vectors of 3 and 2 components", "mixed_lengths"),
    (k_arity, "go.vec3() takes 3 components (or one to fill them), got 2", "arity"),
    (k_cross_2d, "go.cross() takes two vectors of 3 components", "cross_2d"),
    (k_component, "a vector of 2 components has no .z", "component"),
    (k_row_index, "index it with 1 index(es), got 2", "row_index"),
    (k_element, "a vector is stored into a row of an array", "element"),
    (k_write_borrow, "'a'", "write_borrow"),
    (k_dot_scalar, "go.dot() takes vectors", "dot_scalar"),
    (k_as_number, "is a tuple of 3 values, used where a number is needed", "as_number"),
    (k_pass_scalar, "is a go.vec3; pass one", "pass_scalar"),
    (k_atomic_and, "go.atomic_and is not available for f32 arrays", "atomic_and"),
]


@pytest.mark.parametrize(("fn", "construct", "marker"), CASES, ids=[c[2] for c in CASES])
def test_vector_misuse_is_a_compile_error_at_the_line(
    fn: Callable[..., Any], construct: str, marker: str
) -> None:
    check(fn, construct, marker)
