"""The reference interpreter: one test (or a few) per node docstring."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial

import numpy as np
import pytest

from gpuoff.errors import BoundsError, LaunchTypeError
from gpuoff.ir import interp
from gpuoff.ir import nodes as n
from gpuoff.ir.types import INDEX, ScalarType, boolean, f32, f64, i32, i64, u8, u32
from gpuoff.ir.verify import verify
from tests.unit import irbuild as b


def run_expr(
    build: Callable[..., n.Expr], types: list[ScalarType], values: Sequence[object]
) -> np.generic:
    """Evaluate ``build(*vars)`` in a one-work-item kernel; return the stored result."""
    vars_ = [b.var(f"p{i}", t) for i, t in enumerate(types)]
    e = build(*vars_)
    out = b.ref("out", b.mut(e.type))
    params = [b.param(v.name, v.type) for v in vars_] + [b.param("out", out.type)]
    m = b.module(b.kernel("k", params, [b.store(out, 0, e)]))
    verify(m)
    res = np.zeros(1, dtype=e.type.np_dtype)
    interp.run(m, [*values, res], 1)
    return res[0]  # type: ignore[no-any-return]


def binop(op: str, t: ScalarType, x: object, y: object) -> np.generic:
    return run_expr(lambda a, c: b.bin_(op, a, c), [t, t], [x, y])


# ------------------------------------------------------------------------------- arithmetic


@pytest.mark.parametrize(
    ("x", "y"), [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, 3), (-1, 5), (5, 0), (-5, 0)]
)
def test_int_floordiv_mod_follow_python(x: int, y: int) -> None:
    expect_div = 0 if y == 0 else x // y
    expect_mod = 0 if y == 0 else x % y
    for t in (i32, i64):
        assert binop("floordiv", t, x, y) == expect_div
        assert binop("mod", t, x, y) == expect_mod


@pytest.mark.parametrize(("x", "y"), [(7.5, 2.0), (-7.5, 2.0), (7.5, -2.0), (-7.5, -2.0)])
def test_float_floordiv_mod_follow_python(x: float, y: float) -> None:
    for t in (f32, f64):
        assert binop("floordiv", t, x, y) == x // y
        assert binop("mod", t, x, y) == x % y


def test_float_division_by_zero_is_ieee() -> None:
    assert binop("truediv", f32, 1.0, 0.0) == np.inf
    assert np.isnan(binop("mod", f64, 1.0, 0.0))


def test_int_min_floordiv_minus_one_wraps() -> None:
    assert binop("floordiv", i32, -(2**31), -1) == -(2**31)
    assert binop("mod", i32, -(2**31), -1) == 0


def test_integer_arithmetic_wraps() -> None:
    assert binop("add", i32, 2**31 - 1, 1) == -(2**31)
    assert binop("mul", i64, 2**62, 4) == 0
    assert binop("sub", u32, 0, 1) == 2**32 - 1
    assert binop("add", u8, 250, 10) == 4
    assert run_expr(lambda a: n.Unary(i32, "neg", a), [i32], [-(2**31)]) == -(2**31)
    assert run_expr(lambda a: n.Unary(u32, "invert", a), [u32], [0]) == 2**32 - 1


def test_int_pow() -> None:
    assert binop("pow", i32, 3, 4) == 81
    assert binop("pow", i32, -2, 3) == -8
    assert binop("pow", i32, 2, -1) == 0
    assert binop("pow", i32, 2, 31) == -(2**31)
    assert binop("pow", u32, 3, 10**9) == pow(3, 10**9, 2**32)


def test_float_pow_and_rounding_in_f32() -> None:
    assert binop("pow", f32, 2.0, 0.5) == np.float32(np.sqrt(np.float32(2.0)))
    # f32 addition rounds to f32: 1 + 2**-30 is 1 in f32, not in f64.
    assert binop("add", f32, 1.0, 2.0**-30) == 1.0
    assert binop("add", f64, 1.0, 2.0**-30) == 1.0 + 2.0**-30


def test_shifts_mask_count_and_rshift_is_arithmetic_for_signed() -> None:
    assert binop("lshift", i32, 1, 33) == 2  # 33 & 31 == 1
    assert binop("lshift", i32, 1, 31) == -(2**31)
    assert binop("rshift", i32, -16, 2) == -4
    assert binop("rshift", u32, 2**32 - 16, 2) == (2**32 - 16) >> 2
    assert binop("rshift", i64, -1, 64) == -1  # count 0
    assert binop("lshift", u8, 1, 9) == 2


def test_bit_ops_on_ints_and_bools() -> None:
    assert binop("bitand", i32, 12, 10) == 8
    assert binop("bitor", i32, 12, 10) == 14
    assert binop("bitxor", i32, 12, 10) == 6
    assert bool(binop("bitxor", boolean, True, True)) is False
    assert bool(binop("bitor", boolean, False, True)) is True


def test_compare_nan_is_unordered_except_ne() -> None:
    nan = float("nan")
    for op, expect in [("lt", False), ("le", False), ("eq", False), ("ne", True), ("ge", False)]:
        assert bool(run_expr(lambda a, c, op=op: b.cmp(op, a, c), [f32, f32], [nan, 1.0])) is expect
    assert bool(run_expr(lambda a, c: b.cmp("lt", a, c), [u32, u32], [1, 2**32 - 1])) is True


# ------------------------------------------------------------------------------------ casts


@pytest.mark.parametrize(
    ("value", "t", "expect"),
    [
        (3.9, i32, 3),
        (-3.9, i32, -3),
        (1e20, i32, 2**31 - 1),
        (-1e20, i32, -(2**31)),
        (float("nan"), i32, 0),
        (float("inf"), i64, 2**63 - 1),
        (-5.0, u32, 0),
        (300.7, u8, 255),
        (float("-inf"), u8, 0),
    ],
)
def test_float_to_int_truncates_and_saturates(value: float, t: ScalarType, expect: int) -> None:
    assert run_expr(lambda a: b.cast(t, a), [f64], [value]) == expect


def test_int_casts_wrap_and_round() -> None:
    assert run_expr(lambda a: b.cast(u8, a), [i32], [257]) == 1
    assert run_expr(lambda a: b.cast(i32, a), [i64], [2**32 + 5]) == 5
    assert run_expr(lambda a: b.cast(i32, a), [u32], [2**32 - 1]) == -1
    # i64 -> f32 rounds once to nearest (2**24 + 1 is a tie, rounds to even).
    assert run_expr(lambda a: b.cast(f32, a), [i64], [2**24 + 1]) == 2**24
    big = 2**60 + 2**36 + 1  # just above a tie between two f32 values: rounds up
    assert run_expr(lambda a: b.cast(f32, a), [i64], [big]) == np.float32(2**60 + 2**37)


def test_bool_casts() -> None:
    assert bool(run_expr(lambda a: b.cast(boolean, a), [f32], [float("nan")])) is True
    assert bool(run_expr(lambda a: b.cast(boolean, a), [i32], [0])) is False
    assert run_expr(lambda a: b.cast(f32, a), [boolean], [True]) == 1.0
    assert run_expr(lambda a: b.cast(i32, a), [boolean], [False]) == 0


# ------------------------------------------------------------------------- short circuits


def _trap_kernel(cond_fn: Callable[[n.Expr, n.Expr], n.Expr]) -> tuple[n.Module, np.ndarray]:
    """A kernel whose condition's rhs bumps a counter (via an atomic) when evaluated."""
    cnt = b.ref("cnt", b.mut(i32))
    side = b.cmp("ge", b.atomic("add", cnt, 0, 1), b.c(0, i32))  # always true, counts
    flag = b.var("flag", boolean)
    out = b.ref("out", b.mut(i32))
    body: list[n.Stmt] = [
        b.store(out, 0, n.Select(i32, cond_fn(flag, side), b.c(1, i32), b.c(2, i32)))
    ]
    params = [b.param("flag", boolean), b.param("cnt", cnt.type), b.param("out", out.type)]
    m = b.module(b.kernel("k", params, body))
    verify(m)
    return m, np.zeros(1, dtype=np.int32)


