"""IR types: scalars and arrays.

Scalar types are the gpuoff dtypes (SPEC §1). Array types carry the element type, the number
of dimensions, whether the array is C-contiguous (a specialisation: strides are then derived
from the shape and never loaded), its address space, and its access mode (ownership).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

from gpuoff import lang
from gpuoff.ownership import Access


@dataclass(frozen=True)
class ScalarType:
    """A scalar type. ``name`` is the short gpuoff name (``"f32"``)."""

    name: str
    kind: str  # "f" float, "i" signed int, "u" unsigned int, "b" bool, "c" complex
    bits: int

    @property
    def is_float(self) -> bool:
        return self.kind == "f"

    @property
    def is_int(self) -> bool:
        """Signed or unsigned integer (not bool)."""
        return self.kind in ("i", "u")

    @property
    def is_signed(self) -> bool:
        return self.kind == "i"

    @property
    def is_bool(self) -> bool:
        return self.kind == "b"

    @property
    def is_complex(self) -> bool:
        """A complex type (``complex64``/``complex128``): never an IR value's type. The front
        end lowers a complex value to its two ``component`` parts, a complex array to a
        ``component`` array with a last axis of 2 (``ArrayType.pairs``)."""
        return self.kind == "c"

    @property
    def component(self) -> ScalarType:
        """The type of a complex type's real and imaginary parts (``complex64`` -> ``f32``)."""
        assert self.kind == "c", self
        return f32 if self.bits == 64 else f64

    @property
    def itemsize(self) -> int:
        return max(self.bits // 8, 1)

    @property
    def np_dtype(self) -> np.dtype[np.generic]:
        return np.dtype(_NP_NAMES[self.name])

    @property
    def lang_type(self) -> type[lang.DType]:
        return lang.DTYPE_BY_NAME[_NP_NAMES[self.name]]

    def __str__(self) -> str:
        return self.name


f16 = ScalarType("f16", "f", 16)
f32 = ScalarType("f32", "f", 32)
f64 = ScalarType("f64", "f", 64)
i8 = ScalarType("i8", "i", 8)
i16 = ScalarType("i16", "i", 16)
i32 = ScalarType("i32", "i", 32)
i64 = ScalarType("i64", "i", 64)
u8 = ScalarType("u8", "u", 8)
u16 = ScalarType("u16", "u", 16)
u32 = ScalarType("u32", "u", 32)
u64 = ScalarType("u64", "u", 64)
boolean = ScalarType("bool", "b", 1)
complex64 = ScalarType("complex64", "c", 64)
complex128 = ScalarType("complex128", "c", 128)
COMPLEX: tuple[ScalarType, ...] = (complex64, complex128)
"""The complex types (not in ``SCALARS``: no IR expression has one)."""

SCALARS: tuple[ScalarType, ...] = (f16, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64, boolean)
INTEGERS: tuple[ScalarType, ...] = (i8, i16, i32, i64, u8, u16, u32, u64)
"""The integer types (not bool), signed first, narrowest first."""

_NP_NAMES = {
    "f16": "float16",
    "f32": "float32",
    "f64": "float64",
    "i8": "int8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "u8": "uint8",
    "u16": "uint16",
    "u32": "uint32",
    "u64": "uint64",
    "bool": "bool",
    "complex64": "complex64",
    "complex128": "complex128",
}
_BY_NP_NAME = {
    np_name: next(s for s in (*SCALARS, *COMPLEX) if s.name == n)
    for n, np_name in _NP_NAMES.items()
}

INDEX = i64
"""Type of work-item ids, sizes, shapes, strides, ``len()`` and array indices."""


def scalar_from_numpy(dtype: np.dtype[np.generic]) -> ScalarType:
    """The IR scalar type of a NumPy dtype; ``KeyError`` if gpuoff has none."""
    return _BY_NP_NAME[dtype.name]


def scalar_from_lang(t: type[lang.DType]) -> ScalarType:
    """The IR scalar type of a ``gpuoff.lang`` dtype class (``go.f32`` -> ``f32``)."""
    return _BY_NP_NAME[t.name]


class AddressSpace(enum.Enum):
    """Where an array lives: device global memory, work-group local (shared) memory, or the
    private memory of one work-item (``go.local_array``, ``[0.0] * N``: never seen by another
    work-item)."""

    GLOBAL = "global"
    SHARED = "shared"
    PRIVATE = "private"


@dataclass(frozen=True)
class ArrayType:
    """An n-dimensional strided array.

    ``contiguous``: C-contiguous, so ``strides[d] = prod(shape[d+1:])`` (in elements).
    ``static_shape``: the compile-time shape of a shared or private array (``None`` for
    parameters, whose shapes are runtime values).
    ``access``: how the kernel uses it (parameters); shared and private arrays are
    ``BORROW_MUT``.
    """

    dtype: ScalarType
    ndim: int
    contiguous: bool = True
    space: AddressSpace = AddressSpace.GLOBAL
    access: Access = Access.BORROW
    static_shape: tuple[int, ...] | None = None
    pairs: bool = False
    """An array of complex numbers as the backends see it: ``dtype`` is the component type
    and the last axis (of length 2) holds (real, imaginary). Only the front end reads it."""

    def __str__(self) -> str:
        layout = "C" if self.contiguous else "A"
        prefix = "" if self.space is AddressSpace.GLOBAL else f"{self.space.value} "
        return f"{prefix}{self.access.value}[{self.dtype}[{self.ndim}d,{layout}]]"


Type = ScalarType | ArrayType

PRIVATE_BYTES_LIMIT = 4096
"""The most private-array memory (``go.local_array``, ``[0.0] * N`` and the out-arrays of
device functions returning tuples) one work-item may hold, over its kernel and every device
function the kernel calls. GPUs keep such arrays in registers or in per-thread local memory
(CUDA allows far more, but each byte beyond the registers is a memory access); the CPU keeps
them on a worker thread's stack, one copy per work-item of a group where the kernel runs as
regions (barriers)."""
