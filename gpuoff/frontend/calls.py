"""Call lowering: casts, builtins, work-item intrinsics, math, atomics, device functions.

What a call does depends on what the callee resolves to (by identity, never by name): ``call``
dispatches on ``resolve.Resolved.kind``. ``TABLE`` adds ``ast.Call`` to the walker's
expression table; statements reach ``call`` and ``shared_decl`` directly.
"""

from __future__ import annotations

import ast
import inspect
from typing import Any

from gpuoff import lang_mat, lang_vec
from gpuoff import subset as W
from gpuoff.frontend import complexes, matrices, vectors, views
from gpuoff.frontend import typing_rules as R
from gpuoff.frontend.base import (
    ARG_PREFIX,
    RESERVED_PREFIX,
    DeviceSig,
    ExprHandler,
    Lowerer,
    ValueHandler,
    flat_results,
    result_shape,
)
from gpuoff.frontend.exprs import (
    array_of,
    binop,
    constant,
    indices,
    shape_of,
    static,
    static_int,
    static_value,
)
from gpuoff.frontend.generic import ConstArg
from gpuoff.frontend.irutil import TupleVal, Val, Value, ViewVal, const, rebuild, truth
from gpuoff.frontend.resolve import (
    Resolved,
    describe,
    math_namespace,
    unsupported_math_message,
)
from gpuoff.frontend.signature import scalar_of
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from gpuoff.lang import DeviceFunction
from gpuoff.ownership import Access, alias_message, borrow_write_message, conflicts


class _Default:
    """A device-function parameter's default value, used when the call leaves it out."""

    def __init__(self, value: object) -> None:
        self.value = value


_CAST_BUILTINS = {"int": T.i64, "float": T.f64}
def _call(lw: Lowerer, node: ast.Call) -> Value:
    v = call(lw, node, as_stmt=False)
    assert v is not None
    return v


def call(lw: Lowerer, node: ast.Call, as_stmt: bool) -> Value | None:
    """Lower a call; ``None`` only for a device function returning nothing (``as_stmt``).
    A device function returning a tuple runs before the statement (``Lowerer.hoist``) and
    gives a tuple of loads from its out-arrays."""
    for a in node.args:
        if isinstance(a, ast.Starred):
            lw.fail(a, W.STARRED_ARGUMENTS)
    func = node.func
    if isinstance(func, ast.Attribute):
        array = array_of(lw, func.value)
        if array is not None:
            lw.fail(func, W.array_method_message(func.attr, array.name))
    res = static(lw, func)
    if res is None and isinstance(func, ast.Attribute) and func.attr == "load":
        owner = static(lw, func.value)  # go.vec3.load(a, i), go.mat33.load(a, i)
        cls = vectors.vector_class(owner.value) if owner is not None else None
        if cls is not None:
            return vectors.load(lw, node, cls)
        mcls = matrices.matrix_class(owner.value) if owner is not None else None
        if mcls is not None:
            return matrices.load(lw, node, mcls)
    if res is None and isinstance(func, ast.Attribute) and func.attr in ("conjugate", "conj"):
        _nargs(lw, node, 0, f".{func.attr}()")  # z.conjugate()
        return complexes.conjugate(lw, lw.value(func.value), node)
    if res is None:
        lw.fail(func, W.computed_call_message(ast.unparse(func)))
    kind = res.kind
    cls = vectors.vector_class(res.value)
    if cls is not None:
        return vectors.construct(lw, node, cls)
    if _hashable(res.value) and res.value in lang_vec.VECTOR_FUNCTIONS:
        return vectors.call(lw, node, lang_vec.VECTOR_FUNCTIONS[res.value])
    mcls = matrices.matrix_class(res.value)
    if mcls is not None:
        return matrices.construct(lw, node, mcls)
    if _hashable(res.value) and res.value in lang_mat.MATRIX_FUNCTIONS:
        return matrices.call(lw, node, lang_mat.MATRIX_FUNCTIONS[res.value])
    if complexes.is_complex_callee(res.value):
        if node.keywords:
            lw.fail(node, W.KEYWORD_ARGUMENTS)
        if res.value is complex:
            return complexes.construct(lw, node, None)
        name = complexes.CMATH[res.value]
        return complexes.math(lw, node, name, [lw.value(a) for a in node.args])
    if kind == "dtype" and res.dtype is not None and res.dtype.is_complex:
        return complexes.construct(lw, node, res.dtype)
    if kind == "math" and res.name in complexes.COMPLEX_MATH and len(node.args) == 1:
        return _maybe_complex_math(lw, node, res.name, res.float_result)
    if kind == "device":
        return _device_call(lw, node, res, as_stmt)
    if node.keywords:
        kw = node.keywords[0]
        lw.fail(kw.value if kw.arg else node, W.KEYWORD_ARGUMENTS)
    if kind == "dtype":
        assert res.dtype is not None
        return _cast(lw, node, res.dtype)
    if kind == "builtin":
        return _builtin(lw, node, res.name)
    if kind == "intrinsic":
        return _intrinsic(lw, node, res.name)
    if kind == "math":
        return math(lw, node, res.name, [lw.expr(a) for a in node.args], res.float_result)
    if kind == "atomic":
        return _atomic(lw, node, res.name)
    if kind == "barrier":
        lw.fail(node, "go.barrier() is a statement; it has no value")
    if kind == "shared":
        lw.fail(node, "go.shared(...) must be assigned directly to a variable: "
                      "s = go.shared(shape, dtype)")  # fmt: skip
    if kind == "unsafe":
        lw.fail(node, W.UNSAFE_ONLY_AS_BLOCK)
    math_home = math_namespace(res.value)
    if math_home is not None:
        lw.fail(func, unsupported_math_message(ast.unparse(func), math_home))
    if getattr(res.value, "pyfunc", None) is not None:
        lw.fail(func, W.KERNEL_CALL)
    lw.fail(func, W.call_message(describe(res.value)))


