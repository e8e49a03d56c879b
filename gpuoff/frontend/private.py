"""Private per-work-item arrays: ``b = go.local_array(shape, dtype)``, ``b = [x] * N`` and
``b = [a, b, c]`` in a kernel or device function.

Each is an IR ``PrivateArray`` of the function (a static shape, ``space=PRIVATE``), indexed
with run-time indices and bounds-checked like any array; the declaring statement stores every
element (zeros, the repeated value, the listed items), so nothing reads undefined memory and
a declaration inside a loop starts afresh each time, as Python's list would. A list's dtype is
the join (R9) of its items and of everything stored into it, as a local's type is: ``[0.0] *
4`` filled with f32 values is an f32 array. One work-item's private arrays (its kernel's and
every device function's) hold at most ``ir.types.PRIVATE_BYTES_LIMIT`` bytes.
"""

from __future__ import annotations

import ast

from gpuoff.frontend import typing_rules as R
from gpuoff.frontend.base import TEMP_PREFIX, Lowerer, PrivateInfo, private_type
from gpuoff.frontend.exprs import static, static_value
from gpuoff.frontend.irutil import Val, const
from gpuoff.frontend.signature import scalar_of
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T

UNROLLED_FILL = 64
"""Arrays up to this many elements are initialised by one store per element (SROA then keeps
them in registers); larger ones by a loop."""


def is_private_decl(lw: Lowerer, value: ast.expr) -> bool:
    """Whether ``value`` (the right side of ``name = value``) makes a private array."""
    if isinstance(value, ast.Call):
        res = static(lw, value.func)
        return res is not None and res.kind == "local_array"
    if isinstance(value, ast.List):
        return True
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
        return isinstance(value.left, ast.List) or isinstance(value.right, ast.List)
    return False


def private_decl(lw: Lowerer, target: ast.expr, value: ast.expr) -> list[N.Stmt]:
    """``target = value`` where ``value`` makes a private array: declare it, store every
    element."""
    if not isinstance(target, ast.Name):
        lw.fail(target, f"{ast.unparse(value)!r} makes an array; assign it to a single name")
    name = target.id
    if lw.tuple_shape(name) is not None or (name not in lw.arrays and lw.local_type(name)):
        lw.fail(target, f"{name!r} is already a variable; a private array needs its own name")
    if name in lw.arrays and name not in lw.prev.private and name not in lw.cur.private:
        lw.fail(target, f"cannot assign to {name!r}: it is an array")
    if isinstance(value, ast.Call):
        shape, elem, init = _local_array(lw, value), None, None
    elif isinstance(value, ast.List):
        shape, init = (len(value.elts),), [_item(lw, e) for e in value.elts]
        elem = _join(lw, value, [v.vtype for v in init])
    else:
        assert isinstance(value, ast.BinOp)
        shape, elem, init = _repeated(lw, value)
    if not shape[0]:
        lw.fail(value, "a private array needs at least one element")
    declared = elem is None
    vt = R.VType(_local_dtype(lw, value)) if declared else elem
    assert vt is not None
    return _declare(lw, name, target, value, PrivateInfo(shape, vt, declared), init)


def _local_array(lw: Lowerer, node: ast.Call) -> tuple[int, ...]:
    if node.keywords and not (len(node.keywords) == 1 and node.keywords[0].arg == "dtype"):
        lw.fail(node, "go.local_array takes (shape, dtype)")
    if len(node.args) + len(node.keywords) != 2:
        lw.fail(node, f"go.local_array takes (shape, dtype), got "
                      f"{len(node.args) + len(node.keywords)} argument(s)")  # fmt: skip
    shape = static_value(lw, node.args[0])
    if isinstance(shape, int) and not isinstance(shape, bool):
        shape = (shape,)
    if not (isinstance(shape, tuple) and shape and all(
        isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in shape
    )):
        lw.fail(node.args[0], "the shape of go.local_array must be a compile-time constant (a "
                              "positive int or a tuple of them)")  # fmt: skip
    return tuple(int(s) for s in shape)


def _local_dtype(lw: Lowerer, node: ast.expr) -> T.ScalarType:
    assert isinstance(node, ast.Call)
    dtype_node = node.args[1] if len(node.args) == 2 else node.keywords[0].value
    dtype = scalar_of(static_value(lw, dtype_node))
    if dtype is None:
        lw.fail(dtype_node, "the dtype of go.local_array must be a gpuoff scalar type (go.f32)")
    return dtype


def _item(lw: Lowerer, e: ast.expr) -> Val:
    if is_private_decl(lw, e):
        lw.fail(e, "a private array of lists: write go.local_array((rows, cols), go.f32) for "
                   "a 2-d one")  # fmt: skip
    return lw.expr(e)


def _join(lw: Lowerer, node: ast.AST, types: list[R.VType]) -> R.VType:
    out: R.VType | None = None
    for vt in types:
        out = lw.rule(node, lambda: R.join(out, vt, "an item of the list"))  # noqa: B023
    assert out is not None
    return out


def _repeated(lw: Lowerer, node: ast.BinOp) -> tuple[tuple[int, ...], R.VType, list[Val]]:
    lst, count_node = (node.left, node.right) if isinstance(node.left, ast.List) else (
        node.right, node.left)  # fmt: skip
    assert isinstance(lst, ast.List)
    count = static_value(lw, count_node)
    if isinstance(count, bool) or not isinstance(count, int):
        lw.fail(count_node, "the length of a private array ([x] * N) must be a compile-time "
                            "constant int")  # fmt: skip
    if count < 0:
        lw.fail(count_node, f"a private array cannot have {count} elements")
    items = [_item(lw, e) for e in lst.elts]
    if not items:
        lw.fail(lst, "[] * N is empty; a private array needs at least one element")
    return (len(items) * count,), _join(lw, node, [v.vtype for v in items]), items * count


