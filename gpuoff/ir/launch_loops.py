"""Abstract unrolling of ``while`` loops whose counters evolve from constants.

``while d > 0: ...; offset *= 2; d //= 2`` (a Blelloch scan's tree walk) runs the same
iterations in every work-item: the counters start from constants and every iteration changes
them by constant operations, so their values per iteration are known at compile time. The
launch-time check analysis (``gpuoff.ir.launch_checks``) then analyses the body once per
iteration with the counters pinned to that iteration's values (a guard ``lid < d`` gives
``lid <= d_k - 1``, and ``offset_k * (2 * lid + 2) - 1`` is at most ``2 * offset_k * d_k - 1``),
instead of once with everything the body assigns unknown.

``constant_trips(loop, entry)`` simulates the loop on the counters alone, with the IR's exact
integer semantics (``gpuoff.ir.interp_ops``, the interpreter's). A *counter* is a variable the
body assigns only in statements directly in it (so every iteration that gets that far runs
them) and whose value is computable from constants and other counters; a variable assigned
anywhere else in the body (under an ``if``, in an inner loop) is unknown. The simulation
gives up (``None``: the caller analyses the loop as any other) when the condition is not
computable from counters and constants, when a ``continue`` could skip a counter's update, or
after ``MAX_TRIPS`` iterations. A ``break`` (or a ``return``) ends a work-item's loop early:
its iterations are still a prefix of the simulated ones, but the counters after the loop are
then unknown.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from gpuoff.ir import interp_ops as ops
from gpuoff.ir import nodes as n
from gpuoff.ir.bounds import assigned

MAX_TRIPS = 64
"""Loops running more iterations than this are not unrolled."""

_INT_OPS = ("add", "sub", "mul", "floordiv", "mod", "lshift", "rshift", "bitand", "bitor",
            "bitxor")  # fmt: skip


@dataclass(frozen=True)
class Trips:
    """The counters' values at the start of each iteration (``entries``), and after the loop
    (``exit``: None when a ``break`` may leave it early)."""

    entries: tuple[Mapping[str, int], ...]
    exit: Mapping[str, int] | None


def evaluate(e: n.Expr, env: Mapping[str, int]) -> int | None:
    """``e``'s value (an int; bools as 0 / 1) from constants and the variables in ``env``, or
    None when it reads anything else (or is not plain integer / boolean arithmetic)."""
    t = e.type
    if not (t.is_int or t.is_bool):
        return None
    if isinstance(e, n.Const):
        return int(e.value)
    if isinstance(e, n.Var):
        return env.get(e.name)
    if isinstance(e, n.Logical):
        lhs = evaluate(e.lhs, env)
        if lhs is None or bool(lhs) == (e.op == "or"):
            return lhs  # decided by the lhs (the rhs is not evaluated)
        return evaluate(e.rhs, env)
    if isinstance(e, n.Unary):
        v = evaluate(e.operand, env)
        if v is None:
            return None
        if e.op == "not":
            return int(not v)
        return int(ops.unary(e.op, ops.make(v, t), t)) if t.is_int else None
    if isinstance(e, n.Cast):
        v = evaluate(e.value, env)
        src = e.value.type
        if v is None or not (src.is_int or src.is_bool):
            return None
        return int(ops.cast(ops.make(v, src), src, t))
    if isinstance(e, n.Binary | n.Compare):
        a, b = evaluate(e.lhs, env), evaluate(e.rhs, env)
        st = e.lhs.type
        if a is None or b is None or not st.is_int:
            return None
        if isinstance(e, n.Compare):
            return int(bool(ops.compare(e.op, ops.make(a, st), ops.make(b, st), st)))
        if e.op not in _INT_OPS:
            return None
        return int(ops.binary(e.op, ops.make(a, t), ops.make(b, t), t))
    return None


def _exits(body: tuple[n.Stmt, ...]) -> Iterator[n.Stmt]:
    """The ``break`` and ``continue`` statements of ``body`` that leave *this* loop's
    iteration (not those of inner loops)."""
    for s in body:
        if isinstance(s, n.Break | n.Continue):
            yield s
        elif isinstance(s, n.If):
            yield from _exits(s.body)
            yield from _exits(s.orelse)


def constant_trips(loop: n.While, entry: Mapping[str, int]) -> Trips | None:
    """Simulate ``loop`` from the known variable values ``entry`` (see the module doc)."""
    exits = list(_exits(loop.body))
    if any(isinstance(s, n.Continue) for s in exits):
        return None
    nested = assigned(tuple(s for s in loop.body if not isinstance(s, n.Assign)))
    env = {v: c for v, c in entry.items() if v not in nested}
    entries: list[Mapping[str, int]] = []
    while True:
        go_on = evaluate(loop.cond, env)
        if go_on is None:
            return None
        if not go_on:
            return Trips(tuple(entries), None if exits else env)
        if len(entries) == MAX_TRIPS:
            return None
        entries.append(dict(env))
        for s in loop.body:
            if isinstance(s, n.Assign):
                value = None if s.target in nested else evaluate(s.value, env)
                if value is None:
                    env.pop(s.target, None)
                else:
                    env[s.target] = value
