"""Misuse of complex numbers (issue 15, item 7) is a CompileError (or, for a kernel's
parameter, a LaunchTypeError) at the user's line, with a caret, saying what to write."""
# ruff: noqa: F841

from __future__ import annotations

import cmath
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, CompileError, complex64, f32, i32
from tests.unit import frontend_errors_support as support

HERE = Path(__file__).resolve()


def check(fn: Callable[..., Any], construct: str, marker: str) -> CompileError:
    return support.check_at(HERE, fn, construct, marker)


@go.func
def takes_complex(z: complex64) -> float:
    return z.real


def k_order(a: Borrow[Array[complex64]], y: BorrowMut[Array[f32]]) -> None:
    if a[0] < a[1]:  # type: ignore[operator]  # E:order
        y[0] = 1.0


def k_floordiv(a: Borrow[Array[complex64]], y: BorrowMut[Array[complex64]]) -> None:
    y[0] = a[0] // a[1]  # type: ignore[operator]  # E:floordiv


def k_real_cast(a: Borrow[Array[complex64]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = go.f32(a[0])  # type: ignore[arg-type]  # E:real_cast


def k_real_math(a: Borrow[Array[complex64]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = math.sin(a[0])  # type: ignore[arg-type]  # E:real_math


def k_store_real(a: Borrow[Array[complex64]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = a[0]  # E:store_real


def k_atomic(a: BorrowMut[Array[complex64]], y: BorrowMut[Array[f32]]) -> None:
    go.atomic_add(a, 0, 1.0)  # E:atomic


def k_index(a: Borrow[Array[complex64]], y: BorrowMut[Array[f32]]) -> None:
    z = a[0]
    y[0] = z[0]  # type: ignore[index]  # E:index


def k_power(a: Borrow[Array[complex64]], y: BorrowMut[Array[complex64]]) -> None:
    y[0] = a[0] ** 0.5  # E:power


def k_complex_math(a: Borrow[Array[complex64]], y: BorrowMut[Array[complex64]]) -> None:
    y[0] = np.sin(a[0])  # E:complex_math


def k_view(a: Borrow[Array[complex64]], y: BorrowMut[Array[complex64]]) -> None:
    y[0] = a[1:3][0]  # E:view


def k_write_borrow(a: Borrow[Array[complex64]], y: BorrowMut[Array[f32]]) -> None:
    a[0] = 1j  # type: ignore[gpuoff-borrow-write]  # E:write_borrow


def k_pass_real(a: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = takes_complex(a[0])  # type: ignore[arg-type]  # E:pass_real


def k_truth(a: Borrow[Array[complex64]], y: BorrowMut[Array[f32]]) -> None:
    if a[0]:  # E:truth
        y[0] = 1.0


def k_rect(a: Borrow[Array[complex64]], y: BorrowMut[Array[complex64]]) -> None:
    y[0] = cmath.rect(a[0], 1.0)  # type: ignore[arg-type]  # E:rect


CASES = [
    (k_order, "complex numbers have no order", "order"),
    (k_floordiv, "the operator // is not defined for complex numbers", "floordiv"),
    (k_real_cast, "is a complex number, used where a real one is needed", "real_cast"),
    (k_real_math, "is a complex number, used where a real one is needed", "real_math"),
    (k_store_real, "holds real numbers; take .real, .imag or abs() of the complex", "store_real"),
    (k_atomic, "holds complex numbers; kernels read one as z = a[i]", "atomic"),
    (k_index, "a complex number is not indexable", "index"),
    (k_power, "z ** n with a constant integer n", "power"),
    (k_complex_math, "is a complex number, used where a real one is needed", "complex_math"),
    (k_view, "take no views of it", "view"),
    (k_write_borrow, "'a'", "write_borrow"),
    (k_pass_real, "is complex64; pass one (a real x as complex(x, 0.0)", "pass_real"),
    (k_truth, "is a complex number, used where a real one is needed", "truth"),
    (k_rect, "cmath.rect(r, phi) takes two real numbers", "rect"),
]


@pytest.mark.parametrize(("fn", "construct", "marker"), CASES, ids=[c[2] for c in CASES])
def test_complex_misuse_is_a_compile_error_at_the_line(
    fn: Callable[..., Any], construct: str, marker: str
) -> None:
    check(fn, construct, marker)


def test_a_kernel_takes_no_complex_scalar_and_no_owned_complex_array() -> None:
    @go.kernel
    def scalar(z: complex64, y: BorrowMut[Array[f32]]) -> None:
        y[0] = z.real

    with pytest.raises(go.LaunchTypeError, match=r"takes no complex scalar; pass its parts"):
        scalar[1](complex64(1j), np.zeros(1, np.float32))

    @go.kernel
    def owned(a: go.Owned[Array[complex64]], y: BorrowMut[Array[i32]]) -> None:
        y[0] = 1

    with pytest.raises(go.LaunchTypeError, match=r"Owned\[Array\[complex64\]\] is not"):
        owned[1](go.zeros(1, complex64), np.zeros(1, np.int32))
