"""Keep a peer from changing the process's floating-point mode.

``ti.init(arch=ti.cpu)`` turns on flush-to-zero and denormals-are-zero in the SSE control
register (MXCSR) of the calling thread, and Taichi must be initialised on the main thread. The
bench's main thread also launches gpuoff and every other baseline, and threads created later
(gpuoff's worker pool, OpenMP's team) inherit the mode: subnormal results would become zero
for all of them (gpuoff's ``exp`` accuracy tests failed that way) and their speed would
change. :func:`preserved_fp_mode` saves MXCSR before such a call and restores it after.

MXCSR is read and written by two tiny functions JIT-compiled with llvmlite (gpuoff's own
dependency; there is no Python API for it). Elsewhere than x86-64 it does nothing.
"""

from __future__ import annotations

import ctypes
import platform
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

_IR = """
declare void @llvm.x86.sse.stmxcsr(ptr)
declare void @llvm.x86.sse.ldmxcsr(ptr)

define i32 @gpuoff_get_mxcsr() {
  %p = alloca i32
  call void @llvm.x86.sse.stmxcsr(ptr %p)
  %v = load i32, ptr %p
  ret i32 %v
}

define void @gpuoff_set_mxcsr(i32 %v) {
  %p = alloca i32
  store i32 %v, ptr %p
  call void @llvm.x86.sse.ldmxcsr(ptr %p)
  ret void
}
"""


@cache
def _mxcsr_functions() -> tuple[Any, Any] | None:
    """(get, set) as ctypes functions, or None off x86-64."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return None
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    module = llvm.parse_assembly(_IR)
    module.verify()
    machine = llvm.Target.from_default_triple().create_target_machine()
    engine = llvm.create_mcjit_compiler(module, machine)
    engine.finalize_object()
    get = ctypes.CFUNCTYPE(ctypes.c_uint32)(engine.get_function_address("gpuoff_get_mxcsr"))
    put = ctypes.CFUNCTYPE(None, ctypes.c_uint32)(engine.get_function_address("gpuoff_set_mxcsr"))
    _KEEP.append(engine)  # the code lives as long as its engine
    return get, put


_KEEP: list[Any] = []


def fp_mode() -> int | None:
    """The calling thread's MXCSR (None where there is none to read)."""
    funcs = _mxcsr_functions()
    return None if funcs is None else int(funcs[0]())


def set_fp_mode(value: int) -> None:
    """Write the calling thread's MXCSR (x86-64 only; elsewhere nothing)."""
    funcs = _mxcsr_functions()
    if funcs is not None:
        funcs[1](value)


@contextmanager
def preserved_fp_mode() -> Iterator[None]:
    """Run the block, then put the calling thread's floating-point mode back as it was."""
    saved = fp_mode()
    try:
        yield
    finally:
        if saved is not None:
            set_fp_mode(saved)
