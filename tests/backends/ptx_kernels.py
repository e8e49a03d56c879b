"""Hand-built IR modules covering what the NVPTX lowering must handle (every IR node kind,
every scalar type, shared memory, barriers, atomics, device functions, all math functions,
strided arrays, bounds checks on and off, fastmath). Used by the ptxas tests; the front end's
real kernels are added there once ``gpuoff.frontend.lower_kernel`` is available."""

from __future__ import annotations

from collections.abc import Callable

from gpuoff.ir import nodes as n
from gpuoff.ir import types as T
from gpuoff.ir.types import INDEX, ScalarType, boolean, f16, f32, f64, i32, i64, u8, u32
from gpuoff.ownership import Access
from tests.unit import irbuild

L = irbuild.L
arr = irbuild.arr
assign = irbuild.assign
atomic = irbuild.atomic
bin_ = irbuild.bin_
c = irbuild.c
cast = irbuild.cast
check = irbuild.check
for_ = irbuild.for_
func = irbuild.func
gid = irbuild.gid
if_ = irbuild.if_
kernel = irbuild.kernel
load = irbuild.load
lt = irbuild.lt
math = irbuild.math
module = irbuild.module
mut = irbuild.mut
param = irbuild.param
ref = irbuild.ref
saxpy = irbuild.saxpy
shape = irbuild.shape
shared_t = irbuild.shared_t
store = irbuild.store
var = irbuild.var
while_ = irbuild.while_
wi = irbuild.wi


def strided_2d() -> n.Module:
    """out[i, j] = sum_k a[i, k] * b[k, j] over non-contiguous f64 views (checked)."""
    a, b = ref("a", arr(f64, 2, contiguous=False)), ref("b", arr(f64, 2, contiguous=False))
    out = ref("out", mut(f64, 2, contiguous=False))
    i, j, k, acc = var("i"), var("j"), var("k"), var("acc", f64)
    body: list[n.Stmt] = [
        assign("i", gid(0)),
        assign("j", gid(1)),
        assign("acc", c(0.0, f64)),
        for_(
            "k",
            0,
            shape(a, 1),
            1,
            [
                assign(
                    "acc",
                    bin_("add", acc, bin_("mul", load(a, i, k, check=1), load(b, k, j, check=2))),
                ),
            ],
        ),  # fmt: skip
        store(out, (i, j), acc, check=3),
    ]
    params = [param("a", a.type), param("b", b.type), param("out", out.type)]
    k_ = kernel("matmul", params, body, {"i": i64, "j": i64, "k": i64, "acc": f64})
    checks = [check(1, "a", ndim=2, function="matmul"), check(2, "b", ndim=2, function="matmul"),
              check(3, "out", ndim=2, function="matmul")]  # fmt: skip
    return module(k_, checks=checks)


def reduction(dtype: ScalarType = f32) -> n.Module:
    """Tree reduction in shared memory with barriers, then atomics on the result."""
    x, out = ref("x", arr(dtype)), ref("out", mut(dtype))
    counts = ref("counts", mut(i32))
    hi = ref("hi", mut(u32))
    tile = ref("tile", shared_t(dtype, 256))
    lid, s = var("lid"), var("s")
    body: list[n.Stmt] = [
        assign("lid", wi("local_id")),
        store(
            tile,
            lid,
            n.Select(
                dtype, lt(gid(), shape(x)), load(x, gid()), c(0.0 if dtype.is_float else 0, dtype)
            ),
        ),
        n.Barrier(),
        assign("s", c(128)),
        while_(
            n.Compare(boolean, "gt", s, c(0)),
            [
                if_(
                    lt(lid, s),
                    [
                        store(
                            tile, lid, bin_("add", load(tile, lid), load(tile, bin_("add", lid, s)))
                        )
                    ],
                ),
                n.Barrier(),
                assign("s", bin_("floordiv", s, 2)),
            ],
        ),  # fmt: skip
        if_(
            n.Compare(boolean, "eq", lid, c(0)),
            [
                n.ExprStmt(atomic("add", out, 0, load(tile, 0))),
                n.ExprStmt(atomic("max", out, 1, load(tile, 0))),
                n.ExprStmt(atomic("min", out, 2, load(tile, 0))),
                n.ExprStmt(atomic("add", counts, wi("group_id"), c(1, i32), check=1)),
                n.ExprStmt(atomic("max", hi, 0, cast(u32, wi("num_groups")))),
                n.ExprStmt(atomic("min", counts, 0, cast(i32, wi("local_size")))),
            ],
        ),  # fmt: skip
    ]
    sh = (n.SharedArray("tile", tile.type),)
    params = [param("x", x.type), param("out", out.type), param("counts", counts.type),
              param("hi", hi.type)]  # fmt: skip
    k = kernel(f"reduce_{dtype}", params, body, {"lid": i64, "s": i64}, shared=sh)
    return module(k, checks=[check(1, "counts", function=k.name)])


