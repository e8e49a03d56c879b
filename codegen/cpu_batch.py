"""Work-groups in batches on the CPU, so grid-stride loops read memory in order.

A grid-stride loop gives work-item ``l`` of group ``g`` the elements ``g * L + l + k * S``.
Run one group after another, a thread reads ``L`` elements, jumps ``S`` ahead, reads ``L``
more: hardware prefetchers lose the stream at every jump (a histogram ran at half the speed of
a plain loop over the same bytes). When grid-stride loops (``codegen.cpu_masked``) stand at
the top level of a kernel without ``return``, a thread instead runs a *batch* of consecutive
groups of one dimension-0 row together: the statements before such a loop for each group in
turn, then the loop with iteration ``k`` of every group of the batch before iteration
``k + 1`` of any (iteration ``k`` of the batch reads one contiguous slab), then the statements
after it, again group by group.

Each group of a batch keeps its own copy of what lives from one part to the next: per-item
locals, group-uniform locals, shared arrays, the loops' per-item "active" flags. A batch holds
enough groups for the loops to read ``SLAB_BYTES`` in a row per iteration, as long as their
state fits ``BATCH_BYTES`` (at least 1 group, at most ``MAX_BATCH``), decided at run time from
the block size.

Every group still runs its own statements in order, barriers included; only the interleaving
of different groups changes, which no kernel can rely on (groups are unordered on every device,
and on the CPU they were already split over threads).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from llvmlite import ir as ll

from codegen.cpu_interchange import Interchange
from codegen.llvm import (
    I8,
    I64,
    ArrayValue,
    FunctionLowerer,
    gep,
    llvm_type,
    memory_type,
    opaque_alloca,
)
from codegen.llvm_walk import walk_stmts
from gpuoff.ir import nodes as n

if TYPE_CHECKING:
    from codegen.cpu_groups import _GroupEmitter

MAX_BATCH = 64
"""Most groups in one batch (per-group scalars live in arrays of this length)."""

SLAB_BYTES = 4096
"""A batch holds enough groups that one iteration of its loops reads this many bytes in a row
(through the loop's index). Measured with ``gpuoff bench`` on the 2-core VM, with every
implementation reading the same input memory: 4 KiB (histogram: 16 groups of 256-byte
chunks; reduction: 4 groups of 1 KiB) gave reduction 0.69-0.77x and histogram 0.63-0.69x of
C, against 0.64-0.68x and 0.59-0.61x with 1 KiB. (While gpuoff alone read a copy of the
input, out of the L3, 1 KiB was best for the reduction.)"""

BATCH_BYTES = 32 * 1024
"""Budget for one batch's per-group state (per-item locals, shared arrays, active flags): the
groups of a batch take turns every iteration, so their state should stay in the L1 cache."""

Part = tuple[n.Stmt, ...] | n.While
"""A run of top-level statements executed group by group, or a grid-stride loop executed for
the whole batch at once."""


def batch_parts(kernel: n.Function, ic: Interchange) -> list[Part] | None:
    """The kernel body split at its top-level grid-stride loops, or None when the kernel has
    none (or has a ``return``: the per-item "returned" flags are not kept per group)."""
    if any(isinstance(s, n.Return) for s in walk_stmts(kernel.body)):
        return None
    parts: list[Part] = []
    run: list[n.Stmt] = []
    for s in kernel.body:
        if isinstance(s, n.While) and ic.masked(s, kernel.body) is not None:
            parts += [tuple(run), s] if run else [s]
            run = []
        else:
            run.append(s)
    if not any(isinstance(p, n.While) for p in parts):
        return None
    return [*parts, tuple(run)] if run else parts


def masked_vars(ic: Interchange, kernel: n.Function) -> set[str]:
    """Indices of grid-stride loops: read only inside their loop, where the lowering keeps
    them as base + lane, so they need no per-item storage."""
    found: set[str] = set()
    for w in ic.masked_loops(kernel.body):
        last = w.body[-1]
        assert isinstance(last, n.Assign)
        found.add(last.target)
    return found


@dataclass
class Batch:
    """Run-time batch state: capacity, this batch's groups, and the per-group copies.

    ``wi``/``active`` hold ``capacity * count`` items (group ``j`` at ``j * count``),
    ``uniform`` ``MAX_BATCH`` scalars, ``shared`` ``capacity`` copies of each shared array."""

    capacity: ll.Value
    count: ll.Value
    wi: dict[str, ll.Value] = field(default_factory=dict)
    uniform: dict[str, ll.Value] = field(default_factory=dict)
    active: dict[int, ll.Value] = field(default_factory=dict)
    shared: dict[str, tuple[ll.Value, int]] = field(default_factory=dict)
    first_gid0: ll.Value = ll.Constant(I64, 0)
    size: ll.Value = ll.Constant(I64, 1)
    j: ll.Value = ll.Constant(I64, 0)


def _shared_elems(sa: n.SharedArray) -> int:
    size = 1
    for s in sa.type.static_shape or ():
        size *= s
    return size


def new_batch(em: _GroupEmitter, b: ll.IRBuilder, count: ll.Value, per_item: list[ll.Type],
              parts: Sequence[Part]) -> Batch:  # fmt: skip
    """Decide the capacity (at run time) and allocate the per-group copies of shared arrays;
    ``per_item`` lists the element types of the per-item arrays (locals and active flags)."""
    fl = em.fl
    kernel = fl.fn
    one = ll.Constant(I64, 1)

    def at_least_one(v: ll.Value) -> ll.Value:
        return b.select(b.icmp_unsigned("<", v, one), one, v)

    # Enough groups for a slab of SLAB_BYTES per iteration, as long as their state fits.
    chunk = b.mul(em.geo.lsize[0], ll.Constant(I64, max(_streamed_bytes(kernel, parts), 1)))
    slab = at_least_one(b.udiv(b.add(ll.Constant(I64, SLAB_BYTES - 1), chunk), chunk))
    item_bytes = sum(_bytes(ty) for ty in per_item)
    shared_bytes = sum(_shared_elems(sa) * sa.type.dtype.itemsize for sa in kernel.shared)
    state = b.add(b.mul(count, ll.Constant(I64, max(item_bytes, 1))),
                  ll.Constant(I64, max(shared_bytes, 1)))  # fmt: skip
    fits = at_least_one(b.udiv(ll.Constant(I64, BATCH_BYTES), state))
    cap: ll.Value = ll.Constant(I64, MAX_BATCH)
    for limit in (slab, fits):
        cap = b.select(b.icmp_unsigned("<", limit, cap), limit, cap)
    batch = Batch(cap, count)
    for sa in kernel.shared:
        elems = _shared_elems(sa)
        ptr = opaque_alloca(b, memory_type(sa.type.dtype), b.mul(cap, ll.Constant(I64, elems)),
                            sa.name)  # fmt: skip
        ptr.align = 64
        batch.shared[sa.name] = (ptr, elems)
        fl.arrays[sa.name] = _shared_value(sa, ptr)
    return batch


def _streamed_bytes(kernel: n.Function, parts: Sequence[Part]) -> int:
    """Bytes per work-item that the batched loops read through their index, per iteration."""
    from codegen.cpu_masked import streamed

    ic = Interchange(kernel)
    total = 0
    for p in parts:
        aff = ic.masked(p, kernel.body) if isinstance(p, n.While) else None
        if isinstance(p, n.While) and aff is not None:
            total = max(total, sum(r.type.dtype.itemsize for r in streamed(kernel, p, aff.var)))
    return total


def _bytes(ty: ll.Type) -> int:
    if isinstance(ty, ll.IntType):
        return max(int(ty.width) // 8, 1)
    return 8 if isinstance(ty, ll.DoubleType) else 4 if isinstance(ty, ll.FloatType) else 2


def _shared_value(sa: n.SharedArray, ptr: ll.Value) -> ArrayValue:
    shape = list(sa.type.static_shape or ())
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    return ArrayValue(sa.type, ptr, [ll.Constant(I64, s) for s in shape],
                      [ll.Constant(I64, s) for s in strides])  # fmt: skip


def loop_slot(em: _GroupEmitter, name: str, ty: ll.Type) -> ll.Value:
    """The group-level slot of a group-level loop's variable (of the current group when
    batching)."""
    base = em.loop_slots.get(name)
    copies = MAX_BATCH if em.batch is not None else 1
    if base is None:
        base = em.loop_slots[name] = em.fl.alloca(ll.ArrayType(ty, copies), name=f"{name}.loop")
    j = em.batch.j if em.batch is not None else ll.Constant(I64, 0)
    return gep(em.fl.builder, ty, base, j)


def enter_group(em: _GroupEmitter, j: ll.Value) -> None:
    """Make group ``j`` of the batch current: its geometry and its copies of the state."""
    batch = em.batch
    assert batch is not None
    fl, geo = em.fl, em.geo
    b = fl.builder
    batch.j = j
    gid0 = b.add(batch.first_gid0, j, flags=["nsw"])
    base0 = b.mul(gid0, geo.lsize[0], flags=["nsw"])
    hi = b.add(base0, geo.lsize[0], flags=["nsw"])
    geo.gid = [gid0, *geo.gid[1:]]
    geo.base = [base0, *geo.base[1:]]
    geo.end = [b.select(b.icmp_signed("<", hi, geo.gsize[0]), hi, geo.gsize[0]), *geo.end[1:]]
    items = b.mul(j, batch.count, flags=["nsw"])
    for name, arr in batch.wi.items():
        em.wi_arrays[name] = gep(b, llvm_type(fl.fn.locals[name]), arr, items)
    for name, arr in batch.uniform.items():
        em.uniform_slots[name] = gep(b, llvm_type(fl.fn.locals[name]), arr, j)
    for key, arr in batch.active.items():
        em.active[key] = gep(b, I8, arr, items)
    for sa in fl.fn.shared:
        ptr, elems = batch.shared[sa.name]
        at = gep(b, memory_type(sa.type.dtype), ptr, b.mul(j, ll.Constant(I64, elems)))
        fl.arrays[sa.name] = _shared_value(sa, at)


def item_array(b: ll.IRBuilder, ty: ll.Type, count: ll.Value, name: str) -> ll.Value:
    """A per-item array of ``count`` elements, cache-line aligned: vector loads and stores of
    consecutive items then never straddle two lines (a store that does costs twice)."""
    ptr = opaque_alloca(b, ty, count, name)
    ptr.align = 64
    return ptr


def shared_arrays(fl: FunctionLowerer, kernel: n.Function) -> None:
    """One copy of each shared array (kernels not run in batches), in the alloca block."""
    for sa in kernel.shared:
        ty = ll.ArrayType(memory_type(sa.type.dtype), _shared_elems(sa))
        ptr = fl.alloca(ty, name=sa.name)
        ptr.align = 64
        fl.arrays[sa.name] = _shared_value(sa, ptr)


def fission_state(em: _GroupEmitter, b: ll.IRBuilder, parts: list[Part] | None) -> None:
    """Per-item and per-group storage of a kernel run as regions (per group of a batch when
    ``parts`` says the kernel runs in batches)."""
    fl, geo = em.fl, em.geo
    kernel = fl.fn
    count = b.mul(b.mul(geo.lsize[0], geo.lsize[1]), geo.lsize[2])
    em.remat = em.ic.remat  # the analyses of the kernel's Interchange, made once
    em.group_uniform = em.ic.group_uniform - set(em.remat)
    skip = masked_vars(em.ic, kernel) | set(em.remat) | em.group_uniform
    per_item = [name for name in kernel.locals if name not in skip]
    loops = em.ic.masked_loops(kernel.body)
    if parts is not None:
        types = [llvm_type(kernel.locals[name]) for name in per_item] + [I8] * len(loops)
        em.batch = batch = new_batch(em, b, count, types, parts)
        copies = b.mul(count, batch.capacity)
        for name in em.group_uniform:
            ty = ll.ArrayType(llvm_type(kernel.locals[name]), MAX_BATCH)
            batch.uniform[name] = fl.alloca(ty, name=f"{name}.groups")
        for name in per_item:
            batch.wi[name] = item_array(b, llvm_type(kernel.locals[name]), copies, f"{name}.wi")
        for w in loops:
            batch.active[id(w)] = item_array(b, I8, copies, "active.wi")
    else:
        shared_arrays(fl, kernel)
        for name in em.group_uniform:
            em.uniform_slots[name] = fl.alloca(llvm_type(kernel.locals[name]), name=f"{name}.group")
        for name in per_item:
            em.wi_arrays[name] = item_array(b, llvm_type(kernel.locals[name]), count, f"{name}.wi")
        for w in loops:
            em.active[id(w)] = item_array(b, I8, count, "active.wi")
    for s in walk_stmts(kernel.body):
        if em.ic.predicated_if(s):
            em.pred_arrays[id(s)] = item_array(b, I8, count, "pred.wi")
    if any(isinstance(s, n.Return) for s in walk_stmts(kernel.body)):
        em.done = item_array(b, I8, count, "done.wi")
        em.any_done = fl.alloca(I8, name="any_done")


def emit_batches(em: _GroupEmitter, lo: ll.Value, hi: ll.Value, parts: Sequence[Part]) -> None:
    """Run groups ``[lo, hi)`` batch by batch (see the module docstring)."""
    from codegen.cpu_groups import _group_geometry, counted_loop
    from codegen.cpu_masked import masked_while_batch

    batch = em.batch
    assert batch is not None
    fl, geo = em.fl, em.geo
    b = fl.builder
    pre = b.block
    head, body, end = (fl.new_block(f"batch.{k}") for k in ("head", "body", "end"))
    b.branch(head)
    b.position_at_end(head)
    g = b.phi(I64, name="batch.first")
    g.add_incoming(lo, pre)
    b.cbranch(b.icmp_signed("<", g, hi), body, end)
    b.position_at_end(body)
    _group_geometry(b, geo, g)
    # A batch stays in one dimension-0 row, where group ids (and global ids) are consecutive.
    row_end = b.add(b.sub(g, geo.gid[0]), geo.ngroups[0])
    size = batch.capacity
    for limit in (b.sub(hi, g), b.sub(row_end, g)):
        size = b.select(b.icmp_signed("<", limit, size), limit, size)
    batch.first_gid0, batch.size = geo.gid[0], size
    for part in parts:
        if isinstance(part, n.While):
            masked_while_batch(em, part)
            continue

        def each(j: ll.Value, _: ll.Block, stmts: tuple[n.Stmt, ...] = part) -> None:
            enter_group(em, j)
            em.group_stmts(stmts)

        counted_loop(fl, ll.Constant(I64, 0), size, "batch.group", each)
    g.add_incoming(b.add(g, size, flags=["nsw"]), b.block)
    b.branch(head)
    b.position_at_end(end)


__all__ = [
    "BATCH_BYTES", "MAX_BATCH", "SLAB_BYTES", "Batch", "Part", "batch_parts", "emit_batches",
    "enter_group", "fission_state", "item_array", "loop_slot", "masked_vars", "new_batch",
    "shared_arrays",
]  # fmt: skip
