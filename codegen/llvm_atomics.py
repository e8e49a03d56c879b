"""Atomics in LLVM IR with the IR's semantics (``ir.nodes.AtomicRMW``), for every LLVM target.

Each op is one ``atomicrmw`` (``uinc_wrap``/``udec_wrap`` are CUDA's ``atomicInc``/``atomicDec``
exactly, so NVPTX selects ``atom.inc.u32``/``atom.dec.u32``) or, for ``cas``, one ``cmpxchg``
(floats on their bit patterns: ``cmpxchg`` takes integers only, and the IR compares bits).
Where a target has no instruction (f64 ``fadd`` before sm_60, float ``fmin``, 64-bit
``uinc_wrap``), LLVM's atomic expansion makes a compare-and-swap loop; nothing here differs per
target but the memory ordering. ``combine`` is the same update without atomicity, for memory
only one thread can see (the CPU's work-group-local arrays).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from llvmlite import ir as ll

from codegen.llvm_base import llvm_type
from gpuoff.ir import types as t


class Declare(Protocol):
    """``declare(name, return type, argument types)``: a module's intrinsic, declared once."""

    def __call__(self, name: str, ret: ll.Type, args: Sequence[ll.Type], /) -> ll.Function: ...


_INT_RMW = {"add": "add", "sub": "sub", "exch": "xchg", "and": "and", "or": "or", "xor": "xor",
            "inc": "uinc_wrap", "dec": "udec_wrap"}  # fmt: skip
_FLOAT_RMW = {"add": "fadd", "sub": "fsub", "exch": "xchg", "min": "fmin", "max": "fmax"}


def rmw_op(op: str, st: t.ScalarType) -> str:
    """The ``atomicrmw`` operation of IR atomic ``op`` on ``st`` (not ``cas``)."""
    if st.is_float:
        return _FLOAT_RMW[op]
    if op in ("min", "max"):
        return ("" if st.is_signed else "u") + op
    return _INT_RMW[op]


def emit_atomic(
    b: ll.IRBuilder,
    op: str,
    ptr: ll.Value,
    value: ll.Value,
    st: t.ScalarType,
    order: str,
    compare: ll.Value | None = None,
) -> ll.Value:
    """``AtomicRMW`` ``op`` on ``ptr`` with memory ``order`` (an LLVM ordering, optionally after
    a scope: ``syncscope("device") monotonic``); returns the old value."""
    if op == "sub" and st.is_float:
        # a - b is a + (-b) in IEEE arithmetic, and targets have float add atomics (NVPTX's
        # atom.add.f32/f64), not sub ones
        return b.atomic_rmw("fadd", ptr, b.fneg(value), order)
    if op != "cas":
        return b.atomic_rmw(rmw_op(op, st), ptr, value, order)
    assert compare is not None
    if not st.is_float:
        return b.extract_value(b.cmpxchg(ptr, compare, value, order, "monotonic"), 0)
    bits = ll.IntType(st.bits)
    pair = b.cmpxchg(ptr, b.bitcast(compare, bits), b.bitcast(value, bits), order, "monotonic")
    return b.bitcast(b.extract_value(pair, 0), llvm_type(st))


def combine(
    b: ll.IRBuilder,
    declare: Declare,
    op: str,
    old: ll.Value,
    value: ll.Value,
    st: t.ScalarType,
    compare: ll.Value | None = None,
) -> ll.Value:
    """The value ``AtomicRMW`` ``op`` stores over ``old`` (``atomicrmw``'s semantics; float
    ``fmin``/``fmax`` are ``minnum``/``maxnum``); ``declare(name, ret, args)`` declares an
    intrinsic."""
    ty = old.type
    if op == "exch":
        return value
    if op == "cas":
        assert compare is not None
        if st.is_float:
            bits = ll.IntType(st.bits)
            same = b.icmp_unsigned("==", b.bitcast(old, bits), b.bitcast(compare, bits))
        else:
            same = b.icmp_unsigned("==", old, compare)
        return b.select(same, value, old)
    if st.is_float:
        if op in ("add", "sub"):
            return b.fadd(old, value) if op == "add" else b.fsub(old, value)
        name = "minnum" if op == "min" else "maxnum"
        return b.call(declare(f"llvm.{name}.f{st.bits}", ty, [ty, ty]), [old, value])
    simple = {"add": b.add, "sub": b.sub, "and": b.and_, "or": b.or_, "xor": b.xor}
    if op in simple:
        return simple[op](old, value)
    if op in ("min", "max"):
        cmp = (b.icmp_signed if st.is_signed else b.icmp_unsigned)(
            "<" if op == "min" else ">", old, value
        )
        return b.select(cmp, old, value)
    zero, one = ll.Constant(ty, 0), ll.Constant(ty, 1)
    if op == "inc":
        return b.select(b.icmp_unsigned(">=", old, value), zero, b.add(old, one))
    assert op == "dec", op
    wrap = b.or_(b.icmp_unsigned("==", old, zero), b.icmp_unsigned(">", old, value))
    return b.select(wrap, value, b.sub(old, one))


__all__ = ["Declare", "combine", "emit_atomic", "rmw_op"]
