"""Small matrices (``go.mat33``, Warp's names; ``gpuoff.lang_mat``): lowered to their elements.

A matrix value is a ``TupleVal`` of kind ``"mat"`` whose items are its rows, each a vector
(``frontend.vectors``: a ``TupleVal`` of kind ``"vec"``), so ``m[i]`` is a row vector as it is
and ``m[i, j]`` one of its elements. Like a vector it never reaches the IR: a local is one IR
local per element, a device function takes one parameter per element. ``+``/``-`` are
element-wise between matrices of one shape, ``*`` and ``/`` take a number (broadcast,
evaluated once); each element is promoted as the scalar operator would (NEP 50). ``@`` is the
matrix product (``m @ n``, ``m @ v``, ``v @ m``; ``v @ w`` is ``go.dot``), each element a sum
of products left to right. ``go.determinant`` expands along the first row; ``go.inverse`` is
the adjugate times ``1 / det`` (no singularity check, as Warp's). Loads and stores go to the
last two axes of an array: ``go.mat33.load(a, i)`` reads ``a[i, 0:3, 0:3]``, ``a[i] = m``
writes it.
"""

from __future__ import annotations

import ast
from typing import Any, TypeGuard

from gpuoff import lang, lang_mat
from gpuoff.frontend import complexes, vectors
from gpuoff.frontend.base import Lowerer
from gpuoff.frontend.irutil import Kinded, TupleVal, Val, Value, const
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T

KIND = "mat"
MatrixClass = type[lang_mat.Matrix[Any, Any]]
Rows = list[list[Val]]


def is_mat(v: object) -> TypeGuard[TupleVal]:
    return isinstance(v, TupleVal) and v.kind == KIND


def rows_of(v: TupleVal) -> Rows:
    out = []
    for row in v.items:
        assert vectors.is_vec(row)
        out.append(vectors.components(row))
    return out


def of_rows(rows: Rows) -> TupleVal:
    return TupleVal(tuple(vectors.of_components(list(r)) for r in rows), KIND)


def matrix_class(obj: object) -> MatrixClass | None:
    """``obj`` if it is one of the matrix types (``go.mat33``), else None."""
    if isinstance(obj, type) and obj in lang_mat.MATRIX_TYPES:
        return obj
    return None


def element_type(cls: MatrixClass) -> T.ScalarType:
    return T.scalar_from_lang(cls.dtype)


def shape_of(cls: MatrixClass) -> Kinded:
    return Kinded((Kinded((None,) * cls.cols, vectors.KIND),) * cls.rows, KIND)


def _text(rows: Rows) -> str:
    return f"{len(rows)}x{len(rows[0])}"


def _shared(lw: Lowerer, rows: Rows, node: ast.AST) -> Rows:
    """Every element evaluated once (an algorithm below reads each more than once)."""
    return [[Val(complexes.share(lw, x.expr, node), x.weak) for x in r] for r in rows]


def _convert(lw: Lowerer, rows: Rows, t: T.ScalarType, node: ast.AST) -> TupleVal:
    return of_rows([[Val(lw.coerce(x, t, node)) for x in r] for r in rows])


def constant(lw: Lowerer, value: lang_mat.Matrix[Any, Any], node: ast.AST) -> TupleVal:
    """A captured host matrix: its elements as constants of its type."""
    t = element_type(type(value))
    loc = lw.loc(node)
    return of_rows([[Val(const(x, t, loc)) for x in r] for r in value._items])


