"""The verifier: every rule rejects a module that breaks it, and accepts valid ones."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from gpuoff.ir import nodes as n
from gpuoff.ir.types import INDEX, ArrayType, ScalarType, boolean, f16, f32, f64, i32, i64, u8, u32
from gpuoff.ir.verify import IRVerifyError, verify
from gpuoff.ownership import Access
from tests.unit import irbuild as b

X = b.ref("x", b.arr(f32))
Y = b.ref("y", b.mut(f32))
M2 = b.ref("m", b.mut(f32, 2))
SH = b.ref("sh", b.shared_t(f32, 16))
LOCALS = {"i": i64, "j": i32, "f": f32, "flag": boolean, "d": f64, "u": u8}
PARAMS = [b.param("a", f32), b.param("x", X.type), b.param("y", Y.type), b.param("m", M2.type)]


def km(*body: n.Stmt, shared: bool = False, checks: int = 2, funcs: tuple[n.Function, ...] = ()
       ) -> n.Module:  # fmt: skip
    """A kernel with a fixed set of params and locals around ``body``."""
    sh = (n.SharedArray("sh", SH.type),) if shared else ()
    k = b.kernel("k", PARAMS, list(body), LOCALS, sh)
    return b.module(k, *funcs, checks=checks)


def with_expr(e: n.Expr) -> n.Module:
    """``e`` evaluated into a matching local (or stored when it is f32)."""
    target = {f32: "f", i64: "i", i32: "j", boolean: "flag", f64: "d", u8: "u"}.get(e.type)
    if target is None:
        return km(n.ExprStmt(e))
    return km(b.assign(target, e))


I = b.var("i")  # noqa: E741 - reads like the kernel variable
J = b.var("j", i32)
F = b.var("f", f32)
FLAG = b.var("flag", boolean)


def dev(name: str, params: list[n.Param], body: list[n.Stmt], ret: ScalarType | None = None
        ) -> n.Function:  # fmt: skip
    return b.func(name, params, body, ret=ret)


HELPER = dev(
    "helper", [b.param("v", f32), b.param("arr", X.type)], [n.Return(b.var("v", f32))], f32
)
VOID = dev("void", [b.param("arr", Y.type)], [b.store(b.ref("arr", Y.type), 0, 1.0)])

VALID: list[tuple[str, Callable[[], n.Module]]] = [
    ("saxpy", b.saxpy),
    (
        "exprs",
        lambda: km(
            b.assign("f", b.bin_("truediv", F, b.c(2.0))),
            b.assign("j", b.bin_("lshift", J, b.c(3, i32))),
            b.assign("flag", b.bin_("bitxor", FLAG, b.c(True))),
            b.assign("flag", b.and_(b.lt(I, b.shape(X)), b.math("isnan", F, t=boolean))),
            b.assign("f", n.Select(f32, FLAG, F, b.load(X, I, check=1))),
            b.assign("i", b.cast(i64, F)),
            b.store(M2, (I, b.c(0)), b.math("fma", F, F, F), check=2),
            b.assign("j", b.math("max", J, b.c(1, i32))),
        ),
    ),
    (
        "calls",
        lambda: km(
            b.assign("f", n.Call(f32, "helper", (F, X))),
            n.ExprStmt(n.Call(boolean, "void", (Y,))),
            funcs=(HELPER, VOID),
        ),
    ),
    (
        "loops",
        lambda: km(
            b.for_("i", 0, b.shape(X), 1, [n.Continue(), n.Break()]),
            b.while_(FLAG, [b.if_(FLAG, [n.Break()], [n.Continue()])]),
            n.Return(),
        ),
    ),
    (
        "shared",
        lambda: km(
            b.store(SH, 0, 1.0), n.Barrier(), n.ExprStmt(b.atomic("add", SH, 1, F)), shared=True
        ),
    ),
]


@pytest.mark.parametrize(("name", "build"), VALID, ids=[v[0] for v in VALID])
def test_valid_modules_pass(name: str, build: Callable[[], n.Module]) -> None:
    verify(build())


BAD_ARR = b.ref("x", b.arr(f32, 2))
U8S = b.ref("u8s", b.mut(u8))
RO_ARG = dev("w", [b.param("arr", Y.type)], [])
RECURSIVE = dev("r", [], [n.ExprStmt(n.Call(boolean, "r", ()))])
BARRIER_FN = dev("bf", [], [n.Barrier()])
WITH_SHARED = replace(dev("sf", [], []), shared=(n.SharedArray("sh", SH.type),))
RET_BAD = dev("rb", [], [n.Return(b.c(1))], f32)

BAD: list[tuple[str, Callable[[], n.Module], str]] = [
    ("const range", lambda: with_expr(b.c(300, u8)), "out of range of u8"),
    ("const kind", lambda: with_expr(n.Const(i32, 1.5)), "i32 constant"),
    ("bool const", lambda: with_expr(n.Const(boolean, 1)), "True/False"),
    ("undeclared var", lambda: with_expr(b.var("nope", f32)), "not declared"),
    ("var type", lambda: with_expr(b.var("i", i32)), "is i64, read as i32"),
    ("unary type", lambda: with_expr(n.Unary(f32, "neg", I)), "disagree"),
    ("not on int", lambda: with_expr(n.Unary(i64, "not", I)), "not is not defined on i64"),
    ("invert float", lambda: with_expr(n.Unary(f32, "invert", F)), "invert is not defined"),
    ("unary op", lambda: with_expr(n.Unary(f32, "sqrt", F)), "unknown unary op"),
    ("binary disagree", lambda: with_expr(n.Binary(f32, "add", F, I)), "disagree"),
    ("truediv int", lambda: with_expr(b.bin_("truediv", I, I)), "truediv is not defined on i64"),
    ("bitand float", lambda: with_expr(b.bin_("bitand", F, F)), "bitand is not defined on f32"),
    ("shift bool", lambda: with_expr(b.bin_("lshift", FLAG, FLAG)), "lshift is not defined"),
    ("add bool", lambda: with_expr(b.bin_("add", FLAG, FLAG)), "add is not defined on bool"),
    ("binary op", lambda: with_expr(n.Binary(f32, "matmul", F, F)), "unknown binary op"),
    ("compare type", lambda: with_expr(n.Compare(i64, "lt", I, I)), "comparison gives bool"),
    ("compare disagree", lambda: with_expr(n.Compare(boolean, "lt", I, J)), "disagree"),
    ("compare op", lambda: with_expr(n.Compare(boolean, "is", I, I)), "unknown comparison"),
    ("logical int", lambda: with_expr(n.Logical(boolean, "and", FLAG, I)), "needs bool"),
    ("select cond", lambda: with_expr(n.Select(f32, I, F, F)), "select condition is i64"),
    ("select arms", lambda: with_expr(n.Select(f32, FLAG, F, J)), "disagree"),
    ("if cond", lambda: km(b.if_(I, [])), "condition is i64"),
    ("while cond", lambda: km(b.while_(F, [])), "condition is f32"),
    ("index type", lambda: with_expr(b.load(X, b.c(0, i32))), "index of x is i32"),
    ("index count", lambda: with_expr(b.load(M2, I)), "2 dims, 1 indices"),
    ("load type", lambda: with_expr(n.Load(f64, X, (I,))), "load of f32 array typed f64"),
    ("undeclared array", lambda: with_expr(b.load(b.ref("z", X.type), I)), "'z' is not declared"),
    ("array type", lambda: with_expr(b.load(BAD_ARR, I, I)), "used as"),
    ("check id", lambda: with_expr(b.load(X, I, check=3)), "check id 3 not in 1..2"),
    ("check id zero", lambda: km(b.store(Y, I, F, check=0)), "check id 0"),
    ("shape dim", lambda: with_expr(n.ShapeOf(INDEX, X, 1)), "shape dim 1 out of range"),
    ("shape type", lambda: with_expr(n.ShapeOf(i32, X, 0)), "shape is i64"),
    ("work item name", lambda: with_expr(b.wi("thread_id")), "unknown work-item query"),
    ("work item dim", lambda: with_expr(b.wi("global_id", 3)), "dimension must be 0, 1 or 2"),
    ("math name", lambda: with_expr(b.math("gamma", F)), "unknown math function"),
    ("popc float", lambda: with_expr(b.math("popc", F, t=i32)), "32- or 64-bit integer"),
    ("popc narrow", lambda: with_expr(b.math("popc", b.cast(u8, J), t=i32)), "got u8"),
    ("popc type", lambda: with_expr(b.math("popc", I, t=i64)), "popc returns i32"),
    ("brev type", lambda: with_expr(b.math("brev", I, t=i32)), "brev returns i64"),
    ("math arity", lambda: with_expr(b.math("pow", F)), "pow takes 2 arguments"),
    ("math int", lambda: with_expr(b.math("sqrt", I)), "sqrt is not defined on i64"),
    ("math types", lambda: with_expr(n.MathCall(f32, "min", (F, b.var("d", f64)))), "disagree"),
    ("isnan int", lambda: with_expr(b.math("isnan", I, t=boolean)), "isnan takes a float"),
    ("isnan type", lambda: with_expr(b.math("isnan", F)), "isnan returns bool"),
    ("assign undeclared", lambda: km(b.assign("zz", I)), "undeclared variable 'zz'"),
    ("assign type", lambda: km(b.assign("f", I)), "f is f32, assigned i64"),
    ("store to borrow", lambda: km(b.store(X, I, F)), "write to x, which is Borrow"),
    ("store type", lambda: km(b.store(Y, I, b.c(1.0, f64))), "store of f64 into f32"),
    ("break outside loop", lambda: km(n.Break()), "break outside a loop"),
    ("continue outside loop", lambda: km(b.if_(FLAG, [n.Continue()])), "continue outside a loop"),
    ("return value in kernel", lambda: km(n.Return(I)), "function returning nothing"),
    (
        "return type",
        lambda: b.module(b.kernel("k", [], [n.ExprStmt(n.Call(f32, "rb", ()))]), RET_BAD),
        "returns i64, declared f32",
    ),
    (
        "return missing value",
        lambda: b.module(b.kernel("k", [], []), dev("rv", [], [n.Return()], f32)),
        "return without a value",
    ),
    ("loop var type", lambda: km(b.for_("f", 0.0, 1.0, 1.0, [], t=f32)), "not an integer"),
    (
        "loop bounds type",
        lambda: km(n.ForRange("i", b.c(0, i32), b.c(1), b.c(1), ())),
        "range bound is i32",
    ),
    ("loop var undeclared", lambda: km(b.for_("q", 0, 1, 1, [])), "loop variable 'q'"),
    ("expr stmt", lambda: km(n.ExprStmt(I)), "must be a call or an atomic"),
    ("call unknown", lambda: with_expr(n.Call(f32, "nope", ())), "unknown function 'nope'"),
    (
        "call arity",
        lambda: km(b.assign("f", n.Call(f32, "helper", (F,))), funcs=(HELPER,)),
        "takes 2 arguments",
    ),
    (
        "call arg type",
        lambda: km(b.assign("f", n.Call(f32, "helper", (I, X))), funcs=(HELPER,)),
        "helper(v) is f32, got i64",
    ),
    (
        "call array for scalar",
        lambda: km(b.assign("f", n.Call(f32, "helper", (X, X))), funcs=(HELPER,)),
        "needs a scalar",
    ),
    (
        "call scalar for array",
        lambda: km(b.assign("f", n.Call(f32, "helper", (F, F))), funcs=(HELPER,)),
        "needs an array",
    ),
    (
        "call array dtype",
        lambda: km(b.assign("f", n.Call(f32, "helper", (F, M2))), funcs=(HELPER,)),
        "given",
    ),
    (
        "call result type",
        lambda: km(b.assign("i", n.Call(i64, "helper", (F, X))), funcs=(HELPER,)),
        "returns f32, call typed i64",
    ),
    (
        "void call as value",
        lambda: km(b.assign("flag", n.Call(boolean, "void", (Y,))), funcs=(VOID,)),
        "must be a statement",
    ),
    (
        "borrow to mut param",
        lambda: km(n.ExprStmt(n.Call(boolean, "w", (X,))), funcs=(RO_ARG,)),
        "not writable",
    ),
    (
        "recursion",
        lambda: b.module(b.kernel("k", [], [n.ExprStmt(n.Call(boolean, "r", ()))]), RECURSIVE),
        "recursion",
    ),
    (
        "callee order",
        lambda: b.module(
            b.kernel("k", [], []),
            dev("a", [], [n.ExprStmt(n.Call(boolean, "c", ()))]),
            dev("c", [], []),
        ),
        "not defined before",
    ),
    (
        "call kernel",
        lambda: b.module(b.kernel("k", [], [n.ExprStmt(n.Call(boolean, "k", ()))])),
        "call to kernel",
    ),
    (
        "barrier in device fn",
        lambda: b.module(b.kernel("k", [], []), BARRIER_FN),
        "barrier outside a kernel",
    ),
    (
        "shared in device fn",
        lambda: b.module(b.kernel("k", [], []), WITH_SHARED),
        "shared arrays outside a kernel",
    ),
    (
        "atomic dtype",
        lambda: b.module(
            b.kernel("k", [b.param("u8s", U8S.type)], [n.ExprStmt(b.atomic("add", U8S, 0, 1))])
        ),
        "not supported on u8",
    ),
    ("atomic on borrow", lambda: with_expr(b.atomic("add", X, I, F)), "not writable"),
    ("atomic op", lambda: with_expr(b.atomic("mul", Y, I, F)), "unknown atomic op"),
    (
        "atomic value",
        lambda: with_expr(n.AtomicRMW(f32, "add", Y, (I,), b.c(1.0, f64))),
        "atomic value is f64",
    ),
    ("atomic inc on floats", lambda: with_expr(b.atomic("inc", Y, I, F)), "not supported on f32"),
    ("atomic xor on floats", lambda: with_expr(b.atomic("xor", Y, I, F)), "not supported on f32"),
    ("cas without compare", lambda: with_expr(b.atomic("cas", Y, I, F)), "has a compare operand"),
    (
        "compare on add",
        lambda: with_expr(n.AtomicRMW(f32, "add", Y, (I,), F, None, F)),
        "has a compare operand",
    ),
    (
        "cas compare type",
        lambda: with_expr(n.AtomicRMW(f32, "cas", Y, (I,), F, None, b.c(1.0, f64))),
        "atomic compare operand is f64",
    ),
    (
        "kernel returns",
        lambda: b.module(replace(b.kernel("k", [], []), return_type=f32)),
        "kernel returns nothing",
    ),
    ("not a kernel", lambda: b.module(b.func("k", [], [])), "not marked is_kernel"),
    (
        "duplicate function",
        lambda: b.module(b.kernel("k", [], []), dev("d", [], []), dev("d", [], [])),
        "defined twice",
    ),
    ("check ids", lambda: b.module(b.kernel("k", [], []), checks=[b.check(2, "x")]), "expected 1"),
    (
        "local shadows param",
        lambda: b.module(b.kernel("k", [b.param("a", f32)], [], {"a": f32})),
        "shadows a parameter",
    ),
    (
        "local shadows shared",
        lambda: b.module(
            b.kernel("k", [], [], {"sh": f32}, shared=(n.SharedArray("sh", SH.type),))
        ),
        "shadows a parameter or array",
    ),
    (
        "duplicate param",
        lambda: b.module(b.kernel("k", [b.param("a", f32), b.param("a", f32)], [])),
        "a twice",
    ),
    (
        "shared without shape",
        lambda: b.module(
            b.kernel("k", [], [], shared=(n.SharedArray("s", replace(SH.type, static_shape=None)),))
        ),
        "static shape",
    ),
    (
        "shared space",
        lambda: b.module(b.kernel("k", [], [], shared=(n.SharedArray("s", Y.type),))),
        "not in shared memory",
    ),
    (
        "kernel param in shared",
        lambda: b.module(b.kernel("k", [b.param("s", SH.type)], [])),
        "not in global memory",
    ),
    (
        "f16 atomics",
        lambda: b.module(
            b.kernel(
                "k",
                [b.param("h", b.mut(f16))],
                [n.ExprStmt(b.atomic("max", b.ref("h", b.mut(f16)), 0, b.c(1.0, f16)))],
            )
        ),
        "not supported on f16",
    ),
]


@pytest.mark.parametrize(("name", "build", "message"), BAD, ids=[x[0] for x in BAD])
def test_broken_rule_is_rejected(name: str, build: Callable[[], n.Module], message: str) -> None:
    with pytest.raises(IRVerifyError, match=message.replace("(", r"\(").replace(")", r"\)")):
        verify(build())


def test_message_names_function_and_line() -> None:
    m = km(b.store(X, I, F, loc=b.L(42)))
    with pytest.raises(IRVerifyError) as info:
        verify(m)
    assert str(info.value).startswith("k, line 42 [Store]: write to x")


def test_atomic_dtypes_allowed() -> None:
    for t in (i32, u32, i64, f32, f64):
        a = b.ref("a", ArrayType(t, 1, access=Access.OWNED))
        body: list[n.Stmt] = [n.ExprStmt(b.atomic("min", a, 0, 1 if t.is_int else 1.0))]
        verify(b.module(b.kernel("k", [b.param("a", a.type)], body)))
