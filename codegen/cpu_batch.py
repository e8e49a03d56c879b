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

from llvmlite import ir as ll

from codegen.cpu_interchange import Interchange
from codegen.cpu_masked import masked_while_batch, streamed
from codegen.cpu_state import (
    MAX_BATCH,
    Batch,
    GroupLowering,
    GroupState,
    counted_loop,
    enter_group,
    group_geometry,
    item_array,
    shared_value,
    type_bytes,
)
from codegen.llvm import I8, I64, llvm_type, memory_type, static_size
from gpuoff.ir import nodes as n
from gpuoff.ir.walk import walk_stmts

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

Part = tuple[n.Stmt, ...] | n.While | n.ForRange
"""A run of top-level statements executed group by group, or a grid-stride loop executed for
the whole batch at once."""


def batch_parts(kernel: n.Function, ic: Interchange) -> list[Part] | None:
    """The kernel body split at its top-level grid-stride loops, or None when the kernel has
    none (or has a ``return``: the per-item "returned" flags are not kept per group)."""
    if any(isinstance(s, n.Return) for s in walk_stmts(kernel.body)) or kernel.private:
        return None  # (private arrays are kept per item of one group, not of a batch)
    parts: list[Part] = []
    run: list[n.Stmt] = []
    for s in kernel.body:
        if isinstance(s, (n.While, n.ForRange)) and ic.masked(s, kernel.body) is not None:
            parts += [tuple(run), s] if run else [s]
            run = []
        else:
            run.append(s)
    if all(isinstance(p, tuple) for p in parts):
        return None
    return [*parts, tuple(run)] if run else parts


def masked_vars(ic: Interchange, kernel: n.Function) -> set[str]:
    """Indices of grid-stride loops: read only inside their loop, where the lowering keeps
    them as base + lane, so they need no per-item storage (a ``for`` loop's variable: when
    every ``for`` loop over it is such a loop)."""
    found: set[str] = set()
    loops = ic.masked_loops(kernel.body)
    for w in loops:
        if isinstance(w, n.ForRange):
            if all(any(x is w2 for w2 in loops) for x in ic.fors[w.var]):
                found.add(w.var)
            continue
        last = w.body[-1]
        assert isinstance(last, n.Assign)
        found.add(last.target)
    return found


def _shared_elems(sa: n.SharedArray) -> int:
    size = 1
    for s in sa.type.static_shape or ():
        size *= s
    return size


def new_batch(gs: GroupState, b: ll.IRBuilder, count: ll.Value, per_item: list[ll.Type],
              parts: Sequence[Part]) -> Batch:  # fmt: skip
    """Decide the capacity (at run time) and allocate the per-group copies of shared arrays;
    ``per_item`` lists the element types of the per-item arrays (locals and active flags)."""
    fl = gs.fl
    kernel = fl.fn
    one = ll.Constant(I64, 1)

    def at_least_one(v: ll.Value) -> ll.Value:
        return b.select(b.icmp_unsigned("<", v, one), one, v)

    # Enough groups for a slab of SLAB_BYTES per iteration, as long as their state fits.
    chunk = b.mul(gs.geo.lsize[0], ll.Constant(I64, max(_streamed_bytes(kernel, parts), 1)))
    slab = at_least_one(b.udiv(b.add(ll.Constant(I64, SLAB_BYTES - 1), chunk), chunk))
    item_bytes = sum(type_bytes(ty) for ty in per_item)
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
        ptr = gs.scratch.shared(b, sa, b.mul(cap, ll.Constant(I64, elems)))
        batch.shared[sa.name] = (ptr, elems)
        fl.arrays[sa.name] = shared_value(sa, ptr)
    return batch


def _streamed_bytes(kernel: n.Function, parts: Sequence[Part]) -> int:
    """Bytes per work-item that the batched loops read through their index, per iteration."""
    ic = Interchange(kernel)
    total = 0
    for p in parts:
        aff = None if isinstance(p, tuple) else ic.masked(p, kernel.body)
        if not isinstance(p, tuple) and aff is not None:
            total = max(total, sum(r.type.dtype.itemsize for r in streamed(kernel, p, aff.var)))
    return total


def shared_arrays(gs: GroupState, b: ll.IRBuilder) -> None:
    """One copy of each shared array (kernels not run in batches), from the ``Scratch``."""
    fl = gs.fl
    for sa in fl.fn.shared:
        ptr = gs.scratch.shared(b, sa, ll.Constant(I64, _shared_elems(sa)))
        fl.arrays[sa.name] = shared_value(sa, ptr)


