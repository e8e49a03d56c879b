"""Soundness fuzz of the launch-time check specialisation (``gpuoff.ir.launch_checks``)
against the interpreter.

The interpreter raises ``UndefinedBehaviorError`` on an unchecked out-of-range access, so a
check the predicate drops for a launch where some work-item is out of range shows up as that
error (or as a different result) when the unchecked module runs that launch.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from gpuoff.errors import BoundsError
from gpuoff.ir import interp
from gpuoff.ir import nodes as n
from gpuoff.ir.bounds import eliminate_redundant_checks
from gpuoff.ir.launch_checks import specialise
from gpuoff.ir.types import i32, i64
from gpuoff.ir.verify import verify
from tests.unit import irbuild as b
from tests.unit.test_ir_bounds_fuzz import Gen as BoundsGen
from tests.unit.test_ir_launch_checks import X, Y, Z, holds

# --------------------------------------------------------------------------------------------
# Soundness fuzz
# --------------------------------------------------------------------------------------------


class AffineGen:
    """Random kernels whose indices are affine in work-item ids and range-loop variables,
    under guards against shapes, scalars, the grid and constants (off-by-one bait)."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.checks: list[n.BoundsCheck] = []

    def bound(self) -> n.Expr:
        pick = self.r.randrange(7)
        base: n.Expr = (b.shape(X), b.shape(Y), b.shape(Z, self.r.randrange(2)), b.var("n"),
                        b.cast(i64, b.var("m", i32)), b.wi("global_size", self.r.randrange(2)),
                        b.c(self.r.randint(0, 6)))[pick]  # fmt: skip
        off = self.r.randint(-2, 2)
        return base if off == 0 or pick == 6 else b.bin_("add", base, b.c(off))

    def term(self) -> n.Expr:
        return self.r.choice((b.gid(0), b.gid(1), b.var("i"), b.var("j"), b.var("k")))

    def affine(self) -> n.Expr:
        e = self.term()
        if self.r.random() < 0.3:
            e = b.bin_("mul", e, b.c(self.r.randint(1, 3)))
        if self.r.random() < 0.25:
            e = b.bin_(self.r.choice(("add", "sub")), e, self.term())
        e = self.clamp(e)
        if self.r.random() < 0.5:
            e = b.bin_("add", e, b.c(self.r.randint(-2, 2)))
        if self.r.random() < 0.2:  # floor division / modulo (a non-positive divisor: bait)
            op, c = self.r.choice(("floordiv", "floordiv", "mod")), self.r.randint(-1, 4)
            e = b.bin_(op, e, b.c(c))
            if self.r.random() < 0.3:
                e = b.bin_("add", e, b.c(self.r.randint(-1, 1)))
        return self.clamp(e)

    def clamp(self, e: n.Expr) -> n.Expr:
        if self.r.random() < 0.12:
            e = b.math("min", e, self.bound()) if self.r.random() < 0.6 else e
            e = b.math("max", e, b.c(self.r.randint(-1, 2))) if self.r.random() < 0.6 else e
        return e

    def access(self) -> n.Stmt:
        cid = len(self.checks) + 1
        pick = self.r.randrange(3)
        if pick == 0:
            self.checks.append(b.check(cid, "y"))
            return b.store(Y, self.affine(), 1.0, check=cid)
        if pick == 1:
            self.checks += [b.check(cid, "x"), b.check(cid + 1, "y")]
            return b.store(Y, 0, b.load(X, self.affine(), check=cid), check=cid + 1)
        self.checks.append(b.check(cid, "z", ndim=2))
        return b.store(Z, (self.affine(), self.affine()), 2.0, check=cid)

    def cond(self) -> n.Expr:
        lhs = self.term() if self.r.random() < 0.5 else self.affine()
        c: n.Expr = b.cmp(self.r.choice(("lt", "le", "gt", "ge")), lhs, self.bound())
        if self.r.random() < 0.3:
            c = b.and_(c, b.cmp(self.r.choice(("lt", "ge")), self.term(), self.bound()))
        return b.not_(c) if self.r.random() < 0.15 else c

    def access_at(self, term: n.Expr, low: int = 0) -> n.Stmt:
        """An access at ``term + off`` (off-by-one bait next to a guard ``term >= low``)."""
        off = self.r.choice((-low - 1, -low, -low + 1, -1, 0, 1))
        idx = term if off == 0 else b.bin_("add", term, b.c(off))
        cid = len(self.checks) + 1
        if self.r.random() < 0.5:
            self.checks.append(b.check(cid, "y"))
            return b.store(Y, idx, 1.0, check=cid)
        self.checks.append(b.check(cid, "z", ndim=2))
        other = self.term()
        return b.store(Z, (idx, other) if self.r.random() < 0.5 else (other, idx), 2.0, check=cid)

    def guarded(self, depth: int) -> n.Stmt:
        """A guard (or range loop) on one term, with accesses near its bounds inside."""
        t = self.r.choice(("i", "j", "k"))
        if self.r.random() < 0.6:
            op, low = self.r.choice(("gt", "ge")), self.r.randint(-1, 2)
            lower = b.cmp(op, b.var(t), b.c(low))
            low += op == "gt"
            upper = b.cmp(self.r.choice(("lt", "le")), b.var(t), self.bound())
            cond = self.r.choice((lower, upper, b.and_(lower, upper), b.and_(upper, lower)))
            if self.r.random() < 0.2:  # the same facts through the else branch
                return b.if_(b.not_(cond), [], [self.access_at(b.var(t), low)])
            return b.if_(cond, [self.access_at(b.var(t), low), *self.block(depth + 1)][:3])
        if self.r.random() < 0.3:  # an i32 counter (range over an i32 scalar), cast to i64
            k32 = b.var("k32", i32)
            stop = b.var("m", i32) if self.r.random() < 0.7 else b.c(self.r.randint(0, 6), i32)
            body = [self.access_at(b.cast(i64, k32)), self.access_at(b.cast(i64, k32))]
            return b.for_("k32", b.c(self.r.randint(-1, 1), i32), stop, b.c(1, i32), body, i32)
        start = b.c(self.r.randint(-1, 2)) if self.r.random() < 0.7 else self.bound()
        body = [self.access_at(b.var(t)), self.access_at(b.var(t))]
        return b.for_(t, start, self.bound(), b.c(self.r.choice((1, 2))), body)

    def stmt(self, depth: int) -> n.Stmt:
        if depth < 2 and self.r.random() < 0.35:
            return self.guarded(depth)
        pick = self.r.randrange(9 if depth < 2 else 4)
        if pick <= 1:
            return self.access()
        if pick == 2:
            value = self.affine() if self.r.random() < 0.7 else b.bin_("mul", b.var("i"), b.gid())
            return b.assign(self.r.choice(("i", "j")), value)
        if pick == 3:
            return b.if_(self.cond(), [n.Return()])
        if pick <= 5:
            orelse = self.block(depth + 1) if self.r.random() < 0.4 else []
            return b.if_(self.cond(), self.block(depth + 1), orelse)
        if pick <= 7:
            start = b.c(self.r.randint(-1, 2)) if self.r.random() < 0.7 else self.bound()
            step = b.c(self.r.choice((1, 2, -1)))
            return b.for_("k", start, self.bound(), step, self.block(depth + 1))
        w = b.var("w")
        body = [b.assign("w", b.bin_("add", w, 1)), *self.block(depth + 1),
                b.assign(self.r.choice(("i", "j")), b.bin_("add", self.term(), 1))]  # fmt: skip
        return n.While(b.and_(b.lt(w, 3), self.cond()), tuple(body))

    def block(self, depth: int) -> list[n.Stmt]:
        return [self.stmt(depth) for _ in range(self.r.randint(1, 3))]

    def module(self) -> n.Module:
        body = [b.assign("w", b.c(0)), b.assign("i", b.gid(0)), b.assign("j", b.gid(1)),
                b.assign("k", b.c(0)), *self.block(0)]  # fmt: skip
        params = [b.param("n", i64), b.param("m", i32), b.param("x", X.type),
                  b.param("y", Y.type), b.param("z", Z.type)]  # fmt: skip
        kern = b.kernel("k", params, body, {**{v: i64 for v in "wijk"}, "k32": i32})
        return b.module(kern, checks=self.checks)