def construct(lw: Lowerer, node: ast.Call, cls: MatrixClass) -> TupleVal:
    """``go.mat33()`` (zeros), ``go.mat33(s)`` (every element ``s``), nine numbers row by
    row, three row vectors of 3, or another 3x3 matrix (converted)."""
    r, c, t = cls.rows, cls.cols, element_type(cls)
    name = f"go.{cls.__name__}"
    if node.keywords:
        lw.fail(node, f"{name}() takes its elements as positional arguments")
    vals = [lw.value(a) for a in node.args]
    if not vals:
        vals = [Val(const(0, t, lw.loc(node)))]
    if len(vals) == 1 and is_mat(vals[0]):
        rows = rows_of(vals[0])
        if (len(rows), len(rows[0])) != (r, c):
            lw.fail(node, f"{name}() of a {_text(rows)} matrix")
        return _convert(lw, rows, t, node)
    if len(vals) == r and all(vectors.is_vec(v) for v in vals):
        return _from_rows(lw, node, vals, name, c, t)
    if len(vals) == 1 and isinstance(vals[0], Val):
        one = Val(complexes.share(lw, lw.coerce(vals[0], t, node), node))
        return of_rows([[one] * c for _ in range(r)])
    if len(vals) != r * c:
        lw.fail(node, f"{name}() takes {r * c} numbers row by row, {r} row vectors of {c}, "
                      f"one number to fill it, or nothing (zeros); got {len(vals)} "
                      "arguments")  # fmt: skip
    for v, a in zip(vals, node.args, strict=True):
        if not isinstance(v, Val):
            lw.fail(a, f"{name}() takes numbers (or {r} row vectors) as its elements")
    flat = [v for v in vals if isinstance(v, Val)]
    return _convert(lw, [flat[k * c:(k + 1) * c] for k in range(r)], t, node)


def _from_rows(lw: Lowerer, node: ast.AST, vals: list[Value], name: str, c: int,
               t: T.ScalarType | None) -> TupleVal:  # fmt: skip
    rows = [vectors.components(v) for v in vals if isinstance(v, TupleVal)]
    if any(len(x) != c for x in rows):
        lw.fail(node, f"{name}() takes row vectors of {c} components, got "
                      f"{', '.join(str(len(x)) for x in rows)}")  # fmt: skip
    if t is None:
        return of_rows(rows)
    return _convert(lw, rows, t, node)


# -- arithmetic --------------------------------------------------------------------------------


def binop(lw: Lowerer, op: str, a: Value, b: Value, node: ast.AST) -> TupleVal:
    """``a op b`` with a matrix operand: ``+``/``-`` element-wise between matrices of one
    shape, ``*``/``/`` by a number."""
    from gpuoff.frontend.exprs import binop as scalar_binop

    if op in ("add", "sub"):
        if not (is_mat(a) and is_mat(b)):
            lw.fail(node, "a matrix is added to or subtracted from a matrix of its shape "
                          "(a number is no matrix: write s * go.identity(3, go.f32))")
        ra, rb = rows_of(a), rows_of(b)
        if (len(ra), len(ra[0])) != (len(rb), len(rb[0])):
            lw.fail(node, f"the operands are {_text(ra)} and {_text(rb)} matrices")
        return of_rows([[scalar_binop(lw, op, x, y, node) for x, y in zip(p, q, strict=True)]
                        for p, q in zip(ra, rb, strict=True)])  # fmt: skip
    if op not in ("mul", "truediv"):
        lw.fail(node, "matrices take + and - (element-wise), * and / by a number, and @")
    if op == "mul" and not (isinstance(a, Val) or isinstance(b, Val)):
        lw.fail(node, "* between a matrix and a matrix or vector: write m @ n (or go.mul) "
                      "for the matrix product")  # fmt: skip
    if not isinstance(b, Val) and (op == "truediv" or not isinstance(a, Val)):
        lw.fail(node, "a matrix is divided by a number")
    scalar = a if isinstance(a, Val) else b
    assert isinstance(scalar, Val)
    s = Val(complexes.share(lw, scalar.expr, node), scalar.weak)
    m = rows_of(b if scalar is a else a)  # type: ignore[arg-type]
    if scalar is a:
        return of_rows([[scalar_binop(lw, op, s, x, node) for x in r] for r in m])
    return of_rows([[scalar_binop(lw, op, x, s, node) for x in r] for r in m])


