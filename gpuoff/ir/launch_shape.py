"""What a race proof is for: which work-item ids of a launch may take more than one value.

A leaf (no imports from gpuoff): the runtime keys race proofs by ``LaunchShape.key`` on every
new launch configuration, and a launch served from the disk cache must not import the analysis.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Dims = tuple[bool, bool, bool]


@dataclass(frozen=True)
class LaunchShape:
    """Which ids of a launch may take more than one value, per dimension: ``grid`` (more than
    one work-item), ``block`` (more than one in a group: always possible where the backend
    chooses the block and the grid has more than one) and ``groups`` (more than one group);
    and the block itself when the launch gives one (``sizes``: ``local_size`` is then a
    constant, as shared-memory kernels sized for their block need)."""

    grid: Dims
    block: Dims
    groups: Dims
    sizes: tuple[int, int, int] | None = None

    @staticmethod
    def of(grid: Sequence[int], block: Sequence[int] | None) -> LaunchShape:
        g3 = tuple((*grid, 1, 1)[:3])
        many: Dims = (g3[0] > 1, g3[1] > 1, g3[2] > 1)
        if block is None:
            return LaunchShape(many, many, many)
        b3 = (*block, 1, 1)[:3]
        return LaunchShape(
            many,
            (b3[0] > 1, b3[1] > 1, b3[2] > 1),
            (g3[0] > b3[0], g3[1] > b3[1], g3[2] > b3[2]),
            (int(b3[0]), int(b3[1]), int(b3[2])),
        )

    def key(self) -> str:
        """A short stable text (cache keys, messages)."""
        bits = "".join("1" if x else "0" for x in (*self.grid, *self.block, *self.groups))
        sizes = "" if self.sizes is None else "x".join(map(str, self.sizes))
        return f"g{bits[:3]}b{bits[3:6]}n{bits[6:]}{sizes}"
