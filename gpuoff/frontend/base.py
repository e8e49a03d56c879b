"""The walker that lowers one function, its per-pass state, and the context it lowers in.

``Lowerer`` is the one object every construct's handler receives (``lw``). It owns the state of
one pass (local types, arrays, temporaries, divergence), the helpers every construct needs
(diagnostics, locals, coercion, bounds-check ids) and the dispatch: ``lw.expr(node)`` and
``lw.stmt(node)`` look the node's ``ast`` class up in ``EXPRS``/``STMTS``, tables the handler
modules own (``exprs``, ``calls``, ``stmts``) and ``function.FunctionLowerer`` joins. Handlers
are plain functions ``(lw, node) -> Val | list[Stmt]``; the semantics of operations (promotion,
result types) live in ``typing_rules``. This module imports none of them.

A function is lowered in *passes*: every pass walks the whole body with the local-variable
types found so far and records the types it assigns; passes repeat until the types stop
changing (a fixpoint: types only grow, and there are finitely many). A last, *final* pass then
emits the IR with those types, registers bounds checks and reports errors that depend on
complete information (uses before assignment).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NoReturn, Protocol

from gpuoff.errors import CompileError
from gpuoff.frontend import typing_rules as R
from gpuoff.frontend.diagnostics import unsupported
from gpuoff.frontend.generic import ConstArg
from gpuoff.frontend.irutil import (
    Kinded,
    TupleShape,
    TupleVal,
    Val,
    Value,
    ViewVal,
    cast,
    kind_of,
    rebuild,
    shape_leaves,
)
from gpuoff.frontend.resolve import Env
from gpuoff.frontend.source import SourceInfo
from gpuoff.frontend.typing_rules import TypingError, VType
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from gpuoff.lang import DeviceFunction
from gpuoff.ownership import Access

RESERVED_PREFIX = "_gpuoff_"
"""Names the front end invents (temporaries, renamed parameters) start with this."""
TEMP_PREFIX = RESERVED_PREFIX + "t"
ARG_PREFIX = RESERVED_PREFIX + "arg_"
INFER = object()
"""``FuncSpec.declared_return`` when the return type is inferred from the ``return``s."""


def private_type(info: PrivateInfo) -> T.ArrayType:
    """The IR type of a private array (of complex numbers: its parts, ``ArrayType.pairs``)."""
    t = info.elem.type
    if t.is_complex:
        return T.ArrayType(t.component, len(info.shape) + 1, True, T.AddressSpace.PRIVATE,
                           Access.BORROW_MUT, (*info.shape, 2), pairs=True)  # fmt: skip
    return T.ArrayType(t, len(info.shape), True, T.AddressSpace.PRIVATE,
                       Access.BORROW_MUT, info.shape)  # fmt: skip


def _arity(shape: TupleShape) -> str:
    return f"{len(shape)} value{'s' if len(shape) != 1 else ''}"


class Untyped(Exception):
    """A local was read before any assignment to it was typed (non-final passes only)."""


def assigned_names(tree: ast.AST) -> frozenset[str]:
    """Names bound anywhere in the body: Python makes them local to the function."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            out.add(node.id)
    return frozenset(out)


@dataclass(frozen=True)
class FnSource:
    """A Python function ready to lower: source, namespace and local names."""

    pyfunc: Callable[..., Any]
    src: SourceInfo
    env: Env
    local_names: frozenset[str]


@dataclass(frozen=True)
class FuncSpec:
    """One specialisation to lower: IR name, parameter types, declared return type."""

    source: FnSource
    ir_name: str
    display_name: str
    is_kernel: bool
    params: tuple[tuple[str, T.ScalarType | T.ArrayType], ...]
    declared_return: object  # ScalarType, a tuple of them, None (returns nothing) or INFER
    tuple_params: Mapping[str, TupleShape] = field(default_factory=dict)
    """Parameters that take a tuple: their items are the scalar ``params`` named
    ``ARG_PREFIX + name + ".0"`` and so on (``irutil.shape_leaves``)."""
    view_params: Mapping[str, tuple[tuple[bool, int, bool], ...]] = field(default_factory=dict)
    """Array parameters given a view (``views``): its base is the array parameter
    ``ARG_PREFIX + name``, its starts, lengths and indices the scalar ``params``
    ``views.view_leaves(structure, ARG_PREFIX + name)``."""
    consts: Mapping[str, object] = field(default_factory=dict)
    """A kernel's ``go.Const`` parameters: name -> the launch's value (a number, or a device
    function), a compile-time constant in the body; they are no ``params``."""


