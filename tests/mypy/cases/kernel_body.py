# fmt: off
"""gpuoff-unsupported: kernel bodies outside the kernel subset, in the front end's words."""
# ruff: noqa: E501, E731, F841
from __future__ import annotations

import math

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32

WEIGHTS = np.ones(4, np.float32)
TAPS = (0.25, 0.5, 0.25)
NAME = "blur"


def host_helper(v: float) -> float:
    return v


@go.kernel
def values(x: BorrowMut[Array[f32]]) -> None:
    t = (1.0, 2.0)  # a tuple value is fine
    v = [1.0, 2.0]  # a private array is fine
    w = [[1.0], [2.0]][0]  # E: list literal is not supported in kernels  [gpuoff-unsupported]
    s = "text"  # E: strings are not supported in kernels  [gpuoff-unsupported]
    big = float("inf") + float("-inf") + float("1e3")  # constant number text is fine
    bad = float("one")  # E: float('one') is not a number; in kernels float() of a string takes constant number text such as 'inf' or 'nan'  [gpuoff-unsupported]
    n = None  # E: None is not supported as a value in kernels  [gpuoff-unsupported]
    d = {1: 2.0}  # E: dict literal is not supported in kernels  [gpuoff-unsupported]
    x[0] = t[0] + v[0] + d[1]
    print(s, n)  # E: calling the Python function 'print' is not supported in kernels: only gpuoff intrinsics, math functions, the builtins abs, bool, enumerate, float, int, len, max, min, pow, range, reversed, round, sum and zip, and @go.func device functions can be called  [gpuoff-unsupported]


@go.kernel
def unpacking_is_fine(x: BorrowMut[Array[f32]]) -> None:
    a, b = 1.0, 2.0
    a, b = b, a
    x[0] = a - b


