"""The race sanitizer: a rewrite of a kernel's IR that records every access it may race on.

``instrument(module)`` returns the kernel with every load, store and atomic of a global
``BorrowMut``/``Owned`` array and of a shared array preceded by the shadow bookkeeping of
``gpuoff.ir.sanitize_ir``, and with the extra parameters that needs after the kernel's own:
one shadow array per such global array (``(*shape, slots)`` i64, zeroed before the launch)
and the log (``LOG_SLOTS`` i64, zeroed). Shared arrays get shared shadows, cleared by the
group at its start (their contents are undefined there). ``report`` reads the log after the
launch and gives the ``RaceError`` of the first conflict: both work-items' ids, the array,
the element and both source lines. ``run`` is the interpreter with the sanitizer.

The rewrite keeps the kernel's meaning: expressions that read checked arrays, call device
functions or update atomically are evaluated once, in order, into temporaries before the
statement that used them (``and``/``or`` and conditional expressions become ``if``s, so only
the operands Python would evaluate are); a ``while`` condition with such reads becomes
``while True: ...; if not cond: break``. Device functions are cloned per pattern of checked
array arguments and get the shadows, the array ids and the work-item's words as parameters.
Accesses the static check cannot see (``with go.unsafe():``, data-dependent indices) are
recorded like every other: that is what the sanitizer is for.

Exact where work-items run one after another between barriers (the interpreter, and ``cpu``,
where the runtime runs a sanitized launch on one thread): the first conflicting pair of
accesses is found whatever the order. Its cost is a few loads, compares and stores per access.
"""

from __future__ import annotations

import linecache
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from gpuoff.errors import BoundsError, RaceError, SourceLocation
from gpuoff.ir import nodes as n
from gpuoff.ir import sanitize_ir as S
from gpuoff.ir.sanitize_quiet import quiet_reads
from gpuoff.ir.types import INDEX, ArrayType, ScalarType, boolean

__all__ = ["Sanitized", "SiteInfo", "instrument", "report", "run"]

_PREFIX = "_gpuoff_s"


@dataclass(frozen=True)
class SiteInfo:
    """One instrumented access: where it is and what it does (``read``/``write``/``atomic``)."""

    function: str
    array: str
    kind: str
    filename: str
    line: int
    col: int
    end_col: int | None


@dataclass(frozen=True)
class Sanitized:
    """An instrumented module: the kernel array parameters with a shadow and its number of
    slots (the shadow parameters follow the kernel's own, in this order, then the log), the
    checked arrays by id (``(name, shared)``, id 1 first) and the sites by id (1 first)."""

    module: n.Module
    shadows: tuple[tuple[str, int], ...]
    arrays: tuple[tuple[str, bool], ...]
    sites: tuple[SiteInfo, ...]


@dataclass(frozen=True)
class _Shadow:
    """A checked array as one function sees it: its shadow, its id and the shadow's slots."""

    ref: n.ArrayRef
    array_id: n.Expr
    slots: S.Layout


@dataclass
class _Fn:
    """The rewrite of one function: its checked arrays by name."""

    fn: n.Function
    tracked: dict[str, _Shadow]
    locals: dict[str, ScalarType] = field(default_factory=dict)

    def temp(self, t: ScalarType) -> n.Var:
        name = f"{_PREFIX}{len(self.locals)}"
        self.locals[name] = t
        return n.Var(t, name)


LOG_REF = n.ArrayRef(S.LOG, S.LOG_TYPE)
_WORDS = (S.GWORD, S.LWORD, S.GROUP_ID)


def instrument(module: n.Module) -> Sanitized:
    """The sanitized version of ``module`` (see the module docstring)."""
    return _Rewriter(module).run()