def _hashable(obj: object) -> bool:
    try:
        hash(obj)
    except TypeError:
        return False
    return True


def _nargs(lw: Lowerer, node: ast.Call, n: int, what: str) -> None:
    if len(node.args) != n:
        lw.fail(node, f"{what} takes {n} argument{'s' if n != 1 else ''}, "
                      f"got {len(node.args)}")  # fmt: skip


def _cast(lw: Lowerer, node: ast.Call, t: T.ScalarType) -> Val:
    _nargs(lw, node, 1, f"the cast to {t}")
    v = lw.expr(node.args[0])
    if t.is_bool:
        return Val(truth(v.expr))
    return Val(lw.coerce(v, t, node))


def _float_of_text(lw: Lowerer, arg: ast.Constant) -> Val:
    """``float("inf")``, ``float("nan")``, ``float("1e-3")``: a constant (a Python float, so
    weak), the usual way to write infinity and NaN without importing math."""
    assert isinstance(arg.value, str)
    try:
        value = float(arg.value)
    except ValueError:
        lw.fail(arg, W.float_text_message(arg.value))
    return constant(lw, value, arg)


def _builtin(lw: Lowerer, node: ast.Call, name: str) -> Val:
    if name == "float" and len(node.args) == 1:
        arg = node.args[0]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return _float_of_text(lw, arg)
    if name in _CAST_BUILTINS:
        return _cast(lw, node, _CAST_BUILTINS[name])
    if name == "bool":
        return _cast(lw, node, T.boolean)
    if name == "len":
        _nargs(lw, node, 1, "len()")
        array = array_of(lw, node.args[0])
        if array is not None:
            return shape_of(lw, array, 0, node)
        view = views.view_of(lw, node.args[0])
        if view is not None:
            return views.view_shape(lw, view, 0, node)
        v = lw.value(node.args[0])
        if not isinstance(v, TupleVal):
            lw.fail(node.args[0], "len() is only supported on arrays and tuples")
        return constant(lw, len(v.items), node)
    if name in ("min", "max", "sum") and len(node.args) in (1, 2) and not (
        name != "sum" and len(node.args) == 2
    ):
        over = lw.value(node.args[0])
        if isinstance(over, TupleVal):
            return _reduce(lw, node, name, over)
        if name == "sum":
            lw.fail(node.args[0], "sum() in kernels adds the items of a tuple")
    if name == "round":
        return _round(lw, node)
    if name == "abs":
        _nargs(lw, node, 1, "abs()")
        out = _maybe_complex_math(lw, node, "abs", False)  # abs(z) is real
        assert isinstance(out, Val)
        return out
    if name == "pow":
        _nargs(lw, node, 2, "pow()")  # pow(a, b) is a ** b (no three-argument form)
        return binop(lw, "pow", lw.expr(node.args[0]), lw.expr(node.args[1]), node)
    if name in ("min", "max"):
        if len(node.args) < 2:
            lw.fail(node, f"{name}() in kernels takes two or more numbers, or one tuple")
        args = [lw.expr(a) for a in node.args]
        acc = math(lw, node, name, args[:2], False)
        for extra in args[2:]:
            acc = math(lw, node, name, [acc, extra], False)
        return acc
    if name == "sum":
        lw.fail(node, "sum() in kernels adds the items of a tuple: sum(t) or sum(t, start)")
    lw.fail(node, f"{name}() can only be used as the iterable of a for loop")


