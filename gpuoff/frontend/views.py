"""Array views inside kernels: ``row = img[y]``, ``img[y, :]``, ``a[2:10]``, ``v[1:]``.

A subscript of an array with fewer indices than it has dimensions, or with a slice, is a view:
the same elements, with its own shape. Views never reach the IR: a ``ViewVal`` is its base
array (a parameter, a shared or a private array) and, per base dimension, a fixed index or a
window (start, length, constant positive step). An access through a view is an access of the
base at the translated indices, so the bounds checks, the race analysis and every backend see
the base array; an index outside a window narrower than its base dimension is moved out of the
base's range, so the base's check reports it (as the base's index). Slices follow Python's
rules (negative bounds count from the end, bounds are clamped to the dimension).

A local holding a view (``row = img[y]``) keeps one structure (the same base, the same fixed
dimensions and steps): its starts, lengths and indices are locals ``row.v0s`` ... evaluated at
the assignment, as Python evaluates ``img[y]`` once. A view passed to a device function's array
parameter takes the base array (with the parameter's ownership: a ``BorrowMut`` row of a
``BorrowMut`` array) and one i64 parameter per start, length and index (``view_leaves``).
"""

from __future__ import annotations

import ast

from gpuoff.frontend import typing_rules as R
from gpuoff.frontend.base import Lowerer
from gpuoff.frontend.exprs import array_of, shape_of, static_value
from gpuoff.frontend.irutil import Val, ViewDim, ViewShape, ViewVal, const, fold_binary
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T


def _i64(v: int, loc: N.Loc | None) -> N.Expr:
    return const(v, T.INDEX, loc)


def _bin(op: str, a: N.Expr, b: N.Expr, loc: N.Loc | None) -> N.Expr:
    def is_const(e: N.Expr, v: int) -> bool:
        return isinstance(e, N.Const) and e.value == v

    if op == "add" and is_const(a, 0):
        return b
    if op in ("add", "sub") and is_const(b, 0):
        return a
    if op == "mul" and is_const(b, 1):
        return a
    if op == "mul" and is_const(a, 1):
        return b
    return fold_binary(op, T.INDEX, a, b, loc) or N.Binary(T.INDEX, op, a, b, loc=loc)


def _pick(cond: N.Expr, a: N.Expr, b: N.Expr, loc: N.Loc | None) -> N.Expr:
    if isinstance(cond, N.Const):
        return a if cond.value else b
    return N.Select(T.INDEX, cond, a, b, loc=loc)


def _cmp(op: str, a: N.Expr, b: N.Expr, loc: N.Loc | None) -> N.Expr:
    if isinstance(a, N.Const) and isinstance(b, N.Const):
        value = {"lt": a.value < b.value, "le": a.value <= b.value}[op]
        return N.Const(T.boolean, bool(value), loc=loc)
    return N.Compare(T.boolean, op, a, b, loc=loc)


def _clamp(lw: Lowerer, e: N.Expr, n: N.Expr, loc: N.Loc | None) -> N.Expr:
    """A slice bound as Python takes it: negative counts from the end, then into [0, n]."""
    zero = _i64(0, loc)
    from_end = _bin("add", e, n, loc)
    low = _pick(_cmp("lt", from_end, zero, loc), zero, from_end, loc)
    high = _pick(_cmp("lt", n, e, loc), n, e, loc)
    return _pick(_cmp("lt", e, zero, loc), low, high, loc)


def whole(lw: Lowerer, array: N.ArrayRef, node: ast.AST) -> ViewVal:
    """``array`` as a view of itself."""
    loc = lw.loc(node)
    dims = tuple(ViewDim(None, _i64(0, loc), shape_of(lw, array, d, node).expr, 1, True)
                 for d in range(array.type.ndim))  # fmt: skip
    return ViewVal(array, dims)


def makes_view(lw: Lowerer, node: ast.expr) -> bool:
    """Whether ``node`` is a subscript of an array or a view that gives a view (decided from
    the structure alone: nothing is lowered)."""
    if not isinstance(node, ast.Subscript):
        return False
    count = _windows(lw, node.value)
    return count is not None and (any(isinstance(e, ast.Slice) for e in _elts(node))
                                  or len(_elts(node)) < count)  # fmt: skip


def _elts(node: ast.Subscript) -> list[ast.expr]:
    return list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]


def _windows(lw: Lowerer, node: ast.expr) -> int | None:
    """How many dimensions the array or view ``node`` has; None if it is neither."""
    if isinstance(node, ast.Name):
        found = lw.view(node.id)
        if found is not None:
            return sum(not fixed for fixed, _, _ in found[1])
        array = array_of(lw, node)
        if array is None or array.type.pairs:  # (a complex array makes no views)
            return None
        return array.type.ndim
    if makes_view(lw, node):
        assert isinstance(node, ast.Subscript)
        parent = _windows(lw, node.value)
        assert parent is not None
        return parent - sum(not isinstance(e, ast.Slice) for e in _elts(node))
    return None


