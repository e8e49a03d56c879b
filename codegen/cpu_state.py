"""What the CPU group lowering's modules share: geometry, batches, row records, the state.

The group lowering (``codegen.cpu_groups``) and its helpers (``cpu_batch``, ``cpu_checks``,
``cpu_masked``, ``cpu_regions``) all read and write one ``GroupState``; each of its fields says
which module writes it. The helpers call back into the lowering only through
``GroupLowering`` (lower statements for every work-item, lower them at group level, switch to
the group's uniform context). Imports run one way::

    cpu_state  <-  cpu_checks, cpu_regions, cpu_masked  <-  cpu_batch  <-  cpu_groups  <-  cpu

The mutual recursion of the lowering stays (a masked loop's body is lowered by the group
lowerer), but it goes through ``GroupLowering`` and shows in the signatures.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from llvmlite import ir as ll

from codegen.abi import OUT_OF_MEMORY, SHARED_ON_STACK
from codegen.cpu_interchange import Interchange
from codegen.llvm import (
    I1,
    I8,
    I64,
    PTR,
    ArrayValue,
    FunctionLowerer,
    gep,
    llvm_type,
    memory_type,
    opaque_alloca,
    static_array_value,
)
from gpuoff.ir import nodes as n
from gpuoff.ir import types as t

MAX_BATCH = 64
"""Most groups in one batch (per-group scalars live in arrays of this length)."""


@dataclass
class GroupGeometry:
    """Per-group values: header sizes, this group's ids and its work-item ranges."""

    gsize: list[ll.Value]
    lsize: list[ll.Value]
    ngroups: list[ll.Value]
    gid: list[ll.Value] = field(default_factory=list)
    base: list[ll.Value] = field(default_factory=list)
    end: list[ll.Value] = field(default_factory=list)


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


@dataclass
class RowRecord:
    """Per-row error state of the kernel's work-item loops (``codegen.cpu_checks``).

    ``mode``: ``"off"`` (not inside a row loop), ``"rows"``, ``"fast"`` (replay strategy,
    first pass) or ``"replay"`` (second pass)."""

    strategy: str
    any_bad: ll.Value
    width: ll.Value
    ids: ll.Value | None = None
    idx: ll.Value | None = None
    ndim: int = 0
    mode: str = "off"


@dataclass
class GroupState:
    """The state of one kernel's group lowering, grouped by who writes each field ("+name":
    also written there; ``groups`` is ``cpu_groups``). Everything else only reads it."""

    # -- given when the lowering starts (emit_group_loop); never replaced ---------------------
    fl: FunctionLowerer  # the kernel's lowerer
    geo: GroupGeometry  # ids and ranges rewritten per group: group_geometry, enter_group
    fission: bool  # the kernel runs as regions (cpu_interchange.uses_fission)
    ic: Interchange  # the kernel's interchange decisions
    scratch: Scratch  # where the arrays below live (stack or heap); freed before returning
    # -- written by the fission setup (cpu_batch.fission_state), once, unless noted -----------
    wi_arrays: dict[str, ll.Value] = field(default_factory=dict)  # per-item locals; +enter_group
    uniform_slots: dict[str, ll.Value] = field(default_factory=dict)  # +enter_group, groups
    active: dict[int, ll.Value] = field(default_factory=dict)  # masked-while flags; +enter_group
    pred_arrays: dict[int, ll.Value] = field(default_factory=dict)  # i8 per item per pred. if
    done: ll.Value | None = None  # per-item i8 "returned" (kernels with a return)
    any_done: ll.Value | None = None  # i8 "some item returned"; set by returning items
    remat: dict[str, n.Expr] = field(default_factory=dict)  # locals recomputed in each region
    group_uniform: set[str] = field(default_factory=set)  # locals kept once per group
    batch: Batch | None = None  # groups run in batches (cpu_batch.new_batch)
    # private arrays kept per item, element e of item j at e * count + j: (base, count)
    item_private: dict[str, tuple[ll.Value, ll.Value]] = field(default_factory=dict)
    # -- written by cpu_groups while it lowers ------------------------------------------------
    rows: RowRecord | None = None  # row error state (cpu_checks.make_row_record), at the start
    group_loops: list[tuple[ll.Block, ll.Block]] = field(default_factory=list)  # (cont., break)
    preds: list[tuple[ll.Value, bool]] = field(default_factory=list)  # (pred. array, wanted)
    pred_seen: dict[int, tuple[ll.Value, ll.Value]] = field(default_factory=dict)  # i8 some F/T
    flat: ll.Value = ll.Constant(I64, 0)  # the current item's flat local index
    remat_slots: dict[str, ll.Value] = field(default_factory=dict)  # slots of the remat locals
    private: dict[str, ll.Value] = field(default_factory=dict)  # replay copies of item locals
    unguarded: bool = False  # emitting the version without per-item guards
    # -- written by the helper named ----------------------------------------------------------
    loop_slots: dict[str, ll.Value] = field(default_factory=dict)  # loop variables: loop_slot
    hoisted: dict[object, ll.Value] = field(default_factory=dict)  # once per call: cpu_masked


