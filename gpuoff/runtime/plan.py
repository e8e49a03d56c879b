"""The cached launch plan of one kernel specialisation on one device.

``Plan.execute`` is the warm launch path. Under ``guards.LOCK`` it checks every array argument
together (moved handles, aliasing, open host views) before anything changes; collects the
events of conflicting in-flight work to order the launch after; makes the arguments valid on
the device (residency); packs the arguments and launches; then records the new borrows, the
new residency and the moves. Any error before the launch leaves every argument as it was. A
plan with ``Variants`` first picks the program: the one without launch-proven bounds checks
when the launch satisfies its predicate, else the checked one.

Everything that depends only on the signature is made once per plan, so a warm launch builds
almost nothing. Scalars are checked once (an exact-type range test; ``check_scalar`` converts
only the others). Host-memory devices get the arguments packed by one ``pack_into`` call
generated for the signature, from the raw pointers cached on each Buffer. Other devices get one
``ArrayArg`` per array argument, cached per parameter for the last buffer passed there (a weak
reference) and the storage's allocation on the device (a new allocation makes a new one); the
OpenCL program then recognises a launch repeating the previous one's argument objects and sets
nothing. A loop of launches on one buffer updates that buffer's last use in place (the new use
supersedes it, as ``guards.prune`` would decide) instead of adding one per launch.

The repeat path (``Plan.repeat``, tried first by ``Launch.__call__``): on a device with its own
memory that offers ``relaunch``, a launch with the very argument objects of the previous launch
of the same ``Launch``, on the same device, while ``guards.EPOCH`` is unchanged, would pass
every check the same way and change nothing but the event of its uses; it only asks the
device to launch the program again and records the new event. On the cpu device a small
launch runs again on the calling thread (``launch_inline``), a large one goes to the pool
after the previous one's event, with this plan's packed arguments (``_repeat_inline``).
"""

from __future__ import annotations

import ctypes
import struct
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from codegen import abi
from gpuoff.errors import GpuoffError
from gpuoff.ir.nodes import Module
from gpuoff.ownership import Access
from gpuoff.runtime import args as A
from gpuoff.runtime import debug, guards, stats
from gpuoff.runtime.buffer import Buffer
from gpuoff.runtime.devices import current_device
from gpuoff.runtime.devices.base import (
    AllOf,
    ArrayArg,
    Device,
    DoneEvent,
    Event,
    HeldRelaunch,
    InlineLaunch,
    LaunchArg,
    PackedLaunch,
    Program,
    Relaunch,
)
from gpuoff.runtime.race_check import RaceProof
from gpuoff.runtime.residency import location

_DONE = DoneEvent()
_COUNTS = stats._counts  # the runtime's counters (reset in place, never replaced)
_guards_on = True


def set_guards(enabled: bool) -> None:
    """Turn the borrow guards off (``False``) or on, for measuring their cost only.

    Unsafe when off: no alias, move or host-view checks, no ordering of conflicting launches,
    no residency updates. Meant for benchmarks reporting what the guards cost."""
    global _guards_on
    _guards_on = enabled


class Variants:
    """A kernel's checked program and its program without the checks a launch-time predicate
    proves (``gpuoff.ir.launch_checks``), each made on first use by ``make(unchecked)``."""

    __slots__ = ("holds", "programs", "make")

    def __init__(self, holds: Callable[[Sequence[int], Sequence[Any]], bool],
                 make: Callable[[bool], Program]) -> None:  # fmt: skip
        self.holds = holds
        self.programs: list[Program | None] = [None, None]
        self.make = make

    def program(self, header: Sequence[int], args: Sequence[Any]) -> Program:
        """The program for a launch with geometry ``header`` (grid, block and groups, as
        ``Launch.geometry`` gives it) and ``args``: unchecked when it is safe."""
        unchecked = self.holds(header, args)
        program = self.programs[unchecked]
        if program is None:
            program = self.programs[unchecked] = self.make(unchecked)
        return program


