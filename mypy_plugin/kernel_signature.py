"""Kernel and device-function signatures: parameters and return types the front end refuses
(a ``LaunchTypeError`` at the first launch, or a ``CompileError`` when a kernel first calls a
device function), reported where they are declared, in the front end's words.

The decision is made on mypy's analysed types; the wording renders the annotation as the
user wrote it (``list[f32]``, ``ndarray``), which is what the front end prints after
evaluating it.
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.nodes import ARG_OPT, ARG_POS, FUNC_NO_INFO, FuncDef
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    NoneType,
    TupleType,
    Type,
    TypeOfAny,
    TypeVarType,
    UnboundType,
    get_proper_type,
)

from gpuoff import subset as W
from mypy_plugin.names import ARRAY_CLASS, DEVICE_FUNCTION, SIGNATURE, WRAPPERS

PY_SCALARS = frozenset({"builtins.float", "builtins.int", "builtins.bool"})


def _render(t: Type | None) -> str:
    """An annotation as the front end prints it: class names, with arguments if written."""
    if isinstance(t, UnboundType):
        name = t.name.rpartition(".")[2]
        return f"{name}[{', '.join(_render(a) for a in t.args)}]" if t.args else name
    p = get_proper_type(t) if t is not None else None
    if isinstance(p, Instance):
        return f"{p.type.name}[{', '.join(_render(a) for a in p.args)}]" if p.args else p.type.name
    return str(t)


VECTOR_CLASS = "gpuoff.lang_vec.Vector"
MATRIX_CLASS = "gpuoff.lang_mat.Matrix"


def _is_scalar(p: object) -> bool:
    if not isinstance(p, Instance):
        return False
    info = p.type
    return (
        info.fullname in PY_SCALARS
        or info.has_base(f"{W.LANG_MODULE}.DType")
        or info.has_base("numpy.generic")
    )


def _is_const(written: Type | None) -> bool:
    """Whether the annotation as written is ``go.Const[...]`` (mypy reads it as its
    argument: ``Const`` is an ``Annotated`` alias)."""
    return isinstance(written, UnboundType) and written.name.rpartition(".")[2] == "Const"


def _unwritten(t: Type | None) -> bool:
    return isinstance(t, UnboundType) and not t.args


def _scalar_tuple(p: object) -> bool:
    """``tuple[f32, f32]``, ``tuple[f32, tuple[i32, i32]]``, ``tuple[f32, ...]``: what a
    device function's tuple parameter may be declared as."""
    if isinstance(p, TupleType):
        return all(_is_scalar(i) or _scalar_tuple(i)
                   for i in (get_proper_type(t) for t in p.items))  # fmt: skip
    if isinstance(p, Instance) and p.type.fullname == "builtins.tuple" and p.args:
        item = get_proper_type(p.args[0])
        return _is_scalar(item) or _scalar_tuple(item)
    return False


def parameter_problem(typ: Type, written: Type | None, device: bool = False) -> str | None:
    """Why the front end refuses a parameter annotated ``typ`` (None: it accepts it); a
    device function's may also be a tuple of scalars."""
    p = get_proper_type(typ)
    if device and _scalar_tuple(p):
        return None
    if isinstance(p, TypeVarType):  # a go.DTypeVar: the launch binds it to a dtype
        return None
    if isinstance(p, Instance) and p.type.fullname == DEVICE_FUNCTION and _is_const(written):
        return None  # op: go.Const[go.DeviceFunction[[T, T], T]]: a @go.func as a parameter
    if device and isinstance(p, Instance) and (p.type.has_base(VECTOR_CLASS)
                                               or p.type.has_base(MATRIX_CLASS)):  # fmt: skip
        return None  # v: go.vec3, m: go.mat33 (their elements)
    if isinstance(p, AnyType) and p.type_of_any == TypeOfAny.unannotated:
        return W.NO_ANNOTATION
    if isinstance(p, Instance) and p.type.fullname in WRAPPERS:
        if _unwritten(written):
            return W.wrapper_needs_element(p.type.name)
        inner = get_proper_type(p.args[0]) if p.args else None
        inner_written = (
            written.args[0] if isinstance(written, UnboundType) and written.args else None
        )
        if not (isinstance(inner, Instance) and inner.type.fullname == ARRAY_CLASS):
            return W.wrapper_needs_array(_render(inner_written or inner))
        elem = get_proper_type(inner.args[0]) if inner.args else None
        if isinstance(elem, TypeVarType):
            return None
        if not (_is_scalar(elem) and not (isinstance(elem, Instance)
                                          and elem.type.fullname in PY_SCALARS)):  # fmt: skip
            return W.unknown_element(_render(elem))
        return None
    if isinstance(p, Instance) and p.type.has_base(ARRAY_CLASS):
        return W.NEEDS_WRAPPER
    if _is_scalar(p):
        return None
    return W.unsupported_type(_render(written if written is not None else typ))


def check_signature(api: TypeChecker, func: FuncDef, kernel: bool) -> None:
    """Report every parameter (and a kernel's return type) the front end refuses."""
    sig = func.type
    if not isinstance(sig, CallableType):
        return
    written = func.unanalyzed_type
    written_args = written.arg_types if isinstance(written, CallableType) else []
    name = func.name if func.info is FUNC_NO_INFO else f"{func.info.name}.{func.name}"
    for k, arg in enumerate(func.arguments):
        if arg.kind not in (ARG_POS, ARG_OPT):
            reason: str | None = W.PLAIN_POSITIONAL
        else:
            w = written_args[k] if k < len(written_args) else None
            reason = parameter_problem(sig.arg_types[k], w, device=not kernel)
        if reason is None:
            continue
        var = arg.variable.name
        msg = (W.kernel_parameter_message(var, name, reason) if kernel
               else W.device_parameter_message(var, name, reason))  # fmt: skip
        api.fail(msg, arg, code=SIGNATURE)
    if kernel and not func.is_coroutine and not isinstance(
        get_proper_type(sig.ret_type), NoneType | AnyType
    ):
        api.fail(W.KERNEL_RETURN_ANNOTATION, func, code=SIGNATURE)
