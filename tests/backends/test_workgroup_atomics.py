"""Atomics on every device: ``go.atomic_add``/``atomic_min``/``atomic_max`` on i32, u32, i64, f32
and f64, on ``BorrowMut`` arrays and on shared arrays, with every work-item hitting the same
element; the returned old values are checked, not just the final one."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, f64, i32, i64, u32
from gpuoff.cli import lower_for_show
from gpuoff.ir import interp


@go.kernel
def atomics_i32(
    vals: Borrow[Array[i32]], acc: BorrowMut[Array[i32]], old: BorrowMut[Array[i32]]
) -> None:
    i = go.global_id(0)
    if i < vals.shape[0]:
        old[0, i] = go.atomic_add(acc, 0, vals[i])
        old[1, i] = go.atomic_min(acc, 1, vals[i])
        old[2, i] = go.atomic_max(acc, 2, vals[i])


@go.kernel
def atomics_u32(
    vals: Borrow[Array[u32]], acc: BorrowMut[Array[u32]], old: BorrowMut[Array[u32]]
) -> None:
    i = go.global_id(0)
    if i < vals.shape[0]:
        old[0, i] = go.atomic_add(acc, 0, vals[i])
        old[1, i] = go.atomic_min(acc, 1, vals[i])
        old[2, i] = go.atomic_max(acc, 2, vals[i])


@go.kernel
def atomics_i64(
    vals: Borrow[Array[i64]], acc: BorrowMut[Array[i64]], old: BorrowMut[Array[i64]]
) -> None:
    i = go.global_id(0)
    if i < vals.shape[0]:
        old[0, i] = go.atomic_add(acc, 0, vals[i])
        old[1, i] = go.atomic_min(acc, 1, vals[i])
        old[2, i] = go.atomic_max(acc, 2, vals[i])


@go.kernel
def atomics_f32(
    vals: Borrow[Array[f32]], acc: BorrowMut[Array[f32]], old: BorrowMut[Array[f32]]
) -> None:
    i = go.global_id(0)
    if i < vals.shape[0]:
        old[0, i] = go.atomic_add(acc, 0, vals[i])
        old[1, i] = go.atomic_min(acc, 1, vals[i])
        old[2, i] = go.atomic_max(acc, 2, vals[i])


@go.kernel
def atomics_f64(
    vals: Borrow[Array[f64]], acc: BorrowMut[Array[f64]], old: BorrowMut[Array[f64]]
) -> None:
    i = go.global_id(0)
    if i < vals.shape[0]:
        old[0, i] = go.atomic_add(acc, 0, vals[i])
        old[1, i] = go.atomic_min(acc, 1, vals[i])
        old[2, i] = go.atomic_max(acc, 2, vals[i])


KERNELS: dict[str, Any] = {"i32": atomics_i32, "u32": atomics_u32, "i64": atomics_i64,
                           "f32": atomics_f32, "f64": atomics_f64}  # fmt: skip
INIT = {"add": 5, "min": 100_000, "max": -100_000}
_NP = {"i32": np.int32, "u32": np.uint32, "i64": np.int64, "f32": np.float32, "f64": np.float64}


def initial(dtype: str) -> np.ndarray[Any, Any]:
    """Starting values of the add, min and max slots: every value beats min's and max's."""
    low = 3 if dtype == "u32" else INIT["max"]
    return np.array([INIT["add"], INIT["min"], low], _NP[dtype])


def make_vals(dtype: str, n: int) -> np.ndarray[Any, Any]:
    """Distinct integer-valued values (exact in every type, so sums do not round)."""
    rng = np.random.default_rng(n)
    v = rng.permutation(n) + 10
    if dtype in ("i32", "i64"):
        v = np.where(v % 3 == 0, -v, v)  # some negatives too
    return v.astype(_NP[dtype])


def check_chain_add(
    init: Any, vals: np.ndarray[Any, Any], olds: np.ndarray[Any, Any], final: Any
) -> None:
    """Atomic adds happen in some order: the old values are the running sums of that order, so
    {olds + vals} = {olds} - {init} + {final} as multisets."""
    assert final == init + vals.sum(dtype=vals.dtype)
    left = np.sort(np.concatenate([olds, [final]]))
    right = np.sort(np.concatenate([[init], olds + vals]))
    np.testing.assert_array_equal(left, right)


def check_minmax(
    init: Any, vals: np.ndarray[Any, Any], olds: np.ndarray[Any, Any], final: Any, better: Any
) -> None:
    """Every old value is ``init`` or one of ``vals``; exactly one work-item saw ``init`` (all
    values beat it); the final value is the best; each old is no better than the final."""
    assert final == better(vals.min(), vals.max())
    assert np.isin(olds, np.concatenate([[init], vals])).all()
    assert int((olds == init).sum()) == 1
    assert (better(olds, final) == final).all()


def _has_f64(device: str) -> bool:
    return device == "cpu" or "fp64" in str([d.description for d in go.devices()
                                             if d.name == device])  # fmt: skip


@pytest.mark.parametrize("dtype", sorted(KERNELS))
@pytest.mark.parametrize("n", [1, 64, 5000])
def test_atomics_on_global_array(device: str, dtype: str, n: int) -> None:
    if dtype == "f64" and not _has_f64(device):
        pytest.skip(f"{device} has no f64")
    vals = make_vals(dtype, n)
    acc = initial(dtype)
    accb, old = go.array(acc), go.zeros((3, n), getattr(go, dtype))
    KERNELS[dtype][(n,)](go.array(vals), accb, old)
    got, olds = accb.numpy(), old.numpy()
    check_chain_add(acc[0], vals, olds[0], got[0])
    check_minmax(acc[1], vals, olds[1], got[1], np.minimum)
    check_minmax(acc[2], vals, olds[2], got[2], np.maximum)


@pytest.mark.parametrize("dtype", ["i32", "f32", "u32"])
def test_atomics_interpreter_agrees(dtype: str) -> None:
    n = 100
    vals = make_vals(dtype, n)
    acc = initial(dtype)
    old = np.zeros((3, n), _NP[dtype])
    sig = f"{dtype}[:], {dtype}[:], {dtype}[:, :]"
    interp.run(lower_for_show(KERNELS[dtype], sig, None, None), [vals, acc, old], (n,), (n // 4,))
    start = initial(dtype)
    check_chain_add(start[0], vals, old[0], acc[0])
    check_minmax(start[1], vals, old[1], acc[1], np.minimum)
    check_minmax(start[2], vals, old[2], acc[2], np.maximum)


GROUP = 64


@go.kernel
def shared_counter(tickets: BorrowMut[Array[i32]], totals: BorrowMut[Array[i32]]) -> None:
    """Each work-item takes a ticket from a per-work-group counter in shared memory; the
    counter is the work-group's (every group starts from 0), and its final value is the group
    size. ``atomic_max`` on a second shared slot records the largest ticket."""
    lid = go.local_id(0)
    counter = go.shared(2, go.i32)
    if lid == 0:
        counter[0] = 0
        counter[1] = -1
    go.barrier()
    t = go.atomic_add(counter, 0, 1)
    go.atomic_max(counter, 1, t)
    tickets[go.global_id(0)] = t
    go.barrier()
    if lid == 0:
        totals[2 * go.group_id(0)] = counter[0]
        totals[2 * go.group_id(0) + 1] = counter[1]


def test_atomics_on_shared_array(device: str) -> None:
    groups = 5
    tickets = go.zeros(groups * GROUP, go.i32)
    totals = go.zeros(2 * groups, go.i32)
    shared_counter[(groups * GROUP,), (GROUP,)](tickets, totals)
    per_group = tickets.numpy().reshape(groups, GROUP)
    for g in range(groups):
        np.testing.assert_array_equal(np.sort(per_group[g]), np.arange(GROUP))
    np.testing.assert_array_equal(totals.numpy(), [GROUP, GROUP - 1] * groups)


@go.kernel
def shared_min_f32(x: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    """Per-work-group minimum through ``atomic_min`` on a shared f32 slot."""
    lid = go.local_id(0)
    best = go.shared(1, go.f32)
    if lid == 0:
        best[0] = 1.0e30
    go.barrier()
    go.atomic_min(best, 0, x[go.global_id(0)])
    go.barrier()
    if lid == 0:
        out[go.group_id(0)] = best[0]


def test_shared_atomic_min_f32(device: str) -> None:
    x = np.random.default_rng(3).standard_normal(4 * GROUP).astype(np.float32)
    out = go.zeros(4, go.f32)
    shared_min_f32[(4 * GROUP,), (GROUP,)](go.array(x), out)
    np.testing.assert_array_equal(out.numpy(), x.reshape(4, GROUP).min(axis=1))


def test_shared_atomics_interpreter_agrees() -> None:
    tickets, totals = np.zeros(2 * GROUP, np.int32), np.zeros(4, np.int32)
    module = lower_for_show(shared_counter, "i32[:], i32[:]", None, None)
    interp.run(module, [tickets, totals], (2 * GROUP,), (GROUP,))
    np.testing.assert_array_equal(np.sort(tickets.reshape(2, GROUP), axis=1),
                                  np.tile(np.arange(GROUP), (2, 1)))  # fmt: skip
    np.testing.assert_array_equal(totals, [GROUP, GROUP - 1] * 2)
