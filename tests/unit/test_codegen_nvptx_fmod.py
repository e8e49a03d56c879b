"""The exact remainder NVPTX kernels use for float ``%`` and ``//`` (``codegen.nvptx_fmod``),
compiled for the host CPU (the same LLVM IR) and compared with ``math.fmod`` bit for bit;
and the PTX of such a kernel has no inexact ``x - trunc(x / y) * y`` any more."""

from __future__ import annotations

import ctypes
import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from llvmlite import binding as llvm
from llvmlite import ir as ll

from codegen.nvptx import compile_ptx
from codegen.nvptx_fmod import fmod_function
from gpuoff.ir import nodes as n
from gpuoff.ir import types as t
from tests.unit import irbuild as b

_ENGINES: list[Any] = []


@pytest.fixture(scope="module")
def host_fmod() -> dict[str, Callable[[float, float], float]]:
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    mod = ll.Module(name="fmod")
    mod.triple = llvm.get_process_triple()
    for st in (t.f64, t.f32):
        fmod_function(mod, st).linkage = "external"
    parsed = llvm.parse_assembly(str(mod))
    parsed.verify()
    engine = llvm.create_mcjit_compiler(parsed, llvm.Target.from_default_triple()
                                        .create_target_machine())  # fmt: skip
    engine.finalize_object()
    _ENGINES.append(engine)
    d, f = ctypes.c_double, ctypes.c_float
    return {
        "f64": ctypes.CFUNCTYPE(d, d, d)(engine.get_function_address("gpuoff.fmod.f64")),
        "f32": ctypes.CFUNCTYPE(f, f, f)(engine.get_function_address("gpuoff.fmod.f32")),
    }


def _same(want: float, got: float) -> bool:
    if math.isnan(want):
        return math.isnan(got)
    return want == got and math.copysign(1.0, want) == math.copysign(1.0, got)


def _c_fmod(a: float, b_: float) -> float:
    if b_ == 0 or math.isinf(a) or math.isnan(a) or math.isnan(b_):
        return math.nan
    return math.fmod(a, b_)


SPECIALS = [0.0, -0.0, 1.0, -1.0, 7.0, 0.1, 3.0, 5e-324, 1e-310, 2.2250738585072014e-308,
            1e300, -1e300, 1.7976931348623157e308, math.inf, -math.inf, math.nan]  # fmt: skip


def test_f64_remainder_is_exact(host_fmod: dict[str, Callable[[float, float], float]]) -> None:
    fm = host_fmod["f64"]
    bad = [(a, c) for a in SPECIALS for c in SPECIALS if not _same(_c_fmod(a, c), fm(a, c))]
    rng = np.random.default_rng(7)
    xs = rng.standard_normal(4000) * 10.0 ** rng.integers(-320, 308, 4000)
    ys = rng.standard_normal(4000) * 10.0 ** rng.integers(-320, 308, 4000)
    bad += [(a, c) for a, c in zip(xs.tolist(), ys.tolist(), strict=True)
            if not _same(_c_fmod(a, c), fm(a, c))]  # fmt: skip
    assert not bad, bad[:5]
    assert fm(1e300, 7.0) == 1.0  # what x - trunc(x / y) * y gets wrong


def test_f32_remainder_is_exact(host_fmod: dict[str, Callable[[float, float], float]]) -> None:
    fm = host_fmod["f32"]
    rng = np.random.default_rng(8)
    with np.errstate(over="ignore"):
        xs = (rng.standard_normal(4000) * 10.0 ** rng.integers(-45, 38, 4000)).astype(np.float32)
        ys = (rng.standard_normal(4000) * 10.0 ** rng.integers(-45, 38, 4000)).astype(np.float32)
    for a, c in zip(xs, ys, strict=True):
        want = np.fmod(a, c) if c != 0 and np.isfinite(a) else np.float32(np.nan)
        got = np.float32(fm(float(a), float(c)))
        assert (np.isnan(want) and np.isnan(got)) or (
            want == got and np.signbit(want) == np.signbit(got)), (a, c, want, got)
    assert fm(1e30, 7.0) == 1.0


def test_ptx_of_float_modulo_calls_the_exact_remainder() -> None:
    x = b.ref("x", b.arr(t.f64))
    out = b.ref("out", b.mut(t.f64))
    i = b.gid(0)
    body: list[n.Stmt] = [b.store(out, i, b.bin_("mod", b.load(x, i), b.c(7.0, t.f64)))]
    module = b.module(b.kernel("m", [b.param("x", x.type), b.param("out", out.type)], body))
    obj = compile_ptx(module)
    assert "gpuoff.fmod.f64" in obj.llvm_ir
    assert not re.search(r"\bfma\.rn\.f64", obj.ptx) and "cvt.rzi.f64.f64" not in obj.ptx