RType = VType | tuple["RType", ...]
"""A function's result type: a scalar's, or a tuple of them (nested like the tuple)."""


def join_result(old: RType | None, new: RType, what: str) -> RType:
    """The join (R9) of two result types; a ``TypingError`` when their structure differs."""
    if old is None:
        return new
    if isinstance(old, VType) and isinstance(new, VType):
        return R.join(old, new, what)
    if isinstance(old, tuple) and isinstance(new, tuple) and len(old) == len(new) \
            and kind_of(old) == kind_of(new):  # fmt: skip
        joined = tuple(join_result(a, b, what) for a, b in zip(old, new, strict=True))
        return Kinded(joined, kind_of(old)) if kind_of(old) else joined
    raise TypingError(f"{what} is {result_text(old)} in one place and {result_text(new)} in "
                      "another")  # fmt: skip


def result_text(rt: object) -> str:
    """How a message names a result type (an ``RType`` or a declared ``ScalarType``/tuple)."""
    if isinstance(rt, VType | T.ScalarType):
        return "a bool" if (rt.type if isinstance(rt, VType) else rt).is_bool else "a number"
    if isinstance(rt, tuple):
        if kind_of(rt):
            return f"a {kind_of(rt)} number"
        return f"a tuple of {len(rt)} values"
    return str(rt)


def flat_results(results: tuple[RType, ...]) -> list[VType]:
    """The scalar items of a tuple result type, depth first."""
    out: list[VType] = []
    for r in results:
        out.extend(flat_results(r) if isinstance(r, tuple) else [r])
    return out


def result_shape(results: tuple[RType, ...]) -> TupleShape:
    """The structure of a tuple result type."""
    items = tuple(result_shape(r) if isinstance(r, tuple) else None for r in results)
    return Kinded(items, kind_of(results)) if kind_of(results) else items


def out_param(k: int) -> str:
    """The name of a device function's ``k``-th out-array (item ``k`` of its tuple result)."""
    return f"{RESERVED_PREFIX}out{k}"


def out_type(st: T.ScalarType) -> T.ArrayType:
    """The type of an out-array: one private element."""
    return T.ArrayType(st, 1, True, T.AddressSpace.PRIVATE, Access.BORROW_MUT, (1,))


@dataclass(frozen=True)
class PrivateInfo:
    """A private array a function declares: its shape, its element type (the dtype given to
    ``go.local_array``, or the join of what a list's literal holds and what is stored into
    it) and whether that type was given."""

    shape: tuple[int, ...]
    elem: VType
    declared: bool


@dataclass
class PassTypes:
    """What one pass learned; the next pass starts from it."""

    locals: dict[str, VType] = field(default_factory=dict)
    declared: dict[str, T.ScalarType] = field(default_factory=dict)
    returns: RType | None = None
    bare_return: bool = False
    tuples: dict[str, TupleShape] = field(default_factory=dict)  # tuple locals' structure
    private: dict[str, PrivateInfo] = field(default_factory=dict)
    views: dict[str, tuple[str, tuple[tuple[bool, int, bool], ...]]] = field(
        default_factory=dict)  # view locals: base array and structure (``views``)

    def merged(self, other: PassTypes) -> PassTypes:
        out = PassTypes(dict(self.locals), dict(self.declared), self.returns, self.bare_return,
                        dict(self.tuples), dict(self.private), dict(self.views))  # fmt: skip
        out.views.update(other.views)
        out.bare_return |= other.bare_return
        for name, vt in other.locals.items():
            out.locals[name] = R.join(out.locals.get(name), vt)
        out.declared.update(other.declared)
        out.tuples.update(other.tuples)
        for name, info in other.private.items():
            old = out.private.get(name)
            elem = info.elem if old is None or info.declared else R.join(old.elem, info.elem)
            out.private[name] = PrivateInfo(info.shape, elem, info.declared)
        if other.returns is not None:
            out.returns = join_result(out.returns, other.returns, "the function's return value")
        return out


@dataclass(frozen=True)
class DeviceSig:
    """A lowered device-function specialisation as its callers see it: its IR parameters
    (a tuple argument as one scalar parameter per item), its scalar result, or its tuple
    result (``results``, returned through one private one-element out-array per item, the
    last IR parameters: ``out_params``)."""

    ir_name: str
    params: tuple[tuple[str, T.ScalarType | T.ArrayType], ...]
    return_type: T.ScalarType | None
    weak_return: bool = False
    results: tuple[RType, ...] | None = None
    out_params: tuple[T.ArrayType, ...] = ()
    has_barrier: bool = False
    """It reaches a barrier (itself or through its callees): ``ir.inline`` inlines it, so
    each call is a statement of its own."""