def _reduce(lw: Lowerer, node: ast.Call, name: str, over: TupleVal) -> Val:
    """``min(t)``, ``max(t)``, ``sum(t)`` and ``sum(t, start)`` of a tuple, item by item."""
    items: list[Val] = []
    for item in over.items:
        if isinstance(item, TupleVal):
            lw.fail(node.args[0], f"{name}() of a tuple of tuples is not supported in kernels")
        items.append(item)
    if name == "sum":
        acc = lw.expr(node.args[1]) if len(node.args) == 2 else constant(lw, 0, node)
        for item in items:
            acc = binop(lw, "add", acc, item, node)
        return acc
    if not items:
        lw.fail(node.args[0], f"{name}() of an empty tuple")
    acc = items[0]
    for item in items[1:]:
        acc = math(lw, node, name, [acc, item], False)
    return acc


def _maybe_complex_math(lw: Lowerer, node: ast.Call, name: str, float_result: bool) -> Value:
    """A one-argument math function that complex numbers have too (``abs``, ``exp``...)."""
    v = lw.value(node.args[0])
    if complexes.is_complex(v):
        return complexes.math(lw, node, name, [v])
    if isinstance(v, TupleVal):
        lw.fail(node.args[0], f"{ast.unparse(node.args[0])!r} is a tuple of {len(v.items)} "
                              "values, used where a number is needed; index it (t[0]) or "
                              "unpack it (a, b = t)")  # fmt: skip
    return math(lw, node, name, [v], float_result)


def _round(lw: Lowerer, node: ast.Call) -> Val:
    """Python's ``round(x)``: the nearest integer, halves to even, as an int (i64, like
    ``int()``); an int stays as it is, a bool becomes an int. ``round(x, ndigits)`` is
    refused: kernels have no decimal rounding."""
    if len(node.args) != 1:
        lw.fail(node, "round() in kernels takes one argument (round(x), halves to even); "
                      "round(x, ndigits) is not supported")  # fmt: skip
    v = lw.expr(node.args[0])
    if v.vtype.type.is_int:
        return v
    if v.vtype.type.is_bool:
        return Val(lw.coerce(v, T.i64, node), v.weak)
    return Val(lw.coerce(math(lw, node, "rint", [v], False), T.i64, node), v.weak)


def _intrinsic(lw: Lowerer, node: ast.Call, name: str) -> Val:
    _nargs(lw, node, 1, f"go.{name}()")
    dim = static_int(lw, node.args[0], f"the dimension of go.{name}()")
    if not 0 <= dim <= 2:
        lw.fail(node.args[0], f"the dimension of go.{name}() must be 0, 1 or 2, got {dim}")
    return Val(N.WorkItem(T.INDEX, name, dim, loc=lw.loc(node)))


def math(lw: Lowerer, node: ast.Call, name: str, args: list[Val], float_result: bool) -> Val:
    """A math function call (R8); ``float_result`` forces a float (``math.fabs``)."""
    if float_result:
        args = [Val(lw.coerce(a, R.float_of(a.vtype).type, node), a.weak) for a in args]
    arg_t, res_t = lw.rule(node, lambda: R.math_call(name, [a.vtype for a in args]))
    cast_args = tuple(lw.coerce(a, arg_t.type, node) for a in args)
    return Val(N.MathCall(res_t.type, name, cast_args, loc=lw.loc(node)), res_t.weak)


def writable_array(lw: Lowerer, node: ast.expr, what: str) -> N.ArrayRef:
    """The array named by ``node``, which must allow writes (not a ``Borrow``)."""
    array = array_of(lw, node)
    if array is None:
        lw.fail(node, f"{what} needs an array, got {ast.unparse(node)!r}")
    if not array.type.access.writes:
        lw.fail(node, borrow_write_message(array.name))
    return array