def test_logical_and_or_short_circuit() -> None:
    for op, flag, evaluated in [
        ("and", False, 0),
        ("and", True, 1),
        ("or", True, 0),
        ("or", False, 1),
    ]:
        m, cnt = _trap_kernel(partial(n.Logical, boolean, op))
        out = np.zeros(1, dtype=np.int32)
        interp.run(m, [flag, cnt, out], 1)
        assert cnt[0] == evaluated, (op, flag)


def test_select_evaluates_only_chosen_operand() -> None:
    cnt = b.ref("cnt", b.mut(i32))
    out = b.ref("out", b.mut(i32))
    flag = b.var("flag", boolean)
    sel = n.Select(i32, flag, b.atomic("add", cnt, 0, 1), b.atomic("add", cnt, 1, 1))
    params = [b.param("flag", boolean), b.param("cnt", cnt.type), b.param("out", out.type)]
    m = b.module(b.kernel("k", params, [b.store(out, 0, sel)]))
    verify(m)
    c = np.zeros(2, dtype=np.int32)
    interp.run(m, [True, c, np.zeros(1, np.int32)], 1)
    assert list(c) == [1, 0]
    interp.run(m, [False, c, np.zeros(1, np.int32)], 1)
    assert list(c) == [1, 1]


# ----------------------------------------------------------------------------------- loops


