"""The measurement protocol of BENCHMARKS.md, independent of any kernel or device.

A :class:`Case` is one benchmark on one device: the gpuoff implementation, its baselines, a
NumPy reference and how much work one run does. :func:`measure` checks every implementation's
result against the reference, warms up, then times the implementations interleaved
(A B C A B C ...) so that drift on a shared machine hits all of them alike, and reports the
median of each. The ratio ``baseline_time / gpuoff_time`` is 1.0 at parity, higher is better
for gpuoff.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gpuoff.errors import GpuoffError

Runner = Callable[[], float | None]
"""One complete, synchronised run. Returns ``None`` to be timed by the harness, or its own
measured duration in seconds (for runs that time something inside another process)."""

UNCHECKED = "gpuoff unchecked"
"""The name of the ``boundscheck=False`` run in checks and errors (it is not a baseline)."""

MIN_REPEATS = 5
MAX_REPEATS = 41
"""Rounds ``measure`` may add to reach ``min_seconds``: short runs scatter most on a VM."""


class BenchCheckError(GpuoffError, AssertionError):
    """An implementation's result disagrees with the NumPy reference: nothing is timed."""


class BenchSkip(GpuoffError, RuntimeError):
    """A case cannot run here (device, compiler or optional package missing); says why."""


@dataclass
class Impl:
    """One implementation of a case: gpuoff's or a baseline's.

    ``ops`` runs happen inside one call of ``run`` (launch-overhead loops): reported times are
    per op. ``result`` returns the output of the last run, for checking against the reference.
    ``keep`` holds the arrays a run reaches through raw pointers (ctypes), so they stay alive.
    ``primed``: each timed run comes right after an untimed run of the same implementation
    (see ``measure``); False for runs that start a new process each time.
    """

    run: Runner
    result: Callable[[], np.ndarray[Any, Any]] | None = None
    ops: int = 1
    keep: tuple[object, ...] = ()
    primed: bool = True
    rtol: float | None = None
    """This implementation's own relative tolerance against the reference, when its
    arithmetic is legitimately less exact than the case's (a peer's sequential float32 sum,
    whose rounding error grows with the length); ``None``: the case's."""


@dataclass
class Case:
    """One benchmark on one device.

    ``work`` is the amount of ``unit`` one op does (bytes for GB/s, flops for GFLOP/s, options
    for options/s); ``unit`` of ``"us"`` or ``"ms"`` reports times only.
    """

    kernel: str
    size: str
    device: str
    unit: str
    work: float
    gpuoff: Impl
    baselines: dict[str, Impl] = field(default_factory=dict)
    reference: Callable[[], np.ndarray[Any, Any]] | None = None
    rtol: float = 1e-5
    atol: float = 1e-6
    note: str = ""
    skipped: list[str] = field(default_factory=list)
    """Baselines that could not run here, each with the reason."""
    unchecked: Impl | None = None
    """The same gpuoff run with every kernel compiled ``boundscheck=False``: the price of
    safety (``Row.boundscheck_cost``). Its own output buffers: kernels may update in place."""
    twin: str = ""
    """The entry this one is a variant of (the other id order, the grid-stride form): the
    report compares their gpuoff times (``report.twin_ratios``)."""


@dataclass(frozen=True)
class Timing:
    """Seconds per op of one implementation: the median and every sample."""

    median: float
    samples: tuple[float, ...]


@dataclass(frozen=True)
class Row:
    """The result of one case: one line of the table, one object of the JSON output."""

    kernel: str
    size: str
    device: str
    unit: str
    work: float
    gpuoff: Timing
    baselines: dict[str, Timing]
    note: str = ""
    unchecked: Timing | None = None
    twin: str = ""

    def ratio(self, baseline: str) -> float:
        """``baseline_time / gpuoff_time``: above 1.0 means gpuoff is faster."""
        return self.baselines[baseline].median / self.gpuoff.median

    def boundscheck_cost(self) -> float | None:
        """``checked_time / unchecked_time``: 1.05 means bounds checks cost 5%."""
        if self.unchecked is None or self.unchecked.median <= 0:
            return None
        return self.gpuoff.median / self.unchecked.median

    def best(self, family: str) -> str | None:
        """The fastest baseline of ``family`` (``"C"``: every ``C/...`` variant), or None."""
        members = [n for n in self.baselines if family_of(n) == family]
        return min(members, key=lambda n: self.baselines[n].median, default=None)

    def families(self) -> list[str]:
        """The baseline families present, in the order their first member appears."""
        out: list[str] = []
        for name in self.baselines:
            fam = family_of(name)
            if fam is not None and fam not in out:
                out.append(fam)
        return out

    def rate(self, timing: Timing) -> float | None:
        """Throughput in the row's unit (``None`` for time-only units)."""
        if self.unit in TIME_UNITS or timing.median <= 0:
            return None
        return self.work / timing.median / RATE_SCALE.get(self.unit, 1.0)

    def to_json(self) -> dict[str, Any]:
        """A plain dict (times in seconds) for ``--json``."""
        out: dict[str, Any] = {
            "kernel": self.kernel,
            "size": self.size,
            "device": self.device,
            "unit": self.unit,
            "work": self.work,
            "gpuoff_s": self.gpuoff.median,
            "gpuoff_samples_s": list(self.gpuoff.samples),
            "gpuoff_rate": self.rate(self.gpuoff),
            "baselines": {
                name: {
                    "time_s": t.median,
                    "samples_s": list(t.samples),
                    "rate": self.rate(t),
                    "ratio": self.ratio(name),
                }
                for name, t in self.baselines.items()
            },
        }
        if self.unchecked is not None:
            out["unchecked"] = {
                "time_s": self.unchecked.median,
                "samples_s": list(self.unchecked.samples),
                "rate": self.rate(self.unchecked),
            }
            out["boundscheck_cost"] = self.boundscheck_cost()
        best = {}
        for fam in self.families():
            name = self.best(fam)
            assert name is not None
            best[fam] = {"name": name, "ratio": self.ratio(name)}
        if best:
            out["best"] = best
        if self.twin:
            out["twin"] = self.twin
        if self.note:
            out["note"] = self.note
        return out