def fission_state(gs: GroupState, b: ll.IRBuilder, parts: list[Part] | None) -> None:
    """Per-item and per-group storage of a kernel run as regions (per group of a batch when
    ``parts`` says the kernel runs in batches)."""
    fl, geo = gs.fl, gs.geo
    kernel = fl.fn
    count = b.mul(b.mul(geo.lsize[0], geo.lsize[1]), geo.lsize[2])
    gs.remat = gs.ic.remat  # the analyses of the kernel's Interchange, made once
    gs.group_uniform = gs.ic.group_uniform - set(gs.remat)
    skip = masked_vars(gs.ic, kernel) | set(gs.remat) | gs.group_uniform
    per_item = [name for name in kernel.locals if name not in skip]
    # In the kernel's order, not the set's: the generated code must not depend on hashing.
    per_group = [name for name in kernel.locals if name in gs.group_uniform]
    loops = gs.ic.masked_loops(kernel.body)
    if parts is not None:
        types = [llvm_type(kernel.locals[name]) for name in per_item] + [I8] * len(loops)
        gs.batch = batch = new_batch(gs, b, count, types, parts)
        copies = b.mul(count, batch.capacity)
        for name in per_group:
            ty = ll.ArrayType(llvm_type(kernel.locals[name]), MAX_BATCH)
            batch.uniform[name] = fl.alloca(ty, name=f"{name}.groups")
        for name in per_item:
            batch.wi[name] = item_array(b, llvm_type(kernel.locals[name]), copies, f"{name}.wi")
        for w in loops:
            batch.active[id(w)] = item_array(b, I8, copies, "active.wi")
    else:
        shared_arrays(gs, b)
        for pa in kernel.private:
            elems = ll.Constant(I64, static_size(pa.type))
            base = item_array(b, memory_type(pa.type.dtype), b.mul(count, elems), f"{pa.name}.wi")
            gs.item_private[pa.name] = (base, count)
        for name in per_group:
            gs.uniform_slots[name] = fl.alloca(llvm_type(kernel.locals[name]), name=f"{name}.group")
        for name in per_item:
            gs.wi_arrays[name] = item_array(b, llvm_type(kernel.locals[name]), count, f"{name}.wi")
        for w in loops:
            gs.active[id(w)] = item_array(b, I8, count, "active.wi")
    for s in walk_stmts(kernel.body):
        if gs.ic.predicated_if(s):
            gs.pred_arrays[id(s)] = item_array(b, I8, count, "pred.wi")
    if any(isinstance(s, n.Return) for s in walk_stmts(kernel.body)):
        gs.done = item_array(b, I8, count, "done.wi")
        gs.any_done = fl.alloca(I8, name="any_done")


def emit_batches(em: GroupLowering, lo: ll.Value, hi: ll.Value, parts: Sequence[Part]) -> None:
    """Run groups ``[lo, hi)`` batch by batch (see the module docstring)."""
    gs = em.state
    batch = gs.batch
    assert batch is not None
    fl, geo = gs.fl, gs.geo
    b = fl.builder
    pre = b.block
    head, body, end = (fl.new_block(f"batch.{k}") for k in ("head", "body", "end"))
    b.branch(head)
    b.position_at_end(head)
    g = b.phi(I64, name="batch.first")
    g.add_incoming(lo, pre)
    b.cbranch(b.icmp_signed("<", g, hi), body, end)
    b.position_at_end(body)
    group_geometry(b, geo, g)
    # A batch stays in one dimension-0 row, where group ids (and global ids) are consecutive.
    row_end = b.add(b.sub(g, geo.gid[0]), geo.ngroups[0])
    size = batch.capacity
    for limit in (b.sub(hi, g), b.sub(row_end, g)):
        size = b.select(b.icmp_signed("<", limit, size), limit, size)
    batch.first_gid0, batch.size = geo.gid[0], size
    for part in parts:
        if not isinstance(part, tuple):
            masked_while_batch(em, part)
            continue

        def each(j: ll.Value, _: ll.Block, stmts: tuple[n.Stmt, ...] = part) -> None:
            enter_group(gs, j)
            em.group_stmts(stmts)

        counted_loop(fl, ll.Constant(I64, 0), size, "batch.group", each)
    g.add_incoming(b.add(g, size, flags=["nsw"]), b.block)
    b.branch(head)
    b.position_at_end(end)


__all__ = [
    "BATCH_BYTES", "SLAB_BYTES", "Part", "batch_parts", "emit_batches", "fission_state",
    "masked_vars", "new_batch", "shared_arrays",
]  # fmt: skip
