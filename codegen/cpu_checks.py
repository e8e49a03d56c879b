"""Bounds-check recording on the CPU, shaped so the work-item loop stays vectorisable.

An error record needs the failing check's id and indices, exactly; a store of them inside the
dimension-0 work-item loop would stop LLVM's vectoriser. Two strategies, per kernel:

``replay`` (when ``replay_safe``): the row loop only folds "some check failed" into an integer
OR reduction (vectorises like any reduction). Only if it is set after the row, the row runs
again with memory effects off (stores and atomics skipped, loads still guarded) and records the
first failure exactly. Replaying is exact because, by the safety analysis (``gpuoff.ir.replay``),
no checked index and no condition depends on memory the kernel writes, on an atomic's result
or on a call.

``rows`` (otherwise): a failing check of work-item ``lx`` stores its id and indices at
``ids[lx]`` and ``idx[d * width + lx]`` unless ``ids[lx]`` holds a lower id, consecutive
addresses that vectorise as masked stores, plus the OR flag; after a row with a failure a
scalar scan moves each item's record into the scratch record.

Checks outside the row loop (group-uniform code) write the call's scratch record directly; so
do checks in device functions (the call then passes the work-item block: the record names the
work-item), except when called from a ``fast`` row, where they fold into the row's flag (the
call passes ``check_mode`` 1). Every write keeps the earliest failure of
``gpuoff.ir.bounds.failure_order`` (lowest work-item, then lowest check id, then first): the
scratch record holds the work-item's linear id at ``codegen.abi.ITEM_SLOT``.
"""

from __future__ import annotations

from llvmlite import ir as ll

from codegen.abi import ITEM_SLOT, SHAPE_SLOT
from codegen.cpu_interchange import uses_fission
from codegen.cpu_state import RowRecord, counted_loop
from codegen.llvm import I1, I8, I32, I64, PTR, FunctionLowerer, gep, opaque_alloca
from gpuoff.ir import nodes as n
from gpuoff.ir.replay import kernel_replay_safe, region_replay_safe


def make_row_record(fl: FunctionLowerer, module: n.Module, width: ll.Value) -> RowRecord:
    """Allocate the row state (call once, in the group function's entry)."""
    b = fl.builder
    flag = fl.alloca(I32, name="row.bad")
    if replay_safe(module):
        return RowRecord("replay", flag, width)
    ndim = max(c.ndim for c in module.checks)
    ids = opaque_alloca(b, I64, width, "row.ids")
    # per item: the indices, then the shape (2 * ndim rows of ``width``)
    idx = opaque_alloca(b, I64, b.mul(width, ll.Constant(I64, 2 * max(ndim, 1))), "row.idx")
    memset = fl.ml.declare("llvm.memset.p0.i64", ll.VoidType(), [PTR, I8, I64, I1])
    b.call(memset, [ids, ll.Constant(I8, 0), b.mul(width, ll.Constant(I64, 8)),
                    ll.Constant(I1, 0)])  # fmt: skip
    return RowRecord("rows", flag, width, ids, idx, ndim)


def cpu_bounds_check(
    fl: FunctionLowerer, ok: ll.Value, check_id: int, indices: list[ll.Value],
    shape: list[ll.Value],
) -> None:
    """The CPU target's ``bounds_check`` hook (``shape``: the array's extents, recorded with
    the indices)."""
    b = fl.builder
    if not fl.fn.is_kernel:
        _device_function_check(fl, ok, check_id, indices, shape)
        return
    rr = fl.target_state
    mode = rr.mode if isinstance(rr, RowRecord) else "off"
    if mode in ("off", "replay"):
        record_direct(fl, ok, check_id, indices, shape)
        return
    assert isinstance(rr, RowRecord)
    bad = b.not_(ok)
    # An unconditional integer OR: the form LLVM's vectoriser knows as a reduction.
    b.store(b.or_(b.load(rr.any_bad, typ=I32), b.zext(bad, I32)), rr.any_bad)
    if mode == "fast":
        return
    assert rr.ids is not None and rr.idx is not None
    with b.if_then(bad, likely=False):
        # the work-item's lowest failing check id, its first failure (failure_order)
        lx = fl.wi_values[("local_id", 0)]
        slot = gep(b, I64, rr.ids, lx)
        cur = b.load(slot, typ=I64)
        cid = ll.Constant(I64, check_id)
        earlier = b.or_(b.icmp_unsigned("==", cur, ll.Constant(I64, 0)),
                        b.icmp_unsigned(">", cur, cid))  # fmt: skip
        with b.if_then(earlier):
            b.store(cid, slot)
            rows = [*enumerate(indices), *((rr.ndim + d, v) for d, v in enumerate(shape))]
            for d, v in rows:  # rows 0..ndim: the indices; ndim..2 ndim: the shape
                at = b.add(b.mul(rr.width, ll.Constant(I64, d)), lx)
                b.store(v, gep(b, I64, rr.idx, at))


