"""The benchmark suite: its entries and the driver ``run_suite`` (plumbing: ``registry``).

This module holds the streaming and launch-path cases (saxpy, stencil, Black-Scholes, launch
overhead, first launch); ``cases_compute`` adds reduction, sgemm, histogram and n-body,
``cases_scan`` the scan and tiled sgemm, ``cases_layout`` the axis-order twins (stencil with
``global_id(0)`` as the row, the tiled transpose in both id orders) and ``cases_loops`` the
grid-stride twins and the row-wise softmax. Twins sit next to each other.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gpuoff.bench import cases_compute, cases_layout, cases_lib, cases_loops, cases_scan
from gpuoff.bench.harness import BenchSkip, Case, Impl, Row, measure
from gpuoff.bench.progress import Progress
from gpuoff.bench.registry import (
    Entry,
    backend_of,
    checked,
    make_case,
    on_device,
    pow2,
    rng,
)
from gpuoff.errors import GpuoffError

MIN_SECONDS = 0.5
"""Each case is timed until gpuoff's runs add up to this (``measure``); not with ``--quick``."""


@dataclass
class SuiteResult:
    """Rows measured, and what was skipped with the reason."""

    rows: list[Row] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def saxpy_case(device: str, quick: bool) -> Case:
    """inputs: ``a`` (float), ``x``, ``y`` (f32[n]; ``y`` updated in place)."""
    import gpuoff as go
    from gpuoff.bench.kernels import saxpy
    from gpuoff.bench.references import saxpy_ref

    n = 1 << (20 if quick else 24)
    x = rng().random(n, dtype=np.float32)
    y = rng().random(n, dtype=np.float32) + np.float32(1.0)
    a = 2.0
    xb = go.asarray(x)  # x read-only: the memory the baselines read too

    def impl(checks: bool) -> Impl:
        k, yb = checked(saxpy, checks), go.array(y)  # y updated in place: one per variant

        def run() -> None:
            with on_device(device):
                k[n](a, xb, yb)
                go.synchronize()

        return Impl(run, yb.numpy)

    return make_case(
        "saxpy", device, {"a": a, "x": x, "y": y}, impl(True), unchecked=impl(False),
        size=f"{pow2(n)} f32", unit="GB/s", work=12.0 * n,
        reference=lambda: saxpy_ref(a, x, y),
    )  # fmt: skip


def stencil_case(device: str, quick: bool) -> Case:
    """inputs: ``src`` (f32[rows, cols]); the output is a new array of the same shape."""
    import gpuoff as go
    from gpuoff.bench.kernels import stencil5
    from gpuoff.bench.references import stencil5_ref

    side = 1024 if quick else 4096
    src = rng().random((side, side), dtype=np.float32)
    sb = go.asarray(src)  # src shared (read-only)

    def impl(checks: bool) -> Impl:
        k, db = checked(stencil5, checks), go.zeros((side, side), go.f32)

        def run() -> None:
            with on_device(device):
                k[side, side](sb, db)
                go.synchronize()

        return Impl(run, db.numpy)

    return make_case(
        "stencil2d", device, {"src": src}, impl(True), unchecked=impl(False),
        size=f"{side}x{side} f32", unit="GB/s", work=8.0 * side * side,
        reference=lambda: stencil5_ref(src),
    )  # fmt: skip


def black_scholes_case(device: str, quick: bool) -> Case:
    """inputs: ``price``, ``strike``, ``years`` (f32[n]), ``rate``, ``vol`` (float);
    result: ``np.stack([call, put])``."""
    import gpuoff as go
    from gpuoff.bench.kernels import black_scholes
    from gpuoff.bench.references import black_scholes_inputs, black_scholes_ref

    n = 1 << (18 if quick else 22)
    price, strike, years = black_scholes_inputs(n)
    rate, vol = 0.02, 0.30
    pb, sb, yb = go.asarray(price), go.asarray(strike), go.asarray(years)  # shared inputs

    def impl(checks: bool) -> Impl:
        k = checked(black_scholes, checks)
        call, put = go.zeros(n, go.f32), go.zeros(n, go.f32)

        def run() -> None:
            with on_device(device):
                k[n](pb, sb, yb, rate, vol, call, put)
                go.synchronize()

        return Impl(run, lambda: np.stack([call.numpy(), put.numpy()]))

    def reference() -> np.ndarray[Any, Any]:
        wide = [a.astype(np.float64) for a in (price, strike, years)]
        return np.stack(black_scholes_ref(wide[0], wide[1], wide[2], rate, vol))

    inputs = {"price": price, "strike": strike, "years": years, "rate": rate, "vol": vol}
    return make_case(
        "black_scholes", device, inputs, impl(True), unchecked=impl(False),
        size=f"{pow2(n)} f32", unit="options/s", work=float(n), reference=reference,
        rtol=1e-3, atol=2e-3,
    )  # fmt: skip


def launch_case(device: str, quick: bool) -> Case:
    """Warm launch overhead: saxpy over 64 items (3 arguments, guards on), per launch.
    inputs: ``a``, ``x``, ``y`` (f32[64]), ``ops`` (launches per timed run)."""
    import gpuoff as go
    from gpuoff.bench.kernels import saxpy

    n, ops = 64, (200 if quick else 2000)
    x = np.ones(n, np.float32)
    y = np.zeros(n, np.float32)

    def impl(checks: bool) -> Impl:
        k, xb, yb = checked(saxpy, checks), go.array(x), go.array(y)

        def run() -> None:
            with on_device(device):
                for _ in range(ops):
                    k[n](2.0, xb, yb)
                go.synchronize()

        return Impl(run, None, ops=ops)

    return make_case(
        "launch", device, {"a": 2.0, "x": x, "y": y, "ops": ops}, impl(True),
        unchecked=impl(False), size=f"{n} items, 3 args", unit="us", work=0.0,
        note="per launch, guards on",
    )  # fmt: skip


