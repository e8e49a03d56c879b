"""Static data-race freedom: two work-items of a launch never write one element (SPEC §3b).

``check(module, shape)`` proves, for one kernel specialisation and one ``LaunchShape``, that no
two distinct work-items write the same element of a global ``BorrowMut``/``Owned`` array
(plain stores and read-modify-writes; an atomic only conflicts with a plain store) or, within
one barrier interval of a group, of a shared array. It returns None, or a ``Refusal`` saying
where and why two work-items may collide. Stores in ``with go.unsafe():`` are not checked.

Three steps, one module each: ``race_walk`` runs the kernel abstractly and gives every store's
indices as polynomials (``race_poly``) with the facts that hold where it runs;
``race_proof`` finds, for every store, a function of the element that gives back the writer's
id, and checks that the stores of an array agree on it; ``race_report`` words a refusal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuoff.ir import nodes as n
from gpuoff.ir.race_proof import Assume, Condition, Refusal, find_failure
from gpuoff.ir.race_report import refusal
from gpuoff.ir.race_values import LaunchValues
from gpuoff.ir.race_walk import LaunchShape, Walk

__all__ = ["Condition", "LaunchShape", "Refusal", "analyse", "check"]


def analyse(module: n.Module, shape: LaunchShape,
            example: Mapping[str, Any] | None = None,
            ) -> tuple[Refusal | None, frozenset[Condition]]:  # fmt: skip
    """``(None, conditions)`` when no two work-items of a launch of ``shape`` can write one
    element, provided every condition on the launch's invariant values holds (they hold for
    ``example``, the launch being proven: its ``grid``, ``block`` and ``args`` by name; none
    are made without one); else ``(refusal, {})`` at the first store that may, naming a
    concrete pair of colliding work-items of ``example`` where it can."""
    example = example or {}
    values = None
    if "grid" in example:
        values = LaunchValues(example["grid"], example.get("block"), example.get("args", {}))
    walk = Walk(module, shape)
    ctx = Assume(values)
    failure = find_failure(walk.run(), shape, walk.find, ctx)
    if failure is None:
        return None, frozenset(ctx.conditions)
    return refusal(module, shape, walk, failure, example), frozenset()


def check(module: n.Module, shape: LaunchShape,
          example: Mapping[str, Any] | None = None) -> Refusal | None:  # fmt: skip
    """The refusal of ``analyse`` (None: race-free, for ``example`` at least)."""
    return analyse(module, shape, example)[0]
