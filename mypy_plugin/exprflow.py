"""Evaluating expressions abstractly: which references each expression may denote.

Every expression is evaluated in Python's order, so that an observer sees each use and each
call at the point it happens. Places (names, attributes, elements) are reported as uses;
calls are reported with their callee's and arguments' references before their effects.
Expressions the analysis does not model still have their parts evaluated, and give a fresh
value: what cannot be shown is not reported (the runtime guards catch the rest).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from mypy.checker import TypeChecker
from mypy.nodes import (
    AssignmentExpr,
    AwaitExpr,
    CallExpr,
    CastExpr,
    ComparisonExpr,
    ConditionalExpr,
    Decorator,
    DictExpr,
    DictionaryComprehension,
    EllipsisExpr,
    Expression,
    FuncDef,
    GeneratorExpr,
    IndexExpr,
    IntExpr,
    LambdaExpr,
    ListComprehension,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    OpExpr,
    OverloadedFuncDef,
    RefExpr,
    SetComprehension,
    SetExpr,
    SliceExpr,
    StarExpr,
    StrExpr,
    TupleExpr,
    TypeInfo,
    UnaryExpr,
    Var,
    YieldExpr,
    YieldFromExpr,
)

from mypy_plugin import sites
from mypy_plugin.names import ASARRAY, PARTIAL, render
from mypy_plugin.state import NOTHING, HeapKey, Refs, State
from mypy_plugin.values import Dim, Index, Lin, Ref, Site

PURE_PREFIXES = ("builtins.", "numpy.", "math.", "gpuoff.", "typing.", "functools.", "pytest.",
                 "_pytest.", "unittest.", "logging.", "os.", "time.")  # fmt: skip
"""Calls into these leave the attributes of their arguments as they were (for this analysis)."""


class Observer(Protocol):
    """What a check wants to see while the walk runs."""

    def call(self, w: ExprWalker, call: CallExpr, callee: Refs, args: list[Refs],
             st: State) -> None: ...  # fmt: skip

    def use(self, w: ExprWalker, e: Expression, refs: Refs, base: Refs, st: State) -> None: ...


@dataclass
class PartialInfo:
    """``functools.partial(f, *bound, **keywords)``: what it binds, for the call later."""

    func: Expression
    bound: list[tuple[Expression, Refs]]
    keywords: dict[str, tuple[Expression, Refs]] = field(default_factory=dict)


class ExprWalker:
    """Abstract evaluation of expressions (statements: ``flow.Walker``)."""

    def __init__(self, api: TypeChecker, observer: Observer) -> None:
        self.api = api
        self.obs = observer
        self.quiet = 0  # > 0 inside code that is meant to fail (pytest.raises, ...)
        self.partials: dict[Site, PartialInfo] = {}
        self.allocated: set[object] = set()  # allocation sites evaluated so far
        self.muted = 0  # id of a place being bound, not used (``b = a``, ``(a, b)``)
        self._module_aliases: dict[Var, NameExpr] | None = None
        self.table: dict[type[Expression], Callable[[Any, State], Refs]] = {
            NameExpr: self._name, MemberExpr: self._member, IndexExpr: self._index,
            CallExpr: self._call, TupleExpr: self._literal, ListExpr: self._literal,
            SetExpr: self._literal, DictExpr: self._dict, ConditionalExpr: self._conditional,
            AssignmentExpr: self._walrus, OpExpr: self._op, LambdaExpr: self._lambda,
            ListComprehension: self._comprehension, SetComprehension: self._comprehension,
            GeneratorExpr: self._comprehension, DictionaryComprehension: self._comprehension,
            CastExpr: self._cast, StarExpr: self._star,
        }  # fmt: skip

    # -- values -------------------------------------------------------------------------------

    def type_of(self, e: Expression) -> object:
        t = self.api.lookup_type_or_none(e)
        if t is None and isinstance(e, RefExpr) and isinstance(e.node, Var):
            t = e.node.type
        return t

    def fresh(self, e: Expression, st: State) -> Refs:
        site = sites.fresh_site(e, render(e), self.type_of(e))
        if site.key in self.allocated:
            st.renew(site)  # evaluated before (a loop): tell the new object from the old
        else:
            self.allocated.add(site.key)
        return frozenset({Ref(site)})

    def initial(self, var: Var) -> Refs:
        """What a variable holds before this code assigns it (a parameter, a global, a
        closure's variable); a module-level ``B = A`` is followed, so B and A are one."""
        alias = self.module_aliases().get(var)
        if alias is not None and isinstance(alias.node, Var) and alias.node is not var:
            return self.initial(alias.node)
        return frozenset({Ref(sites.var_site(var))})

    def module_aliases(self) -> dict[Var, NameExpr]:
        """Module variables assigned exactly once, from another module variable."""
        if self._module_aliases is None:
            counts: dict[Var, int] = {}
            simple: dict[Var, NameExpr] = {}
            from mypy.nodes import AssignmentStmt

            for s in self.api.tree.defs:
                if not isinstance(s, AssignmentStmt):
                    continue
                for lv in s.lvalues:
                    if isinstance(lv, NameExpr) and isinstance(lv.node, Var):
                        counts[lv.node] = counts.get(lv.node, 0) + 1
                        if isinstance(s.rvalue, NameExpr) and len(s.lvalues) == 1:
                            simple[lv.node] = s.rvalue
            self._module_aliases = {v: r for v, r in simple.items() if counts[v] == 1}
        return self._module_aliases

    def read(self, st: State, key: HeapKey) -> Refs:
        """An attribute or element: what was stored there, else the object's original one."""
        if key in st.heap:
            return st.heap[key]
        return self.default(st, key)

    def default(self, st: State, key: HeapKey) -> Refs:
        owner, what = key
        if isinstance(what, str) and what.startswith("attr:"):
            epoch = st.epoch.get(owner, frozenset())
            return frozenset({Ref(sites.field_site(owner, what[5:], epoch))})
        label = f"{owner.label}[{what!r}]" if not isinstance(what, tuple) else f"{owner.label}[?]"
        return frozenset({Ref(sites.element_site(owner, what, label))})

    def havoc(self, refs: Refs, call: CallExpr, st: State) -> None:
        """A call that may reassign these objects' attributes: later reads see new values."""
        for r in refs:
            if not r.views:
                st.epoch[r.site] = frozenset({id(call)})
                for key in [k for k in st.heap if k[0] == r.site]:
                    del st.heap[key]

    # -- evaluation ---------------------------------------------------------------------------

    def expr(self, e: Expression | None, st: State) -> Refs:
        if e is None:
            return NOTHING
        handler = self.table.get(type(e))
        if handler is not None:
            return handler(e, st)
        for sub in _children(e):
            self.expr(sub, st)
        return self.fresh(e, st) if _makes_value(e) else NOTHING

    def _name(self, e: NameExpr, st: State) -> Refs:
        node = e.node
        if isinstance(node, Var):
            refs = st.env.get(node)
            if refs is None:
                refs = self.initial(node)
            if id(e) != self.muted:
                self.obs.use(self, e, refs, NOTHING, st)
            return refs
        if isinstance(node, Decorator | FuncDef | OverloadedFuncDef | TypeInfo | MypyFile):
            return frozenset({Ref(sites.static_site(node, e.name))})
        return NOTHING

    def _member(self, e: MemberExpr, st: State) -> Refs:
        if isinstance(e.expr, RefExpr) and isinstance(e.expr.node, MypyFile):
            node = e.node  # mod.NAME: the module's variable itself
            if isinstance(node, Var):
                refs = st.env.get(node) or self.initial(node)
                self.obs.use(self, e, refs, NOTHING, st)
                return refs
            if node is not None:
                return frozenset({Ref(sites.static_site(node, e.name))})
            return NOTHING
        base = self.expr(e.expr, st)
        out: set[Ref] = set()
        for r in base:
            if r.views or r.site.shape in ("buffer", "launch", "kernel"):
                continue  # attributes of arrays (shape, ...) are not buffers
            out |= self.read(st, (r.site, f"attr:{e.name}"))
        refs = frozenset(out)
        if refs and id(e) != self.muted:
            self.obs.use(self, e, refs, base, st)
        return refs

    def _index(self, e: IndexExpr, st: State) -> Refs:
        base = self.expr(e.base, st)
        self.expr(e.index, st)
        out: set[Ref] = set()
        index: Index | None = None
        for r in base:
            if r.views or r.site.shape == "buffer":
                if index is None:
                    index = self.view_index(e.index, st)
                out.add(Ref(r.site, (*r.views, index)))
            elif r.site.shape == "container":
                out |= self.read(st, (r.site, self.key(e.index, st)))
            elif r.site.shape == "kernel":
                out.add(Ref(sites.launch_site(r.site)))
        refs = frozenset(out)
        if refs and id(e) != self.muted:
            self.obs.use(self, e, refs, base, st)
        return refs

    def bound(self, e: Expression, st: State) -> Refs:
        """Evaluate ``e`` where its value is only bound to a name or stored (``b = a``,
        ``(a, b)``): not a use of a moved handle (the runtime raises where the handle is
        used), but the binding carries the handle, so that later use is reported."""
        if isinstance(e, NameExpr | MemberExpr | IndexExpr):
            outer, self.muted = self.muted, id(e)
            try:
                return self.expr(e, st)
            finally:
                self.muted = outer
        return self.expr(e, st)

    def key(self, e: Expression, st: State) -> object:
        """An element key: a constant, a variable (as the assignment that reaches it), or
        this very expression (unknown: equal to no other key)."""
        if isinstance(e, IntExpr | StrExpr):
            return e.value
        if isinstance(e, UnaryExpr) and e.op == "-" and isinstance(e.expr, IntExpr):
            return -e.expr.value
        if isinstance(e, NameExpr) and isinstance(e.node, Var):
            final = _final_int(e.node)
            if final is not None:
                return final
            return ("var", id(e.node), st.defs.get(e.node, frozenset()))
        return ("expr", id(e))

    def lin(self, e: Expression | None, st: State) -> Lin | None:
        if isinstance(e, IntExpr):
            return Lin(e.value)
        if isinstance(e, UnaryExpr) and e.op == "-":
            inner = self.lin(e.expr, st)
            return inner.scaled(-1) if inner is not None else None
        if isinstance(e, NameExpr) and isinstance(e.node, Var):
            final = _final_int(e.node)
            if final is not None:
                return Lin(final)
            return Lin(0, (((id(e.node), st.defs.get(e.node, frozenset())), 1),))
        if isinstance(e, OpExpr) and e.op in ("+", "-", "*"):
            left, right = self.lin(e.left, st), self.lin(e.right, st)
            if left is None or right is None:
                return None
            if e.op == "+":
                return left + right
            if e.op == "-":
                return left + right.scaled(-1)
            if not left.terms:
                return right.scaled(left.const)
            if not right.terms:
                return left.scaled(right.const)
        return None

    def view_index(self, e: Expression, st: State) -> Index:
        items = e.items if isinstance(e, TupleExpr) else [e]
        out: list[Dim] = []
        for item in items:
            if isinstance(item, SliceExpr):
                step: int | None = 1
                if item.stride is not None:
                    s = self.lin(item.stride, st)
                    step = s.const if s is not None and not s.terms else None
                lo = self.lin(item.begin_index, st) if item.begin_index is not None else None
                hi = self.lin(item.end_index, st) if item.end_index is not None else None
                known = (item.begin_index is None or lo is not None) and (
                    item.end_index is None or hi is not None)  # fmt: skip
                out.append(Dim("slice", lo, hi, step) if known else Dim("any"))
            elif isinstance(item, EllipsisExpr) or (
                isinstance(item, NameExpr) and item.fullname == "builtins.None"
            ):
                out.append(Dim("stop"))
            else:
                value = self.lin(item, st)
                out.append(Dim("int", value) if value is not None else Dim("any"))
        return tuple(out)

    def _call(self, e: CallExpr, st: State) -> Refs:
        callee = self.expr(e.callee, st)
        args = [self.expr(a, st) for a in e.args]
        self.obs.call(self, e, callee, args, st)
        name = e.callee.fullname if isinstance(e.callee, RefExpr) else ""
        if name in ASARRAY and args:
            return args[0]
        if name == PARTIAL and e.args:
            return self._partial(e, args, st)
        if not name.startswith(PURE_PREFIXES):
            if isinstance(e.callee, MemberExpr) and not (
                isinstance(e.callee.expr, RefExpr) and isinstance(e.callee.expr.node, MypyFile)
            ):
                self.havoc(self.expr_refs_no_use(e.callee.expr, st), e, st)
            for a in args:
                self.havoc(a, e, st)
        return self.fresh(e, st)

    def expr_refs_no_use(self, e: Expression, st: State) -> Refs:
        """The references of a receiver already evaluated (no second use reported)."""
        if isinstance(e, NameExpr) and isinstance(e.node, Var):
            return st.env.get(e.node) or self.initial(e.node)
        return NOTHING

    def _partial(self, e: CallExpr, args: list[Refs], st: State) -> Refs:
        refs = self.fresh(e, st)
        info = PartialInfo(e.args[0], [])
        for a, kind, name, r in zip(e.args[1:], e.arg_kinds[1:], e.arg_names[1:], args[1:],
                                    strict=True):  # fmt: skip
            if kind.is_star():
                return refs  # *args/**kw: cannot tell what binds where
            if name is None:
                info.bound.append((a, r))
            else:
                info.keywords[name] = (a, r)
        for ref in refs:
            self.partials[ref.site] = info
        return refs

    def _literal(self, e: TupleExpr | ListExpr | SetExpr, st: State) -> Refs:
        items = [self.bound(i, st) for i in e.items]
        refs = self.fresh(e, st)
        (site,) = (r.site for r in refs)
        site = Site(site.kind, site.key, site.label, "container", site.typ)
        for k, r in enumerate(items):
            if isinstance(e.items[k], StarExpr):
                break  # positions after a starred item are unknown
            st.heap[(site, k)] = r
        return frozenset({Ref(site)})

    def _dict(self, e: DictExpr, st: State) -> Refs:
        values = []
        for k, v in e.items:
            self.expr(k, st)
            values.append(self.bound(v, st))
        refs = self.fresh(e, st)
        (site,) = (r.site for r in refs)
        site = Site(site.kind, site.key, site.label, "container", site.typ)
        for (k, _), vr in zip(e.items, values, strict=True):
            if isinstance(k, StrExpr | IntExpr):
                st.heap[(site, k.value)] = vr
        return frozenset({Ref(site)})

    def _conditional(self, e: ConditionalExpr, st: State) -> Refs:
        self.expr(e.cond, st)
        return self.expr(e.if_expr, st) | self.expr(e.else_expr, st)

    def _op(self, e: OpExpr, st: State) -> Refs:
        left = self.expr(e.left, st)
        right = self.expr(e.right, st)
        if e.op in ("and", "or"):
            return left | right  # one of the operands itself
        return self.fresh(e, st)

    def _walrus(self, e: AssignmentExpr, st: State) -> Refs:
        refs = self.expr(e.value, st)
        if isinstance(e.target.node, Var):
            st.env[e.target.node] = refs
            st.defs[e.target.node] = frozenset({id(e)})
        return refs

    def _cast(self, e: CastExpr, st: State) -> Refs:
        return self.expr(e.expr, st)

    def _star(self, e: StarExpr, st: State) -> Refs:
        return self.expr(e.expr, st)

    def _lambda(self, e: LambdaExpr, st: State) -> Refs:
        # The body runs when the lambda is called, not here: like nested functions, it is
        # left to the runtime guards (tests build lambdas of moved buffers on purpose).
        return self.fresh(e, st)

    def _comprehension(self, e: Expression, st: State) -> Refs:
        gen = e.generator if isinstance(e, ListComprehension | SetComprehension) else e
        if isinstance(e, DictionaryComprehension):
            indices, sequences, condlists = e.indices, e.sequences, e.condlists
            results: list[Expression | None] = [e.key, e.value]
        else:
            assert isinstance(gen, GeneratorExpr)
            indices, sequences, condlists = gen.indices, gen.sequences, gen.condlists
            results = [gen.left_expr]
        for index, seq, conds in zip(indices, sequences, condlists, strict=True):
            self.bind_element(index, self.expr(seq, st), e, st)
            for c in conds:
                self.expr(c, st)
        for r in results:
            self.expr(r, st)
        return self.fresh(e, st)

    def elements(self, container: Refs, node: Expression, st: State) -> Refs:
        """What iterating over ``container`` may give: a literal's items, else a new value."""
        out: set[Ref] = set()
        for r in container:
            if r.site.shape == "container" and r.site.kind == "alloc":
                items = [v for (s, _), v in st.heap.items() if s == r.site]
                for v in items:
                    out |= v
        if out:
            return frozenset(out)
        return self.fresh(node, st)

    def bind_element(self, target: Expression, container: Refs, node: Expression,
                     st: State) -> None:  # fmt: skip
        """``for target in container`` (also in comprehensions)."""
        self.assign(target, self.elements(container, node, st), st, node)

    # -- assignment ---------------------------------------------------------------------------

    def assign(self, lv: Expression, refs: Refs, st: State, node: Expression | None,
               items: list[Refs] | None = None) -> None:  # fmt: skip
        """Bind an assignment target. ``items``: the right side's values one by one, when it
        is a tuple or list display (``a, b = b, a`` swaps them)."""
        if isinstance(lv, NameExpr):
            if isinstance(lv.node, Var):
                st.env[lv.node] = refs
                st.defs[lv.node] = frozenset({id(lv)})
        elif isinstance(lv, TupleExpr | ListExpr):
            if items is not None and len(items) == len(lv.items) and not any(
                isinstance(i, StarExpr) for i in lv.items
            ):
                for target, value in zip(lv.items, items, strict=True):
                    self.assign(target, value, st, node)
                return
            for k, target in enumerate(lv.items):
                if isinstance(target, StarExpr):
                    self.assign(target.expr, self.fresh(target, st), st, node)
                    break
                owners = [r for r in refs if not r.views and r.site.shape != "buffer"]
                part = frozenset().union(*(self.read(st, (r.site, k)) for r in owners))
                self.assign(target, part or self.fresh(target, st), st, node)
        elif isinstance(lv, MemberExpr):
            base = self.expr(lv.expr, st)
            owners = [r for r in base if not r.views]
            for r in owners:
                attr: HeapKey = (r.site, f"attr:{lv.name}")
                st.heap[attr] = refs if len(owners) == 1 else self.read(st, attr) | refs
        elif isinstance(lv, IndexExpr):
            base = self.expr(lv.base, st)
            self.expr(lv.index, st)
            owners = [r for r in base if not r.views and r.site.shape == "container"]
            element = self.key(lv.index, st)
            for r in owners:
                strong = len(owners) == 1 and not isinstance(element, tuple)
                slot: HeapKey = (r.site, element)
                st.heap[slot] = refs if strong else self.read(st, slot) | refs
        elif isinstance(lv, StarExpr):
            self.assign(lv.expr, refs, st, node)


def _final_int(var: Var) -> int | None:
    value = var.final_value if var.is_final else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _makes_value(e: Expression) -> bool:
    return not isinstance(e, IntExpr | StrExpr | EllipsisExpr)


def _children(e: Expression) -> list[Expression]:
    """Direct sub-expressions of the nodes without a handler, in evaluation order."""
    if isinstance(e, UnaryExpr | AwaitExpr):
        return [e.expr]
    if isinstance(e, ComparisonExpr):
        return list(e.operands)
    if isinstance(e, SliceExpr):
        return [x for x in (e.begin_index, e.end_index, e.stride) if x is not None]
    if isinstance(e, YieldExpr | YieldFromExpr):
        return [e.expr] if e.expr is not None else []
    inner = getattr(e, "expr", None)
    return [inner] if isinstance(inner, Expression) else []