class GroupLowering(Protocol):
    """What the helpers call back into: the group lowerer (``cpu_groups._GroupEmitter``)."""

    @property
    def state(self) -> GroupState: ...

    def uniform(self) -> None:
        """Work-item (0, 0, 0) of the group: the context of group-uniform control flow."""

    def work_item_nest(
        self,
        stmts: Sequence[n.Stmt],
        emit: Callable[[], None] | None = None,
        analysed: Sequence[n.Stmt] | None = None,
    ) -> None:
        """Run ``stmts`` (or ``emit()``, whose checks ``analysed`` stands for) for every
        work-item of the group, as loops."""

    def group_stmts(self, stmts: Sequence[n.Stmt]) -> None:
        """Lower statements at work-group level (splitting at barriers)."""


def counted_loop(
    fl: FunctionLowerer,
    lo: ll.Value,
    hi: ll.Value,
    name: str,
    emit_body: Callable[[ll.Value, ll.Block], None],
    end: ll.Block | None = None,
) -> None:
    """``for i in [lo, hi)`` (i64, step 1); ``emit_body(i, latch)`` fills the body; ``end``
    (created if not given) is where the loop exits."""
    b = fl.builder
    pre = b.block
    head = fl.new_block(f"{name}.head")
    body = fl.new_block(f"{name}.body")
    latch = fl.new_block(f"{name}.latch")
    end = end or fl.new_block(f"{name}.end")
    b.branch(head)
    b.position_at_end(head)
    i = b.phi(I64, name=name)
    i.add_incoming(lo, pre)
    b.cbranch(b.icmp_signed("<", i, hi), body, end)
    b.position_at_end(body)
    emit_body(i, latch)
    fl.branch_if_open(latch)
    b.position_at_end(latch)
    i.add_incoming(b.add(i, ll.Constant(I64, 1), flags=["nsw"]), latch)
    b.branch(head)
    b.position_at_end(end)


def group_geometry(b: ll.IRBuilder, geo: GroupGeometry, g: ll.Value) -> None:
    """Flattened group id -> per-dimension ids and clamped work-item ranges."""
    g0 = b.urem(g, geo.ngroups[0])
    rest = b.udiv(g, geo.ngroups[0])
    g1 = b.urem(rest, geo.ngroups[1])
    g2 = b.udiv(rest, geo.ngroups[1])
    geo.gid = [g0, g1, g2]
    geo.base = [b.mul(geo.gid[d], geo.lsize[d], flags=["nsw"]) for d in range(3)]
    geo.end = []
    for d in range(3):
        hi = b.add(geo.base[d], geo.lsize[d], flags=["nsw"])
        geo.end.append(b.select(b.icmp_signed("<", hi, geo.gsize[d]), hi, geo.gsize[d]))


def shared_value(sa: n.SharedArray, ptr: ll.Value) -> ArrayValue:
    """Shared array ``sa`` stored at ``ptr`` (C order, static shape)."""
    return static_array_value(sa.type, ptr)


def item_private_value(b: ll.IRBuilder, at: t.ArrayType, base: ll.Value, count: ll.Value,
                       flat: ll.Value) -> ArrayValue:  # fmt: skip
    """Item ``flat``'s copy of a private array kept for ``count`` items, element ``e`` of item
    ``j`` at ``e * count + j``: the items of a work-item loop then read and write one element
    at consecutive addresses (vector loads and stores)."""
    whole = static_array_value(at, base)
    strides: list[ll.Value] = [b.mul(s, count, flags=["nsw"]) for s in whole.strides]
    return ArrayValue(at, gep(b, memory_type(at.dtype), base, flat), whole.shape, strides)


