"""Soundness fuzz for check elimination.

Random kernels over a few INDEX variables, guards, loops and offset indices. The interpreter
raises ``UndefinedBehaviorError`` on an unchecked out-of-range access, so a check removed
without a valid proof shows up as that error (or as a different result) when the optimised
module runs on the same inputs as the original.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from gpuoff.errors import BoundsError
from gpuoff.ir import interp
from gpuoff.ir import nodes as n
from gpuoff.ir.bounds import eliminate_redundant_checks
from gpuoff.ir.printer import format_module
from gpuoff.ir.types import f32, i64
from gpuoff.ir.verify import verify
from tests.unit import irbuild as b

Y = b.ref("y", b.mut(f32))
S = b.ref("s", b.shared_t(f32, 6))
VARS = ("i", "j", "k")


class Gen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.checks = 0

    def const(self) -> n.Expr:
        return b.c(self.r.randint(-3, 9))

    def atom(self) -> n.Expr:
        pick = self.r.randrange(6)
        if pick == 0:
            return b.gid()
        if pick == 1:
            return b.shape(Y)
        if pick == 2:
            return self.const()
        if pick == 3:
            return b.var("n")
        return b.var(self.r.choice(VARS))

    def value(self) -> n.Expr:
        a = self.atom()
        if self.r.random() < 0.4:
            return b.bin_(self.r.choice(("add", "sub")), a, b.c(self.r.randint(-2, 2)))
        return a

    def cond(self, depth: int = 0) -> n.Expr:
        if depth < 2 and self.r.random() < 0.3:
            op = self.r.choice(("and", "or"))
            return n.Logical(b.boolean, op, self.cond(depth + 1), self.cond(depth + 1))
        if depth < 2 and self.r.random() < 0.15:
            return b.not_(self.cond(depth + 1))
        return b.cmp(self.r.choice(("lt", "le", "gt", "ge")), self.value(), self.value())

    def access(self) -> n.Stmt:
        self.checks += 1
        idx = self.value()
        arr = Y if self.r.random() < 0.7 else S
        if self.r.random() < 0.3:
            return n.ExprStmt(b.atomic("add", arr, idx, b.c(1.0), check=self.checks))
        return b.store(arr, idx, b.bin_("add", b.load(arr, idx, check=self.checks), 1.0),
                       check=self.checks)  # fmt: skip

    def near_bound(self) -> n.Expr:
        """shape(y) or 6 (the shared size) plus or minus a small constant."""
        base = b.shape(Y) if self.r.random() < 0.6 else b.c(6)
        off = self.r.randint(-2, 2)
        return base if off == 0 else b.bin_("add", base, b.c(off))

    def guarded(self, depth: int, in_loop: bool) -> n.Stmt:
        """Off-by-one bait: a guard or a loop near an array bound around offset accesses."""
        v = self.r.choice(VARS)
        if self.r.random() < 0.5:
            upper = b.cmp(
                self.r.choice(("lt", "le")),
                b.bin_("add", b.var(v), b.c(self.r.randint(-2, 0))),
                self.near_bound(),
            )
            lower = b.cmp(self.r.choice(("gt", "ge")), b.var(v), b.c(self.r.randint(-1, 2)))
            cond = b.and_(lower, upper) if self.r.random() < 0.7 else upper
            inner = [self.access_at(b.var(v)) for _ in range(2)]
            return b.if_(cond, [*inner, *self.block(depth + 1, in_loop)][:4])
        start = b.c(self.r.randint(-1, 2))
        body = [self.access_at(b.var(v)), self.access_at(b.var(v))]
        return b.for_(v, start, self.near_bound(), b.c(self.r.choice((1, 2))), body)

    def step(self) -> n.Expr:
        return self.r.choice(
            (b.wi("global_size"), b.c(self.r.randint(-1, 3)), b.var("n"), b.var("st"))
        )

    def increment(self, v: str) -> n.Stmt:
        """``v = v + step`` (or ``step + v``): grid-stride style, sometimes a decrement."""
        step = self.step()
        if self.r.random() < 0.5:
            return b.assign(v, b.bin_("add", b.var(v), step))
        return b.assign(v, b.bin_("add", step, b.var(v)))

    def grid_stride(self, depth: int) -> n.Stmt:
        """while v < bound (and a bounded trip count): access v + off; v += step."""
        v, w = self.r.choice(VARS), b.var("w")
        cond = b.and_(b.lt(w, 4), b.cmp(self.r.choice(("lt", "le")), b.var(v), self.near_bound()))
        body: list[n.Stmt] = [b.assign("w", b.bin_("add", w, 1)), self.access_at(b.var(v))]
        if self.r.random() < 0.3:
            body.append(self.stmt(depth + 1, True))
        body.append(self.increment(v))
        if self.r.random() < 0.2:
            body.insert(2, self.increment(v))
        return n.While(cond, tuple(body))

    def access_at(self, term: n.Expr) -> n.Stmt:
        off = self.r.randint(-2, 2)
        idx = term if off == 0 else b.bin_("add", term, b.c(off))
        self.checks += 1
        arr = Y if self.r.random() < 0.6 else S
        return b.store(arr, idx, b.c(2.0), check=self.checks)

    def block(self, depth: int, in_loop: bool) -> list[n.Stmt]:
        return [self.stmt(depth, in_loop) for _ in range(self.r.randint(1, 4))]

    def stmt(self, depth: int, in_loop: bool) -> n.Stmt:
        pick = self.r.randrange(15 if depth < 3 else 4)
        if pick >= 13:
            return self.grid_stride(depth)
        if pick == 12:
            return self.increment(self.r.choice(VARS))
        if pick >= 10:
            return self.guarded(depth, in_loop)
        if pick in (0, 1):
            return self.access()
        if pick in (2, 3):
            return b.assign(self.r.choice(VARS), self.value())
        if pick in (4, 5):
            orelse = self.block(depth + 1, in_loop) if self.r.random() < 0.4 else []
            return b.if_(self.cond(), self.block(depth + 1, in_loop), orelse)
        if pick == 6:
            exits: list[n.Stmt] = [n.Return()]
            if in_loop:
                exits += [n.Break(), n.Continue()]
            return b.if_(self.cond(), [self.r.choice(exits)])
        if pick in (7, 8):
            start = self.value() if self.r.random() < 0.5 else b.c(0)
            stop = self.value()
            step = b.c(self.r.choice((1, 1, 2, -1)))
            return b.for_(self.r.choice(VARS), start, stop, step, self.block(depth + 1, True))
        # A bounded while (w counts first, so continue cannot skip it); w is never an index.
        w = b.var("w")
        body = [b.assign("w", b.bin_("add", w, 1)), *self.block(depth + 1, True)]
        return n.While(b.and_(b.lt(w, 3), self.cond()), tuple(body))

    def module(self) -> n.Module:
        body = [b.assign("w", b.c(0)), b.assign("st", b.wi("global_size")), *self.block(0, False)]
        params = [b.param("n", i64), b.param("y", Y.type)]
        locals_ = {v: i64 for v in (*VARS, "w", "st")}
        k = b.kernel("k", params, body, locals_, (n.SharedArray("s", S.type),))
        return b.module(k, checks=[b.check(c + 1, "y") for c in range(self.checks)])


def outcome(m: n.Module, nval: int, size: int, grid: int) -> tuple[list[float], str]:
    y = np.zeros(size, np.float32)
    try:
        interp.run(m, [nval, y], grid, 1)
        err = ""
    except BoundsError as e:
        err = str(e)
    return y.tolist(), err


@pytest.mark.parametrize("seed", range(200))
def test_elimination_is_sound_on_random_kernels(seed: int) -> None:
    m = Gen(seed).module()
    verify(m)
    opt = eliminate_redundant_checks(m)
    verify(opt)
    for nval, size, grid in ((3, 5, 7), (-2, 4, 3), (8, 8, 10), (0, 0, 2)):
        assert outcome(opt, nval, size, grid) == outcome(m, nval, size, grid)


def test_fuzz_actually_removes_checks() -> None:
    """The generator is not so hostile that nothing is ever proven (then the test above
    would pass vacuously)."""
    removed = 0
    for seed in range(200):
        m = Gen(seed).module()
        body = format_module(eliminate_redundant_checks(m))
        removed += len(m.checks) - sum(f"{{c{c.id}}}" in body for c in m.checks)
    assert removed >= 60