HostArrays = list[tuple[int, np.ndarray[Any, Any], Buffer[Any]]]
"""NumPy arguments of a launch: (parameter index, the array, the buffer standing for it)."""
_INF = float("inf")
_EXCLUSIVE = frozenset(a for a in Access if a.exclusive)


class Plan:
    """Compiled program + argument packer + guard plan for one signature on one device."""

    def __init__(self, kernel: str, device: Device, decls: Sequence[Any], key: tuple[Any, ...],
                 module: Module, program: Program, variants: Variants | None = None,
                 races: RaceProof | None = None) -> None:  # fmt: skip
        self.kernel = kernel
        self.races = races
        self.race_each = False  # the race proof rests on conditions checked at every launch
        self.variants = variants
        self.device = device
        self.decls = tuple(decls)
        self.pairs = A.complex_params(self.decls)  # complex arrays, passed as Buffer._pairs
        self.module = module
        self.program = program
        self.fast_dim = device.fast_dim(module)  # the default block's layout (Launch.geometry)
        self.arrays: tuple[tuple[int, str, Access], ...] = tuple(
            (i, d.name, d.access) for i, d in enumerate(decls) if d.is_array
        )
        self.owned = tuple(i for i, d in enumerate(decls) if A.moves(d))
        self.array_idx = tuple(i for i, _, _ in self.arrays)
        # pairs of array arguments that must not overlap (at least one exclusive)
        self.alias_pairs = tuple(
            (a[0], b[0])
            for n, a in enumerate(self.arrays)
            for b in self.arrays[n + 1 :]
            if a[2].exclusive or b[2].exclusive
        )
        self.host_loc = device.host_memory
        self.loc = location(device)
        self.only_here = frozenset({self.loc})
        self.commit_arrays = tuple((i, access, access.exclusive) for i, _, access in self.arrays)
        self.order_arrays = tuple((i, name, access.exclusive) for i, name, access in self.arrays)
        # per scalar parameter: (index, exact Python type, lo, hi) accepted without check_scalar
        self.scalars = tuple((i, *_fast_range(d)) for i, d in enumerate(decls) if not d.is_array)
        fmt = "<" + "q" * abi.HEADER_SLOTS
        for i, d in enumerate(decls):
            ndim = key[1 + i][1] + d.dtype.is_complex if d.is_array else 0  # (Buffer._pairs)
            fmt += A.slot_format(d, ndim)
        self.struct = struct.Struct(fmt)
        self.block = ctypes.create_string_buffer(max(self.struct.size, 8))
        self.pack = _packer(self.struct, self.block, self.decls)
        self._find_fast_paths(device)
        self._same = _identity_test(self.decls)
        # per parameter: the last array argument's device argument, (buffer ref, ArrayArg,
        # the storage's allocation record it was made from: a new one invalidates it)
        self._arg_cache: list[tuple[weakref.ref[Any], ArrayArg, object] | None]
        self._arg_cache = [None] * len(decls)

    def _find_fast_paths(self, device: Device) -> None:
        """The device's fast paths (the capability classes of ``devices.base``), found once
        per plan: packed launches on a host-memory device, and there running a repeated small
        launch on this thread; else the repeat path (``repeat``) of a device with its own
        memory, and its held batches. Kernels that move arguments never repeat."""
        # the device itself, typed by its capability: calling a method on it allocates no
        # bound method per launch (a stored bound method would)
        self._packed: PackedLaunch[Any] = _NOT_PACKED
        self._inline: Callable[..., Event | None] | None = None
        self._relaunch: Callable[[Program], Event | None] | None = None
        self._join: Callable[[Event], bool] | None = None
        if device.host_memory and isinstance(device, PackedLaunch):
            self._packed = device
            if not self.owned and isinstance(device, InlineLaunch):
                self._inline = device.launch_inline
        elif not self.owned and isinstance(device, Relaunch):
            self._relaunch = device.relaunch
            if isinstance(device, HeldRelaunch):
                self._join = device.join
        self.fast = self._packed is not _NOT_PACKED

    # -- the warm path -------------------------------------------------------------------------

    def execute(self, launch: Any, args: tuple[Any, ...], host_arrays: HostArrays | None) -> Any:
        """Check, order, move data, pack and launch; return the moved buffers' new handles."""
        geo = launch._geometry
        if geo is None or geo[0] is not self.device or geo[5] != self.fast_dim:
            # checks the grid and block against the device
            launch.geometry(self.device, self.fast_dim)
            geo = launch._geometry
        if launch._raced is not self or self.race_each:  # once per configuration and plan
            races = self.races
            if races is not None:
                races.check(launch.grid, launch.block, args)
                self.race_each = races.per_launch
            launch._raced = self
        given = args  # the caller's objects: what a repeat compares with
        for i, kind, lo, hi in self.scalars:
            a = args[i]
            if type(a) is not kind or not lo <= a <= hi:
                args = self._convert_scalars(args)
                break
        # after the scalar checks: the predicate reads integer arguments
        variants = self.variants
        if variants is None:
            program = self.program
        else:
            program = variants.programs[variants.holds(geo[4], args)] or variants.program(
                geo[4], args
            )
        with guards.LOCK:
            # whatever happens below, a repeat of any earlier launch must check again: this
            # launch changes the state (and the program's arguments set on the device)
            guards.new_epoch()
            if _guards_on:
                waits = self._check(args)
                event = self._run(launch, program, args, waits, geo)
                made: list[guards.Use] = []
                try:
                    stats.launched()
                    result = self._commit(args, event, made)
                except BaseException:  # an interrupt (Ctrl-C) after the launch was made
                    guards.track(event, args)  # synchronize() waits for it; args stay alive
                    raise
                if host_arrays is None and (
                    (self._relaunch is not None and len(made) == len(self.array_idx)
                     and not any(args[i]._st.foreign for i in self.array_idx))
                    or (self._inline is not None and (
                        type(event) is DoneEvent  # ran here, fine
                        or (len(made) == len(self.array_idx) and not event.inline)))
                ):  # fmt: skip
                    launch._repeat = Repeat(self, program, given, made, event)
            else:  # measurement only: no checks, no ordering, no bookkeeping
                waits = []
                event = self._run(launch, program, args, waits, geo)
                stats.launched()
                result = None
        if debug._level:
            debug.log(debug.LAUNCHES, f"launch {self.kernel}[{launch.grid}, {launch.block}] on "
                      f"{self.device.name}: {geo[3]} items, waits on {len(waits)}, "
                      f"{'done' if event.done() else 'async'}"
                      f"{self._variant_note(program)}")  # fmt: skip
        try:
            if host_arrays:
                self._finish_host_arrays(event, host_arrays)
            elif type(event) is not DoneEvent and event.inline:
                # the device ran it on this thread (an error is known now): raise it right away
                guards.settle(event)
                guards.raise_deferred()
        except BaseException:
            # the caller never gets the moved handles: the ones it passed stay its way in
            if result is not None:
                for i, new in zip(self.owned, result if len(self.owned) > 1 else (result,),
                                  strict=True):  # fmt: skip
                    args[i]._move_undone(new)
            raise
        return result

    def repeat(self, launch: Any, rep: Repeat, args: tuple[Any, ...]) -> bool:
        """Launch again as ``rep`` recorded, if ``args`` are the very objects of that launch
        and the guard state is unchanged since (``guards.EPOCH``); False (nothing done) else.

        Every check of ``execute`` would pass the same way: the buffers are alive and not
        moved (a move changes the epoch), have no host views and the same residency, and the
        only use each got since is the one recorded, which the new launch supersedes on the
        device's in-order queue. So this enqueues the program as it was last set up, points
        those uses at the new event and tracks it."""
        if not self._same(args, rep.args) or debug._level or current_device() is not self.device:
            return False
        if self._inline is not None:
            return self._repeat_inline(launch, rep, args)
        join = self._join
        if join is not None and join(rep.event):
            # held with the previous launch, under its event (``OpenCLDevice.join``): the
            # uses keep that event, and the guard lock is not needed (see ``join``)
            next(stats.TICKS)
            return True
        relaunch = self._relaunch
        assert relaunch is not None
        with guards.LOCK:
            if guards.EPOCH != rep.epoch:
                return False
            event = relaunch(rep.program)
            if event is None:  # the device cannot repeat this one: the full path
                return False
            _COUNTS["launches"] += 1  # stats.launched(), inlined: the caller holds the lock
            for use in rep.uses:
                use.event = event
            pending = guards._pending
            if pending and pending[-1][0] is rep.event and not rep.program.checked:
                # the previous launch of this loop: no error to report, and the new one keeps
                # the same arguments alive for longer
                pending[-1] = (event, args)
            else:
                guards.track(event, args)
            rep.event = event
        return True

    def _repeat_inline(self, launch: Any, rep: Repeat, args: tuple[Any, ...]) -> bool:
        """``repeat`` on a host-memory device, with the same packed arguments (this plan's
        block, which only a launch through this plan rewrites).

        A recorded launch that ran on this thread left no use behind: running it again here
        changes nothing else (False when the device would not run it inline now). One that
        went to the device's pool left its uses with its event: the new launch starts after
        that event (``launch_packed``'s ``wait_for``), which the full path's checks would
        have waited for too (no other use of these arguments came since: the epoch), so its
        event implies the recorded one, and the uses move to it."""
        geo = launch._geometry
        inline = self._inline
        assert inline is not None
        with guards.LOCK:
            if guards.EPOCH != rep.epoch:
                return False
            previous = rep.event
            if type(previous) is DoneEvent:
                event = inline(rep.program, self.block, geo[2], geo[3], (self, args))
                if event is None:
                    return False
            else:
                event = self._packed.launch_packed(
                    rep.program, self.block, geo[2], geo[3], [previous], (self, args)
                )
                for use in rep.uses:
                    use.event = event
                if not event.done():
                    guards.track(event, args)
                rep.event = event
            _COUNTS["launches"] += 1
        if type(event) is not DoneEvent and event.inline:  # its bounds error: raised now
            guards.settle(event)
            guards.raise_deferred()
        return True

    def _convert_scalars(self, args: tuple[Any, ...]) -> tuple[Any, ...]:
        """``args`` with every scalar converted by ``check_scalar`` (which raises the
        ``LaunchTypeError`` of one that does not fit)."""
        out = list(args)
        for i, _, _, _ in self.scalars:
            out[i] = A.check_scalar(self.kernel, self.decls[i], args[i])
        return tuple(out)

    def _variant_note(self, program: Program) -> str:
        if self.variants is None:
            return ""
        unchecked = program is self.variants.programs[1]
        return ", launch-proven checks off" if unchecked else ", all checks on"

    def _check(self, args: tuple[Any, ...]) -> list[Event]:
        """All rules, before anything changes; the in-flight events to order after."""
        busy = views = False
        for i in self.array_idx:
            buf = args[i]
            if buf._moved is not None:
                raise buf._moved.error(buf._describe())
            st = buf._st
            if st.uses:
                busy = True
            if st.host_views:
                views = True
        for i, j in self.alias_pairs:
            a, b = args[i], args[j]
            if a._alo < b._ahi and b._alo < a._ahi and a._alo < a._ahi and b._alo < b._ahi:
                guards.check_aliases(self.kernel, [
                    guards.ArgUse(name, access, args[k]._alo, args[k]._ahi, args[k]._layout())
                    for k, name, access in self.arrays
                ])  # fmt: skip
        waits: list[Event] = []
        if views:
            self._check_host_views(args)
        if not busy:
            return waits
        for i, _, exclusive in self.order_arrays:
            buf = args[i]
            uses = buf._st.uses
            if not uses:
                continue
            # A lone use of an asynchronous device is not polled: ordering after finished
            # work costs nothing, the commit replaces it (a loop of launches), and its errors
            # surface through guards.track like every launch's. Host-memory devices mostly
            # finish inline (no new use): there a finished one is dropped, or it would stay.
            if len(uses) > 1 or (self.host_loc and uses[0].event.done()):
                guards.prune(uses)
            # guards.conflicting_events, inlined: a use conflicts when either side writes
            # (ownership.conflicts) and the byte ranges overlap (ownership.ranges_overlap)
            lo, hi = buf._lo, buf._hi
            for u in uses:
                if (
                    (exclusive or u.access in _EXCLUSIVE)
                    and u.lo < u.hi and lo < hi and u.lo < hi and lo < u.hi
                ):  # fmt: skip
                    waits.append(u.event)
        return waits

    def _check_host_views(self, args: tuple[Any, ...]) -> None:
        """Rule 2 against open host views (``BorrowError`` on a conflict)."""
        for i, name, access in self.arrays:
            buf = args[i]
            st = buf._st
            if st.host_views:
                # exact (element-wise) disjointness only where residency cannot be confused:
                # per-range validity cannot say "column 0 on the host, column 1 on the device"
                layout = buf._layout() if self.host_loc else None
                guards.check_host_views(
                    st.host_views, buf._lo, buf._hi, access, name, self.kernel, layout
                )

    def _run(self, launch: Any, program: Program, args: tuple[Any, ...], waits: list[Event],
             geo: tuple[Device, tuple[int, ...], int, int, tuple[int, ...]]) -> Event:  # fmt: skip
        device = self.device
        if self.fast:
            for i in self.array_idx:
                st = args[i]._st
                if not st.plain:
                    st.make_valid_on(device, args[i]._lo, args[i]._hi)
            if geo[3] == 0:
                return _DONE
            self.pack(geo[1], args)
            return self._packed.launch_packed(
                program, self.block, geo[2], geo[3], waits, (self, args)
            )
        return self._run_device(launch, program, args, waits, geo[3])

    def _run_device(self, launch: Any, program: Program, args: tuple[Any, ...],
                    waits: list[Event], items: int) -> Event:  # fmt: skip
        """``_run`` on a device with its own memory (or without ``launch_packed``): make the
        arguments valid there, then launch with one cached ``ArrayArg`` per array argument."""
        device = self.device
        loc = self.loc
        host = self.host_loc
        largs: list[LaunchArg] = list(args)  # scalars: accepted (converted) in ``execute``
        cache = self._arg_cache
        foreign = False
        for i in self.array_idx:
            buf = args[i]
            st = buf._st
            if st.foreign:  # the owner may have written it since the last synchronisation
                st.claim()
                foreign = True
            sets = st._sets
            # residency's warm exit without the call: every byte is valid on the device already
            if not (len(sets) == 1 and loc in sets[0] and (host or loc in st.copies)):
                copies = st.make_valid_on(device, buf._lo, buf._hi)
                if copies:
                    waits.extend(copies)
            # the allocation holding this storage on the device (allocation_on made it)
            where = st._host_alloc if host else st.copies.get(loc)
            entry = cache[i]
            if entry is None or where is None or entry[2] is not where or entry[0]() is not buf:
                # a new buffer here (or a new allocation): the argument object is made once
                arg = ArrayArg(st.allocation_on(device), buf._off, buf.shape, buf._strides)
                where = st._host_alloc if host else st.copies.get(loc)
                entry = cache[i] = (weakref.ref(buf), arg, where)
            largs[i] = entry[1]
        if items == 0:
            return _DONE
        event = device.launch(program, largs, launch.grid, launch.block, waits)
        if foreign and not host:
            event = self._write_back(args, event)
        return event

    def _write_back(self, args: tuple[Any, ...], event: Event) -> Event:
        """Queue the copy home of every foreign argument the launch may write, behind it
        (``residency``: written through); the event covering the launch and those copies."""
        copies = [event]
        for i, _, exclusive in self.commit_arrays:
            st = args[i]._st
            if exclusive and st.foreign:
                lo, hi = args[i]._lo, args[i]._hi
                alloc = st.allocation_on(self.device)
                copies.append(self.device.copy_to_host(st.host[lo:hi], alloc, lo, [event]))
                stats.record_transfer(False, hi - lo)
        return AllOf(*copies) if len(copies) > 1 else event

    def _commit(self, args: tuple[Any, ...], event: Event, made: list[guards.Use]) -> Any:
        """Record borrows, residency and moves of a launch that has been started; the uses
        recorded for the array arguments (none when it finished already) go into ``made``."""
        pending = not event.done()
        for i, access, exclusive in self.commit_arrays:
            buf = args[i]
            st = buf._st
            if pending:
                uses = st.uses
                last = uses[-1] if uses else None
                if (
                    last is not None and last.access is access and last.lo == buf._lo
                    and last.hi == buf._hi and event.implies(last.event)
                ):  # fmt: skip
                    # the new use supersedes the last one (guards._supersedes): a loop of
                    # launches on one buffer updates one use instead of adding and pruning
                    last.event = event
                    made.append(last)
                else:
                    last = guards.Use(buf._lo, buf._hi, access, event)
                    uses.append(last)
                    made.append(last)
            if exclusive and not (self.host_loc and st.plain):
                sets = st._sets
                if st.foreign and not self.host_loc:  # copied home behind it (_write_back)
                    st.written_through(self.device, buf._lo, buf._hi)
                # residency's own fast exit, without the call: this device alone is valid
                elif len(sets) != 1 or sets[0] != self.only_here:
                    st.mark_written_on(self.device, buf._lo, buf._hi)
        if pending:
            guards.track(event, args)
        elif type(event) is not DoneEvent:
            guards.settle(event)  # finished already: keep its error for the next sync point
        if not self.owned:
            return None
        where = guards.user_location()
        moved = tuple(args[i]._moved_to(self.kernel, where) for i in self.owned)
        return moved[0] if len(moved) == 1 else moved

    def make_error(self, args: tuple[Any, ...], check: int, indices: tuple[int, ...],
                   shape: tuple[int, ...] = ()) -> Exception:  # fmt: skip
        """The ``BoundsError`` of a failed check in a launch with ``args`` (``shape``: the
        failing array's, when the error record has it: a device function's array)."""
        if shape:
            from gpuoff.ir.bounds import launch_error

            return launch_error(self.module, check, indices, shape)
        shapes = {d.name: args[i].shape for i, d in enumerate(self.decls) if d.is_array}
        return bounds_error(self.module, shapes, check, indices)

    def _finish_host_arrays(
        self, event: Event, host_arrays: list[tuple[int, np.ndarray[Any, Any], Buffer[Any]]]
    ) -> None:
        """NumPy arguments: the launch completes before returning; BorrowMut ones copy back,
        also when it raises a bounds error (its in-range writes happened: SPEC §5), which is
        raised after that. An interrupt (Ctrl-C) while waiting or copying cannot stop the
        launch, which the device already has: it is waited for and copied back all the same
        before the interrupt goes on (else its writes would be lost, or land later)."""
        try:
            guards.wait_all([event])  # a failure is kept (guards.settle), raised below
            self._copy_back(host_arrays)
        except BaseException:
            guards.wait_all([event])  # a second interrupt here gives up on the copy
            self._copy_back(host_arrays)
            raise  # a device error stays for the next synchronize()
        guards.raise_deferred()

    def _copy_back(self, host_arrays: list[tuple[int, np.ndarray[Any, Any], Buffer[Any]]]) -> None:
        """The BorrowMut NumPy arguments that were copied for the launch get its results."""
        for i, original, buf in host_arrays:
            if not self.decls[i].access.exclusive:
                continue
            with guards.LOCK:
                buf._st.make_host_valid(buf._lo, buf._hi)
                if not np.may_share_memory(original, buf._st.host):
                    np.copyto(original, buf._layout())  # a copy made for the launch