@go.kernel
def captured(x: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    x[i] = WEIGHTS[i]  # E: indexing is only supported on arrays ('WEIGHTS' is not one)  [gpuoff-unsupported]
    x[i] += TAPS[0]  # a captured tuple's item is a constant
    label = NAME  # E: 'NAME' is a value of type 'str', which cannot be used in kernels  [gpuoff-unsupported]


@go.kernel
def array_alias(x: BorrowMut[Array[f32]], y: Borrow[Array[f32]]) -> None:
    z = x  # E: array 'x' cannot be used as a scalar value (index it)  [gpuoff-unsupported]
    z[0] = y[0] + 1.0
    w = y + 1.0  # E: array 'y' cannot be used as a scalar value (index it)  [gpuoff-unsupported] # E: Unsupported operand types for + ("Borrow[Array[f32]]" and "float")  [operator]


@go.kernel
def starred(x: BorrowMut[Array[f32]]) -> None:
    x[0] = max(*TAPS)  # E: starred arguments (*args) are not supported in kernels  [gpuoff-unsupported]


@go.kernel
def loop_else(x: BorrowMut[Array[f32]]) -> None:
    for i in range(4):
        x[i] = 1.0
    else:
        x[0] = 2.0  # E: for ... else is not supported in kernels  [gpuoff-unsupported]
    while x[0] > 0:
        x[0] -= 1.0
    else:
        x[1] = 0.0  # E: while ... else is not supported in kernels  [gpuoff-unsupported]


@go.kernel
def loops(x: BorrowMut[Array[f32]]) -> None:
    for v in x:  # E: a for loop over anything but range(...) or a tuple is not supported in kernels  [gpuoff-unsupported] # E: "BorrowMut[Array[f32]]" has no attribute "__iter__" (not iterable)  [attr-defined]
        x[0] = v


@go.kernel
async def asynchronous(x: BorrowMut[Array[f32]]) -> None:  # E: 'asynchronous' is not a plain 'def' function (async functions and lambdas cannot be kernels)  [gpuoff-unsupported]
    x[0] = 1.0


@go.func
def countdown(n: int) -> int:
    if n <= 0:
        return 0
    return countdown(n - 1)  # E: recursive call to device function 'countdown': recursion is not supported in kernels  [gpuoff-unsupported]


@go.func
def ping(n: int) -> int:
    return pong(n - 1) if n > 0 else 0  # E: recursive call to device function 'pong': recursion is not supported in kernels  [gpuoff-unsupported]


@go.func
def pong(n: int) -> int:  # the front end reports whichever call closes the cycle first
    return ping(n - 1)  # E: recursive call to device function 'ping': recursion is not supported in kernels  [gpuoff-unsupported]


@go.kernel
def numpy_reduction(x: BorrowMut[Array[f32]]) -> None:
    x[0] = np.sum(x)  # E: np.sum() is not one of the math functions kernels support: ... [gpuoff-unsupported] # E: No overload variant of "sum" matches argument type "BorrowMut[Array[f32]]"  [call-overload]
    x[2] = math.degrees(1.0)  # E: math.degrees() is not one of the math functions kernels support: ... [gpuoff-unsupported]
    x[1] = sum([x[2], x[3]])  # E: list literal is not supported in kernels  [gpuoff-unsupported]


@go.kernel
def statements(x: BorrowMut[Array[f32]]) -> None:
    try:  # E: try statement is not supported in kernels  [gpuoff-unsupported]
        x[0] = 1.0
    except ValueError:
        pass
    with open("f"):  # E: with statement (only `with go.unsafe():` is) is not supported in kernels  [gpuoff-unsupported]
        pass
    assert x[0] > 0  # E: assert statement is not supported in kernels  [gpuoff-unsupported]
    if x[0] > 1:
        raise ValueError  # E: raise statement is not supported in kernels  [gpuoff-unsupported]
    del x  # E: del statement is not supported in kernels  [gpuoff-unsupported]


@go.kernel
def expressions(x: BorrowMut[Array[f32]], y: Borrow[Array[f32]]) -> None:
    f = lambda v: v  # E: lambda expression is not supported in kernels  [gpuoff-unsupported]
    x[0] = f(1.0)  # E: calling the Python function 'f' is not supported in kernels: ... [gpuoff-unsupported] # E: Call to untyped function (unknown) in typed context  [no-untyped-call]
    x[1] = float(f"{y[0]}")  # E: f-string is not supported in kernels  [gpuoff-unsupported]
    s = y[1:]  # a view is fine
    x[2] = y.sum()  # E: method call .sum() on array 'y' is not supported in kernels  [gpuoff-unsupported] # E: "Borrow[Array[f32]]" has no attribute "sum"  [attr-defined]
    if (n := y[0]) > 0:  # E: assignment expression (:=) is not supported in kernels  [gpuoff-unsupported]
        x[3] = n
    x[4] = 1.0 if y[0] is None else 0.0  # E: the 'is' comparison is not supported in kernels  [gpuoff-unsupported] # E: None is not supported as a value in kernels  [gpuoff-unsupported]
    x[5] = go.sqrt(x=y[0])  # E: keyword arguments are only supported in calls to device functions  [gpuoff-unsupported]
    x[6] = host_helper(1.0)  # E: calling the Python function 'host_helper' is not supported in kernels: ... [gpuoff-unsupported]
    y[0]  # E: an expression statement has no effect; only calls can stand alone  [gpuoff-unsupported]
    x.flag = 1  # E: assigning to an attribute is not supported in kernels  [gpuoff-unsupported] # E: "BorrowMut[Array[f32]]" has no attribute "flag"  [attr-defined]
    shape = x.shape  # a tuple of the sizes
    x[7] = [v for v in range(3)][0]  # E: list comprehension is not supported in kernels  [gpuoff-unsupported]


@go.kernel
def nested(x: BorrowMut[Array[f32]]) -> None:
    def inner() -> None:  # E: nested function definition (def) is not supported in kernels  [gpuoff-unsupported]
        pass
    import math as m  # E: import statement is not supported in kernels  [gpuoff-unsupported]
    x[0] = m.pi


@go.func
def low_high(a: f32, b: f32) -> tuple[f32, f32]:
    return (a, b) if a < b else (b, a)


@go.kernel
def tuples_are_fine(x: BorrowMut[Array[f32]], y: Borrow[Array[f32]]) -> None:
    i = go.global_id(0)
    lo, hi = low_high(y[i], y[i + 1])
    pair = low_high(hi, lo)
    (a, b), *rest = (pair, 1.0, 2.0)
    rows, = x.shape
    acc = [0.0] * 4
    acc[i % 4] = a + b + sum(rest) + rows
    fixed = go.local_array((2, 2), go.f32)
    fixed[0, 1] = acc[0] + TAPS[len(TAPS) - 1]
    if i in (0, 1) and (lo, hi) <= pair:
        x[i] = fixed[0, 1] + pair[0]


@go.kernel
def calls_a_kernel(x: BorrowMut[Array[f32]]) -> None:
    values(x)  # E: a kernel cannot be called from a kernel; declare the helper with @go.func to call it  [gpuoff-unsupported]


@go.kernel
def math_floor_is_fine(x: BorrowMut[Array[f32]], y: Borrow[Array[f32]]) -> None:
    x[0] = math.floor(y[0]) + math.sqrt(y[1]) + np.float32(pow(y[2], 2)) + np.abs(y[3])


def plain(x: BorrowMut[Array[f32]]) -> None:
    x[0] = sorted((1.0, 2.0))[0]  # E: calling the Python function 'sorted' is not supported in kernels: ... [gpuoff-unsupported]


call_form = go.kernel(plain)
decorated_later = go.kernel(boundscheck=False)(plain)
