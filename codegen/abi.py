"""Calling conventions shared by code generators and the runtime.

CPU (and any backend that takes one packed block): the compiled entry point is

    void <entry>(const i8* args, i64 group_lo, i64 group_hi, i64* err)

and runs the work-groups with flattened ids ``[group_lo, group_hi)`` (dimension 0 fastest).
Work-items of the last group along a dimension may be fewer than the block (the grid need not
be a multiple of the default block): the generated loops clamp to ``global_size``.

``args`` is a block of 8-byte slots:

    slot 0..2   global_size[0..2]   (unused dims are 1)
    slot 3..5   local_size[0..2]    (the block; unused dims are 1)
    slot 6..8   num_groups[0..2]    (ceil(global_size / local_size))
    then, per kernel parameter in order:
      scalar:   1 slot, the value in its own type at the slot's start (little-endian)
      array:    1 slot data pointer (to element [0, 0, ...] of the view),
                ndim slots shape, ndim slots strides (in elements, may be negative or 0)

``err`` points at ``ERROR_RECORD_LEN`` i64 values, zero before the launch: an error record,
``err[0] = check id`` (1-based, see ``ir.Module.checks``; 0: no error), ``err[1 + d] = index
d``, ``err[SHAPE_SLOT + d]`` = the array's extent ``d`` (a device function's array is known
only where it fails), ``err[ITEM_SLOT]`` = the failing work-item's linear id
(``gpuoff.ir.bounds.item_id``).
The runtime gives each worker its own err block and reports the record that
``gpuoff.ir.bounds.failure_order`` puts first: the lowest work-item, then the lowest check id,
then the first failure (the rule every backend and the interpreter follow; a record is
replaced only by a failure strictly earlier in that order, so they agree whatever order their
work-items run in). ``OUT_OF_MEMORY`` (-1) is the one record that is not a check.

Backends whose work-items run in parallel publish a record with a 64-bit key after it:
``err[KEY_SLOT]`` holds ``~(item << 16 | check)``, raised by an atomic max, and only a
work-item whose key is still there writes the record, under a lock at ``err[LOCK_SLOT]``
(NVPTX: a compare-and-swap spin lock held for a few stores; OpenCL: a count of writers, see
``codegen.opencl_helpers.Helpers.oob``). Items are ordered exactly below 2**48 and check ids
below 2**16 (beyond, by item only, then first come).
"""

from __future__ import annotations

from dataclasses import dataclass

from gpuoff.ir.nodes import Module
from gpuoff.ir.types import ArrayType, ScalarType

SHARED_ON_STACK = 64 << 10
"""The CPU group function keeps a kernel's shared arrays on its thread's stack up to this many
bytes together (GPUs offer 48-228 KiB: kernels written for them keep the code LLVM optimises
best), and on the heap beyond (``codegen.cpu_state.Scratch``)."""
OUT_OF_MEMORY = -1
"""The check id of the error record the CPU group function writes when the heap refuses the
memory of its work-group arrays (``err[1]``: the bytes it asked for; nothing ran): the runtime
raises ``go.OutOfMemoryError``."""
SLOT_BYTES = 8
HEADER_SLOTS = 9
MAX_NDIM = 8
SHAPE_SLOT = 1 + MAX_NDIM
ITEM_SLOT = 1 + 2 * MAX_NDIM
ERROR_RECORD_LEN = 2 + 2 * MAX_NDIM
KEY_SLOT = ERROR_RECORD_LEN
LOCK_SLOT = ERROR_RECORD_LEN + 1
DEVICE_RECORD_LEN = ERROR_RECORD_LEN + 2
"""Length of the error record of the parallel backends (the record, its key and its lock)."""
KEY_CHECK_BITS = 16
"""Bits of the check id in a parallel backend's key (``item << 16 | check``)."""
ENTRY_SUFFIX = "__gpuoff_entry"


@dataclass(frozen=True)
class ParamSlots:
    """Where one kernel parameter lives in the packed argument block (slot indices)."""

    name: str
    type: ScalarType | ArrayType
    first_slot: int

    @property
    def num_slots(self) -> int:
        if isinstance(self.type, ScalarType):
            return 1
        return 1 + 2 * self.type.ndim

    @property
    def data_slot(self) -> int:
        return self.first_slot

    def shape_slot(self, dim: int) -> int:
        return self.first_slot + 1 + dim

    def stride_slot(self, dim: int) -> int:
        assert isinstance(self.type, ArrayType)
        return self.first_slot + 1 + self.type.ndim + dim


@dataclass(frozen=True)
class ArgLayout:
    """The packed argument block of one compiled kernel."""

    params: tuple[ParamSlots, ...]
    num_slots: int

    @property
    def nbytes(self) -> int:
        return self.num_slots * SLOT_BYTES


def arg_layout(module: Module) -> ArgLayout:
    """Slot assignment for ``module``'s kernel parameters (see the module docstring)."""
    slot = HEADER_SLOTS
    params = []
    for p in module.kernel.params:
        ps = ParamSlots(p.name, p.type, slot)
        params.append(ps)
        slot += ps.num_slots
    return ArgLayout(tuple(params), slot)


def entry_name(module: Module) -> str:
    """Symbol name of the packed-block entry point of ``module``'s kernel."""
    return f"{module.kernel.name}{ENTRY_SUFFIX}"
