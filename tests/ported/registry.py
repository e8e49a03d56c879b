"""Kernels ported from peers' examples, one module per source project, run by one test.

Each ported kernel (or the few kernels of one algorithm) is a ``Case``: a function that makes
inputs with the given random generator, launches on the current device and returns what came
out with what NumPy says it should be. ``@case(project, origin)`` registers it; ``cases()``
imports every module in ``MODULES`` and lists them all. Add a project by adding its module
here; add a kernel by writing it in that module, in your own words, with one comment naming
the file it comes from.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

MODULES = ("numba_cuda", "cuda_samples", "cuda_samples_intrinsics", "pyopencl", "warp", "taichi")
"""The modules of ``tests.ported``, one per source project."""


@dataclass(frozen=True)
class Result:
    """What a case computed and what NumPy computed; compared with ``rtol``/``atol``."""

    got: Any
    want: Any
    rtol: float = 1e-5
    atol: float = 1e-6


@dataclass(frozen=True)
class Case:
    """One ported algorithm: where it comes from and how to run it."""

    name: str
    project: str
    origin: str
    run: Callable[[np.random.Generator], Result] = field(compare=False)



_CASES: dict[str, Case] = {}


Run = Callable[[np.random.Generator], Result]


def case(project: str, origin: str) -> Callable[[Run], Run]:
    """Register ``run`` as the case ``<module>.<function name>`` from ``origin`` (a file of
    ``project``)."""

    def register(run: Run) -> Run:
        name = f"{run.__module__.rpartition('.')[2]}.{run.__name__}"
        _CASES[name] = Case(name, project, origin, run)
        return run

    return register


def cases() -> list[Case]:
    """Every registered case, in module order."""
    for m in MODULES:
        importlib.import_module(f"tests.ported.{m}")
    return list(_CASES.values())


def assert_close(result: Result) -> None:
    """Every array of ``result.got`` equals ``result.want`` within the tolerances."""
    got = result.got if isinstance(result.got, tuple) else (result.got,)
    want = result.want if isinstance(result.want, tuple) else (result.want,)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=result.rtol,
                                   atol=result.atol)  # fmt: skip
