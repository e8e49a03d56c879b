"""Generic kernels: dtype variables and compile-time parameters (``go.DTypeVar``, ``go.Const``).

A kernel written over ``T = go.DTypeVar("T")`` (any gpuoff dtype) or a constrained
``F = go.DTypeVar("F", go.f32, go.f64)`` is specialised per binding at launch: the
arguments whose annotations name ``T`` decide its dtype (they must agree), and inside the body
``T`` is that dtype (casts ``T(0)``, ``go.shared(256, T)``, ``v: T = 0``). A plain
``typing.TypeVar`` whose constraints are gpuoff dtypes is accepted too.

``block: go.Const[int]`` (also ``bool``, ``float``, or ``go.DeviceFunction[...]`` for a
``@go.func`` passed as an argument) is a compile-time parameter: its value, given at launch
like any argument, is part of the specialisation and a constant inside the kernel (shapes,
``range`` bounds, the launch-time bounds and race proofs see it).

For type checkers ``DTypeVar`` is ``typing.TypeVar`` (the gpuoff mypy plugin gives an
unconstrained one every gpuoff dtype as its values) and ``Const[X]`` is ``X``.
"""

from __future__ import annotations

import typing
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from gpuoff.lang import SCALAR_TYPES, DeviceFunction, DType

__all__ = ["CONST", "Const", "ConstMarker", "DTypeVar", "allowed", "const_kind", "is_dtype_var"]

_C = TypeVar("_C")


class ConstMarker:
    """The ``Annotated`` metadata that makes ``go.Const[X]`` a compile-time parameter."""

    _instance: ConstMarker | None = None

    def __new__(cls) -> ConstMarker:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "go.Const"

    def __reduce__(self) -> str:
        return "CONST"


CONST = ConstMarker()

Const = Annotated[_C, CONST]
"""``go.Const[int]``: a compile-time parameter (its value is part of the specialisation)."""

CONST_KINDS: dict[object, str] = {int: "int", bool: "bool", float: "float"}
"""The Python types a ``go.Const`` parameter may hold, and their kind names; a device
function (``go.Const[go.DeviceFunction[...]]``) is kind ``"func"``."""


if TYPE_CHECKING:

    class DTypeVar:
        """To type checkers: the gpuoff mypy plugin makes ``T = go.DTypeVar("T", ...)`` a
        type variable whose values are the constraints (every gpuoff dtype without any)."""

        def __init__(self, name: str, *constraints: type[DType]) -> None: ...
        def __call__(self, value: object = 0) -> Any: ...

else:

    class DTypeVar:
        """A type variable over gpuoff dtypes: ``T = go.DTypeVar("T")`` (any dtype) or
        ``F = go.DTypeVar("F", go.f32, go.f64)`` (one of these)."""

        def __init__(self, name: str, *constraints: object, bound: object = None,
                     covariant: bool = False, contravariant: bool = False) -> None:  # fmt: skip
            if not isinstance(name, str) or not name.isidentifier():
                raise TypeError(f"go.DTypeVar takes a name first, got {name!r}")
            for c in constraints:
                if not (isinstance(c, type) and issubclass(c, DType) and c is not DType):
                    raise TypeError(f"go.DTypeVar({name!r}, ...): the constraints are gpuoff "
                                    f"dtypes (go.f32, ...), got {c!r}")  # fmt: skip
            if len(constraints) == 1:
                raise TypeError(f"go.DTypeVar({name!r}, ...) takes no or at least two "
                                "constraints (one is just that dtype)")  # fmt: skip
            self.__name__ = name
            self.__constraints__: tuple[type[DType], ...] = tuple(constraints)
            self.__bound__ = bound
            self.__module__ = _caller_module()

        def __call__(self, value: object = 0) -> Any:
            raise RuntimeError(f"the dtype variable {self.__name__} has a dtype only inside a "
                               "kernel or device function specialised for it")  # fmt: skip

        def __repr__(self) -> str:
            return f"~{self.__name__}"

        def __reduce__(self) -> tuple[Any, ...]:
            return (DTypeVar, (self.__name__, *self.__constraints__))


def _caller_module() -> str:
    import sys

    frame = sys._getframe(2)
    return str(frame.f_globals.get("__name__", "__main__"))


def is_dtype_var(obj: object) -> bool:
    """Whether ``obj`` is a dtype variable: a ``go.DTypeVar`` or a ``typing.TypeVar``."""
    return isinstance(obj, DTypeVar | TypeVar)  # type: ignore[arg-type,misc,unused-ignore]


def allowed(var: object) -> tuple[type[DType], ...]:
    """The dtypes a dtype variable may be bound to (every gpuoff dtype when unconstrained);
    a ``typing.TypeVar`` constrained to anything but gpuoff dtypes allows none of those."""
    constraints = getattr(var, "__constraints__", ())
    if not constraints:  # the real dtypes (complex numbers are no generic T yet)
        return tuple(t for t in SCALAR_TYPES if t.np_dtype.kind != "c")
    return tuple(c for c in constraints if isinstance(c, type) and issubclass(c, DType))


def const_kind(annotation: object) -> str | None:
    """``"int"``, ``"bool"``, ``"float"`` or ``"func"`` for ``go.Const[...]`` of that type;
    ``"?"`` for a ``go.Const`` of anything else; None when ``annotation`` is no ``go.Const``."""
    if typing.get_origin(annotation) is not Annotated:
        return None
    inner, *meta = typing.get_args(annotation)
    if not any(m is CONST for m in meta):
        return None
    if inner in CONST_KINDS:
        return CONST_KINDS[inner]
    if inner is DeviceFunction or typing.get_origin(inner) is DeviceFunction:
        return "func"
    return "?"