def all_math(dtype: ScalarType, fastmath: bool = False) -> n.Module:
    """Every math function of the IR on one element."""
    x, out = ref("x", arr(dtype)), ref("out", mut(dtype))
    flags = ref("flags", mut(boolean))
    i = var("i")
    v = load(x, i)
    exprs: list[n.Expr] = [math(name, *[v] * arity)
                           for name, arity in (*n.FLOAT_FUNCS.items(), *n.NUMERIC_FUNCS.items())]
    exprs += [bin_("pow", v, v), bin_("floordiv", v, v), bin_("mod", v, v),
              bin_("truediv", v, v)]  # fmt: skip
    body: list[n.Stmt] = [assign("i", gid())]
    body += [store(out, bin_("add", i, k), e) for k, e in enumerate(exprs)]
    body += [store(flags, bin_("add", i, k), math(name, v, t=boolean))
             for k, name in enumerate(n.PREDICATE_FUNCS)]
    params = [param("x", x.type), param("out", out.type), param("flags", flags.type)]
    k = kernel(f"math_{dtype}{'_fast' if fastmath else ''}", params, body, {"i": i64})
    return n.Module(k, fastmath=fastmath)


def bit_intrinsics() -> n.Module:
    """popc, clz, ffs, brev and integer sign on 32- and 64-bit, signed and unsigned ints."""
    body: list[n.Stmt] = [assign("i", gid())]
    params = []
    for dtype in (i32, u32, i64, T.u64):
        x, out = ref(f"x_{dtype}", arr(dtype)), ref(f"out_{dtype}", mut(dtype))
        counts = ref(f"counts_{dtype}", mut(i32))
        v = load(x, var("i"))
        body += [store(counts, bin_("add", var("i"), k), math(name, v, t=i32))
                 for k, name in enumerate(("popc", "clz", "ffs"))]  # fmt: skip
        body += [store(out, var("i"), math("brev", v)),
                 store(out, bin_("add", var("i"), 1), math("sign", v))]  # fmt: skip
        params += [param(x.name, x.type), param(out.name, out.type),
                   param(counts.name, counts.type)]  # fmt: skip
    return n.Module(kernel("bits", params, body, {"i": i64}))


def device_functions() -> n.Module:
    """A device function taking an array and a scalar, and one using work-item ids."""
    xt = arr(f32)
    x = ref("x", xt)
    xs = ref("xs", xt)
    helper = func("dot3", [param("xs", xt), param("s", f32)], [
        n.Return(bin_("mul", var("s", f32), load(xs, 0, check=2))),
    ], ret=f32)  # fmt: skip
    where = func("where", [], [n.Return(cast(f32, gid()))], ret=f32)
    out = ref("out", mut(f32))
    call1 = n.Call(f32, "dot3", (x, c(2.0)))
    call2 = n.Call(f32, "where", ())
    body: list[n.Stmt] = [store(out, gid(), bin_("add", call1, call2), check=1)]
    k = kernel("calls", [param("x", xt), param("out", out.type)], body)
    checks = [check(1, "out", function="calls"), check(2, "xs", function="dot3")]
    return module(k, helper, where, checks=checks)


