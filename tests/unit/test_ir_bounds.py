"""Bounds-error messages and redundant-check elimination (proofs, soundness, semantics)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest

from gpuoff.errors import BoundsError
from gpuoff.ir import interp
from gpuoff.ir import nodes as n
from gpuoff.ir.bounds import bounds_error_message, eliminate_redundant_checks
from gpuoff.ir.types import ScalarType, f32, i64
from gpuoff.ir.verify import verify
from tests.unit import irbuild as b

Y = b.ref("y", b.mut(f32))
X = b.ref("x", b.arr(f32))
M = b.ref("m", b.mut(f32, 2))
I = b.var("i")  # noqa: E741 - reads like the kernel variable
N = b.var("n")


def live_checks(m: n.Module) -> set[int]:
    """Check ids still attached to some access of ``m``."""

    def walk(x: object) -> Iterator[int]:
        if isinstance(x, n.Load | n.Store | n.AtomicRMW) and x.check is not None:
            yield x.check
        if isinstance(x, n.Node):
            for v in vars(x).values():
                yield from walk(v)
        elif isinstance(x, tuple):
            for v in x:
                yield from walk(v)

    return {c for fn in (m.kernel, *m.functions) for c in walk(fn.body)}


def kmod(*body: n.Stmt, locals_: dict[str, ScalarType] | None = None) -> n.Module:
    """Kernel ``k(n: i64, x, y, m)`` with locals i, j, n2 (i64) and four checks."""
    params = [b.param("n", i64), b.param("x", X.type), b.param("y", Y.type), b.param("m", M.type)]
    loc = {"i": i64, "j": i64, "s": i64, **(locals_ or {})}
    m = b.module(b.kernel("k", params, list(body), loc), checks=4)
    verify(m)
    return m


def yi(check: int = 1, idx: n.Expr = I) -> n.Store:
    """``y[idx] = 1`` with ``check``."""
    return b.store(Y, idx, 1.0, check=check)


def kept(m: n.Module) -> set[int]:
    out = eliminate_redundant_checks(m)
    verify(out)
    assert out.checks == m.checks  # ids stable
    return live_checks(out)


def run_both(m: n.Module, n_items: int, ny: int = 8) -> None:
    """Original and optimised modules agree exactly, errors included."""
    results = []
    for mod in (m, eliminate_redundant_checks(m)):
        x = np.arange(6, dtype=np.float32)
        y = np.zeros(ny, dtype=np.float32)
        mm = np.zeros((3, 4), dtype=np.float32)
        try:
            interp.run(mod, [np.int64(5), x, y, mm], n_items)
            err = ""
        except BoundsError as e:
            err = str(e)
        results.append((y.tolist(), mm.tolist(), err))
    assert results[0] == results[1]


# ------------------------------------------------------------------------------ messages


def test_message_format() -> None:
    m = b.saxpy()
    assert bounds_error_message(m, 1, (10,), (8,)) == (
        "index (10,) out of range for x with shape (8,) in kernel saxpy at file.py:13: "
        "y[i] = a * x[i] + y[i]"
    )


def test_message_for_device_function_and_numpy_ints() -> None:
    m = b.kitchen_sink()
    msg = bounds_error_message(m, 3, (np.int64(0), np.int64(-1)), (np.int64(3), 0))
    assert msg == (
        "index (0, -1) out of range for m with shape (3, 0) in function helper "
        "(called from kernel sink) at file.py:5: return v * m[0, 0]"
    )
    assert bounds_error_message(m, 2, (9,), (2,)).endswith("at file.py:34")


# ---------------------------------------------------------------------------- proofs


def test_saxpy_guard_removes_only_guarded_array_checks() -> None:
    assert kept(b.saxpy()) == {1}  # x is not guarded by y's shape
    assert kept(b.saxpy(guarded=False)) == {1, 2, 3}


GUARDED: list[tuple[str, Callable[[], n.Stmt]]] = [
    ("lt", lambda: b.if_(b.lt(I, b.shape(Y)), [yi()])),
    ("gt flipped", lambda: b.if_(b.cmp("gt", b.shape(Y), I), [yi()])),
    ("not ge", lambda: b.if_(b.not_(b.ge(I, b.shape(Y))), [yi()])),
    ("not le flipped", lambda: b.if_(b.not_(b.cmp("le", b.shape(Y), I)), [yi()])),
    ("and", lambda: b.if_(b.and_(b.lt(I, N), b.lt(I, b.shape(Y))), [yi()])),
    ("else of ge", lambda: b.if_(b.ge(I, b.shape(Y)), [], [yi()])),
    ("not or", lambda: b.if_(b.not_(b.or_(b.lt(I, 0), b.ge(I, b.shape(Y)))), [yi()])),
    ("nested", lambda: b.if_(b.lt(I, b.shape(Y)), [b.if_(b.lt(N, 3), [yi()])])),
]


@pytest.mark.parametrize("name", [g[0] for g in GUARDED])
def test_guarded_global_id_check_removed(name: str) -> None:
    guard: n.Stmt = dict(GUARDED)[name]()
    m = kmod(b.assign("i", b.gid()), guard)
    assert kept(m) == set()
    run_both(m, 12)


def test_early_return_guard() -> None:
    m = kmod(b.assign("i", b.gid()), b.if_(b.ge(I, b.shape(Y)), [n.Return()]), yi())
    assert kept(m) == set()
    run_both(m, 12)
    nested_exit = b.if_(b.ge(I, b.shape(Y)), [b.if_(b.lt(N, 0), [n.Return()], [n.Return()])])
    assert kept(kmod(b.assign("i", b.gid()), nested_exit, yi())) == set()
    # A guard whose body may fall through proves nothing afterwards.
    falls = kmod(b.assign("i", b.gid()), b.if_(b.ge(I, b.shape(Y)), [b.assign("j", N)]), yi())
    assert kept(falls) == {1}


def test_work_item_used_directly() -> None:
    m = kmod(b.if_(b.lt(b.gid(), b.shape(Y)), [yi(idx=b.gid())]))
    assert kept(m) == set()
    other_dim = kmod(b.if_(b.lt(b.gid(1), b.shape(Y)), [yi(idx=b.gid())]))
    assert kept(other_dim) == {1}


def test_two_dims_need_both_guards() -> None:
    j = b.var("j")
    st = b.store(M, (I, j), 2.0, check=2)
    both = b.and_(b.lt(I, b.shape(M, 0)), b.lt(j, b.shape(M, 1)))
    ids = [b.assign("i", b.gid(0)), b.assign("j", b.gid(1))]
    assert kept(kmod(*ids, b.if_(both, [st]))) == set()
    only_one = b.and_(b.lt(I, b.shape(M, 0)), b.lt(j, b.shape(M, 0)))  # wrong dim for j
    assert kept(kmod(*ids, b.if_(only_one, [st]))) == {2}


def test_short_circuit_rhs_sees_lhs() -> None:
    cond = b.and_(b.lt(I, b.shape(X)), b.cmp("gt", b.load(X, I, check=3), b.c(0.0)))
    m = kmod(b.assign("i", b.gid()), b.if_(cond, [yi()]))
    assert kept(m) == {1}  # x[i] proven by the lhs, y[i] is not guarded
    run_both(m, 10)
    sel = n.Select(f32, b.lt(I, b.shape(X)), b.load(X, I, check=3), b.c(0.0))
    assert kept(kmod(b.assign("i", b.gid()), b.store(Y, 0, sel, check=1))) == {1}


def test_range_loops() -> None:
    cases: list[tuple[b.Operand, n.Expr, b.Operand, set[int]]] = [
        (0, b.shape(Y), 1, set()),
        (2, b.shape(Y), 3, set()),
        (b.gid(), b.shape(Y), 1, set()),  # start is a work-item id: non-negative
        (-1, b.shape(Y), 1, {1}),  # negative start
        (0, b.shape(Y), -1, {1}),  # negative step
        (0, b.shape(Y), N, {1}),  # step not a constant
        (N, b.shape(Y), 1, {1}),  # start may be negative
        (0, b.bin_("add", b.shape(Y), 1), 1, {1}),  # stop is not a shape
        (0, b.shape(X), 1, {1}),  # another array's shape
    ]
    for start, stop, step, expect in cases:
        m = kmod(b.for_("i", start, stop, step, [yi()]))
        assert kept(m) == expect, (start, stop, step)
        run_both(m, 2, ny=8)


def test_loop_var_not_trusted_after_loop_or_when_reassigned() -> None:
    after = kmod(b.for_("i", 0, b.shape(Y), 1, []), yi())
    assert kept(after) == {1}
    reassigned = kmod(b.for_("i", 0, b.shape(Y), 1, [b.assign("i", b.bin_("add", I, 1)), yi()]))
    assert kept(reassigned) == {1}
    run_both(reassigned, 1)
    before = kmod(b.for_("i", 0, b.shape(Y), 1, [yi(), b.assign("i", b.bin_("add", I, 1))]))
    assert kept(before) == set()  # the assignment comes after the access


# --------------------------------------------------------------------------- soundness


def test_reassigned_variable_is_not_trusted() -> None:
    bump = b.assign("i", b.bin_("add", I, 1))
    m = kmod(b.assign("i", b.gid()), b.if_(b.lt(I, b.shape(Y)), [bump, yi()]))
    assert kept(m) == {1}
    run_both(m, 8)


def test_guard_before_assignment_is_not_trusted() -> None:
    m = kmod(b.if_(b.lt(I, b.shape(Y)), [b.assign("i", b.gid()), yi()]))
    assert kept(m) == {1}
    run_both(m, 12)


def test_loop_carried_change_is_not_trusted() -> None:
    # if i < len(y): while j < 3: y[i] ...; i = i + 5  -- the second trip sees a new i.
    j = b.var("j")
    loop = b.while_(
        b.lt(j, 3),
        [yi(), b.assign("i", b.bin_("add", I, 5)), b.assign("j", b.bin_("add", j, 1))],
    )
    m = kmod(b.assign("i", b.gid()), b.assign("j", b.c(0)), b.if_(b.lt(I, b.shape(Y)), [loop]))
    assert kept(m) == {1}
    run_both(m, 8)


def test_branch_assignment_kills_fact_after_if() -> None:
    m = kmod(
        b.assign("i", b.gid()),
        b.if_(
            b.lt(I, b.shape(Y)),
            [b.if_(b.lt(N, 100), [b.assign("i", N)]), yi(), b.assign("i", b.c(7)), yi(2)],
        ),
    )
    assert kept(m) == {1, 2}


def test_possibly_negative_variable_is_not_trusted() -> None:
    m = kmod(b.assign("i", b.bin_("sub", N, 9)), b.if_(b.lt(I, b.shape(Y)), [yi()]))
    assert kept(m) == {1}
    run_both(m, 1)
    copied = kmod(b.assign("j", b.gid()), b.assign("i", b.var("j")),
                  b.if_(b.lt(I, b.shape(Y)), [yi()]))  # fmt: skip
    assert kept(copied) == set()


def test_shared_static_shape_with_constant_bound() -> None:
    sh = b.ref("tmp", b.shared_t(f32, 16))
    lid = b.var("lid")
    body: list[n.Stmt] = [
        b.assign("lid", b.wi("local_id")),
        b.if_(b.lt(lid, 16), [b.store(sh, lid, 1.0, check=1)]),
        b.if_(b.lt(lid, 17), [b.store(sh, lid, 1.0, check=2)]),
        b.store(sh, 15, 2.0, check=3),
        b.store(sh, 16, 2.0, check=4),
    ]
    k = b.kernel("k", [], body, {"lid": i64}, (n.SharedArray("tmp", sh.type),))
    m = b.module(k, checks=4)
    verify(m)
    assert kept(m) == {2, 4}


def test_device_functions_are_rewritten_too() -> None:
    ya = b.ref("a", Y.type)
    v = b.var("v")
    helper = b.func(
        "h",
        [b.param("a", Y.type), b.param("v", i64)],
        [b.for_("v", 0, b.shape(ya), 1, [b.store(ya, v, 0.0, check=1)])],
    )
    k = b.kernel("k", [b.param("y", Y.type)], [n.ExprStmt(n.Call(b.boolean, "h", (Y, b.c(3))))])
    m = b.module(k, helper, checks=1)
    verify(m)
    assert kept(m) == set()


def test_reduction_semantics_preserved() -> None:
    m = b.tree_reduction(8)
    x = np.arange(24, dtype=np.float32)
    outs = []
    for mod in (m, eliminate_redundant_checks(m)):
        out = np.zeros(3, dtype=np.float32)
        interp.run(mod, [x, out], 24, 8)
        outs.append(out.tolist())
    assert outs[0] == outs[1] == x.reshape(3, 8).sum(axis=1).tolist()


# ------------------------------------------------------------------- offsets and aliases


def _stencil(guard: n.Expr, *offsets: int, alias: bool = True) -> n.Module:
    """i = global_id(0); rows = y.shape[0]; if guard: y[i + off] = ... for each offset."""
    stores = [yi(k + 1, b.bin_("add", I, off)) for k, off in enumerate(offsets)]
    pre: list[n.Stmt] = [b.assign("i", b.gid()), b.assign("s", b.shape(Y) if alias else N)]
    return kmod(*pre, b.if_(guard, list(stores)))


ROWS = b.var("s")


def test_neighbour_offsets_need_matching_bounds() -> None:
    inner = b.and_(b.cmp("gt", I, 0), b.lt(I, b.bin_("sub", ROWS, 1)))
    m = _stencil(inner, -1, 0, 1)
    assert kept(m) == set()
    run_both(m, 12)
    assert kept(_stencil(inner, 2, -2)) == {1, 2}  # one step too far each way
    assert kept(_stencil(b.lt(I, b.bin_("sub", ROWS, 1)), -1, 1)) == {1}  # i - 1 may be < 0
    assert kept(_stencil(inner, 1, alias=False)) == {1}  # s is n, not a shape
    ge1 = b.and_(b.cmp("ge", I, 1), b.cmp("le", I, b.bin_("sub", ROWS, 2)))
    assert kept(_stencil(ge1, -1, 1)) == set()


def test_plus_offset_on_the_left_is_not_trusted() -> None:
    # i + 1 < len(y) could hold by wrapping when i is the largest i64, so it proves nothing.
    m = _stencil(b.lt(b.bin_("add", I, 1), ROWS), 0)
    assert kept(m) == {1}
    minus = _stencil(b.lt(b.bin_("sub", I, 1), b.bin_("sub", ROWS, 1)), 0)
    assert kept(minus) == set()


def test_alias_dies_when_reassigned() -> None:
    m = kmod(
        b.assign("i", b.gid()),
        b.assign("s", b.shape(Y)),
        b.assign("s", b.bin_("add", ROWS, 5)),
        b.if_(b.lt(I, ROWS), [yi()]),
    )
    assert kept(m) == {1}
    run_both(m, 12)
    shifted = kmod(
        b.assign("i", b.gid()),
        b.assign("s", b.bin_("sub", b.shape(Y), 2)),
        b.if_(b.lt(I, ROWS), [yi(1, b.bin_("add", I, 2)), yi(2, b.bin_("add", I, 3))]),
    )
    assert kept(shifted) == {2}


def test_derived_lower_bounds() -> None:
    j = b.var("j")
    m = kmod(
        b.assign("i", b.gid()),
        b.if_(b.cmp("ge", I, 3), [
            b.assign("j", b.bin_("sub", I, 3)),
            b.if_(b.lt(j, b.shape(Y)), [yi(1, j)]),
            b.assign("j", b.bin_("add", I, 3)),  # could wrap: no lower bound from it
            b.if_(b.lt(j, b.shape(Y)), [yi(2, j)]),
        ]),
    )  # fmt: skip
    assert kept(m) == {2}
    run_both(m, 12)


def test_loop_stop_learns_nothing_from_the_old_loop_variable() -> None:
    # Before the loop i >= 100 (old value); "for i in range(0, j)" must not conclude j > 100.
    j = b.var("j")
    m = kmod(
        b.assign("i", b.c(100)),
        b.assign("j", b.bin_("sub", N, 20)),
        b.for_("i", 0, j, 1, [b.if_(b.lt(j, b.shape(Y)), [yi(1, b.bin_("sub", j, 100))])]),
    )
    assert kept(m) == {1}
    run_both(m, 1)


# ------------------------------------------------------------------ loop-invariant bounds


def _grid_stride(*extra: n.Stmt, step: n.Expr | None = None) -> n.Module:
    """i = global_id; while j < 5 and i < len(y): j += 1; y[i] = 1; <extra>; i = i + step."""
    j = b.var("j")
    inc = b.assign("i", b.bin_("add", I, step if step is not None else b.wi("global_size")))
    count = b.assign("j", b.bin_("add", j, 1))
    loop = b.while_(b.and_(b.lt(j, 5), b.lt(I, b.shape(Y))), [count, yi(), *extra, inc])
    return kmod(b.assign("i", b.gid()), b.assign("j", b.c(0)), loop)


def test_grid_stride_loop_keeps_lower_bound() -> None:
    m = _grid_stride()
    assert kept(m) == set()
    run_both(m, 3, ny=8)
    stride = kmod(
        b.assign("s", b.wi("global_size")),
        b.assign("i", b.gid()),
        b.while_(b.lt(I, b.shape(Y)), [yi(), b.assign("i", b.bin_("add", b.var("s"), I))]),
    )
    assert kept(stride) == set()


@pytest.mark.parametrize(
    "step",
    [N, b.c(-1), b.bin_("sub", b.c(0), b.wi("global_size"))],
    ids=["param may be negative", "negative constant", "not a plain increment"],
)
def test_grid_stride_with_unsafe_step_keeps_check(step: n.Expr) -> None:
    m = _grid_stride(step=step)
    assert kept(m) == {1}
    run_both(m, 3)


def test_increment_without_upper_bound_breaks_invariant() -> None:
    # The increment happens where i may be anywhere (it could wrap), so i >= 0 is not kept.
    j = b.var("j")
    loop = b.while_(
        b.lt(j, 3),
        [
            b.assign("j", b.bin_("add", j, 1)),
            b.assign("i", b.bin_("add", I, b.wi("global_size"))),
            b.if_(b.lt(I, b.shape(Y)), [yi()]),
        ],
    )
    m = kmod(b.assign("i", b.gid()), b.assign("j", b.c(0)), loop)
    assert kept(m) == {1}
    run_both(m, 4)


def test_inner_loop_rebinding_breaks_invariant() -> None:
    inner = b.for_("i", -3, 0, 1, [])
    m = _grid_stride(inner)
    assert kept(m) == {1}
    run_both(m, 2)
