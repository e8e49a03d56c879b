"""Kernel and device-function signatures: annotations -> ``ParamDecl``.

Annotations are resolved one parameter at a time (so an error names the parameter), by
evaluating string annotations (``from __future__ import annotations``) in the function's
globals and closure. Accepted forms:

* ``Borrow[Array[T]]``, ``BorrowMut[Array[T]]``, ``Owned[Array[T]]`` with ``T`` a gpuoff
  scalar type (``go.f32``) or a NumPy scalar type (``np.float32``);
* scalars: a gpuoff scalar type, a NumPy scalar type, or ``float`` (f64), ``int`` (i64),
  ``bool``;
* a dtype variable (``go.DTypeVar``) in place of ``T`` or a scalar type: outside a
  specialisation it gives a generic ``ParamDecl`` (``var`` set), inside one
  (``generic.bound``) the variable's dtype;
* ``go.Const[int]`` (``bool``, ``float``, ``go.DeviceFunction[...]``): a compile-time
  parameter (``const`` names its kind).
"""

from __future__ import annotations

import builtins
import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpuoff import lang
from gpuoff import subset as W
from gpuoff.errors import LaunchTypeError
from gpuoff.frontend import generic
from gpuoff.ir import types as T
from gpuoff.lang_generic import const_kind, is_dtype_var
from gpuoff.ownership import WRAPPER_ACCESS, Access

_PY_SCALARS: dict[object, T.ScalarType] = {float: T.f64, int: T.i64, bool: T.boolean,
                                            complex: T.complex128}  # fmt: skip


@dataclass(frozen=True)
class ParamDecl:
    """One declared parameter: its element (or scalar) type and, for arrays, its access."""

    name: str
    dtype: T.ScalarType
    access: Access | None
    is_array: bool
    var: object = None
    """A generic parameter's dtype variable (``dtype`` is then only a placeholder: the
    launch binds the variable); None for a parameter of a fixed dtype."""
    const: str = ""
    """A ``go.Const`` parameter's kind: ``"int"``, ``"bool"``, ``"float"`` (``dtype`` is its
    IR type) or ``"func"`` (a device function); empty for a run-time parameter."""


GENERIC_PLACEHOLDER = T.i64
"""The ``dtype`` of a ``ParamDecl`` whose dtype a variable or a device function decides."""
_CONST_DTYPES = {"int": T.i64, "bool": T.boolean, "float": T.f64, "func": GENERIC_PLACEHOLDER}


class AnnotationError(Exception):
    """An annotation that is not a kernel parameter type (internal; callers re-raise)."""


def unwrap_function(obj: object) -> Callable[..., Any]:
    """The plain Python function behind a kernel object, a ``DeviceFunction`` or a wrapper."""
    seen = 0
    while seen < 8:
        seen += 1
        if isinstance(obj, lang.DeviceFunction):
            obj = obj.pyfunc
            continue
        inner = getattr(obj, "pyfunc", None) or getattr(obj, "__wrapped__", None)
        if inner is not None and not inspect.isfunction(obj):
            obj = inner
            continue
        break
    if not callable(obj):
        raise TypeError(f"{obj!r} is not a function")
    return obj


def closure_namespace(pyfunc: Callable[..., Any]) -> dict[str, object]:
    """The function's free variables that are bound (closure cells), by name."""
    code = getattr(pyfunc, "__code__", None)
    cells = getattr(pyfunc, "__closure__", None) or ()
    names = code.co_freevars if code is not None else ()
    out: dict[str, object] = {}
    for name, cell in zip(names, cells, strict=False):
        try:
            out[name] = cell.cell_contents
        except ValueError:  # an empty cell: the enclosing variable is not assigned yet
            continue
    return out


def _evaluate(annotation: object, pyfunc: Callable[..., Any]) -> object:
    if not isinstance(annotation, str):
        return annotation
    namespace: dict[str, object] = dict(vars(builtins))
    namespace.update(getattr(pyfunc, "__globals__", {}))
    namespace.update(closure_namespace(pyfunc))
    try:
        return eval(annotation, namespace)  # noqa: S307 - the user's own annotation text
    except Exception as exc:  # noqa: BLE001 - any failure means "cannot resolve"
        raise AnnotationError(f"cannot resolve annotation {annotation!r} ({exc})") from None


def evaluate_annotation(pyfunc: Callable[..., Any], annotation: object) -> object:
    """The annotation's value (a string annotation evaluated in the function's namespace);
    the annotation itself when it cannot be evaluated (the caller reports it)."""
    try:
        return _evaluate(annotation, pyfunc)
    except AnnotationError:
        return annotation


def scalar_of(obj: object) -> T.ScalarType | None:
    """The IR scalar type named by ``obj`` (``go.f32``, ``np.float32``, ``float``, a dtype
    variable bound now), or None."""
    if is_dtype_var(obj):
        return generic.current().get(obj)
    if obj in _PY_SCALARS:
        return _PY_SCALARS[obj]
    if isinstance(obj, type) and issubclass(obj, lang.DType) and obj is not lang.DType:
        return T.scalar_from_lang(obj)
    if isinstance(obj, type) and obj.__module__ == "numpy":
        try:
            return T.scalar_from_lang(lang.dtype_of(obj))
        except TypeError:
            return None
    return None


