"""Tuples as values (issue 15, item 1): device functions returning and taking tuples, tuple
locals indexed and sliced with constants, unpacking (nested and starred), Python's tuple
comparisons, ``in``, ``len``/``min``/``max``/``sum``, on every device against the interpreter
and NumPy; and in PTX (ptxas sm_80/sm_90)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from codegen.nvptx import compile_ptx
from gpuoff import Array, Borrow, BorrowMut, f32, f64, i32
from tests.backends.agree import agree, arg_types
from tests.backends.test_ptx import assemble

RNG = np.random.default_rng(15)


@go.func
def sincos_pair(x: f32) -> tuple[f32, f32]:
    return go.sin(x), go.cos(x)


@go.func
def divmod_pair(a: i32, b: i32) -> tuple[i32, i32]:
    return a // b, a % b


@go.func
def ordered(a: f32, b: f32):  # type: ignore[no-untyped-def]
    """An inferred tuple result (no annotation), returned from two places."""
    if a < b:
        return a, b
    return b, a


@go.kernel
def returns(s: BorrowMut[Array[f32]], c: BorrowMut[Array[f32]], q: BorrowMut[Array[i32]],
            r: BorrowMut[Array[i32]], x: Borrow[Array[f32]],
            a: Borrow[Array[i32]]) -> None:  # fmt: skip
    i = go.global_id(0)
    s[i], c[i] = sincos_pair(x[i])
    qr = divmod_pair(a[i], 7)
    q[i] = qr[0]
    r[i] = qr[-1]
    lo, hi = ordered(x[i], s[i])
    s[i] = hi - lo


def test_device_functions_return_tuples(device: str) -> None:
    n = 64
    x = RNG.uniform(-4, 4, n).astype(np.float32)
    a = RNG.integers(-1000, 1000, n).astype(np.int32)
    z32, zi = np.zeros(n, np.float32), np.zeros(n, np.int32)
    s, c, q, r, _, _ = agree(returns, n, z32, z32.copy(), zi, zi.copy(), x, a,
                             rtol=1e-6, atol=1e-6)  # fmt: skip
    sin = np.sin(x)
    np.testing.assert_allclose(c, np.cos(x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(s, np.abs(sin - x), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(q, a // 7)
    np.testing.assert_array_equal(r, a % 7)


@go.func
def rotate(p: tuple[f64, f64], angle: f64) -> tuple[f64, f64]:
    x, y = p
    return x * go.cos(angle) - y * go.sin(angle), x * go.sin(angle) + y * go.cos(angle)


@go.func
def dist2(p: tuple[f64, f64], q: tuple[f64, f64] = (f64(0.0), f64(0.0))) -> f64:
    return (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2


@go.kernel
def takes(out: BorrowMut[Array[f64]], xy: Borrow[Array[f64]]) -> None:
    i = go.global_id(0)
    p = (xy[i, 0], xy[i, 1])
    turned = rotate(p, 0.5)
    out[i, 0], out[i, 1] = turned
    out[i, 2] = dist2(turned) - dist2(p, (1.0, -1.0))


def test_tuples_are_passed_to_device_functions(device: str) -> None:
    n = 48
    xy = RNG.uniform(-3, 3, (n, 2))
    out, _ = agree(takes, n, np.zeros((n, 3)), xy, rtol=1e-12, atol=1e-12)
    x, y = xy[:, 0], xy[:, 1]
    rx, ry = x * np.cos(0.5) - y * np.sin(0.5), x * np.sin(0.5) + y * np.cos(0.5)
    np.testing.assert_allclose(out[:, 0], rx, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(out[:, 1], ry, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(out[:, 2], rx**2 + ry**2 - (x - 1) ** 2 - (y + 1) ** 2,
                               rtol=1e-10, atol=1e-10)  # fmt: skip


@go.kernel
def locals_(out: BorrowMut[Array[f32]], x: Borrow[Array[f32]]) -> None:
    i = go.global_id(0)
    t = (x[i], x[i] * 2, x[i] * 3, 4.0)
    (a, b), *rest = (t[:2], *t[2:])
    u = t[::-1] + (a,)
    out[i, 0] = a + b * 10 + len(rest) * 100
    out[i, 1] = u[0] + u[-1] + len(u)
    out[i, 2] = sum(t) + max(t) - min(u[1:3])
    a, b = b, a  # swap: the right side is evaluated first
    out[i, 3] = a - b
    w = t if x[i] > 0.5 else u[1:]
    out[i, 4] = w[0] + w[3]


def test_tuple_locals(device: str) -> None:
    n = 40
    x = RNG.random(n).astype(np.float32)
    (out, _) = agree(locals_, n, np.zeros((n, 5), np.float32), x, rtol=1e-6)
    t = np.stack([x, x * 2, x * 3, np.full(n, 4, np.float32)], 1)
    want = np.stack([
        x + 20 * x + 200,
        4 + x + 5,
        t.sum(1) + np.maximum(4, 3 * x) - np.minimum(x * 3, x * 2),
        x,
        np.where(x > 0.5, x + 4, x * 3 + x),
    ], 1)  # fmt: skip
    np.testing.assert_allclose(out, want, rtol=1e-6)


@go.kernel
def compares(out: BorrowMut[Array[i32]], a: Borrow[Array[i32]], b: Borrow[Array[i32]]) -> None:
    i = go.global_id(0)
    p = (a[i], b[i])
    q = (b[i], a[i])
    out[i, 0] = p == q
    out[i, 1] = p != q
    out[i, 2] = p < q
    out[i, 3] = p <= (a[i], b[i])
    out[i, 4] = (p, 1) > (q, 0)
    out[i, 5] = a[i] in (1, 2, 3)
    out[i, 6] = b[i] not in p
    out[i, 7] = p >= q + (0,)


def test_tuple_comparisons_are_pythons(device: str) -> None:
    n = 64
    a = RNG.integers(0, 4, n).astype(np.int32)
    b = RNG.integers(0, 4, n).astype(np.int32)
    (out, _, _) = agree(compares, n, np.zeros((n, 8), np.int32), a, b)
    for k in range(n):
        p, q = (a[k], b[k]), (b[k], a[k])
        want = [p == q, p != q, p < q, p <= p, (p, 1) > (q, 0), a[k] in (1, 2, 3),
                b[k] not in p, p >= q + (0,)]  # fmt: skip
        assert out[k].tolist() == [int(w) for w in want], k


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not on the PATH")
@pytest.mark.parametrize("sm", [80, 90])
def test_tuple_kernels_assemble_to_ptx(sm: int, tmp_path: Path) -> None:
    from gpuoff.frontend import lower_kernel

    n = 8
    cases: list[tuple[Any, tuple[Any, ...]]] = [
        (returns, (np.zeros(n, np.float32),) * 2 + (np.zeros(n, np.int32),) * 2
         + (np.zeros(n, np.float32), np.zeros(n, np.int32))),
        (takes, (np.zeros((n, 3)), np.zeros((n, 2)))),
        (compares, (np.zeros((n, 8), np.int32), np.zeros(n, np.int32), np.zeros(n, np.int32))),
    ]  # fmt: skip
    for kernel, args in cases:
        module = lower_kernel(kernel.pyfunc, arg_types(kernel, args))
        info = assemble(compile_ptx(module, sm=sm).ptx, sm, tmp_path)
        assert "0 bytes stack frame" in info, info  # tuple results stay in registers
