"""Random expression kernels: the CPU backend must agree with the interpreter bit for bit.

``GPUOFF_FUZZ_SEEDS=N`` runs N seeds per type instead of 6 (a longer hunt)."""

from __future__ import annotations

import dataclasses
import os
import random

import numpy as np
import pytest

from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from tests.unit import irbuild as b
from tests.unit.test_codegen_cpu_ops import both

INT_OPS = ["add", "sub", "mul", "floordiv", "mod", "bitand", "bitor", "bitxor", "lshift",
           "rshift"]  # fmt: skip
FLOAT_OPS = ["add", "sub", "mul", "truediv", "floordiv", "mod"]
CMP_OPS = list(n.COMPARE_OPS)


class Gen:
    """Builds random well-typed expressions over the kernel's inputs ``a[i]`` and ``c[i]``."""

    def __init__(self, seed: int, st: t.ScalarType) -> None:
        self.rng = random.Random(seed)
        self.st = st
        self.a = b.ref("a", b.arr(st))
        self.c = b.ref("c", b.arr(st))

    def leaf(self) -> n.Expr:
        r = self.rng.random()
        if r < 0.35:
            return b.load(self.a, b.gid(0))
        if r < 0.7:
            return b.load(self.c, b.gid(0))
        if self.st.is_float:
            return b.c(self.rng.choice([0.5, -1.25, 3.0, 0.0, 7.5]), self.st)
        return b.c(self.rng.choice([0, 1, -1, 3, 7, -8, 31]) % (1 << self.st.bits)
                   if not self.st.is_signed else self.rng.choice([0, 1, -1, 3, 7, -8, 31]),
                   self.st)  # fmt: skip

    def cond(self, depth: int) -> n.Expr:
        r = self.rng.random()
        if r < 0.6 or depth <= 0:
            return b.cmp(self.rng.choice(CMP_OPS), self.expr(depth - 1), self.expr(depth - 1))
        op = self.rng.choice(["and", "or"])
        if r < 0.8:
            return n.Logical(t.boolean, op, self.cond(depth - 1), self.cond(depth - 1))
        return b.not_(self.cond(depth - 1))

    def expr(self, depth: int) -> n.Expr:
        if depth <= 0:
            return self.leaf()
        r = self.rng.random()
        if r < 0.6:
            ops = FLOAT_OPS if self.st.is_float else INT_OPS
            return b.bin_(self.rng.choice(ops), self.expr(depth - 1), self.expr(depth - 1))
        if r < 0.75:
            return n.Select(self.st, self.cond(depth - 1), self.expr(depth - 1),
                            self.expr(depth - 1))  # fmt: skip
        if r < 0.85:
            other = t.f64 if not self.st.is_float else t.i32
            return b.cast(self.st, b.cast(other, self.expr(depth - 1)))
        if r < 0.93 and (self.st.is_signed or self.st.is_float):
            return n.Unary(self.st, "neg", self.expr(depth - 1))
        name = self.rng.choice(["min", "max", "abs"])
        args = [self.expr(depth - 1)] + ([self.expr(depth - 1)] if name != "abs" else [])
        return b.math(name, *args)


