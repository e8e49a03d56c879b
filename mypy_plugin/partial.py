"""``functools.partial(k[n], a)(b)``: a launch whose arguments come from two places.

mypy's own ``functools`` plugin types the partial object and its call; this signature hook
(mypy's uses a different hook, so both run) puts the bound arguments and the call's
arguments together against the kernel's parameters and checks them like any launch.
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.nodes import CallExpr, Expression, IndexExpr
from mypy.plugin import MethodSigContext
from mypy.types import CallableType

from gpuoff.ownership import conflicts, static_alias_message
from mypy_plugin.callsite import CallObserver, CallSite, Formal, current_function, subject
from mypy_plugin.exprflow import PartialInfo
from mypy_plugin.flow import Walker
from mypy_plugin.names import ALIAS, describe
from mypy_plugin.state import Refs
from mypy_plugin.summaries import kernel_parameters, map_arguments

Filled = tuple[int, Expression, Refs]
"""(kernel parameter, the expression given for it, its references)."""


def partial_call_signature(ctx: MethodSigContext) -> CallableType:
    api, call = ctx.api, ctx.context
    if isinstance(api, TypeChecker) and isinstance(call, CallExpr):
        check_partial_call(api, call)
    return ctx.default_signature


def check_partial_call(api: TypeChecker, call: CallExpr) -> None:
    obs = CallObserver(api, CallSite(call, [], []), set())
    walker = Walker(api, obs, current_function(api))
    walker.run()
    if not obs.seen or obs.quiet:
        return
    infos = [walker.partials[r.site] for r in obs.callee if r.site in walker.partials]
    if len(infos) != 1:
        return  # not a partial we saw made, or one of several: the runtime checks it
    info = infos[0]
    formals = kernel_parameters(api, info.func)
    if formals is not None:
        filled = _fill(call, obs, info, formals)
        func = info.func.base if isinstance(info.func, IndexExpr) else info.func
        _report(api, call, describe(func, api), formals, filled)


def _fill(call: CallExpr, obs: CallObserver, info: PartialInfo,
          formals: list[Formal]) -> list[Filled]:  # fmt: skip
    """Bound positional arguments take the first parameters, bound keywords theirs, and
    the call fills the rest."""
    filled: list[Filled] = [(k, e, r) for k, (e, r) in enumerate(info.bound)]
    names = [f.name for f in formals]
    filled += [(names.index(n), e, r) for n, (e, r) in info.keywords.items() if n in names]
    taken = {f for f, _, _ in filled}
    rest = [k for k in range(len(formals)) if k not in taken]
    for slot, group in zip(rest, map_arguments(call, [formals[k] for k in rest]), strict=True):
        filled += [(slot, call.args[a], frozenset(obs.args[a])) for a in group]
    return sorted(filled, key=lambda f: f[0])


def _report(api: TypeChecker, call: CallExpr, kernel: str, formals: list[Formal],
            filled: list[Filled]) -> None:  # fmt: skip
    in_call = {id(a) for a in call.args}
    for j, (fj, ej, rj) in enumerate(filled):
        for fi, ei, ri in filled[:j]:
            ai, aj = formals[fi].access, formals[fj].access
            if ai is None or aj is None or not conflicts(ai, aj):
                continue
            what = subject(api, ei, ej, [(ri, rj)])
            if what is None:
                continue
            copy = ei if not ai.exclusive else ej
            msg = static_alias_message(what, kernel, (formals[fi].name, ai),
                                       (formals[fj].name, aj), describe(copy, api))  # fmt: skip
            at = ej if id(ej) in in_call else ei if id(ei) in in_call else call
            api.fail(msg, at, code=ALIAS)
            break
