"""The IR walks, under their old name: they live in ``gpuoff.ir.walk`` (the IR analyses there
use them too); kept for callers outside ``codegen`` (the CUDA device, tests)."""

from __future__ import annotations

from gpuoff.ir.walk import (
    calls_and_work_items,
    child_bodies,
    child_exprs,
    escaping_jumps,
    has_barrier,
    has_live_checks,
    stmt_exprs,
    walk_exprs,
    walk_stmts,
)

__all__ = [
    "calls_and_work_items", "child_bodies", "child_exprs", "escaping_jumps", "has_barrier",
    "has_live_checks", "stmt_exprs", "walk_exprs", "walk_stmts",
]  # fmt: skip
