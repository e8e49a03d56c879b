"""Bounds-check recording on the CPU, shaped so the work-item loop stays vectorisable.

An error record needs the failing check's id and indices, exactly; a store of them inside the
dimension-0 work-item loop would stop LLVM's vectoriser. Two strategies, per kernel:

``replay`` (when ``replay_safe``): the row loop only folds "some check failed" into an integer
OR reduction (vectorises like any reduction). Only if it is set after the row, the row runs
again with memory effects off (stores and atomics skipped, loads still guarded) and records the
first failure exactly. Replaying is exact because, by the safety analysis, no checked index and
no condition depends on memory the kernel writes, on an atomic's result or on a call.

``rows`` (otherwise): a failing check of work-item ``lx`` stores its id and indices at
``ids[lx]`` and ``idx[d * width + lx]``, consecutive addresses that vectorise as masked stores,
plus the OR flag; after a row with a failure a scalar scan copies the first record.

Checks outside the row loop (group-uniform code) write the call's scratch record directly,
first failure wins; so do checks in device functions, except when called from a ``fast`` row,
where they fold into the row's flag (the call passes ``check_mode`` 1).
"""

from __future__ import annotations

from llvmlite import ir as ll

from codegen.cpu_interchange import uses_fission
from codegen.cpu_state import RowRecord, counted_loop
from codegen.llvm import I1, I8, I32, I64, PTR, FunctionLowerer, gep, opaque_alloca
from codegen.llvm_walk import child_exprs, stmt_exprs, walk_exprs, walk_stmts
from gpuoff.ir import nodes as n


def make_row_record(fl: FunctionLowerer, module: n.Module, width: ll.Value) -> RowRecord:
    """Allocate the row state (call once, in the group function's entry)."""
    b = fl.builder
    flag = fl.alloca(I32, name="row.bad")
    if replay_safe(module):
        return RowRecord("replay", flag, width)
    ndim = max(c.ndim for c in module.checks)
    ids = opaque_alloca(b, I64, width, "row.ids")
    idx = opaque_alloca(b, I64, b.mul(width, ll.Constant(I64, max(ndim, 1))), "row.idx")
    memset = fl.ml.declare("llvm.memset.p0.i64", ll.VoidType(), [PTR, I8, I64, I1])
    b.call(memset, [ids, ll.Constant(I8, 0), b.mul(width, ll.Constant(I64, 8)),
                    ll.Constant(I1, 0)])  # fmt: skip
    return RowRecord("rows", flag, width, ids, idx, ndim)


def cpu_bounds_check(
    fl: FunctionLowerer, ok: ll.Value, check_id: int, indices: list[ll.Value]
) -> None:
    """The CPU target's ``bounds_check`` hook."""
    b = fl.builder
    if not fl.fn.is_kernel:
        _device_function_check(fl, ok, check_id, indices)
        return
    rr = fl.target_state
    mode = rr.mode if isinstance(rr, RowRecord) else "off"
    if mode in ("off", "replay"):
        record_direct(fl, ok, check_id, indices)
        return
    assert isinstance(rr, RowRecord)
    bad = b.not_(ok)
    # An unconditional integer OR: the form LLVM's vectoriser knows as a reduction.
    b.store(b.or_(b.load(rr.any_bad, typ=I32), b.zext(bad, I32)), rr.any_bad)
    if mode == "fast":
        return
    assert rr.ids is not None and rr.idx is not None
    with b.if_then(bad, likely=False):
        lx = fl.wi_values[("local_id", 0)]
        b.store(ll.Constant(I64, check_id), gep(b, I64, rr.ids, lx))
        for d, v in enumerate(indices):
            at = b.add(b.mul(rr.width, ll.Constant(I64, d)), lx)
            b.store(v, gep(b, I64, rr.idx, at))


def call_check_state(fl: FunctionLowerer) -> tuple[ll.Value, ll.Value]:
    """What a device-function call passes: in a ``fast`` row, the OR flag with mode 1."""
    rr = fl.target_state
    if fl.fn.is_kernel and isinstance(rr, RowRecord) and rr.mode == "fast":
        return rr.any_bad, ll.Constant(I32, 1)
    return fl.err_state, fl.check_mode


