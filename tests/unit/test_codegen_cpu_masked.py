"""Grid-stride ``while`` loops run masked at group level on the CPU (codegen.cpu_masked)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import pytest

from codegen.cpu import llvm_ir_text
from codegen.cpu_interchange import Interchange, uses_fission
from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from tests.unit import irbuild as b
from tests.unit.test_codegen_cpu_ops import both

X = b.ref("x", b.arr(t.f32))
OUT = b.ref("out", b.mut(t.f32))
PARAMS = [b.param("x", X.type), b.param("out", OUT.type), b.param("m", t.i64)]
ACC = b.var("acc", t.f32)
J = b.var("j")
LOCALS = {"acc": t.f32, "j": t.i64, "stride": t.i64, "r": t.i64}


def _step(by: n.Expr | None = None) -> n.Assign:
    return b.assign("j", b.bin_("add", J, by if by is not None else b.var("stride")))


def _loop(cond: n.Expr | None = None, check: int | None = None,
          tail: Sequence[n.Stmt] | None = None) -> n.While:  # fmt: skip
    body: list[n.Stmt] = [b.assign("acc", b.bin_("add", ACC, b.load(X, J, check=check)))]
    return b.while_(cond if cond is not None else b.lt(J, b.shape(X)),
                    [*body, *(tail if tail is not None else [_step()])])  # fmt: skip


def _kernel(loop: n.Stmt, start: n.Expr | None = None, after: Sequence[n.Stmt] | None = None,
            before: Sequence[n.Stmt] | None = None, checks: int = 0) -> n.Module:  # fmt: skip
    body: list[n.Stmt] = [
        *(before or []),
        b.assign("stride", b.wi("global_size", 0)),
        b.assign("acc", b.c(0.0, t.f32)),
        b.assign("j", start if start is not None else b.gid(0)),
        loop,
        b.store(OUT, b.gid(0), ACC, check=checks or None),
        *(after or []),
    ]
    k = b.kernel("gs", PARAMS, body, LOCALS)
    mod = b.module(k, checks=[b.check(c + 1, "x" if c == 0 else "out") for c in range(checks)])
    return dataclasses.replace(mod, boundscheck=bool(checks))


def _masked(m: n.Module) -> bool:
    body = m.kernel.body
    loops = [s for s in body if isinstance(s, n.While)]
    return Interchange(m.kernel).masked(loops[0], body) is not None


def test_affine_index_forms_are_recognised() -> None:
    assert _masked(_kernel(_loop()))
    assert uses_fission(_kernel(_loop()))  # no barrier: the masked loop alone splits regions
    assert _masked(_kernel(_loop(), start=b.bin_("add", b.gid(0), b.var("m"))))
    assert _masked(_kernel(_loop(), start=b.bin_("add", b.c(3), b.wi("local_id", 0))))
    assert _masked(_kernel(_loop(tail=[_step(b.wi("global_size", 0))])))


def test_non_affine_loops_stay_per_work_item() -> None:
    assert not _masked(_kernel(_loop(), start=b.bin_("mul", b.gid(0), 2)))
    assert not _masked(_kernel(_loop(), start=b.gid(1)))
    assert not _masked(_kernel(_loop(tail=[_step(J)])))  # step depends on the item
    read_after = [b.store(OUT, 0, b.cast(t.f32, J))]
    assert not _masked(_kernel(_loop(), after=read_after))  # needs each item's exit value
    not_last = [_step(), b.assign("acc", b.bin_("add", ACC, b.c(1.0, t.f32)))]
    assert not _masked(_kernel(_loop(tail=not_last)))
    brk = [b.if_(b.lt(b.c(5), J), [n.Break()]), _step()]
    assert not _masked(_kernel(_loop(tail=brk)))
    twice = [b.assign("j", b.gid(0))]
    assert not _masked(_kernel(_loop(), before=twice))  # assigned three times


@pytest.mark.parametrize("grid,block", [(64, (32,)), (48, (16,)), (7, (7,)), ((24, 3), (8, 3))])
def test_grid_stride_sum_matches_the_interpreter(grid: int | tuple[int, ...],
                                                 block: tuple[int, ...]) -> None:  # fmt: skip
    m = _kernel(_loop())
    x = np.random.default_rng(2).uniform(size=1001).astype(np.float32)
    total = int(np.prod(grid))
    out = np.zeros(total, dtype=np.float32)
    both(m, [x, out, 0], grid, block)


def test_items_leave_at_different_iterations_and_stay_out() -> None:
    # The condition turns false and later true again along the index: an item that left must
    # not come back although the group-level base keeps advancing.
    cond = b.and_(b.lt(J, b.shape(X)), b.cmp("ne", b.bin_("mod", J, 7), 3))
    m = _kernel(_loop(cond=cond, tail=[_step(b.c(5))]))
    assert _masked(m)
    x = np.arange(200, dtype=np.float32)
    out = np.zeros(40, dtype=np.float32)
    both(m, [x, out, 0], 40, (8,))
    assert out[3] == 0.0 and out[0] == 0.0 + 5.0  # item 0 leaves at j = 10 (10 % 7 == 3)


def test_returned_items_and_checks() -> None:
    # Items >= m return before the loop; the store after it is checked (out is short).
    ret = [b.if_(b.ge(b.gid(0), b.var("m")), [n.Return()])]
    m = _kernel(_loop(check=1), before=ret, checks=2)
    x = np.random.default_rng(3).uniform(size=300).astype(np.float32)
    out = np.zeros(20, dtype=np.float32)
    err, msg = both(m, [x, out, 20], 32, (16,))
    assert not err.any() and msg is None
    out2 = np.zeros(20, dtype=np.float32)
    err, msg = both(m, [x, out2, 25], 32, (16,))
    assert err[0] == 2 and msg is not None  # item 20's store is out of range


def test_shared_memory_atomics_in_a_masked_loop() -> None:
    hist = b.ref("h", b.shared_t(t.u32, 8))
    data = b.ref("d", b.arr(t.u8))
    bins = b.ref("bins", b.mut(t.u32))
    lid = b.wi("local_id", 0)
    body: list[n.Stmt] = [
        b.if_(b.lt(lid, 8), [b.store(hist, lid, b.c(0, t.u32))]),
        n.Barrier(),
        b.assign("j", b.gid(0)),
        b.while_(b.lt(J, b.shape(data)), [
            n.ExprStmt(b.atomic("add", hist, b.bin_("mod", b.cast(t.i64, b.load(data, J)), 8),
                                b.c(1, t.u32))),
            b.assign("j", b.bin_("add", J, b.wi("global_size", 0))),
        ]),
        n.Barrier(),
        b.if_(b.lt(lid, 8), [n.ExprStmt(b.atomic("add", bins, lid, b.load(hist, lid)))]),
    ]  # fmt: skip
    shared = (n.SharedArray("h", hist.type),)
    k = b.kernel("hist", [b.param("d", data.type), b.param("bins", bins.type)], body,
                 {"j": t.i64}, shared=shared)  # fmt: skip
    m = dataclasses.replace(b.module(k), boundscheck=False)
    d = np.random.default_rng(4).integers(0, 256, size=999).astype(np.uint8)
    got = np.zeros(8, dtype=np.uint32)
    both(m, [d, got], 48, (16,))
    np.testing.assert_array_equal(got, np.bincount(d % 8, minlength=8))


def test_loads_through_the_index_are_contiguous_vectors() -> None:
    text = llvm_ir_text(_kernel(_loop()), optimized=True)
    assert "masked.load.v" in text or "load <" in text
    assert "gather" not in text


def test_unmasked_iterations_need_lanes_that_do_not_wrap() -> None:
    # Lanes 8..15 of group 0 start past the top of i64 (wrapped to negative): the last lane
    # passes ``j <= 0`` but lane 0 does not, so the group must not run all lanes unmasked.
    cnt = b.var("r")
    loop = b.while_(b.cmp("le", J, b.c(0)), [
        b.assign("r", b.bin_("add", cnt, 1)),
        _step(b.c(2**62)),
    ])  # fmt: skip
    body: list[n.Stmt] = [
        b.assign("r", b.c(0)),
        b.assign("j", b.bin_("add", b.gid(0), b.c(2**63 - 8))),
        loop,
        b.store(OUT, b.gid(0), b.cast(t.f32, cnt)),
    ]
    k = b.kernel("wrap", PARAMS, body, LOCALS)
    m = dataclasses.replace(b.module(k), boundscheck=False)
    assert _masked(m)
    out = np.zeros(16, dtype=np.float32)
    both(m, [np.zeros(1, np.float32), out, 0], 16, (16,))
    np.testing.assert_array_equal(out, [0.0] * 8 + [3.0] + [2.0] * 7)


@pytest.mark.parametrize("dtype", [t.f32, t.f64, t.i32, t.u32])
@pytest.mark.parametrize("op", ["min", "max", "add"])
def test_shared_atomics_are_plain_read_modify_writes(op: str, dtype: t.ScalarType) -> None:
    # Shared arrays belong to the one thread running the group: no atomicrmw is needed, and
    # min/max keep atomicrmw's (minnum/maxnum) semantics, NaN included.
    src = b.ref("src", b.arr(dtype))
    dst = b.ref("dst", b.mut(dtype))
    best = b.ref("best", b.shared_t(dtype, 1))
    lid = b.wi("local_id", 0)
    body: list[n.Stmt] = [
        b.if_(b.cmp("eq", lid, 0), [b.store(best, 0, b.load(src, b.gid(0)))]),
        n.Barrier(),
        n.ExprStmt(b.atomic(op, best, 0, b.load(src, b.gid(0)))),
        n.Barrier(),
        b.if_(b.cmp("eq", lid, 0), [b.store(dst, b.wi("group_id", 0), b.load(best, 0))]),
    ]  # fmt: skip
    k = b.kernel("sh", [b.param("src", src.type), b.param("dst", dst.type)], body, {},
                 shared=(n.SharedArray("best", best.type),))  # fmt: skip
    m = dataclasses.replace(b.module(k), boundscheck=False)
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(64) * 100).astype(dtype.np_dtype)
    if dtype.is_float:
        x[3] = np.nan
    out = np.zeros(4, dtype=dtype.np_dtype)
    both(m, [x, out], 64, (16,))
    assert "atomicrmw" not in llvm_ir_text(m, optimized=False)


def test_work_item_pure_locals_are_recomputed_per_region() -> None:
    from codegen.cpu_interchange import rematerialised

    a = b.ref("a", b.arr(t.f32, 2))
    c = b.ref("c", b.mut(t.f32, 2))
    i, jj, kk = b.var("i"), b.var("jj"), b.var("kk")
    acc = b.var("acc", t.f32)
    body: list[n.Stmt] = [
        b.assign("jj", b.gid(0)),
        b.assign("i", b.bin_("add", b.gid(1), b.bin_("mul", jj, 0))),
        b.assign("late", b.c(0)),
        b.if_(b.lt(i, b.shape(c)), [b.assign("n2", b.c(1))]),  # nested: kept per item
        b.assign("acc", b.c(0.0, t.f32)),
        b.for_("kk", 0, b.shape(a, 1), 1, [
            b.assign("acc", b.bin_("add", acc, b.bin_("mul", b.load(a, i, kk, check=1),
                                                      b.load(a, kk, jj, check=2)))),
        ]),
        b.store(c, (i, jj), acc, check=3),
    ]  # fmt: skip
    locals_ = {"jj": t.i64, "i": t.i64, "late": t.i64, "n2": t.i64, "kk": t.i64, "acc": t.f32}
    k = b.kernel("mm", [b.param("a", a.type), b.param("c", c.type)], body, locals_)
    checks = [b.check(1, "a", ndim=2), b.check(2, "a", ndim=2), b.check(3, "c", ndim=2)]
    m = b.module(k, checks=checks)
    assert set(rematerialised(k)) == {"jj", "i", "late"}
    x = np.random.default_rng(6).uniform(size=(16, 16)).astype(np.float32)
    out = np.zeros((16, 16), np.float32)
    err, msg = both(m, [x, out], (16, 16), (8, 4))
    assert not err.any() and msg is None
    np.testing.assert_allclose(out, x @ x, rtol=1e-5)
    assert "gather" not in llvm_ir_text(m, optimized=True)


@pytest.mark.parametrize("m_", [0, 16, 40, 64])
def test_regions_without_guards_when_every_item_runs(m_: int) -> None:
    # Groups where every item takes the branch run unguarded, the others guarded; items that
    # return (gid % 5 == 4, in some groups) make later regions guarded again.
    acc = b.var("acc", t.f32)
    g = b.gid(0)

    def loop(v: str) -> n.ForRange:  # each loop its own variable: all run at group level
        step = b.assign("acc", b.bin_("add", acc, b.load(X, b.var(v))))
        return b.for_(v, 0, b.shape(X), 1, [step])
    body: list[n.Stmt] = [
        b.assign("acc", b.c(1.0, t.f32)),
        b.if_(b.lt(g, b.var("m")), [loop("k1")], [b.assign("acc", b.c(-1.0, t.f32)), loop("k2")]),
        b.if_(b.and_(b.ge(g, 48), b.cmp("eq", b.bin_("mod", g, 5), 4)), [n.Return()]),
        b.if_(b.ge(g, b.var("m")), [loop("k3")]),
        b.store(OUT, g, acc),
    ]
    k = b.kernel("pg", PARAMS, body, {"acc": t.f32, "k1": t.i64, "k2": t.i64, "k3": t.i64})
    assert uses_fission(m := dataclasses.replace(b.module(k), boundscheck=False))
    x = np.arange(5, dtype=np.float32)
    out = np.zeros(64, dtype=np.float32)
    both(m, [x, out, m_], 64, (16,))
    assert out[0] == (11.0 if m_ > 0 else 19.0)


def test_group_uniform_locals_live_once_per_group() -> None:
    from codegen.cpu_interchange import group_uniform_locals

    m = b.tree_reduction(8)
    assert group_uniform_locals(m.kernel) == {"s"}  # lid is per item (and recomputed)
    x = np.random.default_rng(7).uniform(size=32).astype(np.float32)
    out = np.zeros(4, dtype=np.float32)
    err, msg = both(m, [x, out], 32, (8,))
    assert not err.any() and msg is None
    np.testing.assert_allclose(out, x.reshape(4, 8).sum(axis=1), rtol=1e-6)
    # Assigned inside a loop without a barrier (per item), or from an item's value: per item.
    k = m.kernel
    per_item = dataclasses.replace(k, body=(*k.body, b.assign("s", b.var("lid"))))
    assert group_uniform_locals(per_item) == set()
    in_loop = dataclasses.replace(k, body=(*k.body, b.for_("q", 0, 3, 1, [
        b.assign("s", b.c(1))])), locals={**k.locals, "q": t.i64})  # fmt: skip
    assert group_uniform_locals(in_loop) == set()


@pytest.mark.parametrize("u", [-(2**63), -3, 0, 5, 8, 2**63 - 1])
@pytest.mark.parametrize("query", ["local_id", "global_id"])
def test_regions_under_an_id_bound_run_only_those_items(u: int, query: str) -> None:
    # ``if id(0) < u`` alone in a region (after a barrier) runs a shortened item loop.
    o = b.ref("o", b.mut(t.i64))
    sh = b.ref("sh", b.shared_t(t.i64, 8))
    lid = b.var("lid")
    body: list[n.Stmt] = [
        b.assign("lid", b.wi("local_id")),
        b.store(sh, lid, b.bin_("mul", b.gid(0), 3)),
        n.Barrier(),
        b.if_(b.lt(b.wi(query) if query == "global_id" else lid, b.var("u")),
              [b.store(o, b.gid(0), b.load(sh, b.bin_("sub", 7, lid)))]),
        n.Barrier(),
    ]  # fmt: skip
    k = b.kernel("nar", [b.param("o", o.type), b.param("u", t.i64)], body, {"lid": t.i64},
                 shared=(n.SharedArray("sh", sh.type),))  # fmt: skip
    m = dataclasses.replace(b.module(k), boundscheck=False)
    out = np.full(32, -1, dtype=np.int64)
    both(m, [out, u], 32, (8,))
    ran = (out != -1).sum()
    assert ran == (min(max(u, 0), 8) * 4 if query == "local_id" else min(max(u, 0), 32))
