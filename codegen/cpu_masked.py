"""Grid-stride loops at work-group level, masked per work-item (CPU target).

A ``while`` or ``for`` loop whose index is affine in the work-item id
(``codegen.cpu_interchange.Affine``) runs as one group-level loop around a work-item loop,
instead of one loop per work-item inside it: iteration ``k`` of every work-item runs before
iteration ``k + 1`` of any, so the work-item loop is innermost and vectorises. The index is
kept as a group-level base plus the item's lane (never per-item memory), so ``x[i]`` is a
contiguous vector load, not a gather.

Each item has an "active" byte: cleared when its condition first fails (it then skips the
rest, as the item's own loop would have exited); the group loop ends when no item ran the
body. A ``for`` loop over ``range(start, stop, step)`` (``step`` positive) stays exact where
``i += step`` would wrap: an item whose index passed the largest integer is out, and the
whole group is once lane 0's is. Work-items interleave differently than one after another,
which only data races between work-items can observe (their result is schedule-dependent on
any device).

Each iteration prefetches the chunk ``PREFETCH_AHEAD`` bytes ahead of what it reads: in the
group's own later iterations, or, for a batch of groups (``masked_while_batch``), along the
slab the batch reads, wrapping into the next iterations' slabs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from llvmlite import ir as ll

from codegen.cpu_interchange import Affine, masked_body, masked_cond
from codegen.cpu_state import MAX_BATCH, GroupLowering, GroupState, counted_loop, enter_group
from codegen.llvm import I1, I8, I32, I64, PTR, gep, llvm_type, memory_type
from gpuoff.ir import nodes as n
from gpuoff.ir.walk import child_exprs, walk_exprs

PREFETCH_AHEAD = 8192
"""Bytes (about) ahead of the current chunk to prefetch, per array read through the index: a
grid-stride loop reads one group-sized chunk per page, which hardware prefetchers miss."""


@dataclass
class _LoopState:
    """Slots of one group's masked loop: the index of lane 0 (``base``), "no item has left"
    (``every``, i1), "some item ran this iteration" (``ran``, i8), the current lane's index."""

    base: ll.Value
    every: ll.Value
    ran: ll.Value
    index: ll.Value


Masked = n.While | n.ForRange
"""A loop ``codegen.cpu_interchange.Interchange.masked`` accepts."""


def masked_while(em: GroupLowering, s: Masked, aff: Affine, active: ll.Value) -> None:
    """Lower ``s`` at group level; ``active`` is its per-work-item byte array."""
    gs = em.state
    fl = gs.fl
    b = fl.builder
    ty = llvm_type(fl.fn.locals[aff.var])
    st = _LoopState(
        fl.alloca(ty, name=f"{aff.var}.group"),
        fl.alloca(I1, name="masked.every"),
        fl.alloca(I8, name="masked.ran"),
        fl.alloca(ty, name=f"{aff.var}.lane"),
    )
    _start(em, aff, st, active)
    head, step, end = (fl.new_block(f"mwhile.{k}") for k in ("head", "step", "end"))
    b.branch(head)
    b.position_at_end(head)
    _iteration(em, s, aff, st, active, None)
    b.cbranch(b.icmp_unsigned("!=", b.load(st.ran, typ=I8), ll.Constant(I8, 0)), step, end)
    b.position_at_end(step)
    wrapped = _advance(em, aff, st)
    if wrapped is None:
        b.branch(head)
    else:
        b.cbranch(wrapped, end, head)
    b.position_at_end(end)


