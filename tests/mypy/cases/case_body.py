# fmt: off
"""Kernel and device-function bodies: the kernel subset and writes through Borrow."""
# ruff: noqa: E501, E731
import math

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32
from tests.mypy.cases.kernels_lib import twice


@go.kernel
def good(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    """Docstrings are fine."""
    i = go.global_id(0)
    n = len(y)
    for j in range(n):
        if j == i and i < x.shape[0]:
            y[i] = twice(a * x[i]) + later(x[i])  # forward reference to a device function
        elif j > i:
            break
        else:
            continue
    while n > 0:
        n -= 1
    t = go.sqrt(x[0]) + f32(math.sqrt(2.0)) + go.f32(max(1.0, abs(a)))
    y[0] = t if t > 0 else go.abs(t)
    y[0] += float(int(t))


@go.func
def later(v: f32) -> f32:
    return go.exp(v)


def host_helper(v: float) -> float:
    return v


@go.kernel
def bad(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    x[i] = 1.0  # E: cannot write to 'x': it is a shared Borrow (declare it BorrowMut to write)  [gpuoff-borrow-write]
    x[i] += 1.0  # E: cannot write to 'x': it is a shared Borrow (declare it BorrowMut to write)  [gpuoff-borrow-write]
    print(i)  # E: calling the Python function 'print' is not supported in kernels: only gpuoff intrinsics, math functions, builtins and @go.func device functions can be called  [gpuoff-unsupported]
    y[i] = host_helper(1.0)  # E: calling the Python function 'host_helper' is not supported in kernels: only gpuoff intrinsics, math functions, builtins and @go.func device functions can be called  [gpuoff-unsupported]
    vals = [1.0, 2.0]  # E: list literal is not supported in kernels  [gpuoff-unsupported]
    try:  # E: try statement is not supported in kernels  [gpuoff-unsupported]
        y[i] = vals[0]
    except ValueError:
        pass
    y[i] = math.atan2(1.0, 2.0)  # E: math.atan2() is not one of the math functions kernels support: ceil, cos, erf, exp, floor, fma, log, log2, pow, rsqrt, sin, sqrt, tan, tanh, isnan, isinf (as go.<name>, and as math.<name> where math has it), and the builtins abs, min and max  [gpuoff-unsupported]
    f = lambda v: v  # E: lambda expression is not supported in kernels  [gpuoff-unsupported]
    y[i] = f(1.0)  # E: calling the Python function 'f' is not supported in kernels: only gpuoff intrinsics, math functions, builtins and @go.func device functions can be called  [gpuoff-unsupported] # E: Call to untyped function (unknown) in typed context  [no-untyped-call]


@go.func
def bad_helper(x: Borrow[Array[f32]]) -> f32:
    x[0] = 2.0  # type: ignore[gpuoff-borrow-write]
    print(x[0])  # type: ignore[gpuoff-unsupported]
    return x[0]


@go.func
def axpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = a * x[0] + y[0]


@go.kernel
def calls_device(x: BorrowMut[Array[f32]], z: BorrowMut[Array[f32]]) -> None:
    axpy(2.0, z, x)
    axpy(2.0, x, x)  # E: argument 'x' is passed as Borrow and also as 'y' (BorrowMut) to axpy: a BorrowMut argument must not alias any other argument  [gpuoff-alias]


@go.kernel
def more_bad(x: BorrowMut[Array[f32]]) -> None:
    good(f32(1.0), x, x)  # E: a kernel cannot be called from a kernel; declare the helper with @go.func to call it  [gpuoff-unsupported]
    x[0] = float(f"{x[1]}")  # E: f-string is not supported in kernels  [gpuoff-unsupported]
    assert x[0] > 0  # E: assert statement is not supported in kernels  [gpuoff-unsupported]
    x[0] = math.floor(x[1]) + math.sqrt(x[2])


@go.kernel
def numpy_in_kernel(x: BorrowMut[Array[f32]]) -> None:
    import numpy as np  # E: import statement is not supported in kernels  [gpuoff-unsupported]

    x[0] = np.sqrt(x[1]) + np.float32(pow(x[2], 2)) + np.abs(x[3]) + bool(x[4])
