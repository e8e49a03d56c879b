"""Every atomic, by its CUDA name, on every dtype it takes, on global and shared arrays, on
every device: final values against the interpreter and against a sequential NumPy replay, and
the returned old values (each work-item sees a distinct state of the element)."""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut
from gpuoff.ir import types as t
from gpuoff.ir.verify import atomic_supports
from tests.backends.agree import agree, specialise

T: TypeAlias = go.i64  # the element type each test substitutes (specialise)
N = 1000
DTYPES = ["int32", "uint32", "int64", "uint64", "float32", "float64"]


def st_of(dtype: str) -> t.ScalarType:
    return t.scalar_from_numpy(np.dtype(dtype))


def all_ops(vals: Borrow[Array[T]], acc: BorrowMut[Array[T]]) -> None:
    # Every op this dtype has, each on its own element of acc (order-independent results).
    i = go.global_id(0)
    if i < vals.shape[0]:
        v = vals[i]
        go.atomic_add(acc, 0, v)
        go.atomic_sub(acc, 1, v)
        go.atomic_min(acc, 2, v)
        go.atomic_max(acc, 3, v)


def bit_ops(vals: Borrow[Array[T]], acc: BorrowMut[Array[T]]) -> None:
    i = go.global_id(0)
    if i < vals.shape[0]:
        v = vals[i]
        go.atomic_and(acc, 0, v | 0x10)
        go.atomic_or(acc, 1, v)
        go.atomic_xor(acc, 2, v)


def counters(limit: T, acc: BorrowMut[Array[T]]) -> None:
    i = go.global_id(0)
    if i < 1000:
        go.atomic_inc(acc, 0, limit)
        go.atomic_dec(acc, 1, limit)


def values(dtype: str) -> np.ndarray[Any, Any]:
    """Values whose sums are exact in every order (small integers, also as floats)."""
    rng = np.random.default_rng(3)
    signed = np.dtype(dtype).kind != "u"
    return rng.integers(-50 if signed else 0, 100, N).astype(dtype)


