"""The reference interpreter: the executable definition of every IR node's docstring.

Slow and exact; it is the oracle every backend is tested against.

``run(module, args, grid, block=None)`` runs the kernel of ``module`` over ``grid`` work-items:

* ``args``: one per kernel parameter, NumPy arrays (read and modified in place, through their
  strides, so views work) and Python/NumPy scalars (converted to the parameter's type).
* ``grid``: an int or a tuple of 1-3 ints (0 runs nothing).
* ``block``: the work-group size, a tuple as long as ``grid``; each grid dimension must be a
  multiple of it (``ValueError`` otherwise). Default: ``min(grid[d], 64)`` per dimension, the
  total capped at 1024 work-items, filled from dimension 0 (later dimensions shrink first).
  Work-items of a default block's last, partial group whose ids fall outside the grid do not
  run; ``local_size`` is still the block size there.
* Work-items of one group are Python generators advanced in lockstep from ``Barrier`` to
  ``Barrier``, so barrier kernels are exact; each group gets fresh shared arrays (zeroed: the
  IR leaves their contents undefined, zero makes the oracle deterministic), and each
  activation of a function fresh private arrays (zeroed too). Groups, and the
  items of a group between barriers, run in order (dimension 0 fastest); atomics are
  trivially atomic.
* Bounds: a checked out-of-range access does nothing (a load yields 0); after the launch
  ``BoundsError`` reports the failure ``gpuoff.ir.bounds.failure_order`` puts first (the
  lowest work-item, then the lowest check id, then the first), with the message of
  ``gpuoff.ir.bounds.bounds_error_message``.
* Undefined behaviour the oracle can see (an unchecked out-of-range access, a barrier not
  reached by the whole group, a barrier in a device function) raises ``UndefinedBehaviorError``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gpuoff.errors import LaunchTypeError
from gpuoff.ir import interp_ops as ops
from gpuoff.ir import nodes as n
from gpuoff.ir.bounds import failure_order, item_id, launch_error
from gpuoff.ir.types import ArrayType, ScalarType

Value = np.generic
NDArray = np.ndarray[Any, Any]

DEFAULT_BLOCK_DIM = 64
DEFAULT_BLOCK_TOTAL = 1024


class UndefinedBehaviorError(RuntimeError):
    """The kernel did something whose result the IR leaves undefined."""


class _Break:
    pass


class _Continue:
    pass


@dataclass(frozen=True)
class _Return:
    value: Value | None


_BREAK = _Break()
_CONTINUE = _Continue()
Signal = _Break | _Continue | _Return | None
Exec = Generator[None, None, Signal]


@dataclass
class _Frame:
    """One activation of a function: its scalars (params and locals) and arrays."""

    fn: n.Function
    scalars: dict[str, Value]
    arrays: dict[str, NDArray]


@dataclass(frozen=True)
class _Item:
    """Ids and sizes of one work-item (three dimensions, unused ones are 0 / 1)."""

    global_id: tuple[int, int, int]
    local_id: tuple[int, int, int]
    group_id: tuple[int, int, int]
    global_size: tuple[int, int, int]
    local_size: tuple[int, int, int]
    num_groups: tuple[int, int, int]


@dataclass
class _ErrorRecord:
    check: int
    indices: tuple[int, ...]
    shape: tuple[int, ...]
    item: int = 0


@dataclass
class _State:
    module: n.Module
    error: _ErrorRecord | None = None
    shape_of: dict[int, tuple[int, ...]] = field(default_factory=dict)

    def record(
        self, check: int, indices: tuple[int, ...], shape: tuple[int, ...], item: int
    ) -> None:
        e = self.error
        if e is None or failure_order(item, check) < failure_order(e.item, e.check):
            self.error = _ErrorRecord(check, indices, shape, item)


def normalize_grid(
    grid: int | Sequence[int], block: int | Sequence[int] | None = None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Validate ``grid``/``block`` and return them as equal-length tuples (block defaulted)."""
    g = (grid,) if isinstance(grid, int | np.integer) else tuple(grid)
    if not 1 <= len(g) <= 3 or any(int(x) < 0 for x in g):
        raise ValueError(f"grid must be an int or a tuple of 1-3 non-negative ints, got {grid!r}")
    g = tuple(int(x) for x in g)
    if block is None:
        b: list[int] = []
        for x in g:
            room = max(DEFAULT_BLOCK_TOTAL // math.prod(b), 1)
            b.append(max(1, min(x, DEFAULT_BLOCK_DIM, room)))
        return g, tuple(b)
    bl = (block,) if isinstance(block, int | np.integer) else tuple(block)
    if len(bl) != len(g) or any(int(x) < 1 for x in bl):
        raise ValueError(f"block {block!r} must have one positive int per grid dimension {g}")
    bl = tuple(int(x) for x in bl)
    for gd, bd in zip(g, bl, strict=True):
        if gd % bd:
            raise ValueError(f"grid {g} is not a multiple of block {bl}")
    return g, bl


def run(
    module: n.Module,
    args: Sequence[object],
    grid: int | Sequence[int],
    block: int | Sequence[int] | None = None,
) -> None:
    """Run ``module``'s kernel over ``grid`` work-items (see the module docstring)."""
    g, b = normalize_grid(grid, block)
    kernel = module.kernel
    bound = _bind_args(kernel, args)
    g3 = _pad(g, 1)
    b3 = _pad(b, 1)
    groups = _pad(tuple(-(-gd // bd) for gd, bd in zip(g3, b3, strict=True)), 1)
    state = _State(module)
    interp = _Interpreter(state)
    with np.errstate(all="ignore"):
        for gz in range(groups[2]):
            for gy in range(groups[1]):
                for gx in range(groups[0]):
                    interp.run_group(bound, (gx, gy, gz), g3, b3, groups)
    if state.error is not None:
        e = state.error
        raise launch_error(module, e.check, e.indices, e.shape)


def _pad(t: tuple[int, ...], fill: int) -> tuple[int, int, int]:
    p = t + (fill,) * (3 - len(t))
    return (p[0], p[1], p[2])


def _bind_args(kernel: n.Function, args: Sequence[object]) -> dict[str, Value | NDArray]:
    if len(args) != len(kernel.params):
        raise LaunchTypeError(
            f"{kernel.name} takes {len(kernel.params)} arguments, {len(args)} given"
        )
    bound: dict[str, Value | NDArray] = {}
    for p, a in zip(kernel.params, args, strict=True):
        if isinstance(p.type, ArrayType):
            if not isinstance(a, np.ndarray):
                raise LaunchTypeError(f"parameter {p.name!r} expects an array, got {type(a)}")
            if a.dtype != p.type.dtype.np_dtype or a.ndim != p.type.ndim:
                raise LaunchTypeError(
                    f"parameter {p.name!r} expects {p.type}, got {a.dtype} with ndim {a.ndim}"
                )
            bound[p.name] = a
        else:
            bound[p.name] = _scalar_arg(p.name, a, p.type)
    return bound


def _scalar_arg(name: str, a: object, t: ScalarType) -> Value:
    if isinstance(a, np.ndarray) or not isinstance(a, int | float | bool | np.generic):
        raise LaunchTypeError(f"parameter {name!r} expects a {t} scalar, got {type(a)}")
    if t.is_int:
        v = int(a)
        lo, hi = ops.int_range(t)
        if not lo <= v <= hi or v != a:
            raise LaunchTypeError(f"parameter {name!r}: {a!r} does not fit {t}")
        return ops.make(v, t)
    if t.is_bool:
        return np.bool_(bool(a))
    return ops.make(float(a), t)


class _Interpreter:
    """Evaluates expressions and executes statements for one launch."""

    def __init__(self, state: _State) -> None:
        self.state = state
        self.module = state.module
        self._eval: dict[type[n.Expr], Callable[[Any, _Frame, _Item], Value]] = {
            n.Const: self._const,
            n.Var: self._var,
            n.Unary: self._unary,
            n.Binary: self._binary,
            n.Compare: self._compare,
            n.Logical: self._logical,
            n.Select: self._select,
            n.Cast: self._cast,
            n.Load: self._load,
            n.ShapeOf: self._shape_of,
            n.WorkItem: self._work_item,
            n.MathCall: self._math_call,
            n.Call: self._call,
            n.AtomicRMW: self._atomic,
        }

    # ---------------------------------------------------------------- groups and frames

    def run_group(
        self,
        bound: dict[str, Value | NDArray],
        group: tuple[int, int, int],
        g3: tuple[int, int, int],
        b3: tuple[int, int, int],
        groups: tuple[int, int, int],
    ) -> None:
        kernel = self.module.kernel
        shared = {
            s.name: np.zeros(s.type.static_shape or (), dtype=s.type.dtype.np_dtype)
            for s in kernel.shared
        }
        gens: list[Exec] = []
        for lz in range(b3[2]):
            for ly in range(b3[1]):
                for lx in range(b3[0]):
                    lid = (lx, ly, lz)
                    gid = _pad(tuple(group[d] * b3[d] + lid[d] for d in range(3)), 0)
                    if any(gid[d] >= g3[d] for d in range(3)):
                        continue
                    item = _Item(gid, lid, group, g3, b3, groups)
                    frame = self._frame(kernel, bound, shared)
                    gens.append(self.exec_block(kernel.body, frame, item))
        while gens:
            waiting: list[Exec] = []
            for gen in gens:
                try:
                    next(gen)
                    waiting.append(gen)
                except StopIteration:
                    pass
            if waiting and len(waiting) != len(gens):
                raise UndefinedBehaviorError(
                    f"barrier in kernel {kernel.name} not reached by every work-item of group "
                    f"{group}"
                )
            gens = waiting

    @staticmethod
    def _frame(
        fn: n.Function, bound: dict[str, Value | NDArray], extra_arrays: dict[str, NDArray]
    ) -> _Frame:
        scalars: dict[str, Value] = {k: ops.make(0, t) for k, t in fn.locals.items()}
        arrays: dict[str, NDArray] = dict(extra_arrays)
        # Private arrays: fresh per activation (zeroed: the IR leaves them undefined until
        # stored, and the front end stores before every read).
        for pa in fn.private:
            arrays[pa.name] = np.zeros(pa.type.static_shape or (), dtype=pa.type.dtype.np_dtype)
        for p in fn.params:
            v = bound[p.name]
            if isinstance(v, np.ndarray):
                arrays[p.name] = v
            else:
                scalars[p.name] = v
        return _Frame(fn, scalars, arrays)

    # ---------------------------------------------------------------- statements

    def exec_block(self, body: tuple[n.Stmt, ...], frame: _Frame, item: _Item) -> Exec:
        for stmt in body:
            sig = yield from self.exec_stmt(stmt, frame, item)
            if sig is not None:
                return sig
        return None

    def exec_stmt(self, s: n.Stmt, frame: _Frame, item: _Item) -> Exec:
        if isinstance(s, n.Assign):
            frame.scalars[s.target] = self.eval(s.value, frame, item)
        elif isinstance(s, n.Store):
            self._store(s, frame, item)
        elif isinstance(s, n.If):
            cond = bool(self.eval(s.cond, frame, item))
            return (yield from self.exec_block(s.body if cond else s.orelse, frame, item))
        elif isinstance(s, n.ForRange):
            return (yield from self._for_range(s, frame, item))
        elif isinstance(s, n.While):
            while bool(self.eval(s.cond, frame, item)):
                sig = yield from self.exec_block(s.body, frame, item)
                if isinstance(sig, _Break):
                    break
                if isinstance(sig, _Return):
                    return sig
        elif isinstance(s, n.Break):
            return _BREAK
        elif isinstance(s, n.Continue):
            return _CONTINUE
        elif isinstance(s, n.Return):
            value = None if s.value is None else self.eval(s.value, frame, item)
            return _Return(value)
        elif isinstance(s, n.ExprStmt):
            self.eval(s.expr, frame, item)
        elif isinstance(s, n.Barrier):
            yield None
        else:
            raise TypeError(f"not a statement: {s!r}")
        return None

    def _for_range(self, s: n.ForRange, frame: _Frame, item: _Item) -> Exec:
        start = int(self.eval(s.start, frame, item))
        stop = int(self.eval(s.stop, frame, item))
        step = int(self.eval(s.step, frame, item))
        t = s.start.type
        if step == 0:
            return None
        # Python's range semantics on the values as evaluated; the loop variable's own
        # type holds every value in [start, stop), so no wrapping can occur.
        for i in range(start, stop, step):
            frame.scalars[s.var] = ops.make(i, t)
            sig = yield from self.exec_block(s.body, frame, item)
            if isinstance(sig, _Break):
                break
            if isinstance(sig, _Return):
                return sig
        return None

    def _store(self, s: n.Store, frame: _Frame, item: _Item) -> None:
        arr = frame.arrays[s.array.name]
        # Python evaluates the right-hand side before the target's subscripts.
        value = self.eval(s.value, frame, item)
        idx = self._indices(s.array, arr, s.indices, s.check, frame, item)
        if idx is not None:
            arr[idx] = value

    # ---------------------------------------------------------------- expressions

    def eval(self, e: n.Expr, frame: _Frame, item: _Item) -> Value:
        return self._eval[type(e)](e, frame, item)

    def _const(self, e: n.Const, frame: _Frame, item: _Item) -> Value:
        return ops.make(e.value, e.type)

    def _var(self, e: n.Var, frame: _Frame, item: _Item) -> Value:
        return frame.scalars[e.name]

    def _unary(self, e: n.Unary, frame: _Frame, item: _Item) -> Value:
        return ops.unary(e.op, self.eval(e.operand, frame, item), e.type)

    def _binary(self, e: n.Binary, frame: _Frame, item: _Item) -> Value:
        a = self.eval(e.lhs, frame, item)
        b = self.eval(e.rhs, frame, item)
        return ops.binary(e.op, a, b, e.type)

    def _compare(self, e: n.Compare, frame: _Frame, item: _Item) -> Value:
        a = self.eval(e.lhs, frame, item)
        b = self.eval(e.rhs, frame, item)
        return ops.compare(e.op, a, b, e.lhs.type)

    def _logical(self, e: n.Logical, frame: _Frame, item: _Item) -> Value:
        lhs = bool(self.eval(e.lhs, frame, item))
        if (e.op == "and") != lhs:
            return np.bool_(lhs)
        return np.bool_(bool(self.eval(e.rhs, frame, item)))

    def _select(self, e: n.Select, frame: _Frame, item: _Item) -> Value:
        chosen = e.if_true if bool(self.eval(e.cond, frame, item)) else e.if_false
        return self.eval(chosen, frame, item)

    def _cast(self, e: n.Cast, frame: _Frame, item: _Item) -> Value:
        return ops.cast(self.eval(e.value, frame, item), e.value.type, e.type)

    def _load(self, e: n.Load, frame: _Frame, item: _Item) -> Value:
        arr = frame.arrays[e.array.name]
        idx = self._indices(e.array, arr, e.indices, e.check, frame, item)
        if idx is None:
            return ops.make(0, e.type)
        return arr[idx]  # type: ignore[no-any-return]

    def _shape_of(self, e: n.ShapeOf, frame: _Frame, item: _Item) -> Value:
        return np.int64(frame.arrays[e.array.name].shape[e.dim])

    def _work_item(self, e: n.WorkItem, frame: _Frame, item: _Item) -> Value:
        values: tuple[int, int, int] = getattr(item, e.name)
        return np.int64(values[e.dim])

    def _math_call(self, e: n.MathCall, frame: _Frame, item: _Item) -> Value:
        args = [self.eval(a, frame, item) for a in e.args]
        return ops.math_call(e.name, args, [a.type for a in e.args], e.type)

    def _atomic(self, e: n.AtomicRMW, frame: _Frame, item: _Item) -> Value:
        arr = frame.arrays[e.array.name]
        idx = self._indices(e.array, arr, e.indices, e.check, frame, item)
        compare = None if e.compare is None else self.eval(e.compare, frame, item)
        value = self.eval(e.value, frame, item)
        if idx is None:
            return ops.make(0, e.type)
        old: Value = arr[idx]
        arr[idx] = ops.atomic(e.op, old, value, e.type, compare)
        return old

    def _call(self, e: n.Call, frame: _Frame, item: _Item) -> Value:
        callee = self.module.function(e.callee)
        bound: dict[str, Value | NDArray] = {}
        for p, a in zip(callee.params, e.args, strict=True):
            if isinstance(a, n.ArrayRef):
                bound[p.name] = frame.arrays[a.name]
            else:
                bound[p.name] = self.eval(a, frame, item)
        inner = self._frame(callee, bound, {})
        gen = self.exec_block(callee.body, inner, item)
        try:
            next(gen)
        except StopIteration as stop:
            sig = stop.value
        else:
            raise UndefinedBehaviorError(f"barrier inside device function {callee.name}")
        if isinstance(sig, _Return) and sig.value is not None:
            return sig.value
        if callee.return_type is not None:
            # Falling off the end of a value-returning function: undefined in C; the
            # oracle says so instead of inventing a value.
            raise UndefinedBehaviorError(f"device function {callee.name} returned no value")
        return np.bool_(False)

    def _indices(
        self,
        ref: n.ArrayRef,
        arr: NDArray,
        index_exprs: tuple[n.Expr, ...],
        check: int | None,
        frame: _Frame,
        item: _Item,
    ) -> tuple[int, ...] | None:
        idx = tuple(int(self.eval(i, frame, item)) for i in index_exprs)
        if all(0 <= i < s for i, s in zip(idx, arr.shape, strict=True)):
            return idx
        if check is None:
            raise UndefinedBehaviorError(
                f"unchecked out-of-range access {ref.name}{list(idx)} with shape {arr.shape}"
            )
        self.state.record(check, idx, tuple(arr.shape), item_id(item.global_id, item.global_size))
        return None
