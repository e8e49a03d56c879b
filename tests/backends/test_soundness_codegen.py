"""Code-generation findings of issue 20 on every device, each also checked in the interpreter
(and in the PTX where it applies): IEEE arithmetic as written without fastmath (no FMA
contraction, correctly rounded f32 division and sqrt), wrapping signed arithmetic and range
loops near the integer limits, min/max of narrow checked loads, code size linear in nested
checked loads, NumPy's NaN rule for min/max, and a deterministic NaN floor division."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from codegen.nvptx import compile_ptx
from codegen.opencl import render_opencl
from gpuoff import Array, Borrow, BorrowMut, boolean, f32, f64, i32, i64, u8, u32
from gpuoff.cli import lower_for_show
from gpuoff.ir import interp

ITERATIONS = 24


# A Mandelbrot without an early exit, as the PyOpenCL and Numba examples write it when they
# count nothing: every point iterates ITERATIONS times, so escaping points run into inf and
# NaN, and any fused multiply-add changes the result.
@go.kernel
def mandelbrot_no_break(re0: Borrow[Array[f32]], im0: Borrow[Array[f32]],
                        out: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    i = go.global_id(0)
    cr = re0[i]
    ci = im0[i]
    zr = go.f32(0.0)
    zi = go.f32(0.0)
    for _ in range(ITERATIONS):
        t = zr * zr - zi * zi + cr
        zi = 2.0 * zr * zi + ci
        zr = t
    out[i] = zr * zr + zi * zi


def _mandelbrot_numpy(cr: np.ndarray[Any, Any], ci: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    zr = np.zeros_like(cr)
    zi = np.zeros_like(ci)
    two = np.float32(2.0)
    with np.errstate(all="ignore"):
        for _ in range(ITERATIONS):
            t = zr * zr - zi * zi + cr
            zi = two * zr * zi + ci
            zr = t
        return zr * zr + zi * zi  # type: ignore[no-any-return]


def _plane(n: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    y, x = np.mgrid[-1.2 : 1.2 : complex(0, n), -2.0 : 0.7 : complex(0, n)]
    return x.astype(np.float32).ravel(), y.astype(np.float32).ravel()


def test_mandelbrot_without_fastmath_equals_numpy_bit_for_bit(device: str) -> None:
    cr, ci = _plane(160)
    out = np.zeros_like(cr)
    mandelbrot_no_break[cr.size](cr, ci, out)
    np.testing.assert_array_equal(out, _mandelbrot_numpy(cr, ci))


def test_no_contraction_in_the_generated_code() -> None:
    module = lower_for_show(mandelbrot_no_break, "f32[:], f32[:], f32[:]", None, None)
    assert "#pragma OPENCL FP_CONTRACT OFF" in render_opencl(module).text
    assert not re.search(r"\bfma\.rn", compile_ptx(module).ptx)
    fast = lower_for_show(mandelbrot_no_break, "f32[:], f32[:], f32[:]", None, True)
    assert "FP_CONTRACT OFF" not in render_opencl(fast).text


@go.kernel
def divide_and_root(a: Borrow[Array[f32]], b: Borrow[Array[f32]], q: BorrowMut[Array[f32]],
                    r: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    i = go.global_id(0)
    q[i] = a[i] / b[i]
    r[i] = go.sqrt(a[i])


def test_f32_division_and_sqrt_are_correctly_rounded(device: str) -> None:
    rng = np.random.default_rng(5)
    n = 1 << 16
    a = (rng.random(n) * 10.0 ** rng.integers(-30, 30, n)).astype(np.float32)
    b = (rng.random(n) * 10.0 ** rng.integers(-30, 30, n) + 1e-30).astype(np.float32)
    q = np.zeros(n, np.float32)
    r = np.zeros(n, np.float32)
    divide_and_root[n](a, b, q, r)
    np.testing.assert_array_equal(q, a / b)
    np.testing.assert_array_equal(r, np.sqrt(a))
    # a device that does not promise correct rounding divides through double precision
    module = lower_for_show(divide_and_root, "f32[:], f32[:], f32[:], f32[:]", None, None)
    text = render_opencl(module, correct_div_sqrt=False).text
    assert "(float)((double)" in text and "(float)sqrt((double)" in text
    assert "-cl-fp32-correctly-rounded-divide-sqrt" in render_opencl(
        module, correct_div_sqrt=True).build_options  # fmt: skip


@go.kernel
def signed_overflow(x: Borrow[Array[i32]], y: Borrow[Array[i64]],
                    out: BorrowMut[Array[i64]]) -> None:  # fmt: skip
    i = go.global_id(0)
    out[0] = go.i64((x[i] + 1) > x[i])  # False for INT_MAX: it wraps
    out[1] = go.i64((x[i] * 2) // 2)  # -1 for INT_MAX
    out[2] = go.i64((y[i] + 1) > y[i])
    out[3] = -y[i + 1] - 1  # -INT64_MIN wraps to itself
    v = -x[i + 1]  # INT_MIN
    out[4] = go.i64(v**v)  # a negative exponent: 0, and it ends
    out[5] = go.i64(x[i] << 1)  # shifting into the sign bit
    count = 0
    last: i32 = go.i32(0)
    for k in range(go.i32(2147483640), go.i32(2147483647), go.i32(5)):
        count += 1
        last = go.i32(k)
    out[6] = count
    out[7] = go.i64(last)
    count = 0
    for _ in range(go.i32(-2147483641), go.i32(-2147483648), go.i32(-3)):
        count += 1
    out[8] = count


def test_signed_arithmetic_wraps_and_ranges_end_near_the_limits(device: str) -> None:
    x = np.array([2**31 - 1, -(2**31)], np.int32)
    y = np.array([2**63 - 1, -(2**63)], np.int64)
    out = np.zeros(9, np.int64)
    signed_overflow[1](x, y, out)
    want = [0, -1, 0, 2**63 - 1, 0, -2, 2, 2147483645, 3]
    np.testing.assert_array_equal(out, want)
    ref = np.zeros(9, np.int64)
    module = lower_for_show(signed_overflow, "i32[:], i64[:], i64[:]", None, None)
    interp.run(module, [x, y, ref], 1)
    np.testing.assert_array_equal(ref, want)


@go.kernel
def min_max_of_narrow_loads(a: Borrow[Array[u8]], f: Borrow[Array[boolean]],
                            out: BorrowMut[Array[u8]]) -> None:  # fmt: skip
    i = go.global_id(0)
    j = a[i] % 7
    out[i] = min(a[j], a[i]) + max(a[i], a[j]) + go.u8(max(f[j], f[i])) + go.u8(min(f[i], True))


def test_min_max_of_checked_u8_and_bool_loads_build_and_run(device: str) -> None:
    a = np.array([3, 250, 7, 0, 1, 2, 9, 5], np.uint8)
    f = np.array([True, False, True, False, True, True, False, False])
    out = np.zeros(8, np.uint8)
    min_max_of_narrow_loads[8](a, f, out)
    j = a % 7
    with np.errstate(over="ignore"):
        want = (np.minimum(a[j], a) + np.maximum(a, a[j]) + np.maximum(f[j], f).astype(np.uint8)
                + np.minimum(f, True).astype(np.uint8))  # fmt: skip
    np.testing.assert_array_equal(out, want)


def _nested_kernel(depth: int, folder: Path) -> Any:
    """A kernel reading ``x[x[...x[i % n] % n...] % n]`` (``depth`` nested loads), from a file
    (kernels need their source)."""
    index = "i % n"
    for _ in range(depth):
        index = f"x[{index}] % n"
    path = folder / f"nested{depth}.py"
    path.write_text("import gpuoff as go\nfrom gpuoff import Array, Borrow, BorrowMut, i64\n\n\n"
                    "@go.kernel\n"
                    "def nested(x: Borrow[Array[i64]], out: BorrowMut[Array[i64]]) -> None:\n"
                    f"    i = go.global_id(0)\n    n = x.shape[0]\n    out[i] = x[{index}]\n")
    spec = importlib.util.spec_from_file_location(f"_gpuoff_nested{depth}", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.nested


@pytest.fixture(scope="module")
def nested_kernels(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Any]:
    folder = tmp_path_factory.mktemp("nested")
    return {d: _nested_kernel(d, folder) for d in (4, 6, 8)}


def test_code_size_grows_linearly_with_nested_checked_loads(nested_kernels: Any) -> None:
    sizes = {}
    for d, k in nested_kernels.items():
        module = lower_for_show(k, "i64[:], i64[:]", None, None)
        sizes[d] = len(render_opencl(module).text)
    # each level adds one load: its test, its access and its error call, each naming the
    # index once (a temporary); before, every level tripled the text (depth 8: 559 KB)
    assert sizes[8] - sizes[6] <= 1.2 * (sizes[6] - sizes[4]) + 200, sizes
    assert sizes[8] < 12_000, sizes


def test_nested_checked_loads_run(device: str, nested_kernels: Any) -> None:
    x = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5], np.int64)
    out = np.zeros(11, np.int64)
    nested_kernels[6][11](x, out)
    idx = np.arange(11) % 11
    for _ in range(6):
        idx = x[idx] % 11
    np.testing.assert_array_equal(out, x[idx])


@go.kernel
def nan_min_max(a: Borrow[Array[f64]], b: Borrow[Array[f64]], lo: BorrowMut[Array[f64]],
                hi: BorrowMut[Array[f64]], lo32: BorrowMut[Array[f32]]) -> None:  # fmt: skip
    i = go.global_id(0)
    lo[i] = min(a[i], b[i])
    hi[i] = go.max(a[i], b[i])
    lo32[i] = min(go.f32(a[i]), go.f32(b[i]))


def test_min_max_propagate_nan_like_numpy(device: str) -> None:
    nan, inf = float("nan"), float("inf")
    a = np.array([nan, 1.0, nan, -0.0, 0.0, -inf, 2.0, inf])
    b = np.array([1.0, nan, nan, 0.0, -0.0, nan, -3.0, -inf])
    outs: list[np.ndarray[Any, Any]] = [np.zeros(8), np.zeros(8), np.zeros(8, np.float32)]
    nan_min_max[8](a, b, outs[0], outs[1], outs[2])
    want = [np.minimum(a, b), np.maximum(a, b), np.minimum(a.astype(np.float32),
                                                              b.astype(np.float32))]
    for got, w in zip(outs, want, strict=True):
        np.testing.assert_array_equal(got, w)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(w))  # -0.0 vs 0.0 too
    refs: list[np.ndarray[Any, Any]] = [np.zeros(8), np.zeros(8), np.zeros(8, np.float32)]
    module = lower_for_show(nan_min_max, "f64[:], f64[:], f64[:], f64[:], f32[:]", None, None)
    interp.run(module, [a, b, *refs], 8)
    for got, w in zip(refs, want, strict=True):
        np.testing.assert_array_equal(got, w)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(w))


@go.func
def floor_ratio(a: f32, b: f32) -> f32:
    return a // b


@go.kernel
def nan_floordiv(a: Borrow[Array[f32]], b: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    out[i] = floor_ratio(a[i], b[i]) + a[i] % b[i]


def test_nan_floor_division_in_a_device_function_is_deterministic(device: str) -> None:
    nan = float("nan")
    a = np.array([nan, 1.0, 7.0, -7.0, nan, 0.0, 5.0, float("inf")] * 8, np.float32)
    b = np.array([2.0, nan, 2.0, 2.0, 0.0, 0.0, -0.0, 3.0] * 8, np.float32)
    with np.errstate(all="ignore"):
        want = (a // b) + (a % b)
    ref = np.zeros_like(a)
    module = lower_for_show(nan_floordiv, "f32[:], f32[:], f32[:]", None, None)
    interp.run(module, [a, b, ref], a.size)
    np.testing.assert_array_equal(ref, want)
    for _ in range(20):  # launch to launch: always the same
        out = np.zeros_like(a)
        nan_floordiv[a.size](a, b, out)
        np.testing.assert_array_equal(out, want)


@go.kernel
def loop_counter_type(out: BorrowMut[Array[i64]], n: i32) -> None:
    total = go.i64(0)
    for k in range(n - 3, n):
        total += k
    out[0] = total


def test_i32_range_ending_at_the_limit(device: str) -> None:
    out = np.zeros(1, np.int64)
    loop_counter_type[1](out, 2**31 - 1)
    assert out[0] == sum(range(2**31 - 4, 2**31 - 1))



def test_a_driver_build_failure_points_at_the_users_line() -> None:
    from gpuoff.runtime.devices.opencl_program import _user_line

    module = lower_for_show(min_max_of_narrow_loads, "u8[:], bool[:], u8[:]", None, None)
    text = render_opencl(module).text
    lines = text.splitlines()
    # the C line of the store, as a driver's log would name it
    at = next(k for k, ln in enumerate(lines) if "out[" in ln) + 1
    log = f"<program source>:{at}:17: error: call to '_cl_min' is ambiguous"
    loc = _user_line(module, text, log)
    src = Path(__file__).read_text().splitlines()
    want = next(k for k, ln in enumerate(src) if "out[i] = min(a[j], a[i])" in ln) + 1
    assert (loc.filename, loc.line) == (__file__, want)
    assert "out[i] = min(a[j], a[i])" in loc.text
    assert _user_line(module, text, "no line here").line == module.kernel.firstlineno


# Found by the fuzzer (seed 30000034): Intel's CPU OpenCL runtime compiled ~max(s, x[i]) to
# max(s, x[i]) ^ 9, the grid size its short-circuit guard compared with; the same for
# min(~a, ~b) and a ~ reached through a local. Every spelling LLVM canonicalises to one of
# those is checked, in a kernel with the grid guard and with bounds-checked loads.
@go.kernel
def inverted_min_max(x: Borrow[Array[i32]], u: Borrow[Array[u32]], out: BorrowMut[Array[i32]],
                     uout: BorrowMut[Array[u32]], s: i32) -> None:  # fmt: skip
    i = go.global_id(0)
    j = (i + 1) % x.shape[0]
    out[i, 0] = ~max(s, x[i])
    out[i, 1] = min(~s, ~x[i])
    t = max(x[i], x[j])
    out[i, 2] = ~t
    out[i, 3] = ~s if s > x[i] else ~x[i]
    out[i, 4] = -1 - max(s, x[i])
    out[i, 5] = -1 - (s if s > x[i] else x[i])  # a max through a select: only the guard helps
    uout[i] = ~max(u[i], u[j])


def test_inverted_min_max_is_computed_as_written(device: str) -> None:
    x = np.array([-36, -44, -34, 20, 2, 2**31 - 2, 2, 5, -46], np.int32)
    u = np.array([0, 7, 2**32 - 1, 16, 3, 2**31, 9, 1, 5], np.uint32)
    out = np.zeros((9, 6), np.int32)
    uout = np.zeros(9, np.uint32)
    inverted_min_max[9](x, u, out, uout, 16)
    m = np.maximum(16, x)
    want = np.stack([~m, ~m, ~np.maximum(x, np.roll(x, -1)), ~m, ~m, ~m], axis=1)
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(uout, ~np.maximum(u, np.roll(u, -1)))


@go.kernel
def inverted_max_in_a_group(x: Borrow[Array[i32]], out: BorrowMut[Array[i32]], s: i32) -> None:
    # a barrier kernel has no grid guard; the miscompilation needs no ~ in the source either
    i = go.global_id(0)
    tile = go.shared(8, i32)
    tile[go.local_id(0)] = x[i]
    go.barrier()
    out[i] = -1 - max(s, tile[(go.local_id(0) + 1) % 8])


def test_inverted_max_in_a_work_group_kernel(device: str) -> None:
    x = np.resize(np.array([-36, -44, -34, 20, 2, 2**31 - 2, 2, 5, -46], np.int32), 16)
    out = np.zeros(16, np.int32)
    inverted_max_in_a_group[16, (8,)](x, out, 16)
    shifted = np.concatenate([np.roll(x[:8], -1), np.roll(x[8:], -1)])
    np.testing.assert_array_equal(out, -1 - np.maximum(16, shifted))


@go.kernel
def inverted_select_in_a_group(x: Borrow[Array[i32]], out: BorrowMut[Array[i32]], s: i32) -> None:
    i = go.global_id(0)
    tile = go.shared(8, i32)
    tile[go.local_id(0)] = x[i]
    go.barrier()
    v = tile[(go.local_id(0) + 1) % 8]
    out[i] = -1 - (s if s > v else v)


def _intel_cpu_runtime(device: str) -> bool:
    return any(d.name == device and d.backend == "opencl" and "Intel" in d.description
               for d in go.devices())


def test_inverted_select_in_a_work_group_kernel(device: str,
                                               request: pytest.FixtureRequest) -> None:
    # The driver bug gpuoff cannot work around (docs/semantics.md, "Where a device cannot
    # promise it"): a max written as a conditional, inverted, after the branches of a barrier
    # kernel. Not strict: the driver the pip wheels bring differs between machines (the one of
    # 2026-12-02's machine computes it right); where it is wrong, the test still reports it.
    if _intel_cpu_runtime(device):
        request.applymarker(pytest.mark.xfail(strict=False, reason="Intel CPU OpenCL bug"))
    x = np.resize(np.array([-36, -44, -34, 20, 2, 2**31 - 2, 2, 5, -46], np.int32), 16)
    out = np.zeros(16, np.int32)
    inverted_select_in_a_group[16, (8,)](x, out, 16)
    shifted = np.concatenate([np.roll(x[:8], -1), np.roll(x[8:], -1)])
    np.testing.assert_array_equal(out, -1 - np.maximum(16, shifted))
