"""``go.Buffer``: an n-dimensional strided array in gpuoff-managed memory, and its constructors.

A Buffer is a view (byte offset, shape, strides) of a ``residency.Storage``; ``buf[a:b]``,
``buf[:, j]``, steps and reversals make new views of the same storage, each with its own byte
range for the guards. Contents are reached only through synchronising accessors: ``numpy()``
(a copy), ``with buf.host()`` (read-only view), ``with buf.host_mut()`` (writable view),
``np.asarray(buf)`` (a copy) and DLPack export (a writable host view shared with the consumer:
while it lives the storage is foreign memory, ``residency``, and both sides agree at every
synchronisation point: docs/memory.md).

Device-side errors (``go.BoundsError``) of earlier launches surface at the next of these
synchronisation points, or at ``go.synchronize()``.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, TypeVar, overload

import numpy as np

from gpuoff import lang
from gpuoff.errors import BorrowError, DTypeError, OutOfMemoryError, ShapeError
from gpuoff.lang import Array
from gpuoff.ownership import Access, conflicts, ranges_overlap
from gpuoff.runtime import foreign, guards
from gpuoff.runtime.host_values import (
    ViewError,
    assignable,
    element,
    host_index,
    host_nbytes,
    shape_of,
    shared_view,
)
from gpuoff.runtime.residency import Storage
from gpuoff.runtime.tracebacks import entry_point

DT = TypeVar("DT", bound=lang.DType)


_Shape = int | tuple[int, ...]
NumPyDType = str | np.dtype[Any] | type[np.generic]
"""A dtype given the NumPy way (``np.float32``, ``"float32"``, ``np.dtype(...)``): the buffer's
element type is then known at run time only. Not ``object``: a gpuoff type given where
another is expected (``go.zeros(n, go.i32)`` for an ``f32`` parameter) must stay a type error,
not fall through to an untyped buffer."""


def _c_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides = []
    acc = 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(strides))


class Buffer(Array[DT]):
    """An array in gpuoff-managed memory (host and/or devices); the concrete ``Array[DT]``.

    Attributes: ``shape``, ``dtype`` (a NumPy dtype), ``ndim``, ``size``, ``nbytes``,
    ``strides`` (in bytes, as NumPy's). Every use after the buffer was moved into an ``Owned``
    parameter raises ``go.UseAfterMoveError``.
    """

    shape: tuple[int, ...]

    def __init__(
        self,
        storage: Storage,
        offset: int,
        shape: tuple[int, ...],
        strides: tuple[int, ...],
        dtype: np.dtype[Any],
    ) -> None:
        self._st = storage
        self._off = offset
        self.shape = shape
        self._strides = strides
        self._dt = dtype
        self._moved: guards.MovedAt | None = None
        item = dtype.itemsize
        size = 1
        for n in shape:
            size *= n
        lo = hi = offset
        if size > 0:
            for n, s in zip(shape, strides, strict=True):
                ext = (n - 1) * s * item
                lo, hi = (lo + ext, hi) if ext < 0 else (lo, hi + ext)
            hi += item
        self._lo = lo
        self._hi = hi
        self._size = size
        self._ptr = storage.host_ptr + offset
        self._alo = storage.host_ptr + lo  # absolute host byte range: aliasing across storages
        self._ahi = storage.host_ptr + hi
        contiguous = size <= 1 or strides == _c_strides(shape)
        self._key = (dtype.name, len(shape), contiguous)
        # what a host-memory device packs for this argument: data pointer, shape, strides
        self._packed = (self._ptr, *shape, *strides)
        self._pv: Buffer[Any] | None = None  # _pairs
        storage.handles.add(self)  # a move kills every other handle sharing its bytes

    # -- metadata (no synchronisation) --------------------------------------------------------

    @property
    def dtype(self) -> np.dtype[Any]:
        """The element type as a NumPy dtype (``np.dtype('float32')`` for ``go.f32``)."""
        return self._dt

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return self._size

    @property
    def nbytes(self) -> int:
        return self._size * self._dt.itemsize

    @property
    def strides(self) -> tuple[int, ...]:
        """Strides in bytes (NumPy's convention)."""
        return tuple(s * self._dt.itemsize for s in self._strides)

    def __len__(self) -> int:
        self._alive()
        if not self.shape:
            raise TypeError("len() of a 0-d buffer")
        return self.shape[0]

    def __repr__(self) -> str:
        state = " (moved)" if self._moved is not None else ""
        return f"<gpuoff.Buffer shape={self.shape} dtype={self._dt.name}{state}>"

    def _describe(self) -> str:
        return f"buffer of shape {self.shape} ({self._dt.name})"

    def _alive(self) -> None:
        if self._moved is not None:
            raise self._moved.error(self._describe())

    def _layout(self) -> np.ndarray[Any, Any]:
        """The view as an ndarray over the host bytes (contents may be stale: layout only)."""
        item = self._dt.itemsize
        return np.ndarray(
            self.shape, self._dt, buffer=self._st.host, offset=self._off,
            strides=tuple(s * item for s in self._strides),
        )  # fmt: skip

    def _pairs(self) -> Buffer[Any]:
        """A complex buffer as kernels see it (``ir.types.ArrayType.pairs``): a view of its
        bytes as the component floats, with a last axis of 2 holding (real, imaginary). Made
        once per buffer, so launches keep passing the same object."""
        pv = self._pv
        if pv is None:
            part = np.dtype(np.float32 if self._dt.itemsize == 8 else np.float64)
            strides = (*(2 * s for s in self._strides), 1)
            pv = self._pv = Buffer(self._st, self._off, (*self.shape, 2), strides, part)
        return pv

    def _moved_to(self, kernel: str, where: str) -> Buffer[DT]:
        """Move: a new handle to the same view; this one is dead from now on, and so is every
        other handle sharing a byte with it (views made before the move, the buffer a moved
        view came from): the new handle is the only way to the moved memory."""
        new: Buffer[DT] = object.__new__(Buffer)
        new.__dict__.update(self.__dict__)
        new._moved = None
        moved = self._moved = guards.MovedAt(kernel, where)
        layout = None
        for other in list(self._st.handles):
            if other is self or other._moved is not None:
                continue
            if ranges_overlap(other._lo, other._hi, self._lo, self._hi) and other.size:
                layout = self._layout() if layout is None else layout
                if guards.shares_bytes(other._layout(), layout):
                    other._moved = moved
        self._st.handles.add(new)
        guards.new_epoch()
        return new

    def _move_undone(self, new: Buffer[DT]) -> None:
        """Undo ``_moved_to``, which returned ``new``, for a launch that raised before its
        caller got ``new`` (it ran on the calling thread, or waited for a NumPy argument):
        this handle and every handle the move killed live again, holding what the launch
        wrote (the bounds rule, docs/memory.md), and ``new``, which nobody can reach, dies."""
        moved = self._moved
        for other in list(self._st.handles):
            if other._moved is moved:
                other._moved = None
        new._moved = moved
        self._st.handles.discard(new)
        guards.new_epoch()

    # -- copies ----------------------------------------------------------------------------------

    @entry_point
    def copy(self) -> Buffer[DT]:
        """A new, independent buffer holding this buffer's elements (a view's only), in
        C order, after waiting for pending writers; ``copy.copy(buf)`` and
        ``copy.deepcopy(buf)`` do the same. A moved buffer raises ``go.UseAfterMoveError``."""
        self._sync_host(Access.HOST_READ, register=False)
        with guards.LOCK:
            out = _aligned(self.shape, self._dt, zero=False)
            np.copyto(out, self._layout())
        return _from_host(out, written=True)

    def __copy__(self) -> Buffer[DT]:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Buffer[DT]:
        return self.copy()

    @entry_point
    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled by value (SPEC §4): the elements, after waiting for pending writers; a
        view stores only its own elements. Unpickling makes a new buffer."""
        return (array, (self.numpy(),))

    # -- views -----------------------------------------------------------------------------------

    @entry_point
    def __getitem__(self, index: Any) -> Any:
        """Basic indexing (ints, slices, steps, ``...``, ``None``) gives a view sharing the
        allocation; indexing every dimension with an int reads that element (synchronising)."""
        self._alive()
        layout = self._layout()
        view = host_index(layout, index, self._describe())
        if not isinstance(view, np.ndarray):  # one element: read it, copy nothing else
            self._sync_host(Access.HOST_READ, register=False)
            with guards.LOCK:
                return self._layout()[index]
        if view.size and not np.may_share_memory(view, layout):
            raise ViewError("only basic indexing (ints, slices, ...) makes buffer views")
        item = self._dt.itemsize
        offset = view.__array_interface__["data"][0] - self._st.host_ptr
        strides = tuple(s // item for s in view.strides)
        return Buffer(self._st, offset, view.shape, strides, self._dt)

    @entry_point
    def __setitem__(self, index: Any, value: Any) -> None:
        """``buf[i] = v`` on the host: a short ``host_mut()`` section."""
        self._alive()
        new = assignable(value, host_index(self._layout(), index, self._describe()), self._dt)
        with self.host_mut() as a:
            a[index] = new

    # -- host access -----------------------------------------------------------------------------

    def _sync_host(
        self, access: Access, register: bool, host: bool = True
    ) -> guards.HostUse | None:
        """Wait for conflicting device work, make the host copy valid (``host``), maybe open a
        view (``register``)."""
        while True:
            with guards.LOCK:
                self._alive()
                st = self._st
                guards.prune(st.uses)
                events = guards.conflicting_events(st.uses, self._lo, self._hi, access)
                if not events:
                    guards.raise_deferred()
                    if register:
                        for view in st.host_views:
                            if (
                                conflicts(view.access, access)
                                and ranges_overlap(view.lo, view.hi, self._lo, self._hi)
                                and guards.shares_bytes(view.layout, self._layout())
                            ):
                                raise BorrowError(
                                    f"{self._describe()} is already open on the host "
                                    f"({view.access.value}); cannot open it for {access.value}"
                                )
                    if host:
                        st.make_host_valid(self._lo, self._hi)
                    if not register:
                        return None
                    use = guards.HostUse(self._lo, self._hi, access, self._layout())
                    st.host_views.append(use)
                    guards.new_epoch()
                    return use
            guards.wait_all(events)

    def _close_host(self, use: guards.HostUse) -> None:
        with guards.LOCK:
            self._st.host_views.remove(use)
            guards.new_epoch()
            if use.access.writes:
                self._st.host_written(use.lo, use.hi)

    @entry_point
    def numpy(self) -> np.ndarray[Any, Any]:
        """A copy of the contents as a NumPy array (waits for pending writers)."""
        self._sync_host(Access.HOST_READ, register=False)
        with guards.LOCK:
            try:
                return self._layout().copy()
            except MemoryError:
                raise OutOfMemoryError(f"cannot allocate {self.nbytes} bytes of host memory "
                                       f"for a copy of a {self._describe()}") from None
    @entry_point
    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray[Any, Any]:
        """``np.asarray(buf)``: a copy (a live view would escape the guards: use ``host()``)."""
        if copy is False:
            raise ValueError("np.asarray(buffer) always copies; use `with buf.host()` for a view")
        out = self.numpy()
        return out if dtype is None else out.astype(dtype, copy=False)

    def host(self) -> AbstractContextManager[np.ndarray[Any, Any]]:
        """``with buf.host() as a:`` a read-only NumPy view (waits for pending writers).

        While it is open, a launch that writes this buffer raises ``go.BorrowError``."""
        self._alive()
        return self._host_read()

    def host_mut(self) -> AbstractContextManager[np.ndarray[Any, Any]]:
        """``with buf.host_mut() as a:`` a writable NumPy view (waits for every pending use).

        While it is open, any launch using this buffer raises ``go.BorrowError``; on exit the
        host holds the only valid copy."""
        self._alive()
        return self._host_write()

    @contextmanager
    def _host_read(self) -> Iterator[np.ndarray[Any, Any]]:
        use = self._sync_host(Access.HOST_READ, register=True)
        assert use is not None
        try:
            view = self._layout()
            view.flags.writeable = False
            yield view
        finally:
            self._close_host(use)

    @contextmanager
    def _host_write(self) -> Iterator[np.ndarray[Any, Any]]:
        use = self._sync_host(Access.HOST_WRITE, register=True)
        assert use is not None
        try:
            yield self._layout()
        finally:
            self._close_host(use)

    # -- interop ---------------------------------------------------------------------------------

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        """On a CUDA current device: the buffer's device memory (after every pending use, made
        valid there and marked written there, since the consumer may write). Like DLPack
        exports, the consumer's accesses are outside the guards. ``AttributeError`` elsewhere,
        so ``hasattr`` probes work."""
        from gpuoff.runtime.devices import current_device

        device = current_device()
        if device.backend != "cuda":
            raise AttributeError("__cuda_array_interface__ needs a CUDA current device")
        self._sync_host(Access.HOST_WRITE, register=False, host=False)
        with guards.LOCK:
            guards.wait_all(self._st.make_valid_on(device, self._lo, self._hi))
            self._st.mark_written_on(device, self._lo, self._hi)
            ptr = int(self._st.allocation_on(device).handle) + self._off
        contiguous = self._key[2]
        return {
            "shape": self.shape,
            "typestr": self._dt.str,
            "data": (ptr, False),
            "strides": None if contiguous else self.strides,
            "version": 3,
        }

    @entry_point
    def __dlpack__(self, **kwargs: Any) -> Any:
        """Export the host bytes (after waiting for every pending use). The consumer shares
        the memory from then on, as memory gpuoff does not own (docs/memory.md): between a
        launch and the next synchronisation point it must leave it alone; at each, both
        sides agree."""
        self._sync_host(Access.HOST_WRITE, register=False)
        with guards.LOCK:
            self._st.host_written(self._lo, self._hi)
            layout = self._layout()
            # the consumer shares the memory from now on: foreign while the export lives
            self._st.exported(layout)
        return layout.__dlpack__(**{k: v for k, v in kwargs.items() if v is not None})

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)  # kDLCPU: exports are host memory


# ------------------------------------------------------------------------------------------------
# Constructors
# ------------------------------------------------------------------------------------------------


def _np_dtype(dtype: object) -> np.dtype[Any]:
    return lang.dtype_of(dtype).np_dtype


ALIGN = 64
"""Bytes new buffers' host memory is aligned to (a cache line: vector loads of consecutive
work-items never straddle two; NumPy alone gives 16)."""


def _aligned(shape: tuple[int, ...], dtype: np.dtype[Any], zero: bool) -> np.ndarray[Any, Any]:
    """A C-contiguous array starting at an ``ALIGN``-byte boundary (zeroed when ``zero``)."""
    nbytes = host_nbytes(shape, dtype)
    try:
        raw = (np.zeros if zero else np.empty)(nbytes + ALIGN, np.uint8)
    except MemoryError:
        raise OutOfMemoryError(f"cannot allocate {nbytes} bytes of host memory for a buffer "
                               f"of shape {shape} ({dtype.name})") from None  # fmt: skip
    start = -raw.ctypes.data % ALIGN
    return raw[start : start + nbytes].view(dtype).reshape(shape)


def _from_host(a: np.ndarray[Any, Any], written: bool, owner: object = None) -> Buffer[Any]:
    """A buffer over ``a``'s memory (``a`` C-contiguous and aligned); no copy. ``owner``: the
    array owning the memory when gpuoff does not (``residency``: foreign memory)."""
    flat = a.reshape(-1).view(np.uint8) if a.size else np.empty(0, np.uint8)
    storage = Storage(flat, written, owner)
    return Buffer(storage, 0, a.shape, _c_strides(a.shape), a.dtype)


@overload
def empty(shape: _Shape) -> Buffer[lang.f32]: ...
@overload
def empty(shape: _Shape, dtype: type[DT]) -> Buffer[DT]: ...
@overload
def empty(shape: _Shape, dtype: NumPyDType) -> Buffer[Any]: ...
@entry_point
def empty(shape: _Shape, dtype: object = lang.f32) -> Buffer[Any]:
    """An uninitialised buffer (never copied anywhere until something writes it)."""
    dt = _np_dtype(dtype)
    return _from_host(_aligned(shape_of(shape), dt, zero=False), written=False)


@overload
def zeros(shape: _Shape) -> Buffer[lang.f32]: ...
@overload
def zeros(shape: _Shape, dtype: type[DT]) -> Buffer[DT]: ...
@overload
def zeros(shape: _Shape, dtype: NumPyDType) -> Buffer[Any]: ...
@entry_point
def zeros(shape: _Shape, dtype: object = lang.f32) -> Buffer[Any]:
    """A buffer of zeros (``dtype``: ``go.f32`` (default), a NumPy dtype or its name)."""
    return _from_host(_aligned(shape_of(shape), _np_dtype(dtype), zero=True), written=True)


@overload
def full(shape: _Shape, fill_value: Any) -> Buffer[lang.f32]: ...
@overload
def full(shape: _Shape, fill_value: Any, dtype: type[DT]) -> Buffer[DT]: ...
@overload
def full(shape: _Shape, fill_value: Any, dtype: NumPyDType) -> Buffer[Any]: ...
@entry_point
def full(shape: _Shape, fill_value: Any, dtype: object = lang.f32) -> Buffer[Any]:
    """A buffer filled with ``fill_value``."""
    dt = _np_dtype(dtype)
    value = element(fill_value, dt, "fill value")
    if value.ndim:
        raise DTypeError(f"fill value {fill_value!r} is not a scalar")
    a = _aligned(shape_of(shape), dt, zero=False)
    a.fill(value)
    return _from_host(a, written=True)


@overload
def array(obj: Any, dtype: type[DT]) -> Buffer[DT]: ...
@overload
def array(obj: Any, dtype: NumPyDType | None = None) -> Buffer[Any]: ...
@entry_point
def array(obj: Any, dtype: object = None) -> Buffer[Any]:
    """A new buffer holding a copy of ``obj`` (array-like or Buffer)."""
    return _copy_of(obj, dtype)


def _refuse_masked(obj: object) -> None:
    if foreign.is_masked(obj):
        raise DTypeError(f"cannot make a buffer of {foreign.MASKED_HINT}")


def _copy_of(obj: Any, dtype: object) -> Buffer[Any]:
    _refuse_masked(obj)
    if isinstance(obj, Buffer):
        obj = obj.numpy()
    try:
        a = np.asarray(obj) if dtype is None else np.asarray(obj, dtype=_np_dtype(dtype))
    except (ValueError, OverflowError, TypeError) as exc:  # ragged, or not numbers
        what = f"{type(obj).__name__} {obj!r:.60}"
        raise ShapeError(f"cannot make a buffer of {what}: {exc}") from None
    # refuses dtypes gpuoff has no type for; the other byte order becomes the native one
    out = _aligned(a.shape, _np_dtype(a.dtype), zero=False)
    np.copyto(out, a)
    return _from_host(out, written=True)


_wrapped: weakref.WeakValueDictionary[tuple[Any, ...], Buffer[Any]] = weakref.WeakValueDictionary()
"""Buffers wrapping NumPy memory, so that wrapping one array twice gives one buffer (one set
of guards). A live buffer keeps its array alive, so the address identifies the array."""


@overload
def asarray(obj: Any, dtype: type[DT]) -> Buffer[DT]: ...
@overload
def asarray(obj: Any, dtype: NumPyDType | None = None) -> Buffer[Any]: ...
@entry_point
def asarray(obj: Any, dtype: object = None) -> Buffer[Any]:
    """``obj`` as a buffer: itself if it is one; a C-contiguous, aligned, writeable NumPy array
    of a gpuoff dtype, or an array of another library in host memory (``__dlpack__``,
    ``__array_interface__``: PyTorch, JAX, CuPy's pinned memory) meeting the same conditions,
    is wrapped without a copy (the buffer then shares the array's memory:
    between a launch and the next synchronisation point the array must be left alone, and at
    every synchronisation point both agree, on every device: docs/memory.md); anything else
    is copied."""
    if isinstance(obj, Buffer) and (dtype is None or obj.dtype == _np_dtype(dtype)):
        obj._alive()
        return obj
    _refuse_masked(obj)
    if not isinstance(obj, Buffer) and foreign.is_foreign(obj):
        obj = foreign.host_array(obj)  # torch, JAX, ...: an ndarray over their memory
    if isinstance(obj, np.ndarray):
        want = _np_dtype(obj.dtype if dtype is None else dtype)  # native byte order
        flags = obj.flags
        if obj.dtype == want and flags.c_contiguous and flags.aligned and flags.writeable:
            key = (obj.__array_interface__["data"][0], obj.shape, obj.dtype.str)
            found = _wrapped.get(key)
            if found is not None and found._moved is None:
                return found
            buf = _from_host(obj, written=True, owner=obj)
            _wrapped[key] = buf
            return buf
    return _copy_of(obj, dtype)


def read_only_buffer(a: np.ndarray[Any, Any]) -> Buffer[Any]:
    """A buffer over a read-only array for one ``Borrow`` argument of one launch (a JAX
    array's export, a read-only NumPy array): no copy when C-contiguous, aligned and native,
    and never cached in ``_wrapped``, so ``go.asarray`` cannot hand it to a writer."""
    flags = a.flags
    if flags.c_contiguous and flags.aligned and a.dtype == _np_dtype(a.dtype):
        return _from_host(a, written=True, owner=a)
    return _copy_of(a, None)


@entry_point
def from_dlpack(obj: Any) -> Buffer[Any]:
    """A buffer sharing the memory of a host DLPack producer. Memory that cannot be shared as
    it is (not C-contiguous, read-only, unaligned) is refused: a copy would lose the
    kernel's writes to it. ``go.array(obj)`` copies; a launch takes such a tensor directly.
    Memory on a device raises ``ForeignArrayError``, saying how to bring it to the host."""
    foreign.refuse_device_memory(obj)
    return asarray(shared_view(obj))
