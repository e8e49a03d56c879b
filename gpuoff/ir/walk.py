"""Small read-only walks over IR trees (used by the IR analyses and the code generators)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from gpuoff.ir import nodes as n


def child_exprs(e: n.Expr) -> Iterator[n.Expr]:
    """Direct scalar sub-expressions of ``e``."""
    if isinstance(e, n.Unary):
        yield e.operand
    elif isinstance(e, (n.Binary, n.Compare, n.Logical)):
        yield e.lhs
        yield e.rhs
    elif isinstance(e, n.Select):
        yield from (e.cond, e.if_true, e.if_false)
    elif isinstance(e, n.Cast):
        yield e.value
    elif isinstance(e, n.Load):
        yield from e.indices
    elif isinstance(e, n.MathCall):
        yield from e.args
    elif isinstance(e, n.Call):
        yield from (a for a in e.args if isinstance(a, n.Expr))
    elif isinstance(e, n.AtomicRMW):
        yield from e.indices
        if e.compare is not None:
            yield e.compare
        yield e.value


def stmt_exprs(s: n.Stmt) -> Iterator[n.Expr]:
    """Scalar expressions appearing directly in statement ``s`` (not in nested bodies)."""
    if isinstance(s, n.Assign):
        yield s.value
    elif isinstance(s, n.Store):
        yield from s.indices
        yield s.value
    elif isinstance(s, (n.If, n.While)):
        yield s.cond
    elif isinstance(s, n.ForRange):
        yield from (s.start, s.stop, s.step)
    elif isinstance(s, n.Return) and s.value is not None:
        yield s.value
    elif isinstance(s, n.ExprStmt):
        yield s.expr


def child_bodies(s: n.Stmt) -> Iterator[tuple[n.Stmt, ...]]:
    """Nested statement lists of ``s``."""
    if isinstance(s, n.If):
        yield s.body
        yield s.orelse
    elif isinstance(s, (n.ForRange, n.While)):
        yield s.body


def walk_stmts(stmts: Sequence[n.Stmt]) -> Iterator[n.Stmt]:
    """Every statement, nested ones included (pre-order)."""
    for s in stmts:
        yield s
        for body in child_bodies(s):
            yield from walk_stmts(body)


def walk_exprs(stmts: Sequence[n.Stmt]) -> Iterator[n.Expr]:
    """Every expression in ``stmts``, nested ones included."""
    for s in walk_stmts(stmts):
        todo = list(stmt_exprs(s))
        while todo:
            e = todo.pop()
            yield e
            todo.extend(child_exprs(e))


def calls_and_work_items(stmts: Sequence[n.Stmt]) -> tuple[bool, set[str]]:
    """(whether ``stmts`` query work-item values directly, names of functions called)."""
    uses = False
    callees: set[str] = set()
    for e in walk_exprs(stmts):
        if isinstance(e, n.WorkItem):
            uses = True
        elif isinstance(e, n.Call):
            callees.add(e.callee)
    return uses, callees


def has_barrier(stmts: Sequence[n.Stmt]) -> bool:
    """Whether a ``Barrier`` occurs anywhere in ``stmts``."""
    return any(isinstance(s, n.Barrier) for s in walk_stmts(stmts))


def escaping_jumps(stmts: Sequence[n.Stmt]) -> bool:
    """Whether ``stmts`` hold a ``Break``/``Continue`` for a loop enclosing them."""
    for s in stmts:
        if isinstance(s, (n.Break, n.Continue)):
            return True
        if isinstance(s, n.If) and (escaping_jumps(s.body) or escaping_jumps(s.orelse)):
            return True
    return False


def has_live_checks(module: n.Module) -> bool:
    """Whether any access of ``module`` still carries a bounds check (a module specialised
    for launches that prove its checks keeps their table, for messages, but checks nothing)."""
    if not module.boundscheck or not module.checks:
        return False
    for fn in (*module.functions, module.kernel):
        if any(isinstance(s, n.Store) and s.check is not None for s in walk_stmts(fn.body)):
            return True
        if any(getattr(e, "check", None) is not None for e in walk_exprs(fn.body)):
            return True
    return False


__all__ = [
    "calls_and_work_items", "child_bodies", "child_exprs", "escaping_jumps", "has_barrier",
    "has_live_checks", "stmt_exprs", "walk_exprs", "walk_stmts",
]  # fmt: skip