class Repeat:
    """What a launch through ``Plan.execute`` leaves for ``Plan.repeat`` (on its ``Launch``):
    the plan, the program, the arguments (arrays by weak reference: a launch must not keep
    buffers alive), the uses it recorded, its event, and the guard epoch after it."""

    __slots__ = ("plan", "program", "args", "uses", "event", "epoch")

    def __init__(self, plan: Plan, program: Program, args: tuple[Any, ...],
                 uses: list[guards.Use], event: Event) -> None:  # fmt: skip
        self.plan = plan
        self.program = program
        self.args = tuple(weakref.ref(a) if d.is_array else a
                          for d, a in zip(plan.decls, args, strict=True))  # fmt: skip
        self.uses = tuple(uses)
        self.event = event
        self.epoch = guards.new_epoch()


class _NotPacked(PackedLaunch[Any]):
    """``Plan._packed`` of a device without ``PackedLaunch`` (never called: only plans with
    ``fast`` set launch packed)."""

    def launch_packed(self, program: Any, block: Any, n_groups: int, items: int,
                      wait_for: Sequence[Event], on_error: Any) -> Event:  # fmt: skip
        raise AssertionError("packed launch on a device without PackedLaunch")


_NOT_PACKED = _NotPacked()


def _identity_test(decls: tuple[Any, ...]) -> Callable[[tuple[Any, ...], tuple[Any, ...]], bool]:
    """``same(args, recorded)``: whether each argument is the recorded object (arrays: the
    object a weak reference in ``recorded`` points to), generated for the signature."""
    terms = [
        f"args[{i}] is rec[{i}]()" if d.is_array else f"args[{i}] is rec[{i}]"
        for i, d in enumerate(decls)
    ]
    terms.insert(0, f"len(args) == {len(decls)}")
    source = f"def same(args, rec):\n    return {' and '.join(terms)}\n"
    scope: dict[str, Any] = {}
    exec(compile(source, "<gpuoff repeat test>", "exec"), scope)  # noqa: S102 - fixed text
    return scope["same"]  # type: ignore[no-any-return]


