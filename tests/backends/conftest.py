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

