"""The host-CPU target: IR -> LLVM IR with work-group loops -> optimised object code.

The entry point follows ``codegen.abi``: ``entry(args, group_lo, group_hi, err)`` runs the
flattened work-groups ``[group_lo, group_hi)``; each group runs its work-items as loops with
dimension 0 innermost (a plain counted loop over ``noalias`` pointers, so LLVM vectorises
across work-items). Kernels with ``barrier()`` are split at barriers into one work-item loop
per barrier-free region (``codegen.cpu_groups``).

Dimension 0 of the generated loops is the kernel's fast dimension
(``gpuoff.ir.fast_axis.fast_dim``: the work-item id that indexes the arrays' contiguous
axis), whichever id the kernel's author made it: the entry point exchanges that dimension and
dimension 0 in the geometry it reads from the header, and the kernel's queries are exchanged
the same way (``permute_dims``), so each work-item computes with its own ids and the
innermost loop walks memory in order.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path

import llvmlite
import llvmlite.binding as llvm
from llvmlite import ir as ll

from codegen import mathlib
from codegen.abi import (
    ERROR_RECORD_LEN,
    HEADER_SLOTS,
    SLOT_BYTES,
    ArgLayout,
    arg_layout,
    entry_name,
)
from codegen.cpu_checks import call_check_state, cpu_bounds_check
from codegen.cpu_groups import emit_group_loop
from codegen.cpu_state import thread_private
from codegen.llvm import (
    I64,
    LLVM_LOCK,
    PTR,
    ArrayValue,
    FunctionLowerer,
    ModuleLowerer,
    Target,
    derived_strides,
    flush_error_record,
    gep,
    llvm_type,
    memory_type,
    opaque_alloca,
)
from codegen.llvm_atomics import combine, emit_atomic
from gpuoff.errors import CompileError, SourceLocation
from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from gpuoff.ir.fast_axis import fast_dim, permute_dims


@dataclass(frozen=True)
class CpuObject:
    """A compiled kernel for the host CPU: a self-contained relocatable object.

    ``entry`` is the symbol of the ``codegen.abi`` entry point; ``layout`` the packed argument
    block; ``llvm_ir`` the unoptimised and ``optimized_ir`` the optimised module text."""

    object_code: bytes
    entry: str
    layout: ArgLayout
    llvm_ir: str
    optimized_ir: str


class CpuTarget(Target):
    """Host CPU hooks: work-item values come from the generated group loops; failed checks
    are recorded as ``codegen.cpu_checks`` explains, into a scratch record the entry point
    copies into ``err``."""

    name = "cpu"

    def __init__(self, fast: int = 0) -> None:
        self.fast = fast  # the dimension exchanged with 0 (gpuoff.ir.fast_axis.permute_dims)
        tm = _target_machine()
        self.triple = llvm.get_process_triple()
        self.data_layout = str(tm.target_data)

    def work_item(self, fl: FunctionLowerer, name: str, dim: int) -> ll.Value:
        return fl.wi_values[(name, dim)]

    def bounds_check(
        self, fl: FunctionLowerer, ok: ll.Value, check_id: int, indices: list[ll.Value],
        shape: list[ll.Value],
    ) -> None:
        cpu_bounds_check(fl, ok, check_id, indices, shape)

    def math_call(
        self, fl: FunctionLowerer, name: str, args: list[ll.Value], st: t.ScalarType
    ) -> ll.Value:
        if st == t.f32 and name in mathlib.FUNCTIONS:
            return mathlib.math_f32(fl, name, args[0])  # vectorisable, unlike libm calls
        return super().math_call(fl, name, args, st)

    def atomic_rmw(
        self, fl: FunctionLowerer, op: str, ptr: ll.Value, value: ll.Value, st: t.ScalarType,
        compare: ll.Value | None = None,
    ) -> ll.Value:
        if not thread_private(ptr):
            # Relaxed, as GPU atomics are: the kernel orders nothing else through them.
            return emit_atomic(fl.builder, op, ptr, value, st, "monotonic", compare)
        # Shared (and private) arrays belong to the one thread that runs the whole work-group
        # (its stack or its heap: cpu_state.Scratch): no other thread can see them, so a
        # plain read-modify-write is atomic.
        b = fl.builder
        old = b.load(ptr, typ=llvm_type(st))
        b.store(combine(b, fl.ml.declare, op, old, value, st, compare), ptr)
        return old

    def call_check_state(self, fl: FunctionLowerer) -> tuple[ll.Value, ll.Value]:
        return call_check_state(fl)

    def barrier(self, fl: FunctionLowerer) -> None:
        # Kernel-level barriers are handled by region fission (codegen.cpu_groups) and never
        # reach this hook; one in a device function cannot be split there.
        where = SourceLocation(fl.fn.filename, fl.fn.firstlineno, 0)
        raise CompileError(
            f"barrier() inside device function {fl.fn.name!r} is not supported on the CPU; "
            "call barrier() from the kernel itself",
            where,
        )




@functools.cache
def _init_llvm() -> None:
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()


@functools.cache
def _target_machine(cpu: str | None = None) -> llvm.TargetMachine:
    """The host's target machine; ``cpu``: an LLVM CPU model of the host's architecture
    instead (with that model's features), for output that does not depend on the host."""
    _init_llvm()
    target = llvm.Target.from_triple(llvm.get_process_triple())
    # PIC + the JIT's code model: the object is loaded anywhere in the process and calls libm.
    return target.create_target_machine(
        cpu=llvm.get_host_cpu_name() if cpu is None else cpu,
        features=llvm.get_host_cpu_features().flatten() if cpu is None else "",
        opt=3,
        reloc="pic",
        codemodel="jitdefault",
        jit=True,
    )


@functools.cache
def _codegen_fingerprint() -> str:
    """Hash of the code generator's own sources: a changed lowering invalidates the cache."""
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for name in _CODEGEN_SOURCES:
        digest.update((here / name).read_bytes())
    return digest.hexdigest()[:16]


_CODEGEN_SOURCES = (
    "abi.py", "cpu.py", "cpu_batch.py", "cpu_checks.py", "cpu_groups.py", "cpu_interchange.py",
    "cpu_masked.py", "cpu_regions.py", "cpu_state.py", "llvm.py", "llvm_base.py", "llvm_ops.py",
    "llvm_stmt.py", "llvm_walk.py", "llvm_atomics.py", "mathlib.py",
)  # fmt: skip


def host_target_key() -> str:
    """Host CPU name + features + llvmlite version (+ a hash of this code generator): part
    of the disk cache key."""
    _init_llvm()
    parts = (llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten(),
             llvmlite.__version__, _codegen_fingerprint())  # fmt: skip
    return "|".join(parts)


def _header_and_params(
    b: ll.IRBuilder, module: n.Module, layout: ArgLayout, args: ll.Value, fast: int
) -> list[ll.Value]:
    """Load the header slots and every parameter's slots from the packed block; ``fast``: the
    dimension exchanged with dimension 0 in the geometry (``gpuoff.ir.fast_axis``)."""

    def slot(k: int, ty: ll.Type) -> ll.Value:
        p = gep(b, ll.IntType(8), args, ll.Constant(I64, k * SLOT_BYTES))
        return b.load(p, typ=ty, align=SLOT_BYTES if ty == I64 or ty == PTR else None)

    dims = [fast if d == 0 else 0 if d == fast else d for d in range(3)]
    values = [slot(3 * part + dims[d], I64) for part in range(HEADER_SLOTS // 3)
              for d in range(3)]  # fmt: skip
    for ps in layout.params:
        if isinstance(ps.type, t.ArrayType):
            values.append(slot(ps.data_slot, PTR))
            values += [slot(ps.shape_slot(d), I64) for d in range(ps.type.ndim)]
            if not ps.type.contiguous:
                values += [slot(ps.stride_slot(d), I64) for d in range(ps.type.ndim)]
        else:
            st = ps.type
            v = slot(ps.first_slot, memory_type(st))
            values.append(b.trunc(v, ll.IntType(1)) if st.is_bool else v)
    return values


def _groups_signature(module: n.Module) -> list[ll.Type]:
    tys: list[ll.Type] = [I64] * HEADER_SLOTS
    for p in module.kernel.params:
        if isinstance(p.type, t.ArrayType):
            tys.append(PTR)
            tys += [I64] * (p.type.ndim * (1 if p.type.contiguous else 2))
        else:
            tys.append(llvm_type(p.type))
    return tys + [I64, I64, PTR]


def _groups_function(ml: ModuleLowerer) -> ll.Function:
    """``K.groups(header..., params..., lo, hi, err)``: array pointers are ``noalias``
    (the runtime refuses aliasing of any written argument) and aligned to their element."""
    module = ml.ir
    fnty = ll.FunctionType(ll.VoidType(), _groups_signature(module))
    fn = ll.Function(ml.llmod, fnty, name=f"{module.name}.groups")
    fn.linkage = "internal"
    fn.attributes.add("nounwind")
    # Not inlined: the scratch error record must stay memory (a noalias pointer), so the
    # cold conditional stores into it do not become loop-carried values that block vectorising.
    fn.attributes.add("noinline")
    k = HEADER_SLOTS
    for p in module.kernel.params:
        if isinstance(p.type, t.ArrayType):
            arg = fn.args[k]
            arg.add_attribute("noalias")
            arg.add_attribute("captures(none)")
            arg.attributes.align = p.type.dtype.itemsize
            k += 1 + p.type.ndim * (1 if p.type.contiguous else 2)
        else:
            k += 1
    fn.args[-1].add_attribute("noalias")
    return fn


def _bind_params(
    fn: ll.Function, b: ll.IRBuilder, module: n.Module
) -> tuple[dict[str, ArrayValue], dict[str, ll.Value]]:
    arrays: dict[str, ArrayValue] = {}
    scalars: dict[str, ll.Value] = {}
    k = HEADER_SLOTS
    for p in module.kernel.params:
        if isinstance(p.type, t.ArrayType):
            nd = p.type.ndim
            ptr = fn.args[k]
            shape: list[ll.Value] = list(fn.args[k + 1 : k + 1 + nd])
            if p.type.contiguous:
                strides = derived_strides(b, shape)
                k += 1 + nd
            else:
                strides = list(fn.args[k + 1 + nd : k + 1 + 2 * nd])
                k += 1 + 2 * nd
            arrays[p.name] = ArrayValue(p.type, ptr, shape, strides)
        else:
            scalars[p.name] = fn.args[k]
            k += 1
    return arrays, scalars


def build_llvm_module(module: n.Module) -> ll.Module:
    """The unoptimised LLVM module of ``module`` for the host CPU."""
    layout = arg_layout(module)
    fast = fast_dim(module)
    module = permute_dims(module, fast)
    ml = ModuleLowerer(module, CpuTarget(fast))
    ml.lower_device_functions()
    groups = _groups_function(ml)
    emit_group_loop(ml, groups, _bind_params)
    entry = ll.Function(
        ml.llmod, ll.FunctionType(ll.VoidType(), [PTR, I64, I64, PTR]), name=entry_name(module)
    )
    entry.attributes.add("nounwind")
    args, lo, hi, err = entry.args
    b = ll.IRBuilder(entry.append_basic_block("entry"))
    values = _header_and_params(b, module, layout, args, fast)
    scratch = opaque_alloca(b, ll.ArrayType(I64, ERROR_RECORD_LEN), name="errrec")
    b.store(ll.Constant(ll.ArrayType(I64, ERROR_RECORD_LEN), None), scratch)
    b.call(groups, [*values, lo, hi, scratch])
    flush_error_record(b, scratch, err)
    b.ret_void()
    return ml.llmod


def _optimize(ir_text: str, cpu: str | None = None) -> llvm.ModuleRef:
    tm = _target_machine(cpu)
    mod = llvm.parse_assembly(ir_text)
    mod.verify()
    pto = llvm.create_pipeline_tuning_options(speed_level=3)
    pto.loop_vectorization = True
    pto.slp_vectorization = True
    pb = llvm.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(mod, pb)
    return mod


def llvm_ir_text(module: n.Module, optimized: bool, cpu: str | None = None) -> str:
    """LLVM IR text of ``module`` for the host CPU (``gpuoff show --target llvm``);
    ``cpu``: optimised for that LLVM CPU model of the host's architecture instead (the
    codegen goldens use ``x86-64-v3``, so they read the same on every x86-64 machine)."""
    text = str(build_llvm_module(module))
    if not optimized:
        return text
    with LLVM_LOCK:
        return str(_optimize(text, cpu))


def compile_cpu(module: n.Module) -> CpuObject:
    """Compile ``module`` at O3 for the host CPU into a relocatable object (thread-safe)."""
    text = str(build_llvm_module(module))
    with LLVM_LOCK:
        mod = _optimize(text)
        obj = _target_machine().emit_object(mod)
        optimized = str(mod)
    return CpuObject(
        object_code=bytes(obj),
        entry=entry_name(module),
        layout=arg_layout(module),
        llvm_ir=text,
        optimized_ir=optimized,
    )


__all__ = ["CpuObject", "CpuTarget", "build_llvm_module", "compile_cpu", "host_target_key"]