def masked_while_batch(em: GroupLowering, s: Masked) -> None:
    """Lower the top-level ``s`` for every group of the current batch (``codegen.cpu_batch``):
    iteration ``k`` of each group of the batch, in group order, then iteration ``k + 1``. A
    group none of whose items ran an iteration is done and skipped from then on."""
    gs = em.state
    fl, batch = gs.fl, gs.batch
    aff = gs.ic.masked(s, fl.fn.body)
    assert batch is not None and aff is not None
    b = fl.builder
    ty = llvm_type(fl.fn.locals[aff.var])
    bases = fl.alloca(ll.ArrayType(ty, MAX_BATCH), name=f"{aff.var}.groups")
    everys = fl.alloca(ll.ArrayType(I1, MAX_BATCH), name="masked.every")
    alive = fl.alloca(ll.ArrayType(I8, MAX_BATCH), name="masked.alive")
    ran, index = fl.alloca(I8, name="masked.ran"), fl.alloca(ty, name=f"{aff.var}.lane")
    some = fl.alloca(I8, name="masked.some")
    slab = _slab_plan(gs, s, aff) if _contiguous(aff) else None

    def state(j: ll.Value) -> _LoopState:
        return _LoopState(gep(b, ty, bases, j), gep(b, I1, everys, j), ran, index)

    def start(j: ll.Value, _: ll.Block) -> None:
        enter_group(gs, j)
        _start(em, aff, state(j), gs.active[id(s)])
        b.store(ll.Constant(I8, 1), gep(b, I8, alive, j))

    def group(j: ll.Value, latch: ll.Block) -> None:
        live = gep(b, I8, alive, j)
        run = fl.new_block("mwhile.live")
        b.cbranch(b.icmp_unsigned("!=", b.load(live, typ=I8), ll.Constant(I8, 0)), run, latch)
        b.position_at_end(run)
        enter_group(gs, j)
        st = state(j)
        _iteration(em, s, aff, st, gs.active[id(s)], None if slab is None else (j, slab))
        went = b.load(ran, typ=I8)
        b.store(went, live)
        b.store(b.or_(b.load(some, typ=I8), went), some)
        with b.if_then(b.icmp_unsigned("!=", went, ll.Constant(I8, 0))):
            wrapped = _advance(em, aff, st)
            if wrapped is not None:  # the group is done
                b.store(b.select(wrapped, ll.Constant(I8, 0), went), live)

    zero = ll.Constant(I64, 0)
    counted_loop(fl, zero, batch.size, "mwhile.start", start)
    head, end = fl.new_block("mwhile.bhead"), fl.new_block("mwhile.bend")
    b.branch(head)
    b.position_at_end(head)
    b.store(ll.Constant(I8, 0), some)
    counted_loop(fl, zero, batch.size, "mwhile.group", group)
    b.cbranch(b.icmp_unsigned("!=", b.load(some, typ=I8), ll.Constant(I8, 0)), head, end)
    b.position_at_end(end)


@dataclass
class _Slab:
    """A batch's slab per iteration (``width`` items) and, per streamed array, the prefetch
    distance in whole slabs and the remainder in items (computed once per batch: no division
    per group)."""

    width: ll.Value
    ahead: dict[str, tuple[ll.Value, ll.Value]]


def _iterations_ahead(gs: GroupState, itemsize: int) -> ll.Value:
    """How many of its own iterations ahead a group prefetches (at least 1): computed once,
    in the function's first block (the block size is an argument), not per iteration."""
    key = ("ahead", itemsize)
    if key not in gs.hoisted:
        fl = gs.fl
        assert fl.alloca_block is not None
        hb = ll.IRBuilder(fl.alloca_block)
        hb.position_before(fl.alloca_block.terminator)
        chunk = hb.mul(gs.geo.lsize[0], ll.Constant(I64, itemsize))
        ahead = hb.udiv(ll.Constant(I64, PREFETCH_AHEAD), chunk)
        zero = hb.icmp_unsigned("==", ahead, ll.Constant(I64, 0))
        gs.hoisted[key] = hb.select(zero, ll.Constant(I64, 1), ahead)
    return gs.hoisted[key]


