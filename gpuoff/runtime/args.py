"""Launch argument checking and the packed-block formats (``codegen.abi``) per parameter.

Every wrong argument is a ``LaunchTypeError`` naming the kernel, the parameter, what it expects
and what it got (SPEC §2).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from gpuoff.errors import LaunchTypeError
from gpuoff.ir import types as T
from gpuoff.ownership import Access

if TYPE_CHECKING:
    from gpuoff.frontend.signature import ParamDecl

SCALAR_FORMAT = {
    "f16": "e6x", "f32": "f4x", "f64": "d", "i8": "b7x", "i16": "h6x", "i32": "i4x",
    "i64": "q", "u8": "B7x", "u16": "H6x", "u32": "I4x", "u64": "Q", "bool": "?7x",
}  # fmt: skip
"""struct format of one 8-byte slot holding a scalar of each type, little-endian."""

INT_RANGE = {
    st.name: ((-(1 << (st.bits - 1)), (1 << (st.bits - 1)) - 1) if st.is_signed
              else (0, (1 << st.bits) - 1))
    for st in T.INTEGERS
}  # fmt: skip
FLOAT_MAX = {"f16": 65504.0, "f32": float(np.finfo(np.float32).max), "f64": math.inf}


def expected(decl: ParamDecl) -> str:
    """What a parameter accepts, as the user wrote it: ``BorrowMut[Array[f32]]`` or ``i32``."""
    if decl.is_array:
        assert decl.access is not None
        return f"{decl.access.value}[Array[{decl.dtype.name}]]"
    return decl.dtype.name


def describe(value: object) -> str:
    """A short description of an argument for error messages."""
    from gpuoff.runtime.buffer import Buffer

    if isinstance(value, Buffer):
        return f"a go.Buffer of {value.dtype.name} ({value.ndim}-d)"
    if isinstance(value, np.ndarray):
        order = "" if value.dtype.isnative else ", byte-swapped"
        return f"a NumPy array of {value.dtype.name}{order} ({value.ndim}-d)"
    if isinstance(value, bool | int | float | np.generic):
        return f"{type(value).__name__} {value!r}"
    from gpuoff.runtime import foreign

    if foreign.is_foreign(value):
        return foreign.describe(value)
    return f"a {type(value).__qualname__}"


def type_error(kernel: str, decl: ParamDecl, value: object, why: str = "") -> LaunchTypeError:
    """The ``LaunchTypeError`` for ``value`` passed to parameter ``decl``."""
    tail = f" ({why})" if why else ""
    return LaunchTypeError(
        f"{kernel}(): parameter {decl.name!r} expects {expected(decl)}, got {describe(value)}{tail}"
    )


def check_scalar(kernel: str, decl: ParamDecl, value: object) -> int | float | bool:
    """``value`` converted for a scalar parameter, or ``LaunchTypeError`` if it does not fit."""
    st = decl.dtype
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if st.is_bool:
        if isinstance(value, bool | np.bool_):
            return bool(value)
        raise type_error(kernel, decl, value)
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.number):
        raise type_error(kernel, decl, value)
    if st.is_int:
        if not isinstance(value, int | np.integer):
            raise type_error(kernel, decl, value, "a float for an integer parameter")
        lo, hi = INT_RANGE[st.name]
        if not lo <= int(value) <= hi:
            raise type_error(kernel, decl, value, f"out of range [{lo}, {hi}]")
        return int(value)
    if isinstance(value, complex | np.complexfloating):
        raise type_error(kernel, decl, value)
    f = float(value)
    if math.isfinite(f) and abs(f) > FLOAT_MAX[st.name]:
        raise type_error(kernel, decl, value, f"out of range for {st.name}")
    return f


def check_array(kernel: str, decl: ParamDecl, value: object) -> None:
    """Kind and dtype of an array argument (``value`` is a Buffer here)."""
    from gpuoff.runtime.buffer import Buffer

    if not decl.is_array:
        raise type_error(kernel, decl, value, "an array for a scalar parameter")
    if not isinstance(value, Buffer):
        raise type_error(kernel, decl, value)
    value._alive()
    if value.dtype != decl.dtype.np_dtype:
        raise type_error(
            kernel, decl, value, f"dtype {value.dtype.name}, not {decl.dtype.np_dtype}"
        )


def array_type(decl: ParamDecl, key: tuple[str, int, bool]) -> T.ArrayType:
    """The IR type of an array argument with signature key ``(dtype, ndim, contiguous)``."""
    assert decl.access is not None
    if decl.dtype.is_complex:  # its floats, (real, imaginary) on a last axis (Buffer._pairs)
        return T.ArrayType(decl.dtype.component, key[1] + 1, contiguous=key[2],
                           access=decl.access, pairs=True)  # fmt: skip
    return T.ArrayType(decl.dtype, key[1], contiguous=key[2], access=decl.access)


def complex_params(decls: tuple[ParamDecl, ...]) -> tuple[int, ...]:
    """The indices of the complex array parameters (passed as ``Buffer._pairs``)."""
    return tuple(i for i, d in enumerate(decls) if d.is_array and d.dtype.is_complex)


def pair_views(args: tuple[object, ...], which: tuple[int, ...]) -> tuple[object, ...]:
    """``args`` with the complex buffers at ``which`` replaced by their float views (after
    ``check_array``: the kernel's plan was made for these complex buffers)."""
    out = list(args)
    for i in which:
        a = out[i]
        out[i] = a._pairs()  # type: ignore[attr-defined]
    return tuple(out)


def slot_format(decl: ParamDecl, ndim: int) -> str:
    """struct format of one parameter's slots."""
    if decl.is_array:
        return "Q" + "q" * (2 * ndim)
    return SCALAR_FORMAT[decl.dtype.name]


def moves(decl: ParamDecl) -> bool:
    """Whether the parameter takes ownership (``Owned``)."""
    return decl.access is Access.OWNED
