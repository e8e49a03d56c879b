"""The NVIDIA target: IR -> LLVM IR for ``nvptx64-nvidia-cuda`` -> PTX text (llvmlite).

Kernel ABI (what ``gpuoff.runtime.devices.cuda`` packs, one ``cuLaunchKernel`` parameter each):

    err             ptr addrspace(1)   ``codegen.abi.DEVICE_RECORD_LEN`` i64, zero before launch
                                       (may be null when the module has no bounds checks)
    global_size0..2 i64                the launch's grid in work-items (unused dims are 1)
    then per kernel parameter, in order:
      scalar        its type (bool as i8)
      array         ptr addrspace(1) to element [0, ...] of the view (``noalias``: the borrow
                    guards refused every aliasing of a written argument; ``readonly`` for
                    ``Borrow``), ndim x i64 shape, and ndim x i64 strides (in elements) unless
                    the array type is C-contiguous (strides are then derived from the shape)

Work-item ids come from the PTX special registers (``global_id = ctaid * ntid + tid``), and the
body runs only for ``global_id < global_size`` in every dimension (the grid need not be a
multiple of the block). ``local_size``/``num_groups`` are ``ntid``/``nctaid``. A failed bounds
check is recorded in a local record (registers: the work-item's lowest failing check id) and
published once at the end of the work-item with ``codegen.abi``'s key and lock, so the lowest
work-item's record is the one left (``gpuoff.ir.bounds.failure_order``).
Math without libdevice: ``codegen.nvptx_math``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from types import MappingProxyType

import llvmlite.binding as llvm
from llvmlite import ir as ll

from codegen.abi import ITEM_SLOT, KEY_CHECK_BITS, KEY_SLOT, LOCK_SLOT
from codegen.llvm import (
    I1,
    I8,
    I32,
    I64,
    PTR,
    ArrayValue,
    FunctionLowerer,
    ModuleLowerer,
    Target,
    alloca_block,
    derived_strides,
    gep,
    new_error_record,
)
from codegen.llvm_atomics import emit_atomic
from codegen.nvptx_fmod import fmod_function
from codegen.nvptx_math import FUNCS as IR_MATH
from codegen.nvptx_math import math_function
from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from gpuoff.ir.walk import has_live_checks
from gpuoff.ownership import Access

TRIPLE = "nvptx64-nvidia-cuda"
GLOBAL = ll.PointerType(addrspace=1)
I16 = ll.IntType(16)
_SREG = {"local_id": "tid", "group_id": "ctaid", "local_size": "ntid", "num_groups": "nctaid"}


@dataclass(frozen=True)
class PtxParam:
    """One PTX kernel parameter: ``kind`` is ``ptr`` or a scalar type's name (``i8`` ...
    ``u64``, ``bool``, ``f16``, ``f32``, ``f64``): how the runtime writes it into its slot."""

    name: str
    kind: str


@dataclass(frozen=True)
class PtxObject:
    """A kernel compiled to PTX for ``sm``: the text, its ``.entry`` name, the flattened
    parameters (see the module docstring) and the LLVM IR it came from."""

    ptx: str
    entry: str
    params: tuple[PtxParam, ...]
    sm: int
    llvm_ir: str


def _scalar_kind(st: t.ScalarType) -> str:
    return st.name


def ptx_params(module: n.Module) -> tuple[PtxParam, ...]:
    """The flattened kernel parameters of ``module`` (pure; no LLVM needed)."""
    out = [PtxParam("err", "ptr")] + [PtxParam(f"global_size{d}", "i64") for d in range(3)]
    for p in module.kernel.params:
        if isinstance(p.type, t.ArrayType):
            out.append(PtxParam(p.name, "ptr"))
            out += [PtxParam(f"{p.name}.shape{d}", "i64") for d in range(p.type.ndim)]
            if not p.type.contiguous:
                out += [PtxParam(f"{p.name}.stride{d}", "i64") for d in range(p.type.ndim)]
        else:
            out.append(PtxParam(p.name, _scalar_kind(p.type)))
    return tuple(out)


def _param_type(kind: str) -> ll.Type:
    if kind == "ptr":
        return GLOBAL
    return {"bool": I8, "i8": I8, "u8": I8, "i16": I16, "u16": I16, "i32": I32, "u32": I32,
            "i64": I64, "u64": I64, "f16": ll.HalfType(), "f32": ll.FloatType(),
            "f64": ll.DoubleType()}[kind]  # fmt: skip


class NvptxTarget(Target):
    """NVPTX hooks: special registers, global/shared address spaces, bar.sync, relaxed
    atomics, and IR math for what PTX has no instruction for."""

    name = "nvptx"
    triple = TRIPLE
    global_addrspace = 1
    shared_addrspace = 3
    device_wi_context = True  # device functions get values from the kernel (inlined away)

    def __init__(self, sm: int = 80) -> None:
        self.sm = sm
        self.data_layout = str(_target_machine(sm).target_data)

    def work_item(self, fl: FunctionLowerer, name: str, dim: int) -> ll.Value:
        return fl.wi_values[(name, dim)]

    def math_call(
        self, fl: FunctionLowerer, name: str, args: list[ll.Value], st: t.ScalarType
    ) -> ll.Value:
        if st.is_float and name in IR_MATH:
            fast = fl.ml.ir.fastmath and st.bits == 32
            if fast and name in ("exp", "log", "log2", "sin", "cos"):
                return _approx_f32(fl, name, args[0])
            return fl.builder.call(math_function(fl.ml.llmod, name, st), args)
        if st.is_float and st.bits == 32 and name == "rsqrt" and fl.ml.ir.fastmath:
            fn = fl.ml.declare("llvm.nvvm.rsqrt.approx.f", ll.FloatType(), [ll.FloatType()])
            return fl.builder.call(fn, args)
        return super().math_call(fl, name, args, st)

    def atomic_rmw(
        self, fl: FunctionLowerer, op: str, ptr: ll.Value, value: ll.Value, st: t.ScalarType,
        compare: ll.Value | None = None,
    ) -> ll.Value:
        # CUDA's atomicAdd & co. are relaxed at device scope (atom.global.add, no .sys):
        # ordering across work-items comes from barriers.
        return emit_atomic(fl.builder, op, ptr, value, st, 'syncscope("device") monotonic',
                           compare)  # fmt: skip

    def frem(self, fl: FunctionLowerer, a: ll.Value, d: ll.Value, st: t.ScalarType) -> ll.Value:
        # NVPTX lowers LLVM's frem to x - trunc(x / y) * y: wrong for large quotients
        return fl.builder.call(fmod_function(fl.ml.llmod, st), [a, d])

    def barrier(self, fl: FunctionLowerer) -> None:
        fn = fl.ml.declare("llvm.nvvm.barrier.cta.sync.aligned.all", ll.VoidType(), [I32])
        fl.builder.call(fn, [ll.Constant(I32, 0)])


def _approx_f32(fl: FunctionLowerer, name: str, x: ll.Value) -> ll.Value:
    """fastmath f32: PTX's approximate instructions (as CUDA's ``__expf`` and friends)."""
    b = fl.builder
    f32 = ll.FloatType()

    def intr(nm: str, v: ll.Value) -> ll.Value:
        return b.call(fl.ml.declare(f"llvm.nvvm.{nm}", f32, [f32]), [v])

    if name == "exp":
        return intr("ex2.approx.f", b.fmul(x, ll.Constant(f32, 1.4426950408889634)))
    if name == "log":
        return b.fmul(intr("lg2.approx.f", x), ll.Constant(f32, 0.6931471805599453))
    if name == "log2":
        return intr("lg2.approx.f", x)
    return intr(f"{name}.approx.f", x)


class _ArgAttributes(ll.values.ArgumentAttributes):  # type: ignore[misc, unused-ignore]
    """llvmlite's parameter attributes plus ``readonly`` (valid LLVM, missing from its list)."""

    _known = MappingProxyType({**ll.values.ArgumentAttributes._known, "readonly": False})