def _atomic(lw: Lowerer, node: ast.Call, op: str) -> Value:
    """``go.atomic_<op>(array, index, value)``, ``go.atomic_cas(array, index, compare,
    value)``: operands in Python's order (R12)."""
    if op == "cas":
        _nargs(lw, node, 4, "go.atomic_cas() (array, index, compare, value)")
        arr_node, idx_node, cmp_node, val_node = node.args
    else:
        _nargs(lw, node, 3, f"go.atomic_{op}() (array, index, value)")
        arr_node, idx_node, val_node = node.args
        cmp_node = None
    view = views.view_of(lw, arr_node)
    if view is not None and not view.base.type.access.writes:
        lw.fail(arr_node, borrow_write_message(view.base.name))
    array = view.base if view is not None else writable_array(lw, arr_node, f"go.atomic_{op}()")
    if array.type.space is T.AddressSpace.PRIVATE:
        lw.fail(arr_node, f"go.atomic_{op}() works on global and shared arrays; "
                          f"{array.name!r} is a private array, which only this work-item "
                          "sees: update it with an ordinary assignment")  # fmt: skip
    lw.rule(node, lambda: R.atomic(op, array.type.dtype))
    raw = lw.value(val_node)
    if vectors.is_vec(raw) and view is None:  # go.atomic_add(f, i, v): one per component
        return vectors.atomic(lw, node, op, array, idx_node, raw)
    if matrices.is_mat(raw) and view is None:  # go.atomic_add(a, i, m): one per element
        return matrices.atomic(lw, node, op, array, idx_node, raw)
    if isinstance(raw, TupleVal):
        lw.fail(val_node, f"go.atomic_{op}() takes a number (or a vector or matrix, on a row "
                          "or the last two axes of an array)")  # fmt: skip
    fake = ast.Subscript(value=arr_node, slice=idx_node, ctx=ast.Load())
    ast.copy_location(fake, idx_node)
    idx = views.view_indices(lw, fake, view) if view is not None else indices(lw, fake, array)
    dtype = array.type.dtype
    compare = None if cmp_node is None else lw.coerce(lw.expr(cmp_node), dtype, cmp_node)
    value = lw.coerce(raw, dtype, val_node)
    check = lw.add_check(node, array)
    return Val(N.AtomicRMW(dtype, op, array, idx, value, check, compare,
                           loc=lw.loc(node)))  # fmt: skip


def _default(lw: Lowerer, value: object, node: ast.AST) -> Value:
    """A parameter's default value (a number, or a tuple of them)."""
    if isinstance(value, tuple):
        return TupleVal(tuple(_default(lw, v, node) for v in value))
    return constant(lw, value, node)


def _device_call(lw: Lowerer, node: ast.Call, res: Resolved, as_stmt: bool) -> Value | None:
    fn = res.value
    assert isinstance(fn, DeviceFunction)
    arg_nodes = _bind(lw, node, fn)
    args: list[Value | N.ArrayRef | ViewVal | ConstArg] = []
    consts = _const_params(fn)
    for k, a_node in enumerate(arg_nodes):
        if k in consts:  # a go.Const parameter: a compile-time value, no IR argument
            args.append(_const_arg(lw, a_node, node, fn, k))
            continue
        if isinstance(a_node, _Default):
            args.append(_default(lw, a_node.value, node))
            continue
        array = array_of(lw, a_node)
        view = views.view_of(lw, a_node) if array is None else None
        args.append(array if array is not None else view if view is not None
                    else lw.value(a_node))  # fmt: skip
    where = [n if isinstance(n, ast.expr) else node for n in arg_nodes]
    callee = lw.ctx.specialize(fn, args, where, node, lw.src)
    # A tuple argument is one IR argument per scalar item.
    flat: list[Val | N.ArrayRef] = []
    flat_where: list[ast.expr] = []
    for arg, at in zip(args, where, strict=True):
        items: list[Val | N.ArrayRef]
        if isinstance(arg, ConstArg):
            continue
        if isinstance(arg, TupleVal):
            items = list(arg.leaves())
        elif isinstance(arg, ViewVal):  # its base array, then the scalars it keeps
            items = [arg.base, *(Val(e) for e in views.leaf_values(arg))]
        else:
            items = [arg]
        flat += items
        flat_where += [at] * len(items)
    _check_aliasing(lw, fn.__name__, flat, flat_where, callee.params)
    ir_args: list[N.Expr | N.ArrayRef] = []
    for arg, arg_node, (pname, ptype) in zip(flat, flat_where, callee.params, strict=True):
        if isinstance(arg, N.ArrayRef):
            ir_args.append(arg)
        else:
            assert isinstance(ptype, T.ScalarType), pname
            ir_args.append(lw.coerce(arg, ptype, arg_node))
    if callee.results is not None:
        return _tuple_result(lw, node, callee, ir_args)
    if callee.return_type is None and not as_stmt:
        lw.fail(node, f"device function {fn.__name__!r} returns nothing; its call cannot "
                      "be used as a value")  # fmt: skip
    rtype = callee.return_type or T.boolean
    call = N.Call(rtype, callee.ir_name, tuple(ir_args), loc=lw.loc(node),
                  unsafe=lw.unsafe_depth > 0)  # fmt: skip
    if callee.has_barrier and not as_stmt:
        # A statement of its own (``ir.inline`` expands it), run before this one.
        tmp_assign, tmp = lw.new_temp(call, node)
        lw.hoist([tmp_assign], node, f"device function {fn.__name__!r}, which reaches a barrier,")
        return Val(tmp, callee.weak_return)
    return Val(call, callee.weak_return)


