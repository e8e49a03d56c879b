"""Building OpenCL programs (with a driver-binary disk cache) and launching their kernel.

``OpenCLProgram.enqueue`` is the warm launch path: it flattens the launch arguments following
the argument plan made when the program was built (per parameter: buffer, element offset,
shape, strides); when they differ from the previous launch's it hands them all to pyopencl's
generated ``set_args`` (argument types were fixed once with ``set_scalar_arg_dtypes``), else it
sets only the error-record slot (checked kernels) or nothing; then it enqueues the kernel with
global and local sizes computed once per (grid, block).
"""

from __future__ import annotations

import hashlib
import linecache
import math
import operator
import os
import re
import struct
import sys
import tempfile
import threading
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from gpuoff.errors import CompileError, DeviceError, LaunchConfigError, SourceLocation
from gpuoff.ir.nodes import Module
from gpuoff.runtime import debug
from gpuoff.runtime.devices.base import LaunchArg, Program

if TYPE_CHECKING:
    from codegen.opencl import KernelArg, OpenCLSource


class BuildTarget(Protocol):
    """What building a program needs of its device (``OpenCLDevice``)."""

    @property
    def name(self) -> str: ...  # "opencl:0", for messages

    @property
    def description(self) -> str: ...  # the device and driver, for messages

    @property
    def context(self) -> Any: ...  # the pyopencl Context

    @property
    def cl_device(self) -> Any: ...  # the pyopencl Device


EXACT_AFTER = 3
"""A program gets its exact-grid build at its this-many-th launch whose global size is the
grid: a kernel launched once or twice is built once (a first launch costs one build), a loop
of launches gets the faster build."""
_NP_ARG = {"float": np.float32, "double": np.float64, "half": np.float16, "int": np.int32,
           "long": np.int64, "uint": np.uint32, "uchar": np.uint8, "char": np.int8,
           "short": np.int16, "ushort": np.uint16, "ulong": np.uint64}  # fmt: skip