@functools.cache
def _target_machine(sm: int) -> llvm.TargetMachine:
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    target = llvm.Target.from_triple(TRIPLE)
    return target.create_target_machine(cpu=f"sm_{sm}", opt=3)


def _kernel_function(ml: ModuleLowerer, params: tuple[PtxParam, ...]) -> ll.Function:
    fnty = ll.FunctionType(ll.VoidType(), [_param_type(p.kind) for p in params])
    fn = ll.Function(ml.llmod, fnty, name=ml.ir.kernel.name)
    fn.calling_convention = "ptx_kernel"
    fn.attributes.add("nounwind")
    k = 4
    for p in ml.ir.kernel.params:
        if isinstance(p.type, t.ArrayType):
            arg = fn.args[k]
            arg.attributes = _ArgAttributes()
            arg.add_attribute("noalias")
            if p.type.access is Access.BORROW:
                # noalias + readonly on a kernel param lets NVPTX use ld.global.nc (LDG).
                arg.add_attribute("readonly")
            arg.attributes.align = p.type.dtype.itemsize
            k += 1 + p.type.ndim * (1 if p.type.contiguous else 2)
        else:
            k += 1
    fn.args[0].add_attribute("noalias")
    fn.args[0].attributes.align = 8
    return fn


def _bind(
    fn: ll.Function, b: ll.IRBuilder, module: n.Module
) -> tuple[dict[str, ArrayValue], dict[str, ll.Value]]:
    arrays: dict[str, ArrayValue] = {}
    scalars: dict[str, ll.Value] = {}
    k = 4
    for p in module.kernel.params:
        if isinstance(p.type, t.ArrayType):
            nd = p.type.ndim
            # Generic pointers inside (device functions take generic ones); LLVM's
            # InferAddressSpaces turns the accesses back into ld/st.global after inlining.
            ptr = b.addrspacecast(fn.args[k], PTR)
            shape: list[ll.Value] = list(fn.args[k + 1 : k + 1 + nd])
            if p.type.contiguous:
                strides = derived_strides(b, shape)
                k += 1 + nd
            else:
                strides = list(fn.args[k + 1 + nd : k + 1 + 2 * nd])
                k += 1 + 2 * nd
            arrays[p.name] = ArrayValue(p.type, ptr, shape, strides)
        else:
            v = fn.args[k]
            scalars[p.name] = b.trunc(v, I1) if p.type.is_bool else v
            k += 1
    return arrays, scalars