BASELINE_FAMILIES = (("C", "C/"), ("OpenCL C", "OpenCL C"), ("CUDA C", "CUDA C"))
"""(family, name prefix): the hand-written baselines, one or more variants each (``C/OpenMP``,
``C/OpenMP+libmvec``); a row is judged against the fastest variant of each family."""


def family_of(name: str) -> str | None:
    """``"C/OpenMP+libmvec"`` -> ``"C"``; ``None`` for NumPy and the peers."""
    for family, prefix in BASELINE_FAMILIES:
        if name.startswith(prefix):
            return family
    return None


TIME_UNITS = frozenset({"us", "ms"})
RATE_SCALE = {"GB/s": 1e9, "GFLOP/s": 1e9, "options/s": 1.0, "interactions/s": 1.0}


def check_result(case: Case, name: str, impl: Impl, expected: np.ndarray[Any, Any]) -> None:
    """Run ``impl`` once and compare its output with ``expected``; raise BenchCheckError."""
    impl.run()
    if impl.result is None:
        return
    got = np.asarray(impl.result())
    if got.shape != expected.shape:
        raise BenchCheckError(
            f"{case.kernel} on {case.device}: {name} gave shape {got.shape}, "
            f"expected {expected.shape}"
        )
    rtol = case.rtol if impl.rtol is None else impl.rtol
    if np.allclose(got, expected, rtol=rtol, atol=case.atol, equal_nan=True):
        return
    bad = ~np.isclose(got, expected, rtol=rtol, atol=case.atol, equal_nan=True)
    first = tuple(int(i) for i in np.argwhere(bad)[0])
    raise BenchCheckError(
        f"{case.kernel} on {case.device}: {name} differs from NumPy at {int(bad.sum())} of "
        f"{bad.size} elements; first at {first}: got {got[first]!r}, expected {expected[first]!r}"
    )


def _time_once(impl: Impl) -> float:
    start = time.perf_counter()
    measured = impl.run()
    elapsed = time.perf_counter() - start
    if measured is not None:
        elapsed = measured
    return elapsed / impl.ops


def measure(
    case: Case,
    *,
    repeats: int = MIN_REPEATS,
    warmup: int = 1,
    tick: Callable[[], None] | None = None,
    min_seconds: float = 0.0,
) -> Row:
    """Check, warm up and time ``case`` per the protocol; ``tick`` is called after each run.

    After ``repeats`` rounds, more rounds (up to ``MAX_REPEATS``) while gpuoff's timed runs
    add up to less than ``min_seconds``: the median of a few 5 ms runs moves by 10-20% from
    one process to the next on a 2-core VM, that of a few dozen far less.

    Each timed run of a ``primed`` implementation comes right after an untimed run of the same
    one, so that no run is timed while what ran before it is still settling: OpenBLAS's
    threads spin for a while after NumPy's matmul, and the implementation timed next lost a
    third of its speed (naive sgemm on cpu: gpuoff 104 ms right after it against 68 ms
    primed, C 74 ms against 66 ms). A rotation of three or more implementations puts some of
    them after a given one more often than others, so that cost was not even shared."""
    repeats = max(repeats, MIN_REPEATS)
    impls: dict[str, Impl] = {"gpuoff": case.gpuoff}
    if case.unchecked is not None:
        impls[UNCHECKED] = case.unchecked
    impls.update(case.baselines)
    if case.reference is not None:
        expected = np.asarray(case.reference())
        for name, impl in impls.items():
            check_result(case, name, impl, expected)
        # The checked run was each implementation's first (compile, page faults, caches):
        # it is the warm-up, one fewer long run for the slow ones.
        warmup = max(warmup - 1, 0)
    for _ in range(warmup):
        for impl in impls.values():
            impl.run()
    samples: dict[str, list[float]] = {name: [] for name in impls}
    # Interleaved, and the order rotates every round: on a VM an implementation that follows a
    # single-threaded one (NumPy) starts on a core that has just idled and pays its wake-up,
    # so a fixed order would charge that to whoever always comes next.
    order = list(impls.items())
    timed = 0.0  # seconds of gpuoff's runs so far
    r = 0
    while r < repeats or (timed < min_seconds and r < MAX_REPEATS):
        k = r % len(order)
        for name, impl in order[k:] + order[:k]:
            if impl.primed:
                impl.run()
            start = time.perf_counter()
            samples[name].append(_time_once(impl))
            if name == "gpuoff":
                timed += time.perf_counter() - start
            if tick is not None:
                tick()
        r += 1
    timings = {
        name: Timing(statistics.median(s), tuple(s)) for name, s in samples.items()
    }
    gp = timings.pop("gpuoff")
    unchecked = timings.pop(UNCHECKED, None)
    return Row(case.kernel, case.size, case.device, case.unit, case.work, gp, timings,
               case.note, unchecked, case.twin)  # fmt: skip

