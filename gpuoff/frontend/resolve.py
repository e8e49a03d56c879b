"""Resolving names that are not locals: closure cells, globals, builtins.

A global or captured name is looked up once, at lowering time, and classified by identity:
constants (frozen), dtypes (casts), builtins, gpuoff intrinsics / math / atomics, ``math`` and
NumPy functions, device functions, and modules or other objects whose attributes are looked up
statically (``go.f32``, ``math.pi``, ``cfg.BLOCK``).
"""

from __future__ import annotations

import builtins
import math
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from gpuoff import lang, lang_math, subset
from gpuoff.frontend.signature import closure_namespace, scalar_of
from gpuoff.ir import types as T
from gpuoff.lang_generic import is_dtype_var
from gpuoff.subset import unsupported_math_message

MISSING = object()
"""Marker for a name that is bound nowhere."""


def _math_table() -> dict[object, tuple[str, bool]]:
    """Python's math module and NumPy's ufuncs, by identity -> (IR math name, result is
    float), from the names in ``gpuoff.subset`` (which the mypy plugin reads too).
    ``math.fabs`` always gives a float, where ``abs`` keeps ints."""
    out: dict[object, tuple[str, bool]] = {}
    for module, names in ((math, subset.MATH_CALLS), (np, subset.NUMPY_CALLS)):
        for name, entry in names.items():
            obj = getattr(module, name, None)  # math.fma is Python 3.13+
            if obj is not None:
                out[obj] = entry
    for fn, ir in lang_math.MATH_FUNCTIONS.items():
        out[fn] = (ir, False)
    return out


MATH_BY_OBJECT: dict[object, tuple[str, bool]] = _math_table()

BUILTINS: dict[object, str] = {getattr(builtins, name): name for name in subset.BUILTIN_CALLS}


def math_namespace(obj: object) -> str | None:
    """``"math"`` or ``"np"`` when ``obj`` is a function of that module that kernels do not
    support (``math.atan2``), so the message can list the ones they do; else None."""
    if not callable(obj) or obj in MATH_BY_OBJECT:
        return None
    home = getattr(obj, "__module__", None)
    if isinstance(obj, np.ufunc) or home == "numpy":
        return "np"
    if home == "math" or any(obj is v for v in vars(math).values()):
        return "math"
    return None


__all__ = ["MATH_BY_OBJECT", "BUILTINS", "math_namespace", "unsupported_math_message"]


@dataclass(frozen=True)
class Resolved:
    """What a non-local name (or a static attribute chain) denotes in a kernel.

    ``kind`` is one of: ``const`` (``value``), ``dtype`` (``dtype``: a cast), ``builtin``,
    ``intrinsic``, ``math`` (``float_result``), ``atomic``, ``barrier``, ``shared``,
    ``unsafe`` (``go.unsafe``, only as ``with go.unsafe():``), ``local_array``, ``device``
    (``value`` is the DeviceFunction), ``namespace`` (a module or object whose
    attributes resolve statically), ``unsupported`` (anything else; ``value`` is the object).
    """

    kind: str
    value: object = None
    name: str = ""
    dtype: T.ScalarType | None = None
    float_result: bool = False


def classify(obj: object) -> Resolved:
    """Classify a Python object found by name lookup."""
    if is_dtype_var(obj):
        dtype = scalar_of(obj)
        if dtype is None:
            return Resolved("unsupported", obj)
        return Resolved("dtype", obj, dtype.name, dtype)
    if isinstance(obj, bool | int | float | np.bool_ | np.integer | np.floating):
        return Resolved("const", obj)
    if isinstance(obj, lang.DeviceFunction):
        return Resolved("device", obj, obj.__name__)
    dtype = scalar_of(obj) if isinstance(obj, type) and obj not in BUILTINS else None
    if dtype is not None:
        return Resolved("dtype", obj, dtype.name, dtype)
    try:
        hash(obj)
    except TypeError:
        return _namespace_or_unsupported(obj)
    if obj in BUILTINS:
        return Resolved("builtin", obj, BUILTINS[obj])
    if obj in lang.INTRINSICS:
        return Resolved("intrinsic", obj, lang.INTRINSICS[obj])
    if obj in lang.ATOMICS:
        return Resolved("atomic", obj, lang.ATOMICS[obj])
    if obj is lang.barrier:
        return Resolved("barrier", obj, "barrier")
    if obj is lang.shared:
        return Resolved("shared", obj, "shared")
    if obj is lang.unsafe:
        return Resolved("unsafe", obj, "unsafe")
    if obj is lang.local_array:
        return Resolved("local_array", obj, "local_array")
    if obj in MATH_BY_OBJECT:
        name, float_result = MATH_BY_OBJECT[obj]
        return Resolved("math", obj, name, float_result=float_result)
    return _namespace_or_unsupported(obj)


def _namespace_or_unsupported(obj: object) -> Resolved:
    if isinstance(obj, types.ModuleType):
        return Resolved("namespace", obj, obj.__name__)
    if callable(obj) or isinstance(obj, str | bytes | list | dict | set | tuple | np.ndarray):
        return Resolved("unsupported", obj)
    if obj is None:
        return Resolved("unsupported", obj)
    # A plain configuration object (a class or instance with constant attributes).
    return Resolved("namespace", obj, type(obj).__name__)


def describe(obj: object) -> str:
    """A short user-facing description of a Python object."""
    if is_dtype_var(obj):
        return (f"the dtype variable {getattr(obj, '__name__', obj)}, which no parameter of "
                "this function binds (annotate one with it)")  # fmt: skip
    if isinstance(obj, types.ModuleType):
        return f"module {obj.__name__!r}"
    module = getattr(obj, "__module__", None) or ""
    from_numpy = module == "numpy" or module.startswith("numpy.")
    if from_numpy and callable(obj) and not isinstance(obj, type):
        return f"the NumPy function {getattr(obj, '__name__', '?')!r}"
    if isinstance(obj, types.FunctionType | types.BuiltinFunctionType):
        return f"the Python function {obj.__name__!r}"
    if isinstance(obj, type):
        return f"the class {obj.__name__!r}"
    return f"a value of type {type(obj).__name__!r}"


class Env:
    """The non-local namespace of one Python function: closure cells, globals, builtins."""

    def __init__(self, pyfunc: Callable[..., Any]) -> None:
        self.closure = closure_namespace(pyfunc)
        self.globals: dict[str, object] = getattr(pyfunc, "__globals__", {})
        code = getattr(pyfunc, "__code__", None)
        self.freevars: tuple[str, ...] = code.co_freevars if code is not None else ()

    def lookup(self, name: str) -> object:
        """The object bound to ``name`` (closure, then globals, then builtins) or MISSING."""
        if name in self.closure:
            return self.closure[name]
        if name in self.freevars:
            return MISSING  # an unassigned enclosing variable
        if name in self.globals:
            return self.globals[name]
        return getattr(builtins, name, MISSING)
