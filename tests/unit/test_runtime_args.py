"""Scalar conversion and argument descriptions (runtime/args.py) without any device."""

from __future__ import annotations

import numpy as np
import pytest

import gpuoff as go
from gpuoff.frontend.signature import ParamDecl
from gpuoff.ir import types as T
from gpuoff.ownership import Access
from gpuoff.runtime import args as A


def Decl(  # noqa: N802 - reads like the dataclass it builds
    name: str, dtype: T.ScalarType, access: Access | None = None, is_array: bool = False
) -> ParamDecl:
    return ParamDecl(name, dtype, access, is_array)


@pytest.mark.parametrize(
    ("dtype", "value", "converted"),
    [
        (T.f32, 1, 1.0),
        (T.f32, np.float64(2.5), 2.5),
        (T.f32, float("inf"), float("inf")),
        (T.f64, 1e300, 1e300),
        (T.i32, np.int64(-5), -5),
        (T.i32, 2**31 - 1, 2**31 - 1),
        (T.u32, 2**32 - 1, 2**32 - 1),
        (T.u8, np.uint8(255), 255),
        (T.i64, -(2**63), -(2**63)),
        (T.boolean, True, True),
        (T.boolean, np.bool_(False), False),
        (T.f32, np.array(3.0), 3.0),
    ],
)
def test_scalars_that_fit(dtype: T.ScalarType, value: object, converted: object) -> None:
    out = A.check_scalar("k", Decl("p", dtype), value)
    assert out == converted and type(out) is type(converted)


@pytest.mark.parametrize(
    ("dtype", "value", "why"),
    [
        (T.u8, 256, "out of range"),
        (T.u32, -1, "out of range"),
        (T.i32, -(2**31) - 1, "out of range"),
        (T.i64, 2**63, "out of range"),
        (T.i32, 1.0, "a float for an integer parameter"),
        (T.i32, np.float32(1), "a float for an integer parameter"),
        (T.f32, 1e39, "out of range for f32"),
        (T.f16, 70000.0, "out of range for f16"),
        (T.f32, 1j, ""),
        (T.i32, True, ""),
        (T.boolean, 1, ""),
        (T.f64, None, ""),
    ],
)
def test_scalars_that_do_not_fit(dtype: T.ScalarType, value: object, why: str) -> None:
    match = f"k\\(\\): parameter 'p' expects {dtype.name}"
    with pytest.raises(go.LaunchTypeError, match=match) as e:
        A.check_scalar("k", Decl("p", dtype), value)
    assert why in str(e.value)


def test_expected_and_describe() -> None:
    decl = Decl("x", T.f32, Access.BORROW_MUT, True)
    assert A.expected(decl) == "BorrowMut[Array[f32]]"
    assert A.describe(go.zeros((2, 2), go.i32)) == "a go.Buffer of int32 (2-d)"
    assert A.describe(np.zeros(3)) == "a NumPy array of float64 (1-d)"
    assert A.describe("s") == "a str"
    with pytest.raises(go.LaunchTypeError, match="an array for a scalar parameter"):
        A.check_array("k", Decl("n", T.i32), go.zeros(1))
    with pytest.raises(go.LaunchTypeError, match="dtype float64, not float32"):
        A.check_array("k", decl, go.zeros(1, go.f64))


def test_slot_formats_are_eight_bytes() -> None:
    import struct

    for st in T.SCALARS:
        assert struct.calcsize("<" + A.slot_format(Decl("s", st), 0)) == 8
    assert struct.calcsize("<" + A.slot_format(Decl("a", T.f32, Access.BORROW, True), 2)) == 40