def _parent(lw: Lowerer, node: ast.expr) -> ViewVal | None:
    if isinstance(node, ast.Name) and lw.view(node.id) is not None:
        return read_view(lw, node.id, node)
    array = array_of(lw, node)
    if array is not None:
        return whole(lw, array, node)
    if makes_view(lw, node):
        assert isinstance(node, ast.Subscript)
        return subscript_view(lw, node)
    return None


def view_of(lw: Lowerer, node: ast.expr) -> ViewVal | None:
    """The view ``node`` denotes (a view local or parameter, or a subscript making one)."""
    if isinstance(node, ast.Name):
        return read_view(lw, node.id, node) if lw.view(node.id) is not None else None
    if makes_view(lw, node):
        assert isinstance(node, ast.Subscript)
        return subscript_view(lw, node)
    return None


def subscript_view(lw: Lowerer, node: ast.Subscript) -> ViewVal:
    """The view ``parent[...]`` with slices or fewer indices than the parent has."""
    parent = _parent(lw, node.value)
    assert parent is not None
    elts = _elts(node)
    windows = parent.windows
    if len(elts) > len(windows):
        lw.fail(node, f"{ast.unparse(node.value)!r} has {len(windows)} dimension(s) but is "
                      f"indexed with {len(elts)} index(es)")  # fmt: skip
    elts += [ast.Slice()] * (len(windows) - len(elts))
    loc = lw.loc(node)
    picked: list[ViewDim] = []
    for w, e in zip(windows, elts, strict=True):
        assert w.start is not None and w.length is not None
        if isinstance(e, ast.Slice):
            picked.append(_window(lw, w, e, loc))
        else:
            k = _index(lw, e)
            if isinstance(k, N.Const) and int(k.value) < 0:
                k = _bin("add", w.length, k, loc)
            picked.append(ViewDim(index=_translate(lw, w, k, loc)))
    it = iter(picked)
    dims = tuple(d if d.index is not None else next(it) for d in parent.dims)
    return ViewVal(parent.base, dims)


def _index(lw: Lowerer, e: ast.expr) -> N.Expr:
    v = lw.expr(e)
    t: T.ScalarType = lw.rule(e, lambda: R.index(v.vtype))
    return lw.coerce(v, t, e)


def _window(lw: Lowerer, w: ViewDim, s: ast.Slice, loc: N.Loc | None) -> ViewDim:
    assert w.start is not None and w.length is not None
    step = 1
    if s.step is not None:
        k = static_value(lw, s.step)
        if isinstance(k, bool) or not isinstance(k, int) or k <= 0:
            lw.fail(s.step, "a view's step must be a positive compile-time constant integer")
        step = k
    n = w.length
    lo = _i64(0, loc) if s.lower is None else _clamp(lw, _index(lw, s.lower), n, loc)
    hi = n if s.upper is None else _clamp(lw, _index(lw, s.upper), n, loc)
    span = _bin("sub", hi, lo, loc)
    span = _pick(_cmp("lt", span, _i64(0, loc), loc), _i64(0, loc), span, loc)
    if step > 1:
        span = _bin("floordiv", _bin("add", span, _i64(step - 1, loc), loc), _i64(step, loc), loc)
    start = _bin("add", w.start, _bin("mul", lo, _i64(w.step, loc), loc), loc)
    same = w.whole and s.lower is None and s.upper is None and step == 1
    return ViewDim(None, start, n if same else span, w.step * step, same)


def _translate(lw: Lowerer, w: ViewDim, k: N.Expr, loc: N.Loc | None) -> N.Expr:
    """The base index of index ``k`` of window ``w`` (moved out of the base's range when
    ``k`` is outside a window narrower than the base dimension)."""
    assert w.start is not None and w.length is not None
    at = _bin("add", w.start, _bin("mul", k, _i64(w.step, loc), loc), loc)
    if w.whole or not lw.ctx.boundscheck:
        return at
    inside = N.Logical(T.boolean, "and", _cmp("le", _i64(0, loc), k, loc),
                       _cmp("lt", k, w.length, loc), loc=loc)  # fmt: skip
    if isinstance(inside.lhs, N.Const) and isinstance(inside.rhs, N.Const):
        return at if inside.lhs.value and inside.rhs.value else _i64(-1, loc)
    return N.Select(T.INDEX, inside, at, _i64(-1, loc), loc=loc)


