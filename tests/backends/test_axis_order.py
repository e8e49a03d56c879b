"""Either 2-D id order: the same results on every device, and on ``cpu`` the id that indexes
the contiguous axis runs as the innermost loop (``gpuoff.ir.fast_axis``, ``codegen.cpu``)."""

from __future__ import annotations

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, i64
from gpuoff.bench.cases_layout import stencil5_rows, transpose_tiled, transpose_tiled_rows
from gpuoff.bench.kernels import stencil5
from gpuoff.bench.references import stencil5_ref
from tests.backends.agree import agree


@go.kernel
def block_shape(out: BorrowMut[Array[i64]]) -> None:
    """Each item writes its group's shape and its local ids; ``global_id(1)`` is the column."""
    i = go.global_id(0)
    j = go.global_id(1)
    if i < out.shape[1] and j < out.shape[2]:
        out[0, i, j] = go.local_size(0)
        out[1, i, j] = go.local_size(1)
        out[2, i, j] = go.local_id(0) + go.group_id(0) * go.local_size(0)
        out[3, i, j] = go.local_id(1) + go.group_id(1) * go.local_size(1)


@go.kernel
def row_major_add(a: Borrow[Array[go.f32]], b: Borrow[Array[go.f32]],
                  out: BorrowMut[Array[go.f32]]) -> None:  # fmt: skip
    """``out = a + b`` over flattened rows, ``global_id(0)`` as the row (the README order)."""
    r = go.global_id(0)
    c = go.global_id(1)
    w = out.shape[0] // go.global_size(0)
    if c < w:
        out[r * w + c] = a[r * w + c] + b[r * w + c]


def test_both_stencil_orders_agree_with_numpy(device: str) -> None:
    src = np.random.default_rng(21).random((37, 53), dtype=np.float32)
    want = stencil5_ref(src)
    (_, cols_first) = agree(stencil5, (53, 37), src, np.zeros_like(src))
    (_, rows_first) = agree(stencil5_rows, (37, 53), src, np.zeros_like(src))
    np.testing.assert_allclose(cols_first, want, rtol=1e-6)
    np.testing.assert_array_equal(rows_first, cols_first)


def test_both_transpose_orders_agree_with_numpy(device: str) -> None:
    a = np.random.default_rng(22).random((64, 96), dtype=np.float32)
    (_, t1) = agree(transpose_tiled, (96, 64), a, np.zeros((96, 64), np.float32), block=(32, 32))
    (_, t2) = agree(transpose_tiled_rows, (64, 96), a, np.zeros((96, 64), np.float32),
                    block=(32, 32))  # fmt: skip
    np.testing.assert_array_equal(t1, a.T)
    np.testing.assert_array_equal(t2, a.T)


def test_flattened_rows_agree(device: str) -> None:
    rng = np.random.default_rng(23)
    a, b = rng.random(12 * 40, dtype=np.float32), rng.random(12 * 40, dtype=np.float32)
    (_, _, got) = agree(row_major_add, (12, 40), a, b, np.zeros_like(a))
    np.testing.assert_array_equal(got, a + b)


def test_the_default_block_follows_the_fast_dimension_on_cpu() -> None:
    with go.on("cpu"):
        out = go.zeros((4, 6, 700), go.i64)
        block_shape[(6, 700)](out)
        got = out.numpy()
    # global_id(1) indexes the contiguous axis: the group is a row of up to 1024 columns
    assert (got[0] == 1).all() and (got[1] == 700).all()
    np.testing.assert_array_equal(got[2:], np.indices((6, 700)))
    with go.on("cpu"):
        given = go.zeros((4, 6, 700), go.i64)
        block_shape[(6, 700), (2, 70)](given)  # a given block is run as given
        got = given.numpy()
    assert (got[0] == 2).all() and (got[1] == 70).all()
    np.testing.assert_array_equal(got[2:], np.indices((6, 700)))


def test_the_rows_order_vectorises_on_cpu() -> None:
    from codegen.cpu import llvm_ir_text
    from gpuoff.frontend import lower_kernel
    from gpuoff.ir import types as t
    from gpuoff.ownership import Access

    types = (t.ArrayType(t.f32, 2), t.ArrayType(t.f32, 2, access=Access.BORROW_MUT))
    for kernel in (stencil5, stencil5_rows):
        text = llvm_ir_text(lower_kernel(kernel.pyfunc, types), optimized=True)
        assert "load <" in text and "gather" not in text, kernel.__name__


@go.kernel
def two_bad_items(src: Borrow[Array[go.f32]], dst: BorrowMut[Array[go.f32]]) -> None:
    """Items (1, 0) and (0, 1) read past the end of ``src``'s rows; ``global_id(1)`` is the
    column (the fast dimension on ``cpu``)."""
    i = go.global_id(0)
    j = go.global_id(1)
    extra = 0
    if i + j == 1:
        extra = 1000 + i
    dst[i, j] = src[i, j + extra]


def test_the_reported_failure_is_the_lowest_work_item_in_the_kernels_order(device: str) -> None:
    # (1, 0) has linear id 1 in the kernel's order, (0, 1) has 8: (1, 0) is the one reported,
    # although the cpu runs dimension 1 innermost
    from gpuoff.frontend import lower_kernel
    from gpuoff.ir import interp
    from tests.backends.agree import arg_types

    src = np.zeros((8, 16), np.float32)
    module = lower_kernel(two_bad_items.pyfunc, arg_types(two_bad_items, (src, src)))
    with pytest.raises(go.BoundsError) as want:
        interp.run(module, [src, np.zeros_like(src)], (8, 16), None)
    with pytest.raises(go.BoundsError) as got:
        two_bad_items[(8, 16)](src, np.zeros_like(src))
        go.synchronize()
    assert "(1, 1001)" in str(want.value)
    assert str(got.value).splitlines()[0] == str(want.value).splitlines()[0]

