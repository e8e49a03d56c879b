"""Compute-side cases of the suite: sum reduction, sgemm, histogram, n-body.

They use work-group features (``go.shared``, ``go.barrier``, atomics) and device functions;
each case function's docstring lists the ``inputs`` its baseline factories receive.
"""

from __future__ import annotations

import numpy as np

from gpuoff.bench.harness import Case, Impl
from gpuoff.bench.registry import Entry, checked, make_case, on_device, pow2, rng

GROUPS = 256
"""Work-groups of the grid-stride kernels: enough for every core of a CPU or a small GPU."""


def reduction_case(device: str, quick: bool) -> Case:
    """inputs: ``x`` (f32[n]); result: ``[sum(x)]`` (f32[1])."""
    import gpuoff as go
    from gpuoff.bench.kernels import REDUCE_BLOCK, sum_reduce

    n = 1 << (20 if quick else 24)
    x = rng().random(n, dtype=np.float32)
    xb = go.asarray(x)  # read-only: the same memory every implementation reads

    def impl(checks: bool) -> Impl:
        k, last = checked(sum_reduce, checks), [go.zeros(1, go.f32)]

        def run() -> None:
            with on_device(device):
                # a new zeroed result, as the twins copy a zero over theirs: one host-to-device
                # copy of 4 bytes on a device with its own memory (zeroing a kept buffer
                # through ``host_mut`` would first read it back, a wait the twins do not have)
                out = last[0] = go.zeros(1, go.f32)
                k[(GROUPS * REDUCE_BLOCK,), (REDUCE_BLOCK,)](xb, out)
                go.synchronize()

        return Impl(run, lambda: last[0].numpy())

    return make_case(
        "reduction", device, {"x": x}, impl(True), unchecked=impl(False),
        size=f"{pow2(n)} f32", unit="GB/s", work=4.0 * n,
        reference=lambda: np.array([x.astype(np.float64).sum()]), rtol=1e-5, atol=0.0,
    )  # fmt: skip


def sgemm_case(device: str, quick: bool) -> Case:
    """inputs: ``a``, ``b`` (f32[n, n]); result: ``a @ b``."""
    import gpuoff as go
    from gpuoff.bench.kernels import sgemm

    n = 256 if quick else 1024
    a = rng().random((n, n), dtype=np.float32)
    b = rng().random((n, n), dtype=np.float32) + np.float32(0.5)
    ab, bb = go.asarray(a), go.asarray(b)  # inputs shared

    def impl(checks: bool) -> Impl:
        k, cb = checked(sgemm, checks), go.zeros((n, n), go.f32)

        def run() -> None:
            with on_device(device):
                k[n, n](ab, bb, cb)
                go.synchronize()

        return Impl(run, cb.numpy)

    return make_case(
        "sgemm", device, {"a": a, "b": b}, impl(True), unchecked=impl(False),
        size=f"{n}x{n} f32, naive", unit="GFLOP/s", work=2.0 * n**3,
        reference=lambda: a.astype(np.float64) @ b.astype(np.float64), rtol=1e-4, atol=1e-2,
    )  # fmt: skip


def histogram_case(device: str, quick: bool) -> Case:
    """inputs: ``data`` (u8[n]); result: the 256 counts (u32)."""
    import gpuoff as go
    from gpuoff.bench.kernels import HIST_BINS, histogram256

    n = 1 << (20 if quick else 24)
    # A skewed distribution: some bins are hot, as in real data (and atomics feel it).
    data = np.minimum(rng().exponential(40.0, n), 255).astype(np.uint8)
    db = go.asarray(data)  # read-only: the same memory every implementation reads

    def impl(checks: bool) -> Impl:
        k, last = checked(histogram256, checks), [go.zeros(HIST_BINS, go.u32)]

        def run() -> None:
            with on_device(device):
                bins = last[0] = go.zeros(HIST_BINS, go.u32)
                k[(GROUPS * HIST_BINS,), (HIST_BINS,)](db, bins)
                go.synchronize()

        return Impl(run, lambda: last[0].numpy())

    return make_case(
        "histogram", device, {"data": data}, impl(True), unchecked=impl(False),
        size=f"{pow2(n)} u8, 256 bins", unit="GB/s", work=float(n),
        reference=lambda: np.bincount(data, minlength=256).astype(np.uint32), rtol=0.0, atol=0.0,
    )  # fmt: skip


def nbody_case(device: str, quick: bool) -> Case:
    """inputs: ``px``, ``py``, ``pz``, ``mass`` (f32[n]); result: ``stack([ax, ay, az])``."""
    import gpuoff as go
    from gpuoff.bench.kernels import nbody
    from gpuoff.bench.references import nbody_inputs, nbody_ref

    n = 1024 if quick else 4096
    px, py, pz, mass = nbody_inputs(n)
    ins = [go.asarray(a) for a in (px, py, pz, mass)]  # read-only: shared with the others
    expected = nbody_ref(px, py, pz, mass)

    def impl(checks: bool) -> Impl:
        k, outs = checked(nbody, checks), [go.zeros(n, go.f32) for _ in range(3)]

        def run() -> None:
            with on_device(device):
                k[n](ins[0], ins[1], ins[2], ins[3], outs[0], outs[1], outs[2])
                go.synchronize()

        return Impl(run, lambda: np.stack([o.numpy() for o in outs]))

    return make_case(
        "nbody", device, {"px": px, "py": py, "pz": pz, "mass": mass},
        impl(True), unchecked=impl(False),
        size=f"{n} bodies, f32", unit="interactions/s", work=float(n) * n,
        reference=lambda: expected, rtol=1e-3, atol=1e-4 * float(np.abs(expected).max()),
    )  # fmt: skip


ENTRIES = [
    Entry("reduction", "sum of f32 (shared memory, barriers, atomics)", reduction_case),
    Entry("sgemm", "naive matrix multiply, one work-item per element", sgemm_case, repeats=5),
    Entry("histogram", "256-bin histogram (shared-memory atomics)", histogram_case),
    Entry("nbody", "all-pairs n-body with a device function", nbody_case),
]
