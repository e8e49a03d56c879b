"""Which kernel loops the CPU runs at work-group level (loop interchange for vectorising).

LLVM vectorises innermost loops only, so a work-item loop around a body that itself loops
(a dot product, an n-body sum) stays scalar. When such an inner ``for`` loop is the same for
every work-item of the group (its bounds are work-group uniform: built from constants, scalar
parameters, shapes and group-level sizes), the CPU target runs it *outside* the work-item
loops instead, through the same region fission as barriers: ``for k: body`` becomes a group-
level ``for k`` around a (vectorisable) work-item loop over ``body``; locals live in per-work-
item arrays. An ``if`` whose branch holds such a loop is kept per work-item as a predicate.

A loop qualifies when its body has no ``return``, no ``break``/``continue`` of its own and no
barrier, and its variable is assigned nowhere else in the kernel.
"""

from __future__ import annotations

from collections.abc import Sequence

from codegen.llvm_walk import escaping_jumps, has_barrier, walk_stmts
from gpuoff.ir import nodes as n

_UNIFORM_WORK_ITEMS = ("group_id", "global_size", "local_size", "num_groups")


def _uniform(e: n.Expr, scalars: frozenset[str]) -> bool:
    if isinstance(e, n.Const):
        return True
    if isinstance(e, n.Var):
        return e.name in scalars
    if isinstance(e, n.ShapeOf):
        return True
    if isinstance(e, n.WorkItem):
        return e.name in _UNIFORM_WORK_ITEMS
    if isinstance(e, n.Unary):
        return _uniform(e.operand, scalars)
    if isinstance(e, (n.Binary, n.Compare)):
        return _uniform(e.lhs, scalars) and _uniform(e.rhs, scalars)
    if isinstance(e, n.Cast):
        return _uniform(e.value, scalars)
    return False


def _assign_counts(kernel: n.Function) -> dict[str, int]:
    counts: dict[str, int] = {}
    for s in walk_stmts(kernel.body):
        name = s.target if isinstance(s, n.Assign) else s.var if isinstance(s, n.ForRange) else None
        if name is not None:
            counts[name] = counts.get(name, 0) + 1
    return counts


class Interchange:
    """The interchange decisions for one kernel."""

    def __init__(self, kernel: n.Function, enabled: bool = True) -> None:
        self.enabled = enabled
        self.scalars = frozenset(p.name for p in kernel.params if p.name not in kernel.locals)
        self.assigned = _assign_counts(kernel)

    def loop(self, s: n.Stmt) -> bool:
        """Whether ``s`` is a group-uniform ``for`` loop to run at group level."""
        if not self.enabled or not isinstance(s, n.ForRange) or self.assigned.get(s.var, 0) != 1:
            return False
        if not all(_uniform(e, self.scalars) for e in (s.start, s.stop, s.step)):
            return False
        body = s.body
        if escaping_jumps(body) or has_barrier(body):
            return False
        return not any(isinstance(x, n.Return) for x in walk_stmts(body))

    def contains(self, stmts: Sequence[n.Stmt]) -> bool:
        """Whether ``stmts`` (through ``if`` branches) hold a loop ``loop`` accepts."""
        for s in stmts:
            if self.loop(s):
                return True
            if isinstance(s, n.If) and not has_barrier([s]):
                if self.contains(s.body) or self.contains(s.orelse):
                    return True
        return False

    def predicated_if(self, s: n.Stmt) -> bool:
        """An ``if`` (without barriers) to keep per work-item around group-level loops."""
        if not isinstance(s, n.If) or has_barrier([s]) or escaping_jumps([s]):
            return False
        if any(isinstance(x, n.Return) for x in walk_stmts((s,))):
            return False
        return self.contains(s.body) or self.contains(s.orelse)


def interchanges(module: n.Module) -> bool:
    """Whether loops of ``module``'s kernel run at group level."""
    kernel = module.kernel
    return Interchange(kernel).contains(kernel.body)


def uses_fission(module: n.Module) -> bool:
    """Whether the CPU runs ``module``'s kernel as regions (barriers or interchanged loops)."""
    return has_barrier(module.kernel.body) or interchanges(module)