class OpenCLProgram(Program):
    """A built OpenCL program with its kernel and argument plan."""

    def __init__(
        self, module: Module, source: OpenCLSource, cl_program: Any, build_log: str
    ) -> None:
        import pyopencl as cl

        self.module = module
        self.source = source
        self.cl_program = cl_program
        self.build_log = build_log
        self.uses_barrier = source.uses_barrier
        self.checked = source.has_checks
        self.kernel: Any = self._kernel_of(cl_program)
        # The build without the test of ids past the grid (codegen.opencl.EXACT_GRID_OPTION)
        # for launches whose global size is the grid, made by ``exact_builder`` (set by the
        # device) after EXACT_AFTER of them (``_tier_up``). Kernels with barriers have no test.
        self.exact_builder: Callable[[], Any] | None = None
        self._exact_kernel: Any = None
        self._exact_wanted = 0  # launches so far that could have used it
        self._active: Any = self.kernel  # the kernel whose arguments were set last
        # the argument values but the record slot, made by code generated from source.args
        self._head = _head_maker(module, source)
        self._has_slot = bool(source.args) and source.args[-1].kind == "err_slot"
        self._lock = threading.Lock()
        self._last: list[Any] = []  # argument values of the previous launch, but its slot
        self._last_slot = -1
        self._slot_index = len(source.args) - 1  # the error-record slot: the last argument
        # (arguments, grid, block, err, sizes) of the previous launch, for the warm case
        self._last_launch: tuple[list[Any], Any, Any, Any, Any] | None = None
        self._sizes: dict[Any, tuple[tuple[int, ...], tuple[int, ...] | None]] = {}
        self.last_items = 0  # work-items (global size) of the previous launch
        # The binding itself, called with positional arguments only (no keyword handling).
        self._enqueue_nd_range: Any = cl._cl.enqueue_nd_range_kernel
        self._max_group_items: int | None = None

    @property
    def max_group_items(self) -> int:
        """The most work-items per work-group this kernel allows on its device (the driver
        may allow fewer than the device's maximum for a kernel that needs many resources)."""
        if self._max_group_items is None:
            import pyopencl as cl

            device = self.kernel.context.devices[0]
            info = cl.kernel_work_group_info.WORK_GROUP_SIZE
            self._max_group_items = int(self.kernel.get_work_group_info(info, device))
        return self._max_group_items

    def _kernel_of(self, cl_program: Any) -> Any:
        """The program's kernel with its argument types fixed (``set_args`` packs by them)."""
        import pyopencl as cl
        from pyopencl import cltypes

        kernel = cl.Kernel(cl_program, self.source.kernel_name)
        dtypes: list[Any] = []
        for a in self.source.args:
            if a.kind in ("buffer", "err"):
                dtypes.append(None)
            elif a.kind == "meta":  # a long vector: set from its packed bytes
                dtypes.append(getattr(cltypes, a.ctype))
            else:
                dtypes.append(_NP_ARG[a.ctype] if a.kind == "scalar" else np.int64)
        kernel.set_scalar_arg_dtypes(dtypes)
        return kernel

    def _kernel_for(self, grid: tuple[int, int, int], gsize: tuple[int, ...]) -> Any:
        """The kernel for a launch of global size ``gsize`` over ``grid``: the exact build
        when they are equal (made on first use), else the one that tests ids."""
        if self._exact_kernel is None or gsize != grid[: len(gsize)]:
            return self.kernel
        return self._exact_kernel

    def _tier_up(self, launches: int) -> None:
        """Count ``launches`` more of the previous launch; once ``EXACT_AFTER`` of them had a
        global size equal to the grid, build the exact-grid kernel and move the previous
        launch's arguments onto it (the caller holds ``_lock``)."""
        last = self._last_launch
        if self.exact_builder is None or self.uses_barrier or last is None:
            return
        gsize, grid = last[4][0], last[1]
        if gsize != grid[: len(gsize)]:
            return
        self._exact_wanted += launches
        if self._exact_wanted < EXACT_AFTER:
            return
        kernel = self._exact_kernel = self._kernel_of(self.exact_builder())
        self.exact_builder = None  # built: nothing more to count
        if self._has_slot:
            kernel.set_args(*self._last, self._last_slot)
        else:
            kernel.set_args(*self._last)
        self._active = kernel

    def flatten(
        self, args: Sequence[LaunchArg], grid: tuple[int, int, int], err: Any, slot: int
    ) -> list[Any]:
        """The kernel's argument values for one launch (``source.args``, in order)."""
        vals = self._head(args, grid, err)
        if self._has_slot:
            vals.append(slot)
        return vals

    def sizes(
        self, grid: tuple[int, int, int], block: tuple[int, int, int] | None
    ) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
        """(global size, local size or None) asked of the driver for a launch (cached)."""
        key = (grid, block)
        known = self._sizes.get(key)
        if known is not None:
            return known
        dims = 3 if grid[2] > 1 or (block and block[2] > 1) else (
            2 if grid[1] > 1 or (block and block[1] > 1) else 1)  # fmt: skip
        if block is None:
            gsize: tuple[int, ...] = grid[:dims]
            lsize: tuple[int, ...] | None = None
        else:
            gsize = tuple(-(-g // b) * b for g, b in zip(grid[:dims], block[:dims], strict=True))
            lsize = block[:dims]
            if self.uses_barrier and gsize != grid[:dims]:
                # Rounding needs the early return of surplus work-items, which a barrier
                # forbids (codegen.opencl emits no such guard in barrier kernels).
                raise LaunchConfigError(f"kernel {self.module.name} uses barrier(): its "
                                        f"grid {grid} must be a multiple of the block "
                                        f"{block}")  # fmt: skip
            items = math.prod(lsize)
            if items > self.max_group_items:
                raise LaunchConfigError(
                    f"block {block} has {items} work-items; kernel {self.module.name} allows "
                    f"at most {self.max_group_items} per work-group on this device (the "
                    f"driver's CL_KERNEL_WORK_GROUP_SIZE)"
                )
        if len(self._sizes) < 64:
            self._sizes[key] = (gsize, lsize)
        return gsize, lsize

    def enqueue(
        self,
        queue: Any,
        args: Sequence[LaunchArg],
        grid: tuple[int, int, int],
        block: tuple[int, int, int] | None,
        err: Any,
        slot: int,
    ) -> Any:
        """Set the arguments and enqueue one launch; returns the ``cl.Event``."""
        with self._lock:  # set_args and enqueue must not interleave with another thread's
            last = self._last_launch
            if last is not None and _same_objects(args, last[0]) and grid == last[1] \
                    and block == last[2] and err is last[3]:  # fmt: skip
                # The warm case: the previous launch's very argument objects (the runtime
                # caches one per buffer and device): nothing to flatten or set.
                gsize, lsize = last[4]
            else:
                gsize, lsize = self.sizes(grid, block)
                kernel = self._kernel_for(grid, gsize)
                if kernel is not self._active:  # its arguments are another launch's
                    self._active, self._last, self._last_slot = kernel, [], -1
                head = self._head(args, grid, err)
                self._last_launch = (list(args), grid, block, err, (gsize, lsize))
                self.last_items = math.prod(gsize)
                if _differ(head, self._last):
                    # pyopencl's generated set_args packs every argument in about a
                    # microsecond (Kernel.set_arg for a single one is far slower)
                    if self._has_slot:
                        kernel.set_args(*head, slot)
                    else:
                        kernel.set_args(*head)
                    self._last = head
                    self._last_slot = slot
            return self._enqueue_locked(queue, gsize, lsize, slot)

    def _enqueue_locked(self, queue: Any, gsize: Any, lsize: Any, slot: int) -> Any:
        """Set the record slot if it moved, then enqueue (the caller holds ``_lock``)."""
        if self.exact_builder is not None:
            self._tier_up(1)
        kernel = self._active
        if slot != self._last_slot and self._has_slot:
            # A loop of checked launches: only the record slot moves, set as raw bytes.
            kernel._set_arg_buf(self._slot_index, slot.to_bytes(8, sys.byteorder))
            self._last_slot = slot
        try:
            return self._enqueue_nd_range(queue, kernel, gsize, lsize, None, None, False, False)
        except Exception as exc:
            raise self._failed(gsize, lsize, exc) from exc

    def _failed(self, gsize: Any, lsize: Any, exc: Exception) -> DeviceError:
        return DeviceError(
            f"launch of kernel {self.module.name} over {gsize} in groups of {lsize} failed: {exc}"
        )

    def enqueue_again(self, queue: Any, slot: int) -> Any:
        """Enqueue the previous launch again (its arguments are still set), writing its
        error record to ``slot``; returns the ``cl.Event``."""
        with self._lock:
            last = self._last_launch
            assert last is not None, "enqueue_again before any enqueue"
            gsize, lsize = last[4]
            return self._enqueue_locked(queue, gsize, lsize, slot)

    def enqueue_repeated(self, queue: Any, count: int) -> Any:
        """Enqueue the previous launch ``count`` more times (a kernel without checks: no
        record slot), in one burst; returns the last ``cl.Event``."""
        with self._lock:
            last = self._last_launch
            assert last is not None and count > 0, "enqueue_repeated before any enqueue"
            if self.exact_builder is not None:
                self._tier_up(count)
            kernel, enqueue = self._active, self._enqueue_nd_range
            gsize, lsize = last[4]
            try:
                for _ in range(count - 1):
                    enqueue(queue, kernel, gsize, lsize, None, None, False, False)
                return enqueue(queue, kernel, gsize, lsize, None, None, False, False)
            except Exception as exc:
                raise self._failed(gsize, lsize, exc) from exc


def _head_maker(module: Module, source: OpenCLSource) -> Callable[..., list[Any]]:
    """``head(args, grid, err)``: the values of ``source.args`` but a trailing record slot,
    from the launch arguments (``ArrayArg``s and scalars), the grid and the record buffer;
    generated once per program, so a launch with new arguments builds one list."""
    params = module.kernel.params
    scope: dict[str, Any] = {}

    def value(a: KernelArg) -> str:
        if a.kind == "buffer":
            return f"args[{a.param}].allocation.handle"
        if a.kind == "offset":
            item = params[a.param].type.dtype.itemsize  # type: ignore[union-attr]
            return f"offset(args[{a.param}], {item})"
        if a.kind == "shape":
            return f"args[{a.param}].shape[{a.dim}]"
        if a.kind == "stride":
            return f"args[{a.param}].strides[{a.dim}]"
        if a.kind == "scalar":
            return f"args[{a.param}]"
        if a.kind == "grid":
            return f"grid[{a.dim}]"
        if a.kind == "meta":  # the vector's bytes: its parts, then zeros up to its lanes
            lanes = int(a.ctype.removeprefix("long"))
            scope[f"pack_{a.name}"] = struct.Struct(f"={lanes}q").pack
            values = [value(p) for p in a.parts] + ["0"] * (lanes - len(a.parts))
            return f"pack_{a.name}({', '.join(values)})"
        assert a.kind == "err", a.kind
        return "err"

    parts = [value(a) for a in source.args if a.kind != "err_slot"]
    code = f"def head(args, grid, err):\n    return [{', '.join(parts)}]\n"
    name = module.name

    def offset(a: Any, itemsize: int) -> int:
        if a.offset % itemsize:
            raise DeviceError(f"kernel {name}: an array view starts at byte {a.offset}, "
                              f"not a multiple of its item size {itemsize}")  # fmt: skip
        return int(a.offset // itemsize)

    scope["offset"] = offset
    exec(compile(code, f"<gpuoff opencl arguments of {name}>", "exec"), scope)  # noqa: S102
    head: Callable[..., list[Any]] = scope["head"]
    return head


def _same_objects(a: Sequence[Any], b: list[Any]) -> bool:
    """Whether ``a`` and ``b`` hold the same objects, in order (identity: ``0.0 == -0.0``)."""
    return len(a) == len(b) and all(map(operator.is_, a, b))


def _differ(head: list[Any], last: list[Any]) -> bool:
    """Whether argument values ``head`` differ from ``last``: ``!=``, and a zero of the
    other sign (``0.0 == -0.0``, but ``1 / a`` tells them apart)."""
    if head != last:
        return True
    return any(
        type(a) is float and a == 0.0 and math.copysign(1.0, a) != math.copysign(1.0, b)
        for a, b in zip(head, last, strict=True)
    )


def build_program(
    device: BuildTarget, module: Module, source: OpenCLSource, binary_path: Path | None
) -> OpenCLProgram:
    """Build ``source`` for ``device``: from the cached driver binary at ``binary_path`` when
    there is one the driver accepts, else from source (then store the binary)."""
    prg, log = build_cl_program(device, module, source, binary_path)
    return OpenCLProgram(module, source, prg, log)


def build_cl_program(
    device: BuildTarget, module: Module, source: OpenCLSource, binary_path: Path | None,
    extra_options: Sequence[str] = (),
) -> tuple[Any, str]:  # fmt: skip
    """``build_program``'s ``cl.Program`` and build log, built with ``source``'s options and
    ``extra_options``."""
    cl: Any = __import__("pyopencl")
    with warnings.catch_warnings():
        # pyopencl warns about any driver output and about reading a failed program's log;
        # gpuoff reads the log itself and reports what is in it
        warnings.simplefilter("ignore", cl.CompilerWarning)
        warnings.filterwarnings("ignore", "Pre-build attribute access", UserWarning)
        return _build(cl, device, module, source, binary_path, extra_options)


def _build(
    cl: Any, device: BuildTarget, module: Module, source: OpenCLSource,
    binary_path: Path | None, extra_options: Sequence[str],
) -> tuple[Any, str]:  # fmt: skip
    options = [*source.build_options, *extra_options]
    dev = device.cl_device
    binary = _load(binary_path) if binary_path is not None else None
    if binary is not None and binary_path is not None:
        try:
            prg = cl.Program(device.context, [dev], [binary])
            prg.build(options=options)
            debug.log(debug.CACHE, f"opencl binary cache hit: {module.name} ({binary_path.name})")
            return prg, ""
        except Exception:  # noqa: BLE001 - a stale or foreign binary: rebuild from source
            debug.log(debug.CACHE, f"opencl binary cache entry rejected: {binary_path.name}")
    prg = cl.Program(device.context, source.text)
    try:
        prg.build(options=options)
    except cl.Error as exc:
        try:
            log = driver_messages(str(prg.get_build_info(dev, cl.program_build_info.LOG)))
        except Exception:  # noqa: BLE001
            log = ""
        # Intel's CPU runtime leaves the program's log empty and puts it in the error
        log = log or driver_messages(str(exc))
        raise CompileError(
            f"the OpenCL driver for {device.name} ({device.description}) rejected the code "
            f"generated for kernel {module.name!r} (a gpuoff bug: please report it with this "
            f"message); build log:\n{log.strip()}",
            _user_line(module, source.text, log),
        ) from None
    log = driver_messages(str(prg.get_build_info(dev, cl.program_build_info.LOG)))
    if binary_path is not None:
        _store(binary_path, prg.get_info(cl.program_info.BINARIES)[0])
    return prg, log


def _user_line(module: Module, text: str, log: str) -> SourceLocation:
    """The user's line behind the first C line the driver's log names (each generated
    statement ends with a ``/* file.py:LINE */`` comment), else the kernel's ``def``."""
    lines = text.splitlines()
    m = re.search(r":(\d+):\d+: (?:fatal )?error", log)
    if m is not None:
        for k in range(min(int(m.group(1)), len(lines)) - 1, -1, -1):
            found = re.search(r"/\* [^ ]+:(\d+) \*/\s*$", lines[k])
            if found is not None:
                line = int(found.group(1))
                return SourceLocation(module.kernel.filename, line, 0, _file_line(
                    module.kernel.filename, line))  # fmt: skip
    first = module.kernel.firstlineno
    return SourceLocation(module.kernel.filename, first, 0,
                          _file_line(module.kernel.filename, first))  # fmt: skip


def _file_line(filename: str, line: int) -> str:
    return linecache.getline(filename, line).rstrip("\n")


_PROGRESS_LINES = re.compile(
    r"^(Device build started|Device build done|Options used by backend compiler:.*|"
    r"Reload Program Binary Object\.|Compilation started|Compilation done|Linking started|"
    r"Linking done|Kernel .* was (successfully|not) vectorized.*|Done\.|"
    r"remark: .*)$"
)
"""Lines some drivers (Intel's CPU runtime) print for every build: progress and optimisation
remarks, not diagnostics."""


def driver_messages(log: str) -> str:
    """A build log without the driver's progress lines: what is left is a warning or error."""
    kept = [line for line in log.strip().splitlines() if not _PROGRESS_LINES.match(line.strip())]
    return "\n".join(kept).strip()


_MAGIC = b"gpuoff opencl binary 1\n"
"""The head of a cached driver binary, followed by the SHA-256 of the binary and the binary."""


def _load(path: Path) -> bytes | None:
    """The driver binary cached at ``path``, or None when there is none or it is not exactly
    what was stored (truncated, damaged, of an older format): a driver handed a damaged binary
    may crash the process (PoCL did), so it never sees one."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(_MAGIC) + 32
    digest = data[len(_MAGIC) : head]
    if not data.startswith(_MAGIC) or hashlib.sha256(data[head:]).digest() != digest:
        if data:
            debug.log(debug.CACHE, f"opencl binary cache entry damaged, ignored: {path.name}")
        return None
    return data[head:]


def _store(path: Path, data: bytes) -> None:
    """Write ``data`` atomically (a concurrent reader sees the old file or the new one), with
    the digest ``_load`` checks."""
    if not data:
        return
    data = bytes(data)
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(_MAGIC + hashlib.sha256(data).digest() + data)
        os.replace(tmp, path)
    except OSError as exc:
        debug.log(debug.CACHE, f"opencl binary cache not written ({exc})")
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