def _const_params(fn: DeviceFunction[Any, Any]) -> frozenset[int]:
    """The positions of ``fn``'s ``go.Const`` parameters."""
    from gpuoff.frontend.signature import evaluate_annotation, raw_annotations
    from gpuoff.lang_generic import const_kind

    return frozenset(k for k, (_, ann, _) in enumerate(raw_annotations(fn.pyfunc))
                     if const_kind(evaluate_annotation(fn.pyfunc, ann)) is not None)  # fmt: skip


def _const_arg(lw: Lowerer, a_node: ast.expr | _Default, node: ast.Call,
               fn: DeviceFunction[Any, Any], k: int) -> ConstArg:  # fmt: skip
    """The compile-time value given to ``fn``'s ``go.Const`` parameter ``k`` at this call."""
    if isinstance(a_node, _Default):
        return ConstArg(a_node.value)
    res = static(lw, a_node)
    if res is not None and res.kind == "device":
        return ConstArg(res.value)
    value = static_value(lw, a_node)
    if isinstance(value, bool | int | float):
        return ConstArg(value)
    name = list(inspect.signature(fn.pyfunc).parameters)[k]
    lw.fail(a_node, f"parameter {name!r} of {fn.__name__!r} is a go.Const: its argument is a "
                    "compile-time constant (a number, a go.Const parameter, or a @go.func)")


def _tuple_result(
    lw: Lowerer, node: ast.Call, callee: DeviceSig, ir_args: list[N.Expr | N.ArrayRef]
) -> TupleVal:
    """Call a device function that returns a tuple: each item comes back through a private
    one-element array of this call site (CUDA's ``float &call, float &put`` out-parameters,
    which LLVM keeps in registers once the call is inlined)."""
    assert callee.results is not None
    loc = lw.loc(node)
    outs: list[N.ArrayRef] = []
    for at in callee.out_params:
        name = f"{RESERVED_PREFIX}ret{lw.out_arrays}"
        lw.out_arrays += 1
        ref = N.ArrayRef(name, at, loc=loc)
        lw.private[name] = N.PrivateArray(name, at, loc=loc)
        lw.arrays[name] = ref
        outs.append(ref)
    call = N.Call(T.boolean, callee.ir_name, (*ir_args, *outs), loc=loc,
                  unsafe=lw.unsafe_depth > 0)  # fmt: skip
    lw.hoist([N.ExprStmt(call, loc=loc)], node)
    zero = (const(0, T.INDEX, loc),)
    leaves: list[Val] = []
    for ref, vt in zip(outs, flat_results(callee.results), strict=True):
        leaves.append(Val(N.Load(ref.type.dtype, ref, zero, None, loc=loc), vt.weak))
    return rebuild(result_shape(callee.results), leaves)



def _check_aliasing(
    lw: Lowerer,
    fname: str,
    args: list[Val | N.ArrayRef],
    where: list[ast.expr],
    params: tuple[tuple[str, T.ScalarType | T.ArrayType], ...],
) -> None:
    """A call passes one array to two parameters, one of them exclusive: the rule a launch
    enforces (``gpuoff.ownership``, rule 3) holds for device-function calls too."""
    seen: list[tuple[str, str, Access]] = []  # (array, parameter, access)
    for arg, at, (pname, ptype) in zip(args, where, params, strict=True):
        if not isinstance(arg, N.ArrayRef) or not isinstance(ptype, T.ArrayType):
            continue
        for array, first, access in seen:
            if array == arg.name and conflicts(access, ptype.access):
                msg = alias_message(fname, first, access, pname.removeprefix(ARG_PREFIX),
                                    ptype.access)  # fmt: skip
                lw.fail(at, f"{msg} (the caller passes {arg.name!r} to both)")
        seen.append((arg.name, pname.removeprefix(ARG_PREFIX), ptype.access))  # (a view's)


