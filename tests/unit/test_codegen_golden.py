"""Goldens of generated code (``tests/golden/codegen``): for each kernel of ``golden_kernels``,
the OpenCL C (``.cl``), the optimised LLVM IR for the CPU (``.cpu.ll``) and for NVPTX
(``.nvptx.ll``), so that a change to a code generator shows up as a readable diff in review.
Regenerate with ``GPUOFF_REGEN_GOLDEN=1`` (as the IR printer's goldens) and read the diff.

The modules are what the runtime compiles (``gpuoff show``'s lowering: front end, verifier,
redundant-check elimination). The CPU IR is optimised for the LLVM CPU model ``x86-64-v3``,
not for the host, so it reads the same on every x86-64 machine; LLVM IR depends on the LLVM
version too, which each ``.ll`` golden names in its first line. Every ``.ll`` golden parses
back and verifies with llvmlite.
"""

from __future__ import annotations

import os
import platform
from collections.abc import Callable
from pathlib import Path

import llvmlite
import llvmlite.binding as llvm
import pytest

from codegen.cpu import llvm_ir_text as cpu_llvm_ir_text
from codegen.nvptx import llvm_ir_text as nvptx_llvm_ir_text
from codegen.opencl import render_opencl
from gpuoff.cli import lower_for_show
from gpuoff.ir import nodes as n
from tests.unit.golden_kernels import SIGNATURES

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "codegen"
REGEN = os.environ.get("GPUOFF_REGEN_GOLDEN") == "1"
CPU_MODEL = "x86-64-v3"
LLVM_VERSION = ".".join(str(p) for p in llvm.llvm_version_info)


def _module(name: str) -> n.Module:
    kernel, sig = SIGNATURES[name]
    module: n.Module = lower_for_show(kernel, sig, None, None)
    return module


def _ll_header(target: str) -> str:
    return (f"; gpuoff codegen golden: optimised LLVM IR for {target}, LLVM {LLVM_VERSION} "
            f"(llvmlite {llvmlite.__version__})\n")  # fmt: skip


def _opencl(m: n.Module) -> str:
    return render_opencl(m).text


def _cpu(m: n.Module) -> str:
    return _ll_header(CPU_MODEL) + cpu_llvm_ir_text(m, optimized=True, cpu=CPU_MODEL)


def _nvptx(m: n.Module) -> str:
    return _ll_header("sm_80") + nvptx_llvm_ir_text(m, sm=80, optimized=True)


RENDERERS: dict[str, Callable[[n.Module], str]] = {
    "cl": _opencl,
    "cpu.ll": _cpu,
    "nvptx.ll": _nvptx,
}
CASES = [(name, ext) for name in sorted(SIGNATURES) for ext in RENDERERS]


def _check(path: Path, text: str) -> None:
    if REGEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    if not path.exists():
        pytest.fail(f"missing golden {path}; run with GPUOFF_REGEN_GOLDEN=1")
    want = path.read_text()
    if path.suffix == ".ll" and want.splitlines()[0] != text.splitlines()[0]:
        pytest.fail(f"{path.name} was made with another LLVM or llvmlite ({want.splitlines()[0]!r}"
                    f"; here: {text.splitlines()[0]!r}): regenerate with GPUOFF_REGEN_GOLDEN=1 "
                    "and read the diff")  # fmt: skip
    assert text == want, f"{path.name} changed: GPUOFF_REGEN_GOLDEN=1 rewrites it; read the diff"


@pytest.mark.parametrize(("name", "ext"), CASES)
def test_generated_code_matches_its_golden(name: str, ext: str) -> None:
    if ext == "cpu.ll" and platform.machine() not in ("x86_64", "AMD64"):
        pytest.fail(f"the CPU goldens are x86-64 IR; this machine is {platform.machine()}")
    _check(GOLDEN / f"{name}.{ext}", RENDERERS[ext](_module(name)))


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.ll")), ids=lambda p: p.name)
def test_llvm_goldens_parse_back_and_verify(path: Path) -> None:
    mod = llvm.parse_assembly(path.read_text())
    mod.verify()
    kernel = path.name.split(".")[0]
    names = {f.name for f in mod.functions}
    assert any(kernel in f for f in names), names


def test_every_golden_file_belongs_to_a_case() -> None:
    expected = {f"{name}.{ext}" for name, ext in CASES}
    assert {p.name for p in GOLDEN.iterdir()} == expected
