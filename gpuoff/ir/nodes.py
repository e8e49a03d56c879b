"""The typed kernel IR: a small structured (not SSA) tree of frozen dataclasses.

One ``Module`` is one kernel specialised for one argument signature, plus the device functions
it calls. Every backend (interpreter, LLVM for CPU and NVPTX, OpenCL C) consumes this tree, and
each node's docstring is the definition of its meaning; ``gpuoff.ir.interp`` is the executable
version of these docstrings.

Conventions that hold everywhere (the verifier checks them):

* Every scalar expression has a ``type``; operands of ``Binary`` and ``Compare`` already have
  one common type (the front end inserts ``Cast`` nodes: promotion happens only there).
* Indices, shapes, sizes and work-item ids are ``INDEX`` (i64).
* Local variables have one type for the whole function (``Function.locals``).
* ``loc`` is the user's source position (line, column); ``Function.filename`` names the file.
* Integer arithmetic wraps (two's complement). Integer ``//`` and ``%`` by zero give 0 on every
  backend (defined, so no device traps). Shift counts are masked to ``bits - 1`` (OpenCL C's
  rule). Float -> int casts truncate toward zero and saturate; NaN -> 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from gpuoff.ir.types import ArrayType, ScalarType


@dataclass(frozen=True)
class Loc:
    """A source position in the user's file: 1-based line, 0-based column."""

    line: int
    col: int
    end_col: int | None = None


@dataclass(frozen=True)
class Node:
    """Base of every IR node."""

    loc: Loc | None = field(default=None, kw_only=True, compare=False)


# --------------------------------------------------------------------------------------------
# Expressions
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expr(Node):
    """A scalar-valued expression. Evaluation has no side effects except ``Call`` and
    ``AtomicRMW``, and except that an out-of-range ``Load`` records a bounds error."""

    type: ScalarType


@dataclass(frozen=True)
class Const(Expr):
    """A constant ``value`` of ``type`` (bool as ``True``/``False``, ints as Python ints
    already in range of ``type``, floats as Python floats rounded to ``type`` when used)."""

    value: int | float | bool


@dataclass(frozen=True)
class Var(Expr):
    """Read local variable or scalar parameter ``name`` (its type is fixed per function)."""

    name: str


@dataclass(frozen=True)
class ArrayRef(Node):
    """Names an array: a parameter, a shared array declared in ``Function.shared`` or a
    private array declared in ``Function.private``. Not a scalar expression: it appears only
    as the array operand of ``Load``, ``Store``, ``ShapeOf``, ``AtomicRMW`` and as an argument
    of ``Call``."""

    name: str
    type: ArrayType


@dataclass(frozen=True)
class Unary(Expr):
    """``op`` applied to ``operand`` (same type as the result).

    ``neg``: arithmetic negation (wraps for ints). ``not``: logical not, bool -> bool.
    ``invert``: bitwise complement (ints only)."""

    op: str  # "neg" | "not" | "invert"
    operand: Expr


BINARY_OPS = (
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow",
    "bitand", "bitor", "bitxor", "lshift", "rshift",
)  # fmt: skip


@dataclass(frozen=True)
class Binary(Expr):
    """``lhs op rhs``; both operands have the result type.

    ``truediv`` only on floats. ``floordiv``/``mod`` follow Python: the quotient is floored and
    the remainder has the sign of the divisor (ints and floats); int division by zero gives 0.
    ``pow`` on floats is IEEE ``pow``; on ints, repeated multiplication (negative exponent -> 0).
    ``bitand``/``bitor``/``bitxor`` on ints and bools; ``rshift`` is arithmetic for signed
    types; shift counts are masked to ``bits - 1``."""

    op: str
    lhs: Expr
    rhs: Expr


COMPARE_OPS = ("lt", "le", "gt", "ge", "eq", "ne")


@dataclass(frozen=True)
class Compare(Expr):
    """``lhs op rhs`` -> bool; operands share one type. Float comparisons are ordered (any NaN
    operand gives False), except ``ne`` which is True when either is NaN (IEEE / C)."""

    op: str
    lhs: Expr
    rhs: Expr


@dataclass(frozen=True)
class Logical(Expr):
    """Short-circuit ``and`` / ``or`` over bools: ``rhs`` is evaluated only when needed."""

    op: str  # "and" | "or"
    lhs: Expr
    rhs: Expr


