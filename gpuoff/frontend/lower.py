"""``lower_kernel``: one kernel specialised for one signature, with its device functions."""

from __future__ import annotations

import ast
import dataclasses
import inspect
from collections.abc import Callable, Sequence
from typing import Any

from gpuoff import lang
from gpuoff.errors import CompileError, LaunchTypeError
from gpuoff.frontend.barriers import check_barriers
from gpuoff.frontend.base import INFER, DeviceSig, FnSource, FuncSpec, assigned_names
from gpuoff.frontend.function import lower_function
from gpuoff.frontend.irutil import Val
from gpuoff.frontend.resolve import Env
from gpuoff.frontend.signature import (
    AnnotationError,
    ParamDecl,
    parse_signature,
    raw_annotations,
    resolve_param,
    return_annotation,
    scalar_of,
    unwrap_function,
)
from gpuoff.frontend.source import SourceInfo, load_source
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from gpuoff.ownership import borrow_pass_message
from gpuoff.subset import KERNEL_RETURN_ANNOTATION, device_parameter_message, recursion_message

ParamType = T.ScalarType | T.ArrayType


def _tag(t: ParamType) -> str:
    if isinstance(t, T.ScalarType):
        return t.name
    layout = "c" if t.contiguous else "a"
    space = "s" if t.space is T.AddressSpace.SHARED else ""
    mode = "w" if t.access.writes else "r"
    return f"A{t.ndim}{t.dtype.name}{layout}{mode}{space}"


def mangle(name: str, params: Sequence[ParamType]) -> str:
    """The IR name of a device-function specialisation: ``helper__f32_f32``; an array is
    ``A<ndim><dtype>`` then ``c``/``a`` (contiguous or not), ``r``/``w`` (read-only or
    writable) and ``s`` for shared memory: ``row_sum__A2f32cr_i64``."""
    return f"{name}__" + "_".join(_tag(t) for t in params)


class ModuleBuilder:
    """Everything shared by the functions of one module: checks, device functions, caches
    (the ``base.ModuleContext`` the functions are lowered in)."""

    def __init__(self, boundscheck: bool, fastmath: bool) -> None:
        self.boundscheck = boundscheck
        self.fastmath = fastmath
        self.checks: list[N.BoundsCheck] = []
        self.functions: list[N.Function] = []
        self.sigs: dict[tuple[int, tuple[ParamType, ...]], DeviceSig] = {}
        self.in_progress: list[object] = []
        self.sources: dict[int, FnSource] = {}
        self.names: dict[str, object] = {}

    def source(self, pyfunc: Callable[..., Any]) -> FnSource:
        """The parsed source of a Python function (once per module)."""
        found = self.sources.get(id(pyfunc))
        if found is None:
            src = load_source(pyfunc)
            found = FnSource(pyfunc, src, Env(pyfunc), assigned_names(src.tree))
            self.sources[id(pyfunc)] = found
        return found

    def add_check(
        self, function: str, array: str, ndim: int, filename: str, line: int, col: int,
        source: str,
    ) -> int:  # fmt: skip
        """Register a bounds-checked access site; returns its 1-based id."""
        check_id = len(self.checks) + 1
        self.checks.append(
            N.BoundsCheck(check_id, function, array, ndim, filename, line, col, source)
        )
        return check_id

    def unique_name(self, name: str, owner: object) -> str:
        base, n = name, 1
        while self.names.get(name, owner) is not owner:
            n += 1
            name = f"{base}_{n}"
        self.names[name] = owner
        return name

    def specialize(
        self,
        fn: lang.DeviceFunction[Any, Any],
        args: Sequence[Val | N.ArrayRef],
        arg_nodes: Sequence[ast.expr],
        node: ast.Call,
        caller: SourceInfo,
    ) -> DeviceSig:
        """The specialisation of device function ``fn`` for these arguments (lowered once)."""
        pyfunc = fn.pyfunc
        if any(p is pyfunc for p in self.in_progress):
            raise caller.error(node, recursion_message(fn.__name__)) from None
        fsrc = self.source(pyfunc)
        raw = raw_annotations(pyfunc)
        if len(raw) != len(args):
            raise caller.error(
                node,
                f"device function {fn.__name__!r} takes {len(raw)} argument(s), got {len(args)}",
            ) from None
        params: list[tuple[str, ParamType]] = []
        for k, ((name, ann, kind), arg) in enumerate(zip(raw, args, strict=True)):
            decl = self._param_decl(fsrc, fn.__name__, k, name, ann, kind)
            params.append((name, _param_type(decl, arg, fn.__name__, caller, arg_nodes[k])))
        key = (id(pyfunc), tuple(t for _, t in params))
        sig = self.sigs.get(key)
        if sig is not None:
            return sig
        spec = FuncSpec(
            fsrc,
            self.unique_name(mangle(fn.__name__, key[1]), key),
            fn.__name__,
            False,
            tuple(params),
            _declared_return(fsrc, pyfunc),
        )
        self.in_progress.append(pyfunc)
        try:
            func, weak = lower_function(self, spec)
        finally:
            self.in_progress.pop()
        self.functions.append(func)  # after its own callees: callees come first
        sig = DeviceSig(spec.ir_name, spec.params, func.return_type, weak)
        self.sigs[key] = sig
        return sig

    @staticmethod
    def _param_decl(
        fsrc: FnSource, fname: str, k: int, name: str, ann: object, kind: int
    ) -> ParamDecl:
        try:
            return resolve_param(fsrc.pyfunc, name, ann, kind)
        except AnnotationError as exc:
            args = fsrc.src.tree.args.args
            at: ast.AST = args[k] if k < len(args) else fsrc.src.tree
            raise fsrc.src.error(at, device_parameter_message(name, fname, str(exc))) from None


