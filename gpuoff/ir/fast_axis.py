"""Which work-item dimension walks the contiguous axis of the arrays a kernel touches.

A 2-D kernel may take ``global_id(0)`` as the column (CUDA's ``threadIdx.x`` habit:
neighbouring work-items touch neighbouring addresses) or as the row (the README's
``k[(rows, cols)]`` launch table). A device runs fastest when the dimension its neighbouring
work-items differ in is the one that indexes the unit-stride (last) axis: the CPU makes it its
innermost, vectorised loop, a GPU its coalesced dimension 0. ``fast_dim`` finds that dimension
from the IR; ``permute_dims`` rewrites a module so that dimension becomes dimension 0 (the
target then hands the kernel its launch geometry permuted the same way, so every work-item
still computes with its own ids).

The rule (``unit_stride_votes``): every access ``a[..., e]`` (load, store, atomic; global and
shared arrays) votes for the dimension ``d`` whose work-item id appears in its last index ``e``
with coefficient +-1 (``j``, ``j + 1``, ``i * w + j``, ``group_id(1) * 32 + local_id(1)``) when
exactly one dimension does; locals assigned once are read through their definition, and a
``for`` variable through its start. ``fast_dim`` is the dimension with the most votes when it
has strictly more than dimension 0 (ties keep the kernel's own order).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import TypeVar

from gpuoff.ir import nodes as n
from gpuoff.ir.uniform_exprs import assign_counts
from gpuoff.ir.walk import walk_exprs, walk_stmts

_ITEM_IDS = ("global_id", "local_id")
_DEPTH = 8


def _definitions(fn: n.Function) -> dict[str, n.Expr]:
    """Locals assigned once (by an ``Assign``) and ``for`` variables (their start), for
    reading an index through them."""
    counts = assign_counts(fn)
    defs: dict[str, n.Expr] = {}
    for s in walk_stmts(fn.body):
        if isinstance(s, n.Assign) and counts.get(s.target) == 1:
            defs[s.target] = s.value
        elif isinstance(s, n.ForRange) and counts.get(s.var) == 1:
            defs[s.var] = s.start
    return defs


def _unit_dims(e: n.Expr, defs: Mapping[str, n.Expr], depth: int = 0) -> set[int]:
    """Dimensions whose work-item id is an additive term (coefficient +-1) of ``e``; an id
    that is scaled, divided or passed to a call is not unit stride and does not count."""
    if isinstance(e, n.WorkItem):
        return {e.dim} if e.name in _ITEM_IDS else set()
    if isinstance(e, n.Var):
        d = defs.get(e.name)
        return set() if d is None or depth >= _DEPTH else _unit_dims(d, defs, depth + 1)
    if isinstance(e, n.Cast):
        return _unit_dims(e.value, defs, depth)
    if isinstance(e, n.Unary) and e.op == "neg":
        return _unit_dims(e.operand, defs, depth)
    if isinstance(e, n.Binary) and e.op in ("add", "sub"):
        return _unit_dims(e.lhs, defs, depth) | _unit_dims(e.rhs, defs, depth)
    if isinstance(e, n.Binary) and e.op == "mul":
        for a, other in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
            if isinstance(other, n.Const) and other.value == 1:
                return _unit_dims(a, defs, depth)
    return set()


def unit_stride_votes(module: n.Module) -> dict[int, int]:
    """Per work-item dimension, how many accesses of the module's functions index their
    last axis with that dimension's id at unit stride."""
    votes: dict[int, int] = {}
    for fn in (module.kernel, *module.functions):
        defs = _definitions(fn)
        indices: list[tuple[n.Expr, ...]] = []
        for s in walk_stmts(fn.body):
            if isinstance(s, n.Store):
                indices.append(s.indices)
        for e in walk_exprs(fn.body):
            if isinstance(e, (n.Load, n.AtomicRMW)):
                indices.append(e.indices)
        for idx in indices:
            dims = _unit_dims(idx[-1], defs) if idx else set()
            if len(dims) == 1:
                (d,) = dims
                votes[d] = votes.get(d, 0) + 1
    return votes


def fast_dim(module: n.Module) -> int:
    """The work-item dimension to make dimension 0 (see the module docstring)."""
    votes = unit_stride_votes(module)
    best = max(votes, key=lambda d: (votes[d], -d), default=0)
    return best if votes.get(best, 0) > votes.get(0, 0) else 0


_N = TypeVar("_N")


def _swap(x: _N, d: int) -> _N:
    if isinstance(x, n.WorkItem):
        return replace(x, dim=d if x.dim == 0 else 0 if x.dim == d else x.dim)
    if isinstance(x, tuple):
        return tuple(_swap(y, d) for y in x)  # type: ignore[return-value]
    if isinstance(x, n.Node):
        changed = {f.name: _swap(getattr(x, f.name), d) for f in fields(x)
                   if f.init and f.name != "loc"}  # fmt: skip
        return replace(x, **changed)
    return x


def permute_dims(module: n.Module, d: int) -> n.Module:
    """``module`` with work-item dimensions 0 and ``d`` exchanged in every query of every
    function (``global_id``, ``local_id``, ``group_id`` and the sizes alike)."""
    if d == 0:
        return module
    return replace(module, kernel=_swap(module.kernel, d),
                   functions=tuple(_swap(f, d) for f in module.functions))  # fmt: skip


__all__ = ["fast_dim", "permute_dims", "unit_stride_votes"]
