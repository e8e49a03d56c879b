"""Terse constructors for hand-built IR in tests (no front end needed)."""

from __future__ import annotations

from collections.abc import Mapping

from gpuoff.ir import nodes as n
from gpuoff.ir.types import (
    INDEX,
    AddressSpace,
    ArrayType,
    ScalarType,
    boolean,
    f32,
    f64,
    i32,
    i64,
    u8,
    u32,
)
from gpuoff.ownership import Access

__all__ = ["INDEX", "boolean", "f32", "f64", "i32", "i64", "u8", "u32"]

Operand = n.Expr | int | float | bool


def L(line: int, col: int = 4) -> n.Loc:  # noqa: N802 - reads like a tag in tests
    return n.Loc(line, col)


def arr(
    dtype: ScalarType, ndim: int = 1, access: Access = Access.BORROW, contiguous: bool = True
) -> ArrayType:
    return ArrayType(dtype, ndim, contiguous=contiguous, access=access)


def mut(dtype: ScalarType, ndim: int = 1, contiguous: bool = True) -> ArrayType:
    return arr(dtype, ndim, Access.BORROW_MUT, contiguous)


def shared_t(dtype: ScalarType, *shape: int) -> ArrayType:
    return ArrayType(
        dtype, len(shape), space=AddressSpace.SHARED, access=Access.BORROW_MUT, static_shape=shape
    )


def c(value: int | float | bool, t: ScalarType | None = None) -> n.Const:
    if t is None:
        t = boolean if isinstance(value, bool) else (i64 if isinstance(value, int) else f32)
    return n.Const(t, value)


def ex(v: Operand, t: ScalarType | None = None) -> n.Expr:
    return v if isinstance(v, n.Expr) else c(v, t)


def var(name: str, t: ScalarType = i64) -> n.Var:
    return n.Var(t, name)


def ref(name: str, t: ArrayType) -> n.ArrayRef:
    return n.ArrayRef(name, t)


def bin_(op: str, a: Operand, b: Operand) -> n.Binary:
    lhs = ex(a, b.type if isinstance(b, n.Expr) else None)
    rhs = ex(b, lhs.type)
    return n.Binary(lhs.type, op, lhs, rhs)


def cmp(op: str, a: Operand, b: Operand) -> n.Compare:
    lhs = ex(a, b.type if isinstance(b, n.Expr) else None)
    return n.Compare(boolean, op, lhs, ex(b, lhs.type))


def lt(a: Operand, b: Operand) -> n.Compare:
    return cmp("lt", a, b)


def ge(a: Operand, b: Operand) -> n.Compare:
    return cmp("ge", a, b)


def and_(a: n.Expr, b: n.Expr) -> n.Logical:
    return n.Logical(boolean, "and", a, b)


def or_(a: n.Expr, b: n.Expr) -> n.Logical:
    return n.Logical(boolean, "or", a, b)


def not_(a: n.Expr) -> n.Unary:
    return n.Unary(boolean, "not", a)


def cast(t: ScalarType, v: n.Expr) -> n.Cast:
    return n.Cast(t, v)


def gid(d: int = 0) -> n.WorkItem:
    return n.WorkItem(INDEX, "global_id", d)


def wi(name: str, d: int = 0) -> n.WorkItem:
    return n.WorkItem(INDEX, name, d)


def shape(a: n.ArrayRef, d: int = 0) -> n.ShapeOf:
    return n.ShapeOf(INDEX, a, d)


def load(a: n.ArrayRef, *idx: Operand, check: int | None = None) -> n.Load:
    return n.Load(a.type.dtype, a, tuple(ex(i, INDEX) for i in idx), check)


def store(a: n.ArrayRef, idx: Operand | tuple[Operand, ...], value: Operand,
          check: int | None = None, loc: n.Loc | None = None) -> n.Store:  # fmt: skip
    ix = idx if isinstance(idx, tuple) else (idx,)
    return n.Store(a, tuple(ex(i, INDEX) for i in ix), ex(value, a.type.dtype), check, loc=loc)


def atomic(op: str, a: n.ArrayRef, idx: Operand, value: Operand,
           check: int | None = None) -> n.AtomicRMW:  # fmt: skip
    t = a.type.dtype
    return n.AtomicRMW(t, op, a, (ex(idx, INDEX),), ex(value, t), check)


def math(name: str, *args: n.Expr, t: ScalarType | None = None) -> n.MathCall:
    return n.MathCall(t or args[0].type, name, tuple(args))


def assign(target: str, value: n.Expr, loc: n.Loc | None = None) -> n.Assign:
    return n.Assign(target, value, loc=loc)


def if_(cond: n.Expr, body: list[n.Stmt], orelse: list[n.Stmt] | None = None,
        loc: n.Loc | None = None) -> n.If:  # fmt: skip
    return n.If(cond, tuple(body), tuple(orelse or ()), loc=loc)


def for_(v: str, start: Operand, stop: Operand, step: Operand, body: list[n.Stmt],
         t: ScalarType = i64) -> n.ForRange:  # fmt: skip
    return n.ForRange(v, ex(start, t), ex(stop, t), ex(step, t), tuple(body))


def while_(cond: n.Expr, body: list[n.Stmt]) -> n.While:
    return n.While(cond, tuple(body))


def param(name: str, t: ScalarType | ArrayType) -> n.Param:
    return n.Param(name, t)


def func(name: str, params: list[n.Param], body: list[n.Stmt],
         locals_: Mapping[str, ScalarType] | None = None, *, ret: ScalarType | None = None,
         kernel: bool = False, shared: tuple[n.SharedArray, ...] = ()) -> n.Function:  # fmt: skip
    return n.Function(
        name, tuple(params), ret, dict(locals_ or {}), tuple(body), is_kernel=kernel,
        shared=shared, filename="file.py", firstlineno=10,
    )  # fmt: skip


