"""Where the CPU group function keeps shared arrays (issue 20, item 4): on its thread's stack
up to ``abi.SHARED_ON_STACK`` bytes (the code of kernels written for GPUs is unchanged), on
the heap beyond, allocated once per call and freed before it returns; atomics on them stay
plain read-modify-writes (no other thread sees the memory) either way."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from codegen.abi import SHARED_ON_STACK
from codegen.cpu import build_llvm_module
from gpuoff import Array, BorrowMut, i32
from gpuoff.cli import lower_for_show

SMALL = 1024  # i32 elements: 4 KiB
BIG = SHARED_ON_STACK  # i32 elements: 4x the stack's share


@go.kernel
def small_counts(x: BorrowMut[Array[i32]]) -> None:
    bins = go.shared(SMALL, go.i32)
    i = go.local_id(0)
    bins[i] = 0
    go.barrier()
    go.atomic_add(bins, x[go.global_id(0)] % SMALL, 1)
    go.barrier()
    x[go.global_id(0)] = bins[i]


@go.kernel
def big_counts(x: BorrowMut[Array[i32]]) -> None:
    bins = go.shared(BIG, go.i32)
    i = go.local_id(0)
    bins[i] = 0
    go.barrier()
    go.atomic_add(bins, x[go.global_id(0)] % 64, 1)
    go.barrier()
    x[go.global_id(0)] = bins[i]


def _ir(kernel: Any) -> str:
    return str(build_llvm_module(lower_for_show(kernel, "i32[:]", None, None)))


def test_small_shared_arrays_stay_on_the_stack() -> None:
    text = _ir(small_counts)
    assert "aligned_alloc" not in text and "@free" not in text
    assert "atomicrmw" not in text  # private memory: a plain read-modify-write


def test_big_shared_arrays_come_from_the_heap_and_are_freed() -> None:
    text = _ir(big_counts)
    allocs = re.findall(r'call ptr @"?aligned_alloc"?\(i64 64, i64 (\d+)\)', text)
    assert allocs == [str(BIG * 4)]  # once, the array's bytes
    assert len(re.findall(r'call void @"?free"?\(', text)) == 1
    assert "atomicrmw" not in text


@pytest.mark.parametrize("kernel", [small_counts, big_counts], ids=["small", "big"])
def test_both_count_right_on_cpu(kernel: Any) -> None:
    with go.on("cpu"):
        data = np.arange(128, dtype=np.int32) % 7
        x = go.array(data)
        kernel[(128,), (64,)](x)
        got = x.numpy()
    for g in range(2):
        want = np.bincount(data[64 * g : 64 * (g + 1)], minlength=64)[:64]
        np.testing.assert_array_equal(got[64 * g : 64 * (g + 1)], want)