def _loop_kernel(start: int, stop: int, step: int, extra: list[n.Stmt] | None = None) -> list[int]:
    """Records each iteration's i in out[1..]; out[0] = count, out[-1] = i after the loop."""
    out = b.ref("out", b.mut(i64))
    cnt, i = b.var("cnt"), b.var("i")
    body = [
        *(extra or []),
        b.store(out, b.bin_("add", cnt, 1), i),
        b.assign("cnt", b.bin_("add", cnt, 1)),
    ]
    stmts: list[n.Stmt] = [
        b.assign("i", b.c(-99)),
        b.for_("i", start, stop, step, body),
        b.store(out, 0, cnt),
        b.store(out, 63, i),
    ]
    m = b.module(b.kernel("k", [b.param("out", out.type)], stmts, {"i": i64, "cnt": i64}))
    verify(m)
    res = np.zeros(64, dtype=np.int64)
    interp.run(m, [res], 1)
    count = int(res[0])
    return [*res[1 : 1 + count].tolist(), int(res[63])]


@pytest.mark.parametrize(
    ("start", "stop", "step"),
    [(0, 5, 1), (2, 11, 3), (10, 0, -3), (5, 5, 1), (0, -3, 1), (3, 0, -1)],
)
def test_for_range_matches_python(start: int, stop: int, step: int) -> None:
    seen = list(range(start, stop, step))
    after = seen[-1] if seen else -99
    assert _loop_kernel(start, stop, step) == [*seen, after]


def test_for_range_step_zero_runs_nothing() -> None:
    assert _loop_kernel(0, 10, 0) == [-99]


def test_assigning_loop_var_does_not_change_iteration() -> None:
    # Body: i = i * 100 (before recording), so recorded values are 0, 100, 200, iteration
    # still visits 0, 1, 2; after the loop i keeps the body's last value.
    extra: list[n.Stmt] = [b.assign("i", b.bin_("mul", b.var("i"), 100))]
    assert _loop_kernel(0, 3, 1, extra) == [0, 100, 200, 200]


