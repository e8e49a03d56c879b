"""The kernel language as users write it: dtypes, ``Array``, ownership wrappers, intrinsics.

Everything here is a real Python object so that annotations and calls inside kernels can be
resolved by identity (the front end looks names up in the kernel's globals and finds these
objects), and so that mypy and pyright understand kernel bodies.

Ownership wrappers follow the Rust model (SPEC.md §1, research/mypy_plugin.md §4):
``Owned[T] <: BorrowMut[T] <: Borrow[T]``, and ``Array[DT]`` is itself an ``Owned[Array[DT]]``
so that host code passes a plain array wherever any wrapper is declared. ``Borrow`` has no
``__setitem__``: a write through a shared borrow is a type error without any plugin.

Intrinsics and math functions raise if called outside a kernel: they only have meaning on a
device, where the compiler replaces them.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, ClassVar, Generic, ParamSpec, Protocol, TypeVar, overload

import numpy as np

from gpuoff import subset
from gpuoff.errors import DTypeError

# --------------------------------------------------------------------------------------------
# Scalar types
# --------------------------------------------------------------------------------------------


class DType:
    """Marker base of the scalar types. ``name`` is the NumPy dtype name it maps to."""

    name: ClassVar[str]
    np_dtype: ClassVar[np.dtype[Any]]


if TYPE_CHECKING:
    from typing import Self

    class _FloatArith(float):
        """Type-level only: arithmetic on a gpuoff float keeps its type (``f32 * 2 -> f32``).

        At run time the float types subclass ``float`` directly; these signatures only tell
        type checkers what the kernel compiler does (a Python number adapts to the other
        operand, as in NumPy 2).
        """

        def __add__(self, other: float, /) -> Self: ...
        def __radd__(self, other: float, /) -> Self: ...
        def __sub__(self, other: float, /) -> Self: ...
        def __rsub__(self, other: float, /) -> Self: ...
        def __mul__(self, other: float, /) -> Self: ...
        def __rmul__(self, other: float, /) -> Self: ...
        def __truediv__(self, other: float, /) -> Self: ...
        def __rtruediv__(self, other: float, /) -> Self: ...
        def __floordiv__(self, other: float, /) -> Self: ...
        def __rfloordiv__(self, other: float, /) -> Self: ...
        def __mod__(self, other: float, /) -> Self: ...
        def __rmod__(self, other: float, /) -> Self: ...
        def __pow__(self, other: float, mod: None = None, /) -> Self: ...
        def __rpow__(self, other: float, mod: None = None, /) -> Self: ...
        def __neg__(self) -> Self: ...
        def __pos__(self) -> Self: ...
        def __abs__(self) -> Self: ...

    class _IntArith(int):
        """Type-level only: arithmetic on a gpuoff integer keeps its type (``i32 + 1 -> i32``)."""

        def __add__(self, other: int, /) -> Self: ...
        def __radd__(self, other: int, /) -> Self: ...
        def __sub__(self, other: int, /) -> Self: ...
        def __rsub__(self, other: int, /) -> Self: ...
        def __mul__(self, other: int, /) -> Self: ...
        def __rmul__(self, other: int, /) -> Self: ...
        def __floordiv__(self, other: int, /) -> Self: ...
        def __rfloordiv__(self, other: int, /) -> Self: ...
        def __mod__(self, other: int, /) -> Self: ...
        def __rmod__(self, other: int, /) -> Self: ...
        def __and__(self, other: int, /) -> Self: ...
        def __rand__(self, other: int, /) -> Self: ...
        def __or__(self, other: int, /) -> Self: ...
        def __ror__(self, other: int, /) -> Self: ...
        def __xor__(self, other: int, /) -> Self: ...
        def __rxor__(self, other: int, /) -> Self: ...
        def __lshift__(self, other: int, /) -> Self: ...
        def __rshift__(self, other: int, /) -> Self: ...
        def __neg__(self) -> Self: ...
        def __pos__(self) -> Self: ...
        def __abs__(self) -> Self: ...
        def __invert__(self) -> Self: ...

    class _ComplexArith(complex):
        """Type-level only: arithmetic on a gpuoff complex keeps its type
        (``complex64 * 2.0 -> complex64``); ``.real``/``.imag`` are of its component type
        at run time in kernels (f32 for ``complex64``), floats to a type checker."""

        def __add__(self, other: complex, /) -> Self: ...
        def __radd__(self, other: complex, /) -> Self: ...
        def __sub__(self, other: complex, /) -> Self: ...
        def __rsub__(self, other: complex, /) -> Self: ...
        def __mul__(self, other: complex, /) -> Self: ...
        def __rmul__(self, other: complex, /) -> Self: ...
        def __truediv__(self, other: complex, /) -> Self: ...
        def __rtruediv__(self, other: complex, /) -> Self: ...
        def __pow__(self, other: complex, mod: None = None, /) -> Self: ...
        def __neg__(self) -> Self: ...
        def __pos__(self) -> Self: ...
        def conjugate(self) -> Self: ...

else:
    _FloatArith = float
    _IntArith = int
    _ComplexArith = complex


class f16(_FloatArith, DType):
    """16-bit IEEE float (where the device has it)."""

    name = "float16"
    np_dtype = np.dtype(np.float16)

    def __new__(cls, value: float | int = 0.0) -> f16:
        return float.__new__(cls, float(np.float16(value)))


class f32(_FloatArith, DType):
    """32-bit IEEE float."""

    name = "float32"
    np_dtype = np.dtype(np.float32)

    def __new__(cls, value: float | int = 0.0) -> f32:
        return float.__new__(cls, float(np.float32(value)))


class f64(_FloatArith, DType):
    """64-bit IEEE float."""

    name = "float64"
    np_dtype = np.dtype(np.float64)

    def __new__(cls, value: float | int = 0.0) -> f64:
        return float.__new__(cls, float(value))


class complex64(_ComplexArith, DType):
    """Complex number of two 32-bit floats (NumPy's ``complex64``). ``complex64(z)`` converts,
    ``complex64(re, im)`` builds one from its parts."""

    name = "complex64"
    np_dtype = np.dtype(np.complex64)

    def __new__(cls, real: complex | float = 0.0, imag: float = 0.0) -> complex64:
        z = complex(real) + complex(0.0, imag) if imag else complex(real)
        c = np.complex64(z)
        return complex.__new__(cls, float(c.real), float(c.imag))


class complex128(_ComplexArith, DType):
    """Complex number of two 64-bit floats (NumPy's ``complex128``, Python's ``complex``)."""

    name = "complex128"
    np_dtype = np.dtype(np.complex128)

    def __new__(cls, real: complex | float = 0.0, imag: float = 0.0) -> complex128:
        z = complex(real)
        return complex.__new__(cls, z.real, z.imag + imag)


def _wrap_int(value: float | int, bits: int, signed: bool) -> int:
    v = int(value) % (1 << bits)
    if signed and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


class i8(_IntArith, DType):
    """8-bit signed integer (two's complement, wraps like C on the device)."""

    name = "int8"
    np_dtype = np.dtype(np.int8)

    def __new__(cls, value: float | int = 0) -> i8:
        return int.__new__(cls, _wrap_int(value, 8, True))


class i16(_IntArith, DType):
    """16-bit signed integer."""

    name = "int16"
    np_dtype = np.dtype(np.int16)

    def __new__(cls, value: float | int = 0) -> i16:
        return int.__new__(cls, _wrap_int(value, 16, True))


class i32(_IntArith, DType):
    """32-bit signed integer (two's complement, wraps like C on the device)."""

    name = "int32"
    np_dtype = np.dtype(np.int32)

    def __new__(cls, value: float | int = 0) -> i32:
        return int.__new__(cls, _wrap_int(value, 32, True))


class i64(_IntArith, DType):
    """64-bit signed integer."""

    name = "int64"
    np_dtype = np.dtype(np.int64)

    def __new__(cls, value: float | int = 0) -> i64:
        return int.__new__(cls, _wrap_int(value, 64, True))


class u32(_IntArith, DType):
    """32-bit unsigned integer."""

    name = "uint32"
    np_dtype = np.dtype(np.uint32)

    def __new__(cls, value: float | int = 0) -> u32:
        return int.__new__(cls, _wrap_int(value, 32, False))


class u8(_IntArith, DType):
    """8-bit unsigned integer."""

    name = "uint8"
    np_dtype = np.dtype(np.uint8)

    def __new__(cls, value: float | int = 0) -> u8:
        return int.__new__(cls, _wrap_int(value, 8, False))


class u16(_IntArith, DType):
    """16-bit unsigned integer."""

    name = "uint16"
    np_dtype = np.dtype(np.uint16)

    def __new__(cls, value: float | int = 0) -> u16:
        return int.__new__(cls, _wrap_int(value, 16, False))


class u64(_IntArith, DType):
    """64-bit unsigned integer."""

    name = "uint64"
    np_dtype = np.dtype(np.uint64)

    def __new__(cls, value: float | int = 0) -> u64:
        return int.__new__(cls, _wrap_int(value, 64, False))


class boolean(_IntArith, DType):
    """Boolean (``bool`` cannot be subclassed; stored as one byte, like NumPy's ``bool``)."""

    name = "bool"
    np_dtype = np.dtype(np.bool_)

    def __new__(cls, value: float | int | bool = False) -> boolean:
        return int.__new__(cls, 1 if value else 0)


SCALAR_TYPES: tuple[type[DType], ...] = tuple(globals()[name] for name in subset.SCALAR_TYPES)
"""Every scalar type, in a stable order (``gpuoff.subset.SCALAR_TYPES``)."""

DTYPE_BY_NAME: dict[str, type[DType]] = {t.name: t for t in SCALAR_TYPES}
"""NumPy dtype name (``"float32"``) -> gpuoff scalar type."""


def dtype_of(spec: object) -> type[DType]:
    """The gpuoff scalar type for ``go.f32``, ``np.float32``, ``"float32"`` or a NumPy dtype.

    Raises ``go.DTypeError`` (a ``TypeError``) for anything without a gpuoff equivalent.
    Both byte orders of a dtype map to its type (``>f4`` is ``f32``: buffers hold it natively).
    """
    if isinstance(spec, type) and issubclass(spec, DType) and spec is not DType:
        return spec
    try:
        name = np.dtype(spec).name  # type: ignore[call-overload]
    except TypeError:
        raise DTypeError(f"not a dtype: {spec!r}") from None
    found = DTYPE_BY_NAME.get(name)
    if found is None:
        supported = ", ".join(t.__name__ for t in SCALAR_TYPES)
        raise DTypeError(f"dtype {name} is not supported by gpuoff (supported: {supported})")
    return found


# --------------------------------------------------------------------------------------------
# Arrays and ownership wrappers
# --------------------------------------------------------------------------------------------

T = TypeVar("T")
DT = TypeVar("DT", bound=DType)


class VectorRow(Protocol):
    """What a row of an array takes besides its dtype's numbers: a small vector
    (``gpuoff.lang_vec.Vector``, ``a[i] = go.vec3(...)``), told apart by its components."""

    _items: tuple[Any, ...]
Index = int | tuple[int, ...]
ViewIndex = slice | tuple[int | slice, ...]
"""A subscript with a slice: a view of the array (``img[y, :]``, ``a[2:10]``). (``img[y]`` of a
2-d ``img`` is a view in kernels too; type checkers, which do not know the dimensions, read it
as an element: write ``img[y, :]``.)"""


class Borrow(Generic[T]):
    """A shared, read-only borrow (Rust ``&T``): any number may coexist; no writes.

    As a kernel parameter annotation, ``Borrow[Array[f32]]`` says the kernel only reads the
    array. It has no ``__setitem__``, so a write is a type error in the editor and a
    ``CompileError`` at first launch.
    """

    shape: tuple[int, ...]

    @overload
    def __getitem__(  # type: ignore[overload-overlap]  # (an int tuple is no view)
        self: Borrow[Array[DT]], index: Index
    ) -> DT: ...
    @overload
    def __getitem__(self: Borrow[Array[DT]], index: ViewIndex) -> Borrow[Array[DT]]: ...
    def __getitem__(self, index: Index | ViewIndex) -> Any:
        raise _outside_kernel("array indexing on a borrowed parameter")

    if TYPE_CHECKING:
        # Type-level only: no value has this type, so ``x[i] = v`` through a Borrow is an
        # error whose message names the fix. (Without any ``__setitem__`` mypy and pyright
        # also refuse, but the gpuoff mypy plugin could not then give its own message.)
        def __setitem__(
            self: Borrow[Array[DT]], index: Index, value: CannotWriteThroughBorrow
        ) -> None: ...

    def __len__(self) -> int:
        raise _outside_kernel("len() on a borrowed parameter")


class BorrowMut(Borrow[T]):
    """An exclusive, read-write borrow (Rust ``&mut T``): nothing else may use the buffer."""

    @overload
    def __getitem__(  # type: ignore[overload-overlap]  # (an int tuple is no view)
        self: BorrowMut[Array[DT]], index: Index
    ) -> DT: ...
    @overload
    def __getitem__(self: BorrowMut[Array[DT]], index: ViewIndex) -> BorrowMut[Array[DT]]: ...
    def __getitem__(self, index: Index | ViewIndex) -> Any:
        raise _outside_kernel("array indexing on a borrowed parameter")

    def __setitem__(
        self: BorrowMut[Array[DT]], index: Index,
        value: DT | float | int | complex | VectorRow,  # complex: any complex, for complex64
    ) -> None:  # fmt: skip
        raise _outside_kernel("array assignment on a borrowed parameter")


class Owned(BorrowMut[T]):
    """Ownership moves into the kernel: the caller's handle is dead after the launch."""


class Array(Owned["Array[DT]"], Generic[DT]):
    """An n-dimensional strided array of element type ``DT`` (a gpuoff scalar type).

    Used in annotations (``Borrow[Array[f32]]``); the number of dimensions comes from the
    argument at launch. At run time ``go.Buffer`` is the concrete array class.
    """


OWNERSHIP_WRAPPERS: tuple[type, ...] = (Borrow, BorrowMut, Owned)

if TYPE_CHECKING:
    from typing import final

    @final
    class CannotWriteThroughBorrow(float):
        """Type-level only: the value type of a write through a shared ``Borrow``.

        Nothing is ever of this type, so the type checker rejects every such write, and its
        message names this class: declare the parameter ``BorrowMut[...]`` to write.
        """


# --------------------------------------------------------------------------------------------
# Intrinsics (replaced by the compiler; raise on the host)
# --------------------------------------------------------------------------------------------


def _outside_kernel(what: str) -> RuntimeError:
    return RuntimeError(f"{what} is only meaningful inside a @gpuoff.kernel or @gpuoff.func")


def global_id(dim: int) -> int:
    """Index of this work-item in the launch grid along ``dim`` (0, 1 or 2)."""
    raise _outside_kernel("go.global_id")


def local_id(dim: int) -> int:
    """Index of this work-item within its work-group along ``dim``."""
    raise _outside_kernel("go.local_id")


def group_id(dim: int) -> int:
    """Index of this work-item's work-group along ``dim``."""
    raise _outside_kernel("go.group_id")


def global_size(dim: int) -> int:
    """Number of work-items in the launch grid along ``dim``."""
    raise _outside_kernel("go.global_size")


def local_size(dim: int) -> int:
    """Number of work-items in a work-group along ``dim``."""
    raise _outside_kernel("go.local_size")


def num_groups(dim: int) -> int:
    """Number of work-groups along ``dim``."""
    raise _outside_kernel("go.num_groups")


def barrier() -> None:
    """Wait until every work-item of the work-group reaches this barrier (local memory fence)."""
    raise _outside_kernel("go.barrier")


def unsafe() -> AbstractContextManager[None]:
    """``with go.unsafe():`` in a kernel: the stores inside (and those of the device functions
    called there) are not race-checked. Bounds checks stay on. The user promises that no two
    work-items write the same element there (SPEC §3b); ``GPUOFF_SANITIZE=race`` checks it."""
    raise _outside_kernel("go.unsafe")


def shared(shape: int | tuple[int, ...], dtype: type[DT]) -> BorrowMut[Array[DT]]:
    """Allocate a work-group local array with a compile-time constant shape."""
    raise _outside_kernel("go.shared")


def local_array(shape: int | tuple[int, ...], dtype: type[DT]) -> BorrowMut[Array[DT]]:
    """Allocate an array private to the work-item, zeroed, with a compile-time constant
    shape (CUDA's ``float b[N]``, Numba's ``cuda.local.array``). It lives in registers where
    every index is a constant after unrolling, else in the work-item's private memory; at most
    ``gpuoff.ir.types.PRIVATE_BYTES_LIMIT`` bytes per work-item. ``[0.0] * N`` with a constant
    ``N`` is the same, its dtype the join of its items and of what is stored into it."""
    raise _outside_kernel("go.local_array")


def atomic_add(
    array: BorrowMut[Array[DT]], index: Index, value: DT | float | int | VectorRow
) -> DT:
    """Atomically ``array[index] += value``; returns the old value."""
    raise _outside_kernel("go.atomic_add")


def atomic_min(
    array: BorrowMut[Array[DT]], index: Index, value: DT | float | int | VectorRow
) -> DT:
    """Atomically ``array[index] = min(array[index], value)``; returns the old value."""
    raise _outside_kernel("go.atomic_min")


def atomic_max(
    array: BorrowMut[Array[DT]], index: Index, value: DT | float | int | VectorRow
) -> DT:
    """Atomically ``array[index] = max(array[index], value)``; returns the old value."""
    raise _outside_kernel("go.atomic_max")


def atomic_sub(
    array: BorrowMut[Array[DT]], index: Index, value: DT | float | int | VectorRow
) -> DT:
    """Atomically ``array[index] -= value``; returns the old value (CUDA's ``atomicSub``)."""
    raise _outside_kernel("go.atomic_sub")


def atomic_exch(
    array: BorrowMut[Array[DT]], index: Index, value: DT | float | int | VectorRow
) -> DT:
    """Atomically ``array[index] = value``; returns the old value (CUDA's ``atomicExch``)."""
    raise _outside_kernel("go.atomic_exch")


def atomic_cas(
    array: BorrowMut[Array[DT]], index: Index, compare: DT | float | int, value: DT | float | int
) -> DT:
    """Atomically ``if array[index] == compare: array[index] = value``; returns the old value
    (CUDA's ``atomicCAS``; floats compare bit patterns, so ``-0.0`` is not ``0.0``)."""
    raise _outside_kernel("go.atomic_cas")


def atomic_and(array: BorrowMut[Array[DT]], index: Index, value: DT | int) -> DT:
    """Atomically ``array[index] &= value`` (integers); returns the old value."""
    raise _outside_kernel("go.atomic_and")


def atomic_or(array: BorrowMut[Array[DT]], index: Index, value: DT | int) -> DT:
    """Atomically ``array[index] |= value`` (integers); returns the old value."""
    raise _outside_kernel("go.atomic_or")


def atomic_xor(array: BorrowMut[Array[DT]], index: Index, value: DT | int) -> DT:
    """Atomically ``array[index] ^= value`` (integers); returns the old value."""
    raise _outside_kernel("go.atomic_xor")


def atomic_inc(array: BorrowMut[Array[DT]], index: Index, value: DT | int) -> DT:
    """CUDA's ``atomicInc`` on u32/u64: atomically ``old = array[index]``, then store ``0 if
    old >= value else old + 1`` (a counter wrapping at ``value``); returns ``old``."""
    raise _outside_kernel("go.atomic_inc")


def atomic_dec(array: BorrowMut[Array[DT]], index: Index, value: DT | int) -> DT:
    """CUDA's ``atomicDec`` on u32/u64: atomically ``old = array[index]``, then store ``value
    if old == 0 or old > value else old - 1``; returns ``old``."""
    raise _outside_kernel("go.atomic_dec")


INTRINSICS: dict[Callable[..., Any], str] = {
    globals()[name]: ir for name, ir in subset.INTRINSICS.items()
}
"""Work-item index intrinsics -> IR intrinsic name (each takes one constant dimension)."""

ATOMICS: dict[Callable[..., Any], str] = {
    globals()[name]: op for name, op in subset.ATOMICS.items()
}
"""Atomics -> IR operation (names from ``gpuoff.subset``, which the mypy plugin reads too)."""


# --------------------------------------------------------------------------------------------
# Device functions
# --------------------------------------------------------------------------------------------

P = ParamSpec("P")
R = TypeVar("R")


class DeviceFunction(Generic[P, R]):
    """A helper callable from kernels and other device functions (``@go.func``).

    Calling it on the host raises: it is compiled into the kernels that call it.
    """

    def __init__(self, pyfunc: Callable[P, R]) -> None:
        self.pyfunc = pyfunc
        self.__name__ = pyfunc.__name__
        self.__qualname__ = pyfunc.__qualname__
        self.__doc__ = pyfunc.__doc__
        self.__module__ = pyfunc.__module__

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        raise _outside_kernel(f"device function {self.__name__}()")

    def __repr__(self) -> str:
        return f"<gpuoff.func {self.__qualname__}>"

    def __reduce__(self) -> tuple[Any, ...]:
        """By reference when importable, else by source (``gpuoff.shipping``)."""
        from gpuoff import shipping

        return shipping.reduce(self, type(self), {})

    def __copy__(self) -> DeviceFunction[P, R]:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> DeviceFunction[P, R]:
        return self


if TYPE_CHECKING:

    def func(pyfunc: Callable[P, R]) -> DeviceFunction[P, R]: ...

else:

    def func(pyfunc):
        """Declare a device function: ``@go.func def helper(x: f32) -> f32: ...``."""
        return DeviceFunction(pyfunc)