def _describe(obj: object) -> str:
    if isinstance(obj, type):
        return obj.__name__
    return repr(obj)


def _array_dtype(arg: object) -> T.ScalarType | None:
    """The element type of ``Array[X]``; None for an unbound dtype variable."""
    if typing.get_origin(arg) is not lang.Array:
        raise AnnotationError(W.wrapper_needs_array(_describe(arg)))
    (elem,) = typing.get_args(arg)
    dtype = scalar_of(elem)
    if dtype is None and is_dtype_var(elem):
        return None
    if dtype is None or elem in _PY_SCALARS:
        raise AnnotationError(W.unknown_element(_describe(elem)))
    return dtype


def decl_from_annotation(name: str, annotation: object) -> ParamDecl:
    """``ParamDecl`` for one resolved annotation; ``AnnotationError`` if it is not one."""
    kind = const_kind(annotation)
    if kind is not None:
        if kind == "?":
            raise AnnotationError(CONST_TYPES)
        return ParamDecl(name, _CONST_DTYPES[kind], None, False, const=kind)
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
        origin = typing.get_origin(annotation)
    if origin is not None and origin in lang.OWNERSHIP_WRAPPERS:
        access = WRAPPER_ACCESS[origin.__name__]
        (inner,) = typing.get_args(annotation)
        elem = _array_dtype(inner)
        if elem is None:
            var = typing.get_args(inner)[0]
            return ParamDecl(name, GENERIC_PLACEHOLDER, access, True, var=var)
        return ParamDecl(name, elem, access, True)
    if origin is lang.Array or annotation is lang.Array:
        raise AnnotationError(W.NEEDS_WRAPPER)
    if annotation in lang.OWNERSHIP_WRAPPERS:
        raise AnnotationError(W.wrapper_needs_element(_describe(annotation)))
    dtype = scalar_of(annotation)
    if dtype is None and is_dtype_var(annotation):
        return ParamDecl(name, GENERIC_PLACEHOLDER, None, False, var=annotation)
    if dtype is None:
        raise AnnotationError(W.unsupported_type(_describe(annotation)))
    return ParamDecl(name, dtype, None, False)


CONST_TYPES = ("go.Const takes int, bool, float or a device function type "
               "(go.Const[go.DeviceFunction[[T, T], T]])")  # fmt: skip


def raw_annotations(pyfunc: Callable[..., Any]) -> list[tuple[str, object, int]]:
    """``(name, annotation or inspect.Parameter.empty, kind)`` for each parameter."""
    sig = inspect.signature(pyfunc, follow_wrapped=False, eval_str=False)
    return [(p.name, p.annotation, p.kind) for p in sig.parameters.values()]


def resolve_param(
    pyfunc: Callable[..., Any], name: str, annotation: object, kind: int
) -> ParamDecl:
    """Resolve one parameter's annotation; ``AnnotationError`` with the reason if invalid."""
    if kind not in (
        inspect.Parameter.POSITIONAL_ONLY,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
    ):
        raise AnnotationError(W.PLAIN_POSITIONAL)
    if annotation is inspect.Parameter.empty:
        raise AnnotationError(W.NO_ANNOTATION)
    return decl_from_annotation(name, _evaluate(annotation, pyfunc))


def parse_signature(pyfunc: Callable[..., Any]) -> tuple[ParamDecl, ...]:
    """The declared parameters of a kernel, from its annotations.

    Raises ``LaunchTypeError`` naming the parameter and what was expected when an annotation
    is missing, unknown, or an array lacks its ownership wrapper.
    """
    func = unwrap_function(pyfunc)
    fname = getattr(func, "__qualname__", "kernel")
    out: list[ParamDecl] = []
    for name, annotation, kind in raw_annotations(func):
        try:
            decl = resolve_param(func, name, annotation, kind)
            _kernel_complex(decl)
            out.append(decl)
        except AnnotationError as exc:
            raise LaunchTypeError(W.kernel_parameter_message(name, fname, str(exc))) from None
    return tuple(out)


def _kernel_complex(decl: ParamDecl) -> None:
    """The complex parameters a kernel does not take (a device function takes both)."""
    if not decl.dtype.is_complex:
        return
    if not decl.is_array:
        part = decl.dtype.component.name
        raise AnnotationError(
            f"a kernel takes no complex scalar; pass its parts ({decl.name}_re: go.{part}, "
            f"{decl.name}_im: go.{part}) and build it with complex(re, im) in the kernel"
        )
    if decl.access is Access.OWNED:
        raise AnnotationError(f"Owned[Array[{decl.dtype.name}]] is not supported; a kernel "
                              "borrows complex arrays (Borrow or BorrowMut)")  # fmt: skip


def return_annotation(pyfunc: Callable[..., Any]) -> object:
    """The resolved return annotation, ``inspect.Signature.empty`` if there is none."""
    ann = inspect.signature(pyfunc, follow_wrapped=False, eval_str=False).return_annotation
    if ann is inspect.Signature.empty:
        return ann
    return _evaluate(ann, pyfunc)
