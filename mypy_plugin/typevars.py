"""``T = go.DTypeVar("T")``: a type variable over gpuoff's dtypes, for mypy.

``go.DTypeVar`` is a class to type checkers, so mypy hands its assignments to this hook
(``get_dynamic_class_hook``), which makes the name a type variable: its values are the
constraints written (``go.DTypeVar("F", go.f32, go.f64)``) or, without any, every gpuoff
dtype. mypy then checks a generic body once per value, as it does for a constrained
``TypeVar``: arithmetic on ``T`` keeps ``T``, as the kernel compiler does per binding.
"""

from __future__ import annotations

from mypy.nodes import GDEF, RefExpr, SymbolTableNode, TypeInfo, TypeVarExpr
from mypy.plugin import DynamicClassDefContext
from mypy.types import AnyType, Instance, Type, TypeOfAny

from gpuoff import subset as W
from gpuoff.subset import LANG_MODULE

DTYPE_VAR = "gpuoff.lang_generic.DTypeVar"
"""The fullname mypy gives ``go.DTypeVar`` (the class declared for type checkers)."""


def _dtype(api: object, name: str) -> Instance | None:
    sym = api.lookup_fully_qualified_or_none(f"{LANG_MODULE}.{name}")  # type: ignore[attr-defined]
    if sym is None or not isinstance(sym.node, TypeInfo):
        return None
    return Instance(sym.node, [])


def dtype_var_hook(ctx: DynamicClassDefContext) -> None:
    """Make ``ctx.name`` a ``TypeVarExpr`` whose values are the dtypes it may be."""
    values: list[Type] = []
    for arg in ctx.call.args[1:]:
        if isinstance(arg, RefExpr) and isinstance(arg.node, TypeInfo):
            values.append(Instance(arg.node, []))
    if not values:
        for name in W.SCALAR_TYPES:
            if name.startswith("complex"):  # an unconstrained variable is over real dtypes
                continue
            found = _dtype(ctx.api, name)
            if found is None:  # gpuoff.lang not analysed yet: try again
                ctx.api.defer()
                return
            values.append(found)
    bound = ctx.api.named_type("builtins.object")
    tv = TypeVarExpr(ctx.name, ctx.api.qualified_name(ctx.name), values, bound,
                     AnyType(TypeOfAny.from_omitted_generics))  # fmt: skip
    tv.line = ctx.call.line
    ctx.api.add_symbol_table_node(ctx.name, SymbolTableNode(GDEF, tv))
