"""The ``device`` fixture: every available device from ``go.devices()``, made current."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import gpuoff as go


def available_devices() -> list[str]:
    """Names of the devices usable here (``cpu`` always)."""
    return [d.name for d in go.devices() if d.available]


@pytest.fixture(params=available_devices())
def device(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run the test with ``request.param`` as the current device."""
    name: str = request.param
    with go.on(name):
        yield name
        go.synchronize()


def is_pocl(device: str) -> bool:
    """Whether ``device`` is PoCL (its libm differs from the others in a few last bits:
    tanh(20) in f32, the sign of tgamma's underflow; pinned as non-strict xfails)."""
    return any(d.name == device and "Portable Computing Language" in d.description
               for d in go.devices())  # fmt: skip