def _first_launch(cached: bool) -> Callable[[str, bool], Case]:
    name = "cached_launch" if cached else "first_launch"

    def make(device: str, quick: bool) -> Case:
        from gpuoff.bench.coldstart import cold_start_impl

        return make_case(
            name, device, {}, cold_start_impl(device, cached=cached),
            unchecked=cold_start_impl(device, cached=cached, boundscheck=False),
            size="saxpy, new process", unit="ms", work=0.0,
            note="disk cache warm" if cached else "empty disk cache",
        )  # fmt: skip

    return make


_LAYOUT = {e.name: e for e in cases_layout.ENTRIES}
_LOOPS = {e.name: e for e in cases_loops.ENTRIES}

SUITE: list[Entry] = [
    Entry("saxpy", "y = a*x + y, streaming", saxpy_case),
    _LOOPS["saxpy_gridstride"],
    Entry("stencil2d", "2-D 5-point stencil", stencil_case),
    _LAYOUT["stencil2d_rows"],
    Entry("black_scholes", "Black-Scholes call/put (exp, log, sqrt, erf)", black_scholes_case),
    _LOOPS["black_scholes_gridstride"],
    *cases_compute.ENTRIES,
    *cases_scan.ENTRIES,
    _LAYOUT["transpose"],
    _LAYOUT["transpose_rows"],
    _LOOPS["softmax"],
    Entry("launch", "warm launch overhead, tiny grid, guards on", launch_case),
    Entry("first_launch", "first launch in a new process (compile)", _first_launch(False)),
    Entry("cached_launch", "first launch in a new process, disk cache warm",
          _first_launch(True)),
]  # fmt: skip


def register(entry: Entry) -> None:
    """Add (or replace, by name) an entry of the suite."""
    SUITE[:] = [e for e in SUITE if e.name != entry.name] + [entry]


SUITES: dict[str, list[Entry]] = {"core": SUITE, "lib": cases_lib.ENTRIES}
"""The named suites: ``core`` (kernels as users write them), ``lib`` (``gpuoff.lib``)."""


def select(only: Sequence[str] | None, suite: str = "core") -> list[Entry]:
    """The entries named in ``only`` (any suite's), else every entry of ``suite`` (``all``:
    every suite's); ``ValueError`` for an unknown name."""
    suites = {**SUITES, "core": SUITE}  # SUITE looked up now: tests replace it
    if suite != "all" and suite not in suites:
        raise ValueError(f"unknown suite {suite!r}; known: {', '.join(suites)}, all")
    everything = [e for entries in suites.values() for e in entries]
    if not only:
        return everything if suite == "all" else list(suites[suite])
    known = {e.name: e for e in everything}
    unknown = [n for n in only if n not in known]
    if unknown:
        raise ValueError(
            f"unknown benchmark(s) {', '.join(unknown)}; known: {', '.join(known)}"
        )
    return [known[n] for n in only]


OnTimeout = Callable[[str, SuiteResult], None]


def run_suite(
    devices: Sequence[str],
    only: Sequence[str] | None = None,
    *,
    quick: bool = False,
    progress: bool = True,
    timeout: float | None = None,
    on_timeout: OnTimeout | None = None,
    suite: str = "core",
) -> SuiteResult:
    """Run the selected entries on each device, in order; a skip is recorded, not raised.

    ``timeout``: seconds one entry may take. A kernel that never finishes (a device hang)
    cannot be interrupted from Python, so when the time is up ``on_timeout(what, partial)`` is
    called from a watchdog thread with the results so far; it is expected to report them and
    end the process.
    """
    entries = select(only, suite)
    result = SuiteResult()
    bar = Progress(len(entries) * len(devices), enabled=progress)
    for device in devices:
        scope = on_device(device)
        try:
            scope.__enter__()  # once: the cases' runs find it current (no switch timed)
        except GpuoffError:  # cannot be opened here: each case says why it skips
            _run_entries(device, entries, quick, result, bar, timeout, on_timeout)
            continue
        try:
            _run_entries(device, entries, quick, result, bar, timeout, on_timeout)
        finally:
            scope.__exit__(None, None, None)
    bar.close()
    return result


def _run_entries(device: str, entries: list[Entry], quick: bool, result: SuiteResult,
                 bar: Progress, timeout: float | None,
                 on_timeout: OnTimeout | None) -> None:  # fmt: skip
    """``run_suite``'s work on one device (made current by the caller)."""
    for entry in entries:
        what = f"{entry.name} on {device}"
        bar.step(what)
        if backend_of(device) not in entry.backends:
            result.skipped.append(f"{what}: not for this backend")
            continue
        watchdog = _watchdog(what, result, timeout, on_timeout)
        try:
            case = entry.make(device, quick)
            result.skipped.extend(case.skipped)
            result.rows.append(measure(case, repeats=entry.repeats, tick=bar.tick,
                                       min_seconds=0.0 if quick else MIN_SECONDS))  # fmt: skip
        except BenchSkip as e:
            result.skipped.append(f"{what}: {e}")
        finally:
            if watchdog is not None:
                watchdog.cancel()


def _watchdog(
    what: str, result: SuiteResult, timeout: float | None, on_timeout: OnTimeout | None
) -> threading.Timer | None:
    if timeout is None or on_timeout is None:
        return None
    timer = threading.Timer(timeout, on_timeout, args=(what, result))
    timer.daemon = True
    timer.start()
    return timer
