"""Lowering kernels to IR: statements, locals, loops, arrays and indexing, captured names, the
bounds-check table and source locations."""
# ruff: noqa: B007, F841

import inspect
import math

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Owned, f32, f64, i32
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from gpuoff.ownership import Access
from tests.unit.frontend_lower_support import body_of, line_in_file, lower, walk

# --------------------------------------------------------------------------------------------
# Statements and locals
# --------------------------------------------------------------------------------------------


def k_saxpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    """Docstrings are skipped."""
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


def test_saxpy_structure() -> None:
    module = lower(k_saxpy)
    k = module.kernel
    assert k.name == "k_saxpy" and k.is_kernel and k.locals == {"i": T.INDEX}
    assign, branch = k.body
    assert assign == N.Assign("i", N.WorkItem(T.INDEX, "global_id", 0))
    assert isinstance(branch, N.If) and branch.orelse == ()
    assert branch.cond == N.Compare(T.boolean, "lt", N.Var(T.INDEX, "i"), N.ShapeOf(
        T.INDEX, N.ArrayRef("y", k.param("y").type), 0))  # type: ignore[arg-type]  # fmt: skip
    (store,) = branch.body
    assert isinstance(store, N.Store) and store.array.name == "y"
    assert [c.id for c in module.checks] == [1, 2, 3]
    assert store.check == 3


def k_widening(n: i32, y: BorrowMut[Array[f64]]) -> None:
    v = 0
    for k in range(n):
        v = v + k
    w = v
    w = 0.5  # type: ignore[assignment]
    y[0] = w


def test_local_types_join_to_a_fixpoint() -> None:
    k = lower(k_widening).kernel
    # v: Python int joined with i32 loop values -> i32; w: i32 joined with a float -> f64.
    assert k.locals["v"] == T.i32 and k.locals["k"] == T.i32 and k.locals["w"] == T.f64
    first = k.body[0]
    assert first == N.Assign("v", N.Const(T.i32, 0))
    w_assign = k.body[2]
    assert isinstance(w_assign, N.Assign) and w_assign.value == N.Cast(T.f64, N.Var(T.i32, "v"))


