"""The CUDA driver through cuda-python: loading and initialising it, translating its error
codes, and listing its devices (``discover``). Everything here works against any object with
the driver's function names, so the unit tests drive it with a fake."""

from __future__ import annotations

from typing import Any

from gpuoff.errors import DeviceError
from gpuoff.runtime.devices.base import DeviceInfo

NO_DRIVER = "no NVIDIA driver found"
NO_BINDINGS = "cuda-python is not installed (pip install 'gpuoff[cuda]')"
NO_DEVICE = "no CUDA device found"
_SUPPORTED_SM = (50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90)


class Unavailable(Exception):
    """The CUDA driver cannot be used here; ``str(self)`` is the reason for ``go.devices()``."""


def load_driver(driver: Any = None) -> Any:
    """Import (unless given) and initialise the driver module; ``Unavailable`` if impossible."""
    if driver is None:
        try:
            from cuda.bindings import driver as imported
        except ImportError as e:
            raise Unavailable(NO_BINDINGS) from e
        driver = imported
    try:
        result = driver.cuInit(0)
    except Exception as e:  # noqa: BLE001 - cuda-python raises its own loader errors here
        raise Unavailable(NO_DRIVER) from e
    code = int(result[0])
    if code == 100:  # CUDA_ERROR_NO_DEVICE
        raise Unavailable(NO_DEVICE)
    if code != 0:
        raise Unavailable(
            f"the NVIDIA driver failed to initialise: {error_text(driver, result[0])}"
        )
    return driver


def error_text(driver: Any, err: Any) -> str:
    """``CUDA_ERROR_X (description)`` for a ``CUresult``, robust to a broken driver."""
    try:
        name = driver.cuGetErrorName(err)[1]
        desc = driver.cuGetErrorString(err)[1]
        name = name.decode() if isinstance(name, bytes) else str(name)
        desc = desc.decode() if isinstance(desc, bytes) else str(desc)
        return f"{name} ({desc})"
    except Exception:  # noqa: BLE001 - only used to format another error
        return f"CUresult {int(err)}"


def check(driver: Any, result: Any, what: str, device: str = "cuda") -> Any:
    """Unpack a cuda-python ``(err, *values)`` tuple; raise ``DeviceError`` on failure."""
    err = result[0] if isinstance(result, tuple) else result
    if int(err) != 0:
        raise DeviceError(f"{device}: {what} failed: {error_text(driver, err)}")
    if not isinstance(result, tuple) or len(result) == 1:
        return None
    return result[1] if len(result) == 2 else result[1:]


def discover(driver: Any = None) -> list[DeviceInfo]:
    """Every CUDA device, or one unavailable ``cuda`` entry saying why there is none."""
    try:
        drv = load_driver(driver)
        count = check(drv, drv.cuDeviceGetCount(), "cuDeviceGetCount")
        if not count:
            raise Unavailable(NO_DEVICE)
        version = check(drv, drv.cuDriverGetVersion(), "cuDriverGetVersion")
        return [_describe(drv, i, version) for i in range(count)]
    except (Unavailable, DeviceError) as e:
        return [DeviceInfo("cuda", "cuda", "NVIDIA CUDA", available=False, reason=str(e))]


def _describe(drv: Any, ordinal: int, version: int) -> DeviceInfo:
    dev = check(drv, drv.cuDeviceGet(ordinal), "cuDeviceGet")
    name = check(drv, drv.cuDeviceGetName(256, dev), "cuDeviceGetName")
    name = name.split(b"\0", 1)[0].decode() if isinstance(name, bytes) else str(name)
    major, minor = capability(drv, dev)
    attr = drv.CUdevice_attribute
    sms = check(
        drv,
        drv.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev),
        "cuDeviceGetAttribute",
    )
    mem = check(drv, drv.cuDeviceTotalMem(dev), "cuDeviceTotalMem")
    desc = (
        f"{name}, sm_{major}{minor}, {sms} SMs, {mem / 2**30:.0f} GiB, "
        f"driver {version // 1000}.{version % 1000 // 10}"
    )
    return DeviceInfo(f"cuda:{ordinal}", "cuda", desc, kind="gpu")


def capability(drv: Any, dev: Any) -> tuple[int, int]:
    attr = drv.CUdevice_attribute
    major = check(
        drv,
        drv.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev),
        "cuDeviceGetAttribute",
    )
    minor = check(
        drv,
        drv.cuDeviceGetAttribute(attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev),
        "cuDeviceGetAttribute",
    )
    return int(major), int(minor)


def ptx_target(major: int, minor: int) -> int:
    """The ``sm_XX`` to generate PTX for: the device's own if LLVM knows it, else the newest
    older one (PTX is JIT-compiled forward by the driver)."""
    cc = major * 10 + minor
    older = [sm for sm in _SUPPORTED_SM if sm <= cc]
    if not older:
        raise DeviceError(f"cuda: compute capability {major}.{minor} is too old (need 5.0+)")
    return older[-1]