def view_indices(lw: Lowerer, node: ast.Subscript, v: ViewVal) -> tuple[N.Expr, ...]:
    """The base indices of ``v[...]`` (one index per dimension of the view)."""
    elts = _elts(node)
    windows = v.windows
    if len(elts) != len(windows):
        lw.fail(node, f"{ast.unparse(node.value)!r} is a view of {len(windows)} dimension(s) "
                      f"but is indexed with {len(elts)} index(es)")  # fmt: skip
    loc = lw.loc(node)
    it = iter(elts)
    out: list[N.Expr] = []
    for d in v.dims:
        if d.index is not None:
            out.append(d.index)
            continue
        assert d.length is not None
        k = _index(lw, next(it))
        if isinstance(k, N.Const) and int(k.value) < 0:
            k = _bin("add", d.length, k, loc)
        out.append(_translate(lw, d, k, loc))
    return tuple(out)


def view_shape(lw: Lowerer, v: ViewVal, dim: int, node: ast.AST) -> Val:
    windows = v.windows
    if not -len(windows) <= dim < len(windows):
        lw.fail(node, f"the view has {len(windows)} dimension(s); shape[{dim}] is out of range")
    length = windows[dim].length
    assert length is not None
    return Val(length)


# -- view locals and parameters ----------------------------------------------------------------


def view_leaves(structure: ViewShape, prefix: str) -> list[str]:
    """The scalar names a view of ``structure`` keeps (``prefix.v0i``, ``prefix.v1s``, ...):
    each fixed index, and each start and length of a window narrower than its dimension."""
    out: list[str] = []
    for d, (fixed, _, is_whole) in enumerate(structure):
        if fixed:
            out.append(f"{prefix}.v{d}i")
        elif not is_whole:
            out += [f"{prefix}.v{d}s", f"{prefix}.v{d}n"]
    return out


def leaf_values(v: ViewVal) -> list[N.Expr]:
    """The values of ``view_leaves`` for ``v``, in order."""
    out: list[N.Expr] = []
    for d in v.dims:
        if d.index is not None:
            out.append(d.index)
        elif not d.whole:
            assert d.start is not None and d.length is not None
            out += [d.start, d.length]
    return out


def rebuild_view(lw: Lowerer, base: N.ArrayRef, structure: ViewShape, prefix: str,
                 node: ast.AST) -> ViewVal:  # fmt: skip
    """The view of ``structure`` over ``base`` whose kept scalars are the locals or
    parameters ``view_leaves(structure, prefix)``."""
    loc = lw.loc(node)
    names = iter(view_leaves(structure, prefix))
    dims: list[ViewDim] = []
    for d, (fixed, step, is_whole) in enumerate(structure):
        if fixed:
            dims.append(ViewDim(index=N.Var(T.INDEX, next(names), loc=loc)))
        elif is_whole:
            dims.append(ViewDim(None, _i64(0, loc), shape_of(lw, base, d, node).expr, 1, True))
        else:
            start = N.Var(T.INDEX, next(names), loc=loc)
            dims.append(ViewDim(None, start, N.Var(T.INDEX, next(names), loc=loc), step))
    return ViewVal(base, tuple(dims))


def assign_view(lw: Lowerer, name: str, v: ViewVal, node: ast.AST) -> list[N.Stmt]:
    """``name = <view>``: keep its scalars in locals; the structure stays the same."""
    if name in lw.spec.view_params:
        lw.fail(node, f"cannot assign to {name!r}: it is an array parameter")
    if name in lw.arrays or lw.tuple_shape(name) is not None or (
        lw.view(name) is None and lw.local_type(name) is not None
    ):
        lw.fail(node, f"{name!r} holds a value elsewhere; a view needs its own name")
    found = lw.view(name)
    old = found[:2] if found is not None else None
    here = (v.base.name, v.structure)
    if old is not None and old != here:
        lw.fail(node, f"{name!r} is a view of {old[0]!r} with another structure elsewhere; a "
                      "view variable keeps its array, its fixed dimensions and its steps")
    lw.cur.views[name] = here
    lw.maybe_assigned.add(name)
    out: list[N.Stmt] = []
    for leaf, value in zip(view_leaves(v.structure, name), leaf_values(v), strict=True):
        out.append(lw.assign_local(leaf, Val(value), node, item_of=name))
    return out


def read_view(lw: Lowerer, name: str, node: ast.AST) -> ViewVal:
    found = lw.view(name)
    assert found is not None
    base_name, structure, prefix = found
    if lw.final and name not in lw.maybe_assigned and name not in lw.spec.view_params:
        lw.fail(node, f"local variable {name!r} is used before it is assigned")
    base = lw.arrays[base_name]
    return rebuild_view(lw, N.ArrayRef(base.name, base.type, loc=lw.loc(node)), structure,
                        prefix, node)  # fmt: skip


def view_text(lw: Lowerer, node: ast.expr) -> str:
    """How a message names a view."""
    return f"{ast.unparse(node)!r} is a view (an array, not a number): index it, take its " \
        "len() or pass it to a device function"  # fmt: skip
