"""Group-level loops on the CPU (codegen.cpu_interchange): analysis and execution."""

from __future__ import annotations

import dataclasses
import re

import numpy as np

from codegen.cpu import llvm_ir_text
from codegen.cpu_interchange import Interchange, interchanges, uses_fission
from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from tests.unit import irbuild as b
from tests.unit.test_codegen_cpu_ops import both

X = b.ref("x", b.arr(t.f32))
OUT = b.ref("out", b.mut(t.f32))
I = b.var("i")  # noqa: E741
S = b.var("s", t.f32)
PARAMS = [b.param("x", X.type), b.param("out", OUT.type), b.param("m", t.i64)]
LOCALS = {"i": t.i64, "k": t.i64, "k2": t.i64, "s": t.f32}


def _sum_loop(stop: n.Expr, var: str = "k") -> n.ForRange:
    term = b.load(X, b.bin_("mod", b.bin_("add", I, b.var(var)), b.shape(X)))
    return b.for_(var, 0, stop, 1, [b.assign("s", b.bin_("add", S, term))])


def _kernel(body: list[n.Stmt]) -> n.Module:
    k = b.kernel("ic", PARAMS, [b.assign("i", b.gid(0)), *body], LOCALS)
    return dataclasses.replace(b.module(k), boundscheck=False)


def test_uniform_bounds_decide() -> None:
    m = _kernel([b.assign("s", b.c(0.0, t.f32)), _sum_loop(b.var("m"))])
    ic = Interchange(m.kernel)
    assert ic.loop(m.kernel.body[2])
    assert not ic.loop(_sum_loop(I))  # bound depends on the work-item
    assert not ic.loop(_sum_loop(b.load(b.ref("y", b.arr(t.i64)), 0)))  # loads are not uniform
    assert interchanges(m) and uses_fission(m)
    twice = _kernel([_sum_loop(b.var("m")), _sum_loop(b.var("m"))])
    assert not Interchange(twice.kernel).loop(twice.kernel.body[1])  # k assigned twice
    checked = dataclasses.replace(m, boundscheck=True, checks=(b.check(1, "x"),))
    assert interchanges(checked)


def test_bounds_may_read_locals_defined_from_uniform_values() -> None:
    # ``n = x.shape[0]`` before ``for k in range(n)``: a local recomputed per region from a
    # shape is as uniform as the shape (naive loops over ``n`` ran 23x slower when scalar)
    locals_ = {**LOCALS, "n": t.i64, "j": t.i64, "g": t.i64}
    body: list[n.Stmt] = [
        b.assign("i", b.gid(0)),
        b.assign("n", b.bin_("add", b.shape(X), b.var("m"))),
        b.assign("s", b.c(0.0, t.f32)),
        _sum_loop(b.var("n")),
        b.store(OUT, I, S),
    ]
    k = b.kernel("ic", PARAMS, body, locals_)
    m = dataclasses.replace(b.module(k), boundscheck=False)
    assert Interchange(k).loop(body[3]) and interchanges(m)
    x = np.arange(7, dtype=np.float32)
    out = np.full(12, 99, dtype=np.float32)
    both(m, [x, out, 2], 12, (4,))
    np.testing.assert_array_equal(out, [sum(x[(i + q) % 7] for q in range(9)) for i in range(12)])
    # not: a local that differs per work-item, or one assigned under a condition
    per_item = [b.assign("i", b.gid(0)), b.assign("j", b.bin_("add", I, 1)), _sum_loop(b.var("j"))]
    k2 = b.kernel("ic", PARAMS, per_item, locals_)
    assert not Interchange(k2).loop(per_item[2])
    guarded = [b.assign("i", b.gid(0)), b.if_(b.lt(I, 3), [b.assign("g", b.shape(X))]),
               _sum_loop(b.var("g"))]  # fmt: skip
    k3 = b.kernel("ic", PARAMS, guarded, locals_)
    assert not Interchange(k3).loop(guarded[2])


def test_predicated_if_with_both_branches_and_return() -> None:
    body: list[n.Stmt] = [
        b.if_(b.cmp("eq", I, 5), [n.Return()]),
        b.assign("s", b.c(0.0, t.f32)),
        b.if_(b.lt(I, 9), [_sum_loop(b.var("m")), b.store(OUT, I, S)],
              [_sum_loop(b.bin_("add", b.var("m"), 2), "k2"),
               b.store(OUT, I, b.bin_("mul", S, -1.0))]),
    ]  # fmt: skip
    m = _kernel(body)
    assert interchanges(m)
    x = np.arange(7, dtype=np.float32)
    out = np.full(20, 99, dtype=np.float32)
    both(m, [x, out, 3], 20, (4,))
    want = [sum(x[(i + k) % 7] for k in range(3 if i < 9 else 5)) * (1 if i < 9 else -1)
            for i in range(20)]  # fmt: skip
    want[5] = 99
    np.testing.assert_array_equal(out, want)
    assert re.search(r"<(4|8|16) x float>", llvm_ir_text(m, optimized=True))