def test_break_continue_in_while_and_for() -> None:
    out = b.ref("out", b.mut(i64))
    i, s = b.var("i"), b.var("s")
    for_body: list[n.Stmt] = [
        b.if_(b.cmp("eq", b.bin_("mod", i, 2), 1), [n.Continue()]),
        b.if_(b.cmp("gt", i, 6), [n.Break()]),
        b.assign("s", b.bin_("add", s, i)),
    ]
    while_body: list[n.Stmt] = [
        b.assign("i", b.bin_("add", i, 1)),
        b.if_(b.cmp("eq", i, 3), [n.Continue()]),
        b.if_(b.cmp("ge", i, 6), [n.Break()]),
        b.assign("s", b.bin_("add", s, b.bin_("mul", i, 100))),
    ]
    body: list[n.Stmt] = [
        b.assign("s", b.c(0)),
        b.for_("i", 0, 100, 1, for_body),
        b.store(out, 0, s),
        b.store(out, 1, i),
        b.assign("s", b.c(0)),
        b.assign("i", b.c(0)),
        b.while_(b.c(True), while_body),
        b.store(out, 2, s),
    ]
    m = b.module(b.kernel("k", [b.param("out", out.type)], body, {"i": i64, "s": i64}))
    verify(m)
    res = np.zeros(3, dtype=np.int64)
    interp.run(m, [res], 1)
    assert res.tolist() == [0 + 2 + 4 + 6, 8, 100 + 200 + 400 + 500]


def test_return_ends_only_this_work_item() -> None:
    out = b.ref("out", b.mut(i64))
    i = b.var("i")
    body: list[n.Stmt] = [
        b.assign("i", b.gid()),
        b.if_(b.cmp("eq", b.bin_("mod", i, 2), 1), [n.Return()]),
        b.store(out, i, b.c(1)),
    ]
    m = b.module(b.kernel("k", [b.param("out", out.type)], body, {"i": i64}))
    res = np.zeros(6, dtype=np.int64)
    interp.run(m, [res], 6)
    assert res.tolist() == [1, 0, 1, 0, 1, 0]


# -------------------------------------------------------------------------- device functions


def test_device_function_calls_scalars_by_value_arrays_by_reference() -> None:
    fa = b.ref("a", b.mut(f32))
    x = b.var("x", f32)
    helper = b.func(
        "helper",
        [b.param("a", fa.type), b.param("x", f32)],
        [b.assign("x", b.bin_("mul", x, 2.0)), b.store(fa, 0, x), n.Return(b.bin_("add", x, 1.0))],
        ret=f32,
    )
    setter = b.func("setter", [b.param("a", fa.type)], [b.store(fa, 1, 7.0)])
    out = b.ref("out", b.mut(f32))
    y = b.var("y", f32)
    body: list[n.Stmt] = [
        b.assign("y", b.c(3.0)),
        b.store(out, 2, n.Call(f32, "helper", (out, y))),
        b.store(out, 3, y),  # unchanged by the callee
        n.ExprStmt(n.Call(boolean, "setter", (out,))),
    ]
    m = b.module(b.kernel("k", [b.param("out", out.type)], body, {"y": f32}), setter, helper)
    verify(m)
    res = np.zeros(4, dtype=np.float32)
    interp.run(m, [res], 1)
    assert res.tolist() == [6.0, 7.0, 7.0, 3.0]


# -------------------------------------------------------------------------------- math


@pytest.mark.parametrize(
    ("name", "args", "expect"),
    [
        ("sqrt", [4.0], 2.0),
        ("rsqrt", [4.0], 0.5),
        ("exp", [0.0], 1.0),
        ("log2", [8.0], 3.0),
        ("floor", [-1.5], -2.0),
        ("ceil", [-1.5], -1.0),
        ("abs", [-3.0], 3.0),
        # NumPy's minimum/maximum: NaN propagates, from either side (docs/semantics.md)
        ("min", [float("nan"), 2.0], float("nan")),
        ("max", [1.0, float("nan")], float("nan")),
        ("min", [2.0, 1.0], 1.0),
        ("pow", [2.0, 10.0], 1024.0),
        ("fma", [2.0, 3.0, 1.0], 7.0),
        ("erf", [0.5], float(np.float32(math.erf(0.5)))),
    ],
)
def test_float_math(name: str, args: list[float], expect: float) -> None:
    got = run_expr(lambda *a: b.math(name, *a), [f32] * len(args), args)
    assert isinstance(got, np.float32)
    assert got == np.float32(expect) or (math.isnan(expect) and np.isnan(got))


