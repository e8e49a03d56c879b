"""Ported kernels run on every available device: the ``device`` fixture of tests/backends."""

from tests.backends.conftest import device

__all__ = ["device"]
