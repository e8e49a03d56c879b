"""Small vectors (``go.vec3``, Warp's names; ``gpuoff.lang_vec``): lowered to their components.

A vector value is a ``TupleVal`` of kind ``"vec"`` whose items are its components, all of one
type (like a tuple it never reaches the IR: a local is one IR local per component, a device
function takes one parameter per component). Arithmetic is element-wise, a scalar operand is
broadcast (evaluated once), each component promoted as the scalar operator would (NEP 50:
``vec3 * 2.0`` stays f32, ``vec3 * f64`` gives f64 components). ``go.dot`` adds the products
left to right; ``go.length`` is ``sqrt(dot(v, v))``; ``go.normalize`` divides by it and keeps
the zero vector (Warp's). Loads and stores go to the last axis of an array:
``go.vec3.load(a, i)`` reads ``a[i, 0:3]``, ``a[i] = v`` writes it, ``go.atomic_add(a, i, v)``
adds component-wise (one atomic per component, each returning its old value).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any, TypeGuard

from gpuoff import lang_vec
from gpuoff.frontend import complexes
from gpuoff.frontend.base import Lowerer
from gpuoff.frontend.irutil import Kinded, TupleVal, Val, Value, const
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T

KIND = "vec"
COMPONENTS = ("x", "y", "z", "w")


def is_vec(v: object) -> TypeGuard[TupleVal]:
    return isinstance(v, TupleVal) and v.kind == KIND


def components(v: TupleVal) -> list[Val]:
    out = [item for item in v.items if isinstance(item, Val)]
    assert len(out) == len(v.items)
    return out


def of_components(items: list[Val]) -> TupleVal:
    return TupleVal(tuple(items), KIND)


def vector_class(obj: object) -> type[lang_vec.Vector[Any]] | None:
    """``obj`` if it is one of the vector types (``go.vec3``), else None."""
    if isinstance(obj, type) and obj in lang_vec.VECTOR_TYPES:
        return obj
    return None


def element_type(cls: type[lang_vec.Vector[Any]]) -> T.ScalarType:
    return T.scalar_from_lang(cls.dtype)


def shape_of(cls: type[lang_vec.Vector[Any]]) -> Kinded:
    return Kinded((None,) * cls.length, KIND)


def constant(lw: Lowerer, value: lang_vec.Vector[Any], node: ast.AST) -> TupleVal:
    """A captured host vector: its components as constants of its type."""
    t = element_type(type(value))
    loc = lw.loc(node)
    return of_components([Val(const(c, t, loc)) for c in value._items])


def construct(lw: Lowerer, node: ast.Call, cls: type[lang_vec.Vector[Any]]) -> TupleVal:
    """``go.vec3(x, y, z)``, ``go.vec3(s)`` (every component ``s``), ``go.vec3(v)``
    (converts a vector of the same length)."""
    t, n = element_type(cls), cls.length
    name = f"go.{cls.__name__}"
    if node.keywords:
        lw.fail(node, f"{name}() takes its components as positional arguments")
    vals = [lw.value(a) for a in node.args]
    if len(vals) == 1 and is_vec(vals[0]):
        items = components(vals[0])
        if len(items) != n:
            lw.fail(node, f"{name}() of a vector of {len(items)} components")
    elif len(vals) == 1 and isinstance(vals[0], Val):
        items = [Val(complexes.share(lw, lw.coerce(vals[0], t, node), node))] * n
    elif len(vals) == n:
        items = []
        for v, a in zip(vals, node.args, strict=True):
            if not isinstance(v, Val):
                lw.fail(a, f"{name}() takes numbers as its components")
            items.append(v)
    else:
        lw.fail(node, f"{name}() takes {n} components (or one to fill them), got {len(vals)}")
    return of_components([Val(lw.coerce(v, t, node)) for v in items])


def _operand(lw: Lowerer, v: Value, n: int, node: ast.AST, side: str) -> list[Val]:
    if is_vec(v):
        items = components(v)
        if len(items) != n:
            lw.fail(node, f"the operands are vectors of {n} and {len(items)} components")
        return items
    if isinstance(v, TupleVal):
        what = "a complex number" if complexes.is_complex(v) else "a tuple"
        lw.fail(node, f"the {side} operand is {what}; vector arithmetic takes vectors and "
                      "numbers")  # fmt: skip
    return [Val(complexes.share(lw, v.expr, node), v.weak)] * n


def binop(lw: Lowerer, op: str, a: Value, b: Value, node: ast.AST) -> TupleVal:
    """``a op b`` with a vector operand: element-wise, a number broadcast."""
    from gpuoff.frontend.exprs import binop as scalar_binop

    n = len(a.items) if is_vec(a) else len(b.items)  # type: ignore[union-attr]
    xs, ys = _operand(lw, a, n, node, "left"), _operand(lw, b, n, node, "right")
    return of_components([scalar_binop(lw, op, x, y, node) for x, y in zip(xs, ys, strict=True)])


def negate(lw: Lowerer, v: TupleVal, node: ast.UnaryOp) -> TupleVal:
    from gpuoff.frontend.exprs import unary_value

    return of_components([unary_value(lw, node, c) for c in components(v)])


def attribute(lw: Lowerer, v: Value, attr: str, node: ast.AST) -> Val:
    """``v.x``, ``v.y``, ``v.z``, ``v.w``."""
    if not is_vec(v):
        lw.fail(node, f"only vectors have the component .{attr}")
    items = components(v)
    k = COMPONENTS.index(attr)
    if k >= len(items):
        lw.fail(node, f"a vector of {len(items)} components has no .{attr}")
    return items[k]


def _vectors(lw: Lowerer, node: ast.Call, name: str, count: int) -> list[list[Val]]:
    if len(node.args) != count:
        lw.fail(node, f"go.{name}() takes {count} vector{'s' * (count > 1)}")
    out: list[list[Val]] = []
    for a in node.args:
        v = lw.value(a)
        if not is_vec(v):
            lw.fail(a, f"go.{name}() takes vectors (go.vec3(...), go.vec3.load(a, i))")
        out.append([Val(complexes.share(lw, c.expr, node), c.weak) for c in components(v)])
    if count == 2 and len(out[0]) != len(out[1]):
        lw.fail(node, f"go.{name}() of vectors of {len(out[0])} and {len(out[1])} components")
    return out


def _dot(lw: Lowerer, node: ast.AST, a: list[Val], b: list[Val]) -> Val:
    from gpuoff.frontend.exprs import binop as scalar_binop

    acc = scalar_binop(lw, "mul", a[0], b[0], node)
    for x, y in zip(a[1:], b[1:], strict=True):
        acc = scalar_binop(lw, "add", acc, scalar_binop(lw, "mul", x, y, node), node)
    return acc


def _sqrt(lw: Lowerer, node: ast.AST, v: Val) -> Val:
    t = v.expr.type if v.expr.type.is_float else T.f64
    return Val(N.MathCall(t, "sqrt", (lw.coerce(v, t, node),), loc=lw.loc(node)), v.weak)


def call(lw: Lowerer, node: ast.Call, name: str) -> Value:
    """``go.dot``, ``go.cross``, ``go.length``, ``go.length_sq``, ``go.normalize``."""
    from gpuoff.frontend.exprs import binop as scalar_binop

    if name in ("dot", "cross"):
        a, b = _vectors(lw, node, name, 2)
        if name == "dot":
            return _dot(lw, node, a, b)
        if len(a) != 3:
            lw.fail(node, "go.cross() takes two vectors of 3 components")

        def term(i: int, j: int) -> Val:
            left = scalar_binop(lw, "mul", a[i], b[j], node)
            return scalar_binop(lw, "sub", left, scalar_binop(lw, "mul", a[j], b[i], node), node)

        return of_components([term(1, 2), term(2, 0), term(0, 1)])
    (v,) = _vectors(lw, node, name, 1)
    sq = _dot(lw, node, v, v)
    if name == "length_sq":
        return sq
    length = _sqrt(lw, node, sq)
    if name == "length":
        return length
    # normalize: v / |v|, the zero vector kept (Warp's)
    shared = Val(complexes.share(lw, length.expr, node), length.weak)
    t = shared.expr.type
    loc = lw.loc(node)
    positive = N.Compare(T.boolean, "gt", shared.expr, const(0, t, loc), loc=loc)
    safe = Val(N.Select(t, positive, shared.expr, const(1, t, loc), loc=loc), shared.weak)
    return of_components([scalar_binop(lw, "truediv", c, safe, node) for c in v])


# -- loads and stores from the last axis of an array -------------------------------------------


def is_row(array: N.ArrayRef, target: ast.Subscript) -> bool:
    """Whether ``array[...]`` (``target``) names a row of a real array: one index fewer than
    its dimensions, no slices."""
    elts = target.slice.elts if isinstance(target.slice, ast.Tuple) else [target.slice]
    return (not array.type.pairs and len(elts) == array.type.ndim - 1
            and not any(isinstance(e, ast.Slice) for e in elts))  # fmt: skip


def row_index(lw: Lowerer, node: ast.AST, array: N.ArrayRef, index: ast.expr,
              n: int, axes: int = 1, what: str = "") -> tuple[N.Expr, ...]:  # fmt: skip
    """The indices of the row ``array[index]`` (``axes`` fewer than its dimensions: 2 for
    a matrix, ``what`` its message's subject), each evaluated once."""
    from gpuoff.frontend import typing_rules as R

    elts = index.elts if isinstance(index, ast.Tuple) else [index]
    noun = "matrices" if axes == 2 else "vectors"
    if array.type.pairs:
        lw.fail(node, f"{array.name!r} holds complex numbers, not {noun}")
    want = array.type.ndim - axes
    if len(elts) != want:
        what = what or f"a vector of {n} is the last axis"
        lw.fail(node, f"{what} of {array.name!r}, which has {array.type.ndim} dimension(s): "
                      f"index it with {want} index(es), got {len(elts)}")  # fmt: skip
    out: list[N.Expr] = []
    for e in elts:
        if isinstance(e, ast.Slice):
            lw.fail(e, "a vector's row is indexed with integers, not slices" if axes == 1
                       else "a matrix in an array is indexed with integers, not slices")
        v = lw.expr(e)
        t: T.ScalarType = lw.rule(e, lambda: R.index(v.vtype))  # noqa: B023
        out.append(complexes.share(lw, lw.coerce(v, t, e), node))
    return tuple(out)


def load_at(lw: Lowerer, node: ast.AST, array: N.ArrayRef, idx: tuple[N.Expr, ...],
            n: int) -> TupleVal:  # fmt: skip
    """``array[idx, 0]``, ..., ``array[idx, n - 1]`` (each bounds-checked), of its type."""
    loc = lw.loc(node)
    out = []
    for k in range(n):
        check = lw.add_check(node, array)
        out.append(Val(N.Load(array.type.dtype, array, (*idx, const(k, T.INDEX, loc)), check,
                              loc=loc)))  # fmt: skip
    return of_components(out)


def load(lw: Lowerer, node: ast.Call, cls: type[lang_vec.Vector[Any]]) -> TupleVal:
    """``go.vec3.load(a, i)``: ``a[i, 0]``, ``a[i, 1]``, ``a[i, 2]`` as a ``go.vec3``."""
    from gpuoff.frontend.exprs import array_of

    name = f"go.{cls.__name__}.load"
    if len(node.args) != 2 or node.keywords:
        lw.fail(node, f"{name}() takes (array, index)")
    array = array_of(lw, node.args[0])
    if array is None:
        lw.fail(node.args[0], f"{name}() reads a row of an array (a parameter, a shared or a "
                              "private array)")  # fmt: skip
    idx = row_index(lw, node, array, node.args[1], cls.length)
    t = element_type(cls)
    row = load_at(lw, node, array, idx, cls.length)
    return of_components([Val(lw.coerce(c, t, node)) for c in components(row)])


def store(lw: Lowerer, target: ast.Subscript, array: N.ArrayRef, value: TupleVal) -> list[N.Stmt]:
    """``a[i] = v``: each component to ``a[i, k]``."""
    if not is_row(array, target):
        lw.fail(target, f"a vector is stored into a row of an array: {array.name}[i] of a 2-d "
                        f"{array.name!r} (one index fewer than its dimensions)")  # fmt: skip
    idx = row_index(lw, target, array, target.slice, len(value.items))
    return store_at(lw, target, array, idx, value)


def store_at(lw: Lowerer, target: ast.AST, array: N.ArrayRef, idx: tuple[N.Expr, ...],
             value: TupleVal, place: Callable[[int], tuple[int, ...]] = lambda k: (k,),
             ) -> list[N.Stmt]:  # fmt: skip
    """The components of ``value`` into ``array[idx, k]`` (``array[idx, *place(k)]``: a
    matrix's elements), all computed first."""
    loc = lw.loc(target)
    out: list[N.Stmt] = []
    held: list[N.Expr] = []
    for c in components(value):
        e = lw.coerce(c, array.type.dtype, target)
        if not isinstance(e, N.Const | N.Var):
            assign, e = lw.new_temp(e, target)
            out.append(assign)
        held.append(e)
    for k, e in enumerate(held):
        check = lw.add_check(target, array)
        at = tuple(const(p, T.INDEX, loc) for p in place(k))
        out.append(N.Store(array, (*idx, *at), e, check, loc=loc,
                           unsafe=lw.unsafe_depth > 0))  # fmt: skip
    return out


def atomic(lw: Lowerer, node: ast.Call, op: str, array: N.ArrayRef, index: ast.expr,
           value: TupleVal) -> TupleVal:  # fmt: skip
    """``go.atomic_add(a, i, v)`` with a vector ``v``: one atomic per component of the row
    ``a[i]`` (each atomic on its own; the old values as a vector)."""
    items = components(value)
    if op not in ("add", "sub", "min", "max", "exch"):
        lw.fail(node, f"go.atomic_{op}() takes numbers; with vectors: add, sub, min, max, exch")
    idx = row_index(lw, node, array, index, len(items))
    loc = lw.loc(node)
    dtype = array.type.dtype
    out: list[Val] = []
    for k, c in enumerate(items):
        check = lw.add_check(node, array)
        e = N.AtomicRMW(dtype, op, array, (*idx, const(k, T.INDEX, loc)),
                        lw.coerce(c, dtype, node), check, None, loc=loc)  # fmt: skip
        out.append(Val(e))
    return of_components(out)


def annotation(t: object) -> tuple[Kinded, list[T.ScalarType]] | None:
    """The shape and item types of a parameter or result annotated with a vector type."""
    cls = vector_class(t)
    if cls is None:
        return None
    return shape_of(cls), [element_type(cls)] * cls.length


def coerce_to(lw: Lowerer, value: Value, cls: type[lang_vec.Vector[Any]],
              node: ast.AST) -> TupleVal:  # fmt: skip
    """``value`` as a vector of type ``cls`` (a number is broadcast)."""
    t, n = element_type(cls), cls.length
    if is_vec(value):
        items = components(value)
        if len(items) != n:
            lw.fail(node, f"a vector of {len(items)} components where go.{cls.__name__} is "
                          "needed")  # fmt: skip
    elif isinstance(value, Val):
        items = [Val(complexes.share(lw, value.expr, node), value.weak)] * n
    else:
        lw.fail(node, f"a tuple where go.{cls.__name__} is needed")
    return of_components([Val(lw.coerce(c, t, node)) for c in items])