class _Rewriter:
    def __init__(self, module: n.Module) -> None:
        self.module = module
        self.sites: list[SiteInfo] = []
        self.arrays: list[tuple[str, bool]] = []
        self.clones: dict[tuple[str, tuple[S.Layout, ...]], n.Function] = {}
        self.order: list[n.Function] = []
        self.quiet = quiet_reads(module.kernel)
        self.kinds = access_kinds(module, self.quiet)

    def run(self) -> Sanitized:
        k = self.module.kernel
        tracked: dict[str, _Shadow] = {}
        extra: list[n.Param] = []
        shadows: list[tuple[str, int]] = []
        for p in k.params:
            slots = S.layout(self.kinds.get(p.name, set()))
            if isinstance(p.type, ArrayType) and p.type.access.writes and slots:
                ref = n.ArrayRef(f"{p.name}__race", S.shadow_type(p.type, len(slots)))
                tracked[p.name] = _Shadow(ref, S.i64(self._array(p.name, False)), slots)
                extra.append(n.Param(ref.name, ref.type))
                shadows.append((p.name, len(slots)))
        shared = list(k.shared)
        clears: list[n.Stmt] = []
        for sh in k.shared:
            slots = S.layout(self.kinds.get(sh.name, set()))
            if not slots:
                continue
            ref = n.ArrayRef(f"{sh.name}__race", S.shadow_type(sh.type, len(slots)))
            tracked[sh.name] = _Shadow(ref, S.i64(self._array(sh.name, True)), slots)
            shared.append(n.SharedArray(ref.name, ref.type))
            clears.append(S.zero_shadow(ref, f"{_PREFIX}clear"))
        fx = _Fn(k, tracked)
        body = [*S.prologue()]
        if clears:
            fx.locals[f"{_PREFIX}clear"] = INDEX
            body += [*clears, n.Barrier()]
        body += self.block(fx, k.body)
        locals_ = {**k.locals, **fx.locals, **dict.fromkeys(_WORDS, INDEX)}
        kernel = replace(k, params=(*k.params, *extra, n.Param(S.LOG, S.LOG_TYPE)),
                         body=tuple(body), locals=locals_, shared=tuple(shared))  # fmt: skip
        module = replace(self.module, kernel=kernel, functions=(*self.module.functions,
                                                                *self.order))  # fmt: skip
        return Sanitized(module, tuple(shadows), tuple(self.arrays), tuple(self.sites))

    def _array(self, name: str, shared: bool) -> int:
        self.arrays.append((name, shared))
        return len(self.arrays)

    # -- device functions -------------------------------------------------------------------------

    def clone(self, name: str, pattern: tuple[S.Layout, ...]) -> n.Function:
        """``name`` with its checked array parameters (``pattern``: per array parameter, the
        slots of its argument's shadow; empty: not checked)."""
        hit = self.clones.get((name, pattern))
        if hit is not None:
            return hit
        fn = self.module.function(name)
        arrays = [p for p in fn.params if isinstance(p.type, ArrayType)]
        tracked: dict[str, _Shadow] = {}
        extra: list[n.Param] = []
        for p, slots in zip(arrays, pattern, strict=True):
            if slots:
                assert isinstance(p.type, ArrayType)
                ref = n.ArrayRef(f"{p.name}__race", S.shadow_type(p.type, len(slots)))
                tracked[p.name] = _Shadow(ref, S.var(f"{p.name}__race_id"), slots)
                extra += [n.Param(ref.name, ref.type), n.Param(f"{p.name}__race_id", INDEX)]
        bits = "_".join("".join(r[0] for r in slots) or "0" for slots in pattern)
        fx = _Fn(fn, tracked)
        params = (*fn.params, *extra, n.Param(S.LOG, S.LOG_TYPE),
                  *(n.Param(w, INDEX) for w in _WORDS))  # fmt: skip
        placeholder = replace(fn, name=f"{fn.name}__race{bits}", params=params)
        self.clones[(name, pattern)] = placeholder  # (no recursion: callees come first)
        body = self.block(fx, fn.body)
        out = replace(placeholder, body=body, locals={**fn.locals, **fx.locals})
        self.clones[(name, pattern)] = out
        self.order.append(out)
        return out

    def call(self, fx: _Fn, e: n.Call, pre: list[n.Stmt]) -> n.Call:
        args: list[n.Expr | n.ArrayRef] = []
        pattern: list[S.Layout] = []
        extra: list[n.Expr | n.ArrayRef] = []
        for a in e.args:
            if isinstance(a, n.ArrayRef):
                args.append(a)
                shadow = fx.tracked.get(a.name)
                pattern.append(shadow.slots if shadow is not None else ())
                if shadow is not None:
                    extra += [shadow.ref, shadow.array_id]
            else:
                args.append(self._bound(fx, self.expr(fx, a, pre), pre))
        clone = self.clone(e.callee, tuple(pattern))
        words = tuple(S.var(w) for w in _WORDS)
        return replace(e, callee=clone.name, args=(*args, *extra, LOG_REF, *words))

    # -- statements ---------------------------------------------------------------------------

    def block(self, fx: _Fn, body: tuple[n.Stmt, ...]) -> tuple[n.Stmt, ...]:
        out: list[n.Stmt] = []
        for s in body:
            out += self.stmt(fx, s)
        return tuple(out)

    def stmt(self, fx: _Fn, s: n.Stmt) -> list[n.Stmt]:
        pre: list[n.Stmt] = []
        if isinstance(s, n.Assign):
            value = self.expr(fx, s.value, pre)
            return [*pre, replace(s, value=value)]
        if isinstance(s, n.Store):
            idx = tuple(self._bound(fx, self.expr(fx, i, pre), pre) for i in s.indices)
            value = self.expr(fx, s.value, pre)
            if s.array.name in fx.tracked:
                self._checked(fx, s.array, idx, "write", s.loc, pre)
            return [*pre, replace(s, indices=idx, value=value)]
        if isinstance(s, n.If):
            cond = self.expr(fx, s.cond, pre)
            return [*pre, replace(s, cond=cond, body=self.block(fx, s.body),
                                  orelse=self.block(fx, s.orelse))]  # fmt: skip
        if isinstance(s, n.While):
            cond = self.expr(fx, s.cond, pre)
            body = self.block(fx, s.body)
            if not pre:
                return [replace(s, body=body)]
            leave = n.If(n.Unary(boolean, "not", cond), (n.Break(),))
            return [replace(s, cond=n.Const(boolean, True), body=(*pre, leave, *body))]
        if isinstance(s, n.ForRange):
            start, stop, step = (self.expr(fx, x, pre) for x in (s.start, s.stop, s.step))
            return [*pre, replace(s, start=start, stop=stop, step=step,
                                  body=self.block(fx, s.body))]  # fmt: skip
        if isinstance(s, n.Return) and s.value is not None:
            value = self.expr(fx, s.value, pre)
            return [*pre, replace(s, value=value)]
        if isinstance(s, n.ExprStmt):
            if isinstance(s.expr, n.Call):
                call = self.call(fx, s.expr, pre)  # (fills pre first)
                return [*pre, replace(s, expr=call)]
            self.expr(fx, s.expr, pre)  # an atomic: its old value goes to a temporary
            return pre
        if isinstance(s, n.Barrier):
            return [s, S.next_epoch()]
        return [s]

    def _checked(self, fx: _Fn, ref: n.ArrayRef, idx: tuple[n.Expr, ...], kind: str,
                 loc: n.Loc | None, pre: list[n.Stmt]) -> None:  # fmt: skip
        """Append the shadow bookkeeping of one access to ``pre`` (if it has any)."""
        self.sites.append(SiteInfo(fx.fn.name, ref.name, kind, fx.fn.filename,
                                   loc.line if loc else 0, loc.col if loc else 0,
                                   loc.end_col if loc else None))  # fmt: skip
        if len(self.sites) >= 1 << S.SITE_BITS:
            raise RaceError(f"the race sanitizer supports {1 << S.SITE_BITS} accesses per "
                            f"kernel; {fx.fn.name} has more")  # fmt: skip
        shadow = fx.tracked[ref.name]
        check = S.Checked(ref, shadow.ref, shadow.slots, idx, len(self.sites), shadow.array_id,
                          LOG_REF, (f"{_PREFIX}w", f"{_PREFIX}c"))  # fmt: skip
        stmt = check.statements(kind)
        if stmt is not None:
            fx.locals.setdefault(f"{_PREFIX}w", INDEX)
            fx.locals.setdefault(f"{_PREFIX}c", INDEX)
            pre.append(stmt)

    # -- expressions --------------------------------------------------------------------------

    def _effects(self, fx: _Fn, e: n.Expr) -> bool:
        """Whether ``e`` reads a checked array, calls, or updates atomically."""
        if isinstance(e, n.Call | n.AtomicRMW):
            return True
        if isinstance(e, n.Load) and e.array.name in fx.tracked and id(e) not in self.quiet:
            return True
        for name in e.__dataclass_fields__:
            v = getattr(e, name)
            if isinstance(v, n.Expr) and self._effects(fx, v):
                return True
            if isinstance(v, tuple) and any(isinstance(x, n.Expr) and self._effects(fx, x)
                                            for x in v):  # fmt: skip
                return True
        return False

    def _bound(self, fx: _Fn, e: n.Expr, pre: list[n.Stmt]) -> n.Expr:
        """``e`` as a constant or variable (a temporary if needed), to be used again."""
        if isinstance(e, n.Const | n.Var):
            return e
        t = fx.temp(e.type)
        pre.append(n.Assign(t.name, e))
        return t

    def expr(self, fx: _Fn, e: n.Expr, pre: list[n.Stmt]) -> n.Expr:
        """``e`` with every effect before it in ``pre``, in evaluation order."""
        if not self._effects(fx, e):
            return e
        if isinstance(e, n.Load | n.AtomicRMW):
            idx = tuple(self._bound(fx, self.expr(fx, i, pre), pre) for i in e.indices)
            if isinstance(e, n.AtomicRMW):
                # cas: the compare's effects before the value's, the IR's order
                compare = None if e.compare is None else self.expr(fx, e.compare, pre)
                value = self.expr(fx, e.value, pre)
                new: n.Expr = replace(e, indices=idx, value=value, compare=compare)
                kind = "atomic"
            else:
                new, kind = replace(e, indices=idx), "read"
            if e.array.name in fx.tracked and not (kind == "read" and id(e) in self.quiet):
                self._checked(fx, e.array, idx, kind, e.loc, pre)
            return self._bound(fx, new, pre)
        if isinstance(e, n.Call):
            return self._bound(fx, self.call(fx, e, pre), pre)
        if isinstance(e, n.Logical):
            lhs = self.expr(fx, e.lhs, pre)
            inner: list[n.Stmt] = []
            rhs = self.expr(fx, e.rhs, inner)
            t = fx.temp(boolean)
            pre.append(n.Assign(t.name, lhs))
            go_on: n.Expr = t if e.op == "and" else n.Unary(boolean, "not", t)
            pre.append(n.If(go_on, (*inner, n.Assign(t.name, rhs))))
            return t
        if isinstance(e, n.Select):
            cond = self.expr(fx, e.cond, pre)
            a_pre: list[n.Stmt] = []
            b_pre: list[n.Stmt] = []
            a = self.expr(fx, e.if_true, a_pre)
            b = self.expr(fx, e.if_false, b_pre)
            t = fx.temp(e.type)
            pre.append(n.If(cond, (*a_pre, n.Assign(t.name, a)), (*b_pre, n.Assign(t.name, b))))
            return t
        changes: dict[str, Any] = {}
        for name in e.__dataclass_fields__:
            if name == "loc":
                continue
            v = getattr(e, name)
            if isinstance(v, n.Expr):
                changes[name] = self.expr(fx, v, pre)
            elif isinstance(v, tuple) and v and all(isinstance(x, n.Expr) for x in v):
                changes[name] = tuple(self.expr(fx, x, pre) for x in v)
        return replace(e, **changes)


