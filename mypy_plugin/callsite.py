"""One call site checked against its callee's ownership: aliasing, and uses after its moves.

The walk of the enclosing function is run for the call being checked: it records which
references reach each argument (on every path) and, once the call has moved its ``Owned``
arguments, reports each later use of a moved handle. Each call reports only its own
errors, so every error is reported once, at the use, naming the line of the move.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mypy.checker import TypeChecker
from mypy.nodes import CallExpr, Expression, FuncDef, IndexExpr, NameExpr, Var
from mypy.subtypes import is_subtype
from mypy.types import Type

from gpuoff.ownership import (
    Access,
    conflicts,
    static_alias_message,
    static_move_message,
    static_summary_alias_message,
)
from mypy_plugin.exprflow import ExprWalker
from mypy_plugin.flow import Walker
from mypy_plugin.names import ALIAS, USE_AFTER_MOVE, describe
from mypy_plugin.state import MoveInfo, Refs, State
from mypy_plugin.values import Ref, overlap


@dataclass(frozen=True)
class Formal:
    """A callee parameter as the checks see it."""

    name: str
    access: Access | None
    typ: Type | None = None


@dataclass(frozen=True)
class InnerUse:
    """A callee's body passes its parameters to a launch: (parameter index, the launched
    kernel's parameter name, its access) for each, with the kernel's name and line."""

    kernel: str
    line: int
    params: tuple[tuple[int, str, Access], ...]


@dataclass
class CallSite:
    """What one hook knows about its call: formals and which actual arguments fill them."""

    call: CallExpr
    formals: list[Formal]
    actuals: list[list[int]]  # per formal: indexes into call.args
    launch: bool = False  # a kernel launch (the fix for a move is to keep what it returns)
    in_kernel: bool = False  # a device-function call inside a kernel (no copies there)
    inner: list[InnerUse] = field(default_factory=list)
    name: str | None = None  # the callee's name in messages, when the hook knows better


class CallObserver:
    """Sees the walk for one call: the references of its arguments and later moved uses."""

    def __init__(self, api: TypeChecker, site: CallSite, moving: set[int]) -> None:
        self.api = api
        self.site = site
        self.moving = moving
        self.seen = False
        self.quiet = False
        self.args: list[set[Ref]] = [set() for _ in site.call.args]
        self.visits: list[list[Refs]] = []  # the arguments' references, per path reaching it
        self.callee: set[Ref] = set()
        self.reports: dict[int, tuple[Expression, str]] = {}
        self.callee_name = ""

    def call(self, w: ExprWalker, call: CallExpr, callee: Refs, args: list[Refs],
             st: State) -> None:  # fmt: skip
        for a, refs in zip(call.args, args, strict=True):
            self._check(w, a, refs, frozenset(), st, late=True)  # a call uses its arguments
        if call is not self.site.call:
            return
        self.seen = True
        self.quiet |= w.quiet > 0
        self.callee |= callee
        for i, refs in enumerate(args):
            self.args[i] |= refs
        if args not in self.visits:
            self.visits.append(list(args))
        if not w.quiet:
            for i in self.moving:
                text = describe(call.args[i], self.api)
                for r in args[i]:
                    st.moved[r] = MoveInfo(call, text)

    def use(self, w: ExprWalker, e: Expression, refs: Refs, base: Refs, st: State) -> None:
        self._check(w, e, refs, base, st, late=False)

    def _check(self, w: ExprWalker, e: Expression, refs: Refs, base: Refs, st: State,
               late: bool) -> None:  # fmt: skip
        if w.quiet or not st.moved or id(e) in self.reports:
            return
        info = st.moved_by(refs)
        if info is None or st.moved_by(base) is not None:
            return  # not moved, or its base already reported (``a`` in ``a[1:]``)
        call = info.call
        end = (call.end_line or call.line, call.end_column or call.column)
        earlier = not late and (e.line, e.column) < end
        msg = static_move_message(describe(e, self.api), self.name(), call.line,
                                  alias=info.arg_text, earlier=earlier,
                                  launch=self.site.launch)  # fmt: skip
        self.reports[id(e)] = (e, msg)

    def name(self) -> str:
        """The callee in messages: the kernel a launch runs, else the callee's spelling."""
        if self.site.name is not None:
            return self.site.name
        labels = {r.site.label for r in self.callee if r.site.kind == "launch"}
        if len(labels) == 1 and all(r.site.kind == "launch" for r in self.callee):
            return labels.pop()
        callee = self.site.call.callee
        if isinstance(callee, IndexExpr):  # k[grid](...)
            callee = callee.base
        return describe(callee, self.api)