def negate(lw: Lowerer, v: TupleVal, node: ast.UnaryOp) -> TupleVal:
    from gpuoff.frontend.exprs import unary_value

    return of_rows([[unary_value(lw, node, x) for x in r] for r in rows_of(v)])


def _sum_of_products(lw: Lowerer, node: ast.AST, xs: list[Val], ys: list[Val]) -> Val:
    from gpuoff.frontend.exprs import binop as scalar_binop

    acc = scalar_binop(lw, "mul", xs[0], ys[0], node)
    for x, y in zip(xs[1:], ys[1:], strict=True):
        acc = scalar_binop(lw, "add", acc, scalar_binop(lw, "mul", x, y, node), node)
    return acc


def _columns(rows: Rows) -> Rows:
    return [list(col) for col in zip(*rows, strict=True)]


def matmul(lw: Lowerer, a: Value, b: Value, node: ast.AST) -> Value:
    """``a @ b``: matrix @ matrix, matrix @ vector (a column), vector @ matrix (a row),
    vector @ vector (their dot product)."""
    what = {True: "a matrix", False: "a vector"}
    for side, v in (("left", a), ("right", b)):
        if not (is_mat(v) or vectors.is_vec(v)):
            got = "a number" if isinstance(v, Val) else "a tuple"
            lw.fail(node, f"the matrix multiplication operator @ takes matrices and vectors, "
                          f"and its {side} operand is {got} (scale by a number with *)")
    assert isinstance(a, TupleVal) and isinstance(b, TupleVal)
    ra = _shared(lw, rows_of(a) if is_mat(a) else [vectors.components(a)], node)
    rb = _shared(lw, rows_of(b) if is_mat(b) else [[x] for x in vectors.components(b)], node)
    if len(ra[0]) != len(rb):
        lw.fail(node, f"@ of {what[is_mat(a)]} of {_shape_text(a)} and {what[is_mat(b)]} of "
                      f"{_shape_text(b)}: the left's columns ({len(ra[0])}) must be the "
                      f"right's rows ({len(rb)})")  # fmt: skip
    cols = _columns(rb)
    out = [[_sum_of_products(lw, node, r, col) for col in cols] for r in ra]
    if is_mat(a) and is_mat(b):
        return of_rows(out)
    if is_mat(a):  # a column: one element per row
        return vectors.of_components([r[0] for r in out])
    if is_mat(b):
        return vectors.of_components(out[0])
    return out[0][0]


def _shape_text(v: TupleVal) -> str:
    return _text(rows_of(v)) if is_mat(v) else f"{len(v.items)} components"


# -- functions ---------------------------------------------------------------------------------


def _matrix_arg(lw: Lowerer, node: ast.Call, name: str, square: bool) -> Rows:
    if len(node.args) != 1 or node.keywords:
        lw.fail(node, f"go.{name}() takes one matrix")
    v = lw.value(node.args[0])
    if not is_mat(v):
        lw.fail(node.args[0], f"go.{name}() takes a matrix (go.mat33(...), go.mat33.load(a, i))")
    rows = rows_of(v)
    if square and len(rows) != len(rows[0]):
        lw.fail(node, f"go.{name}() takes a square matrix, got a {_text(rows)} one")
    return rows


def _vector_args(lw: Lowerer, node: ast.Call, name: str, count: int | None) -> Rows:
    if (count is not None and len(node.args) != count) or not node.args or node.keywords:
        lw.fail(node, f"go.{name}() takes {count or 'one or more'} vector{'s' * (count != 1)}")
    out: Rows = []
    for a in node.args:
        v = lw.value(a)
        if not vectors.is_vec(v):
            lw.fail(a, f"go.{name}() takes vectors (go.vec3(...), go.vec3.load(a, i))")
        out.append(vectors.components(v))
    return out