def access_kinds(module: n.Module, quiet: set[int] | frozenset[int] = frozenset(),
                 ) -> dict[str, set[str]]:  # fmt: skip
    """Per array of the kernel (parameter or shared), the kinds of access it gets anywhere,
    device functions included: ``read``, ``write``, ``atomic`` (``quiet``: the reads left
    out, ``sanitize_quiet``)."""
    out: dict[str, set[str]] = {}
    seen: set[tuple[str, tuple[tuple[str, str], ...]]] = set()

    def visit(fn: n.Function, roots: dict[str, str]) -> None:
        key = (fn.name, tuple(sorted(roots.items())))
        if key in seen:
            return
        seen.add(key)
        for node in _nodes(fn.body):
            if isinstance(node, n.Load) and id(node) in quiet:
                continue
            if isinstance(node, n.Load | n.Store | n.AtomicRMW):
                kind = {n.Load: "read", n.Store: "write", n.AtomicRMW: "atomic"}[type(node)]
                out.setdefault(roots.get(node.array.name, node.array.name), set()).add(kind)
            elif isinstance(node, n.Call):
                callee = module.function(node.callee)
                inner = {p.name: roots.get(a.name, a.name) for p, a in zip(
                    callee.params, node.args, strict=True) if isinstance(a, n.ArrayRef)}
                visit(callee, inner)

    visit(module.kernel, {})
    return out