def call_check_state(fl: FunctionLowerer) -> tuple[ll.Value, ll.Value]:
    """What a device-function call passes: in a ``fast`` row, the OR flag with mode 1."""
    rr = fl.target_state
    if fl.fn.is_kernel and isinstance(rr, RowRecord) and rr.mode == "fast":
        return rr.any_bad, ll.Constant(I32, 1)
    return fl.err_state, fl.check_mode


def _device_function_check(
    fl: FunctionLowerer, ok: ll.Value, check_id: int, indices: list[ll.Value],
    shape: list[ll.Value],
) -> None:
    """In a device function: mode 1 ORs into the caller's row flag (``err_state`` is then an
    i32); mode 0 records exactly. Calls pass a constant, so inlining keeps one of the two."""
    b = fl.builder
    flagged = b.icmp_unsigned("!=", fl.check_mode, ll.Constant(I32, 0))
    with b.if_else(flagged) as (then, otherwise):
        with then:
            bad = b.zext(b.not_(ok), I32)
            b.store(b.or_(b.load(fl.err_state, typ=I32), bad), fl.err_state)
        with otherwise:
            record_direct(fl, ok, check_id, indices, shape)


def _user_dim(fl: FunctionLowerer, d: int) -> int:
    """The generated code's dimension that is the kernel's own dimension ``d`` (``codegen.cpu``
    exchanges the fast dimension with dimension 0)."""
    fast: int = getattr(fl.ml.target, "fast", 0)
    return fast if d == 0 else 0 if d == fast else d


def linear_item(fl: FunctionLowerer, ids: list[ll.Value], sizes: list[ll.Value]) -> ll.Value:
    """The linear id (``gpuoff.ir.bounds.item_id``, in the kernel's own dimension order) of
    the work-item at the generated code's ``ids`` in a grid of its ``sizes``."""
    b = fl.builder
    g = [ids[_user_dim(fl, d)] for d in range(3)]
    s = [sizes[_user_dim(fl, d)] for d in range(3)]
    return b.add(g[0], b.mul(s[0], b.add(g[1], b.mul(s[1], g[2]))))


def lane_stride(fl: FunctionLowerer, sizes: list[ll.Value]) -> ll.Value:
    """How far apart the linear ids of work-items next to each other along the generated
    code's dimension 0 are (1 unless the kernel's fast dimension was exchanged with it)."""
    b = fl.builder
    stride: ll.Value = ll.Constant(I64, 1)
    for d in range(_user_dim(fl, 0)):
        stride = b.mul(stride, sizes[_user_dim(fl, d)])
    return stride


def item_of(fl: FunctionLowerer) -> ll.Value:
    """The current work-item's linear id (``gpuoff.ir.bounds.item_id``, in the kernel's own
    dimension order)."""
    b = fl.builder
    dims = [_user_dim(fl, d) for d in range(3)]
    g = [fl.work_item("global_id", dims[d]) for d in range(3)]
    s = [fl.work_item("global_size", dims[d]) for d in range(2)]
    return b.add(g[0], b.mul(s[0], b.add(g[1], b.mul(s[1], g[2]))))


