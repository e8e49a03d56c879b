"""Property test: random arithmetic expressions over array elements and Python literals get the
type NumPy 2 gives them (NEP 50), and the IR interpreter computes NumPy's value."""

from __future__ import annotations

import importlib.util
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gpuoff.frontend import lower_kernel
from gpuoff.ir import interp
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from gpuoff.ir.verify import verify

# One array element of each of these dtypes is an operand (values chosen >= 1 so divisors
# are never zero; integer dtypes may wrap, identically in NumPy and in the IR).
OPERANDS: dict[str, tuple[str, np.generic]] = {
    "a": ("f32", np.float32(1.5)),
    "b": ("f64", np.float64(2.25)),
    "c": ("i32", np.int32(3)),
    "d": ("i64", np.int64(7)),
    "e": ("u8", np.uint8(5)),
    "g": ("u32", np.uint32(9)),
}
LITERALS = ["1", "2", "3", "0.5", "2.0"]
OPS = ["+", "-", "*", "/", "//", "%"]

leaf = st.sampled_from([f"{name}[0]" for name in OPERANDS] + LITERALS)


def _combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    binary = st.tuples(children, st.sampled_from(OPS), children).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})"
    )
    unary = children.map(lambda c: f"(-{c})")
    return binary | unary


expressions = st.recursive(leaf, _combine, max_leaves=5)

_COUNTER = [0]


def _kernel_from(expr: str, directory: Path) -> Any:
    _COUNTER[0] += 1
    name = f"gpuoff_prop_kernel_{_COUNTER[0]}"
    params = ", ".join(f"{n}: Borrow[Array[go.{dt}]]" for n, (dt, _) in OPERANDS.items())
    source = textwrap.dedent(f"""
        import gpuoff as go
        from gpuoff import Array, Borrow, BorrowMut

        def k({params}, out: BorrowMut[Array[go.f64]]) -> None:
            out[0] = {expr}
    """)
    path = directory / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module.k


def _python_value(expr: str) -> Any:
    env = {n: np.array([v]) for n, (_, v) in OPERANDS.items()}
    with np.errstate(all="ignore"):
        try:
            return eval(expr, {}, env)  # noqa: S307 - our own generated expression
        except (ZeroDivisionError, OverflowError):  # literals only: Python itself fails
            return None


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions)
def test_expression_types_and_values_follow_numpy(expr: str) -> None:
    expected = _python_value(expr)
    assume(isinstance(expected, np.generic))  # literals alone are not a kernel value
    assert isinstance(expected, np.generic)
    with tempfile.TemporaryDirectory() as tmp:
        fn = _kernel_from(expr, Path(tmp))
        types = [T.ArrayType(T.scalar_from_numpy(np.dtype(v.dtype)), 1) for _, v in
                 OPERANDS.values()] + [T.ArrayType(T.f64, 1)]  # fmt: skip
        module = lower_kernel(fn, types)
    verify(module)
    store = module.kernel.body[0]
    assert isinstance(store, N.Store)
    value = store.value.value if isinstance(store.value, N.Cast) else store.value
    if isinstance(value, N.Const):  # folded: constants only have the weak default types
        return
    assert value.type.np_dtype == expected.dtype, expr
    args = [np.array([v]) for _, v in OPERANDS.values()] + [np.zeros(1)]
    interp.run(module, args, 1)
    with np.errstate(all="ignore"):
        want = np.float64(expected)
    np.testing.assert_allclose(args[-1][0], want, rtol=1e-6, atol=1e-6, err_msg=expr)