def _bind(lw: Lowerer, node: ast.Call, fn: DeviceFunction[Any, Any]) -> list[ast.expr | _Default]:
    """Match a call's positional and keyword arguments (and defaults) to parameters."""
    params = list(inspect.signature(fn.pyfunc).parameters.values())
    names = [p.name for p in params]
    if len(node.args) > len(params):
        lw.fail(node, f"device function {fn.__name__!r} takes {len(params)} argument(s), "
                      f"got {len(node.args)}")  # fmt: skip
    slots: list[ast.expr | _Default | None] = [*node.args]
    slots += [None] * (len(params) - len(slots))
    for kw in node.keywords:
        if kw.arg is None:
            lw.fail(kw.value, "**kwargs in a call is not supported in kernels")
        if kw.arg not in names:
            lw.fail(kw.value, f"{fn.__name__}() has no parameter {kw.arg!r}")
        k = names.index(kw.arg)
        if slots[k] is not None:
            lw.fail(kw.value, f"{fn.__name__}() got two values for {kw.arg!r}")
        slots[k] = kw.value
    out: list[ast.expr | _Default] = []
    for p, slot in zip(params, slots, strict=True):
        if slot is None:
            if p.default is inspect.Parameter.empty:
                lw.fail(node, f"{fn.__name__}() is missing the argument {p.name!r}")
            slot = _Default(p.default)
        out.append(slot)
    return out


def shared_decl(lw: Lowerer, target: ast.Name, node: ast.Call) -> N.SharedArray:
    """``target = go.shared(shape, dtype)`` in a kernel: a work-group local array."""
    if not lw.spec.is_kernel:
        lw.fail(node, "go.shared(...) can only be used in a kernel, not a device function")
    if len(node.args) == 1 and len(node.keywords) == 1 and node.keywords[0].arg == "dtype":
        shape_node, dtype_node = node.args[0], node.keywords[0].value
    else:
        if node.keywords:
            lw.fail(node, "go.shared takes (shape, dtype)")
        _nargs(lw, node, 2, "go.shared()")
        shape_node, dtype_node = node.args
    shape = static_value(lw, shape_node)
    if isinstance(shape, int) and not isinstance(shape, bool):
        shape = (shape,)
    if not (
        isinstance(shape, tuple)
        and shape
        and all(isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in shape)
    ):
        lw.fail(shape_node, "shape of go.shared must be a compile-time constant (a positive "
                            "int or a tuple of them)")  # fmt: skip
    dtype = scalar_of(static_value(lw, dtype_node))
    if dtype is None:
        lw.fail(dtype_node, "the dtype of go.shared must be a gpuoff scalar type (go.f32)")
    name = target.id
    if name in lw.arrays or is_local_scalar_assigned(lw, name):
        lw.fail(target, f"{name!r} is already a variable; a shared array needs its own name")
    dims = tuple(int(s) for s in shape)
    if dtype.is_complex:  # its parts on a last axis of 2 (ArrayType.pairs)
        atype = T.ArrayType(dtype.component, len(shape) + 1, True, T.AddressSpace.SHARED,
                            Access.BORROW_MUT, (*dims, 2), pairs=True)  # fmt: skip
    else:
        atype = T.ArrayType(dtype, len(shape), True, T.AddressSpace.SHARED, Access.BORROW_MUT,
                            dims)  # fmt: skip
    lw.arrays[name] = N.ArrayRef(name, atype)
    decl = N.SharedArray(name, atype, loc=lw.loc(node))
    lw.shared.append(decl)
    return decl


def is_local_scalar_assigned(lw: Lowerer, name: str) -> bool:
    return lw.local_type(name) is not None


TABLE: dict[type[ast.expr], ExprHandler] = {
    ast.Call: lambda lw, node: lw.expr(node),  # (VALUES has calls: they may give tuples)
}
"""The call construct, for the walker's expression table."""
VALUES: dict[type[ast.expr], ValueHandler] = {
    ast.Call: _call,
}
"""Calls may give tuples (a device function's result): ``Lowerer.VALUES``."""
