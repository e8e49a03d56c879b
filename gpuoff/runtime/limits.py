"""What a launch may ask of its device, checked before anything runs (SPEC §2, issue 20 item 4).

``check_geometry`` (once per launch configuration and device): the grid, rounded up to whole
work-groups, fits the i64 that every backend counts work-items in; a block the launch gives
is within the device's work-group limits (``Device.limits()``: OpenCL's
``MAX_WORK_GROUP_SIZE`` and ``MAX_WORK_ITEM_SIZES``, CUDA's block and grid limits, the cpu
device's documented ones); so is the number of groups. ``check_shared`` (once per kernel
specialisation and device): the ``go.shared`` arrays fit the device's local memory per
work-group; else a ``CompileError`` at the declaration naming the kernel, the array, the size
and the limit.
"""

from __future__ import annotations

import linecache

from gpuoff.errors import CompileError, LaunchConfigError, SourceLocation
from gpuoff.ir.nodes import Module
from gpuoff.runtime.devices.base import I64_MAX, Device

Dims = tuple[int, int, int]


def check_geometry(device: Device, grid: Dims, block: Dims, given: bool) -> None:
    """``LaunchConfigError`` for a launch the device cannot run: a grid whose work-items, rounded
    up to whole groups, do not fit the i64 of global ids; a block (``given`` by the launch)
    beyond the device's work-group limits; more groups than it allows."""
    padded = [-(-g // b) * b for g, b in zip(grid, block, strict=True)]
    if max(padded) > I64_MAX or padded[0] * padded[1] * padded[2] > I64_MAX:
        raise LaunchConfigError(
            f"a grid of {grid[0] * grid[1] * grid[2]} work-items {grid} in groups of {block}: "
            f"every backend counts work-items in i64, so at most 2**63 - 1 work-items "
            f"(rounded up to whole groups) per launch"
        )
    limits = device.limits()
    if given:
        items = block[0] * block[1] * block[2]
        if items > limits.max_block_items:
            raise LaunchConfigError(
                f"block {block} has {items} work-items; {device.name} allows at most "
                f"{limits.max_block_items} per work-group"
            )
        for d in range(3):
            if block[d] > limits.max_block[d]:
                raise LaunchConfigError(
                    f"block {block}: {device.name} allows at most {limits.max_block[d]} "
                    f"work-items along dimension {d} of a work-group"
                )
        for d in range(3):
            groups = -(-grid[d] // block[d])
            if groups > limits.max_groups[d]:
                raise LaunchConfigError(
                    f"grid {grid} in blocks of {block} needs {groups} work-groups along "
                    f"dimension {d}; {device.name} allows at most {limits.max_groups[d]}"
                )


def size_text(nbytes: int) -> str:
    """``nbytes`` as people write it: ``256 KiB``, ``1 MiB``, ``1000 bytes``."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if nbytes >= 1 << shift and nbytes % (1 << (shift - 3)) == 0:
            return f"{nbytes / (1 << shift):g} {unit}"
    return f"{nbytes} bytes"


def check_shared(module: Module, device: Device) -> None:
    """``CompileError`` at the ``go.shared`` line when the kernel's shared arrays (its own and
    its device functions') need more memory per work-group than ``device`` offers."""
    limit = device.limits().shared_bytes
    arrays = [(f, sa) for f in (module.kernel, *module.functions) for sa in f.shared]
    sizes = []
    for _, sa in arrays:
        elems = 1
        for n in sa.type.static_shape or ():
            elems *= n
        sizes.append(elems * sa.type.dtype.itemsize)
    total = sum(sizes)
    if total <= limit:
        return
    (fn, biggest), size = max(zip(arrays, sizes, strict=True), key=lambda p: p[1])
    others = f" (all of the kernel's shared arrays: {size_text(total)})" if total != size else ""
    loc = None
    if biggest.loc is not None:
        text = linecache.getline(fn.filename, biggest.loc.line)
        loc = SourceLocation(fn.filename, biggest.loc.line, biggest.loc.col, text,
                             biggest.loc.end_col)  # fmt: skip
    raise CompileError(
        f"kernel {module.kernel.name!r}: shared array {biggest.name!r} takes {size_text(size)}"
        f"{others}; {device.name} offers {size_text(limit)} of shared (local) memory per "
        f"work-group",
        loc,
    )
