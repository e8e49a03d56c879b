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
from typing import Any, TypeVar

import numpy as np

from gpuoff.bench.harness import BenchSkip, Case, Impl
from gpuoff.runtime.kernel import Kernel

Inputs = dict[str, Any]
K = TypeVar("K", bound="Kernel[...]")
BaselineFactory = Callable[[str, Inputs], Impl]

Table = dict[str, dict[str, BaselineFactory]]
"""backend -> baseline name -> factory: the baselines of one kernel kept beside its case."""

_BACKEND_BASELINES = {
    "cpu": (("gpuoff.bench.cpu_baselines", "CPU_BASELINES", "C"),
            ("gpuoff.bench.peers", "PEER_BASELINES", "peer")),
    "opencl": (("gpuoff.bench.opencl_baselines", "OPENCL_BASELINES", "OpenCL C"),),
    "cuda": (("gpuoff.bench.cuda_baselines", "CUDA_BASELINES", "CUDA C"),),
}  # fmt: skip
"""backend -> the tables of its baselines: (module, attribute, name of a lone factory).
``peers`` (Numba, Warp, Taichi) come after the C and NumPy baselines."""


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
    out: dict[str, BaselineFactory] = {}
    for module_name, attr, default_name in _BACKEND_BASELINES.get(backend_of(device), ()):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        table: dict[str, Any] = getattr(module, attr, {})
        found = table.get(kernel)
        if found is None:
            continue
        if callable(found):
            out[default_name] = found
        else:
            out.update(found)
    return out


def device_baselines(
    kernel: str, device: str, inputs: Inputs, extra: Table | None = None
) -> tuple[dict[str, Impl], list[str]]:
    """Build every baseline available for ``kernel`` on ``device`` (those of the backend's
    tables, then ``extra``'s for the backend), and say which skipped and why."""
    out: dict[str, Impl] = {}
    skipped: list[str] = []
    factories = baseline_factories(kernel, device)
    if extra is not None:
        factories = {**factories, **extra.get(backend_of(device), {})}
    for name, factory in _ordered(factories).items():
        try:
            out[name] = factory(device, inputs)
        except BenchSkip as e:
            skipped.append(f"{kernel} on {device}: baseline {name} skipped: {e}")
    return out, skipped


PEERS = ("Numba", "Warp", "Taichi")
"""The peers' baseline names: listed after the hand-written and NumPy baselines."""


def _ordered(factories: dict[str, BaselineFactory]) -> dict[str, BaselineFactory]:
    """Hand-written baselines (C, OpenCL C, ...) and NumPy first, then the peers in order."""
    own = {n: f for n, f in factories.items() if n not in PEERS}
    return {**own, **{n: factories[n] for n in PEERS if n in factories}}


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


_UNCHECKED: dict[Any, Any] = {}


def unchecked(kernel: K) -> K:
    """``kernel`` compiled with ``boundscheck=False`` (one twin per kernel: it compiles once,
    and its disk-cache entry is its own, the options being part of the key)."""
    twin: Any = _UNCHECKED.get(kernel)
    if twin is None:
        import gpuoff as go

        compile_unchecked = go.kernel(boundscheck=False, fastmath=kernel.fastmath)
        twin = _UNCHECKED[kernel] = compile_unchecked(kernel.pyfunc)
    result: K = twin
    return result


def checked(kernel: K, checks: bool) -> K:
    """``kernel`` itself when ``checks``, else its ``boundscheck=False`` twin."""
    return kernel if checks else unchecked(kernel)


def make_case(kernel: str, device: str, inputs: Inputs, gpuoff: Impl, *,
              baselines_of: str | None = None, extra: Table | None = None,
              **fields: Any) -> Case:  # fmt: skip
    """The case of ``kernel`` with the baselines registered under ``baselines_of`` (default:
    its own name) for ``device``'s backend and ``extra``'s; ``fields`` go to :class:`Case`."""
    baselines, skipped = device_baselines(baselines_of or kernel, device, inputs, extra)
    return Case(
        kernel=kernel, device=device, gpuoff=gpuoff, baselines=baselines, skipped=skipped,
        **fields,
    )  # fmt: skip