def _shared(ml: ModuleLowerer, b: ll.IRBuilder, fl: FunctionLowerer) -> None:
    for sa in ml.ir.kernel.shared:
        shape = sa.type.static_shape or ()
        g = ml.target.shared_array(ml, sa)
        g.align = 16
        strides = [1] * len(shape)
        for d in range(len(shape) - 2, -1, -1):
            strides[d] = strides[d + 1] * shape[d + 1]
        fl.arrays[sa.name] = ArrayValue(
            sa.type,
            b.addrspacecast(g, PTR),
            [ll.Constant(I64, s) for s in shape],
            [ll.Constant(I64, s) for s in strides],
        )


def _sreg(ml: ModuleLowerer, b: ll.IRBuilder, reg: str, dim: int) -> ll.Value:
    fn = ml.declare(f"llvm.nvvm.read.ptx.sreg.{reg}.{'xyz'[dim]}", I32, [])
    return b.zext(b.call(fn, []), I64)


def _work_items(
    ml: ModuleLowerer, b: ll.IRBuilder, fn: ll.Function
) -> dict[tuple[str, int], ll.Value]:
    values: dict[tuple[str, int], ll.Value] = {}
    for d in range(3):
        for name, reg in _SREG.items():
            values[(name, d)] = _sreg(ml, b, reg, d)
        gid = b.add(b.mul(values[("group_id", d)], values[("local_size", d)], flags=["nuw"]),
                    values[("local_id", d)], flags=["nuw"])  # fmt: skip
        values[("global_id", d)] = gid
        values[("global_size", d)] = fn.args[1 + d]
    return values


