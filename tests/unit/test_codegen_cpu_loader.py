"""A test-only loader for ``CpuObject``s (the real one is the runtime's CPU device), and its
own tests. Other codegen tests import ``run_cpu`` from here."""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence
from typing import cast

import llvmlite.binding as llvm
import numpy as np
import pytest

from codegen.abi import ERROR_RECORD_LEN, SLOT_BYTES
from codegen.cpu import CpuObject, compile_cpu
from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from gpuoff.ir.interp import normalize_grid
from tests.unit import irbuild as b

_ENTRY = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p)
EntryFn = Callable[[int, int, int, int], None]
_ENGINES: list[object] = []  # keep every engine alive: their code must stay mapped


def load(obj: CpuObject) -> EntryFn:
    """Load ``obj`` into an MCJIT engine in this process; return its entry point."""
    target = llvm.Target.from_default_triple()
    tm = target.create_target_machine(jit=True)
    engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), tm)
    engine.add_object_file(llvm.ObjectFileRef.from_data(obj.object_code))
    engine.finalize_object()
    _ENGINES.append(engine)
    address = engine.get_function_address(obj.entry)
    assert address
    return cast(EntryFn, _ENTRY(address))


_CACHE: dict[int, tuple[n.Module, CpuObject, EntryFn]] = {}


def _compiled(module: n.Module) -> tuple[CpuObject, EntryFn]:
    # Modules hold dicts (unhashable): cache by identity, keeping the module alive.
    hit = _CACHE.get(id(module))
    if hit is None:
        obj = compile_cpu(module)
        hit = _CACHE[id(module)] = (module, obj, load(obj))
    return hit[1], hit[2]


def pack(obj: CpuObject, args: Sequence[object], grid: Sequence[int],
         block: Sequence[int]) -> np.ndarray:  # fmt: skip
    """The packed argument block of ``codegen.abi`` for ``args``."""
    slots = np.zeros(obj.layout.num_slots, dtype=np.int64)
    gs = list(grid) + [1] * (3 - len(grid))
    ls = list(block) + [1] * (3 - len(block))
    slots[0:3] = gs
    slots[3:6] = ls
    slots[6:9] = [-(-g // max(lsz, 1)) for g, lsz in zip(gs, ls, strict=True)]
    raw = slots.view(np.uint8)
    for ps, a in zip(obj.layout.params, args, strict=True):
        if isinstance(ps.type, t.ArrayType):
            assert isinstance(a, np.ndarray)
            slots[ps.data_slot] = a.ctypes.data
            for d in range(a.ndim):
                slots[ps.shape_slot(d)] = a.shape[d]
                slots[ps.stride_slot(d)] = a.strides[d] // a.itemsize
        else:
            v = np.array(a, dtype=ps.type.np_dtype).reshape(1).view(np.uint8)
            raw[ps.first_slot * SLOT_BYTES : ps.first_slot * SLOT_BYTES + v.size] = v
    return slots


def run_cpu(module: n.Module, args: Sequence[object], grid: int | Sequence[int],
            block: Sequence[int] | None = None, chunks: int = 2) -> np.ndarray:  # fmt: skip
    """Compile (cached), launch over ``grid`` in ``chunks`` calls; return the err record."""
    g = (grid,) if isinstance(grid, int) else tuple(grid)
    # The interpreter's default block, so work-item queries agree with the oracle.
    blk = tuple(block) if block is not None else normalize_grid(g)[1]
    obj, entry = _compiled(module)
    slots = pack(obj, args, g, blk)
    total = int(np.prod(slots[6:9]))
    err = np.zeros(ERROR_RECORD_LEN, dtype=np.int64)
    bounds = np.linspace(0, total, chunks + 1).astype(np.int64)
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
        entry(slots.ctypes.data, int(lo), int(hi), err.ctypes.data)
    return err


def _fill_kernel() -> n.Module:
    y = b.ref("y", b.mut(t.i64))
    body: list[n.Stmt] = [b.store(y, b.gid(0), b.bin_("mul", b.gid(0), 3))]
    return b.module(b.kernel("fill", [b.param("y", y.type)], body))


def test_loader_runs_every_work_item_once() -> None:
    y = np.full(1000, -1, dtype=np.int64)
    err = run_cpu(_fill_kernel(), [y], 1000, (64,), chunks=3)
    np.testing.assert_array_equal(y, np.arange(1000) * 3)
    assert not err.any()


@pytest.mark.parametrize("chunks", [1, 4])
def test_group_ranges_split_the_grid(chunks: int) -> None:
    y = np.full(130, -1, dtype=np.int64)
    run_cpu(_fill_kernel(), [y], 130, (8,), chunks=chunks)
    np.testing.assert_array_equal(y, np.arange(130) * 3)


def test_object_is_self_contained_and_named() -> None:
    obj, _ = _compiled(_fill_kernel())
    assert obj.entry == "fill__gpuoff_entry"
    assert obj.object_code[:4] == b"\x7fELF"
    assert "define" in obj.llvm_ir and "fill__gpuoff_entry" in obj.optimized_ir
