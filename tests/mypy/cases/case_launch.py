# fmt: off
"""Launch sites: dtype-checked arguments, scalars, aliasing, keyword arguments."""
# ruff: noqa: E501, E731
import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, f64
from gpuoff.runtime.buffer import Buffer
from tests.mypy.cases.kernels_lib import scale


@go.kernel
def add(x: Borrow[Array[f32]], y: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    out[i] = x[i] + y[i]


class Holder:
    def __init__(self, a: Buffer[f32]) -> None:
        self.a = a


def launches(x: Buffer[f32], y: Array[f32], d: Array[f64], h: Holder) -> None:
    scale[4](2.0, x, y)  # plain Python float for an f32 scalar; Buffer and Array for arrays
    scale[4, 2](3, x, y=y)
    scale[4](go.f32(2.0), x=x, y=y)
    add[4](x, x, y)  # two shared borrows of one buffer are fine
    scale[4](2.0, d, y)  # E: Argument 2 to "__call__" of "Launch" has incompatible type "Array[f64]"; expected "Borrow[Array[f32]] | ndarray[Any, Any]"  [arg-type]
    scale[4](2.0, x, x)  # E: argument 'x' is passed as Borrow and also as 'y' (BorrowMut) to scale: a BorrowMut argument must not alias any other argument  [gpuoff-alias]
    scale[4](2.0, y=x, x=x)  # E: argument 'x' is passed as Borrow and also as 'y' (BorrowMut) to scale: a BorrowMut argument must not alias any other argument  [gpuoff-alias]
    add[4](h.a, y, h.a)  # E: argument 'x' is passed as Borrow and also as 'out' (BorrowMut) to add: a BorrowMut argument must not alias any other argument  [gpuoff-alias]
    add[4](x, y, x)  # type: ignore[gpuoff-alias]
    scale[4]("two", x, y)  # E: Argument 1 to "__call__" of "Launch" has incompatible type "str"; expected "float | floating[Any]"  [arg-type]


def starred(x: Buffer[f32], y: Buffer[f32]) -> None:
    args = (2.0, x, y)
    scale[4](*args)  # one expression for every parameter: not an alias
    kw = {"x": x, "y": y}
    scale[4](2.0, **kw)


def expected_failures(x: Buffer[f32]) -> None:
    import pytest

    with pytest.raises(TypeError):
        scale[4](2.0, x, x)  # deliberately wrong under pytest.raises: not reported


def numpy_arguments(y: Buffer[f32]) -> None:
    import numpy as np

    from tests.mypy.cases.kernels_lib import consume

    a = np.ones(4, np.float32)
    scale[4](np.float32(2.0), a, y)  # NumPy scalars and arrays, as the runtime takes them
    consume[4](a, np.int32(3))  # E: Argument 1 to "__call__" of "Launch" has incompatible type "ndarray[tuple[int], dtype[floating[_32Bit]]]"; expected "Owned[Array[f32]]"  [arg-type]