@dataclass(frozen=True)
class Select(Expr):
    """``if_true if cond else if_false``: only the chosen operand is evaluated."""

    cond: Expr
    if_true: Expr
    if_false: Expr


@dataclass(frozen=True)
class Cast(Expr):
    """Convert ``value`` to ``type``. Int -> int wraps; float -> int truncates toward zero and
    saturates (NaN -> 0); int -> float rounds to nearest; anything -> bool is ``!= 0``;
    bool -> number is 0 or 1."""

    value: Expr


@dataclass(frozen=True)
class Load(Expr):
    """Read ``array[indices]`` (one INDEX per dimension; element offset is
    ``sum(indices[d] * strides[d])``).

    ``check`` is the id of a ``BoundsCheck`` in ``Module.checks`` or ``None`` (unchecked). A
    checked load whose index is out of ``[0, shape[d])`` in some dimension does not touch
    memory, yields 0 of the element type, and records the error (first record wins); the
    launch then raises ``BoundsError``. An unchecked out-of-range load is undefined."""

    array: ArrayRef
    indices: tuple[Expr, ...]
    check: int | None = None


@dataclass(frozen=True)
class ShapeOf(Expr):
    """``array.shape[dim]`` as INDEX (``dim`` is a constant in ``range(array.type.ndim)``)."""

    array: ArrayRef
    dim: int


WORK_ITEM_FUNCS = (
    "global_id", "local_id", "group_id", "global_size", "local_size", "num_groups",
)  # fmt: skip


@dataclass(frozen=True)
class WorkItem(Expr):
    """A work-item index query, ``name(dim)`` with constant ``dim`` in 0..2; type INDEX.
    Dimensions beyond the launch's grid have id 0 and size 1."""

    name: str
    dim: int


FLOAT_FUNCS: Mapping[str, int] = {
    "sqrt": 1, "rsqrt": 1, "exp": 1, "exp2": 1, "exp10": 1, "expm1": 1, "log": 1, "log2": 1,
    "log10": 1, "log1p": 1, "sin": 1, "cos": 1, "tan": 1, "asin": 1, "acos": 1, "atan": 1,
    "atan2": 2, "sinh": 1, "cosh": 1, "tanh": 1, "asinh": 1, "acosh": 1, "atanh": 1,
    "pow": 2, "cbrt": 1, "hypot": 2, "erf": 1, "erfc": 1, "lgamma": 1, "tgamma": 1,
    "floor": 1, "ceil": 1, "trunc": 1, "round": 1, "rint": 1, "fma": 3, "copysign": 2,
    "fmod": 2, "remainder": 2, "fdim": 2, "nextafter": 2,
}  # fmt: skip
"""Float functions (float -> the same float type) -> number of arguments. C99's semantics
(``round`` halves away from zero, ``rint`` to even; ``fmod`` has the dividend's sign,
``remainder`` is IEEE's; ``lgamma`` is ``log|gamma|``; ``exp10`` is ``10 ** x``)."""

NUMERIC_FUNCS: Mapping[str, int] = {"abs": 1, "min": 2, "max": 2, "sign": 1}
"""Functions of ints and floats (operands and result share one type)."""

PREDICATE_FUNCS: Mapping[str, int] = {"isnan": 1, "isinf": 1, "isfinite": 1, "signbit": 1}
"""Float -> bool."""

BIT_FUNCS: Mapping[str, int] = {"popc": 1, "clz": 1, "ffs": 1, "brev": 1}
"""CUDA's bit intrinsics on 32- and 64-bit integers: ``popc``/``clz``/``ffs`` return i32,
``brev`` the argument's type."""

MATH_FUNCS = (*FLOAT_FUNCS, *NUMERIC_FUNCS, *PREDICATE_FUNCS, *BIT_FUNCS)


