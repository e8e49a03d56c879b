"""The reference interpreter's work-groups: barriers, shared memory, atomics."""

from __future__ import annotations

import numpy as np
import pytest

from gpuoff.ir import interp
from gpuoff.ir import nodes as n
from gpuoff.ir.types import f32, i32, i64
from gpuoff.ir.verify import verify
from tests.unit import irbuild as b

BLOCK = 8


def test_barrier_tree_reduction_is_exact() -> None:
    x = np.arange(32, dtype=np.float32) ** 2
    out = np.zeros(4, dtype=np.float32)
    interp.run(b.tree_reduction(BLOCK), [x, out], 32, BLOCK)
    assert out.tolist() == x.reshape(4, BLOCK).sum(axis=1).tolist()


def test_reduction_without_barriers_would_differ() -> None:
    """The lockstep schedule matters: dropping the barriers changes the result, so the test
    above really exercises them (items run in order between barriers)."""
    m = b.tree_reduction(BLOCK)

    def strip(body: tuple[n.Stmt, ...]) -> tuple[n.Stmt, ...]:
        res: list[n.Stmt] = []
        for st in body:
            if isinstance(st, n.Barrier):
                continue
            if isinstance(st, n.While):
                st = n.While(st.cond, strip(st.body))
            res.append(st)
        return tuple(res)

    from dataclasses import replace

    m2 = replace(m, kernel=replace(m.kernel, body=strip(m.kernel.body)))
    x = np.arange(32, dtype=np.float32) ** 2
    out = np.zeros(4, dtype=np.float32)
    interp.run(m2, [x, out], 32, BLOCK)
    assert out.tolist() != x.reshape(4, BLOCK).sum(axis=1).tolist()


def test_shared_arrays_are_per_group() -> None:
    """Each group counts its own items in shared memory; a shared array shared by all groups
    would accumulate across them."""
    out = b.ref("out", b.mut(i32))
    sh = b.ref("cnt", b.shared_t(i32, 1))
    lid = b.wi("local_id")
    body: list[n.Stmt] = [
        b.if_(b.cmp("eq", lid, 0), [b.store(sh, 0, b.c(0, i32))]),
        n.Barrier(),
        n.ExprStmt(b.atomic("add", sh, 0, b.c(1, i32))),
        n.Barrier(),
        b.if_(b.cmp("eq", lid, 0), [b.store(out, b.wi("group_id"), b.load(sh, 0))]),
    ]
    k = b.kernel("k", [b.param("out", out.type)], body, shared=(n.SharedArray("cnt", sh.type),))
    m = b.module(k)
    verify(m)
    res = np.zeros(3, dtype=np.int32)
    interp.run(m, [res], 12, 4)
    assert res.tolist() == [4, 4, 4]


def test_atomics_return_old_values() -> None:
    hist = b.ref("hist", b.mut(i32))
    olds = b.ref("olds", b.mut(i32))
    mn = b.ref("mn", b.mut(f32))
    g = b.gid()
    body: list[n.Stmt] = [
        b.store(olds, g, b.atomic("add", hist, b.bin_("mod", g, 3), b.c(1, i32))),
        n.ExprStmt(b.atomic("min", mn, 0, b.cast(f32, g))),
        n.ExprStmt(b.atomic("max", mn, 1, b.cast(f32, g))),
    ]
    params = [b.param("hist", hist.type), b.param("olds", olds.type), b.param("mn", mn.type)]
    m = b.module(b.kernel("k", params, body))
    verify(m)
    h = np.zeros(3, np.int32)
    o = np.zeros(10, np.int32)
    extremes = np.array([100.0, -1.0], np.float32)
    interp.run(m, [h, o, extremes], 10)
    assert h.tolist() == [4, 3, 3]
    assert sorted(o.tolist()) == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3]
    assert extremes.tolist() == [0.0, 9.0]


def test_barrier_under_divergent_control_is_undefined() -> None:
    out = b.ref("out", b.mut(i32))
    body: list[n.Stmt] = [
        b.if_(b.cmp("eq", b.wi("local_id"), 0), [n.Return()]),
        n.Barrier(),
        b.store(out, 0, b.c(1, i32)),
    ]
    m = b.module(b.kernel("k", [b.param("out", out.type)], body))
    with pytest.raises(interp.UndefinedBehaviorError, match="barrier"):
        interp.run(m, [np.zeros(1, np.int32)], 4, 4)


def test_partial_default_group_runs_only_grid_items() -> None:
    out = b.ref("out", b.mut(i64))
    body: list[n.Stmt] = [n.ExprStmt(b.atomic("add", out, 0, b.c(1)))]
    m = b.module(b.kernel("k", [b.param("out", out.type)], body))
    res = np.zeros(1, np.int64)
    interp.run(m, [res], 130)  # default block 64: groups of 64, 64, 2
    assert res[0] == 130