class ModuleContext(Protocol):
    """What lowering one function needs from the module being built (``lower.ModuleBuilder``):
    the module's options, its bounds-check table and its device-function specialisations."""

    @property
    def boundscheck(self) -> bool: ...

    def add_check(
        self, function: str, array: str, ndim: int, filename: str, line: int, col: int,
        source: str, shape: tuple[int, ...] | None = None, pairs: bool = False,
    ) -> int:  # fmt: skip
        """Register a bounds-checked access site; returns its 1-based id (``shape``: the
        array's static shape, if it has one; ``pairs``: a complex array's)."""
        ...

    def specialize(
        self,
        fn: DeviceFunction[Any, Any],
        args: Sequence[Value | N.ArrayRef | ViewVal | ConstArg],
        arg_nodes: Sequence[ast.expr],
        node: ast.Call,
        caller: SourceInfo,
    ) -> DeviceSig:
        """The specialisation of device function ``fn`` for these arguments (lowered once)."""
        ...


ExprHandler = Callable[["Lowerer", Any], Val]
"""Lowers one expression construct; the second argument is the ``ast`` node of that class."""
ValueHandler = Callable[["Lowerer", Any], Value]
"""Lowers a construct that may give a tuple (``Lowerer.value``)."""
StmtHandler = Callable[["Lowerer", Any], list[N.Stmt]]
"""Lowers one statement construct to zero or more IR statements."""


