"""Use after move: a forward may-be-moved dataflow over the function enclosing one call.

Each call site that passes variables to ``Owned`` parameters runs its own analysis and
reports only uses of *its* moves, so every error is reported once, at the use, and the rest
of the function needs no types (later statements are not type-checked yet when the hook
runs). Statements are walked by hand: mypy's visitors are compiled traits that interpreted
code cannot subclass.
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.nodes import (
    AssertStmt,
    AssignmentStmt,
    Block,
    BreakStmt,
    CallExpr,
    ContinueStmt,
    DelStmt,
    Expression,
    ExpressionStmt,
    ForStmt,
    IfStmt,
    LambdaExpr,
    ListExpr,
    Lvalue,
    NameExpr,
    OperatorAssignmentStmt,
    RaiseStmt,
    RefExpr,
    ReturnStmt,
    StarExpr,
    Statement,
    TryStmt,
    TupleExpr,
    Var,
    WhileStmt,
    WithStmt,
)
from mypy.server.subexpr import get_subexpressions

from gpuoff.ownership import use_after_move_message
from mypy_plugin.names import USE_AFTER_MOVE

State = set[Var]
"""The variables that may have been moved by the tracked call on some path to here."""

# The state after a statement, or None when the statement does not fall through.
Flow = State | None


def _join(*states: Flow) -> Flow:
    live = [s for s in states if s is not None]
    return set().union(*live) if live else None


RAISES = frozenset({"_pytest.raises.raises", "_pytest.python_api.raises", "pytest.raises"})


def _expects_raise(e: Expression) -> bool:
    """``with pytest.raises(...)``: the block is expected to stop with an exception."""
    return isinstance(e, CallExpr) and isinstance(e.callee, RefExpr) and e.callee.fullname in RAISES


class MoveFlow:
    """May-be-moved analysis for the variables one call moves."""

    def __init__(self, call: CallExpr, moved: list[Var]) -> None:
        self.call = call
        self.moved = moved
        self.end = (call.end_line or call.line, call.end_column or call.column)
        self.uses: dict[int, NameExpr] = {}
        # One (breaks, continues) frame per enclosing loop.
        self.loops: list[tuple[list[State], list[State]]] = []
        # Inside ``with pytest.raises(...)``: deliberate misuse, so uses are not reported.
        self.quiet = 0

    def expr(self, e: Expression | None, st: State) -> None:
        """Record uses of moved variables in ``e``; apply the move if ``e`` holds the call."""
        if e is None:
            return
        subs = get_subexpressions(e)
        here = any(n is self.call for n in subs)
        # Closures are not tracked (nor are nested defs): the runtime catches their uses.
        in_lambda = {
            id(n)
            for lam in subs
            if isinstance(lam, LambdaExpr)
            for n in get_subexpressions(lam)
            if n is not lam
        }
        for n in subs:
            if not isinstance(n, NameExpr) or not isinstance(n.node, Var) or self.quiet:
                continue
            if id(n) in in_lambda:
                continue
            # Within the moving statement, only what is evaluated after the call counts.
            late = here and n.node in self.moved and (n.line, n.column) >= self.end
            if n.node in st or late:
                self.uses.setdefault(id(n), n)
        if here:
            st.update(self.moved)

    def block(self, b: Block | None, st: Flow) -> Flow:
        for s in b.body if b is not None else []:
            if st is None:
                break
            st = self.stmt(s, st)
        return st

    def assign(self, lv: Lvalue, st: State) -> None:
        """``x = ...`` revives ``x``; ``x[i] = ...`` and ``x.a = ...`` use ``x``."""
        if isinstance(lv, NameExpr):
            if isinstance(lv.node, Var):
                st.discard(lv.node)
        elif isinstance(lv, (TupleExpr, ListExpr)):
            for item in lv.items:
                self.assign(item, st)
        elif isinstance(lv, StarExpr):
            self.assign(lv.expr, st)
        else:
            self.expr(lv, st)

    def loop(self, s: WhileStmt | ForStmt, st: State) -> Flow:
        head = set(st)
        breaks: list[State] = []
        for _ in range(4):  # a may-set grows monotonically: two rounds reach the fixpoint
            self.loops.append(([], []))
            body_in = set(head)
            if isinstance(s, WhileStmt):
                self.expr(s.expr, body_in)
            else:
                self.assign(s.index, body_in)
            out = self.block(s.body, body_in)
            breaks, conts = self.loops.pop()
            new = _join(head, out, *conts) or set()
            if new == head:
                break
            head = new
        after = self.block(s.else_body, set(head)) if s.else_body else head
        return _join(after, *breaks)

    def stmt(self, s: Statement, st: State) -> Flow:
        if isinstance(s, AssignmentStmt):
            self.expr(s.rvalue, st)
            for lv in s.lvalues:
                self.assign(lv, st)
        elif isinstance(s, OperatorAssignmentStmt):
            self.expr(s.rvalue, st)
            self.expr(s.lvalue, st)
        elif isinstance(s, (ExpressionStmt, AssertStmt)):
            self.expr(s.expr, st)
        elif isinstance(s, DelStmt):
            self.assign(s.expr, st)
        elif isinstance(s, ReturnStmt):
            self.expr(s.expr, st)
            return None
        elif isinstance(s, RaiseStmt):
            self.expr(s.expr, st)
            return None
        elif isinstance(s, IfStmt):
            self.expr(s.expr[0], st)
            then = self.block(s.body[0], set(st))
            other = self.block(s.else_body, set(st)) if s.else_body else st
            return _join(then, other)
        elif isinstance(s, ForStmt):
            self.expr(s.expr, st)
            return self.loop(s, st)
        elif isinstance(s, WhileStmt):
            return self.loop(s, st)
        elif isinstance(s, (BreakStmt, ContinueStmt)):
            if self.loops:
                self.loops[-1][isinstance(s, ContinueStmt)].append(set(st))
            return None
        elif isinstance(s, TryStmt):
            return self.try_stmt(s, st)
        elif isinstance(s, WithStmt):
            for e in s.expr:
                self.expr(e, st)
            if any(_expects_raise(e) for e in s.expr):
                # The body is meant to fail, and a launch that fails moves nothing (SPEC §3).
                self.quiet += 1
                self.block(s.body, set(st))
                self.quiet -= 1
                return st
            for target in s.target:
                if target is not None:
                    self.assign(target, st)
            return self.block(s.body, st)
        elif isinstance(s, Block):
            return self.block(s, st)
        # Nested defs, classes, imports, pass: closures are not tracked (the runtime is).
        return st

    def try_stmt(self, s: TryStmt, st: State) -> Flow:
        body = self.block(s.body, set(st))
        # An exception may leave the body anywhere, so a handler sees any state in between.
        raised = _join(st, body) or set()
        handlers = [self.block(h, set(raised)) for h in s.handlers]
        normal = self.block(s.else_body, body) if s.else_body and body is not None else body
        out = _join(normal, *handlers)
        if s.finally_body is None:
            return out
        fin = self.block(s.finally_body, set(out if out is not None else raised))
        return fin if out is not None else None


def in_expected_raise(api: TypeChecker, call: CallExpr) -> bool:
    """Whether ``call`` sits in a ``with pytest.raises(...)`` block of the current function."""
    fn = api.scope.current_function()
    todo: list[Statement] = list(fn.body.body if fn is not None else api.tree.defs)
    while todo:
        s = todo.pop()
        if isinstance(s, WithStmt) and any(_expects_raise(e) for e in s.expr):
            if any(n is call for n in get_subexpressions(s.body)):
                return True
        blocks: list[Block | None] = []
        if isinstance(s, IfStmt):
            blocks += [*s.body, s.else_body]
        elif isinstance(s, TryStmt):
            blocks += [s.body, *s.handlers, s.else_body, s.finally_body]
        elif isinstance(s, (ForStmt, WhileStmt, WithStmt)):
            blocks += [s.body, getattr(s, "else_body", None)]
        todo += [x for b in blocks if b is not None for x in b.body]
    return False


def check_moves(api: TypeChecker, call: CallExpr, moved: list[Var], callee: str) -> None:
    """Report every use, on some path after ``call``, of a variable it moved."""
    fn = api.scope.current_function()
    body = fn.body if fn is not None else Block(api.tree.defs)
    flow = MoveFlow(call, moved)
    flow.block(body, set())
    for use in sorted(flow.uses.values(), key=lambda n: (n.line, n.column)):
        msg = use_after_move_message(use.name, callee, f"line {call.line}")
        api.fail(msg, use, code=USE_AFTER_MOVE)
