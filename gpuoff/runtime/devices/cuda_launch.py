"""Launch planning for the CUDA backend, pure (no driver): the launch geometry, the C-ABI
argument packer behind ``cuLaunchKernel``'s ``kernelParams``, ``__cuda_array_interface__``
and the ``BoundsError`` of an error record. ``gpuoff.runtime.devices.cuda`` re-exports these.
"""

from __future__ import annotations

import ctypes
import struct
from collections.abc import Sequence
from typing import Any

import numpy as np

from gpuoff.errors import DeviceError, GpuoffError, LaunchConfigError
from gpuoff.ir.bounds import launch_error
from gpuoff.ir.nodes import Barrier, Module, WorkItem
from gpuoff.runtime.devices.base import ArrayArg, LaunchArg

DEFAULT_BLOCK = 256
_MAX_GRID = (2**31 - 1, 65535, 65535)
_GROUP_ITEMS = frozenset({"local_id", "group_id", "local_size", "num_groups"})
# How each PTX parameter kind sits in its 8-byte slot (value at the start, little-endian).
SLOT_FORMAT = {
    "ptr": "Q",
    "i64": "q",
    "f64": "d",
    "i32": "i4x",
    "u32": "I4x",
    "u64": "Q",
    "i16": "h6x",
    "u16": "H6x",
    "i8": "b7x",
    "f32": "f4x",
    "f16": "e6x",
    "u8": "B7x",
    "bool": "?7x",
}


def needs_uniform_groups(module: Module) -> bool:
    """True when work-groups are visible to the kernel (barriers, shared memory, group ids):
    then the default block must divide the grid so that every group is full."""
    if any(f.shared for f in (module.kernel, *module.functions)):
        return True
    stack: list[Any] = [module.kernel, *module.functions]
    while stack:
        node = stack.pop()
        if isinstance(node, Barrier) or (isinstance(node, WorkItem) and node.name in _GROUP_ITEMS):
            return True
        if isinstance(node, tuple):
            stack.extend(node)
        elif hasattr(node, "__dataclass_fields__"):
            stack.extend(getattr(node, f) for f in node.__dataclass_fields__ if f != "loc")
    return False


def _pow2_cover(n: int, limit: int) -> int:
    """The smallest power of two >= ``n``, at most ``limit``."""
    p = 1
    while p < n and p * 2 <= limit:
        p *= 2
    return p


def _divisor_at_most(n: int, limit: int) -> int:
    for d in range(min(n, limit), 0, -1):
        if n % d == 0:
            return d
    return 1


