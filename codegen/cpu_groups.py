"""CPU work-group execution: the group loop, work-item loop nests and barrier fission.

Each work-group runs its work-items as a loop nest (dimension 0 innermost, clamped to the
global size for partial groups). A kernel without barriers is one such nest around its body.
A kernel with barriers is split at them (PoCL-style region fission): every barrier-free run of
statements becomes its own work-item nest; ``if``/``for``/``while`` statements that contain a
barrier are work-group-uniform (``Barrier``'s contract) and run once per group, evaluated in
work-item (0, 0, 0)'s context. Locals then live in per-work-item arrays so values survive
from one region to the next.

The same fission runs group-uniform inner loops at group level (``codegen.cpu_interchange``)
so the work-item loop inside them vectorises; an ``if`` around such a loop becomes a
per-work-item predicate array, and a ``return`` marks the item done for later regions (each
such region also has an unguarded version, run while every item of the group takes part).
Grid-stride ``while`` and ``for`` loops run masked at group level (``codegen.cpu_masked``), and when
they stand at the kernel's top level, consecutive groups run in batches around them
(``codegen.cpu_batch``) so that each iteration reads memory in order; locals that are pure
functions of the work-item ids are recomputed per region, not kept per item. Per-item arrays
are cache-line aligned. Work-items of a group then interleave differently than one after
another: only kernels with data races between work-items can tell (their result is
schedule-dependent anyway).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from llvmlite import ir as ll

from codegen.cpu_batch import batch_parts, emit_batches, fission_state, shared_arrays
from codegen.cpu_checks import lane_stride, linear_item, make_row_record, row_failed, scan_row
from codegen.cpu_interchange import Interchange, interchanges, uses_fission
from codegen.cpu_masked import masked_while
from codegen.cpu_regions import all_run, narrowed_range
from codegen.cpu_state import (
    GroupGeometry,
    GroupState,
    Scratch,
    counted_loop,
    group_geometry,
    item_private_value,
    loop_slot,
)
from codegen.llvm import (
    I1,
    I8,
    I32,
    I64,
    PTR,
    ArrayValue,
    FunctionLowerer,
    ModuleLowerer,
    alloca_block,
    gep,
    llvm_type,
)
from codegen.llvm_stmt import trip_count
from gpuoff.errors import CompileError, SourceLocation
from gpuoff.ir import nodes as n
from gpuoff.ir.replay import region_replay_safe
from gpuoff.ir.walk import escaping_jumps, has_barrier, walk_exprs

BindParams = Callable[
    [ll.Function, ll.IRBuilder, n.Module], tuple[dict[str, ArrayValue], dict[str, ll.Value]]
]


class _GroupEmitter:
    """Lowers a kernel's body for the work-items of one work-group (``GroupLowering``): as
    one work-item loop nest, or (fission) as group-level control flow around such nests. Its
    state, shared with the helper modules, is ``state`` (``codegen.cpu_state.GroupState``)."""

    def __init__(self, state: GroupState) -> None:
        self.state = state

    def set_work_item(self, ids: Sequence[ll.Value]) -> None:
        """Point work-item queries (and per-work-item locals) at work-item ``ids``."""
        gs = self.state
        fl, geo = gs.fl, gs.geo
        b = fl.builder
        flat: ll.Value = ll.Constant(I64, 0)
        for d in (2, 1, 0):
            lid = b.sub(ids[d], geo.base[d], flags=["nsw"])
            fl.wi_values[("global_id", d)] = ids[d]
            fl.wi_values[("local_id", d)] = lid
            fl.wi_values[("group_id", d)] = geo.gid[d]
            fl.wi_values[("global_size", d)] = geo.gsize[d]
            fl.wi_values[("local_size", d)] = geo.lsize[d]
            fl.wi_values[("num_groups", d)] = geo.ngroups[d]
            flat = b.add(b.mul(flat, geo.lsize[d]), lid)
        gs.flat = flat
        for name, arr in gs.wi_arrays.items():
            ty = llvm_type(fl.fn.locals[name])
            fl.slots[name] = gep(b, ty, arr, flat)
        for pa in fl.fn.private:
            if pa.name in gs.item_private:
                base, count = gs.item_private[pa.name]
                fl.arrays[pa.name] = item_private_value(b, pa.type, base, count, flat)
        fl.slots.update(gs.uniform_slots)
        for name, value in gs.remat.items():
            if name not in gs.remat_slots:
                gs.remat_slots[name] = fl.alloca(llvm_type(fl.fn.locals[name]), name=name)
            fl.slots[name] = gs.remat_slots[name]
            b.store(fl.expr(value), gs.remat_slots[name])

    def uniform(self) -> None:
        """Work-item (0, 0, 0) of the group: the context of group-uniform control flow."""
        self.set_work_item(self.state.geo.base)

    def _strategy(self, stmts: tuple[n.Stmt, ...]) -> str:
        gs = self.state
        rows = gs.rows
        if rows is None:
            return "off"
        if not gs.fission:
            return rows.strategy
        return "replay" if region_replay_safe(gs.fl.ml.ir, stmts) else "rows"

    def _private_locals(self) -> None:
        """Replay of a region: locals in private slots, copied from the per-item arrays, so
        the replay leaves the real values alone."""
        gs = self.state
        fl = gs.fl
        b = fl.builder
        for name in gs.wi_arrays:
            if name in gs.uniform_slots:
                continue
            ty = llvm_type(fl.fn.locals[name])
            if name not in gs.private:
                gs.private[name] = fl.alloca(ty, name=f"{name}.replay")
            b.store(b.load(fl.slots[name], typ=ty), gs.private[name])
            fl.slots[name] = gs.private[name]

    def work_item_nest(
        self,
        stmts: Sequence[n.Stmt],
        emit: Callable[[], None] | None = None,
        analysed: Sequence[n.Stmt] | None = None,
    ) -> None:
        """Run ``stmts`` (or ``emit()``, whose checks ``analysed`` stands for) for every
        work-item of the group, as loops."""
        gs = self.state
        if not stmts and emit is None:
            return
        fl, geo = gs.fl, gs.geo
        narrowed = None if emit is not None else narrowed_range(self, stmts)
        if narrowed is not None:
            end0, geo.end[0] = geo.end[0], narrowed[0]
            self.work_item_nest(narrowed[1], analysed=stmts)
            geo.end[0] = end0
            return
        rows = gs.rows
        strategy = self._strategy(tuple(analysed if analysed is not None else stmts))

        def dim0(x: ll.Value, latch: ll.Block, y: ll.Value, z: ll.Value, mode: str) -> None:
            self.set_work_item([x, y, z])
            if not gs.fission:
                fl.reset_locals()
            fl.return_block = self._item_guard(latch)
            if mode == "replay" and gs.fission:
                self._private_locals()
            if rows is not None:
                rows.mode = mode
            fl.side_effects = mode != "replay"
            if emit is not None:
                emit()
            fl.lower_body(stmts)
            fl.side_effects = True
            if rows is not None:
                rows.mode = "off"

        def row(y: ll.Value, z: ll.Value, mode: str) -> None:
            counted_loop(fl, geo.base[0], geo.end[0], "wi0",
                         lambda x, lt: dim0(x, lt, y, z, mode))  # fmt: skip

        def dim1(y: ll.Value, _: ll.Block, z: ll.Value) -> None:
            if rows is None:
                row(y, z, "off")
                return
            fl.builder.store(ll.Constant(I32, 0), rows.any_bad)
            if strategy == "rows":
                row(y, z, "rows")
                b = fl.builder
                first = linear_item(fl, [geo.base[0], y, z], geo.gsize)
                scan_row(fl, rows, b.sub(geo.end[0], geo.base[0]), first,
                         lane_stride(fl, geo.gsize))  # fmt: skip
                return
            row(y, z, "fast")
            with fl.builder.if_then(row_failed(fl, rows), likely=False):
                row(y, z, "replay")

        def dim2(z: ll.Value, _: ll.Block) -> None:
            counted_loop(fl, geo.base[1], geo.end[1], "wi1", lambda y, lt: dim1(y, lt, z))

        self._outer_loop(dim2)

    def _outer_loop(self, dim2: Callable[[ll.Value, ll.Block], None]) -> None:
        """The dimension-2 loop of a nest (``dim2`` emits its body); in fission mode with
        per-item guards, two versions: without the guard while every item of the group runs
        (the usual case: a grid that fits its data), so loads stay plain vector loads."""
        gs = self.state
        fl, geo = gs.fl, gs.geo
        if not (gs.fission and (gs.preds or gs.done is not None)):
            counted_loop(fl, geo.base[2], geo.end[2], "wi2", dim2)
            return
        with fl.builder.if_else(all_run(gs)) as (every, some):
            with every:
                gs.unguarded = True
                counted_loop(fl, geo.base[2], geo.end[2], "wi2", dim2)
                gs.unguarded = False
            with some:
                counted_loop(fl, geo.base[2], geo.end[2], "wi2", dim2)

    def _item_guard(self, latch: ll.Block) -> ll.Block:
        """In fission mode: skip work-items that returned or whose predicates are false; the
        block a ``return`` goes to (marks the item done)."""
        gs = self.state
        if not gs.fission:
            return latch
        b = gs.fl.builder
        run: ll.Value = ll.Constant(ll.IntType(1), 1)
        for arr, want in [] if gs.unguarded else gs.preds:
            v = b.icmp_unsigned("!=", b.load(gep(b, I8, arr, gs.flat), typ=I8), _i8(0))
            run = b.and_(run, v if want else b.not_(v))
        if gs.done is None:
            ret = latch
        else:
            if not gs.unguarded:
                done = b.load(gep(b, I8, gs.done, gs.flat), typ=I8)
                run = b.and_(run, b.icmp_unsigned("==", done, _i8(0)))
            ret = gs.fl.new_block("wi.return")
            rb = ll.IRBuilder(ret)
            rb.store(_i8(1), gep(rb, I8, gs.done, gs.flat))
            assert gs.any_done is not None
            rb.store(_i8(1), gs.any_done)
            rb.branch(latch)
        if not gs.unguarded and (gs.preds or gs.done is not None):
            body = gs.fl.new_block("wi.run")
            b.cbranch(run, body, latch)
            b.position_at_end(body)
        return ret

    def _predicated_if(self, s: n.If) -> None:
        """A per-work-item ``if`` around group-level loops: its condition becomes a
        predicate array; each branch runs at group level under it."""
        gs = self.state
        arr = gs.pred_arrays[id(s)]
        fl = gs.fl

        if id(arr) not in gs.pred_seen:
            gs.pred_seen[id(arr)] = (fl.alloca(I8, name="pred.some_false"),
                                     fl.alloca(I8, name="pred.some_true"))  # fmt: skip
        some_false, some_true = gs.pred_seen[id(arr)]
        fl.builder.store(_i8(0), some_false)
        fl.builder.store(_i8(0), some_true)

        def store_cond() -> None:
            b = fl.builder
            c = b.zext(fl.expr(s.cond), I8)
            b.store(c, gep(b, I8, arr, gs.flat))
            b.store(b.or_(b.load(some_true, typ=I8), c), some_true)
            b.store(b.or_(b.load(some_false, typ=I8), b.xor(c, _i8(1))), some_false)

        self.work_item_nest([], emit=store_cond, analysed=[n.If(s.cond, (), ())])
        for branch, want in ((s.body, True), (s.orelse, False)):
            gs.preds.append((arr, want))
            self.group_stmts(branch)
            gs.preds.pop()

    def group_stmts(self, stmts: Sequence[n.Stmt]) -> None:
        """Lower statements at work-group level, splitting at barriers and running
        interchangeable loops (``codegen.cpu_interchange``) at group level."""
        gs = self.state
        run: list[n.Stmt] = []
        for s in stmts:
            jumps = bool(gs.group_loops) and escaping_jumps([s])
            masked = gs.ic.masked(s, stmts)
            if isinstance(s, n.Assign) and s.target in gs.group_uniform:
                self.work_item_nest(run)
                run = []
                self.uniform()
                gs.fl.lower_body([s])
                continue
            if isinstance(s, (n.While, n.ForRange)) and masked is not None and id(s) in gs.active:
                self.work_item_nest(run)
                run = []
                masked_while(self, s, masked, gs.active[id(s)])
                continue
            interchange = gs.ic.loop(s) or gs.ic.predicated_if(s)
            if not has_barrier([s]) and not jumps and not interchange:
                run.append(s)
                continue
            self.work_item_nest(run)
            run = []
            if isinstance(s, n.Barrier):
                continue
            if isinstance(s, n.If) and gs.ic.predicated_if(s):
                self._predicated_if(s)
            elif isinstance(s, (n.Break, n.Continue)):
                cont, brk = gs.group_loops[-1]
                gs.fl.builder.branch(brk if isinstance(s, n.Break) else cont)
                gs.fl.builder.position_at_end(gs.fl.new_block("dead"))
            elif isinstance(s, n.If):
                self._uniform_if(s)
            elif isinstance(s, n.ForRange):
                self._uniform_for(s)
            elif isinstance(s, n.While):
                self._uniform_while(s)
            else:
                raise _unsupported(gs.fl, s)
        self.work_item_nest(run)

    def _uniform_if(self, s: n.If) -> None:
        gs = self.state
        fl = gs.fl
        b = fl.builder
        self.uniform()
        cond = fl.expr(s.cond)
        then_bb, else_bb, end = (fl.new_block(f"gif.{k}") for k in ("then", "else", "end"))
        b.cbranch(cond, then_bb, else_bb)
        b.position_at_end(then_bb)
        self.group_stmts(s.body)
        fl.branch_if_open(end)
        b.position_at_end(else_bb)
        self.group_stmts(s.orelse)
        fl.branch_if_open(end)
        b.position_at_end(end)

    def _uniform_for(self, s: n.ForRange) -> None:
        gs = self.state
        fl = gs.fl
        b = fl.builder
        st = fl.fn.locals[s.var]
        self.uniform()
        vals = [fl.expr(e) for e in (s.start, s.stop, s.step)]
        wide = [v if st.bits == 64 else (b.sext(v, I64) if st.is_signed else b.zext(v, I64))
                for v in vals]  # fmt: skip
        count = trip_count(b, *wide)
        # The variable lives at group level while the loop runs (its body's regions read it
        # from there); afterwards in each item's own slot again.
        slot = gs.uniform_slots[s.var] = loop_slot(gs, s.var, llvm_type(st))
        start, _, step = vals
        end = fl.new_block("gfor.end")

        def body(k: ll.Value, latch: ll.Block) -> None:
            kv = k if st.bits == 64 else b.trunc(k, llvm_type(st))
            b.store(b.add(start, b.mul(kv, step)), slot)
            gs.group_loops.append((latch, end))
            self.group_stmts(s.body)
            gs.group_loops.pop()

        counted_loop(fl, ll.Constant(I64, 0), count, "gfor", body, end)
        del gs.uniform_slots[s.var]
        inside = sum(1 for e in walk_exprs([s]) if isinstance(e, n.Var) and e.name == s.var)
        if gs.ic.reads.get(s.var, 0) > inside:
            # Read elsewhere: every item sees the last value, or its own after no iteration.
            def store() -> None:
                b.store(b.load(slot, typ=llvm_type(st)), fl.slots[s.var])

            with b.if_then(b.icmp_signed(">", count, ll.Constant(I64, 0))):
                self.work_item_nest([], emit=store, analysed=[])

    def _uniform_while(self, s: n.While) -> None:
        gs = self.state
        fl = gs.fl
        b = fl.builder
        head, body, end = (fl.new_block(f"gwhile.{k}") for k in ("head", "body", "end"))
        b.branch(head)
        b.position_at_end(head)
        self.uniform()
        b.cbranch(fl.expr(s.cond), body, end)
        b.position_at_end(body)
        gs.group_loops.append((head, end))
        self.group_stmts(s.body)
        gs.group_loops.pop()
        fl.branch_if_open(head)
        b.position_at_end(end)


def _i8(v: int) -> ll.Constant:
    return ll.Constant(I8, v)


def _unsupported(fl: FunctionLowerer, s: n.Stmt) -> CompileError:
    loc = None
    if s.loc is not None:
        loc = SourceLocation(fl.fn.filename, s.loc.line, s.loc.col)
    return CompileError(
        f"barrier() inside a {type(s).__name__} statement is not supported on the CPU "
        "(barriers may appear at kernel level or inside if/for/while)",
        loc,
    )


def emit_group_loop(ml: ModuleLowerer, fn: ll.Function, bind: BindParams) -> None:
    """Fill ``fn`` (``K.groups``): run groups ``[lo, hi)``; errors go to the scratch record."""
    module = ml.ir
    kernel = module.kernel
    allocas, entry = alloca_block(fn)
    b = ll.IRBuilder(entry)
    header: list[ll.Value] = list(fn.args[:9])
    lo, hi, err = fn.args[-3], fn.args[-2], fn.args[-1]
    arrays, scalars = bind(fn, b, module)
    fl = FunctionLowerer(ml, kernel, b, arrays, err_state=err)
    fl.declare_locals(allocas, scalars)
    geo = GroupGeometry(header[0:3], header[3:6], header[6:9])
    fission = uses_fission(module)
    scratch = Scratch(fl)
    gs = GroupState(fl, geo, fission, Interchange(fl.fn, interchanges(fl.ml.ir)), scratch)
    em = _GroupEmitter(gs)
    if module.boundscheck and module.checks:
        gs.rows = make_row_record(fl, module, geo.lsize[0])
        fl.target_state = gs.rows
    parts = batch_parts(kernel, gs.ic) if fission else None
    if fission:
        fission_state(gs, b, parts)
    else:
        shared_arrays(gs, b)
    exit_block = fl.new_block("return")
    scratch.check(b, err, exit_block)  # the heap refused an array: nothing runs
    if parts is not None:
        emit_batches(em, lo, hi, parts)
    else:
        _groups(em, lo, hi)
    fl.branch_if_open(exit_block)
    b.position_at_end(exit_block)
    scratch.free_all(b)
    b.ret_void()


def _groups(em: _GroupEmitter, lo: ll.Value, hi: ll.Value) -> None:
    """Run groups ``[lo, hi)`` one after the other (kernels not run in batches)."""
    gs = em.state
    fl, geo, kernel = gs.fl, gs.geo, gs.fl.fn
    b, ml, fission = fl.builder, fl.ml, gs.fission
    count = b.mul(b.mul(geo.lsize[0], geo.lsize[1]), geo.lsize[2])

    def group(g: ll.Value, _: ll.Block) -> None:
        group_geometry(b, geo, g)
        if gs.done is not None:
            assert gs.any_done is not None
            b.store(_i8(0), gs.any_done)
            memset = ml.declare("llvm.memset.p0.i64", ll.VoidType(), [PTR, I8, I64, I1])
            b.call(memset, [gs.done, _i8(0), count, ll.Constant(I1, 0)])
        if fission:
            em.group_stmts(kernel.body)
        else:
            em.work_item_nest(kernel.body)

    counted_loop(fl, lo, hi, "group", group)


__all__ = ["emit_group_loop"]
