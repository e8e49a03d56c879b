"""Shared helpers for the front end's lowering tests: lower a kernel with array types taken
from its annotations, verify it, and require a source location on every node."""

import inspect
from collections.abc import Callable
from typing import Any

from gpuoff.frontend import lower_kernel, parse_signature
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from gpuoff.ir.verify import verify


def lower(fn: Callable[..., Any], ndim: int = 1, **kw: bool) -> N.Module:
    types: list[T.ScalarType | T.ArrayType] = [
        T.ArrayType(d.dtype, ndim) if d.is_array else d.dtype for d in parse_signature(fn)
    ]
    module = lower_kernel(fn, types, **kw)
    verify(module)
    for f in (module.kernel, *module.functions):
        missing = [n for n in walk(f.body) if n.loc is None]
        assert not missing, f"nodes without a source location: {missing}"
    return module


def body_of(fn: Callable[..., Any], ndim: int = 1) -> tuple[N.Stmt, ...]:
    return lower(fn, ndim).kernel.body


def walk(node: object) -> list[N.Node]:
    """Every IR node below (and including) ``node``, in order."""
    out: list[N.Node] = []
    stack: list[object] = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, tuple):
            stack.extend(reversed(cur))
            continue
        if not isinstance(cur, N.Node):
            continue
        out.append(cur)
        fields = [getattr(cur, f) for f in cur.__dataclass_fields__ if f != "loc"]
        stack.extend(reversed(fields))
    return out


def line_in_file(fn: Callable[..., Any], needle: str) -> int:
    lines, start = inspect.getsourcelines(fn)
    return start + next(k for k, text in enumerate(lines) if needle in text)
