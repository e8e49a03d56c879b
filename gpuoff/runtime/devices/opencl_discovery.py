"""Finding OpenCL devices: every device of every platform, numbered ``opencl:0``,
``opencl:1``, ... in that order (or one unavailable entry with the reason: pyopencl missing,
no ICD, no platform, a driver that cannot build programs here: ``opencl_icd``)."""

from __future__ import annotations

import os
from typing import Any

from gpuoff.errors import DeviceError
from gpuoff.runtime.devices import opencl_icd
from gpuoff.runtime.devices.base import DeviceInfo


def cl_module() -> Any:
    """pyopencl, imported once the ICD loader is prepared."""
    opencl_icd.prepare()
    import pyopencl as cl

    return cl


def _all_devices() -> list[tuple[Any, Any]]:
    """Every (platform, device) pair, in the order that numbers ``opencl:N``. A platform the
    loader found twice (the same driver through two ICD files) is listed once."""
    cl = cl_module()
    platforms: dict[int, Any] = {}
    for p in cl.get_platforms():
        platforms.setdefault(p.int_ptr, p)
    return [(p, d) for p in platforms.values() for d in p.get_devices()]


def _kind(cl: Any, device: Any) -> str:
    t = device.type
    if t & cl.device_type.GPU:
        return "gpu"
    if t & cl.device_type.CPU:
        return "cpu"
    if t & cl.device_type.ACCELERATOR:
        return "accelerator"
    return ""


def discover() -> list[DeviceInfo]:
    """Every OpenCL device (``opencl:0``, ``opencl:1``, ...), or why there is none. Never raises."""
    try:
        cl = cl_module()
    except ImportError as exc:
        return [DeviceInfo("opencl", "opencl", "", available=False,
                           reason=f"pyopencl is not installed ({exc}); "
                                  "pip install 'gpuoff[opencl]'")]  # fmt: skip
    try:
        pairs = _all_devices()
    except Exception as exc:  # noqa: BLE001 - no ICD loader / no platform is not an error
        return [DeviceInfo("opencl", "opencl", "", available=False,
                           reason=f"no OpenCL platform found ({exc})")]  # fmt: skip
    if not pairs:
        return [DeviceInfo("opencl", "opencl", "", available=False,
                           reason="OpenCL platforms found, but no devices")]  # fmt: skip
    out = []
    for i, (p, d) in enumerate(pairs):
        fp64 = "fp64" if "cl_khr_fp64" in d.extensions else "no fp64"
        desc = (f"{d.name.strip()} ({p.name.strip()}, {d.version.strip()}, driver "
                f"{d.driver_version.strip()}, {d.max_compute_units} compute units, "
                f"{fp64})")  # fmt: skip
        failure = opencl_icd.build_failure(cl, p, d)
        out.append(DeviceInfo(f"opencl:{i}", "opencl", desc, available=not failure,
                              reason=failure, kind=_kind(cl, d)))  # fmt: skip
    return out


def find_device(name: str) -> tuple[Any, Any]:
    """The (platform, device) pair of ``opencl:N`` (``DeviceError`` if there is none, or if it
    cannot build programs)."""
    backend, _, index = name.partition(":")
    if backend != "opencl" or not index.isdigit():
        raise DeviceError(f"not an OpenCL device name: {name!r} (expected 'opencl:N')")
    try:
        pairs = _all_devices()
    except ImportError as exc:
        raise DeviceError(f"{name} is unavailable: pyopencl is not installed ({exc})") from exc
    except Exception as exc:  # noqa: BLE001
        raise DeviceError(f"{name} is unavailable: no OpenCL platform ({exc})") from exc
    i = int(index)
    if i >= len(pairs):
        raise DeviceError(f"no device {name}: {len(pairs)} OpenCL device(s) found")
    platform, device = pairs[i]
    failure = opencl_icd.build_failure(cl_module(), platform, device)
    if failure:
        raise DeviceError(f"{name} ({device.name.strip()}, {platform.name.strip()}) is "
                          f"unavailable: {failure}")  # fmt: skip
    return platform, device


def unified(device: Any) -> bool:
    """Whether the device's memory is the host's (CPU devices, integrated GPUs): then a
    ``USE_HOST_PTR`` buffer is the host array itself and finished kernels' writes are visible
    in it. (OpenCL 1.2 only promises that after a map; on unified memory it holds, and
    ``GPUOFF_OPENCL_COPY_RECORDS=1`` forces the portable read-back.)"""
    if os.environ.get("GPUOFF_OPENCL_COPY_RECORDS", "") not in ("", "0"):
        return False
    try:
        return bool(device.host_unified_memory)
    except Exception:  # noqa: BLE001 - deprecated query: absent on some OpenCL 2+/3 drivers
        return False
