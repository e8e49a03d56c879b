"""The NVPTX lowering's structure (no ptxas or GPU needed): kernel ABI, attributes that carry
the ownership guarantees, special registers, the out-of-grid guard, error publication."""

from __future__ import annotations

import re

import pytest

from codegen.nvptx import NvptxTarget, build_llvm_module, compile_ptx, llvm_ir_text, ptx_params
from gpuoff.ir import nodes as n
from gpuoff.ir.types import boolean, f16, f32, f64, i32, i64, u8, u32
from tests.unit import irbuild


def _kernel_decl(text: str, name: str) -> str:
    m = re.search(rf'define ptx_kernel void @"?{name}"?\((.*)\)', text)
    assert m is not None, text
    return m.group(1)


def test_entry_is_a_ptx_kernel_with_the_documented_parameters() -> None:
    text = str(build_llvm_module(irbuild.saxpy(), sm=80))
    assert 'target triple = "nvptx64-nvidia-cuda"' in text
    params = _kernel_decl(text, "saxpy").split(", ")
    # err, 3 global sizes, a, x (ptr, shape), y (ptr, shape)
    assert len(params) == len(ptx_params(irbuild.saxpy())) == 9
    assert params[0].startswith("ptr addrspace(1) noalias")
    assert params[1:4] == [p for p in params[1:4] if p.startswith("i64")]
    assert params[4].startswith("float")
    x, y = params[5], params[7]
    assert "noalias" in x and "readonly" in x and "align 4" in x  # Borrow
    assert "noalias" in y and "readonly" not in y  # BorrowMut


def test_work_items_come_from_special_registers_and_are_guarded() -> None:
    text = str(build_llvm_module(irbuild.saxpy(), sm=80))
    for reg in ("tid", "ctaid", "ntid"):
        for axis in "xyz":
            assert f'@"llvm.nvvm.read.ptx.sreg.{reg}.{axis}"()' in text
    # the body runs only below global_size in every dimension (grid not a multiple of block)
    assert len(re.findall(r"icmp ult i64 %\S+, %\S+", text)) >= 3


@pytest.mark.parametrize(
    ("st", "kind"),
    [(boolean, "bool"), (u8, "u8"), (i32, "i32"), (u32, "u32"), (i64, "i64"), (f16, "f16"),
     (f32, "f32"), (f64, "f64")],
)  # fmt: skip
def test_scalar_parameter_kinds(st: object, kind: str) -> None:
    k = irbuild.kernel("k", [irbuild.param("s", st)], [])  # type: ignore[arg-type]
    assert ptx_params(n.Module(k))[-1].kind == kind


def test_strided_arrays_carry_strides_contiguous_ones_do_not() -> None:
    a = irbuild.param("a", irbuild.arr(f32, 2, contiguous=False))
    b = irbuild.param("b", irbuild.mut(f32, 3))
    names = [p.name for p in ptx_params(n.Module(irbuild.kernel("k", [a, b], [])))]
    assert names[4:] == ["a", "a.shape0", "a.shape1", "a.stride0", "a.stride1",
                         "b", "b.shape0", "b.shape1", "b.shape2"]  # fmt: skip


def test_errors_are_published_once_with_cmpxchg() -> None:
    text = str(build_llvm_module(irbuild.saxpy(guarded=False), sm=80))
    assert text.count("cmpxchg") == 1
    m = irbuild.saxpy(guarded=False)
    unchecked = n.Module(m.kernel, m.functions, m.checks, boundscheck=False)
    assert "cmpxchg" not in str(build_llvm_module(unchecked, sm=80))


def test_atomics_are_relaxed() -> None:
    out = irbuild.ref("out", irbuild.mut(f32))
    body: list[n.Stmt] = [n.ExprStmt(irbuild.atomic("add", out, 0, irbuild.c(1.0)))]
    k = irbuild.kernel("k", [irbuild.param("out", out.type)], body)
    text = str(build_llvm_module(n.Module(k), sm=80))
    # relaxed at device scope, as CUDA's atomicAdd (PTX atom.global.add.f32, not .sys)
    assert re.search(r"atomicrmw fadd ptr %\S+, float 0x3ff0000000000000 "
                     r'syncscope\("device"\) monotonic', text)  # fmt: skip


def test_fastmath_uses_the_approximate_instructions() -> None:
    x, out = irbuild.ref("x", irbuild.arr(f32)), irbuild.ref("out", irbuild.mut(f32))
    v = irbuild.load(x, 0)
    body: list[n.Stmt] = [irbuild.store(out, 0, irbuild.math("rsqrt", v))]
    k = irbuild.kernel("k", [irbuild.param("x", x.type), irbuild.param("out", out.type)], body)
    assert "llvm.nvvm.rsqrt.approx.f" in str(build_llvm_module(n.Module(k, fastmath=True)))
    assert "llvm.nvvm.rsqrt.approx.f" not in str(build_llvm_module(n.Module(k)))


def test_ptx_object_and_optimised_ir() -> None:
    obj = compile_ptx(irbuild.saxpy(), sm=90)
    assert (obj.entry, obj.sm) == ("saxpy", 90)
    assert ".target sm_90" in obj.ptx and "define ptx_kernel" in obj.llvm_ir
    optimized = llvm_ir_text(irbuild.saxpy(), sm=90, optimized=True)
    assert "= alloca" not in optimized  # locals promoted to registers
    assert NvptxTarget(90).data_layout.startswith("e-")