def run(m: n.Module, grid: tuple[int, int], nval: int, mval: int, sizes: tuple[int, ...]
        ) -> tuple[list[Any], str]:  # fmt: skip
    x = np.arange(sizes[0], dtype=np.float32)
    y, z = np.zeros(sizes[1], np.float32), np.zeros(sizes[2:], np.float32)
    try:
        interp.run(m, [nval, mval, x, y, z], grid, (1, 1))
        err = ""
    except BoundsError as e:
        err = str(e)
    return [y.tolist(), z.tolist()], err


def launches(r: random.Random) -> list[tuple[tuple[int, int], int, int, tuple[int, ...]]]:
    """Random launches; half of them with every quantity near one value (boundary bait)."""
    out: list[tuple[tuple[int, int], int, int, tuple[int, ...]]] = []
    for k in range(16):
        base = r.randint(1, 6)

        def q(lo: int, hi: int, base: int = base, near: bool = k % 2 == 0) -> int:
            return max(lo, base + r.randint(-1, 1)) if near else r.randint(lo, hi)

        grid = (q(0, 6), q(1, 3))
        sizes = (q(0, 8), q(0, 8), q(0, 4), q(0, 5))
        out.append((grid, q(-2, 8), q(-2, 8), sizes))
    return out


def check_launches(m: n.Module, seed: int) -> int:
    """Run ``m`` and its unchecked variant where the predicate holds; the count run."""
    out = specialise(m)
    if out is None:
        return 0
    unchecked, p = out
    verify(unchecked)
    ran = 0
    for grid, nval, mval, sizes in launches(random.Random(seed)):
        arrays = {"x": np.zeros(sizes[0]), "y": np.zeros(sizes[1]), "z": np.zeros(sizes[2:])}
        if holds(p, grid, n=nval, m=mval, **arrays):
            ran += 1
            # an error from a check the predicate does not cover stays the same; a removed
            # access out of range raises UndefinedBehaviorError in the unchecked module
            assert run(unchecked, grid, nval, mval, sizes) == run(m, grid, nval, mval, sizes)
    return ran


