"""What the libm-free math lowering (``codegen.nvptx_math``, ``codegen.nvptx_libm``) shares: the
f64 builder shorthands (``Emit``), the table of function bodies both fill (``BODIES``: name ->
body emitting the f64 code; ``ARITY`` for those of two arguments) and ``define``, which emits
one body as an internal LLVM function on first use. A leaf: bodies call each other through
``Emit.call(name)``, by name, so neither body module imports the other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from llvmlite import ir as ll

F64 = ll.DoubleType()
I64 = ll.IntType(64)
I1 = ll.IntType(1)

BODIES: dict[str, Callable[..., ll.Value]] = {}
"""Function name -> ``body(emit, *args) -> value``, filled by the body modules."""

ARITY: dict[str, int] = {"pow": 2, "atan2": 2, "hypot": 2, "fmod": 2, "remainder": 2}
"""Functions of two arguments (the others take one)."""


class Emit:
    """Builder shorthands for f64 code."""

    def __init__(self, llmod: ll.Module, b: ll.IRBuilder) -> None:
        self.m = llmod
        self.b = b

    def c(self, v: float) -> ll.Constant:
        return ll.Constant(F64, v)

    def intr(self, name: str, *args: ll.Value) -> ll.Value:
        fn = self.m.globals.get(name)
        if not isinstance(fn, ll.Function):
            fn = ll.Function(self.m, ll.FunctionType(F64, [F64] * len(args)), name=name)
        return self.b.call(fn, list(args))

    def fma(self, a: ll.Value, x: ll.Value, c: ll.Value) -> ll.Value:
        return self.intr("llvm.fma.f64", a, x, c)

    def horner(self, x: ll.Value, coeffs: Sequence[float]) -> ll.Value:
        acc: ll.Value = self.c(coeffs[-1])
        for k in reversed(coeffs[:-1]):
            acc = self.fma(acc, x, self.c(k))
        return acc

    def cmp(self, op: str, a: ll.Value, b: ll.Value | float) -> ll.Value:
        rhs = self.c(b) if isinstance(b, float) else b
        return self.b.fcmp_ordered(op, a, rhs)

    def sel(self, cond: ll.Value, a: ll.Value | float, b: ll.Value | float) -> ll.Value:
        va = self.c(a) if isinstance(a, float) else a
        vb = self.c(b) if isinstance(b, float) else b
        return self.b.select(cond, va, vb)

    def isnan(self, x: ll.Value) -> ll.Value:
        return self.b.fcmp_unordered("uno", x, x)

    def pow2(self, k: ll.Value) -> ll.Value:
        """2^k for an i64 k in [-1022, 1023], built from the exponent bits."""
        bits = self.b.shl(self.b.add(k, ll.Constant(I64, 1023)), ll.Constant(I64, 52))
        return self.b.bitcast(bits, F64)

    def call(self, name: str, *args: ll.Value) -> ll.Value:
        """Call f64 function ``name`` of ``BODIES`` (defined in this module on first use)."""
        return self.b.call(define(self.m, name), list(args))


def define(llmod: ll.Module, name: str) -> ll.Function:
    """The internal f64 function ``gpuoff.<name>.f64`` of ``llmod``, emitted on first use."""
    fname = f"gpuoff.{name}.f64"
    existing = llmod.globals.get(fname)
    if isinstance(existing, ll.Function):
        return existing
    fn = ll.Function(llmod, ll.FunctionType(F64, [F64] * ARITY.get(name, 1)), name=fname)
    fn.linkage = "internal"
    e = Emit(llmod, ll.IRBuilder(fn.append_basic_block("entry")))
    e.b.ret(BODIES[name](e, *fn.args))
    return fn
