"""Small vectors and matrices of the kernel language (Warp's names: ``vec3``, ``mat33``...).

A ``go.vec3`` is three f32 values, a ``go.mat33`` three rows of them: fixed-size values of one
dtype with element-wise arithmetic and scalar broadcasting, ``go.dot``, ``go.cross``,
``go.length``, ``go.normalize``, components ``v.x``/``v[0]``, and loads and stores from the
last axis of an array (``v = go.vec3.load(a, i)``, ``a[i] = v``). In kernels a vector is its
components (``gpuoff.frontend.vectors``: one register each); on the host these classes hold
their components in a tuple, so a captured ``go.vec3(0.0, 1.0, 0.0)`` is a constant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from gpuoff import lang
from gpuoff.lang import DT, Borrow

if TYPE_CHECKING:
    from typing import Self


class Vector(Generic[DT]):
    """Base of the vector types: ``length`` components of ``dtype`` (``DT`` to a type
    checker: ``go.vec3`` is a ``Vector[go.f32]``)."""

    length: ClassVar[int]
    dtype: ClassVar[Any]  # a gpuoff scalar type (go.f32)
    __slots__ = ("_items",)
    _items: tuple[Any, ...]

    def __init__(self, *items: float | Vector[Any]) -> None:
        values: tuple[Any, ...] = items
        if len(items) == 1 and isinstance(items[0], Vector):
            values = items[0]._items
        elif len(items) == 1:
            values = items * self.length
        if len(values) != self.length:
            raise TypeError(f"{type(self).__name__} takes {self.length} components (or one "
                            f"to fill them), got {len(values)}")  # fmt: skip
        self._items = tuple(self.dtype(v) for v in values)

    def __getitem__(self, k: int) -> DT:
        return cast(DT, self._items[k])

    def __len__(self) -> int:
        return self.length

    def __repr__(self) -> str:
        return f"go.{type(self).__name__}{self._items!r}"

    def __eq__(self, other: object) -> bool:  # (host vectors: captured constants)
        return isinstance(other, Vector) and self._items == other._items

    def __hash__(self) -> int:
        return hash(self._items)

    @property
    def x(self) -> DT:
        return cast(DT, self._items[0])

    @property
    def y(self) -> DT:
        return cast(DT, self._items[1])

    @property
    def z(self) -> DT:
        return cast(DT, self._items[2])

    @property
    def w(self) -> DT:
        return cast(DT, self._items[3])

    @classmethod
    def load(cls, array: Borrow[Any], index: int | tuple[int, ...]) -> Self:
        """``array[index, 0:length]`` as a vector (in kernels: ``index`` has one index fewer
        than ``array`` has dimensions)."""
        raise RuntimeError(f"go.{cls.__name__}.load can only be called inside a kernel")

    if TYPE_CHECKING:
        def __add__(self, other: Self | float, /) -> Self: ...
        def __radd__(self, other: float, /) -> Self: ...
        def __sub__(self, other: Self | float, /) -> Self: ...
        def __rsub__(self, other: float, /) -> Self: ...
        def __mul__(self, other: Self | float, /) -> Self: ...
        def __rmul__(self, other: float, /) -> Self: ...
        def __truediv__(self, other: Self | float, /) -> Self: ...
        def __rtruediv__(self, other: float, /) -> Self: ...
        def __neg__(self) -> Self: ...
        def __pos__(self) -> Self: ...
        def __matmul__(self, other: Self, /) -> DT: ...  # v @ w: the dot product


def _vector(name: str, n: int, dtype: type[lang.DType]) -> type[Vector[Any]]:
    return type(name, (Vector,), {"length": n, "dtype": dtype, "__slots__": (),
                                  "__doc__": f"{n} components of {dtype.__name__}."})


if TYPE_CHECKING:
    class vec2(Vector[lang.f32]): ...
    class vec3(Vector[lang.f32]): ...
    class vec4(Vector[lang.f32]): ...
    class vec2d(Vector[lang.f64]): ...
    class vec3d(Vector[lang.f64]): ...
    class vec4d(Vector[lang.f64]): ...
    class vec2i(Vector[lang.i32]): ...
    class vec3i(Vector[lang.i32]): ...
    class vec4i(Vector[lang.i32]): ...
else:
    vec2, vec3, vec4 = (_vector(f"vec{n}", n, lang.f32) for n in (2, 3, 4))
    vec2d, vec3d, vec4d = (_vector(f"vec{n}d", n, lang.f64) for n in (2, 3, 4))
    vec2i, vec3i, vec4i = (_vector(f"vec{n}i", n, lang.i32) for n in (2, 3, 4))
vec2f, vec3f, vec4f = vec2, vec3, vec4

VECTOR_TYPES: tuple[type[Vector[Any]], ...] = (vec2, vec3, vec4, vec2d, vec3d, vec4d, vec2i, vec3i,
                                          vec4i)  # fmt: skip


def vec(n: int, dtype: object) -> type[Vector[Any]]:
    """The vector type of ``n`` components of ``dtype`` (``go.vec(3, go.f32)`` is ``go.vec3``)."""
    for t in VECTOR_TYPES:
        if t.length == n and t.dtype is lang.dtype_of(dtype):
            return t
    raise TypeError(f"no vector type of {n} {lang.dtype_of(dtype).__name__} (gpuoff has 2, 3 "
                    "and 4 components of f32, f64 and i32)")  # fmt: skip


def _kernel_only(name: str) -> RuntimeError:
    return RuntimeError(f"go.{name} can only be called inside a kernel")


V = TypeVar("V", bound=Vector[Any])


def dot(a: Vector[DT], b: Vector[DT]) -> DT:
    """The dot product ``a[0]*b[0] + a[1]*b[1] + ...`` (left to right)."""
    raise _kernel_only("dot")


def cross(a: V, b: V) -> V:
    """The cross product of two 3-vectors."""
    raise _kernel_only("cross")


def length(v: Vector[DT]) -> DT:
    """``sqrt(dot(v, v))``."""
    raise _kernel_only("length")


def length_sq(v: Vector[DT]) -> DT:
    """``dot(v, v)``."""
    raise _kernel_only("length_sq")


def normalize(v: V) -> V:
    """``v / length(v)``; the zero vector stays zero (Warp's)."""
    raise _kernel_only("normalize")


VECTOR_FUNCTIONS: dict[object, str] = {dot: "dot", cross: "cross", length: "length",
                                       length_sq: "length_sq", normalize: "normalize"}
"""The vector functions by identity -> name (``gpuoff.frontend.vectors``)."""
