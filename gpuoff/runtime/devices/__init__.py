"""Device registry: discovery, the current device, ``go.devices()``, ``go.set_device``, ``go.on``.

Backends are imported only when devices are listed or opened (never at ``import gpuoff``): a
backend module ``gpuoff.runtime.devices.<backend>`` has ``discover() -> list[DeviceInfo]`` and
``open_device(name) -> Device``; an import failure makes the backend an unavailable entry with
the reason.

Choice of device (SPEC §6), first match wins: ``with go.on(name):`` (per thread / task), then
``go.set_device(name)``, then ``GPUOFF_DEVICE``, then the first CUDA device, else the first
OpenCL GPU, else ``"cpu"``.
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from gpuoff.errors import DeviceError
from gpuoff.runtime.devices.base import Device, DeviceInfo

BACKENDS = ("cuda", "opencl", "cpu")
"""Backends in order of preference for the default device."""

_lock = threading.RLock()
_infos: list[DeviceInfo] | None = None
_opened: dict[str, Device] = {}
_selected: str | None = None
_default: Device | None = None
_scoped: ContextVar[Device | None] = ContextVar("gpuoff_device", default=None)


def _backend_module(backend: str) -> Any:
    return importlib.import_module(f"gpuoff.runtime.devices.{backend}")


def _discover(backend: str) -> list[DeviceInfo]:
    try:
        module = _backend_module(backend)
        found = getattr(module, "discover", None) or module.list_devices
        return list(found())
    except Exception as exc:  # noqa: BLE001 - a broken driver must not break gpuoff
        return [
            DeviceInfo(backend, backend, "", available=False, reason=f"{type(exc).__name__}: {exc}")
        ]


def devices() -> list[DeviceInfo]:
    """Every device gpuoff can use, and each unavailable backend with the reason."""
    global _infos
    with _lock:
        if _infos is None:
            _infos = [info for backend in BACKENDS for info in _discover(backend)]
        return list(_infos)


def get_device(name: str) -> Device:
    """The device called ``name`` (``"cpu"``, ``"opencl:0"``, ``"cuda:0"``), opened once."""
    dev = _opened.get(name)
    if dev is not None:
        return dev
    with _lock:
        if name in _opened:
            return _opened[name]
        backend = name.split(":", 1)[0]
        if backend not in BACKENDS:
            raise DeviceError(f"unknown device {name!r} (backends: {', '.join(BACKENDS)})")
        try:
            module = _backend_module(backend)
        except Exception as exc:  # noqa: BLE001
            raise DeviceError(f"device {name!r} is unavailable: {exc}") from exc
        opener = getattr(module, "open_device", None) or module.get_device
        try:
            opened: Device = opener(name)
        except DeviceError:
            raise
        except Exception as exc:  # noqa: BLE001
            raise DeviceError(f"cannot open device {name!r}: {exc}") from exc
        _opened[name] = opened
        return opened


def default_device_name() -> str:
    """``GPUOFF_DEVICE``, else the first CUDA device, else the first OpenCL GPU, else cpu."""
    env = os.environ.get("GPUOFF_DEVICE", "").strip()
    if env:
        return env
    infos = devices()
    for info in infos:
        if info.available and info.backend == "cuda":
            return info.name
    for info in infos:
        if info.available and info.backend == "opencl" and info.kind == "gpu":
            return info.name
    return "cpu"


def current_device() -> Device:
    """The device launches go to now (see the module docstring for the order)."""
    dev = _scoped.get()
    if dev is not None:
        return dev
    global _default
    if _default is None:
        with _lock:
            if _default is None:
                _default = get_device(_selected or default_device_name())
    return _default


def set_device(name: str) -> None:
    """Make ``name`` the device for later launches (outside ``go.on`` blocks)."""
    global _selected, _default
    dev = get_device(name)
    with _lock:
        _selected = name
        _default = dev


@contextmanager
def on(name: str) -> Iterator[Device]:
    """``with go.on("opencl:0"):`` launches in the block (this thread / task) go to ``name``."""
    token = _scoped.set(get_device(name))
    try:
        yield _scoped.get() or get_device(name)
    finally:
        _scoped.reset(token)


__all__ = [
    "BACKENDS", "current_device", "default_device_name", "devices", "get_device", "on", "register",
    "set_device",
]  # fmt: skip


def register(device: Device) -> None:
    """Make ``device`` known by its name (tests register fake devices this way)."""
    global _default
    with _lock:
        _opened[device.name] = device
        if _default is not None and _default.name == device.name:
            _default = device
