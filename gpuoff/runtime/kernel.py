"""``@go.kernel``: the kernel object, launch configurations and the cached launch plan.

``k[grid]`` / ``k[grid, block]`` give a ``Launch``; calling it checks the arguments, finds the
plan for their signature (per argument: scalar, or array dtype + ndim + contiguity; and the
device) and runs it. A plan is made once per signature: parse the annotations, trace the source
into IR, run the compile pipeline (``gpuoff.ir.pipeline``: verify, drop provably redundant bounds
checks, ...), compile (or load from the disk cache).

Launch-time checks (``gpuoff.ir.launch_checks``): the checked module also yields a variant
without the checks a predicate over the grid, the shapes and the integer scalars proves. Each
launch evaluates the predicate (a generated closure, a few comparisons) and runs the unchecked
program when it holds, else the checked one; each variant is compiled (or loaded: its disk key
adds ``,launch-unchecked`` to the options part) on first use, and both entries hold the checked
module, so the predicate is derived again from a cache hit without the front end.

Grids: ``k[n]``, ``k[(h, w)]``, ``k[(d, h, w)]``; with a block: ``k[grid, block]`` where at
least one of the two is a tuple (``k[n, (256,)]``, ``k[(h, w), (16, 16)]``), since ``k[a, b]``
with two ints is the 2-D grid ``(a, b)``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any, Generic, ParamSpec, overload

import numpy as np

from gpuoff.errors import GpuoffError, IndexCountError, LaunchConfigError, LaunchTypeError
from gpuoff.runtime import args as A
from gpuoff.runtime import cache, debug, guards, stats
from gpuoff.runtime.buffer import Buffer, asarray, read_only_buffer
from gpuoff.runtime.devices import current_device
from gpuoff.runtime.devices.base import I64_MAX, Device, Program
from gpuoff.runtime.foreign import (
    MASKED_HINT,
    ForeignArrayError,
    host_array,
    is_foreign,
    is_masked,
    library,
    read_only_reason,
)
from gpuoff.runtime.generic import Specialiser, is_generic
from gpuoff.runtime.limits import check_geometry, check_shared
from gpuoff.runtime.plan import Plan, Repeat, Variants
from gpuoff.runtime.race_check import RaceProof
from gpuoff.runtime.tracebacks import trimmed

P = ParamSpec("P")
_SCALARS = (int, float, bool)
"""Argument types that are never arrays: the launch path checks these before probing for
array protocols."""
Dims = tuple[int, int, int]


def _dims(value: object, what: str) -> tuple[int, ...]:
    items = value if isinstance(value, tuple | list) else (value,)
    if not 1 <= len(items) <= 3:
        raise LaunchConfigError(f"a launch {what} has 1 to 3 dimensions, got {value!r}")
    out = []
    for v in items:
        if isinstance(v, bool) or not isinstance(v, int | np.integer):
            raise LaunchTypeError(
                f"a launch {what} is an int or a tuple of 1-3 ints, got {value!r}"
            )
        if v < 0:
            raise LaunchConfigError(f"a launch {what} must not be negative, got {value!r}")
        if v > I64_MAX:
            raise LaunchConfigError(f"a launch {what} dimension is at most 2**63 - 1 (ids are "
                                    f"i64), got {value!r}")  # fmt: skip
        out.append(int(v))
    return tuple(out)


def parse_config(config: object) -> tuple[Dims, Dims | None]:
    """``k[config]`` -> (grid, block or None), each padded to 3 dimensions with 1s."""
    block: tuple[int, ...] | None = None
    if (
        isinstance(config, tuple)
        and len(config) == 2
        and any(isinstance(c, tuple | list) for c in config)
    ):
        grid = _dims(config[0], "grid")
        block = _dims(config[1], "block")
    else:
        grid = _dims(config, "grid")
    g3 = (*grid, 1, 1)[:3]
    if block is None:
        return g3, None  # type: ignore[return-value]
    if len(block) != len(grid):
        raise LaunchConfigError(
            f"block {block} and grid {grid} have different numbers of dimensions"
        )
    if any(b == 0 for b in block):
        raise LaunchConfigError(f"block dimensions must be positive, got {block}")
    if any(g % b for g, b in zip(grid, block, strict=True)):
        raise LaunchConfigError(
            f"each grid dimension must be a multiple of the block's: {grid} vs {block}"
        )
    return g3, (*block, 1, 1)[:3]  # type: ignore[return-value]


class Launch(Generic[P]):
    """A kernel with its launch configuration: call it with the kernel's arguments."""

    __slots__ = ("kernel", "grid", "block", "_geometry", "_repeat", "_raced", "_children")

    def __init__(self, kernel: Kernel[P], grid: Dims, block: Dims | None) -> None:
        self.kernel = kernel
        self.grid = grid
        self.block = block
        self._geometry: tuple[Device, tuple[int, ...], int, int, tuple[int, ...], int] | None = None
        self._repeat: Repeat | None = None  # set by Plan.execute: see Plan.repeat
        self._raced: Plan | None = None  # the last plan whose race proof this launch passed
        # a generic kernel's launch: the launch of each specialisation it ran (runtime.generic)
        self._children: dict[Kernel[Any], Launch[Any]] | None = None

    def _child(self, kernel: Kernel[Any]) -> Launch[Any]:
        """This launch's configuration for ``kernel`` (a specialisation of a generic one)."""
        sub: Launch[Any] = Launch(kernel, self.grid, self.block)
        if self._children is None:
            self._children = {}
        self._children[kernel] = sub
        return sub

    def geometry(self, device: Device, fast: int = 0) -> tuple[tuple[int, ...], int, int]:
        """(abi header slots, number of groups, number of work-items) on ``device``, for a
        kernel whose fast dimension there is ``fast`` (``Device.fast_dim``: where a launch
        without a block lays out its default one).

        ``_geometry`` also keeps the header the launch-time predicate reads: the same, but with
        block and group counts 0 when the launch gave no block and the device may run another
        one than its ``default_block`` (``runs_default_block`` false: the driver chooses)."""
        geo = self._geometry
        if geo is not None and geo[0] is device and geo[5] == fast:
            return geo[1], geo[2], geo[3]
        grid = self.grid
        block = self.block
        exact = block is not None or device.runs_default_block
        if block is None:
            block = device.default_block(grid, fast)
        check_geometry(device, grid, block, self.block is not None)
        groups = tuple(-(-g // b) for g, b in zip(grid, block, strict=True))
        header = (*grid, *block, *groups)
        self._geometry = (
            device,
            header,
            groups[0] * groups[1] * groups[2],
            grid[0] * grid[1] * grid[2],
            header if exact else (*grid, 0, 0, 0, 0, 0, 0),
            fast,
        )
        return header, self._geometry[2], self._geometry[3]

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> Any:
        """Launch (asynchronously). Returns None, or the ``Owned`` arguments' new handles."""
        rep = self._repeat
        try:
            # the repeat path: the previous launch again, nothing changed since (Plan.repeat)
            if rep is not None and rep.epoch == guards.EPOCH and not kwargs \
                    and rep.plan.repeat(self, rep, args):  # fmt: skip
                return None
            return self.kernel._launch(self, args, kwargs)
        except GpuoffError as exc:
            failure = exc
        try:
            raise trimmed(failure)  # gpuoff's own frames are cut (GPUOFF_TRACEBACK=full: kept)
        finally:
            del failure  # no cycle through this frame: it would keep the arguments alive

    def __repr__(self) -> str:
        return f"<gpuoff launch {self.kernel.__name__}[{self.grid}, {self.block}]>"


class Kernel(Generic[P]):
    """A ``@go.kernel`` function: index with a grid to launch it (``k[n](*args)``)."""

    def __init__(self, pyfunc: Callable[P, Any], *, boundscheck: bool = True,
                 fastmath: bool = False, sanitize: str | None = None) -> None:  # fmt: skip
        self.pyfunc = pyfunc
        self.boundscheck = boundscheck
        self.fastmath = fastmath
        self.sanitize: str | None = None
        if sanitize is not None or os.environ.get("GPUOFF_SANITIZE"):
            from gpuoff.runtime.sanitizer import Sanitizer, sanitize_mode

            self.sanitize = sanitize_mode(sanitize)
            if self.sanitize:  # its launches go through the sanitizer (off: nothing changes)
                self._launch = Sanitizer(self).launch  # type: ignore[method-assign]
        self.__name__ = pyfunc.__name__
        self.__qualname__ = pyfunc.__qualname__
        self.__doc__ = pyfunc.__doc__
        self.__module__ = pyfunc.__module__
        self.__wrapped__ = pyfunc
        self._decls: tuple[Any, ...] | None = None
        self._plans: dict[tuple[Any, ...], Plan] = {}
        self._launches: dict[object, Launch[P]] = {}
        self._source_hash: str | None = None
        # a generic kernel: its specialisations (runtime.generic), set with ``params``; a
        # specialisation: its binding, its go.Const values and their part of the disk key
        self._spec: Specialiser | None = None
        self._binding: dict[object, Any] | None = None
        self._consts: dict[str, object] | None = None
        self._spec_tag = ""

    def __repr__(self) -> str:
        return f"<gpuoff.kernel {self.__qualname__}>"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by reference when importable, else by source (``gpuoff.shipping``): the
        receiving process compiles it (or finds it in the disk cache); plans stay here."""
        from gpuoff import shipping

        options = {"boundscheck": self.boundscheck, "fastmath": self.fastmath}
        return shipping.reduce(self, type(self), options)

    def __copy__(self) -> Kernel[P]:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Kernel[P]:
        return self

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> Any:
        raise LaunchTypeError(f"launch a kernel with a grid: {self.__name__}[n](...)")

    def __getitem__(self, config: object) -> Launch[P]:
        try:
            launch = self._launches.get(config)
        except TypeError:  # unhashable (a list)
            launch = None
        if launch is not None and type(config) is not int and not _plain_ints(config):
            launch = None  # 4.0 == 4 and True == 1 as keys: only exact ints use the cache
        if launch is None:
            grid, block = parse_config(config)
            launch = Launch(self, grid, block)
            if len(self._launches) < 256:
                try:
                    self._launches[config] = launch
                except TypeError:
                    pass
        return launch

    @property
    def params(self) -> tuple[Any, ...]:
        """The declared parameters (``frontend.ParamDecl``), read once from the annotations
        (or from the disk cache: then the front end is not even imported)."""
        if self._decls is None:
            key = cache.signature_key(self.pyfunc, self.__qualname__)
            decls: tuple[Any, ...] | None = cache.load_decls(key)
            if decls is None:
                from gpuoff.frontend import parse_signature

                decls = tuple(parse_signature(self.pyfunc))
                if is_generic(decls):  # (its generic declarations are not cached)
                    self._spec = Specialiser(self, decls)
                else:
                    cache.store_decls(key, decls)
            self._decls = decls
        return self._decls

    def _bind(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        decls = self.params
        names = [d.name for d in decls]
        if len(args) > len(decls):
            raise LaunchTypeError(
                f"{self.__name__}() takes {len(decls)} arguments, got {len(args) + len(kwargs)}"
            )
        bound: list[Any] = list(args) + [_MISSING] * (len(decls) - len(args))
        for key, value in kwargs.items():
            if key not in names:
                raise LaunchTypeError(f"{self.__name__}() has no parameter {key!r}")
            i = names.index(key)
            if bound[i] is not _MISSING:
                raise LaunchTypeError(f"{self.__name__}() got multiple values for {key!r}")
            bound[i] = value
        missing = [n for n, v in zip(names, bound, strict=True) if v is _MISSING]
        if missing:
            raise LaunchTypeError(f"{self.__name__}() is missing arguments: {', '.join(missing)}")
        return tuple(bound)

    def _launch(self, launch: Launch[P], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        decls = self._decls if self._decls is not None else self.params
        if kwargs or len(args) != len(decls):
            args = self._bind(args, kwargs)
        if self._spec is not None:  # generic: the specialisation for these arguments
            return self._spec.dispatch(launch, args)
        device = current_device()
        given = args  # the caller's objects (NumPy arrays before wrapping): for messages
        key: list[Any] = [device]
        host_arrays: list[tuple[int, np.ndarray[Any, Any], Buffer[Any]]] | None = None
        for a in args:
            if type(a) is Buffer:
                key.append(a._key)
            elif isinstance(a, np.ndarray) or (type(a) not in _SCALARS and is_foreign(a)):
                args, host_arrays = self._wrap_all(decls, args)
                key[1:] = [a._key if type(a) is Buffer else None for a in args]
                break
            else:
                key.append(None)
        tkey = tuple(key)
        plan = self._plans.get(tkey)
        if plan is None:
            launch.geometry(device)  # a grid or block the device refuses: before compiling
            plan = self._make_plan(device, decls, args, tkey, launch, given)
        if plan.pairs:  # complex arrays: the kernel sees their floats
            args = A.pair_views(args, plan.pairs)
        return plan.execute(launch, args, host_arrays)

    def _wrap_all(self, decls: tuple[Any, ...], args: tuple[Any, ...]) -> tuple[
            tuple[Any, ...], list[tuple[int, np.ndarray[Any, Any], Buffer[Any]]]]:  # fmt: skip
        """``args`` with each NumPy array, and each array of another library (as an ndarray
        over its memory: ``foreign``), replaced by a buffer over it; (index, array, buffer) of
        each."""
        host_arrays = []
        as_list = list(args)
        for i, a in enumerate(args):
            if type(a) in _SCALARS or isinstance(a, Buffer):
                continue
            shown = a
            if is_masked(a):
                raise A.type_error(self.__name__, decls[i], a, MASKED_HINT)
            if not isinstance(a, np.ndarray):
                if not is_foreign(a):
                    continue
                a = as_list[i] = self._foreign(decls[i], a)
            # a 0-d array for a scalar parameter is that scalar (check_scalar converts it)
            if decls[i].is_array or a.ndim:
                host_arrays.append((i, a, self._wrap_numpy(decls[i], a, shown)))
        if any(not np.may_share_memory(a, buf._st.host) for _, a, buf in host_arrays):
            # copied for the launch (strided, unaligned, other byte order): the copies share
            # nothing, so rule 3 is checked on the arrays they were made from
            guards.check_aliases(self.__name__, [
                guards.ArgUse(d.name, d.access, 0, 1, a._layout() if type(a) is Buffer else a)
                for d, a in zip(decls, as_list, strict=True)
                if d.is_array and isinstance(a, Buffer | np.ndarray)
            ])  # fmt: skip
        for i, _, buf in host_arrays:
            as_list[i] = buf
        return tuple(as_list), host_arrays

    def _foreign(self, decl: Any, value: Any) -> np.ndarray[Any, Any]:
        """An ndarray over a foreign array's memory for parameter ``decl`` (SPEC §4)."""
        if A.moves(decl):
            raise A.type_error(
                self.__name__, decl, value,
                f"a {library(value)} cannot be moved: its memory belongs to its library; "
                f"pass a go.Buffer (go.array(x) copies it)",
            )  # fmt: skip
        try:
            return host_array(value)
        except ForeignArrayError as exc:
            raise A.type_error(self.__name__, decl, value, exc.reason) from None

    def _wrap_numpy(self, decl: Any, a: np.ndarray[Any, Any], shown: object) -> Buffer[Any]:
        """A buffer over ``a`` for ``decl``; ``shown``: what the caller passed (a NumPy array,
        or the foreign array ``a`` is a view of), for messages."""
        if not decl.is_array:
            raise A.type_error(self.__name__, decl, shown, "an array for a scalar parameter")
        if A.moves(decl):
            raise A.type_error(
                self.__name__, decl, shown, "a NumPy array cannot be moved: pass a go.Buffer"
            )
        if a.dtype != decl.dtype.np_dtype and a.dtype.newbyteorder("=") != decl.dtype.np_dtype:
            # (the other byte order of the right dtype is converted: asarray copies it)
            raise A.type_error(self.__name__, decl, shown, f"dtype {a.dtype.name}")
        if not a.flags.writeable:
            if decl.access.exclusive:
                why = ("a read-only NumPy array" if shown is a
                       else read_only_reason(shown))  # fmt: skip
                raise A.type_error(self.__name__, decl, shown, why)
            return read_only_buffer(a)
        return asarray(a)

    def _types(self, decls: tuple[Any, ...], args: tuple[Any, ...]) -> list[Any]:
        """The IR types of a launch's arguments (``LaunchTypeError`` for a wrong one)."""
        types: list[Any] = []
        for decl, a in zip(decls, args, strict=True):
            if decl.is_array:
                A.check_array(self.__name__, decl, a)
                types.append(A.array_type(decl, a._key))
            else:
                if isinstance(a, Buffer):
                    raise A.type_error(self.__name__, decl, a, "an array for a scalar parameter")
                A.check_scalar(self.__name__, decl, a)
                types.append(decl.dtype)
        return types

    def _make_plan(self, device: Device, decls: tuple[Any, ...], args: tuple[Any, ...],
                   key: tuple[Any, ...], launch: Launch[P],
                   given: tuple[Any, ...] | None = None) -> Plan:  # fmt: skip
        types = self._types(decls, args)
        pairs = A.complex_params(decls)
        if pairs:
            args = A.pair_views(args, pairs)
        variants = None
        races = None
        try:
            if type(self)._compile is not Kernel._compile:
                # a subclass that makes its own programs (runtime.testing.PyKernel): one variant
                module, program = self._compile(device, types)
            else:
                build = _Builder(self, device, types)
                module, unchecked, program = build.first(launch, args)
                if build.holds is not None:
                    variants = Variants(build.holds, build.variant)
                    variants.programs[unchecked] = program
                disk_key = build._key(False) if build.target is not None else None
                races = RaceProof(module, disk_key, [d.name for d in decls])
        except IndexCountError as exc:
            raise self._ndim_error(exc, decls, args if given is None else given) from None
        plan = Plan(self.__name__, device, decls, key, module, program, variants, races)
        self._plans[key] = plan
        return plan

    def _ndim_error(self, exc: IndexCountError, decls: tuple[Any, ...],
                    args: tuple[Any, ...]) -> GpuoffError:  # fmt: skip
        """A parameter indexed in the kernel's own body with another number of indices than
        its argument has dimensions: the argument's ``LaunchTypeError`` (SPEC §2), pointing
        at the indexing; anything else (a device function's array) stays the CompileError."""
        code = self.pyfunc.__code__
        lines = [line for _, line, _, _ in code.co_positions() if line is not None]
        loc = exc.location
        for decl, value in zip(decls, args, strict=True):
            if (decl.is_array and decl.name == exc.array and loc is not None
                    and loc.filename == code.co_filename
                    and min(lines, default=0) <= loc.line <= max(lines, default=0)):  # fmt: skip
                if exc.at_least:
                    wants, why = f"an at least {exc.used}-d", f"reads its shape[{exc.used - 1}]"
                else:
                    n = exc.used
                    wants, why = f"a {n}-d", f"indexes it with {n} index{'es' * (n != 1)}"
                return LaunchTypeError(
                    f"{self.__name__}(): parameter {decl.name!r} expects {wants} "
                    f"{A.expected(decl)} (the kernel {why}), got {A.describe(value)}\n"
                    f"{loc.render()}"
                )
        return exc

    def _compile(self, device: Device, types: list[Any]) -> tuple[Any, Program]:
        """(checked module, its program) for argument ``types``: from the disk cache, else
        compiled. Launches do not call it (they pick a variant per launch); a subclass that
        overrides it makes every program itself and gets no unchecked variant."""
        build = _Builder(self, device, types)
        key_hit = cache.load(build._key(False)) if build.target is not None else None
        build._set_module(key_hit[0] if key_hit is not None else self._lower(types))
        return build.module, build.variant(False)

    def _lower(self, types: list[Any]) -> Any:
        """The checked module for argument ``types``: the front end, then the compile
        pipeline (``gpuoff.ir.pipeline``), each pass's IR dumped at ``GPUOFF_DEBUG=4``."""
        from gpuoff.frontend import lower_specialised
        from gpuoff.ir.pipeline import run_passes

        module = lower_specialised(self.pyfunc, tuple(types), self._binding or {},
                                   self._consts or {}, boundscheck=self.boundscheck,
                                   fastmath=self.fastmath)  # fmt: skip
        dump = self._dump_ir if debug.enabled(debug.IR) else None
        return run_passes(module, on_pass=dump)

    def _dump_ir(self, name: str, module: Any) -> None:
        from gpuoff.ir.printer import format_module

        debug.log(debug.IR, f"IR of {self.__name__} after {name}:\n{format_module(module)}")


def _plain_ints(config: object) -> bool:
    """Whether ``config`` is made of ints only (an int, a tuple of them, or two tuples)."""
    if type(config) is not tuple:
        return False
    return all(type(c) is int or (type(c) is tuple and all(type(d) is int for d in c))
               for c in config)  # fmt: skip


_MISSING: Any = object()
_UNCHECKED_TAG = ",launch-unchecked"
"""Added to the options part of the disk cache key of the variant without launch-proven
checks. Both variants' entries hold the checked module (the predicate is derived from it)."""


class _Builder:
    """Makes the programs of one specialisation on one device: the checked one and the one
    without the checks a launch-time predicate proves (``gpuoff.ir.launch_checks``), each from
    the disk cache when it is there, else compiled."""

    def __init__(self, kernel: Kernel[Any], device: Device, types: list[Any]) -> None:
        self.kernel = kernel
        self.device = device
        self.types = types
        self.sig = ", ".join(str(t) for t in types)
        self.target = device.cache_key()
        self.module: Any = None
        self.spec: tuple[Any, Any] | None = None
        self.holds: Callable[[Any, Any], bool] | None = None

    def _key(self, unchecked: bool) -> str:
        k = self.kernel
        if k._source_hash is None:
            k._source_hash = cache.source_hash(k.pyfunc)
        options = f"boundscheck={k.boundscheck},fastmath={k.fastmath}"
        options += k._spec_tag + (_UNCHECKED_TAG if unchecked else "")
        assert self.target is not None
        return cache.make_key(k._source_hash, k.__qualname__, self.sig, self.target, options)

    def _set_module(self, module: Any, from_cache: bool = False) -> None:
        check_shared(module, self.device)  # before compiling: the device could not run it
        self.module = module
        key = self._key(False) if self.target is not None else None
        found, spec = cache.load_spec(key) if from_cache and key is not None else (False, None)
        if not found:  # the analysis runs once per specialisation, then comes from the cache
            from gpuoff.ir.launch_checks import specialise

            spec = specialise(module)
            if key is not None:
                cache.store_spec(key, spec)
        self.spec = spec
        if self.spec is not None:
            self.holds = self.spec[1].compile([d.name for d in self.kernel.params])
            if debug.enabled(debug.CACHE):
                ids = ", ".join(f"c{c}" for c in self.spec[1].removed)
                debug.log(debug.CACHE, f"{self.kernel.__name__}({self.sig}): checks {ids} "
                          f"are off in launches where {self.spec[1]}")  # fmt: skip

    def first(self, launch: Launch[Any], args: tuple[Any, ...]) -> tuple[Any, bool, Program]:
        """(checked module, whether the program is the unchecked one, program) for the first
        launch, ``launch`` with ``args`` (its geometry, ``Launch.geometry``, laid out along the
        module's fast dimension on this device)."""
        start = time.perf_counter()
        hit: tuple[Any, bytes] | None = None
        hit_unchecked = False
        if self.target is not None:
            hit = cache.load(self._key(False))
            if hit is None:
                hit, hit_unchecked = cache.load(self._key(True)), True
        if hit is not None:
            self._set_module(hit[0], from_cache=True)
        else:
            self._set_module(self.kernel._lower(self.types))
        launch.geometry(self.device, self.device.fast_dim(self.module))
        assert launch._geometry is not None
        header = launch._geometry[4]
        unchecked = self.holds is not None and self.holds(header, args)
        if hit is not None and unchecked == hit_unchecked:
            stats.bump("disk_cache_hits")
            program = self.device.load(self._variant_module(unchecked), hit[1])
            debug.log(debug.CACHE, f"{self.kernel.__name__}({self.sig}) on {self.device.name}: "
                      f"disk cache hit ({(time.perf_counter() - start) * 1e3:.1f} ms)")  # fmt: skip
            return self.module, unchecked, program
        return self.module, unchecked, self.variant(unchecked)

    def _variant_module(self, unchecked: bool) -> Any:
        return self.spec[0] if unchecked and self.spec is not None else self.module

    def variant(self, unchecked: bool) -> Program:
        """The program of one variant: from the disk cache, else compiled (and stored)."""
        start = time.perf_counter()
        run = self._variant_module(unchecked)
        what = "without launch-proven checks" if unchecked else "with its checks"
        if self.target is None:
            stats.bump("compiles")
            program = self.device.compile(run)
        else:
            key = self._key(unchecked)
            hit = cache.load(key)
            if hit is not None:
                stats.bump("disk_cache_hits")
                return self.device.load(run, hit[1])
            stats.bump("compiles")
            artifact = self.device.build(run)
            cache.store(key, self.module, artifact)
            program = self.device.load(run, artifact)
        debug.log(debug.CACHE, f"{self.kernel.__name__}({self.sig}) on {self.device.name}: "
                  f"compiled {what} ({(time.perf_counter() - start) * 1e3:.1f} ms)")  # fmt: skip
        return program


@overload
def kernel(pyfunc: Callable[P, Any], /) -> Kernel[P]: ...


@overload
def kernel(
    *, boundscheck: bool = True, fastmath: bool = False, sanitize: str | None = None
) -> Callable[[Callable[P, Any]], Kernel[P]]: ...


def kernel(
    pyfunc: Callable[P, Any] | None = None, /, *, boundscheck: bool = True,
    fastmath: bool = False, sanitize: str | None = None,
) -> Kernel[P] | Callable[[Callable[P, Any]], Kernel[P]]:
    """Declare a kernel: ``@go.kernel`` or ``@go.kernel(boundscheck=True, fastmath=False)``;
    ``sanitize="race"`` runs its launches under the race sanitizer (as ``GPUOFF_SANITIZE=race``
    does for every kernel)."""
    if pyfunc is not None:
        return Kernel(pyfunc, boundscheck=boundscheck, fastmath=fastmath, sanitize=sanitize)

    def wrap(fn: Callable[P, Any]) -> Kernel[P]:
        return Kernel(fn, boundscheck=boundscheck, fastmath=fastmath, sanitize=sanitize)

    return wrap