def kernel(name: str, params: list[n.Param], body: list[n.Stmt],
           locals_: Mapping[str, ScalarType] | None = None,
           shared: tuple[n.SharedArray, ...] = ()) -> n.Function:  # fmt: skip
    return func(name, params, body, locals_, kernel=True, shared=shared)


def check(cid: int, array: str, line: int = 12, source: str = "", function: str = "k",
          ndim: int = 1) -> n.BoundsCheck:  # fmt: skip
    return n.BoundsCheck(cid, function, array, ndim, "file.py", line, 4, source)


def module(k: n.Function, *functions: n.Function, checks: int | list[n.BoundsCheck] = 0
           ) -> n.Module:  # fmt: skip
    if isinstance(checks, int):
        checks = [check(i + 1, "x", function=k.name) for i in range(checks)]
    return n.Module(k, tuple(functions), tuple(checks))


def saxpy(guarded: bool = True) -> n.Module:
    """The SPEC's saxpy, with three checked accesses (c1 x[i], c2 y[i] load, c3 y[i] store)."""
    x = ref("x", arr(f32))
    y = ref("y", mut(f32))
    i = var("i")
    a = var("a", f32)
    value = bin_("add", bin_("mul", a, load(x, i, check=1)), load(y, i, check=2))
    st = store(y, i, value, check=3, loc=L(13))
    body: list[n.Stmt] = [assign("i", gid(0), loc=L(11))]
    body.append(if_(lt(i, shape(y)), [st], loc=L(12)) if guarded else st)
    src = "y[i] = a * x[i] + y[i]"
    checks = [
        check(1, "x", 13, src, "saxpy"),
        check(2, "y", 13, src, "saxpy"),
        check(3, "y", 13, src, "saxpy"),
    ]
    k = kernel("saxpy", [param("a", f32), param("x", x.type), param("y", y.type)], body,
               {"i": i64})  # fmt: skip
    return module(k, checks=checks)


def tree_reduction(block: int = 8) -> n.Module:
    """Per group: copy into shared, halve the active range with a barrier per step, then
    work-item 0 writes the group's sum to out[group_id]."""
    x = ref("x", arr(f32))
    out = ref("out", mut(f32))
    sh = ref("tmp", shared_t(f32, block))
    lid, s = var("lid"), var("s")
    step: list[n.Stmt] = [
        if_(
            lt(lid, s), [store(sh, lid, bin_("add", load(sh, lid), load(sh, bin_("add", lid, s))))]
        ),
        n.Barrier(loc=L(20)),
        assign("s", bin_("floordiv", s, 2)),
    ]
    body: list[n.Stmt] = [
        assign("lid", wi("local_id"), loc=L(15)),
        store(sh, lid, load(x, gid(), check=1), loc=L(16)),
        n.Barrier(loc=L(17)),
        assign("s", bin_("floordiv", wi("local_size"), 2)),
        while_(cmp("gt", s, 0), step),
        if_(cmp("eq", lid, 0), [store(out, wi("group_id"), load(sh, 0), check=2)]),
    ]
    shared = (n.SharedArray("tmp", sh.type, loc=L(14)),)
    k = kernel(
        "reduce", [param("x", x.type), param("out", out.type)], body, {"lid": i64, "s": i64}, shared
    )
    return module(
        k,
        checks=[
            check(1, "x", 16, "tmp[lid] = x[go.global_id(0)]", "reduce"),
            check(2, "out", 24, "out[go.group_id(0)] = tmp[0]", "reduce"),
        ],
    )


def kitchen_sink() -> n.Module:
    """One of every node kind (for printer goldens), verified valid."""
    m2 = ref("m", mut(f64, 2, contiguous=False))
    cnt = ref("cnt", mut(i32))
    i, j, f, flag = var("i"), var("j", i32), var("f", f64), var("flag", boolean)
    helper = func(
        "helper",
        [param("v", f64), param("m", m2.type)],
        [n.Return(bin_("mul", var("v", f64), load(m2, 0, 0, check=3)))],
        ret=f64,
    )
    poke = func("poke", [param("cnt", cnt.type)], [n.ExprStmt(atomic("max", cnt, 0, c(7, i32)))])
    body: list[n.Stmt] = [
        assign("i", gid(1), loc=L(30)),
        assign("j", cast(i32, i)),
        assign("flag", or_(not_(lt(i, shape(m2, 1))), ge(j, c(-3, i32)))),
        assign("f", n.Select(f64, flag, math("sqrt", cast(f64, j)), c(0.5, f64))),
        assign("j", bin_("rshift", n.Unary(i32, "invert", j), c(2, i32))),
        for_(
            "i",
            0,
            shape(m2, 0),
            2,
            [
                if_(math("isnan", f, t=boolean), [n.Continue()], [n.Break()]),
            ],
        ),
        store(m2, (i, c(1)), n.Call(f64, "helper", (f, m2)), check=1, loc=L(33)),
        n.ExprStmt(atomic("add", cnt, wi("group_id", 2), j, check=2)),
        n.ExprStmt(n.Call(boolean, "poke", (cnt,))),
        if_(flag, [n.Return()]),
        n.Barrier(),
    ]
    k = kernel(
        "sink",
        [param("m", m2.type), param("cnt", cnt.type)],
        body,
        {"i": i64, "j": i32, "f": f64, "flag": boolean},
    )
    checks = [
        check(1, "m", 33, "m[i, 1] = helper(f, m)", "sink", 2),
        check(2, "cnt", 34, "", "sink"),
        check(3, "m", 5, "return v * m[0, 0]", "helper", 2),
    ]
    return module(k, poke, helper, checks=checks)
