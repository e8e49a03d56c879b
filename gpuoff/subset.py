"""The kernel subset as names and words: what kernel bodies may call, and how the compiler
names what it refuses.

One table for two readers. The front end builds its callee tables from these names (by
looking the objects up) and raises its errors with these words; the mypy plugin reads the
same names and words to report the same mistakes in the editor, without importing the front
end, NumPy or the runtime. So the two accept the same calls and refuse the same constructs
in the same words by construction (``tests/mypy/test_wording.py`` checks the ones the
plugin can only state, not share).

A leaf module: the standard library only. To add a kernel-language feature, add its name
here (an intrinsic to ``INTRINSICS``, a math function to the math tables, a dtype to
``SCALAR_TYPES``), define the object in ``gpuoff.lang``, and both readers follow.
"""

from __future__ import annotations

import ast

LANG_MODULE = "gpuoff.lang"
"""Where the kernel language's objects live (mypy names them ``gpuoff.lang.sqrt``)."""

# --------------------------------------------------------------------------------------------
# Callees a kernel body may call (besides @go.func device functions)
# --------------------------------------------------------------------------------------------

BUILTIN_CALLS: tuple[str, ...] = ("abs", "bool", "float", "int", "len", "max", "min", "pow",
                                  "range", "round", "sum", "enumerate", "zip",
                                  "reversed")  # fmt: skip
"""Python builtins kernels accept (``range``, ``enumerate``, ``zip`` and ``reversed`` only as a
``for`` loop's iterable; ``sum`` of a tuple; ``round`` with one argument, halves to even,
giving an int as in Python)."""

_C99_MATH = (
    "sqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
    "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "pow",
    "cbrt", "hypot", "erf", "erfc", "lgamma", "floor", "ceil", "trunc", "copysign", "fmod",
    "remainder", "nextafter", "fma",
)  # fmt: skip
"""Float functions Python's ``math`` shares with C99 under the same name (``math.fma`` is
Python 3.13+, ``math.exp2``/``math.cbrt`` 3.11+; the front end skips names a module lacks)."""

MATH_CALLS: dict[str, tuple[str, bool]] = {
    **{name: (name, True) for name in _C99_MATH},
    "gamma": ("tgamma", True), "fabs": ("abs", True), "isnan": ("isnan", False),
    "isinf": ("isinf", False), "isfinite": ("isfinite", False),
}  # fmt: skip
"""``math.<name>`` -> (IR math function, the result is always a float).

``math.floor``/``math.ceil``/``math.trunc`` give floats in kernels (like C's), not ints as in
Python; ``math.hypot`` takes two arguments."""

NUMPY_CALLS: dict[str, tuple[str, bool]] = {
    "sqrt": ("sqrt", True), "exp": ("exp", True), "exp2": ("exp2", True),
    "expm1": ("expm1", True), "log": ("log", True), "log2": ("log2", True),
    "log10": ("log10", True), "log1p": ("log1p", True), "sin": ("sin", True),
    "cos": ("cos", True), "tan": ("tan", True), "arcsin": ("asin", True),
    "arccos": ("acos", True), "arctan": ("atan", True), "arctan2": ("atan2", True),
    "sinh": ("sinh", True), "cosh": ("cosh", True), "tanh": ("tanh", True),
    "arcsinh": ("asinh", True), "arccosh": ("acosh", True), "arctanh": ("atanh", True),
    "cbrt": ("cbrt", True), "hypot": ("hypot", True), "power": ("pow", False),
    "pow": ("pow", False), "floor": ("floor", True), "ceil": ("ceil", True),
    "trunc": ("trunc", True), "rint": ("rint", True), "round": ("rint", True),
    "around": ("rint", True), "copysign": ("copysign", True), "fmod": ("fmod", True),
    "nextafter": ("nextafter", True), "fabs": ("abs", True), "abs": ("abs", False),
    "absolute": ("abs", False), "sign": ("sign", False), "minimum": ("min", False),
    "maximum": ("max", False), "isnan": ("isnan", False), "isinf": ("isinf", False),
    "isfinite": ("isfinite", False), "signbit": ("signbit", False),
}  # fmt: skip
"""``numpy.<name>`` (ufuncs, under every name NumPy gives them) -> as ``MATH_CALLS``.
``np.round``/``np.around`` take one argument (no ``decimals``) and round halves to even, as
NumPy does; ``np.remainder`` is Python's ``%`` (not C's ``remainder``), so it is not here."""