@dataclass(frozen=True)
class MathCall(Expr):
    """A math function (``MATH_FUNCS``). ``FLOAT_FUNCS`` take and return the float ``type``;
    ``abs``/``min``/``max``/``sign`` also take ints (operands share the result type; float
    ``min``/``max`` are NumPy's ``minimum``/``maximum``: a NaN operand gives NaN, of two equal
    values the second; ``sign`` is NumPy's: -1, 0 or 1, ``sign(±0.0)`` is ``0.0``, NaN stays
    NaN); ``PREDICATE_FUNCS`` take a float and return bool (``signbit`` is true for -0.0 and
    for NaNs with the sign bit set). ``BIT_FUNCS`` take a 32- or 64-bit integer ``x`` (its two's
    complement bits): ``popc`` counts the set bits, ``clz`` the leading zero bits (``bits`` for
    0), ``ffs`` is the 1-based position of the lowest set bit (0 for 0), all i32; ``brev``
    reverses the bits (the argument's type). ``sqrt``, ``fma`` and the rounding, sign and
    remainder functions are exact; the others are within the tolerances of
    ``docs/semantics.md`` (exact on the special values listed there)."""

    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Call(Expr):
    """Call device function ``callee`` (a ``Function`` in ``Module.functions``).
    ``args`` match its params in order; arrays are passed by reference. ``type`` is the
    callee's return type; a call to a function returning nothing is only valid as
    ``ExprStmt`` and its ``type`` is ``boolean`` (ignored). ``unsafe``: the call is inside a
    ``with go.unsafe():`` block, so the stores the callee makes are not race-checked
    (``gpuoff.ir.races``); it changes nothing else."""

    callee: str
    args: tuple[Expr | ArrayRef, ...]
    unsafe: bool = field(default=False, kw_only=True)


ATOMIC_OPS = ("add", "sub", "exch", "cas", "min", "max", "and", "or", "xor", "inc", "dec")

ATOMIC_KINDS: Mapping[str, str] = {
    "add": "iuf", "sub": "iuf", "exch": "iuf", "cas": "iuf", "min": "iuf", "max": "iuf",
    "and": "iu", "or": "iu", "xor": "iu", "inc": "u", "dec": "u",
}  # fmt: skip
"""Element kinds (``ScalarType.kind``) each atomic op takes; elements are 32 or 64 bits."""


@dataclass(frozen=True)
class AtomicRMW(Expr):
    """Atomically replace ``old = array[indices]`` by ``new`` and yield ``old``; ``value`` (and
    ``compare``) have the element type. ``new`` is, by ``op`` (CUDA's atomics, by name):

    ``add``/``sub``: ``old + value`` / ``old - value`` (ints wrap; floats round).
    ``exch``: ``value``. ``cas``: ``value`` if ``old == compare`` else ``old`` (floats compare
    their bit patterns, as a hardware compare-and-swap does: ``-0.0`` is not ``0.0``, a NaN
    matches itself). ``and``/``or``/``xor``: bitwise, integers only.
    ``min``/``max``: ints exact; floats C's ``fmin``/``fmax`` (a NaN operand is ignored), as
    the hardware atomics of CUDA and OpenCL devices compute them.
    ``inc``: ``0 if old >= value else old + 1``; ``dec``: ``value if old == 0 or old > value
    else old - 1`` (CUDA's ``atomicInc``/``atomicDec``, wrapping counters; unsigned only).

    ``compare`` is set for ``cas`` only. Bounds-checked like ``Load`` when ``check`` is set
    (out of range: no access, yields 0). Evaluation order: indices, ``compare``, ``value``."""

    op: str
    array: ArrayRef
    indices: tuple[Expr, ...]
    value: Expr
    check: int | None = None
    compare: Expr | None = None


# --------------------------------------------------------------------------------------------
# Statements
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Stmt(Node):
    """A statement."""


@dataclass(frozen=True)
class Assign(Stmt):
    """``target = value``; ``value.type`` equals the local's declared type."""

    target: str
    value: Expr


@dataclass(frozen=True)
class Store(Stmt):
    """``array[indices] = value``; ``value.type`` is the element type. Checked like ``Load``:
    out of range, nothing is written and the error is recorded. Only on arrays with a writing
    access (``BORROW_MUT``, ``OWNED``, shared, private). ``unsafe``: the store is inside a
    ``with go.unsafe():`` block, so it is not race-checked (``gpuoff.ir.races``): the user
    promises that no two work-items write its element; it changes nothing else."""

    array: ArrayRef
    indices: tuple[Expr, ...]
    value: Expr
    check: int | None = None
    unsafe: bool = field(default=False, kw_only=True)


@dataclass(frozen=True)
class If(Stmt):
    """``if cond: body else: orelse`` (``cond`` is bool)."""

    cond: Expr
    body: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...] = ()


