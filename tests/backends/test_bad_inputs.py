"""The bad-input suite of issue 20, on every available device: what a new user passes by
mistake (wrong dtypes and dimensions, scalars out of range, arrays NumPy can make but a
kernel cannot take as they are, grids and blocks out of range). Each case either runs
correctly or raises a ``go.GpuoffError`` subclass (also the builtin a user would catch),
whose message names the parameter or the limit and carries no gpuoff-internal path; and a
launch that fails leaves every argument as it was.

The cases that need a process of their own (a crash would take pytest with it: allocations
beyond the machine, a damaged disk cache) are in ``test_bad_inputs_process.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, f32, i32, u8

PACKAGE = go.__file__.rsplit("/", 2)[0] + "/gpuoff/"


@go.kernel
def add1(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0] and i < x.shape[0]:
        y[i] = x[i] + 1.0


@go.kernel
def add1_2d(x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    r = go.global_id(0)
    c = go.global_id(1)
    if r < y.shape[0] and c < y.shape[1]:
        y[r, c] = x[r, c] + 1.0


@go.kernel
def scalars(a: u8, b: i32, c: f32, y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = go.f32(a) + go.f32(b) + c


def _fails(
    error: type[BaseException], match: str, launch: Callable[[], Any], *untouched: Any
) -> go.GpuoffError:
    """``launch()`` raises ``error`` (a GpuoffError) matching ``match``; ``untouched`` are
    (buffer or array, contents before) pairs that must be unchanged."""
    before = [(a, np.array(a.numpy() if isinstance(a, go.Buffer) else a)) for a in untouched]
    with pytest.raises(error, match=match) as info:
        launch()
        go.synchronize()
    exc = info.value
    assert isinstance(exc, go.GpuoffError), type(exc)
    assert PACKAGE not in str(exc), str(exc)  # no gpuoff-internal path in the message
    for a, old in before:
        now = a.numpy() if isinstance(a, go.Buffer) else a
        np.testing.assert_array_equal(now, old)
    return exc


# -- dtypes and dimensions -------------------------------------------------------------------


def test_wrong_dtype(device: str) -> None:
    y = go.full(4, 5.0)
    _fails(go.LaunchTypeError, r"'x' expects Borrow\[Array\[f32\]\], got .*float64",
           lambda: add1[4](np.zeros(4), y), y)  # fmt: skip
    _fails(go.LaunchTypeError, r"'y' expects BorrowMut\[Array\[f32\]\], got .*int32",
           lambda: add1[4](go.zeros(4), go.zeros(4, go.i32)), y)  # type: ignore[arg-type]  # fmt: skip


def test_object_and_complex_arrays(device: str) -> None:
    y = go.full(4, 5.0)
    _fails(go.LaunchTypeError, r"'x' expects .*object", lambda: add1[4](np.array([None] * 4), y),
           y)  # fmt: skip
    _fails(go.LaunchTypeError, r"'x' .*complex", lambda: add1[4](np.zeros(4, complex), y), y)
    for bad in (np.array([object()] * 3), np.zeros(3, "M8[s]"), np.zeros(3, "U3")):
        with pytest.raises(go.GpuoffError, match=r"dtype .* is not supported") as info:
            go.array(bad)
        assert isinstance(info.value, TypeError)
    with pytest.raises(TypeError, match="not supported") as info2:
        go.zeros(3, "U3")
    assert isinstance(info2.value, go.GpuoffError)


def test_wrong_number_of_dimensions_names_what_the_parameter_expects(device: str) -> None:
    y = go.full(4, 5.0)
    exc = _fails(
        go.LaunchTypeError,
        r"add1\(\): parameter 'x' expects a 1-d Borrow\[Array\[f32\]\] .*got a NumPy array "
        r"of float32 \(2-d\)",
        lambda: add1[4](np.zeros((2, 2), np.float32), y), y,
    )  # fmt: skip
    assert "y[i] = x[i] + 1.0" in str(exc)  # where the kernel indexes it
    _fails(go.LaunchTypeError,
           r"parameter 'y' expects an at least 2-d BorrowMut\[Array\[f32\]\].*\(1-d\)",
           lambda: add1_2d[2, 2](go.zeros((2, 2)), go.zeros(4)), y)  # fmt: skip


def test_zero_dimensional_arrays(device: str) -> None:
    y = go.full(4, 5.0)
    _fails(go.LaunchTypeError, r"'x' expects an at least 1-d .*\(0-d\)",
           lambda: add1[4](np.zeros((), np.float32), y), y)  # fmt: skip
    a: Any = np.array(3, np.uint8)
    b: Any = np.array(2, np.int32)
    c: Any = np.array(0.5, np.float32)
    scalars[4](a, b, c, y)
    assert y.numpy().tolist() == [5.5] * 4  # a 0-d array for a scalar parameter is its value


# -- scalars -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("index", "value", "match"),
    [
        (0, 300, r"'a' expects u8, got int 300 \(out of range \[0, 255\]\)"),
        (0, -1, r"'a' expects u8.*out of range"),
        (1, 2**40, r"'b' expects i32.*out of range"),
        (1, np.int64(2**40), r"'b' expects i32.*out of range"),
        (1, float("nan"), r"'b' expects i32, got float nan \(a float for an integer"),
        (1, float("inf"), r"'b' expects i32"),
        (1, np.float32(2.0), r"'b' expects i32.*float"),
        (2, 1e39, r"'c' expects f32.*out of range for f32"),
        (2, 1j, r"'c' expects f32"),
        (2, "1", r"'c' expects f32, got a str"),
        (2, None, r"'c' expects f32"),
        (0, True, r"'a' expects u8, got bool"),
    ],
)
def test_scalars_out_of_range(device: str, index: int, value: Any, match: str) -> None:
    y = go.full(4, 5.0)
    args: list[Any] = [1, 2, 0.5, y]
    args[index] = value
    _fails(go.LaunchTypeError, match, lambda: scalars[4](*args), y)


def test_float_specials_for_a_float_parameter_run(device: str) -> None:
    y = go.zeros(2)
    scalars[2](0, 0, float("inf"), y)
    assert y.numpy().tolist() == [float("inf")] * 2
    scalars[2](0, 0, float("nan"), y)
    assert np.isnan(y.numpy()).all()


# -- arrays NumPy makes that are not contiguous, aligned, writeable or native -------------------


def test_non_contiguous_negative_stride_and_fortran_arrays_run(device: str) -> None:
    x = np.arange(16, dtype=np.float32)
    y = np.zeros(16, np.float32)
    add1[8](x[::2], y[1::2])  # every other element in, every other out
    assert y.tolist() == [v for k in range(8) for v in (0.0, 2.0 * k + 1.0)]
    z = np.zeros(8, np.float32)
    add1[8](x[7::-1], z)  # a negative stride
    assert z.tolist() == [8.0 - k for k in range(8)]
    f = np.asfortranarray(np.arange(12, dtype=np.float32).reshape(3, 4))
    g = np.asfortranarray(np.zeros((3, 4), np.float32))
    add1_2d[3, 4](f, g)
    np.testing.assert_array_equal(g, f + 1)
    assert g.flags.f_contiguous  # written back into the caller's array


def test_overlapping_strided_numpy_arguments_are_a_borrow_error(device: str) -> None:
    # Copied for the launch (not contiguous), the two arguments got separate copies and the
    # aliasing rule (SPEC §3) was checked on the copies: the launch ran where the same two
    # views, contiguous, are refused. Interleaved views that share no element still run.
    a = np.arange(16, dtype=np.float32)
    _fails(go.BorrowError, r"'x' is passed as Borrow and also as 'y' \(BorrowMut\)",
           lambda: add1[7](a[:14:2], a[2::2]), a)  # fmt: skip
    fortran = np.asfortranarray(np.arange(12, dtype=np.float32).reshape(3, 4))
    _fails(go.BorrowError, "must not alias",
           lambda: add1_2d[3, 4](fortran, fortran.T.T), fortran)  # fmt: skip
    exported = go.array(np.arange(16, dtype=np.float32))
    _fails(go.BorrowError, "must not alias",
           lambda: add1[8](np.from_dlpack(exported)[::2], exported[::2]), exported)  # fmt: skip
    add1[8](a[::2], a[1::2])
    assert a[1::2].tolist() == [2.0 * k + 1.0 for k in range(8)]


def test_read_only_arrays(device: str) -> None:
    ro = np.arange(4, dtype=np.float32)
    ro.flags.writeable = False
    y = go.full(4, 5.0)
    add1[4](ro, y)  # reading a read-only array is fine
    assert y.numpy().tolist() == [1.0, 2.0, 3.0, 4.0]
    _fails(go.LaunchTypeError, r"'y' expects BorrowMut.*read-only",
           lambda: add1[4](go.zeros(4), ro), y)  # fmt: skip
    assert ro.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_unaligned_arrays_run(device: str) -> None:
    raw = np.zeros(4 * 5 + 1, np.uint8)
    x = raw[1:].view(np.float32)  # float32 at an odd address
    assert not x.flags.aligned
    x[:] = [1, 2, 3, 4, 5]
    out = raw.copy()[1:].view(np.float32)
    out[:] = 0
    add1[5](x, out)
    assert out.tolist() == [2.0, 3.0, 4.0, 5.0, 6.0]


def test_big_endian_arrays_are_converted(device: str) -> None:
    native = go.array(np.arange(4, dtype=np.float32))
    y = go.zeros(4)
    add1[4](native, y)  # the plan for native f32 exists: a big-endian buffer must not hit it
    big = go.array(np.arange(4, dtype=">f4"))
    assert big.dtype == np.dtype(np.float32) and big.dtype.isnative
    add1[4](big, y)
    assert y.numpy().tolist() == [1.0, 2.0, 3.0, 4.0]
    assert go.asarray(np.arange(4, dtype=">f4")).dtype.isnative
    be = np.arange(4, dtype=">f4")
    out = np.zeros(4, dtype=">f4")
    add1[4](be, out)  # NumPy arguments: converted in, and back
    assert out.dtype.str == ">f4" and out.tolist() == [1.0, 2.0, 3.0, 4.0]


def test_zero_size_arrays_and_grids_run(device: str) -> None:
    add1[0](np.zeros(0, np.float32), np.zeros(0, np.float32))
    y = go.full(3, 5.0)
    add1[0](go.zeros(3), y)
    add1[3](np.zeros(0, np.float32), y)  # guarded by x.shape[0]: touches nothing
    assert y.numpy().tolist() == [5.0] * 3
    add1_2d[0, 4](go.zeros((0, 4)), go.zeros((0, 4)))


# -- grids and blocks --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "match"),
    [
        (-1, "must not be negative"),
        ((4, -2), "must not be negative"),
        (2**63, r"grid .* at most 2\*\*63 - 1"),
        (2**64, r"grid .* at most 2\*\*63 - 1"),
        ((2**40, 2**40), r"grid .* 2\*\*63 - 1 work-items"),
        (2**63 - 1, r"2\*\*63 - 1"),  # rounded up to whole groups it no longer fits
        (4.0, "an int or a tuple"),
        (True, "an int or a tuple"),
        ((np.float32(4),), "an int or a tuple"),
        ((10, (4,)), "multiple of the block"),
        ((8, (0,)), "positive"),
    ],
)
def test_bad_grids(device: str, config: Any, match: str) -> None:
    y = go.full(4, 5.0)
    add1[4](go.zeros(4), y)  # the launch cache must not make k[4.0] or k[True] mean k[4]
    y = go.full(4, 5.0)
    _fails(go.GpuoffError, match, lambda: add1[config](go.zeros(4), y), y)


def test_a_block_larger_than_the_device_allows_names_the_limit(device: str) -> None:
    from gpuoff.runtime.devices import get_device

    limit = get_device(device).limits().max_block_items
    y = go.full(4, 5.0)
    n = 2 * limit
    exc = _fails(go.LaunchConfigError, rf"{n} work-items.* at most {limit}",
                 lambda: add1[(n,), (n,)](go.zeros(4), y), y)  # fmt: skip
    assert device in str(exc)
    add1[(limit,), (limit,)](go.zeros(4), y)  # the limit itself runs
    assert y.numpy().tolist() == [1.0] * 4


# -- shared memory beyond the device -----------------------------------------------------------


@go.kernel
def huge_shared(x: BorrowMut[Array[f32]]) -> None:
    tile = go.shared(2097152, go.f32)  # 8 MiB: more than any device offers per work-group
    i = go.local_id(0)
    tile[i] = x[go.global_id(0)]
    go.barrier()
    x[go.global_id(0)] = tile[63 - i]


@go.kernel
def fits_shared(x: BorrowMut[Array[f32]]) -> None:
    tile = go.shared(8192, go.f32)  # 32 KiB: every device has that
    i = go.local_id(0)
    tile[i] = x[go.global_id(0)]
    go.barrier()
    x[go.global_id(0)] = tile[63 - i]


def test_shared_memory_beyond_the_device_is_a_compile_error(device: str) -> None:
    from gpuoff.runtime.devices import get_device

    limit = get_device(device).limits().shared_bytes
    x = go.array(np.arange(64, dtype=np.float32))
    exc = _fails(go.CompileError, r"kernel 'huge_shared': shared array 'tile' takes 8 MiB; "
                 rf"{device} offers .* of shared \(local\) memory per work-group",
                 lambda: huge_shared[(64,), (64,)](x), x)  # fmt: skip
    assert "tile = go.shared(2097152, go.f32)" in str(exc) and "^" in str(exc)
    assert limit < 8 << 20
    fits_shared[(64,), (64,)](x)
    assert x.numpy().tolist() == list(range(63, -1, -1))


# -- buffers made and indexed on the host ------------------------------------------------------
# Each was NumPy's own error from inside a constructor or accessor (not a GpuoffError): a
# TypeError "'float' object is not iterable", "Maximum allowed dimension exceeded", an
# OverflowError, a bare IndexError.

FLOAT: Any = 4.0  # untyped, as from user data: mypy refuses them in a typed call
TEXT: Any = "3"


@pytest.mark.parametrize(
    ("make", "error", "builtin", "match"),
    [
        (lambda: go.zeros(FLOAT), go.GpuoffError, ValueError, r"a shape is an int or a tuple"),
        (lambda: go.empty((2, TEXT)), go.GpuoffError, ValueError, r"a shape is an int or"),
        (lambda: go.zeros(-1), go.GpuoffError, ValueError, r"negative dimension"),
        (lambda: go.zeros(2**62), go.OutOfMemoryError, MemoryError, r"beyond the address"),
        # NumPy's int64 product of this shape wraps to 0: it allocated nothing, then failed
        (lambda: go.zeros((2**32, 2**32)), go.OutOfMemoryError, MemoryError, r"73786976294838"),
        (lambda: go.array([[1.0], [2.0, 3.0]]), go.GpuoffError, ValueError, r"inhomogeneous"),
        (lambda: go.full(4, "x"), go.DTypeError, TypeError, r"fill value 'x' .* float32"),
        (lambda: go.full(4, 300, go.u8), go.DTypeError, TypeError, r"300 .* uint8"),
        (lambda: go.full(4, [1.0, 2.0]), go.DTypeError, TypeError, r"not a scalar"),
    ],
)
def test_bad_constructor_values(
    device: str, make: Callable[[], Any], error: type, builtin: type, match: str
) -> None:
    with pytest.raises(error, match=match) as info:
        make()
    assert isinstance(info.value, go.GpuoffError) and isinstance(info.value, builtin)


def test_bad_host_indexing_leaves_the_buffer_as_it_was(device: str) -> None:
    y = go.array(np.arange(4, dtype=np.float32))
    add1[4](go.zeros(4), y)  # valid on the device now (on a device with its own memory)
    before = y.numpy()
    cases: list[tuple[Callable[[], Any], type, type, str]] = [
        (lambda: y[10], go.BoundsError, IndexError, r"index 10 .* size 4 .* shape \(4,\)"),
        (lambda: y.__setitem__(-5, 1.0), go.BoundsError, IndexError, r"index -5"),
        (lambda: y[1.5], go.GpuoffError, IndexError, r"valid indices"),
        (lambda: y.__setitem__(1, "x"), go.DTypeError, TypeError, r"value 'x' .* float32"),
        (lambda: y.__setitem__(slice(0, 2), [1.0, 2, 3]), go.GpuoffError, ValueError, r"\(3,\)"),
    ]
    for act, error, builtin, match in cases:
        with pytest.raises(error, match=match) as info:
            act()
        assert isinstance(info.value, go.GpuoffError) and isinstance(info.value, builtin)
        np.testing.assert_array_equal(y.numpy(), before)
    y[3] = 7.5  # good ones still work
    assert y.numpy().tolist() == [1.0, 1.0, 1.0, 7.5]
