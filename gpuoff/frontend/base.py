"""State shared by the statement, expression and call lowerers of one function.

A function is lowered in *passes*: every pass walks the whole body with the local-variable
types found so far and records the types it assigns; passes repeat until the types stop
changing (a fixpoint: types only grow, and there are finitely many). A last, *final* pass then
emits the IR with those types, registers bounds checks and reports errors that depend on
complete information (uses before assignment, divergent barriers).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

from gpuoff.errors import CompileError
from gpuoff.frontend import typing_rules as R
from gpuoff.frontend.irutil import Val, cast
from gpuoff.frontend.resolve import Env, Resolved
from gpuoff.frontend.source import SourceInfo
from gpuoff.frontend.typing_rules import TypingError, VType
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T

if TYPE_CHECKING:
    from gpuoff.frontend.lower import ModuleContext

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
    divergent: set[str] = field(default_factory=set)

    def merged(self, other: PassTypes) -> PassTypes:
        out = PassTypes(dict(self.locals), dict(self.declared), self.returns, self.bare_return,
                        self.divergent | other.divergent)  # fmt: skip
        out.bare_return |= other.bare_return
        for name, vt in other.locals.items():
            out.locals[name] = R.join(out.locals.get(name), vt)
        out.declared.update(other.declared)
        if other.returns is not None:
            out.returns = R.join(out.returns, other.returns, "the function's return value")
        return out


class LowererBase:
    """Per-pass state and the helpers every part of the lowering uses."""

    def __init__(self, ctx: ModuleContext, spec: FuncSpec, prev: PassTypes, final: bool) -> None:
        self.ctx = ctx
        self.spec = spec
        self.src = spec.source.src
        self.env = spec.source.env
        self.prev = prev
        self.cur = PassTypes(declared=dict(prev.declared))
        self.final = final
        self.temps: dict[str, T.ScalarType] = {}
        self.shared: list[N.SharedArray] = []
        self.arrays: dict[str, N.ArrayRef] = {}
        self.scalars: dict[str, T.ScalarType] = {}
        self.loop_depth = 0
        self.divergent_depth = 0
        # Locals that some path may have assigned by now (a read of a local no path has
        # assigned yet is an error; a loop counts everything its body assigns, so a
        # loop-carried variable is never rejected).
        self.maybe_assigned: set[str] = set()
        for name, t in spec.params:
            if isinstance(t, T.ArrayType):
                self.arrays[name] = N.ArrayRef(name, t)
            else:
                self.scalars[name] = t

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
        if self.is_divergent(value.expr):
            self.cur.divergent.add(name)
        self.maybe_assigned.add(name)
        return N.Assign(name, self.coerce(value, target, node), loc=self.loc(node))

    def new_temp(self, value: N.Expr, node: ast.AST) -> tuple[N.Assign, N.Var]:
        """A fresh temporary holding ``value`` (evaluated once)."""
        name = f"{TEMP_PREFIX}{len(self.temps)}"
        self.temps[name] = value.type
        if self.is_divergent(value):
            self.cur.divergent.add(name)
        loc = self.loc(node)
        return N.Assign(name, value, loc=loc), N.Var(value.type, name, loc=loc)

    # -- typing helpers ----------------------------------------------------------------------

    def coerce(self, value: Val, t: T.ScalarType, node: ast.AST) -> N.Expr:
        """Convert ``value`` to ``t``; a weak integer constant must fit (NumPy 2 raises too)."""
        e = value.expr
        if value.weak and isinstance(e, N.Const) and t.is_int and not R.fits(e.value, t):
            self.fail(node, f"the constant {e.value} does not fit in {t}")
        return cast(e, t)

    def is_divergent(self, expr: N.Node) -> bool:
        """Whether ``expr`` may differ between the work-items of one group."""
        div = self.prev.divergent | self.cur.divergent

        def pred(n: N.Node) -> bool:
            if isinstance(n, N.WorkItem):
                return n.name in ("global_id", "local_id")
            return isinstance(n, N.Var) and n.name in div

        from gpuoff.frontend.irutil import mentions

        return mentions(expr, pred)

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

    # -- implemented by the mixins -----------------------------------------------------------

    def expr(self, node: ast.expr) -> Val:
        raise NotImplementedError

    def array_of(self, node: ast.expr) -> N.ArrayRef | None:
        raise NotImplementedError

    def static_value(self, node: ast.expr) -> object:
        raise NotImplementedError

    def static(self, node: ast.expr) -> Resolved | None:
        raise NotImplementedError

    def constant(self, value: object, node: ast.AST) -> Val:
        raise NotImplementedError

    def static_int(self, node: ast.expr, what: str) -> int:
        raise NotImplementedError

    def shape_of(self, array: N.ArrayRef, dim: int, node: ast.AST) -> Val:
        raise NotImplementedError

    def writable_array(self, node: ast.expr, what: str) -> N.ArrayRef:
        raise NotImplementedError

    def shared_decl(self, target: ast.Name, node: ast.Call) -> N.SharedArray:
        raise NotImplementedError

    def call(self, node: ast.Call, as_stmt: bool) -> Val | None:
        raise NotImplementedError

    def binop(self, op: str, lhs: Val, rhs: Val, node: ast.AST) -> Val:
        raise NotImplementedError

    def load(self, node: ast.Subscript, array: N.ArrayRef, idx: tuple[N.Expr, ...]) -> Val:
        raise NotImplementedError

    def indices(self, node: ast.Subscript, array: N.ArrayRef) -> tuple[N.Expr, ...]:
        raise NotImplementedError