def _nodes(x: object) -> Any:
    """Every IR node under ``x`` (statements and expressions)."""
    if isinstance(x, tuple):
        for y in x:
            yield from _nodes(y)
    elif isinstance(x, n.Node):
        yield x
        for name in x.__dataclass_fields__:
            if name != "loc":
                yield from _nodes(getattr(x, name))


# --------------------------------------------------------------------------------------------
# The report
# --------------------------------------------------------------------------------------------

_VERBS = {"write": "writes {}", "read": "reads {}", "atomic": "updates {} atomically"}


def _ids(linear: int, sizes: Sequence[int]) -> tuple[int, ...]:
    out = []
    for s in sizes:
        out.append(linear % s)
        linear //= s
    return tuple(out)


def _fmt(ids: tuple[int, ...], ndim: int) -> str:
    return str(ids[0]) if ndim == 1 else f"({', '.join(map(str, ids[:ndim]))})"


def report(san: Sanitized, log: np.ndarray[Any, Any], shapes: dict[str, tuple[int, ...]],
           grid: Sequence[int], block: Sequence[int]) -> RaceError | None:  # fmt: skip
    """The ``RaceError`` of the first conflict in ``log`` (None if none), for a launch over
    ``grid`` in groups of ``block`` (3-tuples) with global arrays of ``shapes``."""
    if int(log[S.COUNT]) == 0:
        return None
    name, shared = san.arrays[int(log[S.ARRAY]) - 1]
    mask = (1 << S.SITE_BITS) - 1
    other, mine = int(log[S.OTHER]), int(log[S.MINE])
    first, second = san.sites[(other & mask) - 1], san.sites[(mine & mask) - 1]
    ndim = max((d + 1 for d in range(3) if grid[d] > 1), default=1)
    if shared:
        local = (1 << S.LOCAL_BITS) - 1
        groups = [-(-g // b) for g, b in zip(grid, block, strict=True)]
        group = _ids(int(log[S.GROUP]), groups)
        who = [_ids(((w >> S.SITE_BITS) & local) - 1, block) for w in (other, mine)]
        ids = [tuple(g * b + x for g, b, x in zip(group, block, w, strict=True)) for w in who]
        shape = next(sh.type.static_shape for sh in san.module.kernel.shared if sh.name == name)
        assert shape is not None
    else:
        ids = [_ids((w >> S.SITE_BITS) - 1, grid) for w in (other, mine)]
        shape = shapes[name]
    elem = tuple(reversed(_ids(int(log[S.ELEMENT]), tuple(reversed(shape)))))
    where = f"{name}[{', '.join(map(str, elem))}]"
    kernel = san.module.kernel.name
    memory = "shared array" if shared else "array"
    msg = (f"data race in kernel {kernel} (found by the race sanitizer) on {memory} {name}: "
           f"work-item {_fmt(ids[0], ndim)} {_VERBS[first.kind].format(where)} at line "
           f"{first.line} and work-item {_fmt(ids[1], ndim)} {_VERBS[second.kind].format('it')} "
           f"at line {second.line}")  # fmt: skip
    if shared:
        msg += " in one barrier interval of their group (no go.barrier() between the two)"
    text = linecache.getline(second.filename, second.line)
    loc = SourceLocation(second.filename, second.line, second.col, text, second.end_col)
    hint = ("A go.barrier() between the two accesses orders them." if shared else
            "Make each work-item access elements no other one writes, or use an atomic.")
    return RaceError(msg, loc, hint)


def shadow_arrays(san: Sanitized, kernel: n.Function,
                  shapes: dict[str, tuple[int, ...]]) -> list[np.ndarray[Any, Any]]:  # fmt: skip
    """Zeroed shadows for the arrays of ``shapes`` that have one, in parameter order, then the
    log: the extra arguments of a sanitized launch."""
    out = [np.zeros((*shapes[name], slots), np.int64) for name, slots in san.shadows]
    return [*out, np.zeros(S.LOG_SLOTS, np.int64)]


def run(module: n.Module, args: Sequence[object], grid: int | Sequence[int],
        block: int | Sequence[int] | None = None) -> None:  # fmt: skip
    """``gpuoff.ir.interp.run`` with the race sanitizer: ``RaceError`` for the first conflict
    (before a ``BoundsError`` of the same launch)."""
    from gpuoff.ir import interp

    san = instrument(module)
    g, b = interp.normalize_grid(grid, block)  # (the block the interpreter runs)
    shapes = {p.name: tuple(a.shape) for p, a in zip(module.kernel.params, args, strict=True)
              if isinstance(p.type, ArrayType) and isinstance(a, np.ndarray)}  # fmt: skip
    extra = shadow_arrays(san, module.kernel, shapes)
    bounds: BoundsError | None = None
    try:
        interp.run(san.module, [*args, *extra], grid, block)
    except BoundsError as exc:
        bounds = exc
    g3 = (*g, 1, 1)[:3]
    b3 = (*b, 1, 1)[:3]
    err = report(san, extra[-1], shapes, g3, b3)
    if err is not None:
        raise err
    if bounds is not None:
        raise bounds

