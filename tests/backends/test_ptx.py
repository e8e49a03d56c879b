"""The PTX of every kernel in the backend test catalogue assembles with ptxas (sm_80, sm_90).

Runs wherever ``ptxas`` is on the PATH (no GPU needed); skips with the reason otherwise.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from codegen.nvptx import compile_ptx, ptx_params
from gpuoff.ir.verify import verify
from tests.backends.ptx_kernels import KERNELS

PTXAS = shutil.which("ptxas")
needs_ptxas = pytest.mark.skipif(PTXAS is None, reason="ptxas (CUDA toolkit) is not on the PATH")


def assemble(ptx: str, sm: int, tmp_path: Path) -> str:
    """Run ptxas on ``ptx``; return its verbose output (register and memory use)."""
    assert PTXAS is not None
    src = tmp_path / f"k_sm{sm}.ptx"
    src.write_text(ptx)
    proc = subprocess.run(
        [PTXAS, f"-arch=sm_{sm}", "-v", str(src), "-o", str(tmp_path / f"k_sm{sm}.cubin")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stderr


@needs_ptxas
@pytest.mark.parametrize("sm", [80, 90])
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_ptx_assembles(name: str, sm: int, tmp_path: Path) -> None:
    module = KERNELS[name]()
    verify(module)
    obj = compile_ptx(module, sm=sm)
    assert f".target sm_{sm}" in obj.ptx
    assert re.search(rf"\.visible \.entry {re.escape(obj.entry)}\(", obj.ptx)
    # One .param per flattened parameter, in the order the runtime packs them.
    entry = obj.ptx[obj.ptx.index(f".entry {obj.entry}(") :]
    declared = re.findall(r"\.param [^\n]*?(\w+_param_\d+)", entry[: entry.index(")")])
    assert len(declared) == len(ptx_params(module)) == len(obj.params)
    assemble(obj.ptx, sm, tmp_path)


def test_ptx_params_flatten_like_the_runtime_packs() -> None:
    module = KERNELS["matmul_strided_f64"]()
    names = [p.name for p in ptx_params(module)]
    assert names[:4] == ["err", "global_size0", "global_size1", "global_size2"]
    assert names[4:9] == ["a", "a.shape0", "a.shape1", "a.stride0", "a.stride1"]
    saxpy = [(p.name, p.kind) for p in ptx_params(KERNELS["saxpy"]())]
    # Contiguous arrays carry no strides (derived from the shape in the kernel).
    assert saxpy[4:] == [("a", "f32"), ("x", "ptr"), ("x.shape0", "i64"), ("y", "ptr"),
                         ("y.shape0", "i64")]  # fmt: skip


def test_borrowed_arrays_use_the_read_only_path() -> None:
    ptx = compile_ptx(KERNELS["saxpy"](), sm=80).ptx
    assert "ld.global.nc" in ptx  # x is Borrow: noalias + readonly
    assert "st.global" in ptx


def test_bounds_errors_are_published_with_cmpxchg() -> None:
    ptx = compile_ptx(KERNELS["saxpy"](), sm=80).ptx
    assert re.search(r"atom\.[\w.]*cas\.b64", ptx)
    unchecked = compile_ptx(KERNELS["saxpy_unchecked"](), sm=80).ptx
    assert "cas" not in unchecked


def test_math_needs_no_libdevice() -> None:
    for name in ("math_f32", "math_f64", "math_f16", "bits"):
        ptx = compile_ptx(KERNELS[name](), sm=90).ptx
        assert ".extern" not in ptx  # nothing left for a libdevice to resolve
    bits = compile_ptx(KERNELS["bits"](), sm=90).ptx
    for insn in ("popc.b32", "popc.b64", "clz.b32", "clz.b64", "brev.b32", "brev.b64"):
        assert insn in bits, insn  # CUDA's __popc & co. are single instructions
    fast = compile_ptx(KERNELS["math_f32_fast"](), sm=90).ptx
    assert "ex2.approx" in fast and "sin.approx" in fast


def test_barrier_and_shared_memory() -> None:
    ptx = compile_ptx(KERNELS["reduce_f32"](), sm=80).ptx
    assert "bar.sync" in ptx
    assert ".shared" in ptx and "st.shared" in ptx
    assert "atom" in ptx
