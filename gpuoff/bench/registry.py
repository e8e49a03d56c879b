"""The suite's plumbing: entries, per-backend baseline lookup, and building a case.

An :class:`Entry` names one benchmark and builds its :class:`~gpuoff.bench.harness.Case` for a
device: the gpuoff side (the same kernel source on every device), the inputs, the NumPy
reference and the work done per run. Baselines plug in per backend through factories
``factory(device, inputs) -> Impl`` keyed by the entry's name:

- ``cpu``: ``gpuoff.bench.cpu_baselines.CPU_BASELINES`` (C/OpenMP, NumPy, Numba);
- ``opencl``: ``gpuoff.bench.opencl_baselines.OPENCL_BASELINES`` (hand-written OpenCL C);
- ``cuda``: ``gpuoff.bench.cuda_baselines.CUDA_BASELINES`` (hand-written CUDA C).

Each of these maps a kernel name to either one factory (shown as the backend's baseline) or a
dict of named factories. ``inputs`` are the case's NumPy arrays and scalars by name, as listed in
each case function's docstring (``suite.py``, ``cases_compute.py``). A new kernel is one
``Entry`` plus baseline factories.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import numpy as np

from gpuoff.bench.harness import BenchSkip, Case, Impl

Inputs = dict[str, Any]
BaselineFactory = Callable[[str, Inputs], Impl]

_BACKEND_BASELINES = {
    "cpu": ("gpuoff.bench.cpu_baselines", "CPU_BASELINES", "C"),
    "opencl": ("gpuoff.bench.opencl_baselines", "OPENCL_BASELINES", "OpenCL C"),
    "cuda": ("gpuoff.bench.cuda_baselines", "CUDA_BASELINES", "CUDA C"),
}


@dataclass(frozen=True)
class Entry:
    """One benchmark of the suite. ``make(device, quick)`` builds its case or raises
    ``BenchSkip``; ``backends`` lists where it runs."""

    name: str
    description: str
    make: Callable[[str, bool], Case]
    backends: frozenset[str] = frozenset({"cpu", "opencl", "cuda"})
    repeats: int = 7


def backend_of(device: str) -> str:
    """``"opencl:0"`` -> ``"opencl"``."""
    return device.split(":", 1)[0]


def baseline_factories(kernel: str, device: str) -> dict[str, BaselineFactory]:
    """The baseline factories registered for ``kernel`` on ``device``'s backend."""
    spec = _BACKEND_BASELINES.get(backend_of(device))
    if spec is None:
        return {}
    module_name, attr, default_name = spec
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return {}
    table: dict[str, Any] = getattr(module, attr, {})
    found = table.get(kernel)
    if found is None:
        return {}
    if callable(found):
        return {default_name: found}
    return dict(found)


def device_baselines(
    kernel: str, device: str, inputs: Inputs
) -> tuple[dict[str, Impl], list[str]]:
    """Build every baseline available for ``kernel`` on ``device``, and say which skipped."""
    out: dict[str, Impl] = {}
    skipped: list[str] = []
    for name, factory in baseline_factories(kernel, device).items():
        try:
            out[name] = factory(device, inputs)
        except BenchSkip as e:
            skipped.append(f"{kernel} on {device}: baseline {name} skipped: {e}")
    return out, skipped


class on_device:  # noqa: N801 - used like the function it replaced: ``with on_device(d):``
    """Make ``device`` current for gpuoff launches inside the block; nothing to do (and no
    ``go.on``) when it is current already. The suite makes each device current around all of
    its cases, so a timed run pays no device switch; the hand-written twins pay none either."""

    __slots__ = ("device", "_scope")

    def __init__(self, device: str) -> None:
        self.device = device
        self._scope: AbstractContextManager[Any] | None = None

    def __enter__(self) -> None:
        import gpuoff as go
        from gpuoff.runtime.devices import current_device

        if current_device().name != self.device:
            self._scope = go.on(self.device)
            self._scope.__enter__()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:  # fmt: skip
        scope, self._scope = self._scope, None
        if scope is not None:
            scope.__exit__(kind, exc, tb)


def pow2(n: int) -> str:
    exp = n.bit_length() - 1
    return f"2^{exp}" if n == 1 << exp else str(n)


def rng() -> np.random.Generator:
    return np.random.default_rng(1234)


def make_case(kernel: str, device: str, inputs: Inputs, gpuoff: Impl, **fields: Any) -> Case:
    baselines, skipped = device_baselines(kernel, device, inputs)
    return Case(
        kernel=kernel, device=device, gpuoff=gpuoff, baselines=baselines, skipped=skipped,
        **fields,
    )  # fmt: skip
