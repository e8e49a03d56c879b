"""When re-running code without memory effects finds exactly the same failing checks.

The CPU target records a bounds error exactly (the failing check's id and indices) without
slowing down the vectorised work-item loop: the loop only folds "some check failed" into a
reduction, and only if it is set does it run the same items again with stores and atomics
skipped, to find the first failure (``codegen.cpu_checks``). That second run finds the same
failures only if no checked index and no condition on the way to a check (the *sinks*)
depends on something the first run may have changed: memory the kernel writes (its stores,
atomics, shared arrays), an atomic's result, or a call to a function with such effects.
Private arrays are the exception: a replay of a work-item redoes its private stores (the
array starts anew with the item), so their contents are the same in both runs.

``kernel_replay_safe`` answers for a kernel run as one loop nest; ``region_replay_safe`` for
one region of a kernel run as regions (``codegen.cpu_groups``), where locals a region reads
before assigning also differ between the two runs.
"""

from __future__ import annotations

from gpuoff.ir import nodes as n
from gpuoff.ir.types import AddressSpace
from gpuoff.ir.walk import child_exprs, stmt_exprs, walk_exprs, walk_stmts


def _private(ref: n.ArrayRef) -> bool:
    return ref.type.space is AddressSpace.PRIVATE


def _impure_functions(module: n.Module) -> set[str]:
    """Device functions that store (outside private arrays) or do atomics, directly or
    through calls. A store into a private array (the function's own, or the caller's out-array
    of a tuple result) is redone identically by a replay: replays store into private arrays."""
    direct: dict[str, tuple[bool, set[str]]] = {}
    for fn in module.functions:
        effects = any(
            isinstance(s, n.Store) and not _private(s.array) for s in walk_stmts(fn.body)
        ) or any(isinstance(e, n.AtomicRMW) for e in walk_exprs(fn.body))
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
        if isinstance(s, n.Store) and not _private(s.array):
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


def kernel_replay_safe(module: n.Module) -> bool:
    """Whether re-running any part of the kernel (run as one work-item loop nest) without
    memory effects finds exactly the same failures: no sink of the body depends on written
    memory, an atomic's result or a call, and no impure function is called."""
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
    if _writes_private(stmts):
        return False
    assigned = {s.target for s in walk_stmts(stmts) if isinstance(s, n.Assign)}
    assigned |= {s.var for s in walk_stmts(stmts) if isinstance(s, n.ForRange)}
    return _sinks_untainted(module, stmts, assigned & _live_in(stmts, set()))


def _writes_private(stmts: tuple[n.Stmt, ...]) -> bool:
    """Whether ``stmts`` store into a private array or hand one to a device function. A
    kernel run as regions keeps its private arrays from one region to the next: a replay would
    see its own stores (or, skipping them, stale values)."""
    if any(isinstance(s, n.Store) and _private(s.array) for s in walk_stmts(stmts)):
        return True
    return any(
        isinstance(e, n.Call) and any(isinstance(a, n.ArrayRef) and _private(a) for a in e.args)
        for e in walk_exprs(stmts)
    )


__all__ = ["kernel_replay_safe", "region_replay_safe"]