class Lowerer:
    """One pass over one function: its state, the shared helpers and the dispatch.

    Subclasses bind ``EXPRS`` and ``STMTS`` (``function.FunctionLowerer`` does). A handler
    reads and writes the fields below through the ``lw`` it is given; each field's comment
    says who writes it.
    """

    EXPRS: ClassVar[Mapping[type[ast.expr], ExprHandler]]
    """The expression constructs: ``ast`` class -> handler. A class missing is refused."""
    VALUES: ClassVar[Mapping[type[ast.expr], ValueHandler]]
    """Constructs that may give a tuple: ``ast`` class -> handler, tried before ``EXPRS``."""
    STMTS: ClassVar[Mapping[type[ast.stmt], StmtHandler]]
    """The statement constructs: ``ast`` class -> handler. A class missing is refused."""

    def __init__(self, ctx: ModuleContext, spec: FuncSpec, prev: PassTypes, final: bool) -> None:
        # Inputs, read only: the module, the function, and what the previous pass learned.
        self.ctx = ctx
        self.spec = spec
        self.src = spec.source.src
        self.env = spec.source.env
        self.prev = prev
        self.final = final  # the last pass: emit IR, register checks, report late errors
        # What this pass learns (assign_local, stmts' annotations and returns, new_temp).
        self.cur = PassTypes(declared=dict(prev.declared))
        self.temps: dict[str, T.ScalarType] = {}  # new_temp
        self.shared: list[N.SharedArray] = []  # calls.shared_decl
        self.arrays: dict[str, N.ArrayRef] = {}  # array parameters; calls.shared_decl adds
        self.scalars: dict[str, T.ScalarType] = {}  # scalar parameters
        self.loop_depth = 0  # stmts._nested: break/continue need a loop
        self.unsafe_depth = 0  # stmts._with: inside `with go.unsafe():` (no race checks)
        # Locals that some path may have assigned by now (a read of a local no path has
        # assigned yet is an error; a loop counts everything its body assigns, so a
        # loop-carried variable is never rejected). assign_local and stmts' if/while/for.
        self.maybe_assigned: set[str] = set()
        # Statements a construct needs run before the statement it is part of (a call of a
        # device function returning a tuple); ``block`` emits them. ``hoist_ban`` names the
        # place being lowered when that is impossible (a ``while`` condition, an ``and``).
        self.pre: list[N.Stmt] = []
        self.hoist_ban: str | None = None
        self.private: dict[str, N.PrivateArray] = {}  # declared this pass (arrays.py)
        self.out_arrays = 0  # call sites' out-arrays of tuple results made so far (calls)
        # Unrolled loops (``loops``): names bound to a constant in the copy being lowered, and
        # per enclosing unrolled loop (loop depth of its body, its ``break`` flag).
        self.unrolled: dict[str, int] = {}
        self.unroll_breaks: list[tuple[int, str]] = []
        for name, t in spec.params:
            if isinstance(t, T.ArrayType):
                self.arrays[name] = N.ArrayRef(name, t)
            else:
                self.scalars[name] = t
        # Private arrays of earlier passes are arrays from the start (a loop may use one
        # above its declaration).
        for name, info in prev.private.items():
            self.arrays[name] = N.ArrayRef(name, private_type(info))

    # -- dispatch ----------------------------------------------------------------------------

    def value(self, node: ast.expr) -> Value:
        """Lower an expression that may give a tuple."""
        vhandler = self.VALUES.get(type(node))
        if vhandler is not None:
            return vhandler(self, node)
        handler = self.EXPRS.get(type(node))
        if handler is None:
            raise unsupported(self.src, node)
        return handler(self, node)

    def expr(self, node: ast.expr) -> Val:
        """Lower an expression that must give a scalar."""
        v = self.value(node)
        if isinstance(v, TupleVal) and v.kind == "complex":
            self.fail(node, f"{ast.unparse(node)!r} is a complex number, used where a real "
                            "one is needed: take .real, .imag or abs() of it")  # fmt: skip
        if isinstance(v, TupleVal):
            self.fail(node, f"{ast.unparse(node)!r} is a tuple of {len(v.items)} values, "
                            "used where a number is needed; index it (t[0]) or unpack it "
                            "(a, b = t)")  # fmt: skip
        return v

    def hoist(self, stmts: list[N.Stmt], node: ast.AST,
              what: str = "a device function that returns a tuple") -> None:  # fmt: skip
        """Run ``stmts`` before the statement being lowered (``what``: the call, for the
        message where that is impossible)."""
        if self.hoist_ban is not None:
            self.fail(node, f"a call of {what} cannot stand in {self.hoist_ban}; assign its "
                            "result to a variable first")  # fmt: skip
        self.pre.extend(stmts)

    def stmt(self, node: ast.stmt) -> list[N.Stmt]:
        """Lower a statement by its construct's handler."""
        handler = self.STMTS.get(type(node))
        if handler is None:
            raise unsupported(self.src, node)
        return handler(self, node)

    def block(self, stmts: list[ast.stmt]) -> tuple[N.Stmt, ...]:
        """Lower a statement list (a statement reading a not-yet-typed local is skipped in
        the non-final passes; the final pass reports it)."""
        out: list[N.Stmt] = []
        outer, ban = self.pre, self.hoist_ban
        self.hoist_ban = None
        try:
            for s in stmts:
                self.pre = []
                try:
                    lowered = self.stmt(s)
                except Untyped:
                    if self.final:
                        raise
                    continue
                out.extend(self.pre)
                out.extend(lowered)
        finally:
            self.pre, self.hoist_ban = outer, ban
        return tuple(out)

    # -- diagnostics -------------------------------------------------------------------------

    def loc(self, node: ast.AST) -> N.Loc:
        return self.src.loc(node)

    def error(self, node: ast.AST, message: str) -> CompileError:
        return self.src.error(node, message)

    def fail(self, node: ast.AST, message: str) -> NoReturn:
        raise self.error(node, message) from None

    def rule(self, node: ast.AST, fn: Callable[[], Any]) -> Any:
        """Apply a typing rule, turning its ``TypingError`` into a ``CompileError`` here."""
        try:
            return fn()
        except TypingError as exc:
            self.fail(node, str(exc))

    # -- locals ------------------------------------------------------------------------------

    def is_local(self, name: str) -> bool:
        # (a tuple parameter is a tuple local, set from its items' parameters: function.run)
        return name in self.spec.source.local_names or name in self.spec.tuple_params or \
            name in self.spec.view_params  # fmt: skip

    def param_ir_name(self, name: str) -> str:
        """The IR name of a scalar parameter (renamed if the body assigns to it)."""
        return ARG_PREFIX + name if self.is_local(name) else name

    def local_type(self, name: str) -> VType | None:
        if name in self.cur.declared:
            return VType(self.cur.declared[name])
        return self.prev.locals.get(name) or self.cur.locals.get(name)

    def read_local(self, name: str, node: ast.AST) -> Val:
        vt = self.local_type(name)
        if vt is None and not self.final:
            raise Untyped(name)
        if vt is None or (self.final and name not in self.maybe_assigned):
            self.fail(node, f"local variable {name!r} is used before it is assigned")
        return Val(N.Var(vt.type, name, loc=self.loc(node)), vt.weak)

    def view(self, name: str) -> tuple[str, tuple[tuple[bool, int, bool], ...], str] | None:
        """A view local or parameter ``name``: its base array's name, its structure and the
        prefix of its kept scalars (``views``); None if ``name`` is no view."""
        if name in self.spec.view_params:
            prefix = ARG_PREFIX + name
            return prefix, self.spec.view_params[name], prefix
        found = self.cur.views.get(name) or self.prev.views.get(name)
        return (*found, name) if found is not None else None

    def tuple_shape(self, name: str) -> TupleShape | None:
        """The structure of the tuple local ``name``, or None if it holds no tuple."""
        return self.cur.tuples.get(name) or self.prev.tuples.get(name)

    def assign_value(self, name: str, value: Value, node: ast.AST) -> list[N.Stmt]:
        """``name = value`` for a scalar or a tuple (one IR local per scalar item)."""
        if isinstance(value, Val):
            return [self.assign_local(name, value, node)]
        if name in self.arrays:
            self.fail(node, f"cannot assign to {name!r}: it is an array")
        shape = value.shape
        old = self.tuple_shape(name)
        if old is None and self.local_type(name) is not None:
            self.fail(node, f"variable {name!r} holds a number elsewhere; it cannot also hold "
                            "a tuple")  # fmt: skip
        if old is not None and old != shape:
            self.fail(node, f"variable {name!r} holds a tuple of {_arity(old)} here "
                            f"and of {_arity(shape)} elsewhere; a tuple variable keeps its "
                            "length")  # fmt: skip
        self.cur.tuples[name] = shape
        out = [self.assign_local(leaf, v, node, item_of=name)
               for leaf, v in zip(shape_leaves(shape, name), value.leaves(), strict=True)]
        self.maybe_assigned.add(name)
        return list(out)

    def read_tuple(self, name: str, node: ast.AST) -> TupleVal:
        """The tuple local ``name``."""
        shape = self.tuple_shape(name)
        assert shape is not None
        if self.final and name not in self.maybe_assigned:
            self.fail(node, f"local variable {name!r} is used before it is assigned")
        leaves = [self.read_local(leaf, node) for leaf in shape_leaves(shape, name)]
        return rebuild(shape, leaves)

    def assign_local(self, name: str, value: Val, node: ast.AST, item_of: str = "") -> N.Assign:
        """Record ``name = value`` (type join, divergence) and build the ``Assign``
        (``item_of``: the tuple local whose item ``name`` is)."""
        if name in self.arrays:
            self.fail(node, f"cannot assign to {name!r}: it is an array")
        if not item_of and self.tuple_shape(name) is not None:
            self.fail(node, f"variable {name!r} holds a tuple elsewhere; it cannot also hold "
                            "a number")  # fmt: skip
        if name.startswith(RESERVED_PREFIX):
            self.fail(node, f"names starting with {RESERVED_PREFIX!r} are reserved in kernels")
        if name in self.cur.declared:
            target = self.cur.declared[name]
        else:
            what = f"item {name.removeprefix(item_of)} of {item_of!r}" if item_of else \
                f"variable {name!r}"  # fmt: skip
            joined = self.rule(node, lambda: R.join(self.local_type(name), value.vtype, what))
            self.cur.locals[name] = R.join(self.cur.locals.get(name), joined)
            final_vt = self.prev.locals.get(name) if self.final else None
            target = (final_vt or joined).type
        self.maybe_assigned.add(name)
        return N.Assign(name, self.coerce(value, target, node), loc=self.loc(node))

    def new_temp(self, value: N.Expr, node: ast.AST) -> tuple[N.Assign, N.Var]:
        """A fresh temporary holding ``value`` (evaluated once)."""
        name = f"{TEMP_PREFIX}{len(self.temps)}"
        self.temps[name] = value.type
        loc = self.loc(node)
        return N.Assign(name, value, loc=loc), N.Var(value.type, name, loc=loc)

    # -- typing helpers ----------------------------------------------------------------------

    def coerce(self, value: Val, t: T.ScalarType, node: ast.AST) -> N.Expr:
        """Convert ``value`` to ``t``; a weak integer constant must fit (NumPy 2 raises too)."""
        e = value.expr
        if value.weak and isinstance(e, N.Const) and t.is_int and not R.fits(e.value, t):
            self.fail(node, f"the constant {e.value} does not fit in {t}")
        return cast(e, t)

    def add_check(self, node: ast.AST, array: N.ArrayRef) -> int | None:
        """A fresh bounds-check id for an access at ``node`` (None when unchecked)."""
        if not self.ctx.boundscheck or not self.final:
            return None
        loc = self.loc(node)
        text = self.src.line_text(getattr(node, "lineno", 1)).strip()
        return self.ctx.add_check(
            self.spec.display_name, array.name, array.type.ndim, self.src.filename,
            loc.line, loc.col, text, array.type.static_shape, array.type.pairs,
        )  # fmt: skip
