"""Grid-stride ``while`` loops at work-group level, masked per work-item (CPU target).

A ``while`` whose index is affine in the work-item id (``codegen.cpu_interchange.Affine``)
runs as one group-level loop around a work-item loop, instead of one ``while`` per work-item
inside it: iteration ``k`` of every work-item runs before iteration ``k + 1`` of any, so the
work-item loop is innermost and vectorises. The index is kept as a group-level base plus the
item's lane (never per-item memory), so ``x[i]`` is a contiguous vector load, not a gather.

Each item has an "active" byte: cleared when its condition first fails (it then skips the
rest, as the item's own ``while`` would have exited); the group loop ends when no item ran the
body. Work-items interleave differently than one after another, which only data races between
work-items can observe (their result is schedule-dependent on any device).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmlite import ir as ll

from codegen.cpu_interchange import Affine
from codegen.llvm import I1, I8, I32, I64, PTR, gep, llvm_type, memory_type
from codegen.llvm_walk import walk_exprs
from gpuoff.ir import nodes as n

PREFETCH_AHEAD = 8192
"""Bytes (about) ahead of the current chunk to prefetch, per array read through the index: a
grid-stride loop reads one group-sized chunk per page, which hardware prefetchers miss."""

if TYPE_CHECKING:
    from codegen.cpu_groups import _GroupEmitter


def masked_while(em: _GroupEmitter, s: n.While, aff: Affine, active: ll.Value) -> None:
    """Lower ``s`` at group level; ``active`` is its per-work-item byte array."""
    fl, geo = em.fl, em.geo
    b = fl.builder
    ty = llvm_type(fl.fn.locals[aff.var])
    base = fl.alloca(ty, name=f"{aff.var}.group")
    ran = fl.alloca(I8, name="masked.ran")
    index = fl.alloca(ty, name=f"{aff.var}.lane")
    em.uniform()
    start = aff.wi if aff.offset is None else n.Binary(aff.wi.type, "add", aff.wi, aff.offset)
    b.store(fl.expr(start), base)
    memset = fl.ml.declare("llvm.memset.p0.i64", ll.VoidType(), [PTR, I8, I64, I1])
    count = b.mul(b.mul(geo.lsize[0], geo.lsize[1]), geo.lsize[2])
    b.call(memset, [active, ll.Constant(I8, 1), count, ll.Constant(I1, 0)])
    head, step, end = (fl.new_block(f"mwhile.{k}") for k in ("head", "step", "end"))
    every = fl.alloca(I1, name="masked.every")  # no item has left the loop yet
    b.store(ll.Constant(I1, 1), every)
    b.branch(head)
    b.position_at_end(head)
    b.store(ll.Constant(I8, 0), ran)
    _prefetch(em, s, aff, b.load(base, typ=ty))
    body = s.body[:-1]  # the last statement is the index's step, taken at group level
    analysed = [n.If(s.cond, body, ())]

    def lane_index() -> None:
        lane = b.sub(fl.wi_values[("global_id", 0)], geo.base[0], flags=["nsw"])
        b.store(b.add(b.load(base, typ=ty), lane), index)
        fl.slots[aff.var] = index

    def item() -> None:
        lane_index()
        slot = gep(b, I8, active, em.flat)
        was = b.icmp_unsigned("!=", b.load(slot, typ=I8), ll.Constant(I8, 0))
        pre = b.block
        names = ("test", "join", "run", "next")
        test, join, run, nxt = (fl.new_block(f"mwhile.{k}") for k in names)
        b.cbranch(was, test, join)
        b.position_at_end(test)
        cond = fl.expr(s.cond)
        test_end = b.block
        b.branch(join)
        b.position_at_end(join)
        go = b.phi(I1)
        go.add_incoming(ll.Constant(I1, 0), pre)
        go.add_incoming(cond, test_end)
        flag = b.zext(go, I8)
        b.store(flag, slot)
        b.store(b.or_(b.load(ran, typ=I8), flag), ran)
        b.cbranch(go, run, nxt)
        b.position_at_end(run)
        fl.lower_body(body)
        fl.branch_if_open(nxt)
        b.position_at_end(nxt)

    def item_all_in() -> None:
        lane_index()
        b.store(ll.Constant(I8, 1), ran)
        fl.lower_body(body)

    all_in = _all_lanes_in(em, s, aff, b.load(base, typ=ty))
    if all_in is not None:
        fast, slow, latch = (fl.new_block(f"mwhile.{k}") for k in ("fast", "slow", "latch"))
        b.cbranch(b.and_(b.load(every, typ=I1), all_in), fast, slow)
        b.position_at_end(fast)
        em.work_item_nest([], emit=item_all_in, analysed=analysed)
        b.branch(latch)
        b.position_at_end(slow)
        b.store(ll.Constant(I1, 0), every)
        em.work_item_nest([], emit=item, analysed=analysed)
        b.branch(latch)
        b.position_at_end(latch)
    else:
        em.work_item_nest([], emit=item, analysed=analysed)
    b.cbranch(b.icmp_unsigned("!=", b.load(ran, typ=I8), ll.Constant(I8, 0)), step, end)
    b.position_at_end(step)
    em.uniform()
    b.store(b.add(b.load(base, typ=ty), fl.expr(aff.step)), base)
    b.branch(head)
    b.position_at_end(end)


def _all_lanes_in(em: _GroupEmitter, s: n.While, aff: Affine, index: ll.Value) -> ll.Value | None:
    """For ``while var < bound`` (``<=``; ``bound`` uniform): whether every lane's index
    ``index + lane`` passes, without wrapping. Then, while no item has left, the iteration runs
    without per-item masks. None for other conditions."""
    c = s.cond
    if not (isinstance(c, n.Compare) and c.op in ("lt", "le") and isinstance(c.lhs, n.Var)):
        return None
    bound = em.ic.uniform_expr(c.rhs)
    st = em.fl.fn.locals[aff.var]
    if c.lhs.name != aff.var or bound is None or not st.is_signed or st.bits != 64:
        return None
    fl, geo = em.fl, em.geo
    b = fl.builder
    em.uniform()
    last = b.add(index, b.sub(b.sub(geo.end[0], geo.base[0]), ll.Constant(I64, 1)))
    slot = fl.alloca(llvm_type(st), name=f"{aff.var}.last")
    b.store(last, slot)
    fl.slots[aff.var] = slot
    ok = fl.expr(n.Compare(c.type, c.op, c.lhs, bound))
    return b.and_(ok, b.icmp_signed(">=", last, index))


def _streamed(em: _GroupEmitter, s: n.While, var: str) -> list[str]:
    """Contiguous 1-d global arrays that ``s`` loads at exactly its index ``var``."""
    shared = {sa.name for sa in em.fl.fn.shared}
    names: list[str] = []
    for e in walk_exprs([s]):
        if not isinstance(e, n.Load) or len(e.indices) != 1:
            continue
        idx, ref = e.indices[0], e.array
        if isinstance(idx, n.Var) and idx.name == var and ref.name not in shared:
            if ref.type.ndim == 1 and ref.type.contiguous and ref.name not in names:
                names.append(ref.name)
    return names


def _prefetch(em: _GroupEmitter, s: n.While, aff: Affine, index: ll.Value) -> None:
    """Prefetch the chunk each streamed array will read ``PREFETCH_AHEAD`` bytes ahead."""
    from codegen.cpu_groups import counted_loop

    fl = em.fl
    b = fl.builder
    names = _streamed(em, s, aff.var)
    if not names:
        return
    em.uniform()
    step = fl.expr(aff.step)
    prefetch = fl.ml.declare("llvm.prefetch.p0", ll.VoidType(), [PTR, I32, I32, I32])
    for name in names:
        arr = fl.arrays[name]
        ety = memory_type(arr.type.dtype)
        chunk = b.mul(em.geo.lsize[0], ll.Constant(I64, arr.type.dtype.itemsize))
        ahead = b.udiv(ll.Constant(I64, PREFETCH_AHEAD), chunk)
        ahead = b.select(b.icmp_unsigned("==", ahead, ll.Constant(I64, 0)),
                         ll.Constant(I64, 1), ahead)  # fmt: skip
        first = gep(b, ety, arr.ptr, b.add(index, b.mul(ahead, step)))
        lines = b.add(b.udiv(chunk, ll.Constant(I64, 64)), ll.Constant(I64, 1))

        def line(k: ll.Value, _: ll.Block, first: ll.Value = first) -> None:
            at = gep(b, I8, first, b.mul(k, ll.Constant(I64, 64)))
            b.call(prefetch, [at, ll.Constant(I32, 0), ll.Constant(I32, 3), ll.Constant(I32, 1)])

        counted_loop(fl, ll.Constant(I64, 0), lines, "prefetch", line)


__all__ = ["PREFETCH_AHEAD", "masked_while"]