LANG_MATH_MODULE = "gpuoff.lang_math"
"""Where the math functions and bit intrinsics live (``go.sqrt`` is ``gpuoff.lang_math.sqrt``)."""

BIT_INTRINSICS: tuple[str, ...] = ("popc", "clz", "ffs", "brev")
"""CUDA's bit intrinsics (``go.popc``, ...), integers only."""

LANG_MATH: dict[str, str] = {
    **{name: name for name in (
        "rsqrt", "exp10", "tgamma", "round", "rint", "fdim", "isnan", "isinf", "isfinite",
        "signbit", "sign", *_C99_MATH, *BIT_INTRINSICS)},
    "fabs": "abs", "minimum": "min", "maximum": "max",
}  # fmt: skip
"""gpuoff's math functions (``gpuoff.lang_math.<name>``; ``go.abs`` is ``fabs``) -> IR name.
``go.round`` is C's (halves away from zero), ``go.rint`` rounds halves to even."""

INTRINSICS: dict[str, str] = {
    "global_id": "global_id", "local_id": "local_id", "group_id": "group_id",
    "global_size": "global_size", "local_size": "local_size", "num_groups": "num_groups",
}  # fmt: skip
"""Work-item index intrinsics in ``gpuoff.lang`` -> IR intrinsic (one constant dimension)."""

ATOMICS: dict[str, str] = {
    "atomic_add": "add", "atomic_sub": "sub", "atomic_exch": "exch", "atomic_cas": "cas",
    "atomic_min": "min", "atomic_max": "max", "atomic_and": "and", "atomic_or": "or",
    "atomic_xor": "xor", "atomic_inc": "inc", "atomic_dec": "dec",
}  # fmt: skip
"""Atomic read-modify-write functions in ``gpuoff.lang`` (CUDA's names) -> IR operation."""

SPECIAL_CALLS: tuple[str, ...] = ("barrier", "shared", "local_array")
"""Other callables of ``gpuoff.lang`` (a statement, and the declarations ``s = go.shared(...)``
and ``b = go.local_array(...)``)."""

UNSAFE = "unsafe"
"""``gpuoff.lang.unsafe``: only as ``with go.unsafe():``, the one escape hatch from the race
rule (SPEC §3b), so not a callee of its own."""
UNSAFE_BLOCK = "`with go.unsafe():`"
UNSAFE_ONLY_AS_BLOCK = f"go.unsafe() is only a block: {UNSAFE_BLOCK}"
UNSAFE_BINDS_NOTHING = f"{UNSAFE_BLOCK} binds no name (drop the `as ...`)"
OTHER_WITH = f"with statement (only {UNSAFE_BLOCK} is)"
"""The construct name of any other ``with`` in a kernel."""

SCALAR_TYPES: dict[str, str] = {
    "f16": "float16", "f32": "float32", "f64": "float64", "i8": "int8", "i16": "int16",
    "i32": "int32", "i64": "int64", "u8": "uint8", "u16": "uint16", "u32": "uint32",
    "u64": "uint64", "boolean": "bool", "complex64": "complex64", "complex128": "complex128",
}  # fmt: skip
"""gpuoff's scalar types (``gpuoff.lang.<name>``, also casts: ``go.f32(v)``) -> NumPy name."""

