"""Launching a generic kernel: one specialised kernel per binding of its dtype variables and
per value of its ``go.Const`` parameters (``gpuoff.lang_generic``).

``Specialiser.dispatch`` runs first in each launch of a generic kernel: it binds every dtype
variable from the arguments annotated with it (arrays and NumPy scalars bind strongly, a
Python number only binds a variable nothing else binds: ``float`` as f64, ``int`` as i64),
checks the constraints, reads the ``go.Const`` values, and launches the specialisation for
that key with the run-time arguments only. A specialisation is an ordinary ``Kernel`` over
the same function whose declared parameters are the concrete ones; its front end gets the
binding and the constants (``lower_kernel(binding=, consts=)``) and its disk cache key adds
them (``Kernel._spec_tag``: a device function by module, qualified name and source hash), so
its compiled code is cached like any kernel's. Each ``Launch`` keeps one ``Launch`` of each
specialisation it ran, so the warm path (and its repeat path) is the specialisation's own.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from gpuoff.errors import LaunchTypeError
from gpuoff.ir import types as T
from gpuoff.lang import DeviceFunction
from gpuoff.runtime import args as A
from gpuoff.runtime import cache
from gpuoff.runtime.buffer import Buffer

Kernel = Any  # gpuoff.runtime.kernel.Kernel, which imports this module
Launch = Any

_PY_DEFAULT = {bool: T.boolean, int: T.i64, float: T.f64}
_BY_DTYPE: dict[np.dtype[Any], T.ScalarType] = {}
"""NumPy dtype (native order) -> IR scalar type, filled as launches meet them."""
_CONST_TYPES: dict[str, tuple[type, ...]] = {"int": (int, np.integer), "bool": (bool, np.bool_),
                                              "float": (float, int, np.floating, np.integer)}


def is_generic(decls: tuple[Any, ...]) -> bool:
    """Whether a kernel with these parameters is generic (a dtype variable or a Const)."""
    return any(getattr(d, "var", None) is not None or getattr(d, "const", "") for d in decls)


class Specialiser:
    """The specialisations of one generic kernel, by key."""

    def __init__(self, kernel: Kernel, decls: tuple[Any, ...]) -> None:
        self.kernel = kernel
        self.decls = decls
        self.vars: list[object] = []
        for d in decls:
            if d.var is not None and not any(v is d.var for v in self.vars):
                self.vars.append(d.var)
        self.runtime = tuple(i for i, d in enumerate(decls) if not d.const)
        self.children: dict[tuple[Any, ...], Kernel] = {}
        self.allowed: set[tuple[object, T.ScalarType]] = set()  # (variable, dtype) checked

    def dispatch(self, launch: Launch, args: tuple[Any, ...]) -> Any:
        """Launch the specialisation for ``args`` (bound: one per parameter)."""
        key, binding = self.key(args)
        child = self.children.get(key)
        if child is None:
            child = self._make(key, binding, args)
        sub = launch._children.get(child) if launch._children is not None else None
        if sub is None:
            sub = launch._child(child)
        return sub(*[args[i] for i in self.runtime])

    def key(self, args: tuple[Any, ...]) -> tuple[tuple[Any, ...], dict[object, T.ScalarType]]:
        """(the specialisation key, the binding) of a launch with ``args``. The common case
        (buffers or NumPy arrays, ints for the constants) takes a few dict lookups; anything
        else, and every error, goes through the checking path (``_dtype``, ``_bind``)."""
        binding: dict[object, T.ScalarType] = {}
        parts: list[Any] = []
        weak: list[tuple[Any, Any]] = []
        for d, a in zip(self.decls, args, strict=True):
            if d.const:
                parts.append(("int", a) if type(a) is int and d.const == "int"
                             else self._const(d, a))  # fmt: skip
            elif d.var is not None:
                t = type(a)
                dtype = _BY_DTYPE.get(a.dtype) if t is Buffer or t is np.ndarray else None
                if dtype is None:
                    dtype = self._dtype(d, a)
                    if dtype is None:
                        weak.append((d, a))
                        continue
                have = binding.get(d.var)
                if have is None and (d.var, dtype) in self.allowed:
                    binding[d.var] = dtype
                elif have is None or have != dtype:
                    self._bind(binding, d, dtype)
        for d, a in weak:
            if d.var not in binding:
                self._bind(binding, d, _PY_DEFAULT[type(a)])
        return (*(binding[v].name for v in self.vars), *parts), binding

    def _const(self, decl: Any, value: Any) -> Any:
        if decl.const == "func":
            if not isinstance(value, DeviceFunction):
                raise self._error(decl, f"expects a @go.func device function (go.Const), got "
                                        f"{A.describe(value)}")  # fmt: skip
            return value
        kinds = _CONST_TYPES[decl.const]
        if not isinstance(value, kinds) or (
            decl.const != "bool" and isinstance(value, bool | np.bool_)
        ):
            raise self._error(decl, f"expects a compile-time {decl.const} (go.Const), got "
                                    f"{A.describe(value)}")  # fmt: skip
        kind = {"int": int, "bool": bool, "float": float}[decl.const]
        return (decl.const, kind(value))

    def _dtype(self, decl: Any, value: Any) -> T.ScalarType | None:
        """The dtype argument ``value`` gives ``decl``'s variable; None for a Python number
        (weak: it binds only what nothing else binds)."""
        if type(value) in _PY_DEFAULT:
            if decl.is_array:
                raise self._error(decl, f"expects an array, got {A.describe(value)}")
            return None
        if isinstance(value, Buffer | np.ndarray | np.generic):
            np_dtype = value.dtype
        else:
            from gpuoff.runtime.foreign import ForeignArrayError, host_array, is_foreign

            if not is_foreign(value):
                raise self._error(decl, f"got {A.describe(value)}")
            try:
                np_dtype = host_array(value).dtype
            except ForeignArrayError as exc:
                raise self._error(decl, exc.reason) from None
        try:
            found = T.scalar_from_numpy(np_dtype.newbyteorder("="))
        except KeyError:
            raise self._error(decl, f"got {A.describe(value)}: dtype {np_dtype.name} is not a "
                                    "gpuoff dtype") from None  # fmt: skip
        if np_dtype.isnative:
            _BY_DTYPE[np_dtype] = found
        return found

    def _bind(self, binding: dict[object, T.ScalarType], decl: Any,
              dtype: T.ScalarType) -> None:  # fmt: skip
        """Bind ``decl``'s variable to ``dtype``: a ``LaunchTypeError`` when an earlier
        parameter bound it to another dtype or it does not allow this one."""
        from gpuoff.frontend import generic

        var = decl.var
        name = generic.var_name(var)
        have = binding.get(var)
        if have is not None and have != dtype:
            first = next(d.name for d in self.decls if d.var is var)
            raise self._error(decl, f"binds {name} to {dtype}, but parameter {first!r} "
                                    f"bound it to {have}: the arguments annotated with {name} "
                                    "must have one dtype")  # fmt: skip
        if have is None:
            if not generic.allows(var, dtype):
                raise self._error(decl, f"binds {name} to {dtype}, which is not one of "
                                        f"{generic.allowed_names(var)}")  # fmt: skip
            self.allowed.add((var, dtype))
            binding[var] = dtype

    def _error(self, decl: Any, why: str) -> LaunchTypeError:
        """``LaunchTypeError`` naming the kernel and the parameter, pointing at the parameter
        in the kernel's ``def``."""
        k = self.kernel
        where = ""
        try:
            from gpuoff.frontend.source import load_source

            src = load_source(k.pyfunc)
            node = next(a for a in src.tree.args.args if a.arg == decl.name)
            where = "\n" + src.location(node).render()
        except Exception:  # noqa: BLE001 - no source: the message without the place
            pass
        return LaunchTypeError(f"{k.__name__}(): parameter {decl.name!r} {why}{where}")

    def _make(self, key: tuple[Any, ...], binding: dict[object, T.ScalarType],
              args: tuple[Any, ...]) -> Kernel:  # fmt: skip
        """A new specialisation (no compiling yet: its first launch does that)."""
        from gpuoff.frontend import generic

        k = self.kernel
        decls = tuple(
            dataclasses.replace(d, dtype=binding[d.var], var=None) if d.var is not None else d
            for d in self.decls if not d.const
        )  # fmt: skip
        consts: dict[str, object] = {}
        for d, a in zip(self.decls, args, strict=True):
            if d.const:
                consts[d.name] = a if d.const == "func" else self._const(d, a)[1]
        tag = [f"{generic.var_name(v)}={binding[v]}" for v in self.vars]
        for name, value in consts.items():
            tag.append(f"{name}={_const_tag(value)}")
        child = type(k)(k.pyfunc, boundscheck=k.boundscheck, fastmath=k.fastmath,
                        sanitize=k.sanitize)  # fmt: skip
        child._decls = decls
        child._binding = binding
        child._consts = consts
        child._spec_tag = ",spec[" + ";".join(tag) + "]"
        self.children[key] = child
        return child


def _const_tag(value: object) -> str:
    """A ``go.Const`` value in the disk cache key: a number's repr; a device function by its
    module, qualified name and source hash (what the compiled code depends on)."""
    if isinstance(value, DeviceFunction):
        fn = value.pyfunc
        return f"{fn.__module__}.{fn.__qualname__}#{cache.source_hash(fn)[:16]}"
    return repr(value)