@pytest.mark.parametrize("seed", range(250))
def test_predicate_is_sound_on_random_affine_kernels(seed: int) -> None:
    m = eliminate_redundant_checks(AffineGen(seed).module())
    verify(m)
    check_launches(m, seed)


@pytest.mark.parametrize("seed", range(60))
def test_predicate_is_sound_on_random_bounds_fuzz_kernels(seed: int) -> None:
    m = BoundsGen(seed).module()  # params n and y only: adapt the launch to them
    out = specialise(m)
    if out is None:
        return
    unchecked, p = out
    for nval, size, grid in ((3, 5, 7), (-2, 4, 3), (8, 8, 10), (0, 0, 2), (2, 6, 4)):
        if holds(p, (grid,), n=nval, y=np.zeros(size)):
            ys = [np.zeros(size, np.float32) for _ in range(2)]
            errors = []
            for module, y in ((m, ys[0]), (unchecked, ys[1])):
                try:
                    interp.run(module, [nval, y], grid, 1)
                    errors.append("")
                except BoundsError as e:
                    errors.append(str(e))
            assert ys[0].tolist() == ys[1].tolist() and errors[0] == errors[1]


def test_fuzz_is_not_vacuous() -> None:
    """Enough launches run unchecked that the soundness tests above mean something."""
    ran = divided = 0
    for s in range(250):
        m = eliminate_redundant_checks(AffineGen(s).module())
        count = check_launches(m, s)
        ran += count
        out = specialise(m)
        if out is not None and any(q.startswith("fdiv:") for q in out[1].quantities):
            divided += count  # launches that ran with a floor division proven
    assert ran >= 500 and divided >= 50