def test_nested_group_level_loops_2d_grid() -> None:
    out2 = b.ref("o2", b.mut(t.i64, 2))
    body: list[n.Stmt] = [
        b.assign("acc", b.c(0)),
        b.for_("p", 0, b.wi("local_size", 0), 1, [
            b.for_("q", 1, 4, 1, [
                b.assign("acc", b.bin_("add", b.var("acc"),
                                       b.bin_("mul", b.var("p"), b.var("q")))),
            ]),
            b.assign("acc", b.bin_("add", b.var("acc"), b.gid(1))),
        ]),
        b.store(out2, (b.gid(1), b.gid(0)), b.var("acc")),
    ]  # fmt: skip
    k = b.kernel("nest", [b.param("o2", out2.type)], body, {"acc": t.i64, "p": t.i64, "q": t.i64})
    m = dataclasses.replace(b.module(k), boundscheck=False)
    assert interchanges(m)
    res = np.zeros((6, 8), dtype=np.int64)
    both(m, [res], (8, 6), (4, 3))
    want = sum(p * q for p in range(4) for q in range(1, 4))
    np.testing.assert_array_equal(res, want + 4 * np.arange(6)[:, None] + 0 * res)


def test_region_replay_safety() -> None:
    from codegen.cpu_checks import region_replay_safe

    v = b.var("v")
    walk: list[n.Stmt] = [b.assign("s", b.bin_("add", S, b.load(X, v, check=1))),
                          b.assign("v", b.bin_("add", v, 1))]  # fmt: skip
    m = _kernel([b.assign("v", b.c(0)), b.for_("k", 0, b.var("m"), 1, walk)])
    m = dataclasses.replace(m, boundscheck=True, checks=(b.check(1, "x"),))
    # v is read before it is assigned in the region and then changed: a replay would see
    # the advanced value, so this region records per lane instead.
    assert not region_replay_safe(m, tuple(walk))
    assert region_replay_safe(m, tuple(walk[:1]))
    body = m.kernel.body + (b.store(OUT, I, S),)
    locals_ = {**LOCALS, "v": t.i64}
    k = b.kernel("ic", PARAMS, [b.assign("s", b.c(0.0, t.f32)), *body], locals_)
    m2 = dataclasses.replace(b.module(k), checks=(b.check(1, "x"),))
    x = np.arange(5, dtype=np.float32)
    out = np.zeros(8, dtype=np.float32)
    err, msg = both(m2, [x, out, 7], 8, (8,))
    assert err[0] == 1 and err[1] == 5 and msg is not None
    np.testing.assert_array_equal(out, np.full(8, x.sum()))


def test_while_with_varying_trip_counts_after_a_predicate() -> None:
    # Collatz steps of (i + 1), under a predicate, with a checked load in the body.
    v = b.var("v")
    cnt = b.var("cnt")
    loop = b.while_(b.cmp("ne", v, 1), [
        b.if_(b.cmp("eq", b.bin_("mod", v, 2), 0), [b.assign("v", b.bin_("floordiv", v, 2))],
              [b.assign("v", b.bin_("add", b.bin_("mul", v, 3), 1))]),
        b.assign("cnt", b.bin_("add", cnt, 1)),
        b.assign("s", b.bin_("add", S, b.load(X, b.bin_("mod", v, 9), check=1))),
    ])  # fmt: skip
    body: list[n.Stmt] = [
        b.assign("v", b.bin_("add", I, 1)),
        b.assign("cnt", b.c(0)),
        b.assign("s", b.c(0.0, t.f32)),
        b.if_(b.lt(I, 30), [loop]),
        b.store(OUT, I, b.bin_("add", S, b.cast(t.f32, cnt))),
    ]
    k = b.kernel("collatz", PARAMS, [b.assign("i", b.gid(0)), *body],
                 {**LOCALS, "v": t.i64, "cnt": t.i64})  # fmt: skip
    m = dataclasses.replace(b.module(k), checks=(b.check(1, "x"),))
    x = np.arange(8, dtype=np.float32)  # index 8 (v % 9 == 8) is out of range
    out = np.zeros(48, dtype=np.float32)
    err, msg = both(m, [x, out, 0], 48, (16,))
    assert (err[0] != 0) == (msg is not None)


def test_grid_stride_while() -> None:
    acc = b.var("acc", t.f32)
    j = b.var("j")
    body: list[n.Stmt] = [
        b.assign("acc", b.c(0.0, t.f32)),
        b.assign("j", b.gid(0)),
        b.while_(b.lt(j, b.shape(X)), [
            b.assign("acc", b.bin_("add", acc, b.load(X, j, check=1))),
            b.assign("j", b.bin_("add", j, b.wi("global_size", 0))),
        ]),
        b.store(OUT, b.gid(0), acc, check=2),
    ]  # fmt: skip
    k = b.kernel("gs", PARAMS, body, {"acc": t.f32, "j": t.i64})
    m = dataclasses.replace(b.module(k), checks=(b.check(1, "x"), b.check(2, "out")))
    x = np.random.default_rng(1).uniform(size=1000).astype(np.float32)
    out = np.zeros(64, dtype=np.float32)
    err, _ = both(m, [x, out, 0], 64, (32,))
    assert not err.any()
    np.testing.assert_allclose(out.sum(), x.sum(), rtol=1e-5)
