"""PTX of library kernels' specialisations through ptxas (sm_80, sm_90): the CUDA path is
checked on machines without a GPU."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from codegen.nvptx import compile_ptx
from gpuoff.frontend import lower_specialised, parse_signature
from gpuoff.ir import launch_checks
from gpuoff.ir import types as T
from tests.backends.test_ptx import assemble


def assemble_specialisation(
    kernel: Any, args: tuple[Any, ...], sm: int, tmp_path: Path, checked: bool = True
) -> None:
    """Lower ``kernel`` for the dtypes of ``args`` (NumPy arrays and NumPy scalars: each
    generic parameter binds its variable), compile to PTX and run ptxas: the variant without
    launch-proven checks (what a launch runs when its predicate holds) and, with ``checked``,
    the fully checked one."""
    types: list[T.ScalarType | T.ArrayType] = []
    binding: dict[object, T.ScalarType] = {}
    for decl, a in zip(parse_signature(kernel.pyfunc), args, strict=True):
        dtype = T.scalar_from_numpy(np.asarray(a).dtype)
        if decl.var is not None:
            binding[decl.var] = dtype
        if decl.is_array:
            assert isinstance(a, np.ndarray) and decl.access is not None
            types.append(T.ArrayType(dtype, a.ndim, bool(a.flags.c_contiguous),
                                     access=decl.access))  # fmt: skip
        else:
            types.append(dtype if decl.var is not None else decl.dtype)
    module = lower_specialised(kernel.pyfunc, types, binding, {})
    proven = launch_checks.specialise(module)
    variants = ([proven[0]] if proven is not None else []) + ([module] if checked else [])
    assert variants, "nothing to assemble"
    for variant in variants:
        assemble(compile_ptx(variant, sm=sm).ptx, sm, tmp_path)
