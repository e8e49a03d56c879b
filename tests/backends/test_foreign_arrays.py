"""Arrays of other libraries passed straight to kernels (issue 18, item 1; SPEC §4): any object
with ``__dlpack__``, ``__array_interface__`` or ``__cuda_array_interface__``, zero-copy when its
memory is host memory and the device is ``cpu``, with ownership as for NumPy arrays.

The scenarios follow what Warp's ``wp.from_torch`` tests and Taichi's ndarray-from-torch
examples do (a tensor in, a kernel writes it, the tensor shows it), in our own words. The
protocol-only producers below always run; JAX is in the ``interop`` extra (so it runs in CI);
PyTorch is not (its PyPI wheel brings gigabytes of CUDA libraries) and runs where installed.
The mypy plugin accepts NumPy, torch, JAX and CuPy arrays by class; the protocol-only
stand-ins here need an ignore.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, Owned, f32
from gpuoff.runtime import buffer as buffer_module
from gpuoff.runtime.foreign import ForeignArrayError


@go.kernel
def saxpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


@go.kernel
def row_sums(m: Borrow[Array[f32]], out: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < out.shape[0]:
        acc = f32(0.0)
        for j in range(m.shape[1]):
            acc += m[i, j]
        out[i] = acc


@go.kernel
def consume(x: Owned[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        x[i] = 0.0


class Interface:
    """A producer offering only ``__array_interface__``, set per instance (as older libraries
    and PIL images do)."""

    def __init__(self, a: np.ndarray[Any, Any]) -> None:
        self.base = a
        self.__array_interface__ = a.__array_interface__


class DLPackOnly:
    """A producer offering only ``__dlpack__`` / ``__dlpack_device__`` (delegating to NumPy)."""

    def __init__(self, a: np.ndarray[Any, Any]) -> None:
        self._a = a

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self._a.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)


class OnCuda:
    """A producer whose memory is on a CUDA device (the way CuPy and Numba describe it)."""

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        return {"shape": (4,), "typestr": "<f4", "data": (0x7F0000000000, False), "version": 3}


class DLPackOnCuda(DLPackOnly):
    def __dlpack_device__(self) -> tuple[int, int]:
        return (2, 1)


@pytest.fixture
def no_copies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail any copy of an argument into a new buffer: what passes under it is zero-copy."""

    def refuse(obj: Any, dtype: object) -> Any:
        raise AssertionError("an argument was copied")

    monkeypatch.setattr(buffer_module, "_copy_of", refuse)


@pytest.mark.parametrize("wrap", [Interface, DLPackOnly])
def test_protocol_producers_are_read_and_written_in_place(device: str, wrap: Any) -> None:
    x = np.arange(6, dtype=np.float32)
    y = np.ones(6, np.float32)
    saxpy[6](2.0, wrap(x), wrap(y))  # returns when finished, like a NumPy argument
    assert y.tolist() == [1.0, 3.0, 5.0, 7.0, 9.0, 11.0]


def test_protocol_producers_on_cpu_are_not_copied(no_copies: None) -> None:
    x = np.arange(4, dtype=np.float32)
    y = np.zeros(4, np.float32)
    with go.on("cpu"):
        saxpy[4](1.0, Interface(x), DLPackOnly(y))  # type: ignore[arg-type]
    assert y.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_read_only_interface_is_borrowed_but_not_written(device: str) -> None:
    x = np.arange(4, dtype=np.float32)
    x.flags.writeable = False
    y = np.zeros(4, np.float32)
    saxpy[4](1.0, Interface(x), y)  # type: ignore[arg-type]
    assert y.tolist() == [0.0, 1.0, 2.0, 3.0]
    with pytest.raises(go.LaunchTypeError, match="parameter 'y'.*read-only"):
        saxpy[4](1.0, y, Interface(x))  # type: ignore[arg-type]


def test_a_read_only_view_aliasing_a_written_argument_is_a_borrow_error(device: str) -> None:
    a = np.zeros(8, np.float32)
    view = a[:4]
    view.flags.writeable = False
    with pytest.raises(go.BorrowError):
        saxpy[4](1.0, Interface(view), a[2:6])  # type: ignore[arg-type]
    assert a.tolist() == [0.0] * 8


def test_foreign_array_cannot_be_moved(device: str) -> None:
    y = np.ones(4, np.float32)
    with pytest.raises(go.LaunchTypeError, match="parameter 'x'.*cannot be moved.*go.array"):
        consume[4](DLPackOnly(y))  # type: ignore[arg-type]
    assert y.tolist() == [1.0] * 4


