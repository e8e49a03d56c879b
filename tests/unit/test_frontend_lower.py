"""Lowering kernels to IR: statements, loops, locals, names, device functions, work-group
features, bounds checks and source locations."""
# ruff: noqa: B007, F841

import inspect
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gpuoff as go
import gpuoff as gpuoff_module  # a second alias: modules resolve by identity
from gpuoff import Array, Borrow, BorrowMut, Owned, f32, f64, i32
from gpuoff.frontend import lower_kernel, parse_signature
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from gpuoff.ir.verify import verify
from gpuoff.ownership import Access


def lower(fn: Callable[..., Any], ndim: int = 1, **kw: bool) -> N.Module:
    types: list[T.ScalarType | T.ArrayType] = [
        T.ArrayType(d.dtype, ndim) if d.is_array else d.dtype for d in parse_signature(fn)
    ]
    module = lower_kernel(fn, types, **kw)
    verify(module)
    for f in (module.kernel, *module.functions):
        missing = [n for n in walk(f.body) if n.loc is None]
        assert not missing, f"nodes without a source location: {missing}"
    return module


def body_of(fn: Callable[..., Any], ndim: int = 1) -> tuple[N.Stmt, ...]:
    return lower(fn, ndim).kernel.body


def walk(node: object) -> list[N.Node]:
    """Every IR node below (and including) ``node``, in order."""
    out: list[N.Node] = []
    stack: list[object] = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, tuple):
            stack.extend(reversed(cur))
            continue
        if not isinstance(cur, N.Node):
            continue
        out.append(cur)
        fields = [getattr(cur, f) for f in cur.__dataclass_fields__ if f != "loc"]
        stack.extend(reversed(fields))
    return out


def line_in_file(fn: Callable[..., Any], needle: str) -> int:
    lines, start = inspect.getsourcelines(fn)
    return start + next(k for k, text in enumerate(lines) if needle in text)


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
# Device functions
# --------------------------------------------------------------------------------------------


@go.func
def scale(a: f32, b: f32) -> f32:
    return a * b


@go.func
def row_sum(m: Borrow[Array[f32]], r: go.i64) -> f32:
    acc = 0.0
    for j in range(m.shape[1]):
        acc += m[r, j]
    return scale(acc, 1.0)


@go.func
def store_one(out: BorrowMut[Array[f32]], i: go.i64) -> None:
    out[i, 0] = 1.0


@go.func
def sign(v: f64):  # type: ignore[no-untyped-def]
    if v < 0:
        return -1
    return 1


