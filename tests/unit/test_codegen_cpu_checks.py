"""CPU bounds-check strategies: exact records with vectorisable loops (codegen.cpu_checks)."""

from __future__ import annotations

import numpy as np
import pytest

from codegen.cpu import llvm_ir_text
from codegen.cpu_checks import replay_safe
from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from tests.unit import irbuild as b
from tests.unit.test_codegen_cpu_loader import run_cpu
from tests.unit.test_codegen_cpu_ops import both

X = b.ref("x", b.arr(t.i64))
Y = b.ref("y", b.mut(t.i64))
I = b.var("i")  # noqa: E741
PARAMS = [b.param("x", X.type), b.param("y", Y.type)]


def _module(body: list[n.Stmt], *functions: n.Function, checks: int = 2) -> n.Module:
    full: list[n.Stmt] = [b.assign("i", b.gid(0)), *body]
    return b.module(b.kernel("k", PARAMS, full, {"i": t.i64, "v": t.i64}), *functions,
                    checks=checks)  # fmt: skip


def _increment_and_read() -> n.Module:
    # y[i] += 1 (unchecked); y[i] += x[i + 3] (x checked): stores must not run twice.
    return _module([
        b.store(Y, I, b.bin_("add", b.load(Y, I), 1)),
        b.store(Y, I, b.bin_("add", b.load(Y, I), b.load(X, b.bin_("add", I, 3), check=1))),
    ])  # fmt: skip


def _index_from_written_memory() -> n.Module:
    # y[i] = i * 2; v = x[y[i]]: the index comes from memory the kernel writes.
    return _module([
        b.store(Y, I, b.bin_("mul", I, 2)),
        b.assign("v", b.load(X, b.load(Y, I), check=1)),
        b.store(Y, I, b.bin_("add", b.var("v"), 1)),
    ])  # fmt: skip


def _index_from_atomic() -> n.Module:
    slot = b.atomic("add", Y, 0, 1)
    return _module([b.assign("v", slot), b.store(Y, b.var("v"), I, check=1)])


def test_replay_safety_analysis() -> None:
    assert replay_safe(_increment_and_read())
    assert not replay_safe(_index_from_written_memory())
    assert not replay_safe(_index_from_atomic())
    guarded = b.assign("v", b.load(X, I, check=1))
    read_only_cond: list[n.Stmt] = [b.if_(b.cmp("gt", b.load(Y, I), 0), [guarded])]
    assert replay_safe(_module(read_only_cond))  # y is never written
    assert not replay_safe(_module([*read_only_cond, b.store(Y, I, b.c(0))]))
    writer = b.func("w", [b.param("y", Y.type)], [b.store(Y, 0, b.c(1))])
    impure_call = _module([n.ExprStmt(n.Call(t.boolean, "w", (Y,))),
                           b.assign("v", b.load(X, I, check=1))], writer)  # fmt: skip
    assert not replay_safe(impure_call)
    barrier = _module([n.Barrier(), b.assign("v", b.load(X, I, check=1))])
    assert not replay_safe(barrier)


def test_replayed_row_does_not_repeat_stores() -> None:
    xs = np.arange(10, dtype=np.int64) * 100
    ys = np.zeros(10, dtype=np.int64)
    err, msg = both(_increment_and_read(), [xs, ys], 10)
    want = np.array([1 + (100 * (i + 3) if i + 3 < 10 else 0) for i in range(10)])
    np.testing.assert_array_equal(ys, want)
    assert err[0] == 1 and err[1] == 10  # the first failure (i = 7: x[10])
    assert msg is not None


def test_rows_strategy_records_indices_read_from_memory() -> None:
    xs = np.arange(12, dtype=np.int64)
    ys = np.zeros(10, dtype=np.int64)
    err, _ = both(_index_from_written_memory(), [xs, ys], 10)
    assert err[0] == 1 and err[1] == 12  # i = 6 is the first with 2 * i >= 12
    np.testing.assert_array_equal(ys, [2 * i + 1 if 2 * i < 12 else 1 for i in range(10)])


def test_rows_strategy_with_atomic_index() -> None:
    ys = np.zeros(4, dtype=np.int64)
    err = run_cpu(_index_from_atomic(), [np.zeros(1, dtype=np.int64), ys], 6)
    assert err[0] == 1 and err[1] >= 4


@pytest.mark.parametrize("factory", [_increment_and_read, _index_from_written_memory])
def test_both_strategies_keep_the_row_loop_vectorised(factory: object) -> None:
    assert callable(factory)
    text = llvm_ir_text(factory(), optimized=True)
    assert "<4 x i64>" in text or "<8 x i64>" in text


def test_failures_in_many_rows_of_a_2d_grid() -> None:
    src = b.ref("src", b.arr(t.f32, 2))
    dst = b.ref("dst", b.mut(t.f32, 2))
    idx = (b.gid(1), b.bin_("add", b.gid(0), 1))
    body: list[n.Stmt] = [b.store(dst, (b.gid(1), b.gid(0)), b.load(src, *idx, check=1))]
    k = b.kernel("shift", [b.param("src", src.type), b.param("dst", dst.type)], body)
    m = b.module(k, checks=[b.check(1, "src", ndim=2)])
    s = np.arange(20, dtype=np.float32).reshape(4, 5)
    d = np.full((4, 5), -1, dtype=np.float32)
    err, _ = both(m, [s, d], (5, 4), (5, 2))
    assert err[0] == 1 and err[2] == 5 and 0 <= err[1] < 4
    np.testing.assert_array_equal(d[:, :4], s[:, 1:])
    np.testing.assert_array_equal(d[:, 4], 0)


def test_checked_device_function_in_a_vectorised_row() -> None:
    v = b.ref("v", b.arr(t.f32))
    h = b.func("h", [b.param("v", v.type), b.param("j", t.i64)],
               [n.Return(b.bin_("mul", b.load(v, b.var("j"), check=1), 2.0))], ret=t.f32)
    out = b.ref("out", b.mut(t.f32))
    body: list[n.Stmt] = [b.store(out, b.gid(0), n.Call(t.f32, "h", (v, b.gid(0))))]
    k = b.kernel("k", [b.param("v", v.type), b.param("out", out.type)], body)
    m = b.module(k, h, checks=[b.check(1, "v", function="h")])
    assert "<8 x float>" in llvm_ir_text(m, optimized=True) or "<4 x float>" in llvm_ir_text(
        m, optimized=True
    )
    vs = np.arange(50, dtype=np.float32)
    res = np.zeros(64, dtype=np.float32)
    err, msg = both(m, [vs, res], 64)
    assert err[0] == 1 and err[1] == 50 and msg is not None
    np.testing.assert_array_equal(res[:50], vs * 2)
    np.testing.assert_array_equal(res[50:], 0)
