"""Call sites: kernel launches, device-function calls and any call with ``Owned`` parameters.

These run as *signature* hooks because the signature hook sees the callee's formal types
(for a launch, the kernel's own parameters, bound through the ParamSpec ``P`` of
``Launch[P]``) together with the argument expressions grouped per formal.
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.nodes import CallExpr, Expression, IndexExpr, NameExpr, RefExpr, Var
from mypy.plugin import FunctionSigContext, MethodSigContext
from mypy.typeops import make_simplified_union
from mypy.types import AnyType, CallableType, Instance, Type, TypeOfAny, get_proper_type

from gpuoff.ownership import Access, alias_message, conflicts
from mypy_plugin.moves import check_moves, in_expected_raise
from mypy_plugin.names import (
    ALIAS,
    BOOLEAN,
    FLOAT_SCALARS,
    INT_SCALARS,
    access_of,
    describe,
    place,
)

Arg = tuple[str, Access, Expression]


def callee_name(call: CallExpr) -> str:
    """What the call is called in messages: ``saxpy`` for ``saxpy[n](...)``."""
    callee = call.callee
    if isinstance(callee, IndexExpr):  # k[grid](...) or k[grid, block](...)
        callee = callee.base
    return describe(callee) if isinstance(callee, RefExpr) else "<expression>"


def _ownership_args(sig: CallableType, args: list[list[Expression]]) -> list[Arg]:
    out: list[Arg] = []
    for i, group in enumerate(args[: len(sig.arg_types)]):
        access = access_of(sig.arg_types[i])
        if access is not None:
            name = sig.arg_names[i] or f"#{i + 1}"
            out.extend((name, access, a) for a in group)
    return out


def find_aliases(args: list[Arg], callee: str) -> list[tuple[str, Expression]]:
    """One place passed exclusively (BorrowMut/Owned) and also as another argument."""
    found: list[tuple[str, Expression]] = []
    for j, (name_j, acc_j, arg_j) in enumerate(args):
        key = place(arg_j)
        if key is None:
            continue
        for name_i, acc_i, arg_i in args[:j]:
            if place(arg_i) == key and conflicts(acc_i, acc_j):
                found.append((alias_message(callee, name_i, acc_i, name_j, acc_j), arg_j))
                break
    return found


def check_owned_call(
    api: object, call: object, sig: CallableType, args: list[list[Expression]], alias: bool
) -> None:
    """Aliasing (for launches and device calls) and use after move for one call site."""
    if not isinstance(api, TypeChecker) or not isinstance(call, CallExpr):
        return  # private API changed or an unusual context: say nothing rather than guess
    # ``f(*args)``/``f(**kw)`` maps one expression to many formals: it names no single place.
    starred = {id(a) for a, k in zip(call.args, call.arg_kinds, strict=True) if k.is_star()}
    owned = [o for o in _ownership_args(sig, args) if id(o[2]) not in starred]
    callee = callee_name(call)
    aliases = find_aliases(owned, callee) if alias else []
    if aliases and not in_expected_raise(api, call):
        for msg, arg in aliases:
            api.fail(msg, arg, code=ALIAS)
    moved = [
        a.node
        for _, acc, a in owned
        if acc.moves and isinstance(a, NameExpr) and isinstance(a.node, Var)
    ]
    if moved:
        check_moves(api, call, moved, callee)


def _named(api: TypeChecker, name: str, args: list[Type]) -> Type | None:
    try:
        return api.named_generic_type(name, args)
    except (KeyError, AssertionError):  # NumPy not part of this build: no widening
        return None


def _widened(api: TypeChecker, t: Type) -> Type:
    """What a launch accepts for a parameter declared ``t`` (SPEC §2), beyond ``t`` itself."""
    p = get_proper_type(t)
    name = p.type.fullname if isinstance(p, Instance) else ""
    anything = AnyType(TypeOfAny.special_form)
    extra: list[Type | None] = []
    if name in FLOAT_SCALARS:
        extra = [_named(api, "builtins.float", []), _named(api, "numpy.floating", [anything])]
    elif name in INT_SCALARS:
        extra = [_named(api, "builtins.int", []), _named(api, "numpy.integer", [anything])]
        if name == BOOLEAN:
            extra.append(_named(api, "numpy.bool", [anything]))
    elif access_of(t) in (Access.BORROW, Access.BORROW_MUT):
        # A NumPy array is copied in (and back out for BorrowMut); its dtype is checked at
        # launch. An Owned parameter refuses one: it cannot be moved.
        extra = [_named(api, "numpy.ndarray", [anything, anything])]
    kept = [x for x in extra if x is not None]
    return make_simplified_union([t, *kept]) if kept else t


def widen_arguments(sig: CallableType, api: object) -> CallableType:
    """Let a launch take plain Python and NumPy numbers for scalar parameters (``2.0`` for
    ``f32``) and NumPy arrays for ``Borrow``/``BorrowMut`` ones, as the runtime does.

    The runtime converts them (and raises if a value does not fit or a dtype differs).
    """
    if not isinstance(api, TypeChecker):
        return sig
    return sig.copy_modified(arg_types=[_widened(api, t) for t in sig.arg_types])


def launch_signature(ctx: MethodSigContext) -> CallableType:
    """``k[grid](...)`` and ``helper(...)``: aliasing, moves, scalar widening."""
    check_owned_call(ctx.api, ctx.context, ctx.default_signature, ctx.args, alias=True)
    return widen_arguments(ctx.default_signature, ctx.api)


def owned_method_signature(ctx: MethodSigContext) -> CallableType:
    """Any method with an ``Owned`` parameter: use after move."""
    check_owned_call(ctx.api, ctx.context, ctx.default_signature, ctx.args, alias=False)
    return ctx.default_signature


def owned_function_signature(ctx: FunctionSigContext) -> CallableType:
    """Any function with an ``Owned`` parameter: use after move."""
    check_owned_call(ctx.api, ctx.context, ctx.default_signature, ctx.args, alias=False)
    return ctx.default_signature
