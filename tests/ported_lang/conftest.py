"""The ``device`` fixture of the backend tests: every ported kernel runs on every device."""

from tests.backends.conftest import device

__all__ = ["device"]
