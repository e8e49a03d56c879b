"""Expressions and locals the CPU may compute once per work-group (read from the IR only).

A value is *work-group uniform* when every work-item of a group computes the same one: built
from constants, scalar parameters, array shapes and the group-level work-item values
(``group_id``, ``global_size``, ``local_size``, ``num_groups``). The CPU target uses these
facts to run code once per group instead of once per work-item (``codegen.cpu_interchange``,
``codegen.cpu_groups``):

- ``is_uniform``: an expression, given which variables are uniform;
- ``rematerialised``: locals that are pure functions of ids, parameters and shapes, which a
  group-level lowering recomputes in each region instead of storing per work-item;
- ``group_uniform_locals``: locals assigned only at group level, and only uniform values;
- ``positive_step``: a loop step that is positive by construction (``range(i, n,
  global_size(0))``), for the bounds analysis and the CPU's grid-stride loops.

This is the quick syntactic rule the CPU's loop interchange needs (a yes or no per
expression). ``gpuoff.ir.uniformity`` is the finer analysis of divergence under control flow
(with values only a run can tell) that decides whether barriers are reached uniformly.
"""

from __future__ import annotations

from collections.abc import Sequence

from gpuoff.ir import nodes as n
from gpuoff.ir.walk import child_bodies, child_exprs, has_barrier, walk_exprs, walk_stmts

UNIFORM_WORK_ITEMS = ("group_id", "global_size", "local_size", "num_groups")
"""Work-item queries whose value is the same for every work-item of a group."""


def is_uniform(e: n.Expr, names: frozenset[str]) -> bool:
    """Whether ``e`` is work-group uniform when the variables ``names`` are."""
    if isinstance(e, n.Const):
        return True
    if isinstance(e, n.Var):
        return e.name in names
    if isinstance(e, n.ShapeOf):
        return True
    if isinstance(e, n.WorkItem):
        return e.name in UNIFORM_WORK_ITEMS
    if isinstance(e, n.Unary):
        return is_uniform(e.operand, names)
    if isinstance(e, (n.Binary, n.Compare)):
        return is_uniform(e.lhs, names) and is_uniform(e.rhs, names)
    if isinstance(e, n.Cast):
        return is_uniform(e.value, names)
    return False


SIZE_LIMIT = 1 << 48
"""The grid's work-items are assumed below this (as ``gpuoff.ir.bounds`` assumes of ids and
sizes: real grids are far smaller)."""

_SIZES = ("global_size", "local_size", "num_groups")


def positive_step(e: n.Expr) -> bool:
    """Whether the integer ``e`` is positive by construction: a positive constant, a work-item
    size (``global_size``, ``local_size``, ``num_groups``: at least 1), or sums, products and
    widening casts of them whose largest value stays below 2**62 (so no wrap can make them
    negative). A product of sizes that takes, per dimension, one of them or
    ``local_size * num_groups`` (CUDA's ``blockDim.x * gridDim.x``) is at most the grid's
    work-items."""
    top = _positive_max(e)
    return top is not None and top < 1 << 62


def _grid_product(e: n.Expr, per_dim: dict[int, list[str]]) -> bool:
    """Collect the sizes of the product ``e`` per dimension; False if it is not one."""
    if isinstance(e, n.WorkItem) and e.name in _SIZES:
        per_dim.setdefault(e.dim, []).append(e.name)
        return True
    if isinstance(e, n.Binary) and e.op == "mul":
        return _grid_product(e.lhs, per_dim) and _grid_product(e.rhs, per_dim)
    return False