def _publish_error(b: ll.IRBuilder, rec: ll.Value, err: ll.Value, item: ll.Value) -> None:
    """Publish this work-item's record (``codegen.abi``: key, then lock): an atomic max of
    ``~(item << 16 | check)`` at ``err[KEY_SLOT]``; a work-item that raised it takes the spin
    lock and, if its key is still the best, writes the record. The lock loop keeps the holder's
    whole critical section inside one iteration, which is safe under SIMT scheduling."""
    rid = b.load(gep(b, I64, rec, ll.Constant(I64, 0)), typ=I64)
    with b.if_then(b.icmp_unsigned("!=", rid, ll.Constant(I64, 0)), likely=False):
        cmax = ll.Constant(I64, (1 << KEY_CHECK_BITS) - 1)
        check = b.select(b.icmp_unsigned("<", rid, cmax), rid, cmax)
        key = b.xor(b.or_(b.shl(item, ll.Constant(I64, KEY_CHECK_BITS)), check),
                    ll.Constant(I64, -1))  # fmt: skip
        kp = gep(b, I64, err, ll.Constant(I64, KEY_SLOT))
        old = b.atomic_rmw("umax", kp, key, "monotonic")
        with b.if_then(b.icmp_unsigned(">", key, old)):
            lock = gep(b, I64, err, ll.Constant(I64, LOCK_SLOT))
            fn = b.function
            head = fn.append_basic_block("publish.try")
            held = fn.append_basic_block("publish.held")
            latch = fn.append_basic_block("publish.latch")
            out = fn.append_basic_block("publish.done")
            b.branch(head)
            b.position_at_end(head)
            pair = b.cmpxchg(lock, ll.Constant(I64, 0), ll.Constant(I64, 1), "acquire",
                             "monotonic")  # fmt: skip
            b.cbranch(b.extract_value(pair, 1), held, latch)
            b.position_at_end(held)
            best = b.atomic_rmw("add", kp, ll.Constant(I64, 0), "monotonic")
            with b.if_then(b.icmp_unsigned("==", best, key)):
                for k in range(ITEM_SLOT):
                    v = b.load(gep(b, I64, rec, ll.Constant(I64, k)), typ=I64)
                    b.store(v, gep(b, I64, err, ll.Constant(I64, k)))
                b.store(item, gep(b, I64, err, ll.Constant(I64, ITEM_SLOT)))
            b.fence("release")  # the record's stores before the lock is seen free
            b.atomic_rmw("xchg", lock, ll.Constant(I64, 0), "release")
            held_end = b.block
            b.branch(latch)
            b.position_at_end(latch)
            done = b.phi(I1)
            done.add_incoming(ll.Constant(I1, 0), head)
            done.add_incoming(ll.Constant(I1, 1), held_end)
            b.cbranch(done, out, head)
            b.position_at_end(out)


def build_llvm_module(module: n.Module, sm: int = 80) -> ll.Module:
    """The unoptimised LLVM module of ``module`` for ``nvptx64-nvidia-cuda``."""
    ml = ModuleLowerer(module, NvptxTarget(sm))
    ml.lower_device_functions()
    params = ptx_params(module)
    fn = _kernel_function(ml, params)
    allocas, entry = alloca_block(fn)
    b = ll.IRBuilder(entry)
    arrays, scalars = _bind(fn, b, module)
    # Unchecked: nothing records errors, but device functions still take a (generic) pointer.
    fl = FunctionLowerer(ml, module.kernel, b, arrays, err_state=ll.Constant(PTR, None))
    fl.declare_locals(allocas, scalars)
    checked = has_live_checks(module)
    if checked:
        fl.err_state = new_error_record(fl)
    _shared(ml, b, fl)
    fl.wi_values = _work_items(ml, b, fn)
    inside: ll.Value = ll.Constant(I1, 1)
    for d in range(3):
        inside = b.and_(
            inside, b.icmp_unsigned("<", fl.wi_values[("global_id", d)], fn.args[1 + d])
        )
    body, done = fn.append_basic_block("body"), fn.append_basic_block("done")
    b.cbranch(inside, body, done)
    b.position_at_end(body)
    fl.return_block = done
    fl.lower_body(module.kernel.body)
    fl.branch_if_open(done)
    b.position_at_end(done)
    if checked:
        gid = [fl.wi_values[("global_id", d)] for d in range(3)]
        item = b.add(gid[0], b.mul(fn.args[1], b.add(gid[1], b.mul(fn.args[2], gid[2]))))
        _publish_error(b, fl.err_state, fn.args[0], item)
    b.ret_void()
    return ml.llmod


def llvm_ir_text(module: n.Module, sm: int = 80, optimized: bool = False) -> str:
    """LLVM IR text for NVPTX (``gpuoff show --target llvm`` on a CUDA device)."""
    text = str(build_llvm_module(module, sm))
    return str(_optimize(text, sm)) if optimized else text


def _optimize(text: str, sm: int) -> llvm.ModuleRef:
    mod = llvm.parse_assembly(text)
    mod.verify()
    pto = llvm.create_pipeline_tuning_options(speed_level=3)
    pb = llvm.create_pass_builder(_target_machine(sm), pto)
    pb.getModulePassManager().run(mod, pb)
    return mod


def compile_ptx(module: n.Module, sm: int = 80) -> PtxObject:
    """Compile ``module`` at O3 to PTX for ``sm_<sm>`` (pure: needs no GPU or driver)."""
    text = str(build_llvm_module(module, sm))
    ptx = _target_machine(sm).emit_assembly(_optimize(text, sm))
    return PtxObject(ptx, module.kernel.name, ptx_params(module), sm, text)


__all__ = [
    "NvptxTarget",
    "PtxObject",
    "PtxParam",
    "build_llvm_module",
    "compile_ptx",
    "llvm_ir_text",
    "ptx_params",
]
