"""PTX of the library's kernel specialisations through ptxas (no GPU needed).

A specialisation is written ``(kernel, *args, binding, const)``: one entry per run-time
parameter, ``"float32"`` for a scalar or ``("float32", ndim)`` for a contiguous array; the
dtype variables' dtypes by variable; the value of the kernel's ``go.Const`` parameter named
``const_name`` (None when it has none), or a dict of every ``go.Const`` by name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from codegen.nvptx import compile_ptx
from gpuoff.frontend import parse_signature
from gpuoff.frontend.lower import lower_specialised
from gpuoff.ir.types import ArrayType, scalar_from_numpy
from tests.backends.test_ptx import assemble, needs_ptxas

__all__ = ["assemble_all", "needs_ptxas"]


def _types(kernel: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
    decls = [d for d in parse_signature(kernel.pyfunc) if not d.const]
    out: list[Any] = []
    for decl, a in zip(decls, args, strict=True):
        if isinstance(a, tuple):
            assert decl.access is not None
            dtype = scalar_from_numpy(np.dtype(a[0]))
            if dtype.is_complex:  # the backends see its parts, on a last axis of 2
                out.append(ArrayType(dtype.component, a[1] + 1, True, access=decl.access,
                                     pairs=True))  # fmt: skip
                continue
            out.append(ArrayType(dtype, a[1], True, access=decl.access))
        else:
            out.append(scalar_from_numpy(np.dtype(a)))
    return tuple(out)


def assemble_all(specs: list[tuple[Any, ...]], sm: int, tmp_path: Path, const_name: str) -> None:
    """Lower, compile to PTX for ``sm`` and assemble every specialisation in ``specs``."""
    for kernel, *args, binding, const in specs:
        types = _types(kernel, tuple(args))
        bound = {v: scalar_from_numpy(np.dtype(d)) for v, d in binding.items()}
        consts = const if isinstance(const, dict) else {} if const is None else {const_name: const}
        module = lower_specialised(kernel.pyfunc, types, bound, consts)
        assemble(compile_ptx(module, sm=sm).ptx, sm, tmp_path)
