"""Run-time uniformity checks for the conditions the compiler cannot prove uniform.

A condition at ``RUNTIME`` level (``gpuoff.ir.uniformity``: it reads memory work-items write)
that decides whether a barrier is reached, or whether an exit skips one, is *voted* before it
is used: the group's leader (local id (0, 0, 0)) publishes its value in a one-element shared
array, every work-item reads the leader's value back and uses it, and a work-item whose own
value differs records a ``"barrier"`` check (``ir.nodes.BoundsCheck.kind``): the launch then
raises ``BarrierError`` pointing at the condition. Because every work-item goes on with the
leader's value, the group's control flow stays uniform, so no barrier hangs, whatever the
memory said. A vote costs two barriers; kernels whose conditions are all provably uniform (the
usual case) get none.

The vote of a value ``t`` (a bool condition or an integer loop bound), in IR::

    if local_id(0) == 0 and local_id(1) == 0 and local_id(2) == 0:
        _gpuoff_vote[0] = i64(t)
    barrier()
    u = _gpuoff_vote[0]
    if i64(t) != u:
        _ = _gpuoff_vote[1]     # checked and out of range: records the "barrier" check
    barrier()                   # every item has read before the leader writes again
    t = T(u)

The record is made through the IR's own rule for a checked out-of-range load (no access, the
error recorded), so every backend reports it through the channel it already has for bounds
errors, and a launch that proves its bounds checks redundant still keeps this one.

Rewrites: ``if c:`` becomes ``t = c; <vote t>; if t:``; ``while c:`` becomes ``while True:
t = c; <vote t>; if not t: break; ...``; ``for v in range(a, b, s)`` evaluates its bounds into
temporaries first, voting each that is not provably uniform.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from gpuoff.ir import nodes as n
from gpuoff.ir import types as T
from gpuoff.ir.uniformity import RUNTIME, Analysis, Level
from gpuoff.ownership import Access

VOTE_ARRAY = "_gpuoff_vote"
_TEMP = "_gpuoff_vote_t"


def sites(analysis: Analysis) -> set[int]:
    """The statements (by ``id``) whose condition needs a run-time vote: ``RUNTIME`` level,
    deciding whether a barrier is reached or skipped."""
    return {
        k for k, lv in analysis.conditions.items()
        if lv.rank == RUNTIME and k in analysis.controls_barrier
    }  # fmt: skip


class _Rewriter:
    def __init__(
        self, module: n.Module, votes: set[int], parts: Mapping[int, tuple[Level, ...]]
    ) -> None:
        self.module = module
        self.votes = votes
        self.parts = parts
        self.kernel = module.kernel
        self.locals: dict[str, T.ScalarType] = dict(self.kernel.locals)
        self.checks = list(module.checks)
        vote_t = T.ArrayType(T.i64, 1, True, T.AddressSpace.SHARED, Access.BORROW_MUT, (1,))
        self.array = n.ArrayRef(VOTE_ARRAY, vote_t)
        self.junk = self._temp(T.i64)

    def _temp(self, t: T.ScalarType) -> str:
        name = f"{_TEMP}{len(self.locals)}"
        while name in self.locals:
            name += "_"
        self.locals[name] = t
        return name

    def _check(self, s: n.Stmt) -> int:
        loc = s.loc or n.Loc(self.kernel.firstlineno, 0)
        cid = len(self.checks) + 1
        self.checks.append(n.BoundsCheck(cid, self.kernel.name, VOTE_ARRAY, 1,
                                         self.kernel.filename, loc.line, loc.col,
                                         kind="barrier"))  # fmt: skip
        return cid

    def vote(self, var: str, t: T.ScalarType, cid: int, loc: n.Loc | None) -> list[n.Stmt]:
        """The vote of local ``var`` (see the module docstring)."""
        idx = T.INDEX

        def c(v: int) -> n.Const:
            return n.Const(idx, v, loc=loc)

        def lid_zero(d: int) -> n.Expr:
            return n.Compare(T.boolean, "eq", n.WorkItem(idx, "local_id", d, loc=loc), c(0),
                             loc=loc)  # fmt: skip

        leader = n.Logical(T.boolean, "and", n.Logical(T.boolean, "and", lid_zero(0),
                                                       lid_zero(1), loc=loc),
                           lid_zero(2), loc=loc)  # fmt: skip
        mine = n.Var(t, var, loc=loc)
        wide: n.Expr = mine if t == T.i64 else n.Cast(T.i64, mine, loc=loc)
        seen = self._temp(T.i64)
        seen_v = n.Var(T.i64, seen, loc=loc)
        back: n.Expr = seen_v if t == T.i64 else n.Cast(t, seen_v, loc=loc)
        record = n.Assign(self.junk, n.Load(T.i64, self.array, (c(1),), cid, loc=loc), loc=loc)
        return [
            n.If(leader, (n.Store(self.array, (c(0),), wide, loc=loc),), loc=loc),
            n.Barrier(loc=loc),
            n.Assign(seen, n.Load(T.i64, self.array, (c(0),), loc=loc), loc=loc),
            n.If(n.Compare(T.boolean, "ne", wide, seen_v, loc=loc), (record,), loc=loc),
            n.Barrier(loc=loc),
            n.Assign(var, back, loc=loc),
        ]

    def _hoist(self, value: n.Expr, cid: int | None, loc: n.Loc | None) -> tuple[list[n.Stmt],
                                                                                n.Var]:  # fmt: skip
        name = self._temp(value.type)
        out: list[n.Stmt] = [n.Assign(name, value, loc=loc)]
        if cid is not None:
            out += self.vote(name, value.type, cid, loc)
        return out, n.Var(value.type, name, loc=loc)

    def block(self, stmts: Sequence[n.Stmt]) -> tuple[n.Stmt, ...]:
        out: list[n.Stmt] = []
        for s in stmts:
            out += self.stmt(s)
        return tuple(out)

    def stmt(self, s: n.Stmt) -> list[n.Stmt]:
        voted = id(s) in self.votes
        if isinstance(s, n.If):
            body, orelse = self.block(s.body), self.block(s.orelse)
            if not voted:
                return [dataclasses.replace(s, body=body, orelse=orelse)]
            pre, cond = self._hoist(s.cond, self._check(s), s.loc)
            return [*pre, n.If(cond, body, orelse, loc=s.loc)]
        if isinstance(s, n.While):
            body = self.block(s.body)
            if not voted:
                return [dataclasses.replace(s, body=body)]
            pre, cond = self._hoist(s.cond, self._check(s), s.loc)
            leave = n.If(n.Unary(T.boolean, "not", cond, loc=s.loc), (n.Break(loc=s.loc),),
                         loc=s.loc)  # fmt: skip
            return [n.While(n.Const(T.boolean, True, loc=s.loc), (*pre, leave, *body),
                            loc=s.loc)]  # fmt: skip
        if isinstance(s, n.ForRange):
            body = self.block(s.body)
            if not voted:
                return [dataclasses.replace(s, body=body)]
            hoisted: list[n.Stmt] = []
            bounds: list[n.Expr] = []
            cid = self._check(s)
            levels = self.parts.get(id(s), ())
            for k, e in enumerate((s.start, s.stop, s.step)):
                if isinstance(e, n.Const):
                    bounds.append(e)
                    continue
                # Every bound goes to a temporary (Python evaluates them once, in order);
                # the ones not provably uniform are voted.
                needs = k >= len(levels) or levels[k].rank >= RUNTIME
                stmts, var = self._hoist(e, cid if needs else None, s.loc)
                hoisted += stmts
                bounds.append(var)
            start, stop, step = bounds
            return [*hoisted, n.ForRange(s.var, start, stop, step, body, loc=s.loc)]
        return [s]

    def module_out(self, body: tuple[n.Stmt, ...]) -> n.Module:
        shared = (*self.kernel.shared, n.SharedArray(VOTE_ARRAY, self.array.type,
                                                     loc=self.kernel.loc))  # fmt: skip
        kernel = dataclasses.replace(self.kernel, body=body, locals=self.locals, shared=shared)
        return dataclasses.replace(self.module, kernel=kernel, checks=tuple(self.checks))


def insert_votes(
    module: n.Module, votes: set[int], parts: Mapping[int, tuple[Level, ...]]
) -> n.Module:
    """``module`` with the conditions of the statements in ``votes`` (by ``id``) voted at run
    time (see the module docstring); ``parts`` gives the level of each ``range`` bound of a
    voted ``ForRange``. ``module`` itself when ``votes`` is empty."""
    if not votes:
        return module
    rw = _Rewriter(module, votes, parts)
    return rw.module_out(rw.block(module.kernel.body))
