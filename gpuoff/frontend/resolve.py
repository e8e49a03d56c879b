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

from gpuoff import lang
from gpuoff.frontend.signature import closure_namespace, scalar_of
from gpuoff.ir import types as T

MISSING = object()
"""Marker for a name that is bound nowhere."""

# Python's math module and NumPy's ufuncs, by identity -> (IR math name, result is float).
# ``math.floor``/``math.ceil`` return floats in kernels (like C's floor), not ints as in
# Python: a kernel has no arbitrary-precision int to return. ``math.fabs`` always gives a
# float, where ``abs`` keeps ints.
MATH_BY_OBJECT: dict[object, tuple[str, bool]] = {
    math.sqrt: ("sqrt", True), math.exp: ("exp", True), math.log: ("log", True),
    math.log2: ("log2", True), math.sin: ("sin", True), math.cos: ("cos", True),
    math.tan: ("tan", True), math.tanh: ("tanh", True), math.pow: ("pow", True),
    math.floor: ("floor", True), math.ceil: ("ceil", True), math.fabs: ("abs", True),
    math.erf: ("erf", True), math.isnan: ("isnan", False), math.isinf: ("isinf", False),
    np.sqrt: ("sqrt", True), np.exp: ("exp", True), np.log: ("log", True),
    np.log2: ("log2", True), np.sin: ("sin", True), np.cos: ("cos", True),
    np.tan: ("tan", True), np.tanh: ("tanh", True), np.power: ("pow", False),
    np.floor: ("floor", True), np.ceil: ("ceil", True), np.fabs: ("abs", True),
    np.abs: ("abs", False), np.minimum: ("min", False), np.maximum: ("max", False),
    np.isnan: ("isnan", False), np.isinf: ("isinf", False),
}  # fmt: skip
if hasattr(math, "fma"):  # Python 3.13+
    MATH_BY_OBJECT[math.fma] = ("fma", True)
for _fn, _name in lang.MATH_FUNCTIONS.items():
    MATH_BY_OBJECT[_fn] = (_name, False)

_SUPPORTED_MATH = sorted(
    {name for name, _ in MATH_BY_OBJECT.values()} - {"abs", "min", "max", "isnan", "isinf"}
) + ["isnan", "isinf"]


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


def unsupported_math_message(called: str, home: str) -> str:
    """The message for calling ``called`` (``"math.atan2"``), a function of ``home`` (``"math"``
    or ``"np"``) kernels do not support: it lists the ones they do (the front end and the mypy
    plugin both say this)."""
    return (f"{called}() is not one of the math functions kernels support: "
            f"{', '.join(_SUPPORTED_MATH)} (as go.<name>, and as {home}.<name> where {home} has "
            "it), and the builtins abs, min and max")  # fmt: skip


BUILTINS: dict[object, str] = {
    builtins.abs: "abs", builtins.min: "min", builtins.max: "max", builtins.int: "int",
    builtins.float: "float", builtins.bool: "bool", builtins.len: "len",
    builtins.range: "range", builtins.pow: "pow",
}  # fmt: skip


@dataclass(frozen=True)
class Resolved:
    """What a non-local name (or a static attribute chain) denotes in a kernel.

    ``kind`` is one of: ``const`` (``value``), ``dtype`` (``dtype``: a cast), ``builtin``,
    ``intrinsic``, ``math`` (``float_result``), ``atomic``, ``barrier``, ``shared``,
    ``device`` (``value`` is the DeviceFunction), ``namespace`` (a module or object whose
    attributes resolve statically), ``unsupported`` (anything else; ``value`` is the object).
    """

    kind: str
    value: object = None
    name: str = ""
    dtype: T.ScalarType | None = None
    float_result: bool = False


def classify(obj: object) -> Resolved:
    """Classify a Python object found by name lookup."""
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
    if isinstance(obj, types.ModuleType):
        return f"module {obj.__name__!r}"
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
