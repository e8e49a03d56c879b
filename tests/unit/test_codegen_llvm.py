"""IR -> LLVM IR: structure of the generated module, attributes, hooks, vectorisation."""

from __future__ import annotations

import dataclasses
import re

import llvmlite.binding as llvm
import numpy as np
import pytest
from llvmlite import ir as ll

from codegen.abi import arg_layout
from codegen.cpu import build_llvm_module, compile_cpu, host_target_key, llvm_ir_text
from codegen.llvm import FunctionLowerer, ModuleLowerer, Target
from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from gpuoff.ir.bounds import eliminate_redundant_checks
from tests.unit import irbuild as b
from tests.unit.test_codegen_cpu_loader import run_cpu

VECTOR = re.compile(r"<(\d+) x float>")


def _vector_widths(text: str) -> set[int]:
    return {int(w) for w in VECTOR.findall(text)}


def test_saxpy_vectorises_without_boundscheck() -> None:
    m = dataclasses.replace(b.saxpy(), boundscheck=False)
    assert max(_vector_widths(llvm_ir_text(m, optimized=True)), default=0) >= 4


def test_saxpy_vectorises_with_boundscheck_on_x() -> None:
    m = eliminate_redundant_checks(b.saxpy())
    checked = [e for e in _loads(m.kernel.body) if e.check is not None]
    assert [e.array.name for e in checked] == ["x"]  # y's checks were proven redundant
    text = llvm_ir_text(m, optimized=True)
    assert max(_vector_widths(text), default=0) >= 4
    assert "masked.load" in text  # x[i] is loaded only where i is in range


def _loads(stmts: tuple[n.Stmt, ...]) -> list[n.Load]:
    from codegen.llvm_walk import walk_exprs

    return [e for e in walk_exprs(stmts) if isinstance(e, n.Load)]


def test_saxpy_with_checks_runs_and_reports() -> None:
    m = eliminate_redundant_checks(b.saxpy())
    x = np.arange(100, dtype=np.float32)
    y = np.ones(120, dtype=np.float32)
    err = run_cpu(m, [np.float32(2.0), x, y], 120)
    np.testing.assert_array_equal(y[:100], 2 * x + 1)
    np.testing.assert_array_equal(y[100:], 1)  # x[i] out of range loaded 0
    assert err[0] == 1 and 100 <= err[1] < 120


def test_array_params_are_noalias_aligned_and_contiguous_strides_not_loaded() -> None:
    x = b.ref("x", b.arr(t.f64, 2))
    y = b.ref("y", b.mut(t.f64, 2, contiguous=False))
    body: list[n.Stmt] = [b.store(y, (b.gid(1), b.gid(0)), b.load(x, b.gid(1), b.gid(0)))]
    m = b.module(b.kernel("cp", [b.param("x", x.type), b.param("y", y.type)], body))
    text = str(build_llvm_module(m))
    groups = next(line for line in text.splitlines() if "cp.groups" in line and "define" in line)
    assert groups.count("noalias align 8") == 2
    entry = text[text.index('define void @"cp__gpuoff_entry"') :]
    layout = arg_layout(m)
    px, py = layout.params
    offsets = {int(o) for o in re.findall(r"getelementptr i8, ptr %\S+, i64 (\d+)", entry)}
    assert {px.stride_slot(0) * 8, px.stride_slot(1) * 8}.isdisjoint(offsets)
    assert {py.stride_slot(0) * 8, py.stride_slot(1) * 8} <= offsets


def test_fastmath_flags_reach_float_instructions() -> None:
    m = dataclasses.replace(b.saxpy(), boundscheck=False)
    assert "fmul fast" not in str(build_llvm_module(m))
    fast = dataclasses.replace(m, fastmath=True)
    assert "fmul fast" in str(build_llvm_module(fast))


def test_device_functions_are_internal_alwaysinline_with_expanded_arrays() -> None:
    v = b.ref("v", b.arr(t.f32, 2, contiguous=False))
    f = b.func("first", [b.param("v", v.type)], [n.Return(b.load(v, 0, 0))], ret=t.f32)
    out = b.ref("out", b.mut(t.f32))
    body: list[n.Stmt] = [b.store(out, b.gid(0), n.Call(t.f32, "first", (v,)))]
    m = b.module(b.kernel("k", [b.param("v", v.type), b.param("out", out.type)], body), f)
    text = str(build_llvm_module(m))
    decl = next(line for line in text.splitlines() if '@"first.dev"' in line)
    assert decl.startswith("define internal float")
    assert "alwaysinline" in decl
    # (ptr, shape0, shape1, stride0, stride1, err_state, wi_context)
    assert decl.count("i64") == 4 and decl.count("ptr") == 3
    opt = llvm_ir_text(m, optimized=True)
    assert "first.dev" not in opt  # inlined away


