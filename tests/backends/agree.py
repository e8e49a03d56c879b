"""Run a ``@go.kernel`` on the current device and in the reference interpreter, and compare.

``agree(kernel, grid, *args)`` launches ``kernel`` on copies of ``args`` through the public
API (so argument checks, plans and caches are the real ones), runs the same kernel, lowered
for the same argument types, in ``gpuoff.ir.interp`` on other copies, and asserts every array
agrees: bit for bit by default, within ``rtol``/``atol`` for floats when given (NaNs equal
wherever both are NaN). It returns the device's arrays so the caller can also check NumPy's
answer. ``specialise(pyfunc, T=go.u16)`` makes one kernel of a template per dtype. (No tests
here.)
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import numpy as np

import gpuoff as go
from gpuoff.frontend import lower_kernel, parse_signature
from gpuoff.ir import interp
from gpuoff.ir.types import ArrayType, ScalarType, scalar_from_numpy

NDArray = np.ndarray[Any, Any]


def arg_types(kernel: Any, args: tuple[Any, ...]) -> tuple[ScalarType | ArrayType, ...]:
    """The IR types a launch with ``args`` specialises ``kernel`` for."""
    out: list[ScalarType | ArrayType] = []
    for decl, a in zip(parse_signature(kernel.pyfunc), args, strict=True):
        if decl.is_array and decl.dtype.is_complex:  # its parts on a last axis of 2
            assert isinstance(a, np.ndarray) and decl.access is not None
            out.append(ArrayType(decl.dtype.component, a.ndim + 1, bool(a.flags.c_contiguous),
                                 access=decl.access, pairs=True))  # fmt: skip
        elif decl.is_array:
            assert isinstance(a, np.ndarray) and decl.access is not None
            out.append(ArrayType(scalar_from_numpy(a.dtype), a.ndim,
                                 bool(a.flags.c_contiguous), access=decl.access))  # fmt: skip
        else:
            out.append(decl.dtype)
    return tuple(out)


def agree(
    kernel: Any,
    grid: int | tuple[int, ...],
    *args: Any,
    block: tuple[int, ...] | None = None,
    rtol: float = 0.0,
    atol: float = 0.0,
) -> list[NDArray]:
    """The device's result arrays (one per array argument, in order) after checking them
    against the interpreter's (see the module docstring)."""
    module = lower_kernel(kernel.pyfunc, arg_types(kernel, args))
    ref = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    interp.run(module, [_parts(a) for a in ref], grid, block)
    got = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    launch = kernel[grid] if block is None else kernel[grid, block]
    launch(*got)
    go.synchronize()
    out: list[NDArray] = []
    for g, r in zip(got, ref, strict=True):
        if not isinstance(g, np.ndarray):
            continue
        if g.dtype.kind in "fc" and (rtol or atol):
            np.testing.assert_allclose(g, r, rtol=rtol, atol=atol, equal_nan=True)
        else:
            np.testing.assert_array_equal(g, r)
        out.append(g)
    return out


def _parts(a: Any) -> Any:
    """A complex array as the interpreter takes it: a view of its floats, (re, im) last."""
    if isinstance(a, np.ndarray) and a.dtype.kind == "c":
        return a[..., np.newaxis].view(a.real.dtype)
    return a


def specialise(pyfunc: Callable[..., Any], **names: type[go.lang.DType]) -> Any:
    """A kernel from a copy of ``pyfunc`` that sees ``names[X]`` wherever it says X (in its
    annotations and, as a cast, in its body)."""
    namespace = {**pyfunc.__globals__, **names}
    new = types.FunctionType(pyfunc.__code__, namespace, pyfunc.__name__,
                             pyfunc.__defaults__, pyfunc.__closure__)  # fmt: skip
    new.__annotations__ = {k: eval(v, namespace) if isinstance(v, str) else v  # noqa: S307
                           for k, v in pyfunc.__annotations__.items()}  # fmt: skip
    return go.kernel(new)
