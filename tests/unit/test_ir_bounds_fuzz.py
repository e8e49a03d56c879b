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


# --------------------------------------------------------------------------------------------
# Loops with constant counters (launch_loops: unrolled by the launch-time analysis)
# --------------------------------------------------------------------------------------------

T = b.ref("t", b.shared_t(f32, 16))
COUNTER_OPS = (("mul", 2), ("mul", 2), ("floordiv", 2), ("floordiv", 2), ("add", 1),
               ("sub", 1), ("add", 3), ("lshift", 1), ("rshift", 1), ("mul", 3))  # fmt: skip


class LoopGen:
    """Tree walks like a Blelloch scan's: counters ``a`` and ``d`` start from constants and
    change by constant operations in a ``while`` (bounded by the counter ``w``), guards on the
    local id against them, shared and global accesses scaled by them (some in range in every
    iteration, some not), and the bait: a counter also assigned under a guard, a ``break``
    (counters after the loop unknown), a ``continue`` (no unrolling), long loops (too many
    iterations to unroll), accesses after the loop at the counters' exit values."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.checks = 0

    def counter(self) -> n.Expr:
        return b.var(self.r.choice(("a", "d")))

    def index(self) -> n.Expr:
        lid, r = b.var("lid"), self.r
        pick = r.randrange(7)
        if pick == 0:  # a * (2 * lid + c1) + c2: the tree index
            inner = b.bin_("add", b.bin_("mul", b.c(2), lid), b.c(r.randint(0, 2)))
            e: n.Expr = b.bin_("add", b.bin_("mul", self.counter(), inner), b.c(r.randint(-2, 0)))
        elif pick == 1:
            e = b.bin_("add", b.bin_("mul", lid, self.counter()), b.c(r.randint(-1, 1)))
        elif pick == 2:
            e = b.bin_("add", self.counter(), b.c(r.randint(-2, 2)))
        elif pick == 3:
            e = b.bin_("sub", self.counter(), lid)
        elif pick == 4:  # the group id: below the group count and the grid
            e = b.bin_("add", b.wi("group_id"), b.c(r.randint(-1, 2)))
        elif pick == 5:  # divided by a counter (zero, one, a power of two: x // 0 is 0)
            e = b.bin_(r.choice(("floordiv", "mod")), b.bin_("add", lid, b.c(r.randint(0, 9))),
                       self.counter())  # fmt: skip
        else:
            e = b.bin_("add", lid, b.c(r.randint(-1, 1)))
        return e

    def access(self) -> n.Stmt:
        self.checks += 1
        arr = T if self.r.random() < 0.6 else Y
        idx = self.index()
        if self.r.random() < 0.3:
            return b.store(arr, idx, b.bin_("add", b.load(arr, idx, check=self.checks), 1.0),
                           check=self.checks)  # fmt: skip
        return b.store(arr, idx, b.c(1.0), check=self.checks)

    def guard(self) -> n.Expr:
        op = self.r.choice(("lt", "lt", "le", "gt"))
        rhs = self.counter()
        if self.r.random() < 0.3:
            rhs = b.bin_("add", rhs, b.c(self.r.randint(-1, 1)))
        return b.cmp(op, b.var("lid"), rhs)

    def update(self, v: str, tree: str | None = None) -> n.Stmt:
        """A constant change of counter ``v``; in a tree walk (``tree``: "up" or "down"),
        ``a`` and ``d`` move the opposite ways (a * d stays the same)."""
        op, k = self.r.choice(COUNTER_OPS)
        if tree is not None and self.r.random() < 0.85:
            op, k = ("mul", 2) if (v == "a") == (tree == "up") else ("floordiv", 2)
        return b.assign(v, b.bin_(op, b.var(v), b.c(k)))

    def loop(self) -> n.Stmt:
        r = self.r
        limit = r.choice((70, 70, 70, 100))  # w < 100: over MAX_TRIPS iterations possible
        tree = r.choice(("up", "down", None))
        if tree == "up":
            cond = b.cmp(r.choice(("gt", "gt", "ge")), b.var("d"), b.c(r.randint(0, 1)))
        elif tree == "down":
            cond = b.cmp(r.choice(("lt", "lt", "le")), b.var("d"), b.c(r.choice((8, 16))))
        else:
            cond = b.cmp(r.choice(("gt", "lt", "ge", "ne")), self.counter(), b.c(r.randint(0, 16)))
        body: list[n.Stmt] = [b.assign("w", b.bin_("add", b.var("w"), 1))]
        body.append(b.if_(self.guard(), [self.access() for _ in range(r.randint(1, 2))]))
        if r.random() < 0.3:
            body.append(self.access())
        bait = r.randrange(8)
        if bait == 0:  # a counter assigned under a guard: not a counter any more
            body.append(b.if_(self.guard(), [self.update(r.choice(("a", "d")))]))
        elif bait == 1:
            body.append(b.if_(self.guard(), [n.Break()]))
        elif bait == 2:
            body.insert(1, b.if_(self.guard(), [n.Continue()]))
        body += [self.update("a", tree), self.update("d", tree)]
        if r.random() < 0.3:
            body.append(b.if_(self.guard(), [self.access()]))
        return n.While(b.and_(b.lt(b.var("w"), limit), cond), tuple(body))

    def module(self) -> n.Module:
        r = self.r
        body: list[n.Stmt] = [
            b.assign("lid", b.wi("local_id")),
            b.assign("w", b.c(0)),
            b.assign("a", b.c(r.choice((0, 1, 1, 1, 2, 4)))),
            b.assign("d", b.c(r.choice((1, 4, 8, 8, 8, 16)))),
        ]
        for _ in range(r.randint(1, 2)):
            body.append(self.loop())
            if r.random() < 0.5:
                body.append(b.if_(self.guard(), [self.access()]))
            if r.random() < 0.3:
                body.append(b.assign("w", b.c(0)))
        body.append(self.access())
        params = [b.param("n", i64), b.param("y", Y.type)]
        locals_ = {v: i64 for v in ("lid", "w", "a", "d")}
        k = b.kernel("k", params, body, locals_, (n.SharedArray("t", T.type),))
        return b.module(k, checks=[b.check(c + 1, "y") for c in range(self.checks)])


LOOP_LAUNCHES = ((8, 8, 20), (16, 16, 16), (16, 4, 40), (4, 4, 24), (12, 12, 32), (70, 70, 80),
                 (66, 66, 8), (32, 16, 64), (140, 70, 80), (130, 65, 1))  # fmt: skip
"""(grid, block, len(y)): blocks above 64 work-items make the header's block exact."""