def _lanes_ahead(itemsize: int) -> int:
    return max(PREFETCH_AHEAD // itemsize, 1)


def _slab_plan(gs: GroupState, s: Masked, aff: Affine) -> _Slab:
    fl, batch = gs.fl, gs.batch
    assert batch is not None
    b = fl.builder
    width = b.mul(batch.size, gs.geo.lsize[0])
    ahead: dict[str, tuple[ll.Value, ll.Value]] = {}
    for ref in streamed(fl.fn, s, aff.var):
        lanes = ll.Constant(I64, _lanes_ahead(ref.type.dtype.itemsize))
        ahead[ref.name] = (b.udiv(lanes, width), b.urem(lanes, width))
    return _Slab(width, ahead)


def _contiguous(aff: Affine) -> bool:
    """Whether consecutive groups' indices follow one another (``global_id(0)`` plus an
    offset that is the same for every group): a batch's iteration then reads one slab."""
    if aff.wi.name != "global_id":
        return False
    return aff.offset is None or not _mentions_group_id(aff.offset)


def _mentions_group_id(e: n.Expr) -> bool:
    if isinstance(e, n.WorkItem) and e.name == "group_id":
        return True
    return any(_mentions_group_id(c) for c in child_exprs(e))


def _start(em: GroupLowering, aff: Affine, st: _LoopState, active: ll.Value) -> None:
    """Before the first iteration: the start index, every item active."""
    gs = em.state
    fl, geo = gs.fl, gs.geo
    b = fl.builder
    em.uniform()
    start = aff.wi if aff.offset is None else n.Binary(aff.wi.type, "add", aff.wi, aff.offset)
    b.store(fl.expr(start), st.base)
    memset = fl.ml.declare("llvm.memset.p0.i64", ll.VoidType(), [PTR, I8, I64, I1])
    count = b.mul(b.mul(geo.lsize[0], geo.lsize[1]), geo.lsize[2])
    b.call(memset, [active, ll.Constant(I8, 1), count, ll.Constant(I1, 0)])
    b.store(ll.Constant(I1, 1), st.every)


def _advance(em: GroupLowering, aff: Affine, st: _LoopState) -> ll.Value | None:
    """The index's step, taken at group level; for a ``for`` loop, whether lane 0's index
    wrapped (its positive step passed the largest integer: every item is done)."""
    gs = em.state
    fl = gs.fl
    b = fl.builder
    em.uniform()
    ty = llvm_type(fl.fn.locals[aff.var])
    old = b.load(st.base, typ=ty)
    new = b.add(old, fl.expr(aff.step))
    b.store(new, st.base)
    return None if aff.stop is None else b.icmp_signed("<", new, old)


def _iteration(em: GroupLowering, s: Masked, aff: Affine, st: _LoopState, active: ll.Value,
               stream: tuple[ll.Value, _Slab] | None) -> None:  # fmt: skip
    """One iteration of every item of the current group; sets ``st.ran``. ``stream``: this
    group's place in its batch and the batch's slab (prefetching along the slab)."""
    gs = em.state
    fl, geo = gs.fl, gs.geo
    b = fl.builder
    ty = llvm_type(fl.fn.locals[aff.var])
    b.store(ll.Constant(I8, 0), st.ran)
    _prefetch(em, s, aff, b.load(st.base, typ=ty), stream)
    body = masked_body(s)
    test = masked_cond(s, aff)
    analysed = [n.If(test, body, ())]

    def lane_index() -> None:
        lane = b.sub(fl.wi_values[("global_id", 0)], geo.base[0], flags=["nsw"])
        b.store(b.add(b.load(st.base, typ=ty), lane), st.index)
        fl.slots[aff.var] = st.index

    def item() -> None:
        lane_index()
        slot = gep(b, I8, active, gs.flat)
        was = b.icmp_unsigned("!=", b.load(slot, typ=I8), ll.Constant(I8, 0))
        pre = b.block
        names = ("test", "join", "run", "next")
        check, join, run, nxt = (fl.new_block(f"mwhile.{k}") for k in names)
        b.cbranch(was, check, join)
        b.position_at_end(check)
        cond = fl.expr(test)
        if aff.stop is not None:  # and the lane's index did not wrap
            cond = b.and_(cond, b.icmp_signed(">=", b.load(st.index, typ=ty),
                                              b.load(st.base, typ=ty)))  # fmt: skip
        test_end = b.block
        b.branch(join)
        b.position_at_end(join)
        go = b.phi(I1)
        go.add_incoming(ll.Constant(I1, 0), pre)
        go.add_incoming(cond, test_end)
        flag = b.zext(go, I8)
        b.store(flag, slot)
        b.store(b.or_(b.load(st.ran, typ=I8), flag), st.ran)
        b.cbranch(go, run, nxt)
        b.position_at_end(run)
        fl.lower_body(body)
        fl.branch_if_open(nxt)
        b.position_at_end(nxt)

    def item_all_in() -> None:
        lane_index()
        b.store(ll.Constant(I8, 1), st.ran)
        fl.lower_body(body)

    all_in = _all_lanes_in(em, test, aff, b.load(st.base, typ=ty))
    _masked_or_not(em, st, all_in, item, item_all_in, analysed)


def _masked_or_not(em: GroupLowering, st: _LoopState, all_in: ll.Value | None,
                   item: Callable[[], None], item_all_in: Callable[[], None],
                   analysed: Sequence[n.Stmt]) -> None:  # fmt: skip
    """The items' loop of one iteration: without per-item masks (``item_all_in``) while no
    item has left and ``all_in`` holds, else masked (``item``)."""
    if all_in is None:
        em.work_item_nest([], emit=item, analysed=analysed)
        return
    fl = em.state.fl
    b = fl.builder
    fast, slow, latch = (fl.new_block(f"mwhile.{k}") for k in ("fast", "slow", "latch"))
    b.cbranch(b.and_(b.load(st.every, typ=I1), all_in), fast, slow)
    b.position_at_end(fast)
    em.work_item_nest([], emit=item_all_in, analysed=analysed)
    b.branch(latch)
    b.position_at_end(slow)
    b.store(ll.Constant(I1, 0), st.every)
    em.work_item_nest([], emit=item, analysed=analysed)
    b.branch(latch)
    b.position_at_end(latch)


def _all_lanes_in(em: GroupLowering, c: n.Expr, aff: Affine, index: ll.Value) -> ll.Value | None:
    """For the condition ``c``, ``var < bound`` (``<=``; ``bound`` uniform): whether every
    lane's index ``index + lane`` passes, without wrapping. Then, while no item has left, the
    iteration runs without per-item masks. None for other conditions."""
    if not (isinstance(c, n.Compare) and c.op in ("lt", "le") and isinstance(c.lhs, n.Var)):
        return None
    gs = em.state
    bound = gs.ic.uniform_expr(c.rhs)
    st = gs.fl.fn.locals[aff.var]
    if c.lhs.name != aff.var or bound is None or not st.is_signed or st.bits != 64:
        return None
    fl, geo = gs.fl, gs.geo
    b = fl.builder
    em.uniform()
    last = b.add(index, b.sub(b.sub(geo.end[0], geo.base[0]), ll.Constant(I64, 1)))
    slot = fl.alloca(llvm_type(st), name=f"{aff.var}.last")
    b.store(last, slot)
    fl.slots[aff.var] = slot
    ok = fl.expr(n.Compare(c.type, c.op, c.lhs, bound))
    return b.and_(ok, b.icmp_signed(">=", last, index))


def streamed(kernel: n.Function, s: Masked, var: str) -> list[n.ArrayRef]:
    """Contiguous 1-d global arrays that ``s`` loads at exactly its index ``var``."""
    shared = {sa.name for sa in kernel.shared}
    found: list[n.ArrayRef] = []
    for e in walk_exprs([s]):
        if not isinstance(e, n.Load) or len(e.indices) != 1:
            continue
        idx, ref = e.indices[0], e.array
        if isinstance(idx, n.Var) and idx.name == var and ref.name not in shared:
            if ref.type.ndim == 1 and ref.type.contiguous and ref not in found:
                found.append(ref)
    return found


def _prefetch(em: GroupLowering, s: Masked, aff: Affine, index: ll.Value,
              stream: tuple[ll.Value, _Slab] | None) -> None:  # fmt: skip
    """Prefetch the chunk each streamed array will read ``PREFETCH_AHEAD`` bytes ahead: in
    this group's own iterations, or (``stream``) along the slab its batch reads."""
    gs = em.state
    fl = gs.fl
    b = fl.builder
    names = [ref.name for ref in streamed(fl.fn, s, aff.var)]
    if not names:
        return
    em.uniform()
    step = fl.expr(aff.step)
    prefetch = fl.ml.declare("llvm.prefetch.p0", ll.VoidType(), [PTR, I32, I32, I32])
    lsize = gs.geo.lsize[0]
    for name in names:
        arr = fl.arrays[name]
        ety = memory_type(arr.type.dtype)
        size = arr.type.dtype.itemsize
        chunk = b.mul(lsize, ll.Constant(I64, size))
        if stream is None:
            target = b.add(index, b.mul(_iterations_ahead(gs, size), step))
        else:
            # Along the slab: ``lanes`` ahead, past its end into the next iterations' slabs.
            j, slab = stream
            whole, part = slab.ahead[name]
            over = b.icmp_unsigned(">=", b.add(b.mul(j, lsize), part), slab.width)
            slabs = b.add(whole, b.zext(over, I64))
            lanes = ll.Constant(I64, _lanes_ahead(size))
            target = b.add(b.add(index, lanes), b.mul(slabs, b.sub(step, slab.width)))
        first = gep(b, ety, arr.ptr, target)
        lines = b.add(b.udiv(chunk, ll.Constant(I64, 64)), ll.Constant(I64, 1))

        def line(k: ll.Value, _: ll.Block, first: ll.Value = first) -> None:
            at = gep(b, I8, first, b.mul(k, ll.Constant(I64, 64)))
            b.call(prefetch, [at, ll.Constant(I32, 0), ll.Constant(I32, 3), ll.Constant(I32, 1)])

        counted_loop(fl, ll.Constant(I64, 0), lines, "prefetch", line)


__all__ = ["PREFETCH_AHEAD", "Masked", "masked_while", "masked_while_batch", "streamed"]
