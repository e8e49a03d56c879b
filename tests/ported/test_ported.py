"""Every ported kernel (tests/ported/registry.py) passes the static race check on every launch
it makes (the runtime proves it at the first launch of each launch shape) and matches NumPy."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import gpuoff as go
from tests.backends.conftest import available_devices
from tests.ported.registry import Case, assert_close, cases

CASES = cases()


@pytest.fixture(params=available_devices())
def device(request: pytest.FixtureRequest) -> Iterator[str]:
    name: str = request.param
    with go.on(name):
        yield name
        go.synchronize()


def test_at_least_thirty_kernels_from_five_projects() -> None:
    assert len(CASES) >= 30
    assert {c.project for c in CASES} == {"numba-cuda", "cuda-samples", "PyOpenCL", "Warp",
                                          "Taichi"}  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_ported_kernel_is_race_free_and_matches_numpy(case: Case, device: str) -> None:
    assert_close(case.run(np.random.default_rng(7)))
