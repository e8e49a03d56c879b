"""Helpers of ``codegen.cpu_groups`` that pick cheaper work-item loops for a region.

``narrowed_range``: a region ``if id(0) < u: body`` (``u`` uniform) loops over just the items
that take the branch. ``all_run``: whether every item of the group passes the current
predicates and none has returned, so a region may run without the per-item guard.
"""

from __future__ import annotations

from collections.abc import Sequence

from llvmlite import ir as ll

from codegen.cpu_interchange import is_uniform
from codegen.cpu_state import GroupLowering, GroupState
from codegen.llvm import I1, I8, I64
from gpuoff.ir import nodes as n


def narrowed_range(
    em: GroupLowering, stmts: Sequence[n.Stmt]
) -> tuple[ll.Value, tuple[n.Stmt, ...]] | None:
    """For a region ``if local_id(0) < u: body`` (or ``global_id(0)``; ``u`` uniform): the
    end of the dimension-0 range of the items that run ``body``, and ``body``."""
    s = stmts[0] if len(stmts) == 1 else None
    if not isinstance(s, n.If) or s.orelse or not isinstance(s.cond, n.Compare):
        return None
    c = s.cond
    st = em.state
    wi = st.remat.get(c.lhs.name, c.lhs) if isinstance(c.lhs, n.Var) else c.lhs
    names = st.ic.scalars | st.group_uniform
    if c.op != "lt" or not is_uniform(c.rhs, names) or not isinstance(wi, n.WorkItem):
        return None
    if wi.dim != 0 or wi.name not in ("local_id", "global_id"):
        return None
    fl, geo = st.fl, st.geo
    b = fl.builder
    em.uniform()
    u = fl.expr(c.rhs)

    def clamp(v: ll.Value, lo: ll.Value, hi: ll.Value) -> ll.Value:
        v = b.select(b.icmp_signed("<", v, lo), lo, v)
        return b.select(b.icmp_signed(">", v, hi), hi, v)

    if wi.name == "local_id":  # clamp first: base + u must not overflow
        hi = b.add(geo.base[0], clamp(u, ll.Constant(I64, 0), geo.lsize[0]))
        return b.select(b.icmp_signed("<", hi, geo.end[0]), hi, geo.end[0]), s.body
    return clamp(u, geo.base[0], geo.end[0]), s.body


def all_run(st: GroupState) -> ll.Value:
    """Whether every work-item passes the current predicates and none has returned."""
    b = st.fl.builder
    zero = ll.Constant(I8, 0)
    ok: ll.Value = ll.Constant(I1, 1)
    for arr, want in st.preds:
        some_false, some_true = st.pred_seen[id(arr)]
        flag = some_false if want else some_true
        ok = b.and_(ok, b.icmp_unsigned("==", b.load(flag, typ=I8), zero))
    if st.any_done is not None:
        ok = b.and_(ok, b.icmp_unsigned("==", b.load(st.any_done, typ=I8), zero))
    return ok


__all__ = ["all_run", "narrowed_range"]
