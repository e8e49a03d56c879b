"""The plugin and the kernel compiler refuse the same constructs with the same words.

Every kernel of the golden kernel cases is launched here: the compiler's first error must be
one of the errors the golden file expects the plugin to report inside that kernel (same
text, without the error code), and a kernel the golden file expects no gpuoff error in must
compile. So the two cannot drift apart, and neither can refuse what the other accepts.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import pytest

import gpuoff as go
from tests.mypy.cases import borrow_write, kernel_body, kernel_signature
from tests.mypy.harness import CASES, Expected, expected_errors

MODULES = [kernel_body, kernel_signature, borrow_write]
"""(``kernel_accepts`` has kernels of every kind of parameter: test_real_cases launches them.)"""
_CODE = re.compile(r"\s*\[gpuoff-[a-z-]+\]\s*$")


def _kernels() -> list[tuple[str, Any, list[Expected]]]:
    out = []
    for module in MODULES:
        path = Path(module.__file__ or "")
        want = expected_errors(path, path.name)
        for name, k in vars(module).items():
            if not isinstance(k, go.Kernel) or getattr(k, "__module__", "") != module.__name__:
                continue
            lines, start = inspect.getsourcelines(k.pyfunc)
            span = range(start - 1, start + len(lines))  # the decorator line too
            mine = [e for e in want if e.line in span and "[gpuoff-" in e.pattern]
            out.append((f"{path.stem}.{name}", k, mine))
    return out


def _arguments(k: Any) -> list[Any]:
    """1-D arrays for array parameters, 1 for scalars (the kernels index 1-D)."""
    sig = inspect.signature(k.pyfunc)
    args: list[Any] = []
    for p in sig.parameters.values():
        text = str(p.annotation)
        args.append(go.zeros(8, go.f32) if "Array" in text else True if "bool" in text else 1)
    return args


def _id(v: object) -> str:
    return v if isinstance(v, str) else ""


@pytest.mark.parametrize(("name", "kernel", "want"), _kernels(), ids=_id)
def test_compiler_refuses_with_the_plugins_words(
    name: str, kernel: Any, want: list[Expected]
) -> None:
    launch = kernel[1]
    if not want:
        launch(*_arguments(kernel))  # accepted by the plugin: the compiler accepts it too
        go.synchronize()
        return
    with pytest.raises((go.CompileError, go.LaunchTypeError)) as info:
        launch(*_arguments(kernel))
    message = getattr(info.value, "message", None) or str(info.value)
    patterns = [Expected(e.path, e.line, _CODE.sub("", e.pattern)) for e in want]
    assert any(p.matches(message) for p in patterns), (message, [p.pattern for p in patterns])


def test_every_case_file_kernel_is_covered() -> None:
    names = {n for n, _, _ in _kernels()}
    assert len(names) >= 20, names
    assert CASES.exists()
