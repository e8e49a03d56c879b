"""Small matrices of the kernel language (Warp's names: ``mat22``, ``mat33``, ``mat44``).

A ``go.mat33`` is three rows of three f32 values (``go.mat33d``: f64), row-major as NumPy's
``(3, 3)`` arrays; ``go.mat(rows, cols, dtype)`` names any shape from 2 to 4 of f32, f64 or
i32 (``go.mat(2, 3, go.f32)``). In kernels a matrix is its elements (one register each,
``gpuoff.frontend.matrices``): element-wise ``+ -``, a number ``*`` and ``/``, the products
``m @ n``, ``m @ v``, ``v @ m`` (and ``go.mul``), ``go.transpose``, ``go.determinant``,
``go.inverse``, ``go.trace``, ``go.outer``, ``go.diag``, ``go.identity``, ``m[i, j]`` and
``m[i]`` (a row vector), loads and stores from the last two axes of an array
(``go.mat33.load(a, i)`` reads ``a[i, 0:3, 0:3]``, ``a[i] = m``). On the host these classes
hold their rows in a tuple, so a captured ``go.identity(3, go.f32)`` is a constant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar, cast, overload

from gpuoff import lang, lang_vec
from gpuoff.lang import DT, Borrow
from gpuoff.lang_vec import Vector, vec2, vec2d, vec3, vec3d, vec4, vec4d

if TYPE_CHECKING:
    from typing import Self

VT = TypeVar("VT", bound=Vector[Any])


class Matrix(Generic[DT, VT]):
    """Base of the matrix types: ``rows`` x ``cols`` elements of ``dtype``; to a type checker
    ``go.mat33`` is a ``Matrix[go.f32, go.vec3]`` (its element type and its row type)."""

    rows: ClassVar[int]
    cols: ClassVar[int]
    dtype: ClassVar[Any]  # a gpuoff scalar type (go.f32)
    __slots__ = ("_items",)
    _items: tuple[tuple[Any, ...], ...]  # the rows

    def __init__(self, *items: float | Vector[Any] | Matrix[Any, Any]) -> None:
        """``()``: zeros; ``(s)``: every element ``s``; ``rows * cols`` numbers, row by row;
        ``rows`` vectors of ``cols``: the rows; one matrix of the same shape (converted)."""
        r, c = self.rows, self.cols
        flat: list[Any]
        if len(items) == 1 and isinstance(items[0], Matrix):
            flat = [x for row in items[0]._items for x in row]
            if (items[0].rows, items[0].cols) != (r, c):
                flat = []
        elif items and all(isinstance(v, Vector) for v in items):
            rows = [cast(Vector[Any], v)._items for v in items]
            flat = [x for row in rows for x in row] if all(len(x) == c for x in rows) else []
            flat = flat if len(rows) == r else []
        elif len(items) <= 1:
            flat = [items[0] if items else 0] * (r * c)
        else:
            flat = list(items)
        if len(flat) != r * c or any(isinstance(x, Vector | Matrix) for x in flat):
            raise TypeError(f"{type(self).__name__} takes {r * c} numbers, {r} rows of "
                            f"{c}, one number to fill it, or nothing (zeros)")  # fmt: skip
        self._items = tuple(tuple(self.dtype(x) for x in flat[k * c:(k + 1) * c])
                            for k in range(r))  # fmt: skip

    @overload
    def __getitem__(self, k: int) -> VT: ...
    @overload
    def __getitem__(self, k: tuple[int, int]) -> DT: ...
    def __getitem__(self, k: int | tuple[int, int]) -> Any:
        if isinstance(k, tuple):
            return self._items[k[0]][k[1]]
        return lang_vec.vec(self.cols, self.dtype)(*self._items[k])

    def __len__(self) -> int:
        return self.rows

    def __repr__(self) -> str:
        return f"go.{type(self).__name__}{self._items!r}"

    def __eq__(self, other: object) -> bool:  # (host matrices: captured constants)
        return isinstance(other, Matrix) and self._items == other._items

    def __hash__(self) -> int:
        return hash(self._items)

    @classmethod
    def load(cls, array: Borrow[Any], index: int | tuple[int, ...]) -> Self:
        """``array[index, 0:rows, 0:cols]`` as a matrix (in kernels: ``index`` has two
        indices fewer than ``array`` has dimensions)."""
        raise RuntimeError(f"go.{cls.__name__}.load can only be called inside a kernel")

    if TYPE_CHECKING:
        def __add__(self, other: Self, /) -> Self: ...
        def __sub__(self, other: Self, /) -> Self: ...
        # a[i] += m: a checker reads a[i] as a number (the front end refuses 1.0 + m)
        def __radd__(self, other: float, /) -> Self: ...
        def __rsub__(self, other: float, /) -> Self: ...
        def __mul__(self, other: float, /) -> Self: ...
        def __rmul__(self, other: float, /) -> Self: ...
        def __truediv__(self, other: float, /) -> Self: ...
        def __neg__(self) -> Self: ...
        def __pos__(self) -> Self: ...
        @overload
        def __matmul__(self, other: Self, /) -> Self: ...
        @overload
        def __matmul__(self, other: VT, /) -> VT: ...
        def __matmul__(self, other: Any, /) -> Any: ...
        def __rmatmul__(self, other: VT, /) -> VT: ...


_DTYPES: tuple[tuple[type[lang.DType], str], ...] = ((lang.f32, ""), (lang.f64, "d"),
                                                     (lang.i32, "i"))  # fmt: skip
_BY_SHAPE: dict[tuple[int, int, type[lang.DType]], type[Matrix[Any, Any]]] = {}
for _r in (2, 3, 4):
    for _c in (2, 3, 4):
        for _dt, _suffix in _DTYPES:
            _name = f"mat{_r}{_c}{_suffix}"
            _BY_SHAPE[_r, _c, _dt] = type(_name, (Matrix,), {
                "rows": _r, "cols": _c, "dtype": _dt, "__slots__": (), "__module__": __name__,
                "__qualname__": _name, "__doc__": f"{_r}x{_c} elements of {_dt.__name__}."})
            globals()[_name] = _BY_SHAPE[_r, _c, _dt]  # (pickled by name: shipping kernels)

MATRIX_TYPES: frozenset[type[Matrix[Any, Any]]] = frozenset(_BY_SHAPE.values())

if TYPE_CHECKING:
    class mat22(Matrix[lang.f32, vec2]): ...
    class mat33(Matrix[lang.f32, vec3]): ...
    class mat44(Matrix[lang.f32, vec4]): ...
    class mat22d(Matrix[lang.f64, vec2d]): ...
    class mat33d(Matrix[lang.f64, vec3d]): ...
    class mat44d(Matrix[lang.f64, vec4d]): ...
else:
    mat22, mat33, mat44 = (_BY_SHAPE[n, n, lang.f32] for n in (2, 3, 4))
    mat22d, mat33d, mat44d = (_BY_SHAPE[n, n, lang.f64] for n in (2, 3, 4))
mat22f, mat33f, mat44f = mat22, mat33, mat44


def mat(rows: int, cols: int, dtype: object = lang.f32) -> type[Matrix[Any, Any]]:
    """The matrix type of ``rows`` x ``cols`` elements of ``dtype`` (``go.mat(3, 3, go.f32)``
    is ``go.mat33``)."""
    found = _BY_SHAPE.get((rows, cols, lang.dtype_of(dtype)))
    if found is None:
        raise TypeError(f"no matrix type of {rows}x{cols} {lang.dtype_of(dtype).__name__} "
                        "(gpuoff has 2 to 4 rows and columns of f32, f64 and i32)")  # fmt: skip
    return found


def _kernel_only(name: str) -> RuntimeError:
    return RuntimeError(f"go.{name} can only be called inside a kernel")


M = TypeVar("M", bound=Matrix[Any, Any])


@overload
def identity(n: Literal[2], dtype: type[lang.f32] = ...) -> mat22: ...
@overload
def identity(n: Literal[3], dtype: type[lang.f32] = ...) -> mat33: ...
@overload
def identity(n: Literal[4], dtype: type[lang.f32] = ...) -> mat44: ...
@overload
def identity(n: Literal[2], dtype: type[lang.f64]) -> mat22d: ...
@overload
def identity(n: Literal[3], dtype: type[lang.f64]) -> mat33d: ...
@overload
def identity(n: Literal[4], dtype: type[lang.f64]) -> mat44d: ...
@overload
def identity(n: int, dtype: object = ...) -> Matrix[Any, Any]: ...
def identity(n: int, dtype: object = lang.f32) -> Matrix[Any, Any]:
    """The ``n`` x ``n`` identity matrix of ``dtype`` (Warp's ``wp.identity(n, dtype)``; in
    kernels ``n`` and ``dtype`` are compile-time constants)."""
    cls = mat(n, n, dtype)
    return cls(*(float(i == j) for i in range(n) for j in range(n)))


@overload
def outer(a: vec2, b: vec2) -> mat22: ...
@overload
def outer(a: vec3, b: vec3) -> mat33: ...
@overload
def outer(a: vec4, b: vec4) -> mat44: ...
@overload
def outer(a: vec2d, b: vec2d) -> mat22d: ...
@overload
def outer(a: vec3d, b: vec3d) -> mat33d: ...
@overload
def outer(a: vec4d, b: vec4d) -> mat44d: ...
@overload
def outer(a: Vector[Any], b: Vector[Any]) -> Matrix[Any, Any]: ...
def outer(a: Vector[Any], b: Vector[Any]) -> Matrix[Any, Any]:
    """The outer product: element ``[i, j]`` is ``a[i] * b[j]``."""
    raise _kernel_only("outer")


@overload
def diag(v: vec2) -> mat22: ...
@overload
def diag(v: vec3) -> mat33: ...
@overload
def diag(v: vec4) -> mat44: ...
@overload
def diag(v: vec2d) -> mat22d: ...
@overload
def diag(v: vec3d) -> mat33d: ...
@overload
def diag(v: vec4d) -> mat44d: ...
@overload
def diag(v: Vector[Any]) -> Matrix[Any, Any]: ...
def diag(v: Vector[Any]) -> Matrix[Any, Any]:
    """The square matrix with ``v`` on its diagonal and zeros elsewhere."""
    raise _kernel_only("diag")


def matrix_from_rows(*rows: VT) -> Matrix[Any, VT]:
    """The matrix whose rows are the vectors ``rows`` (Warp's; ``go.mat33(a, b, c)`` too)."""
    raise _kernel_only("matrix_from_rows")


def matrix_from_cols(*cols: Vector[DT]) -> Matrix[DT, Any]:
    """The matrix whose columns are the vectors ``cols`` (Warp's)."""
    raise _kernel_only("matrix_from_cols")


def transpose(m: M) -> M:
    """The transpose (a ``rows`` x ``cols`` matrix gives ``cols`` x ``rows``)."""
    raise _kernel_only("transpose")


def determinant(m: Matrix[DT, Any]) -> DT:
    """The determinant of a square matrix (cofactor expansion along the first row)."""
    raise _kernel_only("determinant")


def inverse(m: M) -> M:
    """The inverse of a square float matrix: its adjugate divided by its determinant (no
    check: a singular matrix gives infinities and NaNs, as Warp's)."""
    raise _kernel_only("inverse")


def trace(m: Matrix[DT, Any]) -> DT:
    """The sum of the diagonal of a square matrix."""
    raise _kernel_only("trace")


@overload
def mul(a: M, b: M) -> M: ...
@overload
def mul(a: Matrix[Any, VT], b: VT) -> VT: ...
@overload
def mul(a: VT, b: Matrix[Any, VT]) -> VT: ...
@overload
def mul(a: M, b: float) -> M: ...
@overload
def mul(a: float, b: M) -> M: ...
def mul(a: Any, b: Any) -> Any:
    """Warp's ``wp.mul``: ``a @ b`` for matrices and vectors, ``a * b`` with a number."""
    raise _kernel_only("mul")


MATRIX_FUNCTIONS: dict[object, str] = {
    identity: "identity", outer: "outer", diag: "diag", matrix_from_rows: "matrix_from_rows",
    matrix_from_cols: "matrix_from_cols", transpose: "transpose", determinant: "determinant",
    inverse: "inverse", trace: "trace", mul: "mul",
}  # fmt: skip
"""The matrix functions by identity -> name (``gpuoff.frontend.matrices``)."""
