"""The uniformity analysis (``gpuoff.ir.uniformity``) and the run-time votes it leads to
(``gpuoff.ir.barrier_votes``), on lowered kernels: which levels conditions get, which exits
skip which barriers, and what the votes look like in the IR and in the interpreter."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32
from gpuoff.frontend import lower_kernel, parse_signature
from gpuoff.ir import interp
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from gpuoff.ir.barrier_votes import VOTE_ARRAY
from gpuoff.ir.uniformity import DIVERGENT, RUNTIME, analyse
from gpuoff.ir.verify import verify


def lower(fn: Callable[..., Any]) -> N.Module:
    types: list[T.ScalarType | T.ArrayType] = [
        T.ArrayType(d.dtype, 1) if d.is_array else d.dtype for d in parse_signature(fn)
    ]
    module = lower_kernel(fn, types)
    verify(module)
    return module


def _conditions(module: N.Module) -> list[int]:
    """The level rank of each If/While/ForRange condition, in program order."""
    a = analyse(module)
    out: list[int] = []

    def walk(stmts: tuple[N.Stmt, ...]) -> None:
        for s in stmts:
            if isinstance(s, N.If | N.While | N.ForRange):
                out.append(a.conditions[id(s)].rank)
            for body in (getattr(s, "body", ()), getattr(s, "orelse", ())):
                walk(body)

    walk(module.kernel.body)
    return out


def k_levels(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], n: i32) -> None:
    s = go.shared(8, go.f32)
    i = go.global_id(0)
    if n > 0:  # a scalar: uniform
        y[0] = 1.0
    if x[0] > 0.0:  # a Borrow array at a uniform index: uniform
        y[0] = 2.0
    if y[0] > 0.0:  # a BorrowMut array: only a run can tell
        y[0] = 3.0
    if s[0] > 0.0:  # shared memory: only a run can tell
        y[0] = 4.0
    if x[i] > 0.0:  # a work-item's own element: divergent
        y[i] = 5.0
    if go.group_id(0) == 1:  # group ids and sizes: uniform
        y[0] = 6.0


def test_condition_levels() -> None:
    assert _conditions(lower(k_levels)) == [0, 0, RUNTIME, RUNTIME, DIVERGENT, 0]


def k_control_dependence(y: BorrowMut[Array[f32]]) -> None:
    lid = go.local_id(0)
    flag = 0
    if lid == 0:
        flag = 1
    if flag == 1:  # flag was assigned under a divergent condition
        y[0] = 1.0
    k = 0
    for k in range(4):
        if lid == k:
            break
    if k > 2:  # the loop's exit value differs per work-item
        y[1] = 1.0
    m = 0
    for m in range(4):  # noqa: B007 - read after the loop
        pass
    if m > 2:  # a uniform loop: its variable stays uniform
        y[2] = 1.0


def test_control_dependence_makes_variables_divergent() -> None:
    assert _conditions(lower(k_control_dependence)) == [DIVERGENT, DIVERGENT, 0, DIVERGENT,
                                                        DIVERGENT, 0, 0]  # fmt: skip


def k_exits(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    for _ in range(3):
        if x[i] > 1.0:
            continue  # before the barrier of this iteration: skips it
        go.barrier()
    for _ in range(3):
        go.barrier()
        if x[i] > 2.0:
            continue  # after the loop's only barrier: fine
    if x[i] > 3.0:
        return  # no barrier after it: fine


def test_which_exits_skip_a_barrier() -> None:
    # the first loop's continue is refused; the second loop's and the return are not
    with pytest.raises(go.CompileError, match="'continue'") as info:
        lower(k_exits)
    first_barrier = k_exits.__code__.co_firstlineno + 5
    assert f"barrier at line {first_barrier}" in str(info.value), str(info.value)
    assert f"line {first_barrier - 1}, column" in str(info.value), str(info.value)


def k_fine_exits(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    for _ in range(3):
        go.barrier()
        if x[i] > 2.0:
            continue
    if x[i] > 3.0:
        return
    y[i] = 1.0


def test_exits_after_the_last_barrier_are_fine() -> None:
    a = analyse(lower(k_fine_exits))
    assert [f.kind for f in a.findings] == []


def k_runtime_vote(y: BorrowMut[Array[f32]]) -> None:
    s = go.shared(8, go.f32)
    s[go.local_id(0)] = 1.0
    go.barrier()
    if s[0] > 0.0:
        go.barrier()
    y[go.global_id(0)] = s[0]


def test_a_runtime_condition_is_voted() -> None:
    module = lower(k_runtime_vote)
    kernel = module.kernel
    assert any(sa.name == VOTE_ARRAY for sa in kernel.shared)
    barrier_checks = [c for c in module.checks if c.kind == "barrier"]
    assert len(barrier_checks) == 1
    assert barrier_checks[0].source == "if s[0] > 0.0:"
    # after the vote, nothing is left to vote: the condition is the leader's value
    a = analyse(module)
    assert not [f for f in a.findings if f.level.rank == DIVERGENT]
    y = np.zeros(16, np.float32)
    interp.run(module, [y], 16, 8)
    np.testing.assert_array_equal(y, np.ones(16, np.float32))


def k_uniform_only(y: BorrowMut[Array[f32]], n: i32) -> None:
    s = go.shared(8, go.f32)
    for _ in range(n):
        s[go.local_id(0)] = 1.0
        go.barrier()
    y[go.global_id(0)] = 1.0


def test_uniform_kernels_get_no_vote() -> None:
    module = lower(k_uniform_only)
    assert not any(sa.name == VOTE_ARRAY for sa in module.kernel.shared)
    assert not [c for c in module.checks if c.kind == "barrier"]
