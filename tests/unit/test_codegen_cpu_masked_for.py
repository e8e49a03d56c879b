"""Grid-stride ``for`` loops run masked at group level on the CPU, like ``while`` ones.

``for j in range(global_id(0) + offset, stop, step)`` with a uniform stop and a step positive
by construction is one group-level loop around a vectorised work-item loop
(``codegen.cpu_interchange.Interchange.masked``, ``codegen.cpu_masked``); every other ``for``
loop keeps its per-work-item lowering. Results agree bit for bit with the interpreter.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import pytest

from codegen.cpu import llvm_ir_text
from codegen.cpu_interchange import Interchange, uses_fission
from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from gpuoff.ir.bounds import eliminate_redundant_checks
from gpuoff.ir.uniform_exprs import positive_step
from tests.unit import irbuild as b
from tests.unit.test_codegen_cpu_ops import both

X = b.ref("x", b.arr(t.f32))
OUT = b.ref("out", b.mut(t.f32))
PARAMS = [b.param("x", X.type), b.param("out", OUT.type), b.param("m", t.i64)]
ACC = b.var("acc", t.f32)
J = b.var("j")
LOCALS = {"acc": t.f32, "j": t.i64, "stride": t.i64}
GSIZE = b.wi("global_size", 0)


def _for(start: n.Expr | None = None, stop: n.Expr | None = None, step: n.Expr | None = None,
         body: Sequence[n.Stmt] | None = None, check: int | None = None) -> n.ForRange:  # fmt: skip
    add: list[n.Stmt] = [b.assign("acc", b.bin_("add", ACC, b.load(X, J, check=check)))]
    return b.for_("j", start if start is not None else b.gid(0),
                  stop if stop is not None else b.shape(X), step if step is not None else GSIZE,
                  list(body) if body is not None else add)  # fmt: skip


def _kernel(*loops: n.Stmt, after: Sequence[n.Stmt] = (), checks: int = 0) -> n.Module:
    body: list[n.Stmt] = [
        b.assign("stride", GSIZE),
        b.assign("acc", b.c(0.0, t.f32)),
        *loops,
        b.store(OUT, b.gid(0), ACC, check=checks or None),
        *after,
    ]
    k = b.kernel("gsfor", PARAMS, body, LOCALS)
    mod = b.module(k, checks=[b.check(c + 1, "x" if c == 0 else "out") for c in range(checks)])
    return dataclasses.replace(mod, boundscheck=bool(checks))


def _masked(m: n.Module, which: int = 0) -> bool:
    body = m.kernel.body
    loops = [s for s in body if isinstance(s, n.ForRange)]
    return Interchange(m.kernel).masked(loops[which], body) is not None


def test_grid_stride_for_loops_are_recognised() -> None:
    assert _masked(_kernel(_for()))
    assert uses_fission(_kernel(_for()))
    assert _masked(_kernel(_for(start=b.bin_("add", b.gid(0), b.var("m")))))
    assert _masked(_kernel(_for(start=b.bin_("add", b.c(3), b.wi("local_id", 0)))))
    assert _masked(_kernel(_for(step=b.var("stride"))))  # a local holding the grid's size
    assert _masked(_kernel(_for(step=b.c(64))))
    assert _masked(_kernel(_for(step=b.bin_("mul", GSIZE, 2))))
    assert _masked(_kernel(_for(stop=b.var("m"))))
    # several loops over one variable, read only in their bodies (a softmax's three passes)
    m = _kernel(_for(), _for(step=b.c(16)))
    assert _masked(m, 0) and _masked(m, 1)


def test_other_for_loops_stay_per_work_item() -> None:
    assert not _masked(_kernel(_for(step=b.var("m"))))  # a step of unknown sign
    assert not _masked(_kernel(_for(step=b.c(-1), stop=b.c(-5))))
    assert not _masked(_kernel(_for(start=b.bin_("mul", b.gid(0), 2))))
    assert not _masked(_kernel(_for(start=b.gid(1))))
    assert not _masked(_kernel(_for(stop=b.cast(t.i64, b.load(X, 0)))))  # stop from memory
    read_after = [b.store(OUT, 0, b.cast(t.f32, J))]
    assert not _masked(_kernel(_for(), after=read_after))  # needs each item's last value
    skip = [b.if_(b.lt(b.c(5), J), [n.Continue()]), *(_for().body)]
    assert not _masked(_kernel(_for(body=skip)))
    assigned = [b.assign("j", b.bin_("add", J, 1)), *(_for().body)]
    assert not _masked(_kernel(_for(body=assigned)))
    inner = b.for_("j", 0, 2, 1, list(_for().body))
    assert not _masked(_kernel(_for(body=[inner])))


def test_positive_steps_by_construction() -> None:
    assert positive_step(GSIZE) and positive_step(b.wi("num_groups", 1))
    cuda = b.bin_("mul", b.wi("local_size", 0), b.wi("num_groups", 0))  # blockDim * gridDim
    assert positive_step(cuda) and positive_step(b.bin_("mul", cuda, 4))
    assert positive_step(b.bin_("mul", GSIZE, b.wi("global_size", 1)))
    assert not positive_step(b.bin_("mul", GSIZE, b.wi("local_size", 0)))  # may pass 2**62
    assert positive_step(b.cast(t.i64, b.c(3, t.i32)))
    assert not positive_step(b.c(0)) and not positive_step(b.var("m"))
    assert not positive_step(b.bin_("sub", GSIZE, 1))
    assert not positive_step(b.bin_("mul", GSIZE, b.c(2**20)))  # could pass 2**62
    assert not positive_step(b.cast(t.i8, GSIZE))  # narrowing


@pytest.mark.parametrize("grid,block", [(64, (32,)), (48, (16,)), (7, (7,)), ((24, 3), (8, 3))])
@pytest.mark.parametrize("step", ["grid", "const"])
def test_grid_stride_for_sum_matches_the_interpreter(
    grid: int | tuple[int, ...], block: tuple[int, ...], step: str
) -> None:
    m = _kernel(_for(step=GSIZE if step == "grid" else b.c(5)))
    assert _masked(m)
    x = np.random.default_rng(2).uniform(size=1001).astype(np.float32)
    out = np.zeros(int(np.prod(grid)), dtype=np.float32)
    both(m, [x, out, 0], grid, block)
    assert out.any()


def test_two_loops_over_one_variable() -> None:
    # the first loop sums x[j], the second adds 2 * x[j] from a later start: each loop's reads
    # see its own values
    twice = [b.assign("acc", b.bin_("add", ACC, b.bin_("mul", b.c(2.0, t.f32), b.load(X, J))))]
    m = _kernel(_for(), _for(start=b.bin_("add", b.gid(0), b.c(10)), body=twice))
    assert _masked(m, 0) and _masked(m, 1)
    x = np.random.default_rng(3).uniform(size=333).astype(np.float32)
    out = np.zeros(40, dtype=np.float32)
    both(m, [x, out, 0], 40, (8,))


def test_a_failing_check_in_a_grid_stride_for_loop() -> None:
    # stop = m lets the loop read past the end of x: the same check fails on both
    m = _kernel(_for(stop=b.var("m"), check=1), checks=2)
    x = np.random.default_rng(4).uniform(size=100).astype(np.float32)
    out = np.zeros(32, dtype=np.float32)
    err, msg = both(m, [x, out, 100], 32, (16,))
    assert not err.any() and msg is None
    err, msg = both(m, [x, np.zeros(32, np.float32), 130], 32, (16,))
    assert err[0] == 1 and msg is not None


def test_indices_past_the_largest_integer_end_the_loop() -> None:
    # range(gid + 2**63 - 20, 2**63 - 1, 8): lanes leave as their next index would pass the
    # top of i64, where ``j += step`` wraps to negative numbers that are below the stop.
    top = 2**63 - 1
    cnt = b.var("r")
    loop = b.for_("j", b.bin_("add", b.gid(0), b.c(top - 19)), b.c(top), b.c(8),
                  [b.assign("r", b.bin_("add", cnt, 1))])  # fmt: skip
    body: list[n.Stmt] = [b.assign("r", b.c(0)), loop, b.store(OUT, b.gid(0), b.cast(t.f32, cnt))]
    k = b.kernel("wrap", PARAMS, body, {**LOCALS, "r": t.i64})
    m = dataclasses.replace(b.module(k), boundscheck=False)
    assert Interchange(m.kernel).masked(loop, body) is not None
    out = np.zeros(16, dtype=np.float32)
    both(m, [np.zeros(1, np.float32), out, 0], 16, (16,))
    # lane l runs the indices top - 19 + l, + 8, + 16 below top
    want = [len(range(top - 19 + lane, top, 8)) for lane in range(16)]
    np.testing.assert_array_equal(out, np.array(want, np.float32))


def test_loads_through_the_loop_variable_are_contiguous_vectors() -> None:
    text = llvm_ir_text(_kernel(_for()), optimized=True)
    assert "load <" in text and "gather" not in text


def test_bounds_of_a_grid_stride_range_remove_its_checks() -> None:
    # j in [global_id(0), x.shape[0]): x[j] needs no check once the step is known positive
    m = _kernel(_for(check=1), checks=2)
    loop = next(s for s in eliminate_redundant_checks(m).kernel.body if isinstance(s, n.ForRange))
    assert not any(isinstance(e, n.Load) and e.check for e in _exprs(loop.body))
    unknown = _kernel(_for(step=b.var("m"), check=1), checks=2)
    loop = next(s for s in eliminate_redundant_checks(unknown).kernel.body
                if isinstance(s, n.ForRange))  # fmt: skip
    assert any(isinstance(e, n.Load) and e.check for e in _exprs(loop.body))


def _exprs(stmts: Sequence[n.Stmt]) -> list[n.Expr]:
    from gpuoff.ir.walk import walk_exprs

    return list(walk_exprs(stmts))
