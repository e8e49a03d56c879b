"""What a host function does with its parameters one call deeper: which launches inside it
take which of its parameters, and how (``def step(src, dst): k[n](src, dst)`` uses ``src``
as ``Borrow`` and ``dst`` as ``BorrowMut`` together).

Only bodies in the module being checked are read (mypy keeps no bodies of modules loaded
from its cache); elsewhere the parameters' own annotations (``BorrowMut[Buffer[f32]]``)
are what a caller is checked against.
"""

from __future__ import annotations

from mypy.argmap import map_actuals_to_formals
from mypy.checker import TypeChecker
from mypy.nodes import ARG_POS, CallExpr, Decorator, Expression, FuncDef, IndexExpr, RefExpr
from mypy.types import AnyType, Instance, Parameters, TypeOfAny, get_proper_type

from mypy_plugin import sites
from mypy_plugin.callsite import Formal, InnerUse
from mypy_plugin.exprflow import ExprWalker
from mypy_plugin.flow import Walker
from mypy_plugin.names import KERNEL_CLASS, LAUNCH_CLASS, access_of, describe
from mypy_plugin.state import Refs, State
from mypy_plugin.values import Site


def kernel_parameters(api: TypeChecker, callee: Expression) -> list[Formal] | None:
    """The parameters of the kernel ``callee`` launches (``k[n]`` or a ``Launch`` value)."""
    t = api.lookup_type_or_none(callee)
    if t is None and isinstance(callee, IndexExpr) and isinstance(callee.base, RefExpr):
        node = callee.base.node
        t = node.var.type if isinstance(node, Decorator) else getattr(node, "type", None)
        p = get_proper_type(t) if t is not None else None
        if not (isinstance(p, Instance) and p.type.fullname == KERNEL_CLASS):
            return None
    p = get_proper_type(t) if t is not None else None
    if not (isinstance(p, Instance) and p.type.fullname in (LAUNCH_CLASS, KERNEL_CLASS)):
        return None
    params = get_proper_type(p.args[0]) if p.args else None
    if not isinstance(params, Parameters):
        return None
    pairs = enumerate(zip(params.arg_names, params.arg_types, strict=True))
    return [Formal(n or f"#{i + 1}", access_of(a), a) for i, (n, a) in pairs]


def map_arguments(call: CallExpr, formals: list[Formal]) -> list[list[int]]:
    """Which actual arguments fill each formal (positional-or-keyword formals)."""
    return map_actuals_to_formals(
        call.arg_kinds, call.arg_names, [ARG_POS] * len(formals), [f.name for f in formals],
        lambda _: AnyType(TypeOfAny.special_form),
    )  # fmt: skip


class _SummaryObserver:
    def __init__(self, api: TypeChecker, params: dict[Site, int]) -> None:
        self.api = api
        self.params = params
        self.uses: list[InnerUse] = []
        self.seen: set[int] = set()

    def call(self, w: ExprWalker, call: CallExpr, callee: Refs, args: list[Refs],
             st: State) -> None:  # fmt: skip
        if id(call) in self.seen:
            return  # a loop's second round
        self.seen.add(id(call))
        formals = kernel_parameters(self.api, call.callee)
        if formals is None:
            return
        found: list[tuple[int, str, object]] = []
        for f, group in enumerate(map_arguments(call, formals)):
            access = formals[f].access
            if access is None:
                continue
            for a in group:
                for r in args[a]:
                    if r.site in self.params:
                        found.append((self.params[r.site], formals[f].name, access))
        if found:
            labels = {r.site.label for r in callee if r.site.kind == "launch"}
            base = call.callee.base if isinstance(call.callee, IndexExpr) else call.callee
            kernel = labels.pop() if len(labels) == 1 else describe(base, self.api)
            self.uses.append(InnerUse(kernel, call.line, tuple(found)))  # type: ignore[arg-type]

    def use(self, w: ExprWalker, e: Expression, refs: Refs, base: Refs, st: State) -> None:
        pass


def summarize(api: TypeChecker, func: FuncDef, bound: bool) -> list[InnerUse]:
    """The launches in ``func``'s body that take its parameters (``bound``: a method called
    on an instance, whose first parameter is not among the call's formals)."""
    if not func.body.body:
        return []  # a module from the cache: no body
    args = func.arguments[1:] if bound else func.arguments
    params = {sites.var_site(a.variable): k for k, a in enumerate(args)}
    obs = _SummaryObserver(api, params)
    Walker(api, obs, func).run()
    return obs.uses
