"""gpuoff: write data-parallel kernels once, as annotated Python; run them on CPUs, OpenCL
devices and NVIDIA GPUs, with Rust-style ownership checked statically and at every launch.

Importing gpuoff loads nothing but this file: each public name is loaded from its module on
first use (PEP 562), so ``import gpuoff`` stays cheap, and the mypy plugin
(``gpuoff.mypy``), which mypy imports at start-up, pulls in neither NumPy nor the runtime.
Backends (llvmlite, pyopencl, cuda-python) load on first use of a device.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__version__ = "0.1.0"

_PUBLIC: dict[str, tuple[str, str]] = {
    **{name: ("gpuoff.errors", name) for name in (
        "BarrierError", "BorrowError", "BoundsError", "CompileError", "ConfigError", "DeviceError",
        "DTypeError", "GpuoffError", "LaunchConfigError", "LaunchTypeError", "OutOfMemoryError",
        "RaceError", "ShapeError",
        "UseAfterMoveError",
    )},
    **{name: ("gpuoff.lang", name) for name in (
        "Array", "Borrow", "BorrowMut", "DeviceFunction", "Owned", "atomic_add", "atomic_and",
        "atomic_cas", "atomic_dec", "atomic_exch", "atomic_inc", "atomic_max", "atomic_min",
        "atomic_or", "atomic_sub", "atomic_xor", "barrier", "boolean", "complex64",
        "complex128", "f16", "f32", "f64", "func", "global_id", "global_size", "group_id", "i8",
        "i16", "i32", "i64", "local_array",
        "local_id",
        "local_size", "num_groups", "shared", "u8", "u16", "u32", "u64", "unsafe",
    )},
    **{name: ("gpuoff.lang_vec", name) for name in (
        "Vector", "cross", "dot", "length", "length_sq", "normalize", "vec", "vec2", "vec2d",
        "vec2f", "vec2i", "vec3", "vec3d", "vec3f", "vec3i", "vec4", "vec4d", "vec4f", "vec4i",
    )},
    **{name: ("gpuoff.lang_mat", name) for name in (
        "Matrix", "determinant", "diag", "identity", "inverse", "mat", "mat22", "mat22d",
        "mat22f", "mat33", "mat33d", "mat33f", "mat44", "mat44d", "mat44f", "matrix_from_cols",
        "matrix_from_rows", "mul", "outer", "trace", "transpose",
    )},
    **{name: ("gpuoff.lang_math", name) for name in (
        "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "brev", "cbrt", "ceil",
        "clz", "copysign", "cos", "cosh", "erf", "erfc", "exp", "exp10", "exp2", "expm1",
        "fdim", "ffs", "floor", "fma", "fmod", "hypot", "isfinite", "isinf", "isnan", "lgamma",
        "log", "log10", "log1p", "log2", "nextafter", "popc", "pow", "remainder", "rint",
        "round", "rsqrt", "sign", "signbit", "sin", "sinh", "sqrt", "tan", "tanh", "tgamma",
        "trunc",
    )},
    "abs": ("gpuoff.lang_math", "fabs"),  # go.abs, go.min and go.max mirror the builtins
    "max": ("gpuoff.lang_math", "maximum"),
    "min": ("gpuoff.lang_math", "minimum"),
    **{name: ("gpuoff.runtime", name) for name in (
        "Buffer", "DeviceInfo", "Kernel", "Launch", "Stats", "array", "asarray", "empty",
        "from_dlpack", "full", "kernel", "on", "reset_stats", "set_device", "synchronize",
        "zeros",
    )},
    "Const": ("gpuoff.lang_generic", "Const"),
    "autotune": ("gpuoff.runtime.autotune", "autotune"),
    "DTypeVar": ("gpuoff.lang_generic", "DTypeVar"),
    "devices": ("gpuoff.runtime.devices", "devices"),
    "get_num_threads": ("gpuoff.runtime.threads", "get_num_threads"),
    "set_num_threads": ("gpuoff.runtime.threads", "set_num_threads"),
    "stats": ("gpuoff.runtime.stats", "stats"),
}  # fmt: skip
"""Public name -> (module, attribute): the lazy re-exports."""

__all__ = sorted(_PUBLIC)

if not TYPE_CHECKING:  # type checkers read the names from __init__.pyi

    def __getattr__(name: str) -> object:
        """Load a public name (or a submodule: ``gpuoff.lang``) on first use."""
        target = _PUBLIC.get(name)
        if target is None:
            if name.startswith("__"):
                raise AttributeError(name)
            try:
                return importlib.import_module(f"{__name__}.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{__name__}.{name}":
                    raise
                raise AttributeError(f"module 'gpuoff' has no attribute {name!r}") from None
        module, attr = target
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value  # later lookups are plain module attributes
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *_PUBLIC})