def scalar_types() -> n.Module:
    """Every scalar type as parameter and element; integer ops, casts, control flow."""
    params: list[n.Param] = []
    body: list[n.Stmt] = [assign("i", gid())]
    for st in (boolean, T.i8, T.i16, u8, T.u16, i32, u32, i64, T.u64, f16, f32, f64):
        a = ref(f"a_{st}", mut(st))
        params += [param(f"s_{st}", st), param(a.name, a.type)]
        body.append(store(a, var("i"), var(f"s_{st}", st)))
    ai = ref("a_i32", mut(i32))
    vi = load(ai, var("i"))
    for op in ("add", "sub", "mul", "floordiv", "mod", "pow", "bitand", "bitor", "bitxor",
               "lshift", "rshift"):  # fmt: skip
        body.append(store(ai, var("i"), bin_(op, vi, c(3, i32))))
        for st in (T.i8, T.i16, T.u16, T.u64):  # the narrow and unsigned 64-bit widths
            an = ref(f"a_{st}", mut(st))
            body.append(store(an, var("i"), bin_(op, load(an, var("i")), c(3, st))))
    au = ref("a_u32", mut(u32))
    body.append(store(au, var("i"), bin_("rshift", load(au, var("i")), c(1, u32))))
    body.append(store(ref("a_u8", mut(u8)), var("i"), cast(u8, load(ref("a_f32", mut(f32)),
                                                                      var("i")))))  # fmt: skip
    body.append(store(ref("a_i64", mut(i64)), var("i"),
                      cast(i64, load(ref("a_f64", mut(f64)), var("i")))))  # fmt: skip
    loop = for_("j", 10, 0, -3, [
        if_(n.Compare(boolean, "eq", var("j"), c(4)), [n.Continue()]),
        if_(n.Compare(boolean, "eq", var("j"), c(1)), [n.Break()]),
        assign("acc", bin_("add", var("acc"), var("j"))),
    ])  # fmt: skip
    body += [assign("acc", c(0)), loop,
             if_(lt(var("acc"), 0), [n.Return()]),
             store(ref("a_i64", mut(i64)), var("i"), var("acc"))]  # fmt: skip
    k = kernel("types", params, body, {"i": i64, "j": i64, "acc": i64})
    return n.Module(k)


def unchecked_saxpy() -> n.Module:
    m = saxpy(guarded=False)
    return n.Module(m.kernel, m.functions, m.checks, boundscheck=False)


def three_d() -> n.Module:
    """3-D grid, every work-item query in every dimension."""
    out = ref("out", mut(i64, 3))
    total = bin_("add", bin_("add", wi("global_size", 0), wi("global_size", 1)),
                 wi("global_size", 2))  # fmt: skip
    body: list[n.Stmt] = [store(out, (gid(0), gid(1), gid(2)), total, check=1, loc=L(20))]
    k = kernel("grid3", [param("out", out.type)], body)
    return module(k, checks=[check(1, "out", ndim=3, function="grid3")])


KERNELS: dict[str, Callable[[], n.Module]] = {
    "saxpy": saxpy,
    "saxpy_unchecked": unchecked_saxpy,
    "matmul_strided_f64": strided_2d,
    "reduce_f32": reduction,
    "reduce_f64": lambda: reduction(f64),
    "reduce_i32": lambda: reduction(i32),
    "math_f32": lambda: all_math(f32),
    "math_f64": lambda: all_math(f64),
    "math_f32_fast": lambda: all_math(f32, fastmath=True),
    "math_f16": lambda: all_math(f16),
    "bits": bit_intrinsics,
    "device_functions": device_functions,
    "scalar_types": scalar_types,
    "grid3": three_d,
}

__all__ = ["INDEX", "KERNELS", "Access", "irbuild"]
