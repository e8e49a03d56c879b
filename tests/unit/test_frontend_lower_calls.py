"""Lowering kernels to IR: device functions, work-group features, bounds checks, options and
source locations, more names and calls."""
# ruff: noqa: B007, F841

import inspect
import math

import numpy as np

import gpuoff as go
import gpuoff as gpuoff_module  # a second alias: modules resolve by identity
from gpuoff import Array, Borrow, BorrowMut, f32, f64, i32
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from gpuoff.ownership import Access
from tests.unit.frontend_lower_support import body_of, line_in_file, lower, walk
from tests.unit.test_frontend_lower import BLOCK, k_saxpy

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


def test_boundscheck_off_and_fastmath() -> None:
    module = lower(k_saxpy, boundscheck=False, fastmath=True)
    assert module.checks == () and not module.boundscheck and module.fastmath
    accesses = [n for n in walk(module.kernel.body) if isinstance(n, N.Load | N.Store)]
    assert accesses and all(a.check is None for a in accesses)


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
