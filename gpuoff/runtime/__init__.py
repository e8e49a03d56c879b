"""The runtime: kernels and launch plans, buffers, borrow guards, residency, devices, caches.

Public names are re-exported by ``gpuoff`` (``go.kernel``, ``go.Buffer``, ``go.zeros``, ...).
Importing this package loads no backend library; devices load on first use. (``go.stats`` and
``go.devices`` are not re-exported here, so that those names stay the submodules.)
"""

from gpuoff.runtime.buffer import Buffer, array, asarray, empty, from_dlpack, full, zeros
from gpuoff.runtime.devices import on, set_device
from gpuoff.runtime.devices.base import DeviceInfo
from gpuoff.runtime.guards import synchronize
from gpuoff.runtime.kernel import Kernel, Launch, kernel
from gpuoff.runtime.stats import Stats, reset_stats

__all__ = [
    "Buffer", "DeviceInfo", "Kernel", "Launch", "Stats", "array", "asarray", "empty",
    "from_dlpack", "full", "kernel", "on", "reset_stats", "set_device", "synchronize",
    "zeros",
]  # fmt: skip
