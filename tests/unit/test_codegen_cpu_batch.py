"""Work-groups run in batches around top-level grid-stride loops (codegen.cpu_batch)."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence

import numpy as np
import pytest

import codegen.cpu_batch as cpu_batch
from codegen.cpu import llvm_ir_text
from codegen.cpu_batch import batch_parts
from codegen.cpu_interchange import Interchange
from gpuoff.errors import BoundsError
from gpuoff.ir import interp
from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from tests.unit import irbuild as b
from tests.unit.test_codegen_cpu_loader import run_cpu

X = b.ref("x", b.arr(t.f32))
OUT = b.ref("out", b.mut(t.f32))
SH = b.ref("sh", b.shared_t(t.i64, 8))
LID, G, ACC, J, CNT = b.var("lid"), b.var("g"), b.var("acc", t.f32), b.var("j"), b.var("cnt")
LOCALS = {"lid": t.i64, "g": t.i64, "acc": t.f32, "j": t.i64, "cnt": t.i64, "k": t.i64,
          "j2": t.i64, "big": t.i64}  # fmt: skip


def _grid_stride(var: str, start: n.Expr, body: list[n.Stmt]) -> list[n.Stmt]:
    v = b.var(var)
    step = b.assign(var, b.bin_("add", v, b.wi("global_size", 0)))
    return [b.assign(var, start), b.while_(b.lt(v, b.shape(X)), [*body, step])]


def _kernel(start: n.Expr | None = None, second: bool = False, checked: bool = False) -> n.Module:
    """State of every kind lives across the loop: a shared array, a group-uniform local, per-
    item locals, and a group-level loop (with a barrier) whose trip count depends on the group.
    Optionally a second grid-stride loop after the first (three group-by-group parts)."""
    flat = b.bin_("add", b.gid(0), b.bin_("mul", b.gid(1), b.wi("global_size", 0)))
    load = b.load(X, J, check=1 if checked else None)
    body: list[n.Stmt] = [
        b.assign("lid", b.wi("local_id")),
        b.assign("g", b.c(0)),
        b.assign("g", b.bin_("add", b.bin_("mul", b.wi("group_id"), 10), b.wi("group_id", 1))),
        b.if_(b.cmp("eq", b.wi("local_id", 1), 0),
              [b.store(SH, LID, b.bin_("add", b.bin_("mul", b.wi("group_id"), 100), LID))]),
        b.assign("acc", b.c(0.0, t.f32)),
        b.assign("acc", b.cast(t.f32, LID)),
        b.assign("cnt", b.c(0)),
        b.for_("k", 0, b.bin_("mod", b.wi("group_id"), 3), 1, [
            n.Barrier(), b.assign("cnt", b.bin_("add", CNT, 1))]),
        *_grid_stride("j", start if start is not None else b.gid(0),
                      [b.assign("acc", b.bin_("add", ACC, load))]),
        n.Barrier(),
    ]  # fmt: skip
    if second:
        big = b.cast(t.i64, b.cmp("gt", b.load(X, b.var("j2")), b.c(0.5, t.f32)))
        more = b.bin_("mul", b.var("big"), 10000)
        body += [b.assign("big", b.c(0)),
                 *_grid_stride("j2", b.bin_("add", b.gid(0), 3),
                               [b.assign("big", b.bin_("add", b.var("big"), big))]),
                 b.assign("cnt", b.bin_("add", CNT, more))]  # fmt: skip
    nb = b.bin_("mod", b.bin_("add", LID, 1), 8)
    extra = b.bin_("add", b.bin_("add", b.load(SH, nb), G), b.bin_("mul", CNT, 1000))
    body.append(b.store(OUT, flat, b.bin_("add", ACC, b.cast(t.f32, extra))))
    params = [b.param("x", X.type), b.param("out", OUT.type)]
    k = b.kernel("batched", params, body, LOCALS, shared=(n.SharedArray("sh", SH.type),))
    m = b.module(k, checks=[b.check(1, "x", function="batched")] if checked else [])
    return dataclasses.replace(m, boundscheck=checked)


def _run(m: n.Module, size: int, grid: Sequence[int], block: Sequence[int],
         chunks: int = 2) -> tuple[np.ndarray, np.ndarray, str | None]:  # fmt: skip
    """(CPU output, interpreter output, CPU err record, interpreter error message)."""
    x = np.random.default_rng(size).uniform(size=size).astype(np.float32)
    total = int(np.prod(grid))
    got, want = np.zeros(total, np.float32), np.zeros(total, np.float32)
    message = None
    try:
        interp.run(m, [x, want], tuple(grid), tuple(block))
    except BoundsError as e:
        message = str(e)
    err = run_cpu(m, [x, got], list(grid), block, chunks=chunks)
    if message is None:
        np.testing.assert_array_equal(got, want)
    return got, err, message


def test_top_level_grid_stride_loops_split_the_body() -> None:
    m = _kernel(second=True)
    k = m.kernel
    parts = batch_parts(k, Interchange(k))
    assert parts is not None
    kinds = [type(p).__name__ for p in parts]
    assert kinds == ["tuple", "While", "tuple", "While", "tuple"]
    assert "batch.head" in llvm_ir_text(m, optimized=False)


def test_kernels_with_return_or_nested_loops_are_not_batched() -> None:
    k = _kernel().kernel
    ret = dataclasses.replace(k, body=(b.if_(b.ge(b.gid(0), 1000), [n.Return()]), *k.body))
    assert batch_parts(ret, Interchange(ret)) is None
    loop = next(s for s in k.body if isinstance(s, n.While))
    pos = k.body.index(loop)
    nested = (*k.body[: pos - 1], b.if_(b.ge(b.gid(0), 0), [k.body[pos - 1], loop]),
              *k.body[pos + 1 :])  # fmt: skip
    inner = dataclasses.replace(k, body=nested)
    assert Interchange(inner).masked_loops(inner.body)  # still masked, but not top level
    assert batch_parts(inner, Interchange(inner)) is None


@pytest.mark.parametrize(
    "grid,block",
    [((64,), (8,)), ((56,), (8,)), ((8,), (8,)), ((24, 3), (8, 1)), ((24, 6), (8, 3)),
     ((1000,), (8,))],
)  # fmt: skip
def test_every_group_keeps_its_own_state(grid: tuple[int, ...], block: tuple[int, ...]) -> None:
    # Many groups per batch (a small block): a state shared between the groups of a batch
    # would mix their shared arrays, group-uniform locals or per-item locals.
    got, err, message = _run(_kernel(), 997, grid, block)
    assert not err.any() and message is None
    assert len(set(got.tolist())) > grid[0] // 2  # non-vacuous: items (along x) differ


@pytest.mark.parametrize("chunks", [1, 3, 7])
def test_batches_end_at_chunk_and_row_boundaries(chunks: int) -> None:
    _, err, _ = _run(_kernel(second=True), 700, (40, 3), (8, 1), chunks=chunks)
    assert not err.any()


@pytest.mark.parametrize("start", ["local", "offset"])
def test_loops_that_do_not_stream_across_groups(start: str) -> None:
    # Every group walks the same elements (local_id start), or a group-dependent offset:
    # prefetching cannot follow the batch's slab, the results must not change.
    first = (b.wi("local_id") if start == "local"
             else b.bin_("add", b.gid(0), b.bin_("mul", b.wi("group_id"), 3)))  # fmt: skip
    _, err, _ = _run(_kernel(start=first), 333, (48,), (8,))
    assert not err.any()


def test_one_group_per_batch_when_the_state_is_large(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cpu_batch, "BATCH_BYTES", 1)
    m = _kernel(second=True)  # a new module: compiled now, with the small budget
    _, err, _ = _run(m, 500, (64,), (8,))
    assert not err.any()


def test_a_failing_check_in_a_batched_loop_is_reported() -> None:
    # The loop's bound is x's shape, but the index starts past it for the last groups.
    m = _kernel(start=b.bin_("add", b.gid(0), b.wi("group_id")), checked=True)
    _, err, message = _run(m, 60, (64,), (8,))
    assert message is None and not err.any()  # the loop condition guards every access
    guard = b.lt(J, b.bin_("add", b.shape(X), 5))
    k = m.kernel
    body = [dataclasses.replace(s, cond=guard) if isinstance(s, n.While) else s for s in k.body]
    bad = dataclasses.replace(m, kernel=dataclasses.replace(k, body=tuple(body)))
    _, err, message = _run(bad, 60, (64,), (8,))
    assert message is not None and err[0] == 1 and 60 <= err[1] < 65


def test_shared_histogram_counts_exactly_in_batches() -> None:
    hist = b.ref("h", b.shared_t(t.u32, 16))
    data = b.ref("d", b.arr(t.u8))
    bins = b.ref("bins", b.mut(t.u32))
    lid = b.wi("local_id", 0)
    jv = b.var("j")
    body: list[n.Stmt] = [
        b.store(hist, lid, b.c(0, t.u32)),
        n.Barrier(),
        b.assign("j", b.gid(0)),
        b.while_(b.lt(jv, b.shape(data)), [
            n.ExprStmt(b.atomic("add", hist, b.bin_("mod", b.cast(t.i64, b.load(data, jv)), 16),
                                b.c(1, t.u32))),
            b.assign("j", b.bin_("add", jv, b.wi("global_size", 0))),
        ]),
        n.Barrier(),
        n.ExprStmt(b.atomic("add", bins, lid, b.load(hist, lid))),
    ]  # fmt: skip
    k = b.kernel("hist16", [b.param("d", data.type), b.param("bins", bins.type)], body,
                 {"j": t.i64}, shared=(n.SharedArray("h", hist.type),))  # fmt: skip
    m = dataclasses.replace(b.module(k), boundscheck=False)
    assert batch_parts(k, Interchange(k)) is not None
    d = np.random.default_rng(9).integers(0, 256, size=10007).astype(np.uint8)
    for chunks in (1, 2, 5):
        got = np.zeros(16, dtype=np.uint32)
        err = run_cpu(m, [d, got], [16 * 40], (16,), chunks=chunks)
        assert not err.any()
        np.testing.assert_array_equal(got, np.bincount(d % 16, minlength=16))
    want = np.zeros(16, dtype=np.uint32)
    interp.run(m, [copy.deepcopy(d), want], (16 * 40,), (16,))
    np.testing.assert_array_equal(want, np.bincount(d % 16, minlength=16))


@pytest.mark.parametrize("batched", [False, True])
def test_a_group_level_loop_variable_keeps_python_semantics_after_the_loop(
    batched: bool,
) -> None:
    # After the loop: its last value, or (no iteration) each item's own earlier value.
    o = b.ref("o", b.mut(t.i64))
    kv = b.var("k")
    body: list[n.Stmt] = [
        b.assign("k", b.bin_("mul", b.wi("local_id"), 3)),
        b.for_("k", 0, b.bin_("mod", b.wi("group_id"), 3), 1, [n.Barrier()]),
    ]
    if batched:
        body += _grid_stride("j", b.gid(0), [b.assign("k", b.bin_("add", kv, 1))])
    body.append(b.store(o, b.gid(0), kv))
    params = [b.param("x", X.type), b.param("o", o.type)]
    k = b.kernel("forvar", params, body, {"k": t.i64, "j": t.i64})
    m = dataclasses.replace(b.module(k), boundscheck=False)
    assert (batch_parts(k, Interchange(k)) is not None) == batched
    x = np.zeros(100, np.float32)
    got, want = np.zeros(48, np.int64), np.zeros(48, np.int64)
    interp.run(m, [x, want], (48,), (8,))
    err = run_cpu(m, [x, got], [48], (8,))
    assert not err.any()
    np.testing.assert_array_equal(got, want)
    assert want[3] == 9 + (3 if batched else 0) and want[8 + 3] == 0 + (2 if batched else 0)
