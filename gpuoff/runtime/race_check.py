"""The race proof of a launch plan: proven once per launch shape, then remembered.

A specialisation's stores are proven distinct per work-item by ``gpuoff.ir.races`` for one
``LaunchShape`` (which dimensions of the grid, of a group and of the group count have more
than one member, and the block when the launch gives one), so the grid's dimensionality and
the block are part of what a proof is for: ``k[n]`` and ``k[(n + 255) // 256, 256]`` (a 2-D
grid) are two proofs. ``Plan.execute`` asks ``RaceProof.check`` on a ``Launch`` it has not
checked before; a proven shape is kept in memory and on disk with the module's launch-check
spec (``cache.store_races``), so neither a warm launch nor a disk-cached first launch runs the
analysis again.

A proof may rest on conditions on the launch's values (``h >= 16 * num_groups(1)`` for a
kernel written for a grid that matches its array): those are checked, by a generated closure,
at every launch of the plan (``per_launch``); a launch that breaks them is analysed again, and
refused if no proof holds for it. A refusal is never cached: it is worked out again with the
new launch's numbers for its message.
"""

from __future__ import annotations

import linecache
from collections.abc import Callable, Sequence
from typing import Any

from gpuoff.errors import RaceError, SourceLocation
from gpuoff.ir.launch_shape import LaunchShape
from gpuoff.ir.nodes import Module
from gpuoff.runtime import cache, debug

Holds = Callable[[tuple[int, ...], tuple[int, ...] | None, Sequence[Any]], bool]


class RaceProof:
    """The race proofs of one module per launch shape (``key``: its disk-cache key, or None
    where the device has no disk cache)."""

    __slots__ = ("module", "key", "names", "proven", "loaded", "per_launch", "_tags")

    def __init__(self, module: Module, key: str | None, names: Sequence[str]) -> None:
        self.module = module
        self.key = key
        self.names = tuple(names)
        self.proven: dict[str, Holds | None] = {}  # shape -> its conditions' test, or None
        self.loaded = key is None
        self.per_launch = False  # some proof rests on conditions: check every launch
        self._tags: dict[tuple[Any, ...], str] = {}

    def _tag(self, grid: tuple[int, ...], block: tuple[int, ...] | None) -> str:
        tag = self._tags.get((grid, block))
        if tag is None:
            tag = self._tags[(grid, block)] = LaunchShape.of(grid, block).key()
        return tag

    def check(self, grid: tuple[int, ...], block: tuple[int, ...] | None,
              args: Sequence[Any]) -> None:  # fmt: skip
        """Return when no two work-items of a launch over ``grid`` (and ``block``) can write
        one element; else raise ``RaceError`` at the store that may."""
        if not all(grid):
            return  # no work-item runs
        tag = self._tag(grid, block)
        if not self.loaded:
            self.loaded = True
            assert self.key is not None
            for shape, conditions in cache.load_races(self.key).items():
                self._record(shape, conditions)
        if tag in self.proven:
            holds = self.proven[tag]
            if holds is None or holds(grid, block, args):
                return
        from gpuoff.ir.races import analyse

        example = {"grid": grid, "block": block, "args": dict(zip(self.names, args, strict=True))}
        refusal, conditions = analyse(self.module, LaunchShape.of(grid, block), example)
        if refusal is None:
            self._record(tag, conditions)
            if self.key is not None:
                cache.store_races(self.key, tag, conditions)
            debug.log(debug.CACHE, f"{self.module.name}: stores proven race-free for {tag}"
                      + (f" where {len(conditions)} conditions hold" if conditions else ""))
            return
        text = linecache.getline(refusal.filename, refusal.line)
        where = SourceLocation(refusal.filename, refusal.line, refusal.col, text,
                               refusal.end_col)  # fmt: skip
        raise RaceError(refusal.message, where, refusal.hint)

    def _record(self, tag: str, conditions: frozenset[Any]) -> None:
        if not conditions:
            self.proven[tag] = None
            return
        from gpuoff.ir.race_values import compile_conditions

        self.proven[tag] = compile_conditions(sorted(conditions, key=repr), self.names)
        self.per_launch = True
