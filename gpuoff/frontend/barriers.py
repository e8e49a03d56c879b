"""Barrier divergence, decided for a lowered kernel (``gpuoff.ir.uniformity``): a barrier, or
an exit that skips one, under a condition that depends on the work-item's id is a
``CompileError`` at the user's line; one under a condition that depends only on memory the
work-items write is voted at run time (``gpuoff.ir.barrier_votes``: ``BarrierError``)."""

from __future__ import annotations

import dataclasses

from gpuoff.errors import CompileError
from gpuoff.frontend.source import SourceInfo
from gpuoff.ir import nodes as N
from gpuoff.ir.barrier_votes import insert_votes, sites
from gpuoff.ir.inline import Origin, Origins
from gpuoff.ir.uniformity import DIVERGENT, Finding, analyse

RULE = "every work-item of a group must reach the same barriers"

_EXIT_TEXT = {
    "return": "lets the work-items that take it skip the barrier at line {line}, which the "
              "others of the group still reach",
    "break": "lets the work-items that take it leave the loop and skip its barrier at line "
             "{line}, which the others of the group still reach",
    "continue": "lets the work-items that take it skip the barrier at line {line} later in "
                "the loop, which the others of the group still reach",
}  # fmt: skip


def _where(origin: Origin | None) -> str:
    """`` in device function 'f' (file.py, line 12)`` for an inlined statement."""
    if origin is None:
        return ""
    return f" in device function {_user_name(origin.function)!r} ({origin.filename}, line " \
        f"{origin.line})"  # fmt: skip


def _user_name(ir_name: str) -> str:
    """``helper`` of the specialisation ``helper__A1f32cr_i64`` (``lower.mangle``: the tags
    and the suffix ``unique_name`` adds never hold a double underscore)."""
    return ir_name.rpartition("__")[0] or ir_name


def _message(f: Finding, origins: Origins) -> str:
    cause = f"a condition that may differ between work-items (it depends on {f.level.why})"
    here = origins.get(id(f.stmt))
    if f.kind == "barrier":
        return f"barrier{_where(here)} under {cause}: {RULE}"
    assert f.skipped is not None
    skipped = origins.get(id(f.skipped))
    line: object = f.skipped.loc.line if f.skipped.loc is not None else "?"
    if skipped is not None:
        line = f"{skipped.line} of device function {_user_name(skipped.function)!r}"
    kind = here.kind if here is not None else f.kind  # (an inlined return is a break)
    what = _EXIT_TEXT[kind].format(line=line)
    hint = ""
    if kind == "return":
        hint = "; keep every work-item going to the barriers and guard only the work it must " \
               "not do (if x < n: ...)"  # fmt: skip
    return f"'{kind}'{_where(here)} under {cause} {what}: {RULE}{hint}"


def check_barriers(module: N.Module, src: SourceInfo, origins: Origins | None = None) -> N.Module:
    """Refuse barrier divergence that depends on the work-item ids (at the first barrier or
    exit concerned, in program order); vote the conditions that only a run can decide.
    ``origins``: where the barriers and exits of inlined device functions come from
    (``ir.inline``; they carry the location of their call in ``src``)."""
    analysis = analyse(module)
    for f in analysis.findings:
        if f.level.rank == DIVERGENT:
            loc = f.stmt.loc
            text = _message(f, origins or {})
            raise CompileError(text, src.location_at(loc) if loc is not None else None)
    voted = insert_votes(module, sites(analysis), analysis.range_parts)
    # The votes' checks quote the condition's line, as a bounds check quotes its access.
    checks = tuple(
        dataclasses.replace(c, source=src.location_at(N.Loc(c.line, c.col)).text.strip())
        if c.kind == "barrier" else c
        for c in voted.checks
    )  # fmt: skip
    return dataclasses.replace(voted, checks=checks)