def _inputs(st: t.ScalarType, size: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    if st.is_float:
        pool = np.array([0.0, -0.0, 1.0, -1.0, 2.5, -3.75, 1e30, -1e-30, np.inf, -np.inf, np.nan,
                         0.1, 7.0], dtype=st.np_dtype)  # fmt: skip
    else:
        info = np.iinfo(np.zeros(1, dtype=st.np_dtype).dtype.name)
        pool = np.array([0, 1, 2, 3, 5, 31, 32, 33, int(info.max), int(info.min),
                         int(info.max) - 1], dtype=st.np_dtype)  # fmt: skip
        if st.is_signed:
            pool = np.concatenate([pool, np.array([-1, -2, -7, -33], dtype=st.np_dtype)])
    return rng.choice(pool, size), rng.choice(pool, size)


@pytest.mark.parametrize("st", [t.i32, t.i64, t.u32, t.u8, t.f32, t.f64], ids=str)
@pytest.mark.parametrize("seed", range(int(os.environ.get("GPUOFF_FUZZ_SEEDS", "6"))))
def test_random_expressions_match_interpreter(st: t.ScalarType, seed: int) -> None:
    g = Gen(seed * 7919 + st.bits, st)
    out = b.ref("out", b.mut(st))
    body: list[n.Stmt] = [b.store(out, b.gid(0), g.expr(4))]
    params = [b.param("a", g.a.type), b.param("c", g.c.type), b.param("out", out.type)]
    m = b.module(b.kernel("fuzz", params, body))
    a, c = _inputs(st, 97, seed)
    res = np.zeros(97, dtype=st.np_dtype)
    with np.errstate(all="ignore"):
        both(m, [a, c, res], 97)


class StmtGen:
    """Random statement kernels over i64 locals v0..v2: assignments, ifs, loops with
    break/continue, checked loads of ``a`` and checked stores to ``o`` (sometimes out of
    range). Loop variables are l0..l2, one per nesting level."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.a = b.ref("a", b.arr(t.i64))
        self.o = b.ref("o", b.mut(t.i64))
        self.checks: list[n.BoundsCheck] = []

    def check(self, array: str) -> int:
        self.checks.append(b.check(len(self.checks) + 1, array, function="sfuzz"))
        return len(self.checks)

    def index(self) -> n.Expr:
        base = b.bin_("add", b.gid(0), self.rng.choice([0, 1, 3, -1, 17]))
        return b.bin_("mod", base, self.rng.choice([16, 19, 23]))

    def expr(self, depth: int, loops: int) -> n.Expr:
        r = self.rng.random()
        names = [f"v{k}" for k in range(3)] + [f"l{k}" for k in range(loops)]
        if depth <= 0 or r < 0.3:
            return self.rng.choice([b.var(self.rng.choice(names)), b.c(self.rng.randint(-5, 9)),
                                    b.gid(0)])  # fmt: skip
        if r < 0.5:
            return b.load(self.a, self.index(), check=self.check("a"))
        if r < 0.55:  # reads what the kernel writes: the exact "rows" check strategy
            return b.load(self.o, b.gid(0), check=self.check("o"))
        op = self.rng.choice(["add", "sub", "mul", "floordiv", "mod", "bitxor"])
        return b.bin_(op, self.expr(depth - 1, loops), self.expr(depth - 1, loops))

    def cond(self, loops: int) -> n.Expr:
        return b.cmp(self.rng.choice(CMP_OPS), self.expr(1, loops), self.expr(1, loops))

    def block(self, depth: int, loops: int, in_loop: bool) -> list[n.Stmt]:
        out: list[n.Stmt] = []
        for _ in range(self.rng.randint(1, 3)):
            r = self.rng.random()
            if r < 0.4 or depth <= 0:
                out.append(b.assign(f"v{self.rng.randint(0, 2)}", self.expr(2, loops)))
            elif r < 0.55:
                # Each work-item writes only o[its id] (no races: any schedule agrees).
                out.append(b.store(self.o, b.gid(0), self.expr(1, loops),
                                   check=self.check("o")))  # fmt: skip
            elif r < 0.75:
                out.append(b.if_(self.cond(loops), self.block(depth - 1, loops, in_loop),
                                 self.block(depth - 1, loops, in_loop)))  # fmt: skip
            elif r < 0.9 and loops < 3:
                start, stop = self.rng.randint(-3, 3), self.rng.randint(-3, 6)
                step = self.rng.choice([1, 2, -1, 3])
                out.append(b.for_(f"l{loops}", start, stop, step,
                                  self.block(depth - 1, loops + 1, True)))  # fmt: skip
            elif in_loop:
                out.append(b.if_(self.cond(loops), [self.rng.choice([n.Break(), n.Continue()])]))
        return out


@pytest.mark.parametrize("checked", [True, False])
@pytest.mark.parametrize("seed", range(int(os.environ.get("GPUOFF_FUZZ_SEEDS", "6")) * 2))
def test_random_statement_kernels_match_interpreter(seed: int, checked: bool) -> None:
    # Unchecked: every index is in range (a has 23 elements, o one per work-item), and the
    # CPU may run loops at group level (codegen.cpu_interchange).
    g = StmtGen(seed)
    body: list[n.Stmt] = [b.assign(f"v{k}", b.c(k)) for k in range(3)]
    body += g.block(3, 0, False)
    res = b.ref("res", b.mut(t.i64, 2))
    body += [b.store(res, (b.gid(0), k), b.var(f"v{k}")) for k in range(3)]
    params = [b.param("a", g.a.type), b.param("o", g.o.type), b.param("res", res.type)]
    locals_ = {f"v{k}": t.i64 for k in range(3)} | {f"l{k}": t.i64 for k in range(3)}
    k = b.kernel("sfuzz", params, body, locals_)
    m = dataclasses.replace(b.module(k, checks=g.checks), boundscheck=checked)
    a = np.arange(20 if checked else 23, dtype=np.int64) * 3 - 7
    o = np.zeros(37 if checked else 40, dtype=np.int64)  # checked: ids 37..39 out of range
    out = np.zeros((40, 3), dtype=np.int64)
    err, msg = both(m, [a, o, out], 40)
    assert (err[0] != 0) == (msg is not None)
