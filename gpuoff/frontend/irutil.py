"""Small IR-building helpers: typed values, casts with constant folding, truthiness."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from gpuoff.frontend.typing_rules import VType
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T


class Val(NamedTuple):
    """A lowered scalar expression and whether it is weak (a Python literal, NEP 50)."""

    expr: N.Expr
    weak: bool = False

    @property
    def vtype(self) -> VType:
        return VType(self.expr.type, self.weak)


@dataclass(frozen=True)
class TupleVal:
    """A tuple value during lowering (tuples never reach the IR): its items, each a scalar
    ``Val`` or a nested ``TupleVal``. Locals holding tuples are one IR local per scalar item;
    device functions take them as one parameter per item and return them through private
    out-arrays."""

    items: tuple[Val | TupleVal, ...]
    kind: str = ""
    """``""`` for a Python tuple; ``"complex"`` for a complex number, whose items are its
    real and imaginary parts (``frontend.complexes``): it keeps the kind in locals,
    parameters and results (``Kinded``), and its operators are the number's, not a tuple's."""

    def leaves(self) -> list[Val]:
        """The scalar items, depth first."""
        out: list[Val] = []
        for item in self.items:
            out.extend(item.leaves() if isinstance(item, TupleVal) else [item])
        return out

    @property
    def shape(self) -> TupleShape:
        items = tuple(item.shape if isinstance(item, TupleVal) else None for item in self.items)
        return Kinded(items, self.kind) if self.kind else items


TupleShape = tuple["TupleShape | None", ...]
"""The structure of a tuple: per item ``None`` (a scalar) or the item's own shape."""


class Kinded(tuple):  # type: ignore[type-arg]
    """A tuple shape (or result type) of a value that is no Python tuple: a complex number
    (``kind == "complex"``). Equal only to the same structure of the same kind."""

    kind: str

    def __new__(cls, items: tuple[object, ...], kind: str) -> Kinded:
        obj = super().__new__(cls, items)
        obj.kind = kind
        return obj

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Kinded) and other.kind == self.kind
                and tuple.__eq__(self, other))  # fmt: skip

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self.kind, tuple(self)))

    def __reduce__(self) -> tuple[object, ...]:
        return (Kinded, (tuple(self), self.kind))


def kind_of(shape: object) -> str:
    """The kind of a shape or result type (``""``: a plain tuple or a scalar)."""
    return shape.kind if isinstance(shape, Kinded) else ""

Value = Val | TupleVal
"""What a value-producing construct gives: a scalar or a tuple."""


@dataclass(frozen=True)
class ViewDim:
    """One base dimension of a view: a fixed ``index`` (the view drops it), or a window of
    ``length`` elements from ``start`` by ``step``; ``whole``: the window is the whole
    dimension (start 0, step 1, the base's size), so the base's check is the view's."""

    index: N.Expr | None = None
    start: N.Expr | None = None
    length: N.Expr | None = None
    step: int = 1
    whole: bool = False


ViewShape = tuple[tuple[bool, int, bool], ...]
"""A view's structure: per base dimension (fixed, step, whole)."""


@dataclass(frozen=True)
class ViewVal:
    """An array view while lowering (``frontend.views``): its base array and, per base
    dimension, a ``ViewDim``."""

    base: N.ArrayRef
    dims: tuple[ViewDim, ...]

    @property
    def windows(self) -> list[ViewDim]:
        return [d for d in self.dims if d.index is None]

    @property
    def structure(self) -> ViewShape:
        return tuple((d.index is not None, d.step, d.whole) for d in self.dims)


def shape_leaves(shape: TupleShape, prefix: str) -> list[str]:
    """Names ``prefix.0``, ``prefix.1.0``, ... of the scalar items of a tuple of ``shape``."""
    out: list[str] = []
    for k, item in enumerate(shape):
        name = f"{prefix}.{k}"
        out.extend(shape_leaves(item, name) if item is not None else [name])
    return out


def rebuild(shape: TupleShape, leaves: list[Val]) -> TupleVal:
    """The tuple of ``shape`` whose scalar items are ``leaves`` (depth first)."""
    it = iter(leaves)

    def build(sh: TupleShape) -> TupleVal:
        items = tuple(build(x) if x is not None else next(it) for x in sh)
        return TupleVal(items, kind_of(sh))

    return build(shape)