NUMPY_SCALAR_CASTS: tuple[str, ...] = (*SCALAR_TYPES.values(), "bool_")
"""NumPy scalar types kernels accept as casts (``np.float32(v)``)."""


_PREDICATES = ("isnan", "isinf", "isfinite", "signbit")
SUPPORTED_MATH: list[str] = sorted(
    ({ir for ir, _ in (*MATH_CALLS.values(), *NUMPY_CALLS.values())} | set(LANG_MATH.values()))
    - {"abs", "min", "max", "sign", *_PREDICATES, *BIT_INTRINSICS}
) + ["sign", *_PREDICATES]
"""The math functions kernels support, as a message lists them."""


def unsupported_math_message(called: str, home: str) -> str:
    """The message for calling ``called`` (``"math.atan2"``), a function of ``home`` (``"math"``
    or ``"np"``) kernels do not support: it lists the ones they do."""
    return (f"{called}() is not one of the math functions kernels support: "
            f"{', '.join(SUPPORTED_MATH)} (as go.<name>, and as {home}.<name> where {home} has "
            "it), and the builtins abs, min and max")  # fmt: skip


CMATH_CALLS: tuple[str, ...] = ("exp", "sqrt", "log", "phase", "rect", "isnan", "isinf",
                                "isfinite")  # fmt: skip
"""``cmath`` functions kernels accept (``gpuoff.frontend.complexes``), with ``complex(re, im)``,
``z.conjugate()`` and NumPy's ``conjugate``/``conj``/``real``/``imag``/``angle``."""

COMPLEX_CALLS: tuple[str, ...] = (
    "builtins.complex", "builtins.complex.conjugate", "gpuoff.lang._ComplexArith.conjugate",
    *(f"numpy.{n}" for n in ("conjugate", "conj", "real", "imag", "angle")),
    *(f"cmath.{n}" for n in CMATH_CALLS),
)  # fmt: skip
"""The callees of complex numbers, as mypy spells them."""


VECTOR_TYPES: tuple[str, ...] = ("vec2", "vec3", "vec4", "vec2d", "vec3d", "vec4d", "vec2i",
                                 "vec3i", "vec4i")  # fmt: skip
"""The vector types of ``gpuoff.lang_vec`` (``go.vec3f`` is ``go.vec3``)."""
VECTOR_CALLS: tuple[str, ...] = (
    *(f"gpuoff.lang_vec.{n}" for n in ("dot", "cross", "length", "length_sq", "normalize")),
    *(f"gpuoff.lang_vec.{n}" for n in VECTOR_TYPES), "gpuoff.lang_vec.Vector.load",
    *(f"gpuoff.lang_vec.{n}.load" for n in VECTOR_TYPES),
)  # fmt: skip
"""The callees of small vectors, as mypy spells them."""

MATRIX_TYPES: tuple[str, ...] = ("mat22", "mat33", "mat44", "mat22d", "mat33d", "mat44d")
"""The matrix types of ``gpuoff.lang_mat`` a checker can name (``go.mat33f`` is ``go.mat33``;
``go.mat(2, 3, go.f32)``'s are ``Matrix``)."""
MATRIX_CALLS: tuple[str, ...] = (
    *(f"gpuoff.lang_mat.{n}" for n in (
        "identity", "outer", "diag", "matrix_from_rows", "matrix_from_cols", "transpose",
        "determinant", "inverse", "trace", "mul")),
    *(f"gpuoff.lang_mat.{n}" for n in MATRIX_TYPES), "gpuoff.lang_mat.Matrix.load",
    *(f"gpuoff.lang_mat.{n}.load" for n in MATRIX_TYPES),
)  # fmt: skip
"""The callees of small matrices, as mypy spells them."""


