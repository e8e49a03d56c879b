"""The warm launch path's caches (``runtime.plan``, ``OpenCLProgram.enqueue``): every launch
sees its own arguments, whatever the previous launch passed; a loop of launches keeps one use
per buffer; scalars are checked and converted once."""

from __future__ import annotations

import gc
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32
from gpuoff.errors import LaunchTypeError
from tests.backends.test_opencl_support import has_opencl

DEVICES = ["cpu", pytest.param("opencl:0", marks=pytest.mark.skipif(
    not has_opencl(), reason="no OpenCL device"))]  # fmt: skip


@go.kernel
def axpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


@go.kernel
def reciprocal(a: f32, out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < out.shape[0]:
        out[i] = 1.0 / a


@go.kernel
def mixed(k: i32, src: Borrow[Array[f32]], scale: f32, dst: BorrowMut[Array[f32]]) -> None:
    j = go.global_id(0)
    i = go.global_id(1)
    if i < dst.shape[0] and j < dst.shape[1]:
        dst[i, j] = src[i, j] * scale + f32(k)


@pytest.mark.parametrize("device", DEVICES)
def test_alternating_buffers_and_views_at_one_parameter(device: str) -> None:
    with go.on(device):
        x = go.array(np.arange(16, dtype=np.float32))
        ys = [go.zeros(16, go.f32), go.zeros(16, go.f32)]
        big = go.zeros(32, go.f32)
        for step in range(6):
            axpy[16](1.0, x, ys[step % 2])
            axpy[16](1.0, x, big[16:])  # a view: its own offset, same storage
            axpy[16](1.0, x, big[:16])
        want = 3 * np.arange(16, dtype=np.float32)
        np.testing.assert_array_equal(ys[0].numpy(), want)
        np.testing.assert_array_equal(ys[1].numpy(), want)
        np.testing.assert_array_equal(big.numpy(), np.concatenate([2 * want, 2 * want]))


@pytest.mark.parametrize("device", DEVICES)
def test_a_fresh_buffer_each_launch_is_never_confused_with_a_dead_one(device: str) -> None:
    with go.on(device):
        x = go.array(np.ones(8, np.float32))
        for step in range(20):
            y = go.array(np.full(8, step, np.float32))
            axpy[8](2.0, x, y)
            np.testing.assert_array_equal(y.numpy(), np.full(8, step + 2, np.float32))
            del y
            gc.collect()


@pytest.mark.parametrize("device", DEVICES)
def test_scalar_changes_reach_the_kernel_including_the_sign_of_zero(device: str) -> None:
    with go.on(device):
        out = go.zeros(4, go.f32)
        cases: list[tuple[float | np.floating[Any], float]] = [
            (2.0, 0.5), (2.0, 0.5), (4.0, 0.25), (0.0, np.inf), (-0.0, -np.inf), (0.0, np.inf),
            (np.float32(8.0), 0.125), (1, 1.0),
        ]  # fmt: skip
        for a, want in cases:
            reciprocal[4](a, out)
            np.testing.assert_array_equal(out.numpy(), np.full(4, want, np.float32))


@pytest.mark.parametrize("device", DEVICES)
def test_scalars_and_arrays_interleaved_in_two_dimensions(device: str) -> None:
    rng = np.random.default_rng(1)
    src = rng.random((5, 7), dtype=np.float32)
    with go.on(device):
        s = go.array(src)
        d = go.zeros((5, 7), go.f32)
        runs: list[tuple[int | np.integer[Any], float]] = [(1, 2.0), (np.int32(3), 0.5), (3, 0.5)]
        for k, scale in runs:
            mixed[7, 5](k, s, scale, d)
            want = src * np.float32(scale) + np.float32(int(k))
            np.testing.assert_allclose(d.numpy(), want, rtol=1e-6)
        # a strided view of the source: another signature, its own plan
        wide = go.array(np.repeat(src, 2, axis=1))
        mixed[7, 5](0, wide[:, ::2], 1.0, d)
        np.testing.assert_array_equal(d.numpy(), src)


@pytest.mark.parametrize("device", DEVICES)
def test_bad_scalars_raise_without_launching(device: str) -> None:
    with go.on(device):
        x = go.array(np.ones(4, np.float32))
        y = go.zeros(4, go.f32)
        axpy[4](1.0, x, y)  # the plan exists: the warm path does the checking
        with pytest.raises(LaunchTypeError, match="'a'"):
            axpy[4]("2", x, y)  # type: ignore[arg-type]
        with pytest.raises(LaunchTypeError, match="'a'"):
            axpy[4](True, x, y)
        with pytest.raises(LaunchTypeError, match="'a'"):
            axpy[4](1e300, x, y)
        with pytest.raises(LaunchTypeError, match="'k'"):
            mixed[1, 1](2**40, go.zeros((1, 1), go.f32), 1.0, go.zeros((1, 1), go.f32))
        np.testing.assert_array_equal(y.numpy(), np.ones(4, np.float32))


@pytest.mark.parametrize("device", DEVICES)
def test_a_loop_of_launches_keeps_one_use_per_buffer(device: str) -> None:
    with go.on(device):
        x = go.array(np.ones(64, np.float32))
        y = go.zeros(64, go.f32)
        for _ in range(100):
            axpy[64](1.0, x, y)
            assert len(y._st.uses) <= 1
            assert len(x._st.uses) <= 1
        np.testing.assert_array_equal(y.numpy(), np.full(64, 100, np.float32))
        go.synchronize()


@pytest.mark.skipif(not has_opencl(), reason="no OpenCL device")
def test_a_new_device_allocation_replaces_the_cached_argument() -> None:
    with go.on("opencl:0"):
        x = go.array(np.ones(16, np.float32))
        y = go.zeros(16, go.f32)
        axpy[16](1.0, x, y)
        np.testing.assert_array_equal(y.numpy(), np.ones(16, np.float32))
        st = y._st
        # drop the device copy (as an eviction would): the host alone holds the bytes
        device, old = st.copies.pop("opencl:0")
        st.host_written()
        axpy[16](1.0, x, y)
        assert st.copies["opencl:0"][1] is not old
        np.testing.assert_array_equal(y.numpy(), np.full(16, 2, np.float32))
        device.free(old)


def test_a_finished_pooled_launch_leaves_no_use_behind_on_cpu() -> None:
    n = 1 << 20  # large enough for the worker pool: an asynchronous launch
    with go.on("cpu"):
        x = go.array(np.ones(n, np.float32))
        y = go.zeros(n, go.f32)
        axpy[n](1.0, x, y)
        go.synchronize()
        axpy[16](1.0, x, y)  # small: inline, finished on return
        assert y._st.uses == []
        assert x._st.uses == []
        np.testing.assert_array_equal(y.numpy()[:17], [2.0] * 16 + [1.0])