def earlier_than_record(
    fl: FunctionLowerer, rec: ll.Value, item: ll.Value, check: ll.Value
) -> ll.Value:
    """i1: failure ``(item, check)`` comes before the one ``rec`` holds (or ``rec`` is empty)
    in ``gpuoff.ir.bounds.failure_order``."""
    b = fl.builder
    cur = b.load(rec, typ=I64)
    cur_item = b.load(gep(b, I64, rec, ll.Constant(I64, ITEM_SLOT)), typ=I64)
    empty = b.icmp_unsigned("==", cur, ll.Constant(I64, 0))
    lower_item = b.icmp_unsigned("<", item, cur_item)
    same_item = b.icmp_unsigned("==", item, cur_item)
    return b.or_(empty, b.or_(lower_item, b.and_(same_item, b.icmp_unsigned("<", check, cur))))


def write_record(
    fl: FunctionLowerer, rec: ll.Value, item: ll.Value, check: ll.Value, indices: list[ll.Value],
    shape: list[ll.Value],
) -> None:
    b = fl.builder
    b.store(check, rec)
    for d, idx in enumerate(indices):
        b.store(idx, gep(b, I64, rec, ll.Constant(I64, 1 + d)))
    for d, n_d in enumerate(shape):
        b.store(n_d, gep(b, I64, rec, ll.Constant(I64, SHAPE_SLOT + d)))
    b.store(item, gep(b, I64, rec, ll.Constant(I64, ITEM_SLOT)))


def record_direct(
    fl: FunctionLowerer, ok: ll.Value, check_id: int, indices: list[ll.Value],
    shape: list[ll.Value],
) -> None:
    """Write the record into ``fl.err_state`` unless it holds an earlier failure
    (``gpuoff.ir.bounds.failure_order``: lower work-item, then lower check id)."""
    b = fl.builder
    with b.if_then(b.not_(ok), likely=False):
        item = item_of(fl)
        cid = ll.Constant(I64, check_id)
        with b.if_then(earlier_than_record(fl, fl.err_state, item, cid)):
            write_record(fl, fl.err_state, item, cid, indices, shape)


def row_failed(fl: FunctionLowerer, rr: RowRecord) -> ll.Value:
    """i1: some check failed in the row just run."""
    b = fl.builder
    return b.icmp_unsigned("!=", b.load(rr.any_bad, typ=I32), ll.Constant(I32, 0))


def scan_row(fl: FunctionLowerer, rr: RowRecord, count: ll.Value, first: ll.Value,
             stride: ll.Value) -> None:  # fmt: skip
    """``rows`` strategy, after a failed row: each work-item's record -> scratch unless the
    scratch holds an earlier failure; clear. ``first``: the row's first work-item's linear id,
    ``stride``: the distance between its items' (``lane_stride``)."""
    b = fl.builder
    scratch = fl.err_state
    assert rr.ids is not None and rr.idx is not None
    ids, idx = rr.ids, rr.idx

    def body(lx: ll.Value, _: ll.Block) -> None:
        slot = gep(b, I64, ids, lx)
        cid = b.load(slot, typ=I64)
        unit = isinstance(stride, ll.Constant) and stride.constant == 1
        item = b.add(first, lx if unit else b.mul(lx, stride))
        with b.if_then(b.icmp_unsigned("!=", cid, ll.Constant(I64, 0))):
            with b.if_then(earlier_than_record(fl, scratch, item, cid)):
                vals = []
                for d in range(2 * rr.ndim):
                    at = b.add(b.mul(rr.width, ll.Constant(I64, d)), lx)
                    vals.append(b.load(gep(b, I64, idx, at), typ=I64))
                write_record(fl, scratch, item, cid, vals[: rr.ndim], vals[rr.ndim :])
        b.store(ll.Constant(I64, 0), slot)

    with b.if_then(row_failed(fl, rr), likely=False):
        counted_loop(fl, ll.Constant(I64, 0), count, "scan", body)


def replay_safe(module: n.Module) -> bool:
    """Whether re-running a row without memory effects finds exactly the same failures
    (``gpuoff.ir.replay``; a kernel run as regions decides per region)."""
    if uses_fission(module):
        return False  # regions: see region_replay_safe
    return kernel_replay_safe(module)


__all__ = [
    "I1", "RowRecord", "call_check_state", "cpu_bounds_check", "make_row_record",
    "region_replay_safe", "replay_safe",
]