def _step(op: str, a: Any, v: Any, limit: int) -> Any:
    """One ``op`` on the element value ``a`` with the value ``v`` (NumPy scalars: they wrap)."""
    if op in ("inc", "dec"):
        if op == "inc":
            return 0 if a >= limit else a + 1
        return limit if a == 0 or a > limit else a - 1
    ops = {"add": np.add, "sub": np.subtract, "min": np.minimum, "max": np.maximum,
           "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}  # fmt: skip
    return ops[op](a, v)


def replay(op: str, start: Any, vals: np.ndarray[Any, Any], limit: int = 0) -> Any:
    """The element after applying ``op`` with each value in turn (wrapping like the dtype)."""
    acc = np.array([start], vals.dtype)
    with np.errstate(over="ignore"):
        for v in vals:
            acc[0] = _step(op, acc[0], v, limit)
    return acc[0]


@pytest.mark.parametrize("dtype", DTYPES)
def test_add_sub_min_max_on_every_dtype(device: str, dtype: str) -> None:
    vals = values(dtype)
    start = np.array([5, 7, 60, 0], dtype)
    acc = start.copy()
    (got,) = agree(specialise(all_ops, T=go.lang.dtype_of(dtype)), N, vals, acc)[1:]
    want = [replay(op, s, vals) for op, s in zip(["add", "sub", "min", "max"], start,
                                                strict=True)]  # fmt: skip
    np.testing.assert_array_equal(got, np.array(want, dtype))


@pytest.mark.parametrize("dtype", ["int32", "uint32", "int64", "uint64"])
def test_and_or_xor_on_integers(device: str, dtype: str) -> None:
    vals = values(dtype)
    start = np.array([-1 if dtype[0] == "i" else np.iinfo(dtype).max, 0, 0x5A], dtype)
    acc = start.copy()
    (got,) = agree(specialise(bit_ops, T=go.lang.dtype_of(dtype)), N, vals, acc)[1:]
    want = [replay("and", start[0], vals | 0x10), replay("or", start[1], vals),
            replay("xor", start[2], vals)]  # fmt: skip
    np.testing.assert_array_equal(got, np.array(want, dtype))


@pytest.mark.parametrize("dtype", ["uint32", "uint64"])
@pytest.mark.parametrize("limit", [17, 137, 5000])
def test_inc_and_dec_wrap_as_cuda_counts(device: str, dtype: str, limit: int) -> None:
    acc = np.array([3, 3], dtype)
    (got,) = agree(specialise(counters, T=go.lang.dtype_of(dtype)), N, limit, acc)
    ones = np.ones(N, dtype)
    np.testing.assert_array_equal(got, [replay("inc", 3, ones, limit),
                                        replay("dec", 3, ones, limit)])  # fmt: skip


def tickets(acc: BorrowMut[Array[T]], old: BorrowMut[Array[T]]) -> None:
    i = go.global_id(0)
    if i < old.shape[1]:
        old[0, i] = go.atomic_add(acc, 0, 1)
        old[1, i] = go.atomic_sub(acc, 1, 1)
        old[2, i] = go.atomic_exch(acc, 2, T(i))


@pytest.mark.parametrize("dtype", DTYPES)
def test_each_work_item_gets_a_distinct_old_value(device: str, dtype: str) -> None:
    acc = np.array([0, N, N], dtype)
    old = np.zeros((3, N), dtype)
    k = specialise(tickets, T=go.lang.dtype_of(dtype))
    k[N](acc, old)
    go.synchronize()
    ticket = np.arange(N, dtype=dtype)
    np.testing.assert_array_equal(np.sort(old[0]), ticket)  # atomic_add returns the old value
    np.testing.assert_array_equal(np.sort(old[1]), ticket + 1)
    # exch: the olds and the final value are the start and every work-item's value, once each
    np.testing.assert_array_equal(np.sort(np.append(old[2], acc[2])), np.append(ticket, N))
    assert acc[0] == N and acc[1] == 0


def cas_chain(acc: BorrowMut[Array[T]], swapped: BorrowMut[Array[go.i32]]) -> None:
    # Work-item i moves the element from i to i + 1 once it holds i: only one order succeeds
    # for all, so each spins until its predecessor has gone (the CAS returns what it saw).
    i = go.global_id(0)
    if i < swapped.shape[0]:
        seen = go.atomic_cas(acc, 0, T(i), T(i + 1))
        swapped[i] = 1 if seen == T(i) else 0
        go.atomic_cas(acc, 1, T(5), T(9))  # never equal: no swap


@pytest.mark.parametrize("dtype", DTYPES)
def test_compare_and_swap_returns_what_it_saw(device: str, dtype: str) -> None:
    acc = np.array([0, 4], dtype)
    swapped = np.zeros(N, np.int32)
    k = specialise(cas_chain, T=go.lang.dtype_of(dtype))
    k[N](acc, swapped)
    go.synchronize()
    # Without a retry loop only work-items that found their predecessor done succeed; the
    # element then holds the number of the last success + 1 and successes form a prefix.
    s = int(swapped.sum())
    assert s >= 1 and acc[0] == s and swapped[:s].all() and not swapped[s:].any()
    assert acc[1] == 4


@go.kernel
def cas_bits(acc: BorrowMut[Array[go.f32]], old: BorrowMut[Array[go.f32]]) -> None:
    if go.global_id(0) == 0:
        old[0] = go.atomic_cas(acc, 0, 0.0, 1.0)  # holds -0.0: the bits differ, no swap
        old[1] = go.atomic_cas(acc, 1, acc[1], 2.0)  # holds NaN: the same bits swap
        old[2] = go.atomic_cas(acc, 2, 3.0, 4.0)


def test_float_compare_and_swap_compares_bits(device: str) -> None:
    acc = np.array([-0.0, np.nan, 3.0], np.float32)
    old = np.zeros(3, np.float32)
    got, got_old = agree(cas_bits, 1, acc, old)
    assert np.signbit(got[0]) and got[0] == 0.0 and got[1] == 2.0 and got[2] == 4.0
    assert np.isnan(got_old[1]) and got_old[2] == 3.0


def shared_histogram(data: Borrow[Array[go.u32]], out: BorrowMut[Array[T]]) -> None:
    # Every op on a shared array, then each group's results folded into the global ones.
    local = go.shared(8, T)
    lid = go.local_id(0)
    if lid < 8:
        local[lid] = T(0) if lid != 2 else T(50)
    go.barrier()
    i = go.global_id(0)
    v = T(data[i] % 7)
    go.atomic_add(local, 0, v)
    go.atomic_exch(local, 1, v)
    go.atomic_min(local, 2, v)
    go.atomic_max(local, 3, v)
    go.atomic_sub(local, 4, v)
    go.atomic_cas(local, 5, T(0), T(1))
    go.barrier()
    if lid == 0:
        go.atomic_add(out, 0, local[0])
        go.atomic_max(out, 1, T(0) if local[1] <= T(6) else T(1))  # some work-item's v
        go.atomic_min(out, 2, local[2])
        go.atomic_max(out, 3, local[3])
        go.atomic_add(out, 4, local[4])
        go.atomic_add(out, 5, local[5])


@pytest.mark.parametrize("dtype", DTYPES)
def test_atomics_on_shared_memory(device: str, dtype: str) -> None:
    groups, block = 6, 64
    data = np.random.default_rng(1).integers(0, 1000, groups * block).astype(np.uint32)
    out = np.array([0, 0, 99, 0, 0, 0], dtype)
    (got,) = agree(specialise(shared_histogram, T=go.lang.dtype_of(dtype)),
                   groups * block, data, out, block=(block,))[1:]  # fmt: skip
    v = (data % 7).astype(dtype).reshape(groups, block)
    with np.errstate(over="ignore"):
        want = [v.sum(), 0, v.min(), v.max(), (np.zeros(groups, dtype) - v.sum(1)).sum(), groups]
    np.testing.assert_array_equal(got, np.array(want, dtype))


# -- misuse ---------------------------------------------------------------------------------


@go.kernel
def on_bytes(acc: BorrowMut[Array[go.u8]]) -> None:
    go.atomic_add(acc, 0, 1)


@go.kernel
def inc_signed(acc: BorrowMut[Array[go.i32]]) -> None:
    go.atomic_inc(acc, 0, 10)


@go.kernel
def xor_float(acc: BorrowMut[Array[go.f32]]) -> None:
    go.atomic_xor(acc, 0, 1.0)  # type: ignore[arg-type]


@go.kernel
def cas_three(acc: BorrowMut[Array[go.i32]]) -> None:
    go.atomic_cas(acc, 0, 1)  # type: ignore[call-arg]


@go.kernel
def exch_borrowed(acc: Borrow[Array[go.i32]]) -> None:
    go.atomic_exch(acc, 0, 1)  # type: ignore[gpuoff-borrow-write]


@pytest.mark.parametrize(("kernel", "arg", "message"), [
    (on_bytes, np.zeros(1, np.uint8), "go.atomic_add is not available for u8 arrays (it takes "
                                      "32- and 64-bit integer and float elements)"),
    (inc_signed, np.zeros(1, np.int32), "go.atomic_inc is not available for i32 arrays (it "
                                        "takes unsigned 32- and 64-bit integer"),
    (xor_float, np.zeros(1, np.float32), "go.atomic_xor is not available for f32 arrays"),
    (cas_three, np.zeros(1, np.int32), "go.atomic_cas() (array, index, compare, value) takes "
                                       "4 arguments, got 3"),
    (exch_borrowed, np.zeros(1, np.int32), "cannot write to 'acc': it is a shared Borrow"),
])  # fmt: skip
def test_misuse_is_a_compile_error_at_the_call(kernel: Any, arg: Any, message: str) -> None:
    with pytest.raises(go.CompileError) as info:
        kernel[1](arg)
    assert message in str(info.value)
    assert "test_atomic_ops.py" in str(info.value) and "^" in str(info.value)


@go.kernel
def wide_xor(acc: BorrowMut[Array[go.u64]]) -> None:
    go.atomic_xor(acc, 0, go.u64(1))


@go.kernel
def wide_add(acc: BorrowMut[Array[go.i64]]) -> None:
    go.atomic_add(acc, 0, 1)


def test_an_opencl_device_without_64_bit_atomics_refuses_them() -> None:
    from codegen.opencl import render_opencl
    from gpuoff.frontend import lower_kernel

    mut = go.ownership.Access.BORROW_MUT
    xor = lower_kernel(wide_xor.pyfunc, (t.ArrayType(t.u64, 1, access=mut),))
    add = lower_kernel(wide_add.pyfunc, (t.ArrayType(t.i64, 1, access=mut),))
    with pytest.raises(go.CompileError, match="has no cl_khr_int64_extended_atomics") as info:
        render_opencl(xor, device_name="old", int64_atomics=(True, False))
    assert "go.atomic_xor(acc, 0, go.u64(1))" in str(info.value)
    with pytest.raises(go.CompileError, match="atomic_add on i64 needs 64-bit atomics, but "
                                              "OpenCL device 'old' has no cl_khr_int64_base"):
        render_opencl(add, device_name="old", int64_atomics=(False, False))
    render_opencl(add, device_name="old", int64_atomics=(True, False))  # base is enough


def test_every_op_and_dtype_is_listed_once() -> None:
    table = {(op, s.name) for op in ("add", "sub", "exch", "cas", "min", "max", "and", "or",
                                     "xor", "inc", "dec") for s in t.SCALARS
             if atomic_supports(op, s)}  # fmt: skip
    assert len(table) == 6 * 6 + 3 * 4 + 2 * 2
    assert not any(atomic_supports("add", s) for s in (t.i8, t.i16, t.u8, t.u16, t.f16))


# -- generated code -------------------------------------------------------------------------


def every_op(acc: BorrowMut[Array[T]], v: T) -> None:
    i = go.global_id(0)
    if i < 1:
        go.atomic_add(acc, 0, v)
        go.atomic_sub(acc, 1, v)
        go.atomic_exch(acc, 2, v)
        go.atomic_cas(acc, 3, v, v + 1)
        go.atomic_min(acc, 4, v)
        go.atomic_max(acc, 5, v)


def every_int_op(acc: BorrowMut[Array[T]], v: T) -> None:
    i = go.global_id(0)
    if i < 1:
        go.atomic_and(acc, 0, v)
        go.atomic_or(acc, 1, v)
        go.atomic_xor(acc, 2, v)


def counter_ops(acc: BorrowMut[Array[T]], v: T) -> None:
    i = go.global_id(0)
    if i < 1:
        go.atomic_inc(acc, 0, v)
        go.atomic_dec(acc, 1, v)


def _ptx(template: Any, dtype: str, sm: int) -> str:
    from codegen.nvptx import compile_ptx
    from gpuoff.frontend import lower_kernel

    st = st_of(dtype)
    k = specialise(template, T=st.lang_type)
    # unchecked: the bounds-error record's own compare-and-swap would be counted too
    module = lower_kernel(k.pyfunc, (t.ArrayType(st, 1, access=go.ownership.Access.BORROW_MUT),
                                     st), boundscheck=False)  # fmt: skip
    return compile_ptx(module, sm).ptx


# What nvcc emits for CUDA's atomicAdd & co. (no compare-and-swap loop where PTX has the
# instruction): one `atom` each, at the default (device) scope.
PTX_ATOMS = {
    "int32": ["add.u32", "add.u32", "exch.b32", "cas.b32", "min.s32", "max.s32", "and.b32",
              "or.b32", "xor.b32"],
    "uint32": ["add.u32", "add.u32", "exch.b32", "cas.b32", "min.u32", "max.u32", "and.b32",
               "or.b32", "xor.b32", "inc.u32", "dec.u32"],
    "int64": ["add.u64", "add.u64", "exch.b64", "cas.b64", "min.s64", "max.s64", "and.b64",
              "or.b64", "xor.b64"],
    "uint64": ["add.u64", "add.u64", "exch.b64", "cas.b64", "min.u64", "max.u64", "and.b64",
               "or.b64", "xor.b64"],
    "float32": ["add.f32", "add.f32", "exch.b32", "cas.b32"],
    "float64": ["add.f64", "add.f64", "exch.b64", "cas.b64"],
}  # fmt: skip


@pytest.mark.skipif(__import__("shutil").which("ptxas") is None, reason="ptxas is not installed")
@pytest.mark.parametrize("dtype", DTYPES)
def test_ptx_uses_the_hardware_atomics_and_assembles(dtype: str, tmp_path: Any) -> None:
    import re
    import subprocess

    st = st_of(dtype)
    templates = [every_op]
    if st.is_int:
        templates.append(every_int_op)
    if st.is_int and not st.is_signed:
        templates.append(counter_ops)
    for sm in (80, 90):
        seen: list[str] = []
        for template in templates:
            text = _ptx(template, dtype, sm)
            seen += re.findall(r"atom\.(?:relaxed\.gpu\.)?global\.(\w+\.\w+)", text)
            assert ".sys." not in text  # device scope, as CUDA's
            src = tmp_path / f"k{sm}.ptx"
            src.write_text(text)
            proc = subprocess.run(["ptxas", f"-arch=sm_{sm}", str(src), "-o",
                                   str(tmp_path / "k.cubin")], capture_output=True, text=True,
                                  check=False)  # fmt: skip
            assert proc.returncode == 0, proc.stderr
        _expect_atoms(dtype, seen)


def _expect_atoms(dtype: str, seen: list[str]) -> None:
    for want in PTX_ATOMS[dtype]:
        assert want in seen, (want, seen)
        seen.remove(want)
    # what is left: compare-and-swap loops, only where PTX has no instruction (float min/max,
    # 64-bit inc/dec)
    assert set(seen) <= {"cas.b32", "cas.b64"}, seen


def test_cpu_atomics_are_single_instructions() -> None:
    from codegen.cpu import compile_cpu
    from gpuoff.frontend import lower_kernel

    k = specialise(every_op, T=go.i32)
    mut = go.ownership.Access.BORROW_MUT
    module = lower_kernel(k.pyfunc, (t.ArrayType(t.i32, 1, access=mut), t.i32))
    ir = compile_cpu(module).llvm_ir
    for op in ("add", "sub", "xchg", "min", "max"):
        assert f"atomicrmw {op} ptr" in ir, op
    assert "cmpxchg ptr" in ir
