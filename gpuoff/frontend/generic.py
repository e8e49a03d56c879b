"""The dtype variables bound while one specialisation is lowered (``go.DTypeVar``).

A generic kernel is lowered once per binding (``gpuoff.runtime.generic`` decides it from the
launch's arguments). While it is lowered, ``bound(binding)`` makes ``signature.scalar_of``
read each dtype variable as its dtype, so every place that names a dtype — annotations of
the kernel and of its device functions, casts ``T(x)``, ``go.shared(n, T)``, ``v: T = 0`` —
sees the concrete one. A device function binds its own variables from the arguments of each
call (``bind_call``); variables its parameters do not name keep the caller's binding.
"""

from __future__ import annotations

import contextlib
import typing
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from types import MappingProxyType

from gpuoff.ir import types as T
from gpuoff.lang import OWNERSHIP_WRAPPERS, Array
from gpuoff.lang_generic import allowed, is_dtype_var

Binding = Mapping[object, T.ScalarType]

_NONE: Binding = MappingProxyType({})
_CURRENT: ContextVar[Binding] = ContextVar("gpuoff_dtype_binding", default=_NONE)


def current() -> Binding:
    """The dtype variables bound now (by identity), empty outside a specialisation."""
    return _CURRENT.get()


@contextlib.contextmanager
def bound(binding: Binding) -> Iterator[None]:
    """Lower with ``binding`` in force (restored afterwards, also on errors)."""
    token = _CURRENT.set(binding)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def var_of(annotation: object) -> tuple[object, bool] | None:
    """``(variable, is_array)`` when ``annotation`` is a dtype variable ``T`` or an array of
    one (``Borrow[Array[T]]``); None otherwise."""
    if is_dtype_var(annotation):
        return annotation, False
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return var_of(typing.get_args(annotation)[0])
    if origin in OWNERSHIP_WRAPPERS:
        (inner,) = typing.get_args(annotation) or (None,)
        if typing.get_origin(inner) is Array:
            (elem,) = typing.get_args(inner)
            if is_dtype_var(elem):
                return elem, True
    return None


def allows(var: object, dtype: T.ScalarType) -> bool:
    """Whether ``var`` may be bound to ``dtype`` (its constraints, if any)."""
    return any(T.scalar_from_lang(c) == dtype for c in allowed(var))


def allowed_names(var: object) -> str:
    """The dtypes ``var`` allows, as the user writes them: ``go.f32, go.f64``."""
    return ", ".join(f"go.{c.__name__}" for c in allowed(var))


@dataclass(frozen=True)
class ConstArg:
    """The argument of a device function's ``go.Const`` parameter at one call: a
    compile-time value (a number, or a device function), no run-time argument."""

    value: object


def var_name(var: object) -> str:
    return str(getattr(var, "__name__", var))


def bind_call(
    found: list[tuple[str, object, T.ScalarType, bool]], outer: Binding
) -> tuple[dict[object, T.ScalarType], str | None]:
    """The binding of one device-function call: ``found`` holds per parameter annotated with
    a variable ``(parameter, variable, argument's dtype, argument is weak)``. Strong arguments
    bind first; a weak one (a Python literal) only binds a variable nothing else binds.
    Returns the binding and, on a conflict or a dtype outside the constraints, why."""
    out = dict(outer)
    mine: dict[object, tuple[str, T.ScalarType]] = {}
    for weak_pass in (False, True):
        for name, var, dtype, weak in found:
            if weak != weak_pass:
                continue
            if var in mine:
                first, have = mine[var]
                if have != dtype and not weak:
                    return out, (f"{var_name(var)} is {have} from parameter {first!r} but "
                                 f"{dtype} from parameter {name!r}")  # fmt: skip
                continue
            if not allows(var, dtype):
                return out, (f"parameter {name!r} binds {var_name(var)} to {dtype}, which is "
                             f"not one of {allowed_names(var)}")  # fmt: skip
            mine[var] = (name, dtype)
            out[var] = dtype
    return out, None