def _det(lw: Lowerer, node: ast.AST, rows: Rows) -> Val:
    """The determinant by cofactor expansion along the first row (elements shared)."""
    from gpuoff.frontend.exprs import binop as scalar_binop

    if len(rows) == 1:
        return rows[0][0]
    acc: Val | None = None
    for j, x in enumerate(rows[0]):
        term = scalar_binop(lw, "mul", x, _det(lw, node, _minor(rows, 0, j)), node)
        acc = term if acc is None else scalar_binop(lw, "sub" if j % 2 else "add", acc, term,
                                                    node)  # fmt: skip
    assert acc is not None
    return acc


def _minor(rows: Rows, i: int, j: int) -> Rows:
    return [[x for c, x in enumerate(r) if c != j] for k, r in enumerate(rows) if k != i]


def _negated(lw: Lowerer, node: ast.AST, v: Val) -> Val:
    t = v.expr.type
    if isinstance(v.expr, N.Const):
        return Val(const(-v.expr.value, t, lw.loc(node)), v.weak)
    return Val(N.Unary(t, "neg", v.expr, loc=lw.loc(node)), v.weak)


def _inverse(lw: Lowerer, node: ast.Call, rows: Rows) -> TupleVal:
    """The adjugate (transposed cofactors) times ``1 / det`` (det from the first row's
    cofactors, which the adjugate needs anyway)."""
    from gpuoff.frontend.exprs import binop as scalar_binop

    n = len(rows)
    if not all(x.expr.type.is_float for r in rows for x in r):
        lw.fail(node, "go.inverse() takes a matrix of floats (convert it: go.mat33(m))")
    if n == 1:
        cof = [[Val(const(1, rows[0][0].expr.type, lw.loc(node)), True)]]
    else:
        cof = [[_det(lw, node, _minor(rows, i, j)) for j in range(n)] for i in range(n)]
        signed = [[_negated(lw, node, c) if (i + j) % 2 else c for j, c in enumerate(r)]
                  for i, r in enumerate(cof)]  # fmt: skip
        cof = _shared(lw, signed, node)
    det = _sum_of_products(lw, node, rows[0], cof[0])
    one = Val(const(1, T.i64, lw.loc(node)), True)
    inv = scalar_binop(lw, "truediv", one, det, node)
    inv = Val(complexes.share(lw, inv.expr, node), inv.weak)
    return of_rows([[scalar_binop(lw, "mul", cof[j][i], inv, node) for j in range(n)]
                    for i in range(n)])  # fmt: skip


def _identity(lw: Lowerer, node: ast.Call) -> TupleVal:
    from gpuoff.frontend.exprs import static_int, static_value

    if not 1 <= len(node.args) <= 2 or node.keywords:
        lw.fail(node, "go.identity() takes (n, dtype): go.identity(3, go.f32)")
    n = static_int(lw, node.args[0], "go.identity()'s size")
    dtype = static_value(lw, node.args[1]) if len(node.args) == 2 else lang.f32
    try:
        cls = lang_mat.mat(n, n, dtype)
    except (TypeError, ValueError) as exc:
        lw.fail(node, f"go.identity(): {exc}")
    return constant(lw, lang_mat.identity(n, cls.dtype), node)


