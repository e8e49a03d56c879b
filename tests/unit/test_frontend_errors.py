"""Every construct outside the kernel subset is a CompileError at the user's line, with a
caret, naming the construct, and without gpuoff-internal files in the message."""
# ruff: noqa: E731, F841, B018, B007, F401, F821

from __future__ import annotations

import importlib.util
import math
import re
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, CompileError, f32, i32
from gpuoff.frontend import lower_kernel, parse_signature
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from tests.unit import frontend_errors_support as support
from tests.unit.frontend_errors_support import assert_points_at, compile_error, lower

HERE = Path(__file__).resolve()


def line_of(marker: str) -> int:
    return support.line_of(HERE, marker)


def check(fn: Callable[..., Any], construct: str, marker: str, ndim: int = 1) -> CompileError:
    return support.check_at(HERE, fn, construct, marker, ndim)

# --------------------------------------------------------------------------------------------
# Kernels with one unsupported construct each (never called: only lowered)
# --------------------------------------------------------------------------------------------


def k_for_else(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    for k in range(3):
        pass
    else:
        y[0] = 1.0  # E:for_else


def k_while_else(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    while y[0] < 1.0:
        y[0] += 1.0
    else:
        y[0] = 2.0  # E:while_else


def k_try(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    try:  # E:try
        y[0] = 1.0
    except Exception:
        pass


def k_with(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    with open("f"):  # E:with
        pass


def k_lambda(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    f = lambda v: v  # E:lambda


def k_nested_def(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    def inner() -> None:  # E:nested_def
        pass


def k_class(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    class C:  # E:class
        pass


def k_listcomp(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    v = [k for k in range(3)]  # E:listcomp


def k_setcomp(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    v = {k for k in range(3)}  # E:setcomp


def k_dictcomp(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    v = {k: k for k in range(3)}  # E:dictcomp


def k_genexp(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = sum(k for k in range(3))  # E:genexp


def k_list(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = [1, 2][0]  # E:list


def k_dict(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    v = {1: 2}  # E:dict


def k_set(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    v = {1, 2}  # E:set


def k_starred_call(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = max(*(1, 2))  # E:starred_call


def k_fstring(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    s = f"{y[0]}"  # E:fstring


def k_yield(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]):  # type: ignore[no-untyped-def]
    yield 1  # E:yield


def k_global(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    global _G  # E:global


def k_nonlocal_outer() -> Callable[..., None]:
    v = 1

    def k_nonlocal(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
        nonlocal v  # E:nonlocal

    return k_nonlocal


def k_del(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    v = 1
    del v  # E:del


def k_assert(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    assert y[0] > 0  # E:assert


def k_raise(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    raise ValueError()  # E:raise


def k_import(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    import os  # E:import


def k_walrus(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = (v := 2.0)  # E:walrus


def k_match(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], n: i32) -> None:
    match n:  # E:match
        case 1:
            pass


def k_slice(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[1:3] = 1.0  # type: ignore[index]  # E:slice


def k_is(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], n: i32) -> None:
    if n is None:  # E:is
        pass


def k_matmul(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]], n: i32) -> None:
    v = n @ n  # type: ignore[operator]  # E:matmul


def k_string(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    s = "text"  # E:string


def py_helper(v: float) -> float:
    return v


def k_py_call(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = py_helper(x[0])  # E:py_call


def k_method(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = x.foo()  # type: ignore[attr-defined]  # E:method


def k_attr(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = x.dtype  # type: ignore[attr-defined]  # E:attr


def k_module_attr(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = go.nothing_here(1)  # type: ignore[attr-defined]  # E:module_attr


def k_print(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    print(x[0])  # E:print


def k_undefined(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = not_defined_anywhere  # type: ignore[name-defined]  # noqa: F821  # E:undefined


@go.func
def rec_direct(v: f32) -> f32:
    return rec_direct(v)  # type: ignore[gpuoff-unsupported]  # E:rec_direct


def k_rec_direct(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = rec_direct(x[0])


@go.func
def rec_a(v: f32) -> f32:
    return rec_b(v)  # type: ignore[gpuoff-unsupported]


@go.func
def rec_b(v: f32) -> f32:
    return rec_a(v)  # type: ignore[gpuoff-unsupported]  # E:rec_mutual


def k_rec_mutual(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = rec_a(x[0])


CASES = [
    (k_for_else, "for ... else", "for_else"),
    (k_while_else, "while ... else", "while_else"),
    (k_try, "try statement", "try"),
    (k_with, "with statement", "with"),
    (k_lambda, "lambda", "lambda"),
    (k_nested_def, "nested function definition", "nested_def"),
    (k_class, "class definition", "class"),
    (k_listcomp, "list comprehension", "listcomp"),
    (k_setcomp, "set comprehension", "setcomp"),
    (k_dictcomp, "dict comprehension", "dictcomp"),
    (k_genexp, "generator expression", "genexp"),
    (k_list, "list literal", "list"),
    (k_dict, "dict literal", "dict"),
    (k_set, "set literal", "set"),
    (k_starred_call, "starred arguments", "starred_call"),
    (k_fstring, "f-string", "fstring"),
    (k_yield, "yield", "yield"),
    (k_global, "global statement", "global"),
    (k_nonlocal_outer(), "nonlocal statement", "nonlocal"),
    (k_del, "del statement", "del"),
    (k_assert, "assert statement", "assert"),
    (k_raise, "raise statement", "raise"),
    (k_import, "import statement", "import"),
    (k_walrus, "assignment expression (:=)", "walrus"),
    (k_match, "match statement", "match"),
    (k_slice, "assigning to a view (x[a:b] = ...) is not supported", "slice"),
    (k_is, "'is' comparison", "is"),
    (k_matmul, "matrix multiplication", "matmul"),
    (k_string, "strings are not supported", "string"),
    (k_py_call, "calling the Python function 'py_helper' is not supported", "py_call"),
    (k_method, "method call .foo() on array 'x'", "method"),
    (k_attr, "attribute 'dtype' of array 'x'", "attr"),
    (k_module_attr, "has no attribute 'nothing_here'", "module_attr"),
    (k_print, "calling the Python function 'print'", "print"),
    (k_undefined, "name 'not_defined_anywhere' is not defined", "undefined"),
    (k_rec_direct, "recursive call to device function 'rec_direct'", "rec_direct"),
    (k_rec_mutual, "recursive call to device function 'rec_a'", "rec_mutual"),
]


@pytest.mark.parametrize(("fn", "construct", "marker"), CASES, ids=[c[2] for c in CASES])
def test_unsupported_construct(fn: Callable[..., Any], construct: str, marker: str) -> None:
    check(fn, construct, marker)


def test_message_names_construct_via_ownership_template() -> None:
    err = check(k_lambda, "lambda expression is not supported in kernels", "lambda")
    assert err.location is not None
    # The caret sits under the lambda, not at the start of the line.
    text = support.source_line(HERE, "lambda")
    assert err.location.col == text.index("lambda")


# --------------------------------------------------------------------------------------------
# Async constructs cannot appear in a plain def, so they live in a generated module
# --------------------------------------------------------------------------------------------


def _load_module(tmp_path: Path, name: str, body: str) -> Any:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body))
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_async_kernel_rejected(tmp_path: Path) -> None:
    mod = _load_module(
        tmp_path,
        "user_async_kernel",
        """
        from gpuoff import Array, BorrowMut, f32

        async def k(y: BorrowMut[Array[f32]]) -> None:
            await thing()
    """,
    )
    with pytest.raises(CompileError) as info:
        lower(mod.k)
    assert "async" in str(info.value)
    assert_points_at(info.value, str(tmp_path / "user_async_kernel.py"), 4)


def test_error_in_generated_user_file(tmp_path: Path) -> None:
    mod = _load_module(
        tmp_path,
        "user_kernel_file",
        """
        import gpuoff as go
        from gpuoff import Array, BorrowMut, f32

        def k(y: BorrowMut[Array[f32]]) -> None:
            i = go.global_id(0)
            y[i] = [1.0][0]
    """,
    )
    err = compile_error(mod.k)
    assert "list literal" in str(err)
    assert_points_at(err, str(tmp_path / "user_kernel_file.py"), 7)
    assert err.location is not None and err.location.col == len("    y[i] = ")