def k_loop_carried(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    acc = 0.0
    prev = 0.0
    for k in range(len(x)):
        acc = acc + prev
        prev = x[k]
    y[0] = acc


def test_loop_carried_variable_typed_from_later_assignment() -> None:
    k = lower(k_loop_carried).kernel
    assert k.locals["acc"] == T.f32 and k.locals["prev"] == T.f32


def k_unpack(n: i32, y: BorrowMut[Array[i32]]) -> None:
    a, b = 0, 1
    for k in range(n):
        a, b = b, a + b
    y[0] = a


def test_tuple_unpacking_evaluates_right_side_first() -> None:
    body = body_of(k_unpack)
    loop = body[2]
    assert isinstance(loop, N.ForRange)
    t0, t1, set_a, set_b = loop.body
    assert isinstance(t0, N.Assign) and t0.target.startswith("_gpuoff_t")
    assert isinstance(t1, N.Assign) and isinstance(t1.value, N.Binary)
    # Only Python ints are assigned: a and b are (weak) i64.
    assert set_a == N.Assign("a", N.Var(T.i64, t0.target))
    assert set_b == N.Assign("b", N.Var(T.i64, t1.target))


def k_swap(y: BorrowMut[Array[f32]]) -> None:
    y[0], y[1] = y[1], y[0]


def test_tuple_unpacking_into_elements() -> None:
    body = body_of(k_swap)
    assert [type(s).__name__ for s in body] == ["Assign", "Assign", "Store", "Store"]


def k_chained(y: BorrowMut[Array[f32]]) -> None:
    a = b = y[0] * 2


def test_chained_assignment_evaluates_once() -> None:
    module = lower(k_chained)
    assert len(module.checks) == 1
    tmp, a, b = module.kernel.body
    assert isinstance(tmp, N.Assign) and a == N.Assign("a", N.Var(T.f32, tmp.target))


def k_aug(i: i32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    s = 1
    s += 2
    s *= x[0]  # type: ignore[assignment]
    y[i] += x[i]
    y[i * 2 + 1] -= 1.0


def test_augmented_assignment() -> None:
    module = lower(k_aug)
    body = module.kernel.body
    assert module.kernel.locals["s"] == T.f32
    store = body[3]
    assert isinstance(store, N.Store) and store.indices == (N.Cast(T.INDEX, N.Var(T.i32, "i")),)
    assert isinstance(store.value, N.Binary) and isinstance(store.value.lhs, N.Load)
    assert store.value.lhs.check != store.check and store.check is not None
    # A computed index goes into a temporary so it is evaluated once.
    tmp, store2 = body[4], body[5]
    assert isinstance(tmp, N.Assign) and tmp.target.startswith("_gpuoff_t")
    assert isinstance(store2, N.Store) and store2.indices == (N.Var(T.INDEX, tmp.target),)
    assert isinstance(store2.value, N.Binary) and store2.value.op == "sub"


def k_annotated(y: BorrowMut[Array[f32]]) -> None:
    v: f32 = 0  # type: ignore[assignment]
    u: go.i64
    u = 3  # type: ignore[assignment]
    v = v + 1
    y[0] = v + u


def test_annotated_locals_fix_the_type() -> None:
    k = lower(k_annotated).kernel
    assert k.locals["v"] == T.f32 and k.locals["u"] == T.i64
    assert k.body[0] == N.Assign("v", N.Const(T.f32, 0.0))


def k_param_reassign(a: f32, n: i32, y: BorrowMut[Array[f32]]) -> None:
    a = a * 2
    n = n + 1.5  # type: ignore[assignment]
    y[0] = a + n


def test_assigning_a_scalar_parameter_renames_it() -> None:
    k = lower(k_param_reassign).kernel
    assert [p.name for p in k.params] == ["_gpuoff_arg_a", "_gpuoff_arg_n", "y"]
    assert k.locals["a"] == T.f32 and k.locals["n"] == T.f64
    assert k.body[0] == N.Assign("a", N.Var(T.f32, "_gpuoff_arg_a"))
    assert k.body[1] == N.Assign("n", N.Cast(T.f64, N.Var(T.i32, "_gpuoff_arg_n")))


# --------------------------------------------------------------------------------------------
# Loops and control flow
# --------------------------------------------------------------------------------------------


def k_loops(n: i32, s: i32, y: BorrowMut[Array[f32]]) -> None:
    for a in range(10):
        pass
    for b in range(2, n):
        pass
    for c in range(n, 0, -1):
        pass
    for d in range(0, n, s):
        if d > 5:
            break
        elif d == 3:
            continue
    while n > 0:
        n -= 1
        if n == 2:
            break
    return


def test_loop_nodes() -> None:
    body = body_of(k_loops)
    f1, f2, f3, f4 = body[1:5]
    assert f1 == N.ForRange("a", N.Const(T.i64, 0), N.Const(T.i64, 10), N.Const(T.i64, 1), ())
    assert isinstance(f2, N.ForRange) and f2.start == N.Const(T.i32, 2)
    assert f2.stop == N.Var(T.i32, "n") and f2.step == N.Const(T.i32, 1)
    assert isinstance(f3, N.ForRange) and f3.step == N.Const(T.i32, -1)
    assert isinstance(f4, N.ForRange) and f4.step == N.Var(T.i32, "s")
    (branch,) = f4.body
    assert isinstance(branch, N.If) and branch.body == (N.Break(),)
    (elif_,) = branch.orelse
    assert isinstance(elif_, N.If) and elif_.body == (N.Continue(),)
    loop = body[5]
    assert isinstance(loop, N.While) and isinstance(loop.body[-1], N.If)
    assert body[-1] == N.Return()


def k_ids(y: BorrowMut[Array[go.i64]]) -> None:
    y[0] = go.global_id(0) + go.local_id(1) + go.group_id(2)
    y[1] = go.global_size(0) + go.local_size(1) + go.num_groups(2)


def test_work_item_intrinsics() -> None:
    items = [n for n in walk(body_of(k_ids)) if isinstance(n, N.WorkItem)]
    assert [(w.name, w.dim) for w in items] == [
        ("global_id", 0), ("local_id", 1), ("group_id", 2),
        ("global_size", 0), ("local_size", 1), ("num_groups", 2),
    ]  # fmt: skip
    assert all(w.type == T.INDEX for w in items)


# --------------------------------------------------------------------------------------------
# Arrays, shapes and indexing
# --------------------------------------------------------------------------------------------


def k_2d(a: Borrow[Array[f32]], b: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    j = go.global_id(1)
    if i < a.shape[0] and j < a.shape[-1]:
        b[i, j] = a[i, j] * a.ndim + a.size + len(a)  # type: ignore[attr-defined]


def test_two_dimensional_access() -> None:
    module = lower(k_2d, ndim=2)
    nodes = walk(module.kernel.body)
    shapes = [n for n in nodes if isinstance(n, N.ShapeOf)]
    assert [s.dim for s in shapes] == [0, 1, 0, 1, 0]  # shape[0], shape[-1], size, len
    loads = [n for n in nodes if isinstance(n, N.Load)]
    assert len(loads) == 1 and len(loads[0].indices) == 2
    assert all(c.ndim == 2 for c in module.checks)


def k_index_types(n: go.u8, b: go.boolean, y: BorrowMut[Array[f32]]) -> None:
    y[n] = 1.0
    y[b] = 2.0


def test_indices_are_cast_to_index_type() -> None:
    s1, s2 = body_of(k_index_types)
    assert isinstance(s1, N.Store) and s1.indices == (N.Cast(T.INDEX, N.Var(T.u8, "n")),)
    assert isinstance(s2, N.Store) and s2.indices == (N.Cast(T.INDEX, N.Var(T.boolean, "b")),)


def k_owned(x: Owned[Array[f32]]) -> None:
    x[0] = 1.0


def test_owned_arrays_are_writable() -> None:
    module = lower(k_owned)
    assert module.kernel.params[0].type.access is Access.OWNED  # type: ignore[union-attr]


# --------------------------------------------------------------------------------------------
# Names: captured constants, modules, math
# --------------------------------------------------------------------------------------------

SCALE = 2.5
COUNT = 7
NP_SCALE = np.float32(0.5)
BLOCK = (4, 8)


def k_globals(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = x[0] * SCALE
    y[1] = x[0] + COUNT
    y[2] = NP_SCALE * x[0]  # type: ignore[assignment]
    y[3] = math.pi + math.sqrt(x[0]) + math.floor(x[0])


def test_captured_globals_are_constants() -> None:
    module = lower(k_globals)
    values = [s.value for s in module.kernel.body if isinstance(s, N.Store)]
    assert isinstance(values[0], N.Binary) and values[0].rhs == N.Const(T.f32, 2.5)  # weak
    assert isinstance(values[1], N.Binary) and values[1].rhs == N.Const(T.f32, 7.0)
    assert isinstance(values[2], N.Binary) and values[2].lhs == N.Const(T.f32, 0.5)
    consts = [n for n in walk(values[3]) if isinstance(n, N.Const)]
    assert any(c.value == pytest.approx(math.pi, rel=1e-6) for c in consts)
    maths = [n.name for n in walk(values[3]) if isinstance(n, N.MathCall)]
    assert maths == ["sqrt", "floor"]
    # math.floor gives a float in kernels
    assert all(n.type == T.f32 for n in walk(values[3]) if isinstance(n, N.MathCall))


def test_closure_constants_are_frozen_at_lowering() -> None:
    factor = 3

    def k(y: BorrowMut[Array[f32]]) -> None:
        y[0] = y[0] * factor

    first = lower(k)
    factor = 4
    second = lower(k)
    v1 = first.kernel.body[0].value  # type: ignore[attr-defined]
    v2 = second.kernel.body[0].value  # type: ignore[attr-defined]
    assert v1.rhs == N.Const(T.f32, 3.0) and v2.rhs == N.Const(T.f32, 4.0)


def test_np_scalar_capture_is_strong() -> None:
    big = np.float64(2.0)

    def k(y: BorrowMut[Array[f32]]) -> None:
        y[0] = y[0] * big

    store = lower(k).kernel.body[0]
    assert isinstance(store, N.Store) and isinstance(store.value, N.Cast)
    assert store.value.value.type == T.f64


# --------------------------------------------------------------------------------------------
# Bounds-check table and locations (of a kernel defined in this file)
# --------------------------------------------------------------------------------------------


def test_bounds_check_table() -> None:
    module = lower(k_saxpy)
    c1 = module.check(1)
    line = line_in_file(k_saxpy, "y[i] = a * x[i]")
    assert (c1.function, c1.array, c1.ndim, c1.line) == ("k_saxpy", "x", 1, line)
    assert c1.filename == __file__ and c1.source == "y[i] = a * x[i] + y[i]"
    text = inspect.getsource(k_saxpy).splitlines()[line - k_saxpy.__code__.co_firstlineno]
    assert c1.col == text.index("x[i]")
    assert module.boundscheck and not module.fastmath


def test_locations_are_file_lines() -> None:
    k = lower(k_saxpy).kernel
    assert k.filename == __file__
    assert k.firstlineno == k_saxpy.__code__.co_firstlineno
    assign = k.body[0]
    assert assign.loc is not None
    assert assign.loc.line == line_in_file(k_saxpy, "i = go.global_id(0)")
    assert assign.loc.col == 4
    assert all(n.loc is not None for n in walk(k.body))