def launch_dims(
    grid: tuple[int, int, int],
    block: tuple[int, int, int] | None,
    max_threads: int = 1024,
    uniform: bool = False,
) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """``(blocks, threads)`` for ``cuLaunchKernel``: ``grid`` work-items in blocks of ``block``
    or a default (up to 256 work-items; dividing the grid when ``uniform``, else covering it,
    the generated guard ``global_id < global_size`` masking the surplus)."""
    if any(g < 0 for g in grid):
        raise LaunchConfigError(f"grid sizes must be non-negative, got {grid}")
    if block is not None:
        if any(b < 1 for b in block):
            raise LaunchConfigError(f"block sizes must be positive, got {block}")
        bad = [d for d in range(3) if grid[d] % block[d]]
        if bad:
            raise LaunchConfigError(
                f"grid {grid[: _ndim(grid, block)]} is not a multiple of block "
                f"{block[: _ndim(grid, block)]} in dimension {bad[0]}"
            )
        if block[0] * block[1] * block[2] > max_threads:
            raise LaunchConfigError(
                f"block {block} has {block[0] * block[1] * block[2]} work-items; this kernel "
                f"allows at most {max_threads} on this device"
            )
        threads = block
    else:
        budget = min(DEFAULT_BLOCK, max_threads)
        dims = []
        for d, g in enumerate(grid):
            # 2-D/3-D grids: rows of 32 (a warp, coalesced) and the rest of the block across.
            cap = min(budget, 32) if d == 0 and grid[1] * grid[2] > 1 else budget
            b = _divisor_at_most(g, cap) if uniform else _pow2_cover(max(g, 1), cap)
            dims.append(max(b, 1))
            budget = max(budget // dims[-1], 1)
        threads = (dims[0], dims[1], dims[2])
    blocks = (
        -(-grid[0] // threads[0]),
        -(-grid[1] // threads[1]),
        -(-grid[2] // threads[2]),
    )
    for d in range(3):
        if blocks[d] > _MAX_GRID[d]:
            raise LaunchConfigError(
                f"grid dimension {d} needs {blocks[d]} blocks; CUDA allows at most {_MAX_GRID[d]}"
            )
    return blocks, threads


def _ndim(grid: tuple[int, int, int], block: tuple[int, int, int]) -> int:
    n = 3
    while n > 1 and grid[n - 1] == 1 and block[n - 1] == 1:
        n -= 1
    return n


class ArgPacker:
    """Packs one launch's arguments the way ``cuLaunchKernel`` takes them (C ABI): a
    preallocated block of 8-byte slots, one per flattened PTX parameter, and an array of
    pointers to those slots whose address is ``kernel_params``."""

    def __init__(self, kinds: Sequence[str], arrays: Sequence[tuple[int, bool] | None]) -> None:
        """``kinds``: each PTX parameter's kind (``SLOT_FORMAT`` keys), header first: error
        record pointer and the 3 global sizes. ``arrays``: per kernel parameter, ``(ndim,
        with_strides)`` for an array or ``None`` for a scalar (as ``kinds`` flattens them)."""
        self.kinds = tuple(kinds)
        self.arrays = tuple(arrays)
        self.struct = struct.Struct("<" + "".join(SLOT_FORMAT[k] for k in self.kinds))
        self.buffer = ctypes.create_string_buffer(max(self.struct.size, 8))
        base = ctypes.addressof(self.buffer)
        self.pointers = (ctypes.c_void_p * max(len(self.kinds), 1))(
            *[base + 8 * i for i in range(len(self.kinds))]
        )
        self.kernel_params = ctypes.addressof(self.pointers)

    def values(self, err: int, grid: tuple[int, int, int], args: Sequence[LaunchArg]) -> list[Any]:
        """The flattened parameter values (arrays: data pointer, shape, strides)."""
        if len(args) != len(self.arrays):
            raise DeviceError(f"cuda: {len(args)} arguments for {len(self.arrays)} parameters")
        out: list[Any] = [err, grid[0], grid[1], grid[2]]
        for arg, spec in zip(args, self.arrays, strict=True):
            if spec is None:
                if isinstance(arg, ArrayArg):
                    raise DeviceError("cuda: an array was passed for a scalar parameter")
                out.append(arg)
            else:
                ndim, with_strides = spec
                if not isinstance(arg, ArrayArg) or len(arg.shape) != ndim:
                    raise DeviceError(f"cuda: expected a {ndim}-d array argument, got {arg!r}")
                out.append(int(arg.allocation.handle) + arg.offset)
                out.extend(arg.shape)
                if with_strides:
                    out.extend(arg.strides)
        return out

    def pack(self, err: int, grid: tuple[int, int, int], args: Sequence[LaunchArg]) -> int:
        """Write the slots; returns the ``kernelParams`` address (valid until the next pack)."""
        try:
            self.struct.pack_into(self.buffer, 0, *self.values(err, grid, args))
        except struct.error as e:
            raise DeviceError(f"cuda: a launch argument does not fit its parameter: {e}") from e
        return self.kernel_params


def cuda_array_interface(
    pointer: int,
    shape: tuple[int, ...],
    strides: tuple[int, ...],
    dtype: np.dtype[Any],
    readonly: bool = False,
) -> dict[str, Any]:
    """``__cuda_array_interface__`` (version 3) of a device view: ``pointer`` to its first
    element, ``strides`` in elements (converted to bytes; ``None`` when C-contiguous)."""
    byte_strides = tuple(s * dtype.itemsize for s in strides)
    contiguous = []
    acc = dtype.itemsize
    for n in reversed(shape):
        contiguous.append(acc)
        acc *= n
    c_strides = tuple(reversed(contiguous))
    return {
        "shape": tuple(shape),
        "typestr": dtype.str,
        "data": (int(pointer), readonly),
        "strides": None if byte_strides == c_strides else byte_strides,
        "version": 3,
        "stream": None,  # the device synchronises before handing out a pointer
    }


def bounds_error(module: Module, record: Sequence[int], args: Sequence[LaunchArg]) -> GpuoffError:
    """The ``BoundsError`` (or ``BarrierError``) for an error record (``codegen.abi``'s: check
    id, indices, the array's shape, ...)."""
    from codegen.abi import SHAPE_SLOT

    chk = module.check(int(record[0]))
    index = tuple(int(i) for i in record[1 : 1 + chk.ndim])
    shape = tuple(int(s) for s in record[SHAPE_SLOT : SHAPE_SLOT + chk.ndim])
    return launch_error(module, chk.id, index, shape)