def bounds_error(module: Module, shapes: dict[str, tuple[int, ...]], check: int,
                 indices: tuple[int, ...]) -> GpuoffError:  # fmt: skip
    """The ``BoundsError`` (or ``BarrierError``) for failed check ``check``
    (``gpuoff.ir.bounds.launch_error``)."""
    from gpuoff.ir.bounds import launch_error

    array = next((c.array for c in module.checks if c.id == check), "")
    shape = shapes.get(array)
    if shape is None:  # a shared array (declared in the kernel): its shape is static
        shared = next((a for a in module.kernel.shared if a.name == array), None)
        shape = tuple(shared.type.static_shape or ()) if shared is not None else ()
    return launch_error(module, check, indices, shape)


def _fast_range(decl: Any) -> tuple[type, Any, Any]:
    """(exact Python type, lo, hi) accepted without the slow check for a scalar parameter."""
    if decl.is_array:
        return (type(None), 0, 0)
    st = decl.dtype
    if st.is_bool:
        return (bool, False, True)
    if st.is_int:
        lo, hi = A.INT_RANGE[st.name]
        return (int, lo, hi)
    fmax = A.FLOAT_MAX[st.name]
    return (float, -fmax, fmax) if fmax != _INF else (float, -_INF, _INF)


def _packer(layout: struct.Struct, block: Any, decls: tuple[Any, ...]) -> Callable[..., None]:
    """``pack(header, args)``: the packed argument block of a launch, written into ``block``
    by one ``pack_into`` call generated for this signature (no per-launch list building)."""
    parts = ["*header"]
    for i, d in enumerate(decls):
        parts.append(f"*args[{i}]._packed" if d.is_array else f"args[{i}]")
    source = f"def pack(header, args):\n    pack_into(block, 0, {', '.join(parts)})\n"
    scope: dict[str, Any] = {"pack_into": layout.pack_into, "block": block}
    exec(compile(source, "<gpuoff launch packer>", "exec"), scope)  # noqa: S102 - fixed text
    return scope["pack"]  # type: ignore[no-any-return]