@pytest.mark.parametrize("producer", [OnCuda, lambda: DLPackOnCuda(np.zeros(4, np.float32))])
def test_device_memory_is_refused_saying_how_to_bring_it_to_the_host(producer: Any) -> None:
    with pytest.raises(go.LaunchTypeError, match="CUDA memory.*host first"):
        saxpy[4](1.0, producer(), np.zeros(4, np.float32))
    with pytest.raises(ForeignArrayError, match="CUDA memory"):
        go.from_dlpack(producer())


def test_a_foreign_array_for_a_scalar_parameter_is_a_type_error() -> None:
    with pytest.raises(go.LaunchTypeError, match="parameter 'a' expects f32.*for a scalar"):
        a = Interface(np.ones(4, np.float32))
        saxpy[4](a, np.ones(4, np.float32), np.ones(4, np.float32))  # type: ignore[arg-type]


# -- PyTorch -----------------------------------------------------------------------------------


def _torch() -> Any:
    return pytest.importorskip("torch")


def test_torch_tensors_are_written_in_place_and_the_tensor_shows_it(device: str) -> None:
    torch = _torch()
    x = torch.arange(8, dtype=torch.float32)
    y = torch.ones(8)
    saxpy[8](2.0, x, y)
    assert y.tolist() == [1.0 + 2.0 * i for i in range(8)]
    y.mul_(0)  # and the next launch sees the tensor's own writes
    saxpy[8](1.0, x, y)
    assert y.tolist() == [float(i) for i in range(8)]


def test_torch_tensors_on_cpu_are_not_copied(no_copies: None) -> None:
    torch = _torch()
    m = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    out = torch.zeros(3)
    with go.on("cpu"):
        row_sums[3](m, out)
    assert out.tolist() == [6.0, 22.0, 38.0]


def test_a_strided_torch_view_is_copied_in_and_back(device: str) -> None:
    torch = _torch()
    base = torch.zeros(8, 2)
    column = base[:, 1]  # stride 2: not contiguous, copied for the launch and written back
    saxpy[8](1.0, torch.ones(8), column)
    assert base[:, 1].tolist() == [1.0] * 8
    assert base[:, 0].tolist() == [0.0] * 8


def test_torch_ownership_rules(device: str) -> None:
    torch = _torch()
    t = torch.zeros(8)
    with pytest.raises(go.BorrowError):
        saxpy[4](1.0, t[0:4], t[2:6])  # two views of one storage, one written
    with pytest.raises(go.LaunchTypeError, match="torch.Tensor.*cannot be moved"):
        consume[8](t)
    with pytest.raises(go.LaunchTypeError, match="require gradient.*detach"):
        saxpy[8](1.0, torch.ones(8, requires_grad=True), t)
    with pytest.raises(go.LaunchTypeError, match="torch.Tensor of torch.float64.*dtype float64"):
        saxpy[8](1.0, torch.ones(8, dtype=torch.float64), t)
    assert t.tolist() == [0.0] * 8


def test_go_asarray_of_a_tensor_shares_its_memory() -> None:
    torch = _torch()
    t = torch.zeros(4)
    b = go.asarray(t)
    saxpy[4](1.0, go.array(np.arange(4, dtype=np.float32)), b)
    go.synchronize()
    assert t.tolist() == [0.0, 1.0, 2.0, 3.0]


# -- JAX ---------------------------------------------------------------------------------------


def _jnp() -> Any:
    return pytest.importorskip("jax.numpy")


def test_jax_arrays_are_borrowed(device: str) -> None:
    jnp = _jnp()
    x = jnp.arange(8, dtype=jnp.float32)
    y = np.ones(8, np.float32)
    saxpy[8](3.0, x, y)
    assert y.tolist() == [1.0 + 3.0 * i for i in range(8)]


def test_jax_arrays_on_cpu_are_not_copied(no_copies: None) -> None:
    jnp = _jnp()
    m = jnp.arange(12, dtype=jnp.float32).reshape(3, 4)
    out = np.zeros(3, np.float32)
    with go.on("cpu"):
        row_sums[3](m, out)
    assert out.tolist() == [6.0, 22.0, 38.0]


def test_jax_arrays_are_immutable(device: str) -> None:
    jnp = _jnp()
    x = jnp.zeros(4, dtype=jnp.float32)
    with pytest.raises(go.LaunchTypeError, match="parameter 'y'.*JAX array is immutable"):
        saxpy[4](1.0, np.ones(4, np.float32), x)
    with pytest.raises(go.LaunchTypeError, match="JAX array.*cannot be moved"):
        consume[4](x)
    assert np.asarray(x).tolist() == [0.0] * 4
    b = go.asarray(x)  # read-only memory: go.asarray copies it
    saxpy[4](1.0, np.ones(4, np.float32), b)
    assert b.numpy().tolist() == [1.0] * 4
    assert np.asarray(x).tolist() == [0.0] * 4
