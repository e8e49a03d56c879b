"""gpuoff's public API on opencl:0: results, residency across cpu and opencl:0 counted with
go.stats(), ordering of asynchronous launches around host access, errors."""

from __future__ import annotations

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32
from gpuoff.bench import kernels, references
from tests.backends.test_opencl_support import has_opencl

pytestmark = pytest.mark.skipif(not has_opencl(), reason="no OpenCL device")
DEVICES = ["cpu", "opencl:0"]


@go.kernel
def axpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


@go.kernel
def gather(x: Borrow[Array[f32]], idx: Borrow[Array[i32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < out.shape[0]:
        out[i] = x[idx[i]]


@pytest.mark.parametrize("device", DEVICES)
def test_suite_kernels_agree_with_numpy(device: str) -> None:
    rng = np.random.default_rng(0)
    with go.on(device):
        x = rng.random(1000, dtype=np.float32)
        y = rng.random(1000, dtype=np.float32)
        yb = go.array(y)
        kernels.saxpy[1000](2.0, go.array(x), yb)
        np.testing.assert_allclose(yb.numpy(), references.saxpy_ref(2.0, x, y), rtol=1e-6)
        src = rng.random((33, 47), dtype=np.float32)
        dst = go.zeros((33, 47), go.f32)
        kernels.stencil5[47, 33](go.array(src), dst)
        np.testing.assert_allclose(dst.numpy(), references.stencil5_ref(src), rtol=1e-6)
        price, strike, years = references.black_scholes_inputs(777)
        call, put = go.zeros(777, go.f32), go.zeros(777, go.f32)
        kernels.black_scholes[777](go.array(price), go.array(strike), go.array(years), 0.02,
                                   0.3, call, put)  # fmt: skip
        want_call, want_put = references.black_scholes_ref(price, strike, years, 0.02, 0.3)
        np.testing.assert_allclose(call.numpy(), want_call, rtol=1e-3, atol=2e-3)
        np.testing.assert_allclose(put.numpy(), want_put, rtol=1e-3, atol=2e-3)


def test_buffers_move_only_when_needed_between_cpu_and_opencl() -> None:
    n = 4096
    nbytes = n * 4
    x = go.array(np.ones(n, np.float32))
    y = go.zeros(n, go.f32)
    go.synchronize()
    s0 = go.stats()
    with go.on("opencl:0"):
        for _ in range(100):
            axpy[n](1.0, x, y)
    go.synchronize()
    d = go.stats() - s0
    # x and y (zeros) copied in once each for the 100 launches; nothing comes back.
    assert (d.transfers_to_device, d.bytes_to_device) == (2, 2 * nbytes)
    assert d.transfers_to_host == 0 and d.launches == 100
    s1 = go.stats()
    with go.on("cpu"):
        axpy[n](1.0, x, y)  # y (and x) must be valid on the host now: each comes back once
    d = go.stats() - s1
    assert (d.transfers_to_host, d.bytes_to_host) == (1, nbytes)  # y; x's host copy is valid
    assert d.transfers_to_device == 0
    np.testing.assert_array_equal(y.numpy(), 101.0)
    s2 = go.stats()
    with go.on("opencl:0"):
        axpy[n](1.0, x, y)  # y changed on the host: copied in again; x still valid there
        axpy[n](1.0, x, y)
    assert y.numpy()[0] == 103.0
    d = go.stats() - s2
    assert (d.transfers_to_device, d.transfers_to_host) == (1, 1)


def test_host_access_between_asynchronous_launches() -> None:
    n = 1 << 15
    x = go.array(np.arange(n, dtype=np.float32))
    y = go.zeros(n, go.f32)
    with go.on("opencl:0"):
        for _ in range(5):
            axpy[n](1.0, x, y)
        assert y.numpy()[7] == 35.0  # waits for the five writers
        with y.host_mut() as h:
            h[:] = -1.0
        axpy[n](2.0, x, y)  # sees the host's write
        with y.host() as view:
            np.testing.assert_array_equal(view, 2 * np.arange(n, dtype=np.float32) - 1)
        out = go.zeros(n, go.f32)
        idx = go.array(np.arange(n, dtype=np.int32)[::-1].copy())
        gather[n](y, idx, out)  # reads y written by an earlier launch: ordered after it
        np.testing.assert_array_equal(out.numpy(), (2 * np.arange(n) - 1)[::-1])


def test_bounds_error_raised_through_the_runtime() -> None:
    x = go.array(np.ones(8, np.float32))
    idx = go.array(np.array([0, 1, 2, 9], np.int32))
    out = go.zeros(4, go.f32)
    with go.on("opencl:0"):
        expected = r"index \(9,\) out of range for x with shape \(8,\)"
        with pytest.raises(go.BoundsError, match=expected):
            gather[4](x, idx, out)
            go.synchronize()
            out.numpy()
        ok = go.array(np.array([0, 1, 2, 3], np.int32))
        gather[4](x, ok, out)
        np.testing.assert_array_equal(out.numpy(), 1.0)


def test_grid_stride_reduction_with_barriers_in_a_loop() -> None:
    # Regression: an early return before barrier() (the rounded-grid guard) hung PoCL.
    x = np.random.default_rng(3).random(1 << 14, dtype=np.float32)
    out = go.zeros(1, go.f32)
    with go.on("opencl:0"):
        block = kernels.REDUCE_BLOCK
        kernels.sum_reduce[(8 * block,), (block,)](go.array(x), out)
        np.testing.assert_allclose(out.numpy()[0], x.astype(np.float64).sum(), rtol=1e-5)


def test_a_loop_of_launches_keeps_one_use_per_buffer() -> None:
    # Launches on one in-order queue: the newest use of a buffer stands for the older ones
    # (guards.prune), so the guards' work per launch does not grow with the work in flight.
    n = 64
    x = go.array(np.arange(n, dtype=np.float32))
    y = go.zeros(n, go.f32)
    with go.on("opencl:0"):
        for _ in range(200):
            axpy[n](1.0, x, y)
            assert len(y._st.uses) <= 2 and len(x._st.uses) <= 2
        np.testing.assert_array_equal(y.numpy(), 200 * np.arange(n, dtype=np.float32))


def test_prune_drops_only_uses_that_a_later_one_stands_for() -> None:
    from gpuoff.ownership import Access
    from gpuoff.runtime import guards
    from gpuoff.runtime.devices import opencl as ocl

    dev, other = ocl.open_device("opencl:0"), ocl.open_device("opencl:0")

    def ev(device: ocl.OpenCLDevice, order: int) -> ocl.OpenCLEvent:
        e = ocl.OpenCLEvent(None, device)  # never done: no command behind it
        e.order = order
        return e

    w, r = Access.BORROW_MUT, Access.BORROW
    uses = [
        guards.Use(0, 64, w, ev(dev, 1)),
        guards.Use(0, 64, r, ev(dev, 2)),  # a reader does not stand for a writer
        guards.Use(0, 64, r, ev(dev, 3)),  # ... but for the reader before it
        guards.Use(0, 32, w, ev(dev, 4)),  # covers fewer bytes than the reader
        guards.Use(0, 64, w, ev(dev, 5)),  # a writer stands for the writer before it
        guards.Use(0, 64, w, ev(other, 9)),  # another queue: no order with this one
        guards.Use(8, 16, w, ev(other, 8)),  # an earlier command (out of list order)
    ]
    kept = list(uses)
    guards.prune(kept)
    assert kept == [uses[0], uses[2], uses[4], uses[5], uses[6]]
