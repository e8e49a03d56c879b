"""What the sorting and counting functions need of a buffer beyond ``_common``: a 1-d view
of its elements, the same bytes read as another dtype of the same size, the kind of the
current device (the kernels pick their variant by it), and the error for input values a
function refuses.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import gpuoff as go
from gpuoff.errors import GpuoffError
from gpuoff.runtime.buffer import Buffer
from gpuoff.runtime.devices import current_device


class InputValueError(GpuoffError, ValueError):
    """An input whose values a library function does not take (``gl.bincount`` of a negative
    number): NumPy raises ``ValueError`` there, and so does this."""


def flat(buf: go.Buffer[Any]) -> go.Buffer[Any]:
    """The elements of ``buf`` in C order as a 1-d buffer: a view of the same memory when
    ``buf`` is contiguous (nothing is copied, nothing waits), else a contiguous copy
    (``Buffer.copy`` waits for the launches writing ``buf``)."""
    if buf.ndim == 1:
        return buf
    if not contiguous(buf):
        buf = buf.copy()
    return _view(buf, (buf.size,), buf.dtype)


def reinterpret(buf: go.Buffer[Any], dtype: np.dtype[Any]) -> go.Buffer[Any]:
    """The bytes of the contiguous 1-d ``buf`` read as ``dtype`` (of the same item size):
    a float's bits as an unsigned integer, as ``ndarray.view`` does. Launches that write one
    are ordered with reads of the other (they share the storage and its byte ranges)."""
    assert buf.ndim == 1 and buf.dtype.itemsize == dtype.itemsize and contiguous(buf)
    return _view(buf, buf.shape, dtype)


def reshaped(buf: go.Buffer[Any], shape: tuple[int, ...]) -> go.Buffer[Any]:
    """The contiguous ``buf``'s elements as an array of ``shape`` (the same count), no copy."""
    assert contiguous(buf) and int(np.prod(shape, dtype=np.int64)) == buf.size
    return _view(buf, shape, buf.dtype)


def contiguous(buf: go.Buffer[Any]) -> bool:
    """Whether ``buf``'s elements lie in C order without gaps."""
    expect = buf.dtype.itemsize
    for n, s in zip(reversed(buf.shape), reversed(buf.strides), strict=True):
        if n > 1 and s != expect:
            return False
        expect *= max(n, 1)
    return True


def _view(buf: go.Buffer[Any], shape: tuple[int, ...], dtype: np.dtype[Any]) -> go.Buffer[Any]:
    # A new handle on the same storage at the same byte offset: what buf[...] makes, with a
    # shape and dtype basic indexing cannot give. The storage's guards see both handles.
    strides = []
    acc = 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= max(n, 1)
    out: go.Buffer[Any] = Buffer(buf._st, buf._off, shape, tuple(reversed(strides)), dtype)
    return out


def device_kind() -> str:
    """``"cpu"`` when the current device runs on the host's cores (the ``cpu`` backend, or an
    OpenCL CPU device such as PoCL's), else ``"gpu"``: the library's kernels come in a
    variant for each (work-items owning chunks on a CPU, work-groups sharing memory on a
    GPU)."""
    dev = current_device()
    if dev.name == "cpu":
        return "cpu"
    cl_device = getattr(dev, "cl_device", None)
    if cl_device is not None:
        import pyopencl as cl

        return "cpu" if int(cl_device.type) & int(cl.device_type.CPU) else "gpu"
    return "gpu"
