"""``gpuoff show --sig`` for a generic kernel (``go.DTypeVar``, ``go.Const``): the entries
of the generic parameters bind their dtype variables, a ``go.Const`` parameter's entry is its
value (``256``, ``True``, ``0.5``, or ``MODULE:FUNC`` for a device function)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from typing import Any

from gpuoff.errors import GpuoffError


class SigError(GpuoffError, ValueError):
    """A ``--sig`` that does not fit the kernel (the CLI prints it as a usage error)."""


Entry = tuple[str, int, bool]


def const_value(decl: Any, text: str, load: Callable[[str], Any]) -> object:
    """The value of ``go.Const`` parameter ``decl`` written ``text`` in ``--sig``."""
    from gpuoff.lang import DeviceFunction

    text = text.strip()
    if decl.const == "func":
        fn = load(text)
        if not isinstance(fn, DeviceFunction):
            raise SigError(f"parameter {decl.name!r} takes a @go.func (MODULE:FUNC), got {text!r}")
        return fn
    try:
        value: object = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        value = None
    if decl.const == "bool" and isinstance(value, bool):
        return value
    if decl.const == "int" and isinstance(value, int) and not isinstance(value, bool):
        return value
    if decl.const == "float" and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise SigError(f"parameter {decl.name!r} is a go.Const[{decl.const}]: --sig gives its "
                   f"value (e.g. 256), got {text!r}")  # fmt: skip


def generic_args(decls: Sequence[Any], parts: Sequence[str], entry: Callable[[str], Entry],
                 load: Callable[[str], Any]) -> tuple[list[Any], dict[object, Any],
                                                       dict[str, object]]:  # fmt: skip
    """(the run-time parameters' IR types, the binding, the constants) of a generic kernel
    from its ``--sig`` entries (``parts``, one per parameter)."""
    from gpuoff.ir import types as T

    by_name = {s.name: s for s in T.SCALARS}
    binding: dict[object, Any] = {}
    consts: dict[str, object] = {}
    types: list[Any] = []
    for decl, text in zip(decls, parts, strict=True):
        if decl.const:
            consts[decl.name] = const_value(decl, text, load)
            continue
        dtype, ndim, contiguous = entry(text)
        st = by_name[dtype]
        if decl.var is not None:
            name = getattr(decl.var, "__name__", "T")
            if binding.setdefault(decl.var, st) != st:
                raise SigError(f"parameter {decl.name!r} binds {name} to {dtype}, but an "
                               f"earlier one bound it to {binding[decl.var].name}")  # fmt: skip
        elif dtype != decl.dtype.name:
            raise SigError(f"parameter {decl.name!r} is declared with dtype {decl.dtype.name} "
                           f"but --sig gives {dtype}")  # fmt: skip
        if decl.is_array != (ndim > 0):
            want = "an array like f32[:]" if decl.is_array else "a scalar dtype"
            raise SigError(f"parameter {decl.name!r} needs {want} in --sig")
        types.append(T.ArrayType(st, ndim, contiguous, access=decl.access) if ndim else st)
    return types, binding, consts


def generic_sig(decls: Sequence[Any], sig: str | None, split: Callable[[str], list[str]],
                entry: Callable[[str], Entry], load: Callable[[str], Any]) -> tuple[
                    list[Any], dict[object, Any], dict[str, object]]:  # fmt: skip
    """``generic_args`` from a whole ``--sig`` (``split`` cuts it into entries)."""
    parts = split(sig) if sig else []
    if len(parts) != len(decls):
        names = ", ".join(d.name for d in decls)
        raise SigError(f"a generic kernel needs --sig with one entry per parameter ({names}): "
                       "the dtypes of the generic ones and each go.Const's value, e.g. "
                       '"f32[:], f32[:], 256"')  # fmt: skip
    return generic_args(decls, parts, entry, load)