def _device_function_check(
    fl: FunctionLowerer, ok: ll.Value, check_id: int, indices: list[ll.Value]
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
            record_direct(fl, ok, check_id, indices)


def record_direct(
    fl: FunctionLowerer, ok: ll.Value, check_id: int, indices: list[ll.Value]
) -> None:
    """Write the record into ``fl.err_state`` if it is still empty (first failure wins)."""
    b = fl.builder
    with b.if_then(b.not_(ok), likely=False):
        empty = b.icmp_unsigned("==", b.load(fl.err_state, typ=I64), ll.Constant(I64, 0))
        with b.if_then(empty):
            b.store(ll.Constant(I64, check_id), fl.err_state)
            for d, idx in enumerate(indices):
                b.store(idx, gep(b, I64, fl.err_state, ll.Constant(I64, 1 + d)))


def row_failed(fl: FunctionLowerer, rr: RowRecord) -> ll.Value:
    """i1: some check failed in the row just run."""
    b = fl.builder
    return b.icmp_unsigned("!=", b.load(rr.any_bad, typ=I32), ll.Constant(I32, 0))


def scan_row(fl: FunctionLowerer, rr: RowRecord, count: ll.Value) -> None:
    """``rows`` strategy, after a failed row: first record -> scratch (if empty); clear."""
    b = fl.builder
    scratch = fl.err_state
    assert rr.ids is not None and rr.idx is not None
    ids, idx = rr.ids, rr.idx

    def body(lx: ll.Value, _: ll.Block) -> None:
        slot = gep(b, I64, ids, lx)
        cid = b.load(slot, typ=I64)
        empty = b.icmp_unsigned("==", b.load(scratch, typ=I64), ll.Constant(I64, 0))
        with b.if_then(b.and_(b.icmp_unsigned("!=", cid, ll.Constant(I64, 0)), empty)):
            b.store(cid, scratch)
            for d in range(rr.ndim):
                at = b.add(b.mul(rr.width, ll.Constant(I64, d)), lx)
                v = b.load(gep(b, I64, idx, at), typ=I64)
                b.store(v, gep(b, I64, scratch, ll.Constant(I64, 1 + d)))
        b.store(ll.Constant(I64, 0), slot)

    with b.if_then(row_failed(fl, rr), likely=False):
        counted_loop(fl, ll.Constant(I64, 0), count, "scan", body)


# --------------------------------------------------------------------------------------------
# When is a replay exact?
# --------------------------------------------------------------------------------------------


def _impure_functions(module: n.Module) -> set[str]:
    """Device functions that store or do atomics, directly or through calls."""
    direct: dict[str, tuple[bool, set[str]]] = {}
    for fn in module.functions:
        effects = any(isinstance(s, n.Store) for s in walk_stmts(fn.body)) or any(
            isinstance(e, n.AtomicRMW) for e in walk_exprs(fn.body)
        )
        callees = {e.callee for e in walk_exprs(fn.body) if isinstance(e, n.Call)}
        direct[fn.name] = (effects, callees)
    impure: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, (effects, callees) in direct.items():
            if name not in impure and (effects or callees & impure):
                impure.add(name)
                changed = True
    return impure


def _written_arrays(kernel: n.Function) -> set[str]:
    names = {sa.name for sa in kernel.shared}
    for s in walk_stmts(kernel.body):
        if isinstance(s, n.Store):
            names.add(s.array.name)
    names |= {e.array.name for e in walk_exprs(kernel.body) if isinstance(e, n.AtomicRMW)}
    return names


def _tainted(e: n.Expr, written: set[str], locals_: set[str]) -> bool:
    """Whether ``e`` may depend on written memory, an atomic's result or a call."""
    todo = [e]
    while todo:
        x = todo.pop()
        if isinstance(x, (n.AtomicRMW, n.Call)):
            return True
        if isinstance(x, n.Load) and x.array.name in written:
            return True
        if isinstance(x, n.Var) and x.name in locals_:
            return True
        todo.extend(child_exprs(x))
    return False


def _sinks(stmts: tuple[n.Stmt, ...]) -> list[n.Expr]:
    """Expressions that decide which checked accesses run and with which indices."""
    out: list[n.Expr] = []
    for s in walk_stmts(stmts):
        if isinstance(s, (n.If, n.While, n.ForRange)):
            out.extend(stmt_exprs(s))
        if isinstance(s, n.Store) and s.check is not None:
            out.extend(s.indices)
    for e in walk_exprs(stmts):
        if isinstance(e, (n.Load, n.AtomicRMW)) and e.check is not None:
            out.extend(e.indices)
        elif isinstance(e, n.Select):
            out.append(e.cond)
        elif isinstance(e, n.Logical):
            out.append(e.lhs)
    return out


def _sinks_untainted(module: n.Module, stmts: tuple[n.Stmt, ...], tainted: set[str]) -> bool:
    """No impure call in ``stmts``, and no sink there depends on written memory, an atomic,
    a call or a local in ``tainted`` (closed over the assignments in ``stmts``)."""
    impure = _impure_functions(module)
    if any(isinstance(e, n.Call) and e.callee in impure for e in walk_exprs(stmts)):
        return False
    written = _written_arrays(module.kernel)
    tainted = set(tainted)
    changed = True
    while changed:
        changed = False
        for s in walk_stmts(stmts):
            target: str | None = None
            exprs: tuple[n.Expr, ...] = ()
            if isinstance(s, n.Assign):
                target, exprs = s.target, (s.value,)
            elif isinstance(s, n.ForRange):
                target, exprs = s.var, (s.start, s.stop, s.step)
            if target is None or target in tainted:
                continue
            if any(_tainted(x, written, tainted) for x in exprs):
                tainted.add(target)
                changed = True
    return not any(_tainted(x, written, tainted) for x in _sinks(stmts))


def replay_safe(module: n.Module) -> bool:
    """Whether re-running a row without memory effects finds exactly the same failures."""
    if uses_fission(module):
        return False  # regions: see region_replay_safe
    return _sinks_untainted(module, module.kernel.body, set())


def _reads(stmts: tuple[n.Stmt, ...]) -> set[str]:
    return {e.name for e in walk_exprs(stmts) if isinstance(e, n.Var)}


def _live_in(stmts: tuple[n.Stmt, ...], defined: set[str]) -> set[str]:
    """Locals ``stmts`` may read before assigning them (conservative)."""
    live: set[str] = set()
    for s in stmts:
        if isinstance(s, n.Assign):
            live |= _reads((s,)) - defined
            defined.add(s.target)
        elif isinstance(s, n.If):
            live |= _reads((n.ExprStmt(s.cond),)) - defined
            live |= _live_in(s.body, set(defined)) | _live_in(s.orelse, set(defined))
        elif isinstance(s, n.ForRange):
            live |= _reads((n.ExprStmt(s.start), n.ExprStmt(s.stop), n.ExprStmt(s.step)))
            live -= defined
            live |= _live_in(s.body, defined | {s.var})
        elif isinstance(s, n.While):
            live |= (_reads((n.ExprStmt(s.cond),)) - defined) | _live_in(s.body, set(defined))
        else:
            live |= _reads((s,)) - defined
    return live


def region_replay_safe(module: n.Module, stmts: tuple[n.Stmt, ...]) -> bool:
    """Replay exactness for one region of a fission kernel: besides ``replay_safe``'s rules,
    locals the region reads before assigning and also assigns (their values differ between
    the first run and the replay) must not reach a sink; no ``return`` (it would hide items
    from the replay)."""
    if any(isinstance(s, n.Return) for s in walk_stmts(stmts)):
        return False
    assigned = {s.target for s in walk_stmts(stmts) if isinstance(s, n.Assign)}
    assigned |= {s.var for s in walk_stmts(stmts) if isinstance(s, n.ForRange)}
    return _sinks_untainted(module, stmts, assigned & _live_in(stmts, set()))


__all__ = [
    "I1", "RowRecord", "call_check_state", "cpu_bounds_check", "make_row_record",
    "region_replay_safe", "replay_safe",
]
