"""Arrays of other libraries (PyTorch, JAX, CuPy, anything with ``__dlpack__``,
``__array_interface__`` or ``__cuda_array_interface__``) as NumPy arrays over their memory.

A launch argument or ``go.asarray`` / ``go.from_dlpack`` of such an object goes through
``host_array``: host memory becomes an ndarray sharing it (no copy: ``np.from_dlpack`` keeps
the producer alive through its capsule; a read-only export, such as every JAX array's, stays
read-only), and from there it is treated exactly as a NumPy array (SPEC §4, docs/memory.md):
``Borrow`` reads it in place on ``cpu``, ``BorrowMut`` writes it in place and the launch has
finished when it returns, ``Owned`` is refused, since gpuoff cannot take memory away from the
library that owns it. Memory on a CUDA device is refused with a message saying how to bring
it to the host: gpuoff does not import foreign device memory yet (docs/interop.md).

Probing costs a few attribute lookups and runs only for arguments that are neither a
``go.Buffer``, a NumPy array nor a Python or NumPy scalar.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from gpuoff.errors import GpuoffError

_PROTOCOLS = ("__dlpack__", "__array_interface__", "__cuda_array_interface__")
_HOST_DEVICES = {1, 3}
"""DLPack device types whose memory the host reads and writes: kDLCPU, kDLCUDAHost (pinned)."""
_DEVICE_NAMES = {2: "CUDA", 4: "OpenCL", 7: "Vulkan", 8: "Metal", 10: "ROCm", 13: "CUDA managed"}


class ForeignArrayError(GpuoffError, TypeError):
    """An object of another library that gpuoff cannot use as an array (memory on a device
    gpuoff does not import, a dtype NumPy has no type for, a tensor that needs ``detach()``).
    ``reason`` is the message without the object's description (launch errors quote it)."""

    def __init__(self, what: str, reason: str) -> None:
        super().__init__(f"{what} {reason}")
        self.reason = reason


def is_foreign(value: object) -> bool:
    """Whether ``value`` offers an array protocol (and is not a NumPy scalar, which does).
    Instance attributes count: older producers set ``__array_interface__`` per object."""
    if isinstance(value, np.generic | np.ndarray):
        return False
    return any(hasattr(value, name) for name in _PROTOCOLS)


def library(value: object) -> str:
    """What the user calls the object's type: ``torch.Tensor``, ``JAX array``, ``CuPy array``."""
    cls = type(value)
    root = cls.__module__.partition(".")[0]
    if root in ("jax", "jaxlib"):
        return "JAX array"
    if root == "cupy":
        return "CuPy array"
    if root == "torch":
        return f"torch.{cls.__qualname__}"
    return f"{cls.__module__}.{cls.__qualname__}" if root != "builtins" else cls.__qualname__


def describe(value: object) -> str:
    """``a torch.Tensor of torch.float32 (2-d)``, for error messages."""
    dtype, shape = getattr(value, "dtype", None), getattr(value, "shape", None)
    try:
        ndim = len(shape)  # type: ignore[arg-type]
    except TypeError:
        return f"a {library(value)}"
    return f"a {library(value)} of {dtype} ({ndim}-d)"


def _device_of(value: Any) -> tuple[int, int] | None:
    """``(DLPack device type, index)`` of the object's memory, or None when it does not say.
    ``__cuda_array_interface__`` is a property that refuses (AttributeError) for host memory
    in PyTorch and CuPy, so its presence means device memory."""
    probe = getattr(value, "__dlpack_device__", None)
    if probe is not None:
        kind, index = probe()
        return int(kind), int(index)
    # (probed last: PyTorch's property raises for host tensors, which costs ~10 us)
    if hasattr(value, "__cuda_array_interface__") and not hasattr(value, "__array_interface__"):
        return (2, _cuda_index(value))
    return None


def _cuda_index(value: Any) -> int:
    device = getattr(value, "device", None)
    index = getattr(device, "index", None) or getattr(device, "id", None)
    return int(index) if isinstance(index, int) else 0


def refuse_device_memory(value: Any) -> None:
    """``ForeignArrayError`` when ``value``'s memory is on a device, saying how to bring it to
    the host (gpuoff imports host memory only, for now)."""
    device = _device_of(value)
    if device is not None and device[0] not in _HOST_DEVICES:
        name = _DEVICE_NAMES.get(device[0], f"DLPack device type {device[0]}")
        raise ForeignArrayError(
            describe(value),
            f"lives in {name} memory (device {device[1]}), which gpuoff does not import "
            f"yet: bring it to the host first (tensor.cpu(), cupy.asnumpy(x), jax.device_get(x))",
        )


def host_array(value: Any) -> np.ndarray[Any, Any]:
    """An ndarray over ``value``'s host memory, without a copy; ``ForeignArrayError`` when its
    memory is on a device or NumPy cannot represent it."""
    what = describe(value)
    refuse_device_memory(value)
    if hasattr(value, "__dlpack__"):
        try:
            return np.from_dlpack(value)
        except BufferError as exc:  # torch: "Can't export tensors that require gradient ..."
            raise ForeignArrayError(what, f"cannot be shared: {exc}") from None
        except (RuntimeError, TypeError, ValueError) as exc:
            if not hasattr(value, "__array_interface__"):
                why = f"cannot be shared through DLPack: {exc} (convert it to a gpuoff dtype)"
                raise ForeignArrayError(what, why) from None
    if hasattr(value, "__array_interface__"):
        return np.asarray(value)  # honours the interface's read-only flag
    raise ForeignArrayError(what, "offers no host memory (no __dlpack__ or __array_interface__)")


def read_only_reason(value: object) -> str:
    """Why writing ``value`` is refused: JAX arrays are immutable; others exported read-only."""
    if library(value) == "JAX array":
        return "a JAX array is immutable: write a go.Buffer (go.array(x)) and read it back"
    return f"{library(value)} shares its memory read-only"


def is_masked(value: object) -> bool:
    """Whether ``value`` is a NumPy masked array: its mask would be ignored (gpuoff has no
    masks), so it is refused rather than read as its data. (No masked array exists unless
    ``numpy.ma`` was imported, so the check imports nothing.)"""
    ma = sys.modules.get("numpy.ma")
    return ma is not None and isinstance(value, ma.MaskedArray)


MASKED_HINT = "a masked array: gpuoff would ignore its mask; pass a.filled(value) or a.data"