def call(lw: Lowerer, node: ast.Call, name: str) -> Value:
    """``go.transpose``, ``determinant``, ``inverse``, ``trace``, ``outer``, ``diag``,
    ``identity``, ``matrix_from_rows``/``cols`` and ``mul``."""
    from gpuoff.frontend.exprs import binop as scalar_binop

    if name == "identity":
        return _identity(lw, node)
    if name == "mul":
        if len(node.args) != 2 or node.keywords:
            lw.fail(node, "go.mul() takes two operands")
        a, b = lw.value(node.args[0]), lw.value(node.args[1])
        if isinstance(a, Val) or isinstance(b, Val):
            return binop(lw, "mul", a, b, node)
        return matmul(lw, a, b, node)
    if name in ("transpose", "determinant", "inverse", "trace"):
        rows = _matrix_arg(lw, node, name, square=name != "transpose")
        if name == "transpose":
            return of_rows(_columns(rows))
        rows = _shared(lw, rows, node)
        if name == "inverse":
            return _inverse(lw, node, rows)
        if name == "determinant":
            return _det(lw, node, rows)
        acc = rows[0][0]
        for k in range(1, len(rows)):
            acc = scalar_binop(lw, "add", acc, rows[k][k], node)
        return acc
    if name in ("matrix_from_rows", "matrix_from_cols"):
        vs = _vector_args(lw, node, name, None)
        if not 2 <= len(vs) <= 4 or any(len(v) != len(vs[0]) for v in vs):
            lw.fail(node, f"go.{name}() takes 2 to 4 vectors of one length")
        return of_rows(vs if name == "matrix_from_rows" else _columns(vs))
    if name == "outer":
        xs, ys = _shared(lw, _vector_args(lw, node, name, 2), node)
        return of_rows([[scalar_binop(lw, "mul", x, y, node) for y in ys] for x in xs])
    (v,) = _vector_args(lw, node, name, 1)  # diag
    zero = Val(const(0, v[0].expr.type, lw.loc(node)))
    return of_rows([[x if i == j else zero for j in range(len(v))] for i, x in enumerate(v)])


# -- indexing, loads and stores ----------------------------------------------------------------


def element_index(lw: Lowerer, index: ast.Tuple, node: ast.AST) -> tuple[ast.expr, ast.expr]:
    """The row and column of ``m[i, j]`` (``tuples`` indexes the row, then the element; a
    row ``m[i]`` is a tuple's item as it is)."""
    if len(index.elts) != 2 or any(isinstance(e, ast.Slice) for e in index.elts):
        lw.fail(node, "a matrix is indexed m[i, j] (an element) or m[i] (a row), with "
                      "constant integers")  # fmt: skip
    return index.elts[0], index.elts[1]


def is_block(array: N.ArrayRef, target: ast.Subscript) -> bool:
    """Whether ``array[...]`` names a matrix of a real array: two indices fewer than its
    dimensions, no slices."""
    elts = target.slice.elts if isinstance(target.slice, ast.Tuple) else [target.slice]
    return (not array.type.pairs and len(elts) == array.type.ndim - 2
            and not any(isinstance(e, ast.Slice) for e in elts))  # fmt: skip


def block_index(lw: Lowerer, node: ast.AST, array: N.ArrayRef, index: ast.expr,
                shape: tuple[int, int]) -> tuple[N.Expr, ...]:  # fmt: skip
    """The indices of the matrix ``array[index]`` (two fewer than its dimensions), each
    evaluated once."""
    what = f"a {shape[0]}x{shape[1]} matrix is the last two axes"
    return vectors.row_index(lw, node, array, index, 0, axes=2, what=what)


def load_at(lw: Lowerer, node: ast.AST, array: N.ArrayRef, idx: tuple[N.Expr, ...],
            shape: tuple[int, int]) -> TupleVal:  # fmt: skip
    """``array[idx, i, j]`` for every element (each bounds-checked), of its type."""
    loc = lw.loc(node)
    rows: Rows = []
    for i in range(shape[0]):
        rows.append([])
        for j in range(shape[1]):
            check = lw.add_check(node, array)
            at = (*idx, const(i, T.INDEX, loc), const(j, T.INDEX, loc))
            rows[-1].append(Val(N.Load(array.type.dtype, array, at, check, loc=loc)))
    return of_rows(rows)