def loop_outcome(m: n.Module, grid: int, block: int, size: int) -> tuple[list[float], str]:
    y = np.zeros(size, np.float32)
    try:
        interp.run(m, [0, y], grid, block)
        err = ""
    except BoundsError as e:
        err = str(e)
    return y.tolist(), err


def loop_launches(seed: int, execute: bool = True) -> tuple[int, int]:
    """Run each ``LoopGen`` launch the predicate admits unchecked (when ``execute``) and
    compare with the checked module; (such launches, checks off)."""
    from gpuoff.ir.launch_checks import specialise

    m = LoopGen(seed).module()
    verify(m)
    out = specialise(m)
    if out is None:
        return 0, 0
    unchecked, p = out
    verify(unchecked)
    ran = 0
    for grid, block, size in LOOP_LAUNCHES:
        groups = -(-grid // block)
        header = (grid, 1, 1, block, 1, 1, groups, 1, 1)
        fast = p.compile(["n", "y"])(header, [0, np.zeros(size)])
        assert fast == p.evaluate(p.values(header, {"n": 0, "y": np.zeros(size)}))
        if fast:
            ran += 1
            if execute:
                checked = loop_outcome(m, grid, block, size)
                assert loop_outcome(unchecked, grid, block, size) == checked
    return ran, len(p.removed)


@pytest.mark.parametrize("seed", range(100))
def test_unrolled_loops_are_sound(seed: int) -> None:
    loop_launches(seed)


def test_unrolled_loops_fuzz_is_not_vacuous(monkeypatch: pytest.MonkeyPatch) -> None:
    """Launches ran unchecked, many checks were removed only thanks to the unrolling, and
    many stayed."""
    from gpuoff.ir import launch_loops

    def totals() -> tuple[int, int, int]:
        ran = removed = total = 0
        for seed in range(100):
            count, off = loop_launches(seed, execute=False)  # the test above runs them
            ran, removed = ran + count, removed + (off if count else 0)
            total += len(LoopGen(seed).module().checks)
        return ran, removed, total

    ran, removed, total = totals()
    monkeypatch.setattr(launch_loops, "MAX_TRIPS", 0)
    _, without, _ = totals()
    assert ran >= 250 and removed - without >= 25 and total - removed >= 150
