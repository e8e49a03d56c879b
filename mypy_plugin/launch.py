"""The call hooks: kernel launches, device-function calls, host functions taking buffers,
and partial applications of a launch.

These run as *signature* hooks because the signature hook sees the callee's formal types
(for a launch, the kernel's own parameters, bound through the ParamSpec ``P`` of
``Launch[P]``) together with the argument expressions grouped per formal. A launch's
signature also gets its real return type (the ``Owned`` buffers handed back) and the
kernel's name, so that mypy's own messages say ``Argument 2 to "saxpy"``.
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.erasetype import erase_typevars
from mypy.nodes import CallExpr, Expression, FuncDef, IndexExpr, NameExpr, TypeInfo, Var
from mypy.plugin import FunctionSigContext, MethodSigContext
from mypy.typeops import make_simplified_union
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    NoneType,
    TupleType,
    Type,
    TypeOfAny,
    get_proper_type,
)

from gpuoff.ownership import Access, borrow_pass_message
from mypy_plugin.callsite import CallSite, Formal, check_call_site
from mypy_plugin.names import (
    ARRAY_CLASS,
    BOOLEAN,
    BORROW_WRITE,
    BUFFER_CLASS,
    FLOAT_SCALARS,
    INT_SCALARS,
    access_of,
    describe,
    is_array_type,
)
from mypy_plugin.summaries import summarize


def _formals(sig: CallableType) -> list[Formal]:
    return [Formal(n or f"#{i + 1}", access_of(t), t)
            for i, (n, t) in enumerate(zip(sig.arg_names, sig.arg_types, strict=True))]  # fmt: skip


def _actuals(call: CallExpr, grouped: list[list[Expression]]) -> list[list[int]]:
    """mypy's per-formal argument groups as indexes into ``call.args``."""
    index = {id(a): k for k, a in enumerate(call.args)}
    return [[index[id(a)] for a in group if id(a) in index] for group in grouped]


def kernel_name(call: CallExpr, api: object) -> str:
    callee = call.callee
    if isinstance(callee, IndexExpr):
        callee = callee.base
    return describe(callee, api)


# -- launches ---------------------------------------------------------------------------------


def launch_signature(ctx: MethodSigContext) -> CallableType:
    """``k[grid](...)``: aliasing, moves, scalar widening, return type, the kernel's name."""
    sig = ctx.default_signature
    api, call = ctx.api, ctx.context
    if not isinstance(api, TypeChecker) or not isinstance(call, CallExpr):
        return sig  # private API changed or an unusual context: say nothing rather than guess
    site = CallSite(call, _formals(sig), _actuals(call, ctx.args), launch=True)
    check_call_site(api, site)
    named = kernel_name(call, api) if isinstance(call.callee, IndexExpr) else None
    return widen_arguments(sig, api).copy_modified(
        ret_type=_launch_result(api, sig), name=named or sig.name
    )


def _launch_result(api: TypeChecker, sig: CallableType) -> Type:
    """None, the one ``Owned`` buffer, or a tuple of them in parameter order (SPEC §2)."""
    owned = [t for t in sig.arg_types if access_of(t) is Access.OWNED]
    if not owned:
        return NoneType()
    buffers: list[Type] = []
    for t in owned:
        p = get_proper_type(t)
        inner = get_proper_type(p.args[0]) if isinstance(p, Instance) and p.args else None
        if not (isinstance(inner, Instance) and inner.type.fullname == ARRAY_CLASS):
            return AnyType(TypeOfAny.special_form)
        buf = _named(api, BUFFER_CLASS, list(inner.args))
        if buf is None:
            return AnyType(TypeOfAny.special_form)
        buffers.append(buf)
    if len(buffers) == 1:
        return buffers[0]
    fallback = _named(api, "builtins.tuple", [make_simplified_union(buffers)])
    if fallback is None:
        return AnyType(TypeOfAny.special_form)
    return TupleType(buffers, fallback)


# -- device functions inside kernels ----------------------------------------------------------