def load(lw: Lowerer, node: ast.Call, cls: MatrixClass) -> TupleVal:
    """``go.mat33.load(a, i)``: ``a[i, 0:3, 0:3]`` as a ``go.mat33``."""
    from gpuoff.frontend.exprs import array_of

    name = f"go.{cls.__name__}.load"
    if len(node.args) != 2 or node.keywords:
        lw.fail(node, f"{name}() takes (array, index)")
    array = array_of(lw, node.args[0])
    if array is None:
        lw.fail(node.args[0], f"{name}() reads a matrix of an array (a parameter, a shared or "
                              "a private array)")  # fmt: skip
    shape = (cls.rows, cls.cols)
    idx = block_index(lw, node, array, node.args[1], shape)
    return _convert(lw, rows_of(load_at(lw, node, array, idx, shape)), element_type(cls), node)


def store(lw: Lowerer, target: ast.Subscript, array: N.ArrayRef, value: TupleVal) -> list[N.Stmt]:
    """``a[i] = m``: each element to ``a[i, r, c]`` (all computed first)."""
    rows = rows_of(value)
    if not is_block(array, target):
        lw.fail(target, f"a matrix is stored into the last two axes of an array: "
                        f"{array.name}[i] of a 3-d {array.name!r} (two indices fewer than its "
                        "dimensions)")  # fmt: skip
    idx = block_index(lw, target, array, target.slice, (len(rows), len(rows[0])))
    return store_at(lw, target, array, idx, value)


def store_at(lw: Lowerer, target: ast.AST, array: N.ArrayRef, idx: tuple[N.Expr, ...],
             value: TupleVal) -> list[N.Stmt]:  # fmt: skip
    """The elements of ``value`` into ``array[idx, r, c]`` (all computed first)."""
    rows = rows_of(value)
    flat = vectors.of_components([x for r in rows for x in r])
    c = len(rows[0])
    return vectors.store_at(lw, target, array, idx, flat, lambda k: (k // c, k % c))


def atomic(lw: Lowerer, node: ast.Call, op: str, array: N.ArrayRef, index: ast.expr,
           value: TupleVal) -> TupleVal:  # fmt: skip
    """``go.atomic_add(a, i, m)``: one atomic per element of ``a[i]`` (the old values as a
    matrix)."""
    rows = rows_of(value)
    if op not in ("add", "sub", "min", "max", "exch"):
        lw.fail(node, f"go.atomic_{op}() takes numbers; with matrices: add, sub, min, max, exch")
    idx = block_index(lw, node, array, index, (len(rows), len(rows[0])))
    loc = lw.loc(node)
    dtype = array.type.dtype
    out: Rows = []
    for i, r in enumerate(rows):
        out.append([])
        for j, x in enumerate(r):
            check = lw.add_check(node, array)
            at = (*idx, const(i, T.INDEX, loc), const(j, T.INDEX, loc))
            e = N.AtomicRMW(dtype, op, array, at, lw.coerce(x, dtype, node), check, None, loc=loc)
            out[-1].append(Val(e))
    return of_rows(out)


def annotation(t: object) -> tuple[Kinded, list[T.ScalarType]] | None:
    """The shape and element types of a parameter or result annotated with a matrix type."""
    cls = matrix_class(t)
    if cls is None:
        return None
    return shape_of(cls), [element_type(cls)] * (cls.rows * cls.cols)


def coerce_to(lw: Lowerer, value: Value, cls: MatrixClass, node: ast.AST) -> TupleVal:
    """``value`` as a matrix of type ``cls`` (of its shape; elements converted)."""
    if not is_mat(value):
        lw.fail(node, f"{'a number' if isinstance(value, Val) else 'a tuple or vector'} where "
                      f"go.{cls.__name__} is needed")  # fmt: skip
    rows = rows_of(value)
    if (len(rows), len(rows[0])) != (cls.rows, cls.cols):
        lw.fail(node, f"a {_text(rows)} matrix where go.{cls.__name__} is needed")
    return _convert(lw, rows, element_type(cls), node)