def k_device(m: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    out[i, 0] = row_sum(m, i) + scale(2.0, 3)
    out[i, 1] = row_sum(out, i) + sign(1.5)
    store_one(out, i)


def test_device_functions_are_specialised_and_ordered() -> None:
    module = lower(k_device, ndim=2)
    names = [f.name for f in module.functions]
    assert names[0] == "scale__f32_f32"  # callees before callers
    assert "row_sum__A2f32cr_i64" in names and "store_one__A2f32cw_i64" in names
    assert names.index("scale__f32_f32") < names.index("row_sum__A2f32cr_i64")
    assert len([n for n in names if n.startswith("row_sum")]) == 1  # out passes as Borrow too
    rs = module.function("row_sum__A2f32cr_i64")
    assert rs.return_type == T.f32 and rs.params[0].type.access is Access.BORROW  # type: ignore[union-attr]
    assert rs.locals["acc"] == T.f32
    sg = next(f for f in module.functions if f.name.startswith("sign"))
    assert sg.return_type == T.i64  # inferred: the join of the returns
    # ... which are Python ints, so the call is weak: f32 + sign(...) stays f32.
    store = module.kernel.body[2]
    assert isinstance(store, N.Store) and store.value.type == T.f32
    assert not isinstance(store.value, N.Cast)
    calls = [n for n in walk(module.kernel.body) if isinstance(n, N.Call)]
    assert calls[0].args[1] == N.Var(T.INDEX, "i")
    assert calls[1].callee == "scale__f32_f32"
    assert calls[1].args == (N.Const(T.f32, 2.0), N.Const(T.f32, 3.0))
    last = module.kernel.body[-1]
    assert isinstance(last, N.ExprStmt) and isinstance(last.expr, N.Call)
    # Checks inside device functions name the device function and its array.
    assert any(c.function == "row_sum" and c.array == "m" for c in module.checks)
    assert [c.id for c in module.checks] == list(range(1, len(module.checks) + 1))


# --------------------------------------------------------------------------------------------
# Work-group features
# --------------------------------------------------------------------------------------------


def k_shared(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    tile = go.shared(BLOCK, f32)
    flat = go.shared(16, dtype=go.i32)
    lid = go.local_id(0)
    tile[lid, 0] = x[go.global_id(0)]
    go.barrier()
    if go.group_id(0) == 0:
        go.barrier()
    for k in range(go.local_size(0)):
        go.barrier()
    old = go.atomic_add(flat, 0, 1)
    go.atomic_max(y, 0, tile[lid, 0])
    y[go.global_id(0)] = tile.shape[1] + old


def test_shared_barrier_atomics() -> None:
    module = lower(k_shared)
    k = module.kernel
    assert [s.name for s in k.shared] == ["tile", "flat"]
    assert k.shared[0].type == T.ArrayType(T.f32, 2, True, T.AddressSpace.SHARED,
                                           Access.BORROW_MUT, (4, 8))  # fmt: skip
    assert k.shared[1].type.static_shape == (16,) and k.shared[1].type.dtype == T.i32
    nodes = walk(k.body)
    assert sum(isinstance(n, N.Barrier) for n in nodes) == 3
    atomics = [n for n in nodes if isinstance(n, N.AtomicRMW)]
    assert [(a.op, a.array.name, a.type) for a in atomics] == [
        ("add", "flat", T.i32), ("max", "y", T.f32),
    ]  # fmt: skip
    assert all(a.check is not None for a in atomics)
    # tile.shape[1] of a shared array is its static size
    assert N.Const(T.INDEX, 8) in nodes


# --------------------------------------------------------------------------------------------
# Bounds checks, options, locations
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


def test_boundscheck_off_and_fastmath() -> None:
    module = lower(k_saxpy, boundscheck=False, fastmath=True)
    assert module.checks == () and not module.boundscheck and module.fastmath
    accesses = [n for n in walk(module.kernel.body) if isinstance(n, N.Load | N.Store)]
    assert accesses and all(a.check is None for a in accesses)


def test_locations_are_file_lines() -> None:
    k = lower(k_saxpy).kernel
    assert k.filename == __file__
    assert k.firstlineno == k_saxpy.__code__.co_firstlineno
    assign = k.body[0]
    assert assign.loc is not None
    assert assign.loc.line == line_in_file(k_saxpy, "i = go.global_id(0)")
    assert assign.loc.col == 4
    assert all(n.loc is not None for n in walk(k.body))


def test_nested_function_locations() -> None:
    class Holder:
        @staticmethod
        def kernel(y: BorrowMut[Array[f32]]) -> None:
            y[0] = 1.0

    store = lower(Holder.kernel).kernel.body[0]
    assert store.loc is not None
    assert store.loc.line == line_in_file(Holder.kernel, "y[0] = 1.0")
    assert store.loc.col == 12  # columns are in the file, not in the dedented snippet


# --------------------------------------------------------------------------------------------
# More names and calls
# --------------------------------------------------------------------------------------------

DIM = 1


def k_more_math(n: i32, x: Borrow[Array[f32]], y: BorrowMut[Array[f64]]) -> None:
    y[0] = go.abs(x[0]) + go.min(x[0], 1.0) + go.max(n, 2)
    y[1] = np.sqrt(x[0]) + math.fabs(n) + gpuoff_module.exp(x[0])
    y[2] = go.global_id(DIM) + math.inf
    y[3] = go.rsqrt(x[0]) + go.log2(x[0]) + go.pow(x[0], 2) + go.erf(x[0]) + go.tanh(x[0])


def test_more_math_resolution() -> None:
    nodes = walk(body_of(k_more_math))
    calls = [(c.name, c.type) for c in nodes if isinstance(c, N.MathCall)]
    assert calls == [
        ("abs", T.f32), ("min", T.f32), ("max", T.i32),
        ("sqrt", T.f32), ("abs", T.f64), ("exp", T.f32),
        ("rsqrt", T.f32), ("log2", T.f32), ("pow", T.f32), ("erf", T.f32), ("tanh", T.f32),
    ]  # fmt: skip
    assert N.WorkItem(T.INDEX, "global_id", 1) in nodes
    assert N.Const(T.f64, math.inf) in nodes


@go.func
def fill(buf: BorrowMut[Array[f32]], v: f32) -> None:
    buf[go.local_id(0)] = v


@go.func
def halve(v: f64) -> f32:
    return v / 2  # type: ignore[return-value]


def k_shared_to_device(y: BorrowMut[Array[f32]]) -> None:
    s = go.shared(32, f32)
    fill(s, halve(3))
    go.barrier()
    y[go.global_id(0)] = s[go.local_id(0)]


def test_shared_array_passed_to_device_function() -> None:
    module = lower(k_shared_to_device)
    names = [f.name for f in module.functions]
    assert names == ["halve__f64", "fill__A1f32cws_f32"]
    fill_fn = module.function("fill__A1f32cws_f32")
    ptype = fill_fn.params[0].type
    assert isinstance(ptype, T.ArrayType) and ptype.space is T.AddressSpace.SHARED
    assert ptype.static_shape == (32,) and ptype.access is Access.BORROW_MUT
    halve_fn = module.function("halve__f64")
    (ret,) = halve_fn.body
    assert halve_fn.return_type == T.f32
    assert isinstance(ret, N.Return) and isinstance(ret.value, N.Cast)
    call = module.kernel.body[0]
    assert isinstance(call, N.ExprStmt) and isinstance(call.expr, N.Call)
    assert call.expr.args[1] == N.Call(T.f32, "halve__f64", (N.Const(T.f64, 3.0),))


def test_same_device_function_two_specialisations() -> None:
    @go.func
    def first(a: Borrow[Array[f32]]) -> f32:
        return a[0]

    def k(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
        s = go.shared((2, 2), f32)
        y[0] = first(x) + first(y)

    names = [f.name for f in lower(k).functions]
    assert names == ["first__A1f32cr"]  # access is the callee's, so both calls share it


def test_uniform_barriers_are_accepted() -> None:
    def k(y: BorrowMut[Array[f32]], n: i32) -> None:
        g = go.group_id(0)
        m = go.local_size(0) * 2
        while m > 1:
            m = m // 2
            go.barrier()
        if g > 0 and n > 3:
            go.barrier()
        y[go.global_id(0)] = 1.0

    assert sum(isinstance(n, N.Barrier) for n in walk(body_of(k))) == 2


TWO = f32(2.0)
HALF = f32(0.5)


@go.func
def axpb(v: f32, a: f32 = TWO, b: f32 = HALF) -> f32:
    return a * v + b


def k_keywords(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    y[0] = axpb(x[0]) + axpb(x[1], b=1.0) + axpb(v=x[2], a=3.0)


def test_device_call_keywords_and_defaults() -> None:
    module = lower(k_keywords)
    calls = [n for n in walk(module.kernel.body) if isinstance(n, N.Call)]
    assert [c.args[1:] for c in calls] == [
        (N.Const(T.f32, 2.0), N.Const(T.f32, 0.5)),
        (N.Const(T.f32, 2.0), N.Const(T.f32, 1.0)),
        (N.Const(T.f32, 3.0), N.Const(T.f32, 0.5)),
    ]
    assert len(module.functions) == 1


def test_param_locations_point_at_each_parameter() -> None:
    k = lower(k_saxpy).kernel
    cols = [p.loc.col for p in k.params if p.loc is not None]
    header = inspect.getsource(k_saxpy).splitlines()[0]
    assert cols == [header.index("a: f32"), header.index("x: Borrow"), header.index("y: Borrow")]


def test_indented_kernel_with_unindented_docstring_lines() -> None:
    def k(y: BorrowMut[Array[f32]]) -> None:
        """A docstring whose second line starts at column 0:
        This line."""
        y[0] = 1.0

    store = lower(k).kernel.body[0]
    assert isinstance(store, N.Store) and store.loc is not None
    assert store.loc.line == line_in_file(k, "y[0] = 1.0") and store.loc.col == 8


def k_negative_index(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    s = go.shared((4, 8), f32)
    y[-1] = x[-2] + s[-1, 0]


def test_constant_negative_indices_count_from_the_end() -> None:
    store = body_of(k_negative_index)[0]
    assert isinstance(store, N.Store)
    (idx,) = store.indices
    assert isinstance(idx, N.Binary) and idx.op == "add"
    assert isinstance(idx.lhs, N.ShapeOf) and idx.rhs == N.Const(T.INDEX, -1)
    loads = [n for n in walk(store.value) if isinstance(n, N.Load)]
    assert loads[0].indices[0] == N.Binary(
        T.INDEX, "add", N.ShapeOf(T.INDEX, loads[0].array, 0), N.Const(T.INDEX, -2)
    )
    assert loads[1].indices == (N.Const(T.INDEX, 3), N.Const(T.INDEX, 0))  # static shape


def k_shape_unpack(a: Borrow[Array[f32]], b: BorrowMut[Array[f32]]) -> None:
    rows, cols = a.shape
    b[rows - 1, cols - 1] = 1.0


def test_shape_unpacking() -> None:
    body = body_of(k_shape_unpack, ndim=2)
    ref = N.ArrayRef("a", T.ArrayType(T.f32, 2))
    assert body[0] == N.Assign("rows", N.ShapeOf(T.INDEX, ref, 0))
    assert body[1] == N.Assign("cols", N.ShapeOf(T.INDEX, ref, 1))
