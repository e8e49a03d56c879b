# fmt: off
"""gpuoff-signature: kernel and device-function parameters the front end refuses.

The words are the front end's (``LaunchTypeError`` at the first launch), reported where the
parameter is declared.
"""
# ruff: noqa: E501
from __future__ import annotations

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Owned, f32


@go.kernel
def no_wrapper(x: Array[f32]) -> None:  # E: parameter 'x' of no_wrapper: an array parameter needs an ownership wrapper: Borrow[Array[T]] (read), BorrowMut[Array[T]] (read and write) or Owned[Array[T]] (take over); expected a scalar type (go.f32, go.i32, float, int, bool, ...) or an array with an ownership wrapper: Borrow[Array[T]], BorrowMut[Array[T]] or Owned[Array[T]]  [gpuoff-signature]
    x[0] = 1.0


@go.kernel
def numpy_parameter(x: np.ndarray) -> None:  # E: parameter 'x' of numpy_parameter: unsupported type ndarray; expected ... [gpuoff-signature]
    pass


@go.kernel
def list_parameter(x: list[float]) -> None:  # E: parameter 'x' of list_parameter: unsupported type list[float]; expected ... [gpuoff-signature]
    pass


@go.kernel
def str_parameter(x: BorrowMut[Array[f32]], name: str) -> None:  # E: parameter 'name' of str_parameter: unsupported type str; expected ... [gpuoff-signature]
    x[0] = 1.0


@go.kernel
def wrapped_scalar(x: Borrow[f32]) -> None:  # E: parameter 'x' of wrapped_scalar: the wrapper must contain Array[T], got f32; expected ... [gpuoff-signature]
    pass


@go.kernel
def bare_wrapper(x: BorrowMut) -> None:  # E: parameter 'x' of bare_wrapper: BorrowMut needs an element: Array[T] in brackets; expected ... [gpuoff-signature] # E: Missing type arguments for generic type "BorrowMut"  [type-arg]
    pass


@go.kernel
def missing_annotation(x: BorrowMut[Array[f32]], n) -> None:  # type: ignore[no-untyped-def] # E: parameter 'n' of missing_annotation: it has no type annotation; expected ... [gpuoff-signature]
    x[0] = 1.0


@go.kernel
def star_args(x: BorrowMut[Array[f32]], *rest: f32) -> None:  # E: parameter 'rest' of star_args: only plain positional parameters are supported (no *args, **kw); expected ... [gpuoff-signature]
    x[0] = 1.0


@go.kernel
def returns_value(x: Borrow[Array[f32]]) -> f32:  # E: a kernel returns nothing: annotate it '-> None'  [gpuoff-signature]
    return x[0]  # E: a kernel cannot return a value (write results into a BorrowMut array)  [gpuoff-unsupported]


@go.kernel
def float_array(x: BorrowMut[Array[np.float32]]) -> None:  # type: ignore[type-var]
    x[0] = 1.0


@go.kernel
def python_scalars(x: BorrowMut[Array[f32]], a: float, n: int, flag: bool, b: np.float32) -> None:
    x[0] = a + n + float(b) if flag else 0.0


@go.func
def helper_with_list(v: list[f32]) -> f32:  # E: parameter 'v' of device function 'helper_with_list': unsupported type list[f32]; annotate it like a kernel parameter  [gpuoff-signature]
    return v[0]


@go.func
def helper_ok(a: f32, x: Borrow[Array[f32]], y: Owned[Array[f32]]) -> f32:
    return a * x[0] + y[0]


def plain(x: Array[f32]) -> None:  # E: parameter 'x' of plain: an array parameter needs an ownership wrapper: ... [gpuoff-signature]
    x[0] = 1.0


call_form = go.kernel(plain)  # the call form is checked too