def _declare(lw: Lowerer, name: str, target: ast.Name, value: ast.expr, info: PrivateInfo,
             init: list[Val] | None) -> list[N.Stmt]:  # fmt: skip
    old = lw.cur.private.get(name) or lw.prev.private.get(name)
    if old is not None and old.shape != info.shape:
        lw.fail(value, f"private array {name!r} has shape {old.shape} elsewhere and "
                       f"{info.shape} here")  # fmt: skip
    if old is not None and old.declared and info.declared and old.elem != info.elem:
        lw.fail(value, f"private array {name!r} has dtype {old.elem.type} elsewhere and "
                       f"{info.elem.type} here")  # fmt: skip
    nbytes = _size(info.shape) * info.elem.type.itemsize
    if nbytes > T.PRIVATE_BYTES_LIMIT:
        lw.fail(value, f"private array {name!r} takes {nbytes} bytes; a work-item may hold at "
                       f"most {T.PRIVATE_BYTES_LIMIT} bytes of private arrays (use a shared "
                       "or a global array for more)")  # fmt: skip
    lw.cur.private[name] = info if old is None else PrivateInfo(
        info.shape, info.elem if info.declared else R.join(old.elem, info.elem), info.declared)
    settled = lw.prev.private.get(name) if lw.final else None
    at = private_type(settled or lw.cur.private[name])
    loc = lw.loc(value)
    ref = N.ArrayRef(name, at, loc=loc)
    lw.arrays[name] = ref
    lw.private[name] = N.PrivateArray(name, at, loc=loc)
    lw.maybe_assigned.add(name)
    return fill(lw, ref, init, target)


def store_type(lw: Lowerer, ref: N.ArrayRef, value: Val, node: ast.AST) -> None:
    """A store into private list ``ref``: its dtype joins the stored value's (R9)."""
    info = lw.cur.private.get(ref.name) or lw.prev.private.get(ref.name)
    if info is None or info.declared:
        return
    joined = lw.rule(node, lambda: R.join(info.elem, value.vtype,
                                          f"an element of {ref.name!r}"))  # fmt: skip
    lw.cur.private[ref.name] = PrivateInfo(info.shape, joined, False)
    if not lw.final:  # later reads in this pass see the joined type (the final one is settled)
        lw.arrays[ref.name] = N.ArrayRef(ref.name, private_type(lw.cur.private[ref.name]))


def fill(lw: Lowerer, ref: N.ArrayRef, init: list[Val] | None, node: ast.AST) -> list[N.Stmt]:
    """Store every element of private array ``ref``: ``init`` in C order (each distinct item
    evaluated once, as Python evaluates ``[f(x)] * 4``), or zeros."""
    at = ref.type
    shape = at.static_shape or ()
    size = _size(shape)
    loc = lw.loc(node)
    out: list[N.Stmt] = []
    values: list[N.Expr] = []
    held: dict[int, N.Expr] = {}
    for v in init if init is not None else [Val(const(0, at.dtype, loc))]:
        if id(v) not in held:
            e = lw.coerce(v, at.dtype, node)
            if not isinstance(e, N.Const | N.Var):
                tmp_assign, e = lw.new_temp(e, node)
                out.append(tmp_assign)
            held[id(v)] = e
        values.append(held[id(v)])
    if size <= UNROLLED_FILL or len(held) > 1:
        for flat in range(size):
            at_k = tuple(const(k, T.INDEX, loc) for k in _unflatten(flat, shape))
            out.append(N.Store(ref, at_k, values[flat % len(values)], None, loc=loc))
        return out
    # One value (or zeros) into a large array: a loop over the flat index.
    var = f"{TEMP_PREFIX}{len(lw.temps)}"
    lw.temps[var] = T.INDEX
    k = N.Var(T.INDEX, var, loc=loc)
    idx: list[N.Expr] = [k] if len(shape) == 1 else [
        _div(k, _size(shape[d + 1:]), shape[d], loc) for d in range(len(shape))]
    store = N.Store(ref, tuple(idx), values[0], None, loc=loc)
    rng = (const(0, T.INDEX, loc), const(size, T.INDEX, loc), const(1, T.INDEX, loc))
    out.append(N.ForRange(var, *rng, (store,), loc=loc))
    return out


def _div(k: N.Expr, stride: int, extent: int, loc: N.Loc) -> N.Expr:
    """``(k // stride) % extent``: the index along one dimension of flat index ``k``."""
    q: N.Expr = k if stride == 1 else N.Binary(T.INDEX, "floordiv", k,
                                               const(stride, T.INDEX, loc), loc=loc)  # fmt: skip
    return N.Binary(T.INDEX, "mod", q, const(extent, T.INDEX, loc), loc=loc)


def _unflatten(flat: int, shape: tuple[int, ...]) -> list[int]:
    out: list[int] = []
    for d in range(len(shape) - 1, -1, -1):
        out.insert(0, flat % shape[d])
        flat //= shape[d]
    return out


def _size(shape: tuple[int, ...]) -> int:
    size = 1
    for s in shape:
        size *= s
    return size