def test_fma_rounds_once() -> None:
    # a*b+c with a single rounding differs from the rounded product plus c.
    a = 1.0 + 2.0**-23
    c = -(1.0 + 2.0**-22)
    fused = run_expr(lambda x, y, z: b.math("fma", x, y, z), [f32] * 3, [a, a, c])
    assert fused == np.float32(2.0**-46)
    assert np.float32(a) * np.float32(a) + np.float32(c) == 0.0
    d = run_expr(lambda x, y, z: b.math("fma", x, y, z), [f64] * 3, [0.1, 10.0, -1.0])
    assert d == float(Fraction(0.1) * 10 - 1)  # exact, then rounded once
    assert d != 0.1 * 10.0 - 1.0


def test_int_math_and_predicates() -> None:
    assert run_expr(lambda a: b.math("abs", a), [i32], [-(2**31)]) == -(2**31)
    assert run_expr(lambda a, c: b.math("min", a, c), [i32, i32], [-3, 2]) == -3
    assert run_expr(lambda a, c: b.math("max", a, c), [u32, u32], [3, 2**32 - 1]) == 2**32 - 1
    isnan = run_expr(lambda a: b.math("isnan", a, t=boolean), [f64], [float("nan")])
    assert bool(isnan) is True
    isinf = run_expr(lambda a: b.math("isinf", a, t=boolean), [f32], [1.0])
    assert bool(isinf) is False


# ------------------------------------------------------------------- grids, views, errors


def _ids_kernel(name: str, ndim: int) -> n.Module:
    """out[g0, g1, g2] = name(0) + 10*name(1) + 100*name(2) (one slot per work-item)."""
    out = b.ref("out", b.mut(i64, 3))
    val = b.bin_("add", b.wi(name, 0), b.bin_("add", b.bin_("mul", b.wi(name, 1), 10),
                                                b.bin_("mul", b.wi(name, 2), 100)))  # fmt: skip
    st = b.store(out, (b.gid(0), b.gid(1), b.gid(2)), val)
    m = b.module(b.kernel("k", [b.param("out", out.type)], [st]))
    verify(m)
    return m


@pytest.mark.parametrize("grid", [5, (4, 3), (2, 3, 4)])
def test_global_ids_cover_grid_exactly(grid: int | tuple[int, ...]) -> None:
    g = (grid,) if isinstance(grid, int) else grid
    shape3 = (*g, *([1] * (3 - len(g))))
    res = np.full(shape3, -1, dtype=np.int64)
    interp.run(_ids_kernel("global_id", len(g)), [res], grid)
    ii, jj, kk = np.indices(shape3)
    assert (res == ii + 10 * jj + 100 * kk).all()


