"""Shared checks for the front end's CompileError tests: a kernel lowered from a test file must
fail with a message that names the construct and points at that file's line carrying
``# E:<marker>``, with a caret and no gpuoff-internal file names."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from gpuoff import CompileError
from gpuoff.frontend import lower_kernel, parse_signature
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T


@cache
def _source(path: Path) -> tuple[str, ...]:
    return tuple(path.read_text().splitlines())


def line_of(path: Path, marker: str) -> int:
    """The 1-based line of ``path`` that carries ``# E:<marker>``."""
    tag = f"# E:{marker}"
    hits = [k + 1 for k, text in enumerate(_source(path)) if text.rstrip().endswith(tag)]
    assert len(hits) == 1, marker
    return hits[0]


def source_line(path: Path, marker: str) -> str:
    """The text of the line of ``path`` that carries ``# E:<marker>``."""
    return _source(path)[line_of(path, marker) - 1]


def lower(fn: Callable[..., Any], ndim: int = 1) -> N.Module:
    types: list[T.ScalarType | T.ArrayType] = []
    for d in parse_signature(fn):
        if d.is_array and d.access and d.dtype.is_complex:  # its parts on a last axis
            types.append(T.ArrayType(d.dtype.component, ndim + 1, access=d.access, pairs=True))
            continue
        types.append(T.ArrayType(d.dtype, ndim, access=d.access) if d.is_array and d.access
                     else d.dtype)  # fmt: skip
    return lower_kernel(fn, types)


def compile_error(fn: Callable[..., Any], ndim: int = 1) -> CompileError:
    with pytest.raises(CompileError) as info:
        lower(fn, ndim)
    return info.value


def assert_points_at(err: CompileError, filename: str, line: int) -> None:
    msg = str(err)
    assert f'File "{filename}", line {line}, column' in msg, msg
    caret = msg.splitlines()[-1]
    assert caret.strip() and set(caret.strip()) == {"^"}, msg
    # No internal frames or file names: only the user's file is mentioned.
    assert re.findall(r'File "([^"]+)"', msg) == [filename], msg
    rest = msg.replace(filename, "<file>")
    assert "gpuoff/" not in rest and "frontend" not in rest and "Traceback" not in rest, msg


def check_at(
    path: Path, fn: Callable[..., Any], construct: str, marker: str, ndim: int = 1
) -> CompileError:
    """``fn`` (defined in ``path``) fails to lower with ``construct`` named at ``marker``."""
    err = compile_error(fn, ndim)
    assert construct in str(err), str(err)
    assert_points_at(err, str(path), line_of(path, marker))
    return err
