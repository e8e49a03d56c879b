"""SPEC §4 on every available device: a loop of launches moves each buffer at most once in
and once out; host-memory devices never copy."""

from __future__ import annotations

import numpy as np

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32
from gpuoff.runtime.devices import get_device


@go.kernel
def axpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


def test_hundred_launches_then_one_read(device: str) -> None:
    n = 4096
    x = go.array(np.ones(n, np.float32))
    y = go.zeros(n)
    axpy[n](0.0, x, y)  # compile outside the counted region
    go.synchronize()
    x2 = go.array(np.ones(n, np.float32))
    y2 = go.zeros(n)
    go.reset_stats()
    for _ in range(100):
        axpy[n](1.0, x2, y2)
    out = y2.numpy()
    s = go.stats()
    assert (out == 100).all()
    assert s.launches == 100 and s.compiles == 0
    if get_device(device).host_memory:
        assert s.transfers_to_device == s.transfers_to_host == 0
    else:
        assert s.transfers_to_device <= 2 and s.bytes_to_device <= 2 * 4 * n
        assert s.transfers_to_host <= 1 and s.bytes_to_host <= 4 * n


def test_results_survive_host_writes_between_launches(device: str) -> None:
    x = go.array(np.ones(8, np.float32))
    y = go.zeros(8)
    axpy[8](1.0, x, y)
    with x.host_mut() as a:
        a[:4] = 3
    axpy[8](1.0, x, y)
    with y[4:].host_mut() as b:
        b[:] = -1
    axpy[8](1.0, x, y)
    assert y.numpy().tolist() == [7.0] * 4 + [0.0] * 4


def test_empty_buffer_written_by_a_kernel(device: str) -> None:
    y = go.empty(16)
    with y.host_mut() as a:
        a[:] = 0
    axpy[16](2.0, go.full(16, 1.0), y)
    assert y.numpy().tolist() == [2.0] * 16