def moving_arguments(site: CallSite) -> set[int]:
    """Actual arguments a call moves: those passed to ``Owned`` (or moved one call deeper),
    unless their type does not fit (the call fails before it moves anything)."""
    out: set[int] = set()
    owned = {i for i, f in enumerate(site.formals) if f.access is Access.OWNED}
    owned |= {p for use in site.inner for p, _, acc in use.params if acc is Access.OWNED}
    for f in owned:
        if f >= len(site.actuals):
            continue
        for a in site.actuals[f]:
            if site.call.arg_kinds[a].is_star():
                continue
            arg = site.call.args[a]
            typ = site.formals[f].typ
            if isinstance(arg, NameExpr) and isinstance(arg.node, Var) and typ is not None:
                have = arg.node.type
                if have is not None and not is_subtype(have, typ):
                    continue
            out.add(a)
    return out


def check_call_site(api: TypeChecker, site: CallSite) -> None:
    """Run the walk for ``site`` and report its aliasing and its uses after move."""
    moving = moving_arguments(site)
    if not moving and not _may_alias(site):
        return
    obs = CallObserver(api, site, moving)
    Walker(api, obs, current_function(api)).run()
    if not obs.seen:
        return  # not reached by the walk (a class body): leave it to the runtime
    if not obs.quiet:
        for arg, msg in alias_errors(api, site, obs):
            api.fail(msg, arg, code=ALIAS)
    for e, msg in sorted(obs.reports.values(), key=lambda p: (p[0].line, p[0].column)):
        api.fail(msg, e, code=USE_AFTER_MOVE)


def current_function(api: TypeChecker) -> FuncDef | None:
    """The function being checked (None: module top level, or a lambda's body)."""
    fn = api.scope.current_function()
    return fn if isinstance(fn, FuncDef) else None


def _slots(site: CallSite) -> list[tuple[int, int]]:
    """(formal, actual) for every plain argument, in formal order."""
    out = []
    for f, group in enumerate(site.actuals):
        for a in group:
            if not site.call.arg_kinds[a].is_star():
                out.append((f, a))
    return out


def _may_alias(site: CallSite) -> bool:
    slots = _slots(site)
    if len(slots) < 2:
        return False
    if any((acc := site.formals[f].access) is not None and acc.exclusive for f, _ in slots):
        return True
    return bool(site.inner)


def subject(api: TypeChecker, e1: Expression, e2: Expression,
            visits: list[tuple[Refs, Refs]]) -> str | None:  # fmt: skip
    """How two arguments overlap, for the message (``visits``: their references on each
    path that reaches the call); None when they cannot overlap on any path."""
    hits = []
    must = True
    for r1, r2 in visits:
        here = [(a, b) for a in r1 for b in r2 if overlap(a, b) != "no"]
        hits += here
        must &= bool(here) and len(r1) == 1 and len(r2) == 1
    if not hits:
        return None
    t1, t2 = describe(e1, api), describe(e2, api)
    if t1 == t2:
        return f"{t1!r} is"
    if all(not a.views and not b.views for a, b in hits):
        return f"{t1!r} and {t2!r} {'are' if must else 'may be'} the same buffer,"
    return f"{t1!r} and {t2!r} may overlap (views of {hits[0][0].site.label!r}),"


def alias_errors(
    api: TypeChecker, site: CallSite, obs: CallObserver
) -> list[tuple[Expression, str]]:
    """Rule 3 (gpuoff.ownership): an exclusive argument overlapping another one."""
    out: list[tuple[Expression, str]] = []
    slots = _slots(site)
    callee = obs.name()
    for j, (fj, aj) in enumerate(slots):
        for fi, ai in slots[:j]:
            msg = _pair_message(api, site, obs, callee, (fi, ai), (fj, aj))
            if msg is not None:
                pair = (site.call.args[ai], site.call.args[aj])
                later = max(pair, key=lambda e: (e.line, e.column))
                out.append((later, msg))
                break
    return out


def _pair_message(api: TypeChecker, site: CallSite, obs: CallObserver, callee: str,
                  first: tuple[int, int], second: tuple[int, int]) -> str | None:  # fmt: skip
    (fi, ai), (fj, aj) = first, second
    e1, e2 = site.call.args[ai], site.call.args[aj]
    acc_i, acc_j = site.formals[fi].access, site.formals[fj].access
    if acc_i is not None and acc_j is not None and conflicts(acc_i, acc_j):
        what = subject(api, e1, e2, [(v[ai], v[aj]) for v in obs.visits])
        if what is None:
            return None
        copy = e1 if not acc_i.exclusive else e2  # copy the shared one, if there is one
        copy_of = None if site.in_kernel else describe(copy, api)
        return static_alias_message(what, callee, (site.formals[fi].name, acc_i),
                                    (site.formals[fj].name, acc_j), copy_of)  # fmt: skip
    for use in site.inner:
        by_param = {p: (name, acc) for p, name, acc in use.params}
        if fi in by_param and fj in by_param and conflicts(by_param[fi][1], by_param[fj][1]):
            what = subject(api, e1, e2, [(v[ai], v[aj]) for v in obs.visits])
            if what is None:
                return None
            return static_summary_alias_message(
                what, callee, (site.formals[fi].name, site.formals[fj].name), use.kernel,
                by_param[fi], by_param[fj], use.line, describe(e1, api))
    return None