def accepted_callees() -> frozenset[str]:
    """Every fully-qualified name a kernel may call, as mypy spells it."""
    names = {f"builtins.{n}" for n in BUILTIN_CALLS} | set(COMPLEX_CALLS) | set(VECTOR_CALLS)
    names |= set(MATRIX_CALLS)
    names |= {f"math.{n}" for n in MATH_CALLS}
    names |= {f"numpy.{n}" for n in (*NUMPY_CALLS, *NUMPY_SCALAR_CASTS)}
    names |= {f"numpy._core.fromnumeric.{n}" for n in ("round", "around")}  # not ufuncs
    lang = (*INTRINSICS, *ATOMICS, *SPECIAL_CALLS, *SCALAR_TYPES)
    names |= {f"{LANG_MODULE}.{n}" for n in lang}
    names |= {f"{LANG_MATH_MODULE}.{n}" for n in LANG_MATH}
    return frozenset(names)


# --------------------------------------------------------------------------------------------
# Constructs the compiler refuses, by name
# --------------------------------------------------------------------------------------------

CONSTRUCT_NAMES: dict[type[ast.AST], str] = {
    ast.Lambda: "lambda expression",
    ast.ListComp: "list comprehension",
    ast.SetComp: "set comprehension",
    ast.DictComp: "dict comprehension",
    ast.GeneratorExp: "generator expression",
    ast.List: "list literal",
    ast.Dict: "dict literal",
    ast.Set: "set literal",
    ast.Starred: "starred expression (*x)",
    ast.JoinedStr: "f-string",
    ast.FormattedValue: "f-string",
    ast.Yield: "yield",
    ast.YieldFrom: "yield from",
    ast.Await: "await",
    ast.NamedExpr: "assignment expression (:=)",
    ast.Slice: "slicing",
    ast.Try: "try statement",
    ast.TryStar: "try statement",
    ast.With: "with statement",
    ast.AsyncWith: "async with statement",
    ast.AsyncFor: "async for loop",
    ast.FunctionDef: "nested function definition (def)",
    ast.AsyncFunctionDef: "nested function definition (async def)",
    ast.ClassDef: "class definition",
    ast.Global: "global statement",
    ast.Nonlocal: "nonlocal statement",
    ast.Delete: "del statement",
    ast.Assert: "assert statement",
    ast.Raise: "raise statement",
    ast.Import: "import statement",
    ast.ImportFrom: "import statement",
    ast.Match: "match statement",
}
"""Python syntax -> how a user calls it, for "X is not supported in kernels"."""

FOR_ELSE = "for ... else"
WHILE_ELSE = "while ... else"
FOR_NOT_RANGE = "a for loop over anything but range(...) or a tuple"


def comparison_name(op: str) -> str:
    """``the 'is' comparison`` (for "... is not supported in kernels")."""
    return f"the {op!r} comparison"


# --------------------------------------------------------------------------------------------
# The compiler's words for everything else it refuses (front end and plugin alike)
# --------------------------------------------------------------------------------------------

CALL_HINT = (
    "only gpuoff intrinsics, math functions, the builtins "
    f"{', '.join(sorted(BUILTIN_CALLS)[:-1])} and {sorted(BUILTIN_CALLS)[-1]}, and @go.func "
    "device functions can be called"
)
"""The explanation after ``calling X is not supported in kernels``."""

KERNEL_CALL = "a kernel cannot be called from a kernel; declare the helper with @go.func to call it"
STRING_VALUE = "strings are not supported in kernels"
NONE_VALUE = "None is not supported as a value in kernels"
STARRED_ARGUMENTS = "starred arguments (*args) are not supported in kernels"
KEYWORD_ARGUMENTS = "keyword arguments are only supported in calls to device functions"
EXPRESSION_STATEMENT = "an expression statement has no effect; only calls can stand alone"
ATTRIBUTE_ASSIGNMENT = "assigning to an attribute is not supported in kernels"
AUGMENTED_ATTRIBUTE = "augmented assignment to an attribute is not supported in kernels"
FOR_TARGET = "a for loop needs a single variable: for i in range(n)"
NESTED_UNPACKING = "nested or starred tuple unpacking"
SLICING = "slicing (x[a:b]) is not supported in kernels; index elements"
KERNEL_RETURNS_VALUE = "a kernel cannot return a value (write results into a BorrowMut array)"
KERNEL_RETURN_ANNOTATION = "a kernel returns nothing: annotate it '-> None'"