def device_call_signature(ctx: MethodSigContext) -> CallableType:
    """``helper(...)`` in a kernel: aliasing, and a Borrow passed where BorrowMut is declared."""
    sig = ctx.default_signature
    api, call = ctx.api, ctx.context
    if not isinstance(api, TypeChecker) or not isinstance(call, CallExpr):
        return sig
    formals = _formals(sig)
    site = CallSite(call, formals, _actuals(call, ctx.args), in_kernel=True)
    check_call_site(api, site)
    types = list(sig.arg_types)
    name = describe(call.callee, api)
    for f, group in enumerate(site.actuals):
        want = formals[f].access
        for a in group:
            arg = call.args[a]
            have = _declared_access(arg)
            if want is not None and want.writes and have is Access.BORROW:
                msg = borrow_pass_message(describe(arg, api), have, formals[f].name, name, want)
                api.fail(msg, arg, code=BORROW_WRITE)
                if isinstance(arg, NameExpr) and isinstance(arg.node, Var) and arg.node.type:
                    types[f] = arg.node.type  # one error for it, not mypy's second one
    return widen_arguments(sig.copy_modified(arg_types=types), api)


def _declared_access(e: Expression) -> Access | None:
    if isinstance(e, NameExpr) and isinstance(e.node, Var):
        return access_of(e.node.type)
    return None


# -- host functions and methods ---------------------------------------------------------------


def host_signature(fullname: str, node: FuncDef | None, bound: bool):  # type: ignore[no-untyped-def]
    """The hook for one host function or method taking buffers (``plugin`` finds ``node``)."""

    def hook(ctx: FunctionSigContext | MethodSigContext) -> CallableType:
        sig = ctx.default_signature
        api, call = ctx.api, ctx.context
        if isinstance(api, TypeChecker) and isinstance(call, CallExpr):
            inner = summarize(api, node, bound) if node is not None else []
            site = CallSite(call, _formals(sig), _actuals(call, ctx.args), inner=inner)
            check_call_site(api, site)
        return sig

    return hook


def takes_buffers(sig: CallableType) -> bool:
    """Worth a hook: an ownership wrapper, or two or more array parameters."""
    arrays = [t for t in sig.arg_types if is_array_type(t)]
    return len(arrays) >= 2 or any(access_of(t) is not None for t in arrays)


# -- arguments the runtime converts -----------------------------------------------------------


def _named(api: TypeChecker, name: str, args: list[Type]) -> Instance | None:
    """``name[args]``, if that class is part of this build (else no widening)."""
    module, _, attr = name.rpartition(".")
    tree = api.modules.get(module)
    sym = tree.names.get(attr) if tree is not None else None
    node = sym.node if sym is not None else None
    if not isinstance(node, TypeInfo):
        return None
    return Instance(node, args)


FOREIGN_ARRAYS = ("numpy.ndarray", "torch.Tensor", "jax.Array", "cupy.ndarray")
"""Array classes of other libraries a ``Borrow``/``BorrowMut`` parameter accepts at a launch,
where the program's build has them (the runtime checks dtype, device and ownership)."""


def _widened(api: TypeChecker, t: Type) -> Type:
    """What a launch accepts for a parameter declared ``t`` (SPEC §2), beyond ``t`` itself."""
    p = get_proper_type(t)
    if isinstance(p, TupleType):  # a device function's tuple parameter: each item widened
        return p.copy_modified(items=[_widened(api, item) for item in p.items])
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
        # So are the arrays of the libraries users bring (SPEC §4), named by class where the
        # program imports them: a structural protocol (``__dlpack__``) would also admit a
        # go.Buffer of another dtype, which must stay a type error.
        extra = [_named(api, name, [anything, anything] if name == "numpy.ndarray" else [])
                 for name in FOREIGN_ARRAYS]  # fmt: skip
    kept = [x for x in extra if x is not None]
    return make_simplified_union([t, *kept]) if kept else t


def widen_arguments(sig: CallableType, api: TypeChecker) -> CallableType:
    """Let a launch take plain Python and NumPy numbers for scalar parameters (``2.0`` for
    ``f32``) and NumPy arrays for ``Borrow``/``BorrowMut`` ones, as the runtime does.

    The runtime converts them (and raises if a value does not fit or a dtype differs). A
    generic kernel's dtype variables (``go.DTypeVar``) are bound by the runtime from the
    arguments, which may be NumPy arrays and Python numbers mypy cannot bind them from: at a
    launch they are ``Any`` (the runtime reports arguments that disagree).
    """
    if sig.variables:
        ids = [v.id for v in sig.variables]
        sig = sig.copy_modified(arg_types=[erase_typevars(t, ids) for t in sig.arg_types],
                                ret_type=erase_typevars(sig.ret_type, ids), variables=[])
    return sig.copy_modified(arg_types=[_widened(api, t) for t in sig.arg_types])
