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
from gpuoff.frontend.irutil import Val, cast
from gpuoff.frontend.resolve import Env
from gpuoff.frontend.source import SourceInfo
from gpuoff.frontend.typing_rules import TypingError, VType
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from gpuoff.lang import DeviceFunction

RESERVED_PREFIX = "_gpuoff_"
"""Names the front end invents (temporaries, renamed parameters) start with this."""
TEMP_PREFIX = RESERVED_PREFIX + "t"
ARG_PREFIX = RESERVED_PREFIX + "arg_"
INFER = object()
"""``FuncSpec.declared_return`` when the return type is inferred from the ``return``s."""


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
    declared_return: object  # ScalarType, None (returns nothing) or INFER


@dataclass
class PassTypes:
    """What one pass learned; the next pass starts from it."""

    locals: dict[str, VType] = field(default_factory=dict)
    declared: dict[str, T.ScalarType] = field(default_factory=dict)
    returns: VType | None = None
    bare_return: bool = False

    def merged(self, other: PassTypes) -> PassTypes:
        out = PassTypes(dict(self.locals), dict(self.declared), self.returns, self.bare_return)
        out.bare_return |= other.bare_return
        for name, vt in other.locals.items():
            out.locals[name] = R.join(out.locals.get(name), vt)
        out.declared.update(other.declared)
        if other.returns is not None:
            out.returns = R.join(out.returns, other.returns, "the function's return value")
        return out


@dataclass(frozen=True)
class DeviceSig:
    """A lowered device-function specialisation as its callers see it."""

    ir_name: str
    params: tuple[tuple[str, T.ScalarType | T.ArrayType], ...]
    return_type: T.ScalarType | None
    weak_return: bool = False


class ModuleContext(Protocol):
    """What lowering one function needs from the module being built (``lower.ModuleBuilder``):
    the module's options, its bounds-check table and its device-function specialisations."""

    @property
    def boundscheck(self) -> bool: ...

    def add_check(
        self, function: str, array: str, ndim: int, filename: str, line: int, col: int,
        source: str,
    ) -> int:  # fmt: skip
        """Register a bounds-checked access site; returns its 1-based id."""
        ...

    def specialize(
        self,
        fn: DeviceFunction[Any, Any],
        args: Sequence[Val | N.ArrayRef],
        arg_nodes: Sequence[ast.expr],
        node: ast.Call,
        caller: SourceInfo,
    ) -> DeviceSig:
        """The specialisation of device function ``fn`` for these arguments (lowered once)."""
        ...


ExprHandler = Callable[["Lowerer", Any], Val]
"""Lowers one expression construct; the second argument is the ``ast`` node of that class."""
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
        for name, t in spec.params:
            if isinstance(t, T.ArrayType):
                self.arrays[name] = N.ArrayRef(name, t)
            else:
                self.scalars[name] = t

    # -- dispatch ----------------------------------------------------------------------------

    def expr(self, node: ast.expr) -> Val:
        """Lower an expression by its construct's handler."""
        handler = self.EXPRS.get(type(node))
        if handler is None:
            raise unsupported(self.src, node)
        return handler(self, node)

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
        for s in stmts:
            try:
                out.extend(self.stmt(s))
            except Untyped:
                if self.final:
                    raise
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
        return name in self.spec.source.local_names

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

    def assign_local(self, name: str, value: Val, node: ast.AST) -> N.Assign:
        """Record ``name = value`` (type join, divergence) and build the ``Assign``."""
        if name in self.arrays:
            self.fail(node, f"cannot assign to {name!r}: it is an array")
        if name.startswith(RESERVED_PREFIX):
            self.fail(node, f"names starting with {RESERVED_PREFIX!r} are reserved in kernels")
        if name in self.cur.declared:
            target = self.cur.declared[name]
        else:
            joined = self.rule(node, lambda: R.join(self.local_type(name), value.vtype,
                                                    f"variable {name!r}"))  # fmt: skip
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
            loc.line, loc.col, text,
        )  # fmt: skip
