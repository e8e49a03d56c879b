"""Random expression kernels: the CPU backend must agree with the interpreter bit for bit.

``GPUOFF_FUZZ_SEEDS=N`` runs N seeds per type instead of 6 (a longer hunt)."""

from __future__ import annotations

import os
import random

import irbuild as b
import numpy as np
import pytest
from test_codegen_cpu_ops import both

from gpuoff.ir import nodes as n
from gpuoff.ir import types as t

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
