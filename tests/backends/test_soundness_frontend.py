"""Front-end findings of issue 20 on every device: aliasing at a device-function call, the most
negative i64 literal, one rule for weak values (literal or local) in comparisons, and the
messages that used to mislead (tuple unpacking of a call, math.degrees, float("inf"), a shared
shape written with <<, "a Owned argument")."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i64, u8
from gpuoff.ownership import Access, alias_message

THIS = Path(__file__).resolve()


def line_of(tag: str) -> int:
    lines = THIS.read_text().splitlines()
    hits = [k + 1 for k, ln in enumerate(lines) if ln.rstrip().endswith(f"# L:{tag}")]
    assert len(hits) == 1, tag
    return hits[0]


@go.func
def blend(y: BorrowMut[Array[f32]], x: Borrow[Array[f32]], i: int) -> None:
    y[i] = 0.5 * (y[i] + x[i])


@go.kernel
def blend_into_itself(y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    blend(y, y, i)  # type: ignore[gpuoff-alias]  # L:alias


@go.kernel
def blend_two(y: BorrowMut[Array[f32]], x: Borrow[Array[f32]]) -> None:
    i = go.global_id(0)
    blend(y, x, i)


def test_device_call_passing_one_array_as_borrowmut_and_borrow_is_refused(device: str) -> None:
    y = go.full(4, 2.0, go.f32)
    with pytest.raises(go.CompileError) as info:
        blend_into_itself[4](y)
    msg = str(info.value)
    assert alias_message("blend", "y", Access.BORROW_MUT, "x", Access.BORROW) in msg, msg
    assert f'File "{THIS}", line {line_of("alias")}, column 14' in msg, msg
    np.testing.assert_array_equal(y.numpy(), np.full(4, 2.0, np.float32))
    x = go.full(4, 4.0, go.f32)
    blend_two[4](y, x)  # two arrays: fine
    np.testing.assert_array_equal(y.numpy(), np.full(4, 3.0, np.float32))


def test_alias_message_uses_an_for_owned() -> None:
    assert "an Owned argument" in alias_message("k", "a", Access.OWNED, "b", Access.BORROW)
    assert "a BorrowMut argument" in alias_message("k", "a", Access.BORROW, "b",
                                                   Access.BORROW_MUT)  # fmt: skip


@go.kernel
def most_negative(out: BorrowMut[Array[i64]]) -> None:
    out[0] = go.i64(-9223372036854775808)
    out[1] = -9223372036854775807 - 1
    out[2] = -float("inf") < -1e308  # True: 1
    out[3] = go.i64(float("-inf") < 0.0) + go.i64(math.isnan(float("nan")))


def test_most_negative_i64_and_float_infinity_literals(device: str) -> None:
    out = np.zeros(4, np.int64)
    most_negative[1](out)
    np.testing.assert_array_equal(out, [np.iinfo(np.int64).min, np.iinfo(np.int64).min, 1, 2])


@go.kernel
def weak_compare(x: Borrow[Array[u8]], out: BorrowMut[Array[u8]]) -> None:
    i = go.global_id(0)
    v = 300
    w = -1
    out[i] = (x[i] < v) + 2 * (x[i] < 300) + 4 * (x[i] > w) + 8 * (x[i] > -1)


def test_python_int_local_compares_like_the_literal(device: str) -> None:
    x = np.array([0, 44, 100, 255], np.uint8)
    out = np.zeros(4, np.uint8)
    weak_compare[4](x, out)
    # NumPy 2 compares a uint8 with a Python int exactly: every comparison is true.
    assert all(x < 300) and all(x > -1)
    np.testing.assert_array_equal(out, np.full(4, 15, np.uint8))


@go.kernel
def shared_shift(out: BorrowMut[Array[f32]]) -> None:
    s = go.shared(1 << 6, go.f32)
    t = go.shared((2**3, 64 >> 3), go.f32)
    lid = go.local_id(0)
    s[lid] = float(lid)
    t[lid % 8, lid // 8] = 1.0
    go.barrier()
    out[go.global_id(0)] = s[63 - lid] + t[lid // 8, lid % 8]


def test_shared_shape_may_use_shifts_and_powers(device: str) -> None:
    out = np.zeros(64, np.float32)
    shared_shift[64, (64,)](out)
    np.testing.assert_array_equal(out, np.arange(63, -1, -1, dtype=np.float32) + 1.0)


@go.func
def one_value(a: f32) -> f32:
    return a + 1.0


@go.kernel
def unpack_call(out: BorrowMut[Array[f32]]) -> None:
    a, b = one_value(1.0)  # type: ignore[misc]  # L:unpack


@go.kernel
def uses_degrees(out: BorrowMut[Array[f32]]) -> None:
    out[0] = math.degrees(1.0)  # type: ignore[gpuoff-unsupported]  # L:degrees


@go.kernel
def float_of_bad_text(out: BorrowMut[Array[f32]]) -> None:
    out[0] = float("one")  # type: ignore[gpuoff-unsupported]  # L:bad_text


@pytest.mark.parametrize(("kernel", "tag", "words", "unwanted"), [
    (unpack_call, "unpack", ["device function 'one_value' returns a single value",
                             "2 names"], ["as many values on the right (a, b = b, a)"]),
    (uses_degrees, "degrees", ["math.degrees() is not one of the math functions kernels "
                               "support", "sqrt", "atan2", "min"],
     ["math functions", "can be called"]),
    (float_of_bad_text, "bad_text", ["float('one') is not a number", "'inf'"],
     ["strings are not supported"]),
])  # fmt: skip
def test_messages_say_what_is_wrong(
    device: str, kernel: go.Kernel[...], tag: str, words: list[str], unwanted: list[str]
) -> None:
    with pytest.raises(go.CompileError) as info:
        kernel[1](go.zeros(1, go.f32))
    msg = str(info.value)
    assert f'File "{THIS}", line {line_of(tag)}' in msg, msg
    for w in words:
        assert w in msg, msg
    for w in unwanted:
        assert w not in msg.split("\n")[0].replace("math functions kernels support", ""), msg