def _positive_max(e: n.Expr) -> int | None:
    """An upper bound of ``e`` when it is positive by construction, else None."""
    if isinstance(e, n.Const):
        v = e.value
        return v if isinstance(v, int) and not isinstance(v, bool) and 0 < v < 1 << 62 else None
    per_dim: dict[int, list[str]] = {}
    if _grid_product(e, per_dim):
        if all(len(v) == 1 or sorted(v) == ["local_size", "num_groups"] for v in per_dim.values()):
            return SIZE_LIMIT  # at most the grid's (padded) work-items
    if isinstance(e, n.WorkItem):
        return SIZE_LIMIT if e.name in _SIZES else None
    if isinstance(e, n.Binary) and e.op in ("add", "mul") and e.type.is_int:
        lhs, rhs = _positive_max(e.lhs), _positive_max(e.rhs)
        if lhs is None or rhs is None:
            return None
        return lhs + rhs if e.op == "add" else lhs * rhs
    if isinstance(e, n.Cast) and e.type.is_int and e.value.type.is_int:
        top = _positive_max(e.value)
        # kept when below 2**(bits - 1) of a signed target, 2**bits of an unsigned one
        room = e.type.bits - (1 if e.type.is_signed else 0)
        return top if top is not None and top < 1 << room else None
    return None


def assign_counts(kernel: n.Function) -> dict[str, int]:
    """How many statements assign each local (``for`` loops count for their variable)."""
    counts: dict[str, int] = {}
    for s in walk_stmts(kernel.body):
        name = s.target if isinstance(s, n.Assign) else s.var if isinstance(s, n.ForRange) else None
        if name is not None:
            counts[name] = counts.get(name, 0) + 1
    return counts


_PURE = (n.Const, n.WorkItem, n.ShapeOf, n.Unary, n.Binary, n.Compare, n.Cast, n.Var)


def rematerialised(kernel: n.Function) -> dict[str, n.Expr]:
    """Locals that region fission recomputes in each region instead of keeping per item:
    assigned once, at kernel level, to a pure function of work-item ids, parameters, shapes
    and earlier such locals, and read only after that assignment. Keeping ``j = global_id(0)``
    as an expression (not a load from per-item memory) keeps ``b[k, j]`` a vector load."""
    counts = assign_counts(kernel)
    params = frozenset(p.name for p in kernel.params if p.name not in kernel.locals)
    found: dict[str, n.Expr] = {}
    read_before: set[str] = set()
    for s in kernel.body:
        if (isinstance(s, n.Assign) and counts.get(s.target) == 1
                and s.target not in read_before and _pure(s.value, params, found)):  # fmt: skip
            found[s.target] = s.value
        read_before.update(e.name for e in walk_exprs([s]) if isinstance(e, n.Var))
    return found


def group_uniform_locals(kernel: n.Function) -> set[str]:
    """Locals that region fission keeps once per group, not per item: every assignment is at
    group level (kernel level, or directly in the body of a statement holding a barrier, which
    the CPU runs at group level) and assigns a uniform value (built from uniform values and
    such locals). Assigning one runs once, between work-item regions."""
    group_level: dict[str, bool] = {}

    def visit(stmts: Sequence[n.Stmt], at_group: bool) -> None:
        for s in stmts:
            if isinstance(s, n.Assign):
                group_level[s.target] = group_level.get(s.target, True) and at_group
            elif isinstance(s, n.ForRange):
                group_level[s.var] = False
            for body in child_bodies(s):
                visit(body, at_group and has_barrier([s]))

    visit(kernel.body, True)
    params = frozenset(p.name for p in kernel.params if p.name not in kernel.locals)
    found = {name for name, ok in group_level.items() if ok and name in kernel.locals}
    changed = True
    while changed:
        known = params | found
        keep = {
            name for name in found
            if all(is_uniform(x.value, known) for x in walk_stmts(kernel.body)
                   if isinstance(x, n.Assign) and x.target == name)
        }  # fmt: skip
        changed = keep != found
        found = keep
    return found


def _pure(e: n.Expr, params: frozenset[str], known: dict[str, n.Expr]) -> bool:
    if not isinstance(e, _PURE):
        return False
    if isinstance(e, n.Var):
        return e.name in params or e.name in known
    return all(_pure(c, params, known) for c in child_exprs(e))


__all__ = [
    "SIZE_LIMIT", "UNIFORM_WORK_ITEMS", "assign_counts", "group_uniform_locals", "is_uniform",
    "positive_step", "rematerialised",
]  # fmt: skip
