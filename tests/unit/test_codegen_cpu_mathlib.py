"""The CPU's vectorisable f32 exp/log/erf (codegen.mathlib) against float64 references."""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import numpy as np
import pytest

from codegen.cpu import llvm_ir_text
from gpuoff.ir import types as t
from tests.unit import irbuild as b
from tests.unit.test_codegen_cpu_loader import run_cpu
from tests.unit.test_codegen_cpu_ops import elementwise

REFERENCE: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "exp": np.exp,
    "log": np.log,
    "erf": np.vectorize(math.erf, otypes=[np.float64]),
}


def _ulps(got: np.ndarray, want64: np.ndarray) -> np.ndarray:
    """Error in units of the f32 spacing at the true value (subnormals: the smallest one)."""
    want32 = want64.astype(np.float32)
    spacing = np.spacing(np.abs(want32)).astype(np.float64)
    err: np.ndarray = np.abs(got.astype(np.float64) - want64) / spacing
    return err


def _run(name: str, x: np.ndarray) -> np.ndarray:
    out = np.zeros_like(x)
    run_cpu(elementwise(f"m_{name}", [t.f32], t.f32, lambda v: b.math(name, v[0])), [x, out],
            x.size)  # fmt: skip
    return out


@pytest.mark.parametrize(
    "name,lo,hi",
    [("exp", -103.0, 88.7), ("exp", -1.0, 1.0), ("log", 1e-30, 1e30), ("log", 0.5, 2.0),
     ("erf", -5.0, 5.0), ("erf", -1.2, 1.2)],
)  # fmt: skip
def test_accuracy_within_two_ulp(name: str, lo: float, hi: float) -> None:
    rng = np.random.default_rng(11)
    if name == "log":
        x = np.exp(rng.uniform(math.log(lo), math.log(hi), 20000)).astype(np.float32)
    else:
        x = rng.uniform(lo, hi, 20000).astype(np.float32)
    got = _run(name, x)
    want = REFERENCE[name](x.astype(np.float64))
    finite = np.isfinite(want) & (np.abs(want) > 0)
    assert np.max(_ulps(got[finite], want[finite])) <= 2.0


def test_special_values() -> None:
    inf, nan = np.inf, np.nan
    x = np.array([0.0, -0.0, inf, -inf, nan, 89.0, -104.0, -100.0, 1e-45, 1e-40, 1.0,
                  -1.0, 4.0, -4.5, 20.0], dtype=np.float32)  # fmt: skip
    with np.errstate(all="ignore"):
        e = _run("exp", x)
        np.testing.assert_array_equal(e[:8], [1, 1, inf, 0, nan, inf, 0, np.float32(np.exp(-100))])
        lg = _run("log", x)
        want_log = np.log(x.astype(np.float64)).astype(np.float32)
        np.testing.assert_array_equal(lg[[0, 1, 2, 3, 4, 10, 11]], [-inf, -inf, inf, nan, nan,
                                                                     0, nan])  # fmt: skip
        np.testing.assert_allclose(lg[[8, 9]], want_log[[8, 9]], rtol=1e-6)
    er = _run("erf", x)
    np.testing.assert_array_equal(er[[0, 2, 3, 4, 12, 13, 14]], [0, 1, -1, nan, 1, -1, 1])
    assert np.signbit(er[1])


def test_subnormal_results_of_exp() -> None:
    x = np.linspace(-103.9, -87.4, 2001).astype(np.float32)
    got = _run("exp", x)
    want = np.exp(x.astype(np.float64))
    smallest = float(np.finfo(np.float32).smallest_subnormal)
    assert np.max(np.abs(got - want) / np.maximum(np.spacing(want.astype(np.float32)),
                                                  smallest)) <= 2.0  # fmt: skip


def test_black_scholes_style_loop_vectorises() -> None:
    m = elementwise("bs", [t.f32], t.f32,
                    lambda v: b.bin_("add", b.math("erf", v[0]),
                                     b.math("exp", b.math("log", v[0]))))  # fmt: skip
    text = llvm_ir_text(m, optimized=True)
    assert re.search(r"<(4|8|16) x float>", text)
    assert "erff" not in text and "expf" not in text