def call_message(callee: str) -> str:
    """``callee`` is ``the Python function 'print'``, ``the NumPy function 'sum'``, ..."""
    return f"calling {callee} is not supported in kernels: {CALL_HINT}"


def computed_call_message(text: str) -> str:
    return f"{text!r} is a variable, not a function; {CALL_HINT}"


def float_text_message(text: str) -> str:
    """``float("one")``: only constant number text (``float("inf")``) is a kernel value."""
    return (
        f"float({text!r}) is not a number; in kernels float() of a string takes constant "
        "number text such as 'inf' or 'nan'"
    )


def array_method_message(attr: str, array: str) -> str:
    return f"method call .{attr}() on array {array!r} is not supported in kernels"


def array_as_scalar_message(array: str) -> str:
    return f"array {array!r} cannot be used as a scalar value (index it)"


def index_not_array_message(text: str) -> str:
    return f"indexing is only supported on arrays ({text!r} is not one)"


def unusable_value_message(text: str, what: str) -> str:
    """``what``: ``a value of type 'str'``, ``module 'os'``, ``the class 'Foo'``, ..."""
    return f"{text!r} is {what}, which cannot be used in kernels"


ARRAY_ATTRIBUTES: tuple[str, ...] = ("ndim", "shape", "size")
"""Attributes of an array parameter kernels may read (``shape`` only as ``x.shape[d]``)."""


def array_attribute_message(attr: str, array: str) -> str:
    return f"attribute {attr!r} of array {array!r} is not supported"


def shape_index_message(array: str) -> str:
    return f"{array}.shape must be indexed with a constant: {array}.shape[0]"


def not_plain_def_message(name: str) -> str:
    return f"{name!r} is not a plain 'def' function (async functions and lambdas cannot be kernels)"


def recursion_message(name: str) -> str:
    return f"recursive call to device function {name!r}: recursion is not supported in kernels"


# --------------------------------------------------------------------------------------------
# Parameters (the front end raises these as LaunchTypeError / CompileError)
# --------------------------------------------------------------------------------------------

EXPECTED_PARAMETER = (
    "a scalar type (go.f32, go.i32, float, int, bool, ...) or an array with an ownership "
    "wrapper: Borrow[Array[T]], BorrowMut[Array[T]] or Owned[Array[T]]"
)
NEEDS_WRAPPER = (
    "an array parameter needs an ownership wrapper: Borrow[Array[T]] (read), "
    "BorrowMut[Array[T]] (read and write) or Owned[Array[T]] (take over)"
)
NO_ANNOTATION = "it has no type annotation"
PLAIN_POSITIONAL = "only plain positional parameters are supported (no *args, **kw)"


def wrapper_needs_array(got: str) -> str:
    return f"the wrapper must contain Array[T], got {got}"


def wrapper_needs_element(wrapper: str) -> str:
    return f"{wrapper} needs an element: Array[T] in brackets"


def unknown_element(got: str) -> str:
    return f"unknown array element type {got}"


def unsupported_type(got: str) -> str:
    return f"unsupported type {got}"


def kernel_parameter_message(name: str, function: str, reason: str) -> str:
    """A kernel parameter the front end refuses (``LaunchTypeError`` at the first launch)."""
    return f"parameter {name!r} of {function}: {reason}; expected {EXPECTED_PARAMETER}"


def device_parameter_message(name: str, function: str, reason: str) -> str:
    """A ``@go.func`` parameter the front end refuses (when a kernel first calls it)."""
    return (
        f"parameter {name!r} of device function {function!r}: {reason}; "
        "annotate it like a kernel parameter"
    )
