"""``lower_kernel``: one kernel specialised for one signature, with its device functions."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from gpuoff import lang
from gpuoff.errors import CompileError, LaunchTypeError
from gpuoff.frontend import generic, matrices, vectors
from gpuoff.frontend import typing_rules as R
from gpuoff.frontend.barriers import check_barriers
from gpuoff.frontend.base import (
    ARG_PREFIX,
    INFER,
    DeviceSig,
    FnSource,
    FuncSpec,
    RType,
    assigned_names,
    flat_results,
    result_shape,
)
from gpuoff.frontend.function import lower_function
from gpuoff.frontend.irutil import (
    Kinded,
    TupleShape,
    TupleVal,
    Val,
    Value,
    ViewShape,
    ViewVal,
    kind_of,
    shape_leaves,
)
from gpuoff.frontend.resolve import Env
from gpuoff.frontend.signature import (
    AnnotationError,
    ParamDecl,
    evaluate_annotation,
    parse_signature,
    raw_annotations,
    resolve_param,
    return_annotation,
    scalar_of,
    unwrap_function,
)
from gpuoff.frontend.source import SourceInfo, load_source
from gpuoff.frontend.views import view_leaves
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from gpuoff.ir.inline import inline_barrier_functions, reaches_barrier
from gpuoff.ownership import borrow_pass_message
from gpuoff.subset import KERNEL_RETURN_ANNOTATION, device_parameter_message, recursion_message

ParamType = T.ScalarType | T.ArrayType
CallArg = Value | N.ArrayRef | ViewVal | generic.ConstArg
"""An argument of a device-function call as ``specialize`` gets it."""


def _tag(t: ParamType) -> str:
    if isinstance(t, T.ScalarType):
        return t.name
    layout = "c" if t.contiguous else "a"
    space = {T.AddressSpace.SHARED: "s", T.AddressSpace.PRIVATE: "p"}.get(t.space, "")
    mode = "w" if t.access.writes else "r"
    return f"A{t.ndim}{t.dtype.name}{layout}{mode}{space}"


def mangle(name: str, params: Sequence[ParamType]) -> str:
    """The IR name of a device-function specialisation: ``helper__f32_f32``; an array is
    ``A<ndim><dtype>`` then ``c``/``a`` (contiguous or not), ``r``/``w`` (read-only or
    writable) and ``s`` for shared, ``p`` for private memory: ``row_sum__A2f32cr_i64``."""
    return f"{name}__" + "_".join(_tag(t) for t in params)


class ModuleBuilder:
    """Everything shared by the functions of one module: checks, device functions, caches
    (the ``base.ModuleContext`` the functions are lowered in)."""

    def __init__(self, boundscheck: bool, fastmath: bool) -> None:
        self.boundscheck = boundscheck
        self.fastmath = fastmath
        self.checks: list[N.BoundsCheck] = []
        self.functions: list[N.Function] = []
        self.sigs: dict[tuple[object, ...], DeviceSig] = {}
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
        source: str, shape: tuple[int, ...] | None = None, pairs: bool = False,
    ) -> int:  # fmt: skip
        """Register a bounds-checked access site; returns its 1-based id."""
        check_id = len(self.checks) + 1
        self.checks.append(N.BoundsCheck(check_id, function, array, ndim, filename, line, col,
                                         source, shape=shape, pairs=pairs))  # fmt: skip
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
        args: Sequence[CallArg],
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
        binding = self._call_binding(fn, raw, args, node, caller)
        with generic.bound(binding):
            return self._specialize(fn, fsrc, raw, args, arg_nodes, node, caller, binding)

    @staticmethod
    def _call_binding(fn: lang.DeviceFunction[Any, Any], raw: list[tuple[str, object, int]],
                      args: Sequence[CallArg], node: ast.Call,
                      caller: SourceInfo) -> dict[object, T.ScalarType]:  # fmt: skip
        """The dtype variables of one call of ``fn``: those its parameters name, bound from
        the arguments (``generic.bind_call``), over the caller's."""
        found: list[tuple[str, object, T.ScalarType, bool]] = []
        for (name, ann, _), arg in zip(raw, args, strict=True):
            v = generic.var_of(evaluate_annotation(fn.pyfunc, ann))
            if v is None:
                continue
            if isinstance(arg, ViewVal):
                found.append((name, v[0], arg.base.type.dtype, False))
            elif isinstance(arg, N.ArrayRef):
                found.append((name, v[0], arg.type.dtype, False))
            elif isinstance(arg, Val):
                found.append((name, v[0], arg.vtype.type, arg.weak))
        if not found:
            return dict(generic.current())
        binding, why = generic.bind_call(found, generic.current())
        if why is not None:
            raise caller.error(node, f"in this call of {fn.__name__!r}: {why}") from None
        return binding

    def _specialize(self, fn: lang.DeviceFunction[Any, Any], fsrc: FnSource,
                    raw: list[tuple[str, object, int]],
                    args: Sequence[CallArg], arg_nodes: Sequence[ast.expr],
                    node: ast.Call, caller: SourceInfo,
                    binding: Mapping[object, T.ScalarType]) -> DeviceSig:  # fmt: skip
        pyfunc = fn.pyfunc
        params: list[tuple[str, ParamType]] = []
        tuple_params: dict[str, TupleShape] = {}
        view_params: dict[str, ViewShape] = {}
        consts: dict[str, object] = {}
        for k, ((name, ann, kind), arg) in enumerate(zip(raw, args, strict=True)):
            where = f"parameter {name!r} of {fn.__name__!r}"
            if isinstance(arg, generic.ConstArg):
                consts[name] = arg.value
                continue
            if isinstance(arg, ViewVal):  # the base array, then the view's kept scalars
                decl = self._param_decl(fsrc, fn.__name__, k, name, ann, kind)
                base = _param_type(decl, arg.base, fn.__name__, caller, arg_nodes[k])
                view_params[name] = arg.structure
                params.append((ARG_PREFIX + name, base))
                params += [(leaf, T.INDEX)
                           for leaf in view_leaves(arg.structure, ARG_PREFIX + name)]
                continue
            evaluated = evaluate_annotation(pyfunc, ann)
            kinded = _kinded_annotation(evaluated)
            if kinded is not None:  # a complex number or a vector: one parameter per item
                shape, leaf_types, what = kinded
                if not (isinstance(arg, TupleVal) and arg.shape == shape):
                    raise caller.error(arg_nodes[k], f"{where} is {what}; pass one (a real "
                                       "x as complex(x, 0.0), a vector as go.vec3(...))") from None
                tuple_params[name] = shape
                names = shape_leaves(shape, ARG_PREFIX + name)
                params += list(zip(names, leaf_types, strict=True))
                continue
            tuple_ann = _tuple_annotation(evaluated)
            if tuple_ann is not None:
                leaves = _tuple_param(tuple_ann, arg, where, caller, arg_nodes[k])
                assert isinstance(arg, TupleVal)
                tuple_params[name] = arg.shape
                names = shape_leaves(arg.shape, ARG_PREFIX + name)
                params += list(zip(names, leaves, strict=True))
                continue
            if isinstance(arg, TupleVal):
                raise caller.error(arg_nodes[k], f"{where} is not a tuple, got a tuple of "
                                                 f"{len(arg.items)} values") from None
            decl = self._param_decl(fsrc, fn.__name__, k, name, ann, kind)
            params.append((name, _param_type(decl, arg, fn.__name__, caller, arg_nodes[k])))
        types = tuple(t for _, t in params)
        key = (id(pyfunc), tuple(params), tuple(view_params.items()),
               frozenset(binding.items()), tuple(consts.items()))  # fmt: skip
        sig = self.sigs.get(key)
        if sig is not None:
            return sig
        spec = FuncSpec(
            fsrc,
            self.unique_name(mangle(fn.__name__, types), key),
            fn.__name__,
            False,
            tuple(params),
            _declared_return(fsrc, pyfunc),
            tuple_params,
            view_params,
            consts,
        )
        assigned = sorted(set(consts) & fsrc.local_names)
        if assigned:
            raise fsrc.src.error(fsrc.src.tree, f"the body assigns to the go.Const parameter "
                                                f"{assigned[0]!r}; a compile-time parameter "
                                                "keeps its value")  # fmt: skip
        self.in_progress.append(pyfunc)
        try:
            func, weak, results = lower_function(self, spec)
        finally:
            self.in_progress.pop()
        self.functions.append(func)  # after its own callees: callees come first
        n_out = len(flat_results(results)) if results is not None else 0
        outs = tuple(p.type for p in func.params[len(func.params) - n_out:]) if n_out else ()
        barrier = spec.ir_name in reaches_barrier(N.Module(func, tuple(self.functions)))
        sig = DeviceSig(spec.ir_name, spec.params, func.return_type, weak, results,
                        outs, barrier)  # type: ignore[arg-type]
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


