"""Inlining the device functions that reach a barrier.

A device function that calls ``go.barrier()`` (itself, or through a device function it calls)
is inlined at every call site, so that every barrier of a launch is in the kernel's own body:
the barrier-divergence analysis (``uniformity``, ``barrier_votes``) then sees across the call
with the kernel's rules, and the CPU backend splits the kernel at the callee's barriers like
at its own (``codegen.cpu_groups``). The front end makes every such call a statement of its
own (``x = f(...)``, ``f(...)``; ``frontend.calls``), which is what this pass expands:

* the callee's locals, scalar parameters and private arrays get fresh names
  (``_gpuoff_inl<k>_<name>``); each scalar parameter is assigned its argument, in order; an
  array parameter becomes the caller's array;
* ``return v`` becomes an assignment of the result; a ``return`` before the end of the body
  becomes ``done = True; break`` out of a one-trip loop around the inlined body (and out of
  each of the callee's loops on the way: ``if done: break`` after each);
* every inlined node takes the call's location (messages point at the call in the caller's
  source); ``Origin`` keeps, per barrier and exit, where it came from.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from gpuoff.ir import nodes as n
from gpuoff.ir import types as T
from gpuoff.ir.walk import walk_exprs, walk_stmts

PREFIX = "_gpuoff_inl"


@dataclass(frozen=True)
class Origin:
    """Where an inlined barrier or exit was written: its device function, file and line, and
    what it was (``"barrier"``, ``"return"``, ``"break"``, ``"continue"``)."""

    function: str
    filename: str
    line: int
    kind: str


Origins = dict[int, Origin]
"""By ``id`` of the statement in the inlined module."""


def reaches_barrier(module: n.Module) -> set[str]:
    """The device functions of ``module`` that reach a barrier (directly or through calls)."""
    out: set[str] = set()
    for fn in module.functions:  # callees come before their callers
        calls = {e.callee for e in walk_exprs(fn.body) if isinstance(e, n.Call)}
        if any(isinstance(s, n.Barrier) for s in walk_stmts(fn.body)) or calls & out:
            out.add(fn.name)
    return out


def inline_barrier_functions(module: n.Module) -> tuple[n.Module, Origins]:
    """``module`` with every device function that reaches a barrier inlined (and dropped)."""
    targets = reaches_barrier(module)
    origins: Origins = {}
    if not targets:
        return module, origins
    state = _State(origins)
    done: dict[str, n.Function] = {}
    kept: list[n.Function] = []
    for fn in module.functions:
        new = _Caller(fn, done, state).function()
        if fn.name in targets:
            done[fn.name] = new
        else:
            kept.append(new)
    kernel = _Caller(module.kernel, done, state).function()
    return dataclasses.replace(module, kernel=kernel, functions=tuple(kept)), origins


class _State:
    def __init__(self, origins: Origins) -> None:
        self.origins = origins
        self.count = 0


class _Caller:
    """One function whose calls of barrier functions are expanded."""

    def __init__(self, fn: n.Function, done: dict[str, n.Function], state: _State) -> None:
        self.fn = fn
        self.done = done
        self.state = state
        self.locals = dict(fn.locals)
        self.private = list(fn.private)

    def function(self) -> n.Function:
        body = self.block(self.fn.body)
        return dataclasses.replace(self.fn, body=body, locals=self.locals,
                                   private=tuple(self.private))  # fmt: skip

    def block(self, stmts: tuple[n.Stmt, ...]) -> tuple[n.Stmt, ...]:
        out: list[n.Stmt] = []
        for s in stmts:
            call, target = _call_of(s)
            if call is not None and call.callee in self.done:
                out += self.expand(call, target, s.loc)
            elif isinstance(s, n.If):
                out.append(dataclasses.replace(s, body=self.block(s.body),
                                               orelse=self.block(s.orelse)))  # fmt: skip
            elif isinstance(s, n.ForRange | n.While):
                out.append(dataclasses.replace(s, body=self.block(s.body)))
            else:
                out.append(s)
        return tuple(out)

    def expand(self, call: n.Call, target: str | None, loc: n.Loc | None) -> list[n.Stmt]:
        callee = self.done[call.callee]
        self.state.count += 1
        prefix = f"{PREFIX}{self.state.count}_"
        arrays: dict[str, n.ArrayRef] = {}
        out: list[n.Stmt] = []
        for p, a in zip(callee.params, call.args, strict=True):
            if isinstance(a, n.ArrayRef):
                arrays[p.name] = a
            else:
                assert isinstance(p.type, T.ScalarType)
                self.locals[prefix + p.name] = p.type
                out.append(n.Assign(prefix + p.name, a, loc=loc))
        for name, t in callee.locals.items():
            self.locals[prefix + name] = t
        for pa in callee.private:
            self.private.append(n.PrivateArray(prefix + pa.name, pa.type, loc=loc))
            arrays[pa.name] = n.ArrayRef(prefix + pa.name, pa.type, loc=loc)
        result = prefix + "result" if callee.return_type is not None else None
        if result is not None:
            assert callee.return_type is not None
            self.locals[result] = callee.return_type
        body = callee.body
        early = any(isinstance(s, n.Return) for s in walk_stmts(body[:-1])) or any(
            isinstance(s, n.Return) for s in walk_stmts(body[-1:]) if s is not body[-1]
        )
        flag = prefix + "returned" if early else None
        if flag is not None:
            self.locals[flag] = T.boolean
            self.locals[prefix + "once"] = T.INDEX
            out.append(n.Assign(flag, n.Const(T.boolean, False, loc=loc), loc=loc))
        rw = _Rewrite(prefix, arrays, loc, result, flag, callee, self.state.origins,
                      call.unsafe)  # fmt: skip
        inlined = rw.block(body)
        if flag is not None:
            zero, one = n.Const(T.INDEX, 0, loc=loc), n.Const(T.INDEX, 1, loc=loc)
            inlined = (n.ForRange(prefix + "once", zero, one, one, inlined, loc=loc),)
        out += inlined
        if target is not None:
            assert result is not None and callee.return_type is not None
            out.append(n.Assign(target, n.Var(callee.return_type, result, loc=loc), loc=loc))
        return out


def _call_of(s: n.Stmt) -> tuple[n.Call | None, str | None]:
    if isinstance(s, n.ExprStmt) and isinstance(s.expr, n.Call):
        return s.expr, None
    if isinstance(s, n.Assign) and isinstance(s.value, n.Call):
        return s.value, s.target
    return None, None


class _Rewrite:
    """The callee's body, renamed, at the call's location."""

    def __init__(self, prefix: str, arrays: dict[str, n.ArrayRef], loc: n.Loc | None,
                 result: str | None, flag: str | None, callee: n.Function,
                 origins: Origins, unsafe: bool) -> None:  # fmt: skip
        self.prefix = prefix
        self.arrays = arrays
        self.loc = loc
        self.result = result
        self.flag = flag
        self.callee = callee
        self.origins = origins
        self.unsafe = unsafe  # the call is in ``with go.unsafe():``: so is all it does

    def block(self, stmts: tuple[n.Stmt, ...]) -> tuple[n.Stmt, ...]:
        out: list[n.Stmt] = []
        for s in stmts:
            out += self.stmt(s)
        return tuple(out)

    def note(self, new: n.Stmt, old: n.Stmt, kind: str) -> n.Stmt:
        """Remember where ``new`` came from (an inner inlining's origin stays)."""
        found = self.origins.get(id(old))
        line = old.loc.line if old.loc is not None else self.callee.firstlineno
        self.origins[id(new)] = found or Origin(self.callee.name, self.callee.filename, line,
                                                kind)  # fmt: skip
        return new

    def stmt(self, s: n.Stmt) -> list[n.Stmt]:
        loc, e = self.loc, self.expr
        if isinstance(s, n.Return):
            out: list[n.Stmt] = []
            if s.value is not None and self.result is not None:
                out.append(n.Assign(self.result, e(s.value), loc=loc))
            if self.flag is not None:
                out.append(n.Assign(self.flag, n.Const(T.boolean, True, loc=loc), loc=loc))
                out.append(self.note(n.Break(loc=loc), s, "return"))
            return out
        if isinstance(s, n.Assign):
            return [n.Assign(self.prefix + s.target, e(s.value), loc=loc)]
        if isinstance(s, n.Store):
            return [dataclasses.replace(s, array=self.array(s.array),
                                        indices=tuple(map(e, s.indices)), value=e(s.value),
                                        unsafe=s.unsafe or self.unsafe, loc=loc)]  # fmt: skip
        if isinstance(s, n.If):
            return [n.If(e(s.cond), self.block(s.body), self.block(s.orelse), loc=loc)]
        if isinstance(s, n.ForRange):
            loop: n.Stmt = n.ForRange(self.prefix + s.var, e(s.start), e(s.stop), e(s.step),
                                      self.block(s.body), loc=loc)  # fmt: skip
            return [loop, *self.leave(s)]
        if isinstance(s, n.While):
            return [n.While(e(s.cond), self.block(s.body), loc=loc), *self.leave(s)]
        if isinstance(s, n.ExprStmt):
            return [n.ExprStmt(e(s.expr), loc=loc)]
        if isinstance(s, n.Barrier | n.Break | n.Continue):
            kind = {n.Barrier: "barrier", n.Break: "break", n.Continue: "continue"}[type(s)]
            return [self.note(type(s)(loc=loc), s, kind)]
        raise AssertionError(f"cannot inline {type(s).__name__}")

    def leave(self, loop: n.ForRange | n.While) -> list[n.Stmt]:
        """After a loop that holds a ``return``: leave the enclosing loops too."""
        if self.flag is None or not any(isinstance(x, n.Return) for x in walk_stmts(loop.body)):
            return []
        loc = self.loc
        return [n.If(n.Var(T.boolean, self.flag, loc=loc), (n.Break(loc=loc),), (), loc=loc)]

    def array(self, ref: n.ArrayRef) -> n.ArrayRef:
        return self.arrays[ref.name]

    def expr(self, x: n.Expr) -> n.Expr:
        if isinstance(x, n.Var):
            return n.Var(x.type, self.prefix + x.name, loc=self.loc)
        changes: dict[str, object] = {}
        for f in dataclasses.fields(x):
            if f.name == "loc":
                continue
            v = getattr(x, f.name)
            changes[f.name] = _map_value(v, self.expr, self.array)
        if isinstance(x, n.Call) and self.unsafe:
            changes["unsafe"] = True
        return dataclasses.replace(x, **changes, loc=self.loc)  # type: ignore[arg-type]


def _map_value(v: object, expr: Callable[[n.Expr], n.Expr],
               array: Callable[[n.ArrayRef], n.ArrayRef]) -> object:  # fmt: skip
    if isinstance(v, n.ArrayRef):
        return array(v)
    if isinstance(v, n.Expr):
        return expr(v)
    if isinstance(v, tuple):
        return tuple(_map_value(item, expr, array) for item in v)
    return v


__all__ = ["Origin", "Origins", "inline_barrier_functions", "reaches_barrier"]