class Scratch:
    """Where the group function keeps its shared arrays: the stack of the thread running it
    while all of them together take at most ``abi.SHARED_ON_STACK`` bytes (what kernels
    written for GPUs use: the code LLVM optimises best, unchanged), else the heap, allocated
    once per call of the function (not per group), 64-byte aligned, and freed before it
    returns: the cpu device's shared-memory limit never depends on a thread's stack (an 8 MiB
    ``go.shared`` used to kill the process).
    Per-item state stays on the stack: the cpu device's work-group limit bounds it, and the
    runtime runs launches whose per-item state is large on its own threads, whose stacks are
    sized for it (``devices.cpu``)."""

    def __init__(self, fl: FunctionLowerer) -> None:
        self.fl = fl
        self.on_heap = shared_bytes(fl.fn) > SHARED_ON_STACK
        self.heap: list[ll.Value] = []  # the pointers to free before returning
        self.refused: ll.Value = ll.Constant(I1, 0)  # the heap said no to one of them

    def shared(self, b: ll.IRBuilder, sa: n.SharedArray, elems: ll.Value) -> ll.Value:
        """Memory for ``elems`` elements of shared array ``sa`` (every group of a batch; a
        kernel whose shared arrays go to the heap runs groups one at a time: its state is
        beyond ``cpu_batch.BATCH_BYTES``, so a batch holds one group)."""
        ty = memory_type(sa.type.dtype)
        if not self.on_heap:
            if isinstance(elems, ll.Constant):  # static: in the alloca block, as always
                ptr = self.fl.alloca(ll.ArrayType(ty, int(elems.constant)), name=sa.name)
            else:
                ptr = opaque_alloca(b, ty, elems, sa.name)
            ptr.align = 64
            return ptr
        nbytes = _static_elems(sa) * sa.type.dtype.itemsize
        alloc = self.fl.ml.declare("aligned_alloc", PTR, [I64, I64])  # C11: size % 64 == 0
        size = ll.Constant(I64, -(-nbytes // 64) * 64)
        heap: ll.Value = b.call(alloc, [ll.Constant(I64, 64), size], name=f"{sa.name}.heap")
        self.heap.append(heap)
        self.refused = b.or_(self.refused, b.icmp_unsigned("==", heap, ll.Constant(PTR, None)))
        return heap

    def check(self, b: ll.IRBuilder, err: ll.Value, exit_block: ll.Block) -> None:
        """After the allocations: if the heap refused one, write the ``OUT_OF_MEMORY`` record
        (``err[1]``: the bytes asked for) and go to ``exit_block``; nothing runs."""
        if not self.heap:
            return
        with b.if_then(self.refused, likely=False):
            b.store(ll.Constant(I64, OUT_OF_MEMORY), gep(b, I64, err, ll.Constant(I64, 0)))
            wanted = ll.Constant(I64, shared_bytes(self.fl.fn))
            b.store(wanted, gep(b, I64, err, ll.Constant(I64, 1)))
            b.branch(exit_block)

    def free_all(self, b: ll.IRBuilder) -> None:
        """Free the heap arrays (before every return; ``free(NULL)`` does nothing)."""
        free = self.fl.ml.declare("free", ll.VoidType(), [PTR])
        for ptr in self.heap:
            b.call(free, [ptr])


def _static_elems(sa: n.SharedArray) -> int:
    size = 1
    for s in sa.type.static_shape or ():
        size *= s
    return size


def shared_bytes(fn: n.Function) -> int:
    """Bytes of one copy of every shared array of ``fn``."""
    return sum(_static_elems(sa) * sa.type.dtype.itemsize for sa in fn.shared)


def thread_private(ptr: ll.Value) -> bool:
    """Whether ``ptr`` points into an array of the function that no other thread can see: an
    ``alloca``, or ``Scratch`` memory (an ``aligned_alloc`` of this call)."""
    while isinstance(ptr, ll.GEPInstr):
        ptr = getattr(ptr, "pointer")  # noqa: B009 - not in llvmlite's type stubs
    if isinstance(ptr, ll.AllocaInstr):
        return True
    if isinstance(ptr, ll.CallInstr):
        return getattr(ptr.callee, "name", "") == "aligned_alloc"
    return False


def item_array(b: ll.IRBuilder, ty: ll.Type, count: ll.Value, name: str) -> ll.Value:
    """A per-item array of ``count`` elements, cache-line aligned: vector loads and stores of
    consecutive items then never straddle two lines (a store that does costs twice)."""
    ptr = opaque_alloca(b, ty, count, name)
    ptr.align = 64
    return ptr


def type_bytes(ty: ll.Type) -> int:
    """Bytes of one scalar of LLVM type ``ty`` in memory."""
    if isinstance(ty, ll.IntType):
        return max(int(ty.width) // 8, 1)
    return 8 if isinstance(ty, ll.DoubleType) else 4 if isinstance(ty, ll.FloatType) else 2


def loop_slot(st: GroupState, name: str, ty: ll.Type) -> ll.Value:
    """The group-level slot of a group-level loop's variable (of the current group when
    batching)."""
    base = st.loop_slots.get(name)
    copies = MAX_BATCH if st.batch is not None else 1
    if base is None:
        base = st.loop_slots[name] = st.fl.alloca(ll.ArrayType(ty, copies), name=f"{name}.loop")
    j = st.batch.j if st.batch is not None else ll.Constant(I64, 0)
    return gep(st.fl.builder, ty, base, j)


def enter_group(st: GroupState, j: ll.Value) -> None:
    """Make group ``j`` of the batch current: its geometry and its copies of the state."""
    batch = st.batch
    assert batch is not None
    fl, geo = st.fl, st.geo
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
        st.wi_arrays[name] = gep(b, llvm_type(fl.fn.locals[name]), arr, items)
    for name, arr in batch.uniform.items():
        st.uniform_slots[name] = gep(b, llvm_type(fl.fn.locals[name]), arr, j)
    for key, arr in batch.active.items():
        st.active[key] = gep(b, I8, arr, items)
    for sa in fl.fn.shared:
        ptr, elems = batch.shared[sa.name]
        at = gep(b, memory_type(sa.type.dtype), ptr, b.mul(j, ll.Constant(I64, elems)))
        fl.arrays[sa.name] = shared_value(sa, at)


__all__ = [
    "MAX_BATCH", "Batch", "GroupGeometry", "GroupLowering",
    "GroupState", "RowRecord", "Scratch", "counted_loop", "enter_group", "group_geometry",
    "item_array", "item_private_value", "loop_slot", "shared_value", "thread_private",
    "type_bytes",
]  # fmt: skip
