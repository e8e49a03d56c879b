"""gpuoff IR -> LLVM IR (llvmlite.ir), shared by every LLVM target (host CPU, NVPTX).

The lowering is target-neutral; whatever differs between targets goes through a ``Target``
object. **Hook API** (stable; subclass ``Target`` and override what differs):

``name``, ``triple``, ``data_layout``
    Stamped on the ``llvmlite.ir.Module``.
``global_addrspace`` / ``shared_addrspace``
    Address spaces of array parameters and of ``go.shared`` arrays (CPU: 0/0, NVPTX: 1/3).
``device_wi_context``
    True (CPU): device functions receive work-item values through a hidden pointer to an
    ``[18 x i64]`` block filled by the caller (ids 0..2: global_id, 3..5 local_id, 6..8
    group_id, 9..11 global_size, 12..14 local_size, 15..17 num_groups). False (GPU): device
    functions call ``work_item`` themselves (intrinsics) and the hidden pointer is null.
``fastmath_flags(module) -> tuple[str, ...]``
    LLVM fast-math flags put on float instructions (default: ``("fast",)`` iff
    ``module.fastmath``).
``work_item(fl, name, dim) -> ir.Value``
    An i64 work-item query (``ir.nodes.WORK_ITEM_FUNCS``) at ``fl.builder``'s position.
``math_call(fl, name, args, type) -> ir.Value``
    Lower ``MathCall``; the default (``default_math``) uses LLVM intrinsics and libm calls.
``atomic_rmw(fl, op, ptr, value, type) -> ir.Value``
    Atomic ``add``/``min``/``max`` on ``ptr`` returning the old value (default: ``atomicrmw``,
    ``fadd``/``fmin``/``fmax`` for floats, seq_cst).
``barrier(fl) -> None``
    Emit a work-group barrier (CPU: never called, the CPU target splits the body instead).
``frem(fl, a, d, type) -> ir.Value``
    The exact remainder of a float division, C's ``fmod`` (default: LLVM's ``frem``, which the
    host's libm computes exactly; NVPTX lowers ``frem`` inexactly and overrides this).
``bounds_check(fl, ok, check_id, indices, shape) -> None``
    Called right after a checked access's range test, in straight-line code: ``ok`` is i1
    (all indices in range). Record the error into ``fl.err_state`` (a pointer to
    ``ERROR_RECORD_LEN`` i64). The default updates it without branching (the lowest failing
    check id of the work-item, its first failure: ``gpuoff.ir.bounds.failure_order``) so loops
    stay vectorisable; the target publishes it into the launch's err block once per work-item,
    keeping the lowest work-item's.
``shared_array(ml, shared) -> ir.Value``
    Pointer to a work-group array (CPU: an alloca of the group function; NVPTX: an
    ``addrspace(3)`` global).

Kernels are emitted by the target (``FunctionLowerer`` lowers statements at any builder
position); device functions are emitted here as ``internal alwaysinline`` functions with
params (scalars..., per array: ptr, shape[ndim], strides[ndim]), then ``ptr err_state``,
``ptr wi_context``, ``i32 check_mode`` (how ``bounds_check`` records in the callee: 0 exact
record at ``err_state`` (default), other values target-defined; see ``call_check_state``).

``call_check_state(fl) -> (ll.Value, ll.Value)``
    The ``(err_state, check_mode)`` a device-function call passes (default: the caller's
    ``fl.err_state`` and ``fl.check_mode``, 0 in kernels).

``FunctionLowerer`` fields a target may set: ``wi_values`` (work-item values by
``(name, dim)``, for targets whose ``work_item`` reads them), ``target_state`` (anything the
target's hooks need), ``side_effects`` (False: ``Store``/``AtomicRMW`` skip their memory
access, for code re-run only to find failing checks), ``return_block``, ``err_state``.

Helpers for targets: ``alloca_block`` (entry block of allocas), ``opaque_alloca``/``gep``
(opaque-pointer results), ``derived_strides``, ``new_error_record``/``flush_error_record``.
The types and value helpers live in ``codegen.llvm_base`` (shared with the expression and
statement handlers, ``codegen.llvm_ops`` and ``codegen.llvm_stmt``) and are re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from llvmlite import ir as ll

from codegen.abi import ERROR_RECORD_LEN, SHAPE_SLOT
from codegen.llvm_atomics import emit_atomic
from codegen.llvm_base import (
    I1,
    I8,
    I32,
    I64,
    LLVM_LOCK,
    PTR,
    WI_SLOTS,
    ArrayValue,
    alloca_block,
    const,
    derived_strides,
    gep,
    llvm_type,
    memory_type,
    opaque_alloca,
    static_array_value,
    static_size,
)
from codegen.llvm_ops import default_math, lower_expr
from codegen.llvm_stmt import lower_stmt
from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from gpuoff.ir.walk import calls_and_work_items, walk_exprs, walk_stmts


class Target:
    """Target hooks (see the module docstring); this base is a complete generic target."""

    name = "generic"
    triple = ""
    data_layout = ""
    global_addrspace = 0
    shared_addrspace = 0
    device_wi_context = True

    def fastmath_flags(self, module: n.Module) -> tuple[str, ...]:
        return ("fast",) if module.fastmath else ()

    def work_item(self, fl: FunctionLowerer, name: str, dim: int) -> ll.Value:
        raise NotImplementedError(f"{self.name}: work-item query {name}({dim})")

    def math_call(
        self, fl: FunctionLowerer, name: str, args: list[ll.Value], st: t.ScalarType
    ) -> ll.Value:
        return default_math(fl, name, args, st)

    def atomic_rmw(
        self, fl: FunctionLowerer, op: str, ptr: ll.Value, value: ll.Value, st: t.ScalarType,
        compare: ll.Value | None = None,
    ) -> ll.Value:
        return emit_atomic(fl.builder, op, ptr, value, st, "seq_cst", compare)

    def barrier(self, fl: FunctionLowerer) -> None:
        raise NotImplementedError(f"{self.name}: barrier")

    def frem(self, fl: FunctionLowerer, a: ll.Value, d: ll.Value, st: t.ScalarType) -> ll.Value:
        return fl.builder.frem(a, d)

    def call_check_state(self, fl: FunctionLowerer) -> tuple[ll.Value, ll.Value]:
        return fl.err_state, fl.check_mode

    def bounds_check(
        self, fl: FunctionLowerer, ok: ll.Value, check_id: int, indices: list[ll.Value],
        shape: list[ll.Value],
    ) -> None:
        # One work-item's record: its lowest failing check id, the first failure of that
        # check (gpuoff.ir.bounds.failure_order); selects, no branch, so loops vectorise.
        b = fl.builder
        slot0 = gep(b, I64, fl.err_state, ll.Constant(I64, 0))
        cur = b.load(slot0, typ=I64)
        cid = ll.Constant(I64, check_id)
        earlier = b.or_(b.icmp_unsigned("==", cur, ll.Constant(I64, 0)),
                        b.icmp_unsigned(">", cur, cid))  # fmt: skip
        take = b.and_(b.not_(ok), earlier)
        b.store(b.select(take, cid, cur), slot0)
        values = [(1 + d, v) for d, v in enumerate(indices)]
        values += [(SHAPE_SLOT + d, v) for d, v in enumerate(shape)]
        for k, v in values:
            slot = gep(b, I64, fl.err_state, ll.Constant(I64, k))
            b.store(b.select(take, v, b.load(slot, typ=I64)), slot)

    def shared_array(self, ml: ModuleLowerer, shared: n.SharedArray) -> ll.Value:
        size = 1
        for s in shared.type.static_shape or ():
            size *= s
        ty = ll.ArrayType(memory_type(shared.type.dtype), size)
        g = ll.GlobalVariable(ml.llmod, ty, f"{ml.ir.name}.{shared.name}", self.shared_addrspace)
        g.linkage = "internal"
        g.initializer = ll.Constant(ty, None)
        return g


@dataclass
class ModuleLowerer:
    """Owns the ``llvmlite.ir.Module`` being built for one ``ir.Module``."""

    ir: n.Module
    target: Target
    llmod: ll.Module = field(init=False)
    functions: dict[str, ll.Function] = field(default_factory=dict)
    uses_wi: set[str] = field(default_factory=set)
    checks: set[str] = field(default_factory=set)
    fastmath: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        self.llmod = ll.Module(name=self.ir.name)
        self.llmod.triple = self.target.triple
        self.llmod.data_layout = self.target.data_layout
        self.fastmath = self.target.fastmath_flags(self.ir)
        self.uses_wi = _functions_using_work_items(self.ir)
        self.checks = _functions_with_checks(self.ir)

    def declare(self, name: str, ret: ll.Type, args: Sequence[ll.Type]) -> ll.Function:
        """Get or declare an external function or intrinsic by exact name."""
        existing = self.llmod.globals.get(name)
        if isinstance(existing, ll.Function):
            return existing
        return ll.Function(self.llmod, ll.FunctionType(ret, list(args)), name=name)

    def lower_device_functions(self) -> None:
        """Emit every device function (callees come first in ``Module.functions``)."""
        for fn in self.ir.functions:
            self.functions[fn.name] = self._device_function(fn)

    def _device_function(self, fn: n.Function) -> ll.Function:
        argtys: list[ll.Type] = []
        for p in fn.params:
            if isinstance(p.type, t.ArrayType):
                argtys += [PTR] + [I64] * (2 * p.type.ndim)
            else:
                argtys.append(llvm_type(p.type))
        argtys += [PTR, PTR, I32]
        ret = ll.VoidType() if fn.return_type is None else llvm_type(fn.return_type)
        llfn = ll.Function(self.llmod, ll.FunctionType(ret, argtys), name=f"{fn.name}.dev")
        llfn.linkage = "internal"
        llfn.attributes.add("alwaysinline")
        llfn.attributes.add("nounwind")
        allocas, entry = alloca_block(llfn)
        b = ll.IRBuilder(entry)
        args: list[ll.Value] = list(llfn.args)
        arrays: dict[str, ArrayValue] = {}
        scalars: dict[str, ll.Value] = {}
        i = 0
        for p in fn.params:
            if isinstance(p.type, t.ArrayType):
                nd = p.type.ndim
                arrays[p.name] = ArrayValue(
                    p.type, args[i], args[i + 1 : i + 1 + nd], args[i + 1 + nd : i + 1 + 2 * nd]
                )
                i += 1 + 2 * nd
            else:
                scalars[p.name] = args[i]
                i += 1
        fl = FunctionLowerer(self, fn, b, arrays, err_state=args[-3], wi_context=args[-2])
        fl.check_mode = args[-1]
        fl.declare_locals(allocas, scalars)
        ret_slot = None if fn.return_type is None else fl.alloca(llvm_type(fn.return_type))
        fl.return_slot = ret_slot
        fl.return_block = llfn.append_basic_block("return")
        fl.lower_body(fn.body)
        fl.branch_if_open(fl.return_block)
        b.position_at_end(fl.return_block)
        if ret_slot is None:
            b.ret_void()
        else:
            b.ret(b.load(ret_slot, typ=llvm_type(fn.return_type)))  # type: ignore[arg-type]
        return llfn


def _functions_with_checks(module: n.Module) -> set[str]:
    """Device functions with a bounds check, directly or through calls: recording a failure
    names the work-item (``gpuoff.ir.bounds.failure_order``)."""
    direct: dict[str, tuple[bool, set[str]]] = {}
    for fn in module.functions:
        checked = any(getattr(e, "check", None) is not None for e in walk_exprs(fn.body)) or any(
            isinstance(s, n.Store) and s.check is not None for s in walk_stmts(fn.body)
        )
        direct[fn.name] = (checked, calls_and_work_items(fn.body)[1])
    result: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, (checked, callees) in direct.items():
            if name not in result and (checked or callees & result):
                result.add(name)
                changed = True
    return result


def _functions_using_work_items(module: n.Module) -> set[str]:
    """Names of functions that query work-item values, directly or through calls."""
    direct: dict[str, tuple[bool, set[str]]] = {}
    for fn in (*module.functions, module.kernel):
        direct[fn.name] = calls_and_work_items(fn.body)
    result: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, (uses, callees) in direct.items():
            if name not in result and (uses or callees & result):
                result.add(name)
                changed = True
    return result


class FunctionLowerer:
    """Lowers one function's statements at ``builder``'s position.

    ``arrays`` maps array names (params and shared) to their values; locals and scalar params
    live in entry-block allocas (``slots``) that mem2reg promotes. ``return_block`` is where
    ``Return`` goes (a kernel: the end of this work-item); ``err_state`` points at this
    function's error record; ``wi_context`` at the work-item block (device functions, CPU).
    """

    def __init__(
        self,
        ml: ModuleLowerer,
        fn: n.Function,
        builder: ll.IRBuilder,
        arrays: dict[str, ArrayValue],
        *,
        err_state: ll.Value,
        wi_context: ll.Value | None = None,
    ) -> None:
        self.ml = ml
        self.fn = fn
        self.builder = builder
        self.arrays = arrays
        self.err_state = err_state
        self.wi_context = wi_context
        self.slots: dict[str, ll.Value] = {}
        self.return_block: ll.Block | None = None
        self.return_slot: ll.Value | None = None
        self.loops: list[tuple[ll.Block, ll.Block]] = []  # (continue target, break target)
        self.alloca_block: ll.Block | None = None
        # Target-private state (e.g. the CPU target's current work-item loop values).
        self.wi_values: dict[tuple[str, int], ll.Value] = {}
        self.target_state: object = None
        # False while re-running code only to find failing checks: Store and AtomicRMW then
        # skip their memory access (an atomic yields 0).
        self.side_effects = True
        # A device function's i32 check_mode parameter (constant 0 in kernels).
        self.check_mode: ll.Value = ll.Constant(I32, 0)

    @property
    def target(self) -> Target:
        return self.ml.target

    # The target's hooks, as the handlers call them (``codegen.llvm_base.Lowering``).

    @property
    def device_wi_context(self) -> bool:
        return self.target.device_wi_context

    def math_call(self, name: str, args: list[ll.Value], st: t.ScalarType) -> ll.Value:
        return self.target.math_call(self, name, args, st)

    def atomic_rmw(self, op: str, ptr: ll.Value, value: ll.Value, st: t.ScalarType,
                   compare: ll.Value | None = None) -> ll.Value:  # fmt: skip
        return self.target.atomic_rmw(self, op, ptr, value, st, compare)

    def barrier(self) -> None:
        self.target.barrier(self)

    def frem(self, a: ll.Value, d: ll.Value, st: t.ScalarType) -> ll.Value:
        return self.target.frem(self, a, d, st)

    def call_check_state(self) -> tuple[ll.Value, ll.Value]:
        return self.target.call_check_state(self)

    def alloca(self, ty: ll.Type, count: ll.Value | None = None, name: str = "") -> ll.Value:
        """An alloca in the function's alloca block (so mem2reg/SROA can promote it)."""
        assert self.alloca_block is not None
        ab = ll.IRBuilder(self.alloca_block)
        if self.alloca_block.is_terminated:
            ab.position_before(self.alloca_block.terminator)
        return opaque_alloca(ab, ty, count, name)

    def declare_locals(self, alloca_block: ll.Block, scalars: dict[str, ll.Value]) -> None:
        """Create allocas for locals, scalar params (params stored at the current point) and
        private arrays (SROA keeps them in registers where every index is a constant)."""
        self.alloca_block = alloca_block
        for name, st in self.fn.locals.items():
            self.slots[name] = self.alloca(llvm_type(st), name=name)
        for pa in self.fn.private:
            size = static_size(pa.type)
            ptr = self.alloca(ll.ArrayType(memory_type(pa.type.dtype), size), name=pa.name)
            ptr.align = max(pa.type.dtype.itemsize, 4)
            self.arrays[pa.name] = static_array_value(pa.type, ptr)
        for name, value in scalars.items():
            slot = self.alloca(value.type, name=name)
            self.builder.store(value, slot)
            self.slots[name] = slot

    def reset_locals(self) -> None:
        """Give every local a defined value (cuts false loop-carried dependences)."""
        for name, st in self.fn.locals.items():
            self.builder.store(const(st, 0), self.slots[name])

    def branch_if_open(self, target: ll.Block) -> None:
        if not self.builder.block.is_terminated:
            self.builder.branch(target)

    def new_block(self, name: str) -> ll.Block:
        return self.builder.append_basic_block(name)

    def lower_body(self, stmts: Sequence[n.Stmt]) -> None:
        for s in stmts:
            if self.builder.block.is_terminated:
                self.builder.position_at_end(self.new_block("dead"))
            lower_stmt(self, s)

    def expr(self, e: n.Expr) -> ll.Value:
        return lower_expr(self, e)

    def work_item(self, name: str, dim: int) -> ll.Value:
        """A work-item query, from the CPU context block in device functions if so configured."""
        if self.fn.is_kernel or not self.target.device_wi_context:
            return self.target.work_item(self, name, dim)
        assert self.wi_context is not None
        slot = n.WORK_ITEM_FUNCS.index(name) * 3 + dim
        p = gep(self.builder, I64, self.wi_context, ll.Constant(I64, slot))
        return self.builder.load(p, typ=I64)

    def fill_wi_context(self) -> ll.Value:
        """Pointer to a work-item block with the current values (for a device call)."""
        if not self.fn.is_kernel:
            assert self.wi_context is not None
            return self.wi_context
        block = self.alloca(ll.ArrayType(I64, WI_SLOTS), name="wi")
        for k, name in enumerate(n.WORK_ITEM_FUNCS):
            for d in range(3):
                p = gep(self.builder, I64, block, ll.Constant(I64, k * 3 + d))
                self.builder.store(self.work_item(name, d), p)
        return block

    def element_pointer(
        self, ref: n.ArrayRef, indices: Sequence[n.Expr], check: int | None
    ) -> tuple[ArrayValue, ll.Value, ll.Value | None]:
        """(array, element pointer, in-range flag or None) for ``ref[indices]``.

        The flag is reported to the target's ``bounds_check`` here; the caller makes the access
        conditional on it."""
        arr = self.arrays[ref.name]
        b = self.builder
        idx = [self.expr(i) for i in indices]
        ok: ll.Value | None = None
        if check is not None and self.ml.ir.boundscheck:
            for d, v in enumerate(idx):
                in_d = b.icmp_unsigned("<", v, arr.shape[d])
                ok = in_d if ok is None else b.and_(ok, in_d)
            if ok is None:
                ok = ll.Constant(I1, 1)
            self.target.bounds_check(self, ok, check, idx, list(arr.shape[: len(idx)]))
        offset: ll.Value | None = None
        for d, v in enumerate(idx):
            term = v if _is_one(arr.strides[d]) else b.mul(v, arr.strides[d])
            offset = term if offset is None else b.add(offset, term)
        if offset is None:
            offset = ll.Constant(I64, 0)
        ptr = gep(b, memory_type(arr.type.dtype), arr.ptr, offset)
        return arr, ptr, ok


