"""What the LLVM lowering's modules share: LLVM types and value helpers, and ``Lowering``.

``codegen.llvm`` (the hub: ``Target``, ``ModuleLowerer``, ``FunctionLowerer``) imports the
handlers ``codegen.llvm_ops`` (expressions) and ``codegen.llvm_stmt`` (statements); the
handlers see the function being lowered only through the ``Lowering`` protocol declared here,
so imports run one way::

    llvm_base  <-  llvm_ops, llvm_stmt  <-  llvm  <-  cpu, nvptx, cpu_* ...

The recursion of the lowering (an expression handler lowers its operands) goes through
``Lowering.expr`` and ``Lowering.lower_body``; target hooks through ``Lowering.math_call``
and its siblings, which ``FunctionLowerer`` forwards to its ``Target``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from llvmlite import ir as ll

from gpuoff.ir import nodes as n
from gpuoff.ir import types as t

LLVM_LOCK = threading.Lock()
"""Hold while using llvmlite.binding (parse, optimise, emit): LLVM's global context and shared
target machines are not thread-safe. Every LLVM target should take it."""

I1 = ll.IntType(1)
I8 = ll.IntType(8)
I32 = ll.IntType(32)
I64 = ll.IntType(64)
PTR = ll.PointerType()
WI_SLOTS = 18


def llvm_type(st: t.ScalarType) -> ll.Type:
    """Register type of a scalar (bool is i1)."""
    if st.is_float:
        return {16: ll.HalfType(), 32: ll.FloatType(), 64: ll.DoubleType()}[st.bits]
    return ll.IntType(st.bits)


def memory_type(st: t.ScalarType) -> ll.Type:
    """In-memory type of an array element (bool is one byte, as in NumPy)."""
    return I8 if st.is_bool else llvm_type(st)


def const(st: t.ScalarType, value: int | float | bool) -> ll.Constant:
    """An LLVM constant of scalar type ``st``."""
    if st.is_float:
        return ll.Constant(llvm_type(st), float(value))
    v = int(value)
    if st.is_bool:
        v = 1 if v else 0
    return ll.Constant(llvm_type(st), v & ((1 << st.bits) - 1))


@dataclass
class ArrayValue:
    """An array as values at the current point: data pointer, shape and strides (i64)."""

    type: t.ArrayType
    ptr: ll.Value
    shape: list[ll.Value]
    strides: list[ll.Value]


def static_size(at: t.ArrayType) -> int:
    """Elements of a shared or private array (its static shape's product)."""
    size = 1
    for d in at.static_shape or ():
        size *= d
    return size


def static_array_value(at: t.ArrayType, ptr: ll.Value) -> ArrayValue:
    """A shared or private array of static shape stored at ``ptr`` in C order."""
    shape = list(at.static_shape or ())
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    return ArrayValue(at, ptr, [ll.Constant(I64, s) for s in shape],
                      [ll.Constant(I64, s) for s in strides])  # fmt: skip


def gep(builder: ll.IRBuilder, elem: ll.Type, ptr: ll.Value, index: ll.Value) -> ll.Value:
    """``getelementptr elem, ptr, index`` (opaque pointers)."""
    g = builder.gep(ptr, [index], source_etype=elem)
    # llvmlite's IR layer still tracks pointee types for allocas; keep results opaque so a
    # store of the element type is accepted whatever the base pointer's history.
    g.type = ll.PointerType(addrspace=ptr.type.addrspace)
    return g


def opaque_alloca(
    builder: ll.IRBuilder, ty: ll.Type, count: ll.Value | None = None, name: str = ""
) -> ll.Value:
    """``alloca`` whose result is an opaque ``ptr`` (see ``gep``)."""
    a = builder.alloca(ty, size=count, name=name)
    a.type = PTR
    return a


def alloca_block(fn: ll.Function) -> tuple[ll.Block, ll.Block]:
    """(alloca block, body block): the entry holds only allocas and branches to the body."""
    allocas = fn.append_basic_block("allocas")
    body = fn.append_basic_block("entry")
    ll.IRBuilder(allocas).branch(body)
    return allocas, body


def derived_strides(builder: ll.IRBuilder, shape: Sequence[ll.Value]) -> list[ll.Value]:
    """C-contiguous element strides from a shape (never loaded: lets LLVM see unit stride)."""
    strides: list[ll.Value] = [ll.Constant(I64, 1)] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = builder.mul(strides[d + 1], shape[d + 1], flags=["nsw"])
    return strides


class ModuleLowering(Protocol):
    """The module being built, as the handlers see it (``codegen.llvm.ModuleLowerer``)."""

    @property
    def ir(self) -> n.Module: ...

    @property
    def llmod(self) -> ll.Module: ...

    @property
    def fastmath(self) -> tuple[str, ...]:
        """LLVM fast-math flags for float instructions (the target's ``fastmath_flags``)."""

    @property
    def functions(self) -> dict[str, ll.Function]:
        """The emitted device functions by IR name."""

    @property
    def uses_wi(self) -> set[str]:
        """Functions that query work-item values, directly or through calls."""

    @property
    def checks(self) -> set[str]:
        """Device functions with a bounds check, directly or through calls."""

    def declare(self, name: str, ret: ll.Type, args: Sequence[ll.Type]) -> ll.Function:
        """Get or declare an external function or intrinsic by exact name."""


class Lowering(Protocol):
    """One function being lowered, as the expression and statement handlers see it
    (``codegen.llvm.FunctionLowerer``; its docstring describes the fields)."""

    @property
    def ml(self) -> ModuleLowering: ...

    @property
    def fn(self) -> n.Function: ...

    @property
    def builder(self) -> ll.IRBuilder: ...

    @property
    def arrays(self) -> dict[str, ArrayValue]: ...

    @property
    def slots(self) -> dict[str, ll.Value]: ...

    @property
    def loops(self) -> list[tuple[ll.Block, ll.Block]]:
        """(continue target, break target) of the enclosing loops, innermost last."""

    @property
    def side_effects(self) -> bool:
        """False while code is re-run only to find failing checks: no stores, no atomics."""

    @property
    def return_slot(self) -> ll.Value | None: ...

    @property
    def return_block(self) -> ll.Block | None: ...

    @property
    def device_wi_context(self) -> bool:
        """Whether device-function calls pass a work-item block (the target's choice)."""

    def expr(self, e: n.Expr) -> ll.Value:
        """Lower expression ``e`` here and return its value."""

    def lower_body(self, stmts: Sequence[n.Stmt]) -> None:
        """Lower statements here."""

    def new_block(self, name: str) -> ll.Block: ...

    def branch_if_open(self, target: ll.Block) -> None: ...

    def element_pointer(
        self, ref: n.ArrayRef, indices: Sequence[n.Expr], check: int | None
    ) -> tuple[ArrayValue, ll.Value, ll.Value | None]:
        """(array, element pointer, in-range flag or None) for ``ref[indices]``."""

    def work_item(self, name: str, dim: int) -> ll.Value: ...

    def fill_wi_context(self) -> ll.Value: ...

    def math_call(self, name: str, args: list[ll.Value], st: t.ScalarType) -> ll.Value:
        """The target's ``math_call`` hook."""

    def atomic_rmw(self, op: str, ptr: ll.Value, value: ll.Value, st: t.ScalarType,
                   compare: ll.Value | None = None) -> ll.Value:  # fmt: skip
        """The target's ``atomic_rmw`` hook (``compare``: ``cas``'s expected value)."""

    def barrier(self) -> None:
        """The target's ``barrier`` hook."""

    def frem(self, a: ll.Value, d: ll.Value, st: t.ScalarType) -> ll.Value:
        """The target's ``frem`` hook: the exact remainder (C's ``fmod``)."""

    def call_check_state(self) -> tuple[ll.Value, ll.Value]:
        """The target's ``call_check_state`` hook: what a device-function call passes."""


__all__ = [
    "I1", "I8", "I32", "I64", "LLVM_LOCK", "PTR", "WI_SLOTS", "ArrayValue", "Lowering",
    "ModuleLowering", "alloca_block", "const", "derived_strides", "gep", "llvm_type",
    "memory_type", "opaque_alloca", "static_array_value", "static_size",
]  # fmt: skip
