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

Grid-stride ``while`` loops (``i = global_id(0); while i < n: ...; i += stride``) run at group
level too, masked per work-item (``codegen.cpu_masked``), when their index is *affine* in the
work-item id: initialised (just before, in the same block) to ``global_id(0)`` or
``local_id(0)`` plus a uniform value, advanced only by a uniform step as the body's last
statement, and read nowhere else. The index is then ``base + lane``: loads through it stay
contiguous vector loads. Grid-stride ``for`` loops, ``for i in range(global_id(0) + offset,
stop, step)`` with a uniform ``stop`` and a ``step`` that is positive by construction
(``gpuoff.ir.uniform_exprs.positive_step``: constants and the grid's sizes), run
the same way; their variable may be shared by several such loops, as long as it is assigned
nowhere else and read only inside their bodies (each loop's reads see its own values).

What is uniform, which locals are recomputed per region and which are kept once per group:
``gpuoff.ir.uniform_exprs`` (facts about the IR; the decisions here are the CPU target's).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from gpuoff.ir.uniform_exprs import (
    assign_counts,
    group_uniform_locals,
    is_uniform,
    positive_step,
    rematerialised,
)
from gpuoff.ir.walk import child_bodies, escaping_jumps, has_barrier, walk_exprs, walk_stmts


@dataclass(frozen=True)
class Affine:
    """A masked ``while`` loop's index ``var``: ``wi + offset`` initially (``wi`` is
    ``global_id(0)`` or ``local_id(0)``), ``var + step`` after each iteration. ``offset`` and
    ``step`` are uniform, with single-assignment locals replaced by their definitions."""

    var: str
    wi: n.WorkItem
    offset: n.Expr | None
    step: n.Expr
    stop: n.Expr | None = None
    """For a ``for`` loop over ``range(wi + offset, stop, step)``: ``stop`` (uniform, inlined;
    ``step`` is then positive); None for a ``while`` loop."""


def masked_cond(s: n.While | n.ForRange, aff: Affine) -> n.Expr:
    """The condition an item of masked loop ``s`` tests before each iteration."""
    if isinstance(s, n.While):
        return s.cond
    assert aff.stop is not None
    return n.Compare(t.boolean, "lt", n.Var(aff.stop.type, aff.var), aff.stop)


def masked_body(s: n.While | n.ForRange) -> tuple[n.Stmt, ...]:
    """The statements of one iteration of masked loop ``s`` for one item (a ``while`` loop's
    last statement, the index's step, is taken at group level)."""
    return s.body[:-1] if isinstance(s, n.While) else s.body


class Interchange:
    """The interchange decisions for one kernel."""

    def __init__(self, kernel: n.Function, enabled: bool = True) -> None:
        self.enabled = enabled
        self.locals = kernel.locals
        self.scalars = frozenset(p.name for p in kernel.params if p.name not in kernel.locals)
        # what a group-level loop's bounds may read: scalars, locals kept once per group, and
        # locals region fission recomputes (``rematerialised``) from uniform values only,
        # such as ``n = a.shape[1]`` before ``for k in range(n)``
        self.remat = rematerialised(kernel)
        self.group_uniform = group_uniform_locals(kernel)
        names = set(self.scalars) | self.group_uniform
        grew = True
        while grew:
            known = frozenset(names)
            fresh = {v for v, d in self.remat.items() if v not in known and is_uniform(d, known)}
            names |= fresh
            grew = bool(fresh)
        self.bound_names = frozenset(names)
        self.assigned = assign_counts(kernel)
        self.defs = {
            x.target: x.value
            for x in walk_stmts(kernel.body)
            if isinstance(x, n.Assign) and self.assigned.get(x.target) == 1
        }
        self.reads: dict[str, int] = {}
        for e in walk_exprs(kernel.body):
            if isinstance(e, n.Var):
                self.reads[e.name] = self.reads.get(e.name, 0) + 1
        # per variable: the ``for`` loops over it, and their bodies' reads of it
        self.fors: dict[str, list[n.ForRange]] = {}
        self.read_in_fors: dict[str, int] = {}
        for x in walk_stmts(kernel.body):
            if isinstance(x, n.ForRange):
                self.fors.setdefault(x.var, []).append(x)
                self.read_in_fors[x.var] = self.read_in_fors.get(x.var, 0) + _reads(x.body, x.var)

    def loop(self, s: n.Stmt) -> bool:
        """Whether ``s`` is a group-uniform ``for`` loop to run at group level."""
        if not self.enabled or not isinstance(s, n.ForRange) or self.assigned.get(s.var, 0) != 1:
            return False
        if not all(is_uniform(e, self.bound_names) for e in (s.start, s.stop, s.step)):
            return False
        body = s.body
        if escaping_jumps(body) or has_barrier(body):
            return False
        return not any(isinstance(x, n.Return) for x in walk_stmts(body))

    def contains(self, stmts: Sequence[n.Stmt]) -> bool:
        """Whether ``stmts`` (through ``if`` branches) hold a loop ``loop`` or ``masked``
        accepts."""
        for s in stmts:
            if self.loop(s) or self.masked(s, stmts) is not None:
                return True
            if isinstance(s, n.If) and not has_barrier([s]):
                if self.contains(s.body) or self.contains(s.orelse):
                    return True
        return False

    def _inline(self, e: n.Expr, depth: int = 0) -> n.Expr | None:
        """``e`` with single-assignment uniform locals replaced by their definitions, or
        None when ``e`` is not uniform."""
        if isinstance(e, n.Var) and e.name not in self.scalars:
            d = self.defs.get(e.name)
            return None if d is None or depth > 8 else self._inline(d, depth + 1)
        if isinstance(e, n.Unary):
            v = self._inline(e.operand, depth)
            return None if v is None else replace(e, operand=v)
        if isinstance(e, n.Cast):
            v = self._inline(e.value, depth)
            return None if v is None else replace(e, value=v)
        if isinstance(e, (n.Binary, n.Compare)):
            lhs, rhs = self._inline(e.lhs, depth), self._inline(e.rhs, depth)
            return None if lhs is None or rhs is None else replace(e, lhs=lhs, rhs=rhs)
        return e if is_uniform(e, self.scalars) else None

    def uniform_expr(self, e: n.Expr) -> n.Expr | None:
        """``e`` as an expression of uniform values only (locals inlined), or None."""
        return self._inline(e)

    def _affine_start(self, e: n.Expr) -> tuple[n.WorkItem, n.Expr | None] | None:
        if isinstance(e, n.Var) and e.name in self.defs:
            return self._affine_start(self.defs[e.name])
        if isinstance(e, n.WorkItem) and e.dim == 0 and e.name in ("global_id", "local_id"):
            return e, None
        if isinstance(e, n.Binary) and e.op == "add":
            for wi_side, other in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
                found = self._affine_start(wi_side)
                off = self._inline(other)
                if found is not None and found[1] is None and off is not None:
                    return found[0], off
        return None

    def masked(self, s: n.Stmt, block: Sequence[n.Stmt]) -> Affine | None:
        """The affine index of ``s`` (a statement of ``block``) to run it at group level
        masked per work-item, or None (not a grid-stride ``while`` or ``for`` loop)."""
        if not isinstance(s, (n.While, n.ForRange)) or not self.enabled or not s.body:
            return None
        if escaping_jumps(s.body) or has_barrier(s.body):
            return None
        if any(isinstance(x, n.Return) for x in walk_stmts(s.body)):
            return None
        if isinstance(s, n.ForRange):
            return self._masked_for(s)
        inc = s.body[-1]
        if not isinstance(inc, n.Assign) or self.assigned.get(inc.target, 0) != 2:
            return None
        v = inc.target
        val = inc.value
        if not (isinstance(val, n.Binary) and val.op == "add" and val.lhs == n.Var(val.type, v)):
            return None
        step = self._inline(val.rhs)
        pos = next((k for k, x in enumerate(block) if x is s), -1)
        init = next((x for x in reversed(block[:pos]) if isinstance(x, n.Assign)
                     and x.target == v), None)  # fmt: skip
        start = None if init is None else self._affine_start(init.value)
        if step is None or start is None or val.type != start[0].type:
            return None
        inside = sum(1 for e in walk_exprs([s]) if isinstance(e, n.Var) and e.name == v)
        if self.reads.get(v, 0) != inside:
            return None  # read after the loop: needs each item's own exit value
        return Affine(v, start[0], start[1], step)

    def _masked_for(self, s: n.ForRange) -> Affine | None:
        v = s.var
        loops = self.fors.get(v, [])
        if self.assigned.get(v, 0) != len(loops) or self.reads.get(v, 0) != self.read_in_fors[v]:
            return None  # assigned or read outside the ``for`` loops over it
        if any(isinstance(x, n.ForRange) and x.var == v for x in walk_stmts(s.body)):
            return None
        start = self._affine_start(s.start)
        stop, step = self._inline(s.stop), self._inline(s.step)
        if start is None or stop is None or step is None or not positive_step(step):
            return None
        ty = start[0].type
        if self.locals.get(v) != ty or stop.type != ty or step.type != ty:
            return None
        return Affine(v, start[0], start[1], step, stop)

    def masked_loops(self, stmts: Sequence[n.Stmt]) -> list[n.While | n.ForRange]:
        """Every loop in ``stmts`` (nested too) that ``masked`` accepts."""
        found: list[n.While | n.ForRange] = []
        for s in stmts:
            if isinstance(s, (n.While, n.ForRange)) and self.masked(s, stmts) is not None:
                found.append(s)
            for body in child_bodies(s):
                found += self.masked_loops(body)
        return found

    def predicated_if(self, s: n.Stmt) -> bool:
        """An ``if`` (without barriers) to keep per work-item around group-level loops."""
        if not isinstance(s, n.If) or has_barrier([s]) or escaping_jumps([s]):
            return False
        if any(isinstance(x, n.Return) for x in walk_stmts((s,))):
            return False
        return self.contains(s.body) or self.contains(s.orelse)


def _reads(stmts: Sequence[n.Stmt], name: str) -> int:
    return sum(1 for e in walk_exprs(stmts) if isinstance(e, n.Var) and e.name == name)


def interchanges(module: n.Module) -> bool:
    """Whether loops of ``module``'s kernel run at group level."""
    kernel = module.kernel
    return Interchange(kernel).contains(kernel.body)


def uses_fission(module: n.Module) -> bool:
    """Whether the CPU runs ``module``'s kernel as regions (barriers or interchanged loops)."""
    return has_barrier(module.kernel.body) or interchanges(module)


__all__ = [
    "Affine", "Interchange", "group_uniform_locals", "interchanges", "is_uniform", "masked_body",
    "masked_cond", "rematerialised", "uses_fission",
]  # fmt: skip
