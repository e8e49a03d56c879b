"""What the peers' factories share."""

from __future__ import annotations

SEQUENTIAL_SUM_RTOL = 1e-3
"""The reduction's tolerance for a peer that sums float32 in order on each thread: over 2^24
values in [0, 1) its rounding error reaches a few 1e-5 of the total (the case asks 1e-5 of
the tree and SIMD sums)."""
