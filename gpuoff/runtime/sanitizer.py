"""The race sanitizer at launch: ``GPUOFF_SANITIZE=race`` or ``@go.kernel(sanitize="race")``.

A sanitized kernel's launches run its IR rewritten by ``gpuoff.ir.sanitize``: every access to
a global ``BorrowMut``/``Owned`` array and to shared memory is recorded in zeroed shadow
arrays passed as extra arguments, and the launch's first conflict (two work-items writing one
element, or one writing what another reads or updates atomically, within one barrier interval;
a global array's interval is the launch) is raised as ``go.RaceError`` when the launch
returns, naming both work-items, the array, the element and both lines. The static race proof
still runs first. On ``cpu`` only (the interpreter has ``gpuoff.ir.sanitize.run``): the launch
waits for all earlier work and runs on the calling thread, so that the work-items of a group
run one after another and every conflict is seen, whatever their order. A launch is a
synchronisation point then. Off, nothing of this is imported or run.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from gpuoff.errors import DeviceError
from gpuoff.ownership import Access
from gpuoff.runtime.buffer import Buffer, array
from gpuoff.runtime.cache import CachedDecl
from gpuoff.runtime.devices import current_device
from gpuoff.runtime.plan import Plan
from gpuoff.runtime.race_check import RaceProof

MODES = ("race",)
"""What ``sanitize=`` / ``GPUOFF_SANITIZE`` may name."""
_ALWAYS_INLINE = 1 << 62


def sanitize_mode(option: str | None) -> str | None:
    """The sanitizer a kernel runs under: its ``sanitize=`` option, else ``GPUOFF_SANITIZE``
    (read when the kernel is made), else None. ``ValueError`` for an unknown one."""
    text = option if option is not None else os.environ.get("GPUOFF_SANITIZE", "")
    value = text.strip().lower()
    if not value:
        return None
    if value not in MODES:
        raise ValueError(f"unknown sanitizer {value!r}: the sanitizers are {', '.join(MODES)}"
                         " (sanitize= or GPUOFF_SANITIZE)")  # fmt: skip
    return value


class _Entry:
    """One signature's sanitized plan: the instrumented module, its plan and the proof."""

    def __init__(self, san: Any, plan: Plan, races: RaceProof) -> None:
        self.san = san
        self.plan = plan
        self.races = races
        self.shadows: tuple[tuple[tuple[int, ...], ...], list[Buffer[Any]]] | None = None
        """The shadow buffers of the last launch and the shapes they were made for."""

    def zeroed_shadows(self, shapes: dict[str, tuple[int, ...]]) -> list[Buffer[Any]]:
        """The shadows and the log for a launch on arrays of ``shapes``, all zero: the last
        launch's, cleared, when the shapes are the same (clearing is a memset; a new buffer
        costs a page fault per page on its first touch, in the timed kernel), else new."""
        from gpuoff.ir.sanitize import shadow_arrays

        key = tuple(shapes[name] for name, _ in self.san.shadows)
        if self.shadows is not None and self.shadows[0] == key:
            for b in self.shadows[1]:
                with b.host_mut() as a:
                    a.fill(0)
            return self.shadows[1]
        fresh = [array(x) for x in shadow_arrays(self.san, self.san.module.kernel, shapes)]
        self.shadows = (key, fresh)
        return fresh


class Sanitizer:
    """The sanitized launches of one kernel (its ``_launch``)."""

    def __init__(self, kernel: Any) -> None:
        self.kernel = kernel
        self.entries: dict[tuple[Any, ...], _Entry] = {}

    def launch(self, launch: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        from gpuoff.ir.sanitize import report
        from gpuoff.runtime import guards

        k = self.kernel
        decls = k.params
        if kwargs or len(args) != len(decls):
            args = k._bind(args, kwargs)
        if k._spec is not None:  # generic: its specialisation (sanitized too) runs it
            return k._spec.dispatch(launch, args)
        device = current_device()
        if device.backend != "cpu":
            raise DeviceError(f"the race sanitizer runs on cpu, not on {device.name}: launch "
                              f"{k.__name__} with GPUOFF_DEVICE=cpu (or go.on('cpu'))")  # fmt: skip
        host_arrays = None
        if any(isinstance(a, np.ndarray) for a in args):
            args, host_arrays = k._wrap_all(decls, args)
        key = (device, *(a._key if type(a) is Buffer else None for a in args))
        entry = self.entries.get(key) or self._make(device, decls, args, key)
        entry.races.check(launch.grid, launch.block, args)
        shapes = {d.name: tuple(a.shape) for d, a in zip(decls, args, strict=True) if d.is_array}
        extra = entry.zeroed_shadows(shapes)
        guards.wait_all([u.event for a in args if type(a) is Buffer for u in a._st.uses])
        entry.plan.program.inline_items = _ALWAYS_INLINE  # type: ignore[attr-defined]
        try:
            result = entry.plan.execute(launch, (*args, *extra), host_arrays)
        finally:
            launch._repeat = None  # never repeat a sanitized launch without its shadows
        log = extra[-1].numpy()
        # the block the launch ran in (a launch without one: the default laid along the
        # plan's fast dimension, as Launch.geometry lays it), to name shared ids
        block = launch.block or device.default_block(launch.grid, entry.plan.fast_dim)
        err = report(entry.san, log, shapes, launch.grid, block)
        if err is not None:
            raise err
        return result

    def _make(self, device: Any, decls: tuple[Any, ...], args: tuple[Any, ...],
              key: tuple[Any, ...]) -> _Entry:  # fmt: skip
        from gpuoff.ir.sanitize import instrument
        from gpuoff.ir.sanitize_ir import LOG
        from gpuoff.ir.types import INDEX

        k = self.kernel
        module = k._lower(k._types(decls, args))
        san = instrument(module)
        program = device.compile(san.module)
        extra_decls = [CachedDecl(f"{name}__race", INDEX, Access.BORROW_MUT, True)
                       for name, _ in san.shadows]  # fmt: skip
        extra_decls.append(CachedDecl(LOG, INDEX, Access.BORROW_MUT, True))
        ndims = {d.name: args[i].ndim for i, d in enumerate(decls) if d.is_array}
        extra_keys = [("int64", ndims[name] + 1, True) for name, _ in san.shadows]
        extra_keys.append(("int64", 1, True))
        plan = Plan(k.__name__, device, (*decls, *extra_decls), (*key, *extra_keys), san.module,
                    program)  # fmt: skip
        entry = _Entry(san, plan, RaceProof(module, None, [d.name for d in decls]))
        self.entries[key] = entry
        return entry
