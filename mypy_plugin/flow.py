"""A flow-sensitive walk over one function's statements (or a module's top level).

It carries the analysis ``State`` along every path: both branches of an ``if`` and their
join, loops to a fixpoint (``break``/``continue`` included), ``try`` (a handler sees the state
before any statement of the body: a failed launch moves nothing), ``with``, ``match``,
``return``/``raise``. Code that is meant to fail (under ``pytest.raises(...)``,
``self.assertRaises(...)``, or in a ``try`` whose handler catches gpuoff's ownership errors)
is walked quietly: a test of the runtime checks is not a mistake. Nested functions and
classes are not entered: closures are left to the runtime guards.

Statements are walked by hand: mypy's visitors are compiled traits that interpreted code
cannot subclass.
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
    FuncDef,
    IfStmt,
    ListExpr,
    MatchStmt,
    MemberExpr,
    NameExpr,
    OperatorAssignmentStmt,
    RaiseStmt,
    RefExpr,
    ReturnStmt,
    Statement,
    TryStmt,
    TupleExpr,
    Var,
    WhileStmt,
    WithStmt,
)
from mypy.patterns import (
    AsPattern,
    ClassPattern,
    MappingPattern,
    OrPattern,
    Pattern,
    SequencePattern,
    StarredPattern,
    ValuePattern,
)

from mypy_plugin import sites
from mypy_plugin.exprflow import ExprWalker, Observer
from mypy_plugin.names import ASSERT_RAISES, OWNERSHIP_ERRORS, RAISES
from mypy_plugin.state import NOTHING, State, join
from mypy_plugin.values import Ref

Flow = list[State]
"""The states after a statement, one per path kept apart; empty when none falls through."""

MAX_ROUNDS = 8
"""Loop fixpoint rounds (states only grow; real loops settle in two or three)."""
MAX_PATHS = 8
"""Paths kept apart before they are merged into one (``a, b = b, a`` in a loop needs two)."""


class Walker(ExprWalker):
    """Walks one function body (or a module's top level) and tells an ``Observer``.

    Up to ``MAX_PATHS`` states are carried side by side, so that facts which hold together
    on one path (after ``a, b = b, a``, or after ``x = consume[n](x)``) are not mixed with
    another path's; beyond that they are joined (every join is a union).
    """

    def __init__(self, api: TypeChecker, observer: Observer, func: FuncDef | None) -> None:
        super().__init__(api, observer)
        self.func = func
        self.loops: list[tuple[list[State], list[State]]] = []
        self.tries: list[list[State]] = []

    def run(self) -> None:
        st = State()
        if self.func is not None:
            for arg in self.func.arguments:
                var = arg.variable
                st.env[var] = frozenset({Ref(sites.var_site(var))})
            body = self.func.body.body
        else:
            body = self.api.tree.defs
        self.stmts(body, [st])

    def merge(self, states: list[State]) -> Flow:
        """Identical states once; more than ``MAX_PATHS`` joined into one."""
        out: list[State] = []
        for s in states:
            s.collect()
            if not any(s.same(o) for o in out):
                out.append(s)
        if len(out) > MAX_PATHS:
            joined = join(*out, fill=self.default)
            return [joined] if joined is not None else []
        return out

    def stmts(self, body: list[Statement], states: Flow) -> Flow:
        for s in body:
            if not states:
                return []
            for frame in self.tries:
                frame.extend(st.copy() for st in states)  # an exception here: handlers
            out: list[State] = []
            for st in states:
                out += self.stmt(s, st)
            states = self.merge(out)
        return states

    def block(self, b: Block | None, states: Flow) -> Flow:
        return self.stmts(b.body, states) if b is not None else states

    def stmt(self, s: Statement, st: State) -> Flow:
        if isinstance(s, AssignmentStmt):
            refs = self.bound(s.rvalue, st)
            items = None
            if isinstance(s.rvalue, TupleExpr | ListExpr) and len(refs) == 1:
                (site,) = (r.site for r in refs)
                items = [self.read(st, (site, k)) for k in range(len(s.rvalue.items))]
            for lv in s.lvalues:
                self.assign(lv, refs, st, s.rvalue, items)
        elif isinstance(s, OperatorAssignmentStmt):
            self.expr(s.rvalue, st)
            self.expr(s.lvalue, st)
            if isinstance(s.lvalue, NameExpr) and isinstance(s.lvalue.node, Var):
                st.defs[s.lvalue.node] = frozenset({id(s)})  # a new value: new bounds
                st.env[s.lvalue.node] = self.fresh(s.lvalue, st)
        elif isinstance(s, ExpressionStmt | AssertStmt):
            self.expr(s.expr, st)
        elif isinstance(s, DelStmt):
            self._delete(s.expr, st)
        elif isinstance(s, ReturnStmt | RaiseStmt):
            self.expr(s.expr, st)
            return []
        elif isinstance(s, IfStmt):
            return self._if(s, st)
        elif isinstance(s, ForStmt | WhileStmt):
            return self._loop(s, st)
        elif isinstance(s, BreakStmt | ContinueStmt):
            if self.loops:
                self.loops[-1][isinstance(s, ContinueStmt)].append(st)
            return []
        elif isinstance(s, TryStmt):
            return self._try(s, st)
        elif isinstance(s, WithStmt):
            return self._with(s, st)
        elif isinstance(s, MatchStmt):
            return self._match(s, st)
        elif isinstance(s, Block):
            return self.block(s, [st])
        # def, class, import, pass, global: nothing to follow (closures: the runtime)
        return [st]

    def _delete(self, target: Expression, st: State) -> None:
        if isinstance(target, NameExpr) and isinstance(target.node, Var):
            st.env[target.node] = NOTHING
        elif isinstance(target, TupleExpr):
            for t in target.items:
                self._delete(t, st)
        else:
            self.expr(target, st)

    def _if(self, s: IfStmt, st: State) -> Flow:
        outs: list[State] = []
        for cond, body in zip(s.expr, s.body, strict=True):
            self.expr(cond, st)
            outs += self.block(body, [st.copy()])
        outs += self.block(s.else_body, [st.copy()]) if s.else_body else [st]
        return self.merge(outs)

    def _loop(self, s: ForStmt | WhileStmt, st: State) -> Flow:
        container = self.expr(s.expr, st) if isinstance(s, ForStmt) else NOTHING
        head: list[State] = [st]
        breaks: list[State] = []
        for _ in range(MAX_ROUNDS):
            self.loops.append(([], []))
            outs: list[State] = []
            for h in head:
                body_in = h.copy()
                if isinstance(s, WhileStmt):
                    self.expr(s.expr, body_in)
                else:
                    self.bind_element(s.index, container, s.expr, body_in)
                outs += self.block(s.body, [body_in])
            breaks, continues = self.loops.pop()
            new = self.merge([*head, *outs, *continues])
            if len(new) == len(head) and all(any(n.same(h) for h in head) for n in new):
                break
            head = new
        if isinstance(s, WhileStmt) and _always_true(s.expr):
            return self.merge(breaks)
        after = self.block(s.else_body, [h.copy() for h in head]) if s.else_body else head
        return self.merge([*after, *breaks])

    def _try(self, s: TryStmt, st: State) -> Flow:
        expected = any(_catches_ownership_error(t) for t in s.types)
        self.tries.append([st.copy()])
        self.quiet += expected
        body = self.block(s.body, [st.copy()])
        self.quiet -= expected
        raised = self.merge(self.tries.pop())
        handlers: list[State] = []
        for var, handler in zip(s.vars, s.handlers, strict=True):
            ins = [r.copy() for r in raised]
            for h in ins:
                if var is not None:
                    self.assign(var, self.fresh(var, h), h, None)
            handlers += self.block(handler, ins)
        normal = self.block(s.else_body, body) if s.else_body else body
        out = self.merge([*normal, *handlers])
        if s.finally_body is None:
            return out
        fin = self.block(s.finally_body, self.merge([*(o.copy() for o in out), *raised]))
        return fin if out else []

    def _with(self, s: WithStmt, st: State) -> Flow:
        expected = False
        for e, target in zip(s.expr, s.target, strict=True):
            refs = self.expr(e, st)
            expected |= _expects_raise(e)
            if target is not None:
                self.assign(target, self.fresh(target, st) if expected else refs, st, e)
        if expected:
            # The body is meant to fail, and a launch that fails moves nothing (SPEC §3).
            self.quiet += 1
            self.block(s.body, [st.copy()])
            self.quiet -= 1
            return [st]
        return self.block(s.body, [st])

    def _match(self, s: MatchStmt, st: State) -> Flow:
        subject = self.expr(s.subject, st)
        outs: list[State] = []
        for pattern, guard, body in zip(s.patterns, s.guards, s.bodies, strict=True):
            case = st.copy()
            self._pattern(pattern, subject, case)
            if guard is not None:
                self.expr(guard, case)
            outs += self.block(body, [case])
        outs.append(st)  # no case matched
        return self.merge(outs)

    def _pattern(self, p: Pattern, subject: frozenset[Ref], st: State) -> None:
        if isinstance(p, AsPattern):
            if p.pattern is not None:
                self._pattern(p.pattern, subject, st)
            if p.name is not None:
                self.assign(p.name, subject if p.pattern is None else self.fresh(p.name, st),
                            st, None)  # fmt: skip
        elif isinstance(p, OrPattern | SequencePattern):
            for q in p.patterns:
                self._pattern(q, NOTHING, st)
        elif isinstance(p, ValuePattern):
            self.expr(p.expr, st)
        elif isinstance(p, StarredPattern) and p.capture is not None:
            self.assign(p.capture, self.fresh(p.capture, st), st, None)
        elif isinstance(p, MappingPattern):
            for k, v in zip(p.keys, p.values, strict=True):
                self.expr(k, st)
                self._pattern(v, NOTHING, st)
            if p.rest is not None:
                self.assign(p.rest, self.fresh(p.rest, st), st, None)
        elif isinstance(p, ClassPattern):
            for q in [*p.positionals, *p.keyword_values]:
                self._pattern(q, NOTHING, st)


def _always_true(e: Expression) -> bool:
    return isinstance(e, NameExpr) and e.fullname == "builtins.True"


def _expects_raise(e: Expression) -> bool:
    """``pytest.raises(...)`` or ``self.assertRaises(...)``: the body is meant to fail."""
    if not isinstance(e, CallExpr):
        return False
    callee = e.callee
    if isinstance(callee, RefExpr) and callee.fullname in RAISES:
        return True
    return isinstance(callee, MemberExpr) and callee.name in ASSERT_RAISES


def _catches_ownership_error(t: Expression | None) -> bool:
    if isinstance(t, TupleExpr):
        return any(_catches_ownership_error(i) for i in t.items)
    return isinstance(t, RefExpr) and t.fullname in OWNERSHIP_ERRORS