def shape_text(shape: TupleShape) -> str:
    """``(_, (_, _))``: a tuple's structure as the user would see it."""
    if kind_of(shape) == "complex":
        return "complex"
    inner = ", ".join("_" if x is None else shape_text(x) for x in shape)
    return f"({inner},)" if len(shape) == 1 else f"({inner})"


def const_value(value: int | float | bool, t: T.ScalarType) -> int | float | bool:
    """``value`` converted to ``t`` with ``Cast``'s semantics (so folding changes nothing)."""
    if t.is_bool:
        return bool(value)
    if t.is_float:
        v = float(value)
        return float(np.float32(v)) if t.bits == 32 else float(np.float16(v)) if t.bits == 16 else v
    if isinstance(value, float):
        if math.isnan(value):
            return 0
        info = np.iinfo(t.np_dtype)  # type: ignore[type-var]
        if math.isinf(value):
            return int(info.max) if value > 0 else int(info.min)
        return min(max(int(value), int(info.min)), int(info.max))
    v = int(value) % (1 << t.bits)
    if t.is_signed and v >= 1 << (t.bits - 1):
        v -= 1 << t.bits
    return v


def const(value: int | float | bool, t: T.ScalarType, loc: N.Loc | None = None) -> N.Const:
    """A ``Const`` of type ``t`` holding ``value`` converted to ``t``."""
    return N.Const(t, const_value(value, t), loc=loc)


def cast(expr: N.Expr, t: T.ScalarType) -> N.Expr:
    """``expr`` converted to ``t`` (no node if it already has type ``t``; constants fold)."""
    if expr.type == t:
        return expr
    if isinstance(expr, N.Const):
        return const(expr.value, t, expr.loc)
    return N.Cast(t, expr, loc=expr.loc)


def truth(expr: N.Expr) -> N.Expr:
    """Python truthiness of a scalar as a bool expression (``x != 0`` for numbers)."""
    if expr.type.is_bool:
        return expr
    if isinstance(expr, N.Const):
        return N.Const(T.boolean, bool(expr.value), loc=expr.loc)
    return N.Compare(T.boolean, "ne", expr, const(0, expr.type, expr.loc), loc=expr.loc)


def children(node: object) -> Iterator[N.Node]:
    """Direct IR children of a node (expressions, array refs and statements)."""
    if not dataclasses.is_dataclass(node):
        return
    for f in dataclasses.fields(node):
        if f.name == "loc":
            continue
        value = getattr(node, f.name)
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            if isinstance(item, N.Node):
                yield item


def mentions(node: N.Node, pred: Callable[[N.Node], bool]) -> bool:
    """Whether ``node`` or any node below it satisfies ``pred``."""
    if pred(node):
        return True
    return any(mentions(c, pred) for c in children(node))


def has_effects(expr: N.Expr) -> bool:
    """Whether evaluating ``expr`` may have an effect (a call or an atomic)."""
    return mentions(expr, lambda n: isinstance(n, N.Call | N.AtomicRMW))


def _int_op(op: str, a: int, b: int) -> int | None:
    if op in ("floordiv", "mod") and b == 0:
        return None  # the IR defines x // 0 == 0; leave it to the backends
    if op == "pow" and not 0 <= b <= 64:
        return None
    if op in ("lshift", "rshift") and not 0 <= b < 64:
        return None
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    if op == "floordiv":
        return a // b
    if op == "mod":
        return a % b
    if op == "pow":
        return int(a**b)
    if op == "bitand":
        return a & b
    if op == "bitor":
        return a | b
    if op == "bitxor":
        return a ^ b
    if op == "lshift":
        return a << b
    return a >> b


def fold_binary(
    op: str, t: T.ScalarType, a: N.Expr, b: N.Expr, loc: N.Loc | None = None
) -> N.Const | None:
    """``a op b`` as a constant when both are constants and the result is exact in ``t``
    (no wrap-around, no rounding to f32: those stay for the backend)."""
    if not (isinstance(a, N.Const) and isinstance(b, N.Const)):
        return None
    if t.is_int and not isinstance(a.value, float) and not isinstance(b.value, float):
        r = _int_op(op, int(a.value), int(b.value))
        if r is None or const_value(r, t) != r:
            return None
        return N.Const(t, r, loc=loc)
    if t == T.f64 and op in ("add", "sub", "mul", "truediv"):
        x, y = float(a.value), float(b.value)
        if op == "truediv" and y == 0.0:
            return None
        fr = {"add": x + y, "sub": x - y, "mul": x * y}.get(op)
        return N.Const(t, x / y if fr is None else fr, loc=loc)
    return None
