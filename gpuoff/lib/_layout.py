"""Views the dense family needs that ``Buffer.__getitem__`` cannot make: a reshape of a
contiguous buffer, a transpose, unit and broadcast (stride-0) dimensions.

Each is a new ``go.Buffer`` handle over the same storage (no copy, no synchronisation), so a
kernel reads it through its strides and the runtime's hazard tracking sees the same bytes.
"""

from __future__ import annotations

from typing import Any

from gpuoff.runtime.buffer import Buffer


def strided(
    buf: Buffer[Any], shape: tuple[int, ...], strides: tuple[int, ...]
) -> Buffer[Any]:
    """A view of ``buf``'s first element with ``shape`` and ``strides`` (in elements)."""
    return Buffer(buf._st, buf._off, shape, strides, buf.dtype)


def elem_strides(buf: Buffer[Any]) -> tuple[int, ...]:
    """``buf``'s strides in elements."""
    return tuple(buf._strides)


def reshaped(buf: Buffer[Any], shape: tuple[int, ...]) -> Buffer[Any] | None:
    """``buf`` viewed with ``shape`` (same size), or None when its strides do not allow it
    without a copy (NumPy's rule: merged dimensions must be contiguous with each other)."""
    strides = _reshape_strides(buf.shape, elem_strides(buf), shape)
    return None if strides is None else strided(buf, shape, strides)


def _reshape_strides(
    old: tuple[int, ...], old_strides: tuple[int, ...], new: tuple[int, ...]
) -> tuple[int, ...] | None:
    """Strides for ``new`` over an array of shape ``old`` and ``old_strides``, or None when
    some merged run of dimensions is not contiguous (sizes 1 are free)."""
    size = 1
    for n in new:
        size *= n
    if size == 0:
        return _c(new)
    dims = [(n, s) for n, s in zip(old, old_strides, strict=True) if n != 1]
    out: list[int] = []
    i = 0
    for n in new:
        if n == 1:
            out.append(0)
            continue
        # take old dimensions until their product is n; they must be contiguous in memory
        prod, stride = 1, 0
        while prod < n and i < len(dims):
            d, s = dims[i]
            if prod > 1 and dims[i - 1][1] != d * s:
                return None
            prod *= d
            stride = s
            i += 1
        if prod != n:
            return None
        out.append(stride)
    return tuple(out)


def _c(shape: tuple[int, ...]) -> tuple[int, ...]:
    out: list[int] = []
    acc = 1
    for n in reversed(shape):
        out.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(out))


def on_cpu_like_device() -> bool:
    """Whether the current device runs work-groups on CPU cores (gpuoff's cpu, an OpenCL CPU
    device such as PoCL's): small groups there, wide vectors inside one item; GPU-sized groups
    elsewhere."""
    from gpuoff.runtime.devices import current_device, devices

    dev = current_device()
    if dev.backend == "cpu":
        return True
    kind = next((i.kind for i in devices() if i.name == dev.name), "")
    return kind == "cpu"
