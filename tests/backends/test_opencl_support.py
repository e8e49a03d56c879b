"""Helpers for the OpenCL backend tests: run one IR module on ``opencl:0`` and in the reference
interpreter, and compare. (No tests here.)"""

from __future__ import annotations

import copy
import dataclasses
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

import gpuoff as go
from gpuoff.errors import BoundsError
from gpuoff.frontend import lower_kernel
from gpuoff.ir import interp
from gpuoff.ir import nodes as n
from gpuoff.ir.types import ArrayType, ScalarType, scalar_from_numpy
from gpuoff.ownership import Access
from gpuoff.runtime.devices.base import Allocation, ArrayArg, LaunchArg
from gpuoff.runtime.devices.opencl import OpenCLDevice, discover, open_device
from gpuoff.runtime.devices.opencl_program import OpenCLProgram, build_program


@cache
def device() -> OpenCLDevice:
    """``opencl:0`` (PoCL here), opened once per test session."""
    return open_device("opencl:0")


def has_opencl() -> bool:
    return any(info.available for info in discover())


@dataclass
class View:
    """A strided view of a contiguous ``base`` array, passed as such to a kernel."""

    base: np.ndarray[Any, Any]
    view: np.ndarray[Any, Any]

    def offset_strides(self) -> tuple[int, tuple[int, ...]]:
        start = self.view.__array_interface__["data"][0] - self.base.__array_interface__["data"][0]
        item = self.base.itemsize
        return start, tuple(s // item for s in self.view.strides)


Arg = np.ndarray[Any, Any] | View | int | float | bool


def arg_type(a: Arg, access: Access | None) -> ScalarType | ArrayType:
    """The IR type the runtime would give ``a`` (arrays: dtype, ndim, contiguity)."""
    if isinstance(a, View):
        contiguous = bool(a.view.flags.c_contiguous)
        return ArrayType(scalar_from_numpy(a.view.dtype), a.view.ndim, contiguous=contiguous,
                         access=access or Access.BORROW)  # fmt: skip
    if isinstance(a, np.ndarray):
        return ArrayType(scalar_from_numpy(a.dtype), a.ndim, contiguous=True,
                         access=access or Access.BORROW)  # fmt: skip
    raise TypeError("scalar types must be given explicitly")


def with_dtype(pyfunc: Callable[..., Any], dtype: type[go.lang.DType]) -> Callable[..., Any]:
    """A copy of ``pyfunc`` whose annotations say ``dtype`` where they say ``T``."""
    new = types.FunctionType(pyfunc.__code__, pyfunc.__globals__, pyfunc.__name__,
                             pyfunc.__defaults__, pyfunc.__closure__)  # fmt: skip
    namespace = {**pyfunc.__globals__, "T": dtype}
    new.__annotations__ = {
        k: eval(v, namespace) if isinstance(v, str) else v  # noqa: S307 - test annotations
        for k, v in pyfunc.__annotations__.items()
    }
    return new


def lower(pyfunc: Callable[..., Any], arg_types: Sequence[ScalarType | ArrayType],
          boundscheck: bool = True) -> n.Module:  # fmt: skip
    module: n.Module = lower_kernel(pyfunc, tuple(arg_types), boundscheck=boundscheck)
    return module


_built: dict[tuple[str, tuple[str, ...]], OpenCLProgram] = {}


def build(module: n.Module, options: tuple[str, ...] = ()) -> OpenCLProgram:
    """Build ``module`` from source (never from the binary cache, so the driver's log is
    real), with ``options`` added to the build options, and assert the generated C compiles
    without a single warning."""
    dev = device()
    source = dev.render(module)
    source = dataclasses.replace(source, build_options=(*source.build_options, *options))
    key = (source.text, source.build_options)
    program = _built.get(key)
    if program is None or program.module != module:
        program = build_program(dev, module, source, None)
        assert program.build_log == "", program.build_log
        _built[key] = program
    return program


def run_device(
    module: n.Module,
    args: Sequence[Arg],
    grid: Sequence[int],
    block: Sequence[int] | None = None,
    options: tuple[str, ...] = (),
) -> None:
    """Compile ``module`` for opencl:0 (``options``: extra build options), run it over
    ``grid`` and copy every array back into ``args`` (in place). Raises the launch's
    ``BoundsError``, if any."""
    program = build(module, options)
    dev = device()
    allocs: list[tuple[Allocation, np.ndarray[Any, Any]]] = []
    largs: list[LaunchArg] = []
    for a in args:
        if isinstance(a, View | np.ndarray):
            base = a.base if isinstance(a, View) else a
            alloc = dev.allocate(base.nbytes)
            dev.copy_from_host(alloc, 0, base, [])
            allocs.append((alloc, base))
            if isinstance(a, View):
                offset, strides = a.offset_strides()
                largs.append(ArrayArg(alloc, offset, a.view.shape, strides))
            else:
                largs.append(ArrayArg(alloc, 0, a.shape, tuple(s // a.itemsize for s in a.strides)))
        else:
            largs.append(a)
    g3 = (*grid, 1, 1)[:3]
    b3 = None if block is None else (*block, 1, 1)[:3]
    dev = device()
    event = dev.launch(program, largs, g3, b3, [])  # type: ignore[arg-type]
    error: BoundsError | None = None
    try:
        event.wait()
    except BoundsError as e:
        error = e
    for alloc, base in allocs:
        dev.copy_to_host(base, alloc, 0, []).wait()
        dev.free(alloc)
    if error is not None:
        raise error


def run_both(module: n.Module, args: Sequence[Arg], grid: Sequence[int],
             block: Sequence[int] | None = None, rtol: float = 0.0,
             atol: float = 0.0) -> str | None:  # fmt: skip
    """Run on opencl:0 and in the interpreter from the same inputs; assert every array agrees
    (exactly unless ``rtol``/``atol``; NaNs equal). Returns the BoundsError message (both must
    raise the same one, or neither: give such tests a single failing access, since which of
    several failing work-items records first is up to the device)."""
    ref = copy.deepcopy(list(args))
    ref_interp = [(a.view if isinstance(a, View) else a) for a in ref]
    want: str | None = None
    try:
        interp.run(module, ref_interp, tuple(grid), None if block is None else tuple(block))
    except BoundsError as e:
        want = str(e)
    got: str | None = None
    try:
        run_device(module, args, grid, block)
    except BoundsError as e:
        got = str(e)
    assert got == want
    for mine, theirs in zip(args, ref, strict=True):
        if isinstance(mine, View) and isinstance(theirs, View):
            mine, theirs = mine.view, theirs.view  # (deepcopy detached the copy's view)
        if isinstance(mine, np.ndarray) and isinstance(theirs, np.ndarray):
            if rtol or atol:
                np.testing.assert_allclose(mine, theirs, rtol=rtol, atol=atol)
            else:
                np.testing.assert_array_equal(mine, theirs)
    return got