def _is_one(v: ll.Value) -> bool:
    return isinstance(v, ll.Constant) and v.constant == 1


def new_error_record(fl: FunctionLowerer) -> ll.Value:
    """A zeroed local error record (promoted to registers by SROA)."""
    rec = fl.alloca(ll.ArrayType(I64, ERROR_RECORD_LEN), name="errrec")
    for k in range(ERROR_RECORD_LEN):
        fl.builder.store(ll.Constant(I64, 0), gep(fl.builder, I64, rec, ll.Constant(I64, k)))
    return rec


def flush_error_record(builder: ll.IRBuilder, rec: ll.Value, err: ll.Value) -> None:
    """Copy a local record into the launch's err block if it holds an error and err is empty."""
    rid = builder.load(gep(builder, I64, rec, ll.Constant(I64, 0)), typ=I64)
    cur = builder.load(gep(builder, I64, err, ll.Constant(I64, 0)), typ=I64)
    have = builder.icmp_unsigned("!=", rid, ll.Constant(I64, 0))
    empty = builder.icmp_unsigned("==", cur, ll.Constant(I64, 0))
    with builder.if_then(builder.and_(have, empty), likely=False):
        for k in range(ERROR_RECORD_LEN):
            v = builder.load(gep(builder, I64, rec, ll.Constant(I64, k)), typ=I64)
            builder.store(v, gep(builder, I64, err, ll.Constant(I64, k)))


__all__ = [
    "I1", "I8", "I32", "I64", "LLVM_LOCK", "PTR", "WI_SLOTS", "ArrayValue", "FunctionLowerer",
    "ModuleLowerer", "Target", "alloca_block", "const", "derived_strides", "flush_error_record",
    "gep", "llvm_type", "memory_type", "new_error_record", "opaque_alloca", "static_array_value",
    "static_size",
]  # fmt: skip
