"""The shared-memory contract of docs/memory.md with PyTorch as the DLPack producer and
consumer, on every available device (issue 20, item 3: the scenarios as a PyTorch user wrote
them).

PyTorch is not in the ``dev`` extra: from PyPI its Linux wheel brings the CUDA libraries
(gigabytes) into every CI run, and NumPy's own ``__dlpack__`` / ``np.from_dlpack`` exercise
the same code paths (``test_foreign_memory.py``, which always runs). Install the CPU build
(``pip install torch``, here ``torch==2.13.0`` from local disk) to run these too.
"""

from __future__ import annotations

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32

torch = pytest.importorskip("torch")


@go.kernel
def set_value(z: BorrowMut[Array[f32]], v: f32) -> None:
    i = go.global_id(0)
    if i < z.shape[0]:
        z[i] = v


@go.kernel
def add_one(z: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < z.shape[0]:
        z[i] = z[i] + 1.0


@go.kernel
def copy_into(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = x[i]


def test_kernel_write_is_in_the_tensor_after_synchronize(device: str) -> None:
    t = torch.zeros(8, dtype=torch.float32)
    b = go.from_dlpack(t)
    set_value[8](b, 4.0)
    go.synchronize()
    assert t.tolist() == [4.0] * 8  # nothing read the buffer on the host


def test_torch_write_after_a_kernel_write_is_kept(device: str) -> None:
    t = torch.zeros(8, dtype=torch.float32)
    b = go.from_dlpack(t)
    set_value[8](b, 4.0)
    go.synchronize()
    t.fill_(12.0)
    assert b.numpy().tolist() == [12.0] * 8
    add_one[8](b)
    go.synchronize()
    assert t.tolist() == [13.0] * 8


def test_the_next_kernel_sees_a_torch_write(device: str) -> None:
    t = torch.arange(6, dtype=torch.float32)
    b = go.from_dlpack(t)
    out = go.zeros(6)
    copy_into[6](b, out)
    go.synchronize()
    t.mul_(10)
    copy_into[6](b, out)
    assert out.numpy().tolist() == [0.0, 10.0, 20.0, 30.0, 40.0, 50.0]


def test_torch_consumer_of_a_gpuoff_buffer(device: str) -> None:
    b = go.array(np.zeros(5, np.float32))
    add_one[5](b)
    t = torch.from_dlpack(b)
    add_one[5](b)
    go.synchronize()
    assert t.tolist() == [2.0] * 5
    t.add_(5)
    add_one[5](b)
    assert b.numpy().tolist() == [8.0] * 5
    go.synchronize()
    assert t.tolist() == [8.0] * 5


# -- a tensor passed to a kernel directly (SPEC §4: any object with __dlpack__ may be passed) --
# It was a LaunchTypeError ("got a Tensor"); now it is a NumPy argument over the tensor's
# memory: in at the launch, back before the launch returns, strided or not.


def test_a_tensor_passed_directly_is_written_and_read(device: str) -> None:
    t = torch.arange(8, dtype=torch.float32)
    add_one[8](t)
    assert t.tolist() == [float(k + 1) for k in range(8)]  # the launch has returned: done
    t.mul_(2)
    out = go.zeros(8)
    copy_into[8](t, out)
    assert out.numpy().tolist() == [2.0 * (k + 1) for k in range(8)]


def test_a_strided_tensor_passed_directly_gets_the_writes(device: str) -> None:
    t = torch.zeros(4, 6)
    col = t[:, 1]  # a column: strided, copied for the launch and back
    set_value[4](col, 3.0)
    assert t[:, 1].tolist() == [3.0] * 4 and float(t.sum()) == 12.0


def test_tensors_that_cannot_be_viewed_are_launch_type_errors(device: str) -> None:
    with pytest.raises(go.LaunchTypeError, match=r"parameter 'z' .*detach"):
        add_one[4](torch.zeros(4, requires_grad=True))
    with pytest.raises(go.LaunchTypeError, match=r"float64"):
        add_one[4](torch.zeros(4, dtype=torch.float64))


def test_from_dlpack_refuses_memory_it_cannot_share(device: str) -> None:
    # a strided import used to be a private copy: the kernel's writes never reached t
    t = torch.zeros(8)
    with pytest.raises(go.GpuoffError, match="not C-contiguous: go.array") as info:
        go.from_dlpack(t[::2])
    assert isinstance(info.value, BufferError)
    with pytest.raises(go.DTypeError, match="from_dlpack"):
        go.from_dlpack(torch.zeros(4, dtype=torch.bfloat16))
    b = go.array(t[::2])  # the copy, asked for
    set_value[4](b, 1.0)
    assert b.numpy().tolist() == [1.0] * 4 and float(t.sum()) == 0.0