def _param_type(
    decl: ParamDecl, arg: Val | N.ArrayRef, fname: str, caller: SourceInfo, node: ast.expr
) -> ParamType:
    where = f"parameter {decl.name!r} of {fname!r}"
    if not decl.is_array:
        if isinstance(arg, N.ArrayRef):
            raise caller.error(
                node, f"{where} is a scalar ({decl.dtype}), got array {arg.name!r}"
            ) from None
        return decl.dtype
    if not isinstance(arg, N.ArrayRef):
        raise caller.error(node, f"{where} is an array, got a scalar") from None
    assert decl.access is not None
    at = arg.type
    if at.dtype != decl.dtype:
        raise caller.error(
            node, f"{where} expects Array[{decl.dtype}], got {arg.name!r} of {at.dtype}"
        ) from None
    if decl.access.writes and not at.access.writes:
        raise caller.error(
            node, borrow_pass_message(arg.name, at.access, decl.name, fname, decl.access)
        ) from None
    return dataclasses.replace(at, access=decl.access)


def _declared_return(fsrc: FnSource, pyfunc: Callable[..., Any]) -> object:
    try:
        ann = return_annotation(pyfunc)
    except AnnotationError as exc:
        raise fsrc.src.error(fsrc.src.tree, str(exc)) from None
    if ann is INFER or ann is _EMPTY:
        return INFER
    if ann is None or ann is type(None):
        return None
    t = scalar_of(ann)
    if t is None:
        at = fsrc.src.tree.returns or fsrc.src.tree
        raise fsrc.src.error(
            at, "a device function returns a scalar type (go.f32, int, ...) or nothing"
        ) from None
    return t


_EMPTY = inspect.Signature.empty


def _kernel_params(
    decls: tuple[ParamDecl, ...], arg_types: Sequence[ParamType], name: str
) -> tuple[tuple[str, ParamType], ...]:
    if len(arg_types) != len(decls):
        raise LaunchTypeError(f"{name} takes {len(decls)} argument(s), got {len(arg_types)}")
    out: list[tuple[str, ParamType]] = []
    for d, t in zip(decls, arg_types, strict=True):
        if d.is_array:
            if not isinstance(t, T.ArrayType) or t.dtype != d.dtype:
                raise LaunchTypeError(f"parameter {d.name!r} of {name} expects an array of "
                                      f"{d.dtype}, got {t}")  # fmt: skip
            assert d.access is not None
            t = dataclasses.replace(t, access=d.access, space=T.AddressSpace.GLOBAL,
                                    static_shape=None)  # fmt: skip
        elif t != d.dtype:
            raise LaunchTypeError(f"parameter {d.name!r} of {name} expects a {d.dtype} scalar, "
                                  f"got {t}")  # fmt: skip
        out.append((d.name, t))
    return tuple(out)


def lower_kernel(
    pyfunc: Callable[..., Any],
    arg_types: Sequence[ParamType],
    *,
    boundscheck: bool = True,
    fastmath: bool = False,
) -> N.Module:
    """Trace a kernel's source into an ``ir.Module`` specialised for ``arg_types``.

    ``arg_types`` has one ``ScalarType`` or ``ArrayType`` per parameter (arrays: dtype, ndim,
    contiguity; the access comes from the annotation). Raises ``CompileError`` at the user's
    line for anything outside the kernel subset and ``LaunchTypeError`` for a bad signature.
    """
    func = unwrap_function(pyfunc)
    decls = parse_signature(func)
    params = _kernel_params(decls, arg_types, func.__name__)
    ctx = ModuleBuilder(boundscheck, fastmath)
    fsrc = ctx.source(func)
    try:
        ret = return_annotation(func)
    except AnnotationError as exc:
        raise fsrc.src.error(fsrc.src.tree, str(exc)) from None
    if ret is not _EMPTY and ret is not None and ret is not type(None):
        at = fsrc.src.tree.returns or fsrc.src.tree
        raise fsrc.src.error(at, KERNEL_RETURN_ANNOTATION) from None
    ctx.names[func.__name__] = func
    spec = FuncSpec(fsrc, func.__name__, func.__name__, True, params, None)
    ctx.in_progress.append(func)
    try:
        kernel, _ = lower_function(ctx, spec)
        module = N.Module(kernel, tuple(ctx.functions), tuple(ctx.checks), boundscheck, fastmath)
        return check_barriers(module, fsrc.src)
    except CompileError as exc:
        raise exc.with_traceback(None) from None