def test_local_group_ids_and_sizes_with_explicit_block() -> None:
    res = np.zeros((8, 6, 1), dtype=np.int64)
    interp.run(_ids_kernel("local_id", 2), [res], (8, 6), (4, 2))
    ii, jj, _ = np.indices(res.shape)
    assert (res == ii % 4 + 10 * (jj % 2)).all()
    interp.run(_ids_kernel("group_id", 2), [res], (8, 6), (4, 2))
    assert (res == ii // 4 + 10 * (jj // 2)).all()
    interp.run(_ids_kernel("num_groups", 2), [res], (8, 6), (4, 2))
    assert (res == 2 + 10 * 3 + 100).all()
    interp.run(_ids_kernel("global_size", 2), [res], (8, 6), (4, 2))
    assert (res == 8 + 60 + 100).all()
    interp.run(_ids_kernel("local_size", 2), [res], (8, 6), (4, 2))
    assert (res == 4 + 20 + 100).all()


def test_zero_size_grid_runs_nothing() -> None:
    res = np.full((1, 1, 1), 7, dtype=np.int64)
    interp.run(_ids_kernel("global_id", 1), [res], 0)
    interp.run(_ids_kernel("global_id", 2), [res], (0, 5))
    assert res[0, 0, 0] == 7


def test_bad_grid_and_block() -> None:
    m = _ids_kernel("global_id", 1)
    res = np.zeros((8, 1, 1), dtype=np.int64)
    with pytest.raises(ValueError, match="multiple"):
        interp.run(m, [res], 8, 3)
    with pytest.raises(ValueError):
        interp.run(m, [res], (1, 1, 1, 1))
    with pytest.raises(ValueError):
        interp.run(m, [res], -1)


def test_default_block_caps() -> None:
    assert interp.normalize_grid(1000) == ((1000,), (64,))
    assert interp.normalize_grid((100, 100, 100))[1] == (64, 16, 1)
    assert interp.normalize_grid((3, 0)) == ((3, 0), (3, 1))


def test_argument_validation() -> None:
    m = b.saxpy()
    x = np.zeros(4, np.float32)
    with pytest.raises(LaunchTypeError):
        interp.run(m, [1.0, x], 4)
    with pytest.raises(LaunchTypeError):
        interp.run(m, [1.0, x, np.zeros(4, np.float64)], 4)
    with pytest.raises(LaunchTypeError):
        interp.run(m, [x, x, x], 4)


def test_strided_views_are_honoured() -> None:
    base_x = np.arange(20, dtype=np.float32)
    base_y = np.zeros((4, 10), dtype=np.float32)
    x = base_x[::2]  # stride 2
    y = base_y[:, 3]  # column: stride 10
    m = b.saxpy()
    interp.run(m, [2.0, x[:4], y], 4)
    assert base_y[:, 3].tolist() == [0.0, 4.0, 8.0, 12.0]
    assert base_y.sum() == 24.0  # nothing else written
    rev = np.arange(4, dtype=np.float32)[::-1]
    yy = np.zeros(4, np.float32)
    interp.run(m, [1.0, rev, yy], 4)
    assert yy.tolist() == [3.0, 2.0, 1.0, 0.0]


def test_bounds_error_reports_lowest_check_and_skips_access() -> None:
    m = b.saxpy(guarded=False)
    x = np.arange(4, dtype=np.float32)
    y = np.ones(6, dtype=np.float32)
    with pytest.raises(BoundsError) as info:
        interp.run(m, [1.0, x, y], 6)
    assert str(info.value) == (
        "index (4,) out of range for x with shape (4,) in kernel saxpy at file.py:13: "
        "y[i] = a * x[i] + y[i]"
    )
    # In-range work-items ran; out-of-range loads yielded 0 (y = 0*1 + y).
    assert y.tolist() == [1.0, 2.0, 3.0, 4.0, 1.0, 1.0]
    assert isinstance(info.value, IndexError)


def test_out_of_range_store_writes_nothing_and_atomic_yields_zero() -> None:
    out = b.ref("out", b.mut(i32))
    res_ref = b.ref("res", b.mut(i32))
    body: list[n.Stmt] = [
        b.store(out, -1, 5, check=1),
        b.store(res_ref, 0, b.atomic("add", out, 9, 3, check=2)),
    ]
    params = [b.param("out", out.type), b.param("res", res_ref.type)]
    m = b.module(b.kernel("k", params, body), checks=[b.check(1, "out"), b.check(2, "out")])
    verify(m)
    o = np.full(3, 4, np.int32)
    r = np.full(1, 8, np.int32)
    with pytest.raises(BoundsError, match=r"index \(-1,\) out of range for out with shape \(3,\)"):
        interp.run(m, [o, r], 1)
    assert o.tolist() == [4, 4, 4]
    assert r[0] == 0


def test_unchecked_out_of_range_is_reported_as_undefined() -> None:
    out = b.ref("out", b.mut(i32))
    m = b.module(b.kernel("k", [b.param("out", out.type)], [b.store(out, -1, 5)]))
    with pytest.raises(interp.UndefinedBehaviorError):
        interp.run(m, [np.zeros(2, np.int32)], 1)


def test_index_type_is_index() -> None:
    assert INDEX is i64
