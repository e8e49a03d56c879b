"""The plugin and the kernel compiler reject the same constructs with the same words.

The golden files pin the plugin's messages; here the runtime front end must produce exactly
those messages for the same constructs, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import gpuoff as go
from gpuoff import Array, BorrowMut, f32
from mypy_plugin.kernel_body import CALL_HINT, KERNEL_CALL

# ruff: noqa: E731 - lambdas inside kernels are the point here


@go.kernel
def helper_kernel(x: BorrowMut[Array[f32]]) -> None:
    x[0] = 1.0


@go.kernel
def calls_print(x: BorrowMut[Array[f32]]) -> None:
    print(x[0])  # type: ignore[gpuoff-unsupported]


@go.kernel
def has_try(x: BorrowMut[Array[f32]]) -> None:
    try:  # type: ignore[gpuoff-unsupported]
        x[0] = 1.0
    except ValueError:
        pass


@go.kernel
def has_list(x: BorrowMut[Array[f32]]) -> None:
    v = [1.0, 2.0]  # type: ignore[gpuoff-unsupported]
    x[0] = v[0]


@go.kernel
def has_lambda(x: BorrowMut[Array[f32]]) -> None:
    f = lambda: 1.0  # type: ignore[gpuoff-unsupported]
    x[0] = f()  # type: ignore[gpuoff-unsupported, no-untyped-call]


@go.kernel
def calls_kernel(x: BorrowMut[Array[f32]]) -> None:
    helper_kernel(x)  # type: ignore[gpuoff-unsupported]


CASES: list[tuple[Any, str]] = [
    (calls_print, f"calling the Python function 'print' is not supported in kernels: {CALL_HINT}"),
    (has_try, "try statement is not supported in kernels"),
    (has_list, "list literal is not supported in kernels"),
    (has_lambda, "lambda expression is not supported in kernels"),
    (calls_kernel, KERNEL_CALL),
]


@pytest.mark.parametrize(("kernel", "message"), CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_runtime_rejects_with_the_plugins_message(kernel: Any, message: str) -> None:
    launch: Callable[..., object] = kernel[1]
    with pytest.raises(go.CompileError) as info:
        launch(go.zeros(4, go.f32))
    assert info.value.message == message
