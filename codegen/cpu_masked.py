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
from codegen.llvm import I1, I8, I64, PTR, gep, llvm_type
from gpuoff.ir import nodes as n

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
    b.branch(head)
    b.position_at_end(head)
    b.store(ll.Constant(I8, 0), ran)
    body = s.body[:-1]  # the last statement is the index's step, taken at group level

    def item() -> None:
        lane = b.sub(fl.wi_values[("global_id", 0)], geo.base[0], flags=["nsw"])
        b.store(b.add(b.load(base, typ=ty), lane), index)
        fl.slots[aff.var] = index
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

    em.work_item_nest([], emit=item, analysed=[n.If(s.cond, body, ())])
    b.cbranch(b.icmp_unsigned("!=", b.load(ran, typ=I8), ll.Constant(I8, 0)), step, end)
    b.position_at_end(step)
    em.uniform()
    b.store(b.add(b.load(base, typ=ty), fl.expr(aff.step)), base)
    b.branch(head)
    b.position_at_end(end)


__all__ = ["masked_while"]