def test_object_and_keys() -> None:
    obj = compile_cpu(b.saxpy())
    assert obj.entry == "saxpy__gpuoff_entry"
    assert obj.layout == arg_layout(b.saxpy())
    assert obj.llvm_ir != obj.optimized_ir
    key = host_target_key()
    assert llvm.get_host_cpu_name() in key and "+" in key
    assert b"saxpy__gpuoff_entry\x00" in obj.object_code  # in the ELF symbol table


class _CallTarget(Target):
    """A toy SPMD target: work-items come from external functions (like a GPU's sregs)."""

    name = "toy"
    triple = "x86_64-unknown-linux-gnu"
    device_wi_context = False

    def __init__(self) -> None:
        self.math_seen: list[str] = []

    def work_item(self, fl: FunctionLowerer, name: str, dim: int) -> ll.Value:
        fn = fl.ml.declare(f"toy_{name}", ll.IntType(64), [ll.IntType(32)])
        return fl.builder.call(fn, [ll.Constant(ll.IntType(32), dim)])

    def math_call(self, fl: FunctionLowerer, name: str, args: list[ll.Value],
                  st: t.ScalarType) -> ll.Value:  # fmt: skip
        self.math_seen.append(name)
        return super().math_call(fl, name, args, st)


def test_target_hooks_drive_a_straight_spmd_kernel() -> None:
    from codegen.llvm import alloca_block, new_error_record

    v = b.ref("v", b.arr(t.f32))
    helper = b.func("h", [b.param("v", v.type)], [
        n.Return(b.math("sqrt", b.load(v, b.gid(0), check=1))),
    ], ret=t.f32)  # fmt: skip
    m = b.module(b.kernel("k", [b.param("v", v.type)],
                          [n.ExprStmt(n.Call(t.f32, "h", (v,)))]), helper, checks=1)  # fmt: skip
    target = _CallTarget()
    ml = ModuleLowerer(m, target)
    ml.lower_device_functions()
    assert target.math_seen == ["sqrt"]
    text = str(ml.llmod)
    assert "toy_global_id" in text  # the device function asked the target, not a context
    parsed = llvm.parse_assembly(text)
    parsed.verify()
    # A kernel function emitted by the target with the shared FunctionLowerer.
    fn = ll.Function(ml.llmod, ll.FunctionType(ll.VoidType(), [ll.PointerType(),
                     ll.IntType(64), ll.IntType(64), ll.PointerType()]), name="k")  # fmt: skip
    allocas, entry = alloca_block(fn)
    bld = ll.IRBuilder(entry)
    from codegen.llvm import ArrayValue

    arrays = {"v": ArrayValue(v.type, fn.args[0], [fn.args[1]], [fn.args[2]])}
    fl = FunctionLowerer(ml, m.kernel, bld, arrays, err_state=fn.args[3])
    fl.declare_locals(allocas, {})
    fl.err_state = new_error_record(fl)
    fl.return_block = fn.append_basic_block("done")
    fl.lower_body(m.kernel.body)
    fl.branch_if_open(fl.return_block)
    bld.position_at_end(fl.return_block)
    bld.ret_void()
    llvm.parse_assembly(str(ml.llmod)).verify()


@pytest.mark.parametrize("optimized", [False, True])
def test_llvm_ir_text_parses_back(optimized: bool) -> None:
    text = llvm_ir_text(b.saxpy(), optimized=optimized)
    llvm.parse_assembly(text).verify()
    assert "saxpy__gpuoff_entry" in text


def test_concurrent_compiles_agree() -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(4) as pool:
        objs = list(pool.map(lambda _: compile_cpu(b.saxpy()).object_code, range(4)))
    assert all(o == objs[0] for o in objs)


def test_target_key_tracks_the_code_generator() -> None:
    parts = host_target_key().split("|")
    assert parts[0] == llvm.get_host_cpu_name()
    assert len(parts[-1]) == 16 and int(parts[-1], 16) >= 0