def _tuple_param(ann: tuple[object, ...], arg: Value | N.ArrayRef, where: str,
                 caller: SourceInfo, node: ast.expr) -> list[T.ScalarType]:  # fmt: skip
    """The scalar parameters a tuple argument becomes, one per item: of the annotation's
    types (``tuple[f32, f32]``, ``tuple[f32, ...]``) or, for a bare ``tuple``, the
    argument's own."""
    if not isinstance(arg, TupleVal):
        got = f"array {arg.name!r}" if isinstance(arg, N.ArrayRef) else "a number"
        raise caller.error(node, f"{where} is a tuple, got {got}") from None
    if not ann:
        return [v.vtype.type for v in arg.leaves()]
    if len(ann) == 2 and ann[1] is Ellipsis:
        ann = (ann[0],) * len(arg.items)
    want = _strong(ann)
    assert isinstance(want, tuple)
    if arg.shape != result_shape(want):
        raise caller.error(node, f"{where} is a tuple of {len(ann)} values, got one of "
                                 f"{len(arg.items)}") from None
    return [vt.type for vt in flat_results(want)]


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
    if _element_of(at) != decl.dtype:
        raise caller.error(
            node, f"{where} expects Array[{decl.dtype}], got {arg.name!r} of {_element_of(at)}"
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
    kinded = _kinded_annotation(ann)
    if kinded is not None:  # a complex number, a vector or a matrix: one out-value per item
        shape, leaf_types, _ = kinded
        return _shape_rtype(shape, iter(leaf_types))
    t = scalar_of(ann)
    if t is not None:
        return t
    result = _tuple_annotation(ann)
    if result is None or any(r is Ellipsis for r in result):
        at = fsrc.src.tree.returns or fsrc.src.tree
        raise fsrc.src.error(
            at, "a device function returns a scalar type (go.f32, int, ...), a tuple of "
                "them (tuple[go.f32, go.f32]) or nothing"
        ) from None  # fmt: skip
    return _strong(result)


def _shape_rtype(shape: TupleShape, types: Iterator[T.ScalarType]) -> RType:
    """The result type of ``shape`` whose scalars have ``types`` (depth first)."""
    items = tuple(R.VType(next(types)) if x is None else _shape_rtype(x, types) for x in shape)
    return Kinded(items, kind_of(shape)) if kind_of(shape) else items


def _kinded_annotation(ann: object) -> tuple[Kinded, list[T.ScalarType], str] | None:
    """(shape, item types, name) of a complex or vector annotation (``go.complex64``,
    ``go.vec3``); None for anything else."""
    vec = vectors.annotation(ann) or matrices.annotation(ann)
    if vec is not None:
        return (*vec, f"a go.{getattr(ann, '__name__', 'vector')}")
    t = scalar_of(ann)
    if t is not None and t.is_complex:
        return Kinded((None, None), "complex"), [t.component] * 2, t.name
    return None


def _tuple_annotation(ann: object) -> tuple[object, ...] | None:
    """``tuple[f32, tuple[i32, i32]]`` -> (f32, (i32, i32)); ``tuple[f32, ...]`` ->
    (f32, Ellipsis); bare ``tuple`` -> (); None when ``ann`` is not a tuple of scalars."""
    if ann is tuple or ann is typing.Tuple:  # noqa: UP006 - the user may write either
        return ()
    if typing.get_origin(ann) is not tuple:
        return None
    out: list[object] = []
    for a in typing.get_args(ann):
        t = scalar_of(a)
        inner = None if t is not None or a is Ellipsis else _tuple_annotation(a)
        if t is None and a is not Ellipsis and (inner is None or not inner):
            return None
        out.append(t if t is not None else Ellipsis if a is Ellipsis else inner)
    if Ellipsis in out and (len(out) != 2 or out[1] is not Ellipsis):
        return None
    return tuple(out)


def _strong(result: tuple[object, ...]) -> RType:
    return tuple(_strong(r) if isinstance(r, tuple) else R.VType(r)  # type: ignore[arg-type]
                 for r in result)  # fmt: skip


_EMPTY = inspect.Signature.empty


def _check_consts(func: Callable[..., Any], decls: tuple[ParamDecl, ...],
                  consts: Mapping[str, object]) -> None:  # fmt: skip
    """Every ``go.Const`` parameter has a value; a generic parameter is bound."""
    for d in decls:
        if d.const and d.name not in consts:
            raise LaunchTypeError(f"{func.__name__}: the go.Const parameter {d.name!r} has no "
                                  "value (a generic kernel is lowered per launch's values)")
        if d.var is not None:
            raise LaunchTypeError(f"{func.__name__}: the dtype variable of parameter "
                                  f"{d.name!r} is not bound (a generic kernel is lowered per "
                                  "binding)")  # fmt: skip


def _element_of(t: T.ArrayType) -> T.ScalarType:
    """An array's element type as declared: a complex array's is complex."""
    return T.complex64 if t.pairs and t.dtype == T.f32 else \
        T.complex128 if t.pairs else t.dtype  # fmt: skip


def _kernel_params(
    decls: tuple[ParamDecl, ...], arg_types: Sequence[ParamType], name: str
) -> tuple[tuple[str, ParamType], ...]:
    if len(arg_types) != len(decls):
        raise LaunchTypeError(f"{name} takes {len(decls)} argument(s), got {len(arg_types)}")
    out: list[tuple[str, ParamType]] = []
    for d, t in zip(decls, arg_types, strict=True):
        if d.is_array:
            if not isinstance(t, T.ArrayType) or _element_of(t) != d.dtype:
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


def _check_private(module: N.Module, ctx: ModuleBuilder) -> None:
    """One work-item's private arrays (its kernel's and every device function's: a bound of
    what one call chain holds) fit ``PRIVATE_BYTES_LIMIT``; else a ``CompileError`` at the
    largest declaration."""
    found = [(fn, pa) for fn in (module.kernel, *module.functions) for pa in fn.private]
    sizes = [_nbytes(pa.type) for _, pa in found]
    total = sum(sizes)
    if total <= T.PRIVATE_BYTES_LIMIT:
        return
    (fn, biggest), size = max(zip(found, sizes, strict=True), key=lambda p: p[1])
    src = next((f.src for f in ctx.sources.values()
                if (f.src.filename, f.src.firstlineno) == (fn.filename, fn.firstlineno)), None)
    text = (f"kernel {module.name!r} and its device functions hold {total} bytes of private "
            f"arrays per work-item ({biggest.name!r}: {size}); a work-item may hold at most "
            f"{T.PRIVATE_BYTES_LIMIT} (use a shared or a global array for more)")  # fmt: skip
    if src is not None and biggest.loc is not None:
        raise CompileError(text, src.location_at(biggest.loc))
    raise CompileError(text)


def _nbytes(at: T.ArrayType) -> int:
    size = at.dtype.itemsize
    for d in at.static_shape or ():
        size *= d
    return size


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
    return lower_specialised(pyfunc, arg_types, {}, {}, boundscheck=boundscheck,
                             fastmath=fastmath)  # fmt: skip


def lower_specialised(
    pyfunc: Callable[..., Any],
    arg_types: Sequence[ParamType],
    binding: Mapping[object, T.ScalarType],
    consts: Mapping[str, object],
    *,
    boundscheck: bool = True,
    fastmath: bool = False,
) -> N.Module:
    """``lower_kernel`` for one specialisation of a generic kernel: ``binding`` gives its
    dtype variables' dtypes, ``consts`` the values of its ``go.Const`` parameters (by name;
    they are no run-time parameters, so ``arg_types`` has none for them)."""
    with generic.bound(dict(binding)):
        return _lower_kernel(pyfunc, arg_types, boundscheck, fastmath, dict(consts))


def _lower_kernel(pyfunc: Callable[..., Any], arg_types: Sequence[ParamType], boundscheck: bool,
                  fastmath: bool, consts: dict[str, object]) -> N.Module:  # fmt: skip
    func = unwrap_function(pyfunc)
    decls = parse_signature(func)
    _check_consts(func, decls, consts)
    decls = tuple(d for d in decls if not d.const)
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
    assigned = sorted(set(consts) & fsrc.local_names)
    if assigned:
        raise fsrc.src.error(fsrc.src.tree, f"the body assigns to the go.Const parameter "
                                            f"{assigned[0]!r}; a compile-time parameter "
                                            "keeps its value")  # fmt: skip
    spec = FuncSpec(fsrc, func.__name__, func.__name__, True, params, None, consts=consts)
    ctx.in_progress.append(func)
    try:
        kernel, _, _ = lower_function(ctx, spec)
        module = N.Module(kernel, tuple(ctx.functions), tuple(ctx.checks), boundscheck, fastmath)
        module, origins = inline_barrier_functions(module)
        _check_private(module, ctx)
        return check_barriers(module, fsrc.src, origins)
    except CompileError as exc:
        raise exc.with_traceback(None) from None
