"""The library tests run on every available device, as the backend tests do."""

from __future__ import annotations

from tests.backends.conftest import available_devices, device

__all__ = ["available_devices", "device"]
