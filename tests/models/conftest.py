"""The ``device`` fixture of the backend tests (every available device, made current)."""

from tests.backends.conftest import device  # noqa: F401 - pytest finds fixtures by name