@dataclass(frozen=True)
class ForRange(Stmt):
    """``for var in range(start, stop, step): body`` with Python semantics.

    ``start``, ``stop``, ``step`` have ``var``'s (integer) type and are evaluated once, before
    the first iteration. The loop runs while ``i < stop`` (step > 0) or ``i > stop``
    (step < 0); step 0 runs no iteration. ``var`` is assigned at the start of each iteration
    and keeps its last value after the loop (unchanged if no iteration ran). ``continue`` goes
    to the next ``i``; assigning ``var`` in the body does not change the iteration."""

    var: str
    start: Expr
    stop: Expr
    step: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class While(Stmt):
    """``while cond: body`` (``cond`` is bool, re-evaluated before each iteration)."""

    cond: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Break(Stmt):
    """Leave the innermost loop."""


@dataclass(frozen=True)
class Continue(Stmt):
    """Go to the next iteration of the innermost loop."""


@dataclass(frozen=True)
class Return(Stmt):
    """Leave the function; ``value`` (device functions with a return type) or ``None``.
    In a kernel, ends this work-item only."""

    value: Expr | None = None


@dataclass(frozen=True)
class ExprStmt(Stmt):
    """Evaluate ``expr`` for its effect (a ``Call`` or an ``AtomicRMW``) and drop the value."""

    expr: Expr


@dataclass(frozen=True)
class Barrier(Stmt):
    """Work-group barrier with a local-memory fence: every work-item of the group reaches it
    before any continues. Must be reached under work-group-uniform control flow."""


# --------------------------------------------------------------------------------------------
# Functions and modules
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Param(Node):
    """A function parameter: a scalar passed by value or an array passed by reference."""

    name: str
    type: ScalarType | ArrayType


@dataclass(frozen=True)
class SharedArray(Node):
    """A work-group local array declared in a kernel (``go.shared``); its type has
    ``space=SHARED`` and a ``static_shape``. Contents are undefined at group start."""

    name: str
    type: ArrayType


@dataclass(frozen=True)
class PrivateArray(Node):
    """An array private to one activation of a function in one work-item (``go.local_array``,
    ``[0.0] * N``, the out-arrays of a device function returning a tuple); its type has
    ``space=PRIVATE``, ``access=BORROW_MUT`` and a ``static_shape``. No other work-item and no
    other activation sees it. Contents are undefined until stored (the front end stores every
    element before any read); a callee may read and write it through an array parameter of
    ``space=PRIVATE``."""

    name: str
    type: ArrayType


@dataclass(frozen=True)
class Function(Node):
    """A kernel (``is_kernel``: returns nothing, run once per work-item) or a device function.

    ``locals`` maps every local variable (not parameters) to its type; ``shared`` (kernels
    only) and ``private`` declare the arrays the function owns. ``filename`` and
    ``firstlineno`` locate the Python source for diagnostics and ``#line`` markers."""

    name: str
    params: tuple[Param, ...]
    return_type: ScalarType | None
    locals: Mapping[str, ScalarType]
    body: tuple[Stmt, ...]
    is_kernel: bool = False
    shared: tuple[SharedArray, ...] = ()
    filename: str = "<unknown>"
    firstlineno: int = 1
    private: tuple[PrivateArray, ...] = ()

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)


@dataclass(frozen=True)
class BoundsCheck:
    """One checked array access site: what a ``BoundsError`` reports.

    ``id`` is 1-based (0 means "no error" in error records). ``kind`` is ``"bounds"`` for a
    user's access, or ``"barrier"`` for the run-time uniformity check of a condition that
    decides whether a barrier is reached (``gpuoff.ir.barrier_votes``): its record makes the
    launch raise ``BarrierError`` and points at the condition's line."""

    id: int
    function: str
    array: str
    ndim: int
    filename: str
    line: int
    col: int
    source: str = ""
    kind: str = "bounds"
    shape: tuple[int, ...] | None = None
    """The array's static shape (shared and private arrays), for the message; a parameter's
    comes from the launch."""
    pairs: bool = False
    """The array holds complex numbers (``ArrayType.pairs``): the message leaves out the last
    index and axis (the part's)."""


@dataclass(frozen=True)
class Module:
    """One kernel specialised for one signature, with the device functions it calls
    (callees before callers) and its bounds-check table."""

    kernel: Function
    functions: tuple[Function, ...] = ()
    checks: tuple[BoundsCheck, ...] = ()
    boundscheck: bool = True
    fastmath: bool = False

    @property
    def name(self) -> str:
        return self.kernel.name

    def function(self, name: str) -> Function:
        if name == self.kernel.name:
            return self.kernel
        for f in self.functions:
            if f.name == name:
                return f
        raise KeyError(name)

    def check(self, check_id: int) -> BoundsCheck:
        return self.checks[check_id - 1]
