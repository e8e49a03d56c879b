"""Lowering one Python function (a kernel or one device-function specialisation) to an
``ir.Function``: the fixpoint passes over local-variable types, then the final pass.

``FunctionLowerer`` is the walker: ``base.Lowerer`` with the construct tables of ``exprs``,
``calls``, ``tuples``, ``stmts`` and ``loops`` bound. To add a construct, write its handler in
the module of its kind and add it to that module's ``TABLE``; nothing here changes.
"""

from __future__ import annotations

import ast

from gpuoff.errors import CompileError
from gpuoff.frontend import calls, exprs, loops, stmts, tuples
from gpuoff.frontend.base import (
    ARG_PREFIX,
    INFER,
    FuncSpec,
    Lowerer,
    ModuleContext,
    PassTypes,
    RType,
    flat_results,
    out_param,
    out_type,
)
from gpuoff.frontend.irutil import Val, rebuild, shape_leaves
from gpuoff.frontend.typing_rules import VType
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T

MAX_PASSES = 64  # far above what the finite type lattice needs


class FunctionLowerer(Lowerer):
    """One pass over one function's body, with every supported construct."""

    EXPRS = {**exprs.TABLE, **calls.TABLE}
    VALUES = {**tuples.TABLE, **calls.VALUES}
    STMTS = {**stmts.TABLE, **loops.TABLE}

    def run(self) -> tuple[N.Stmt, ...]:
        tree = self.src.tree
        prologue: list[N.Stmt] = []
        # A scalar parameter the body assigns to becomes a local initialised from the
        # (renamed) parameter, so its type can widen like any other local's.
        for name, t in self.spec.params:
            if isinstance(t, T.ScalarType) and self.is_local(name):
                arg = Val(N.Var(t, ARG_PREFIX + name, loc=self.loc(tree)))
                prologue.append(self.assign_local(name, arg, tree))
        # A tuple parameter is a tuple local, initialised from its items' parameters.
        for name, shape in self.spec.tuple_params.items():
            leaves = [Val(N.Var(self.scalars[p], p, loc=self.loc(tree)))
                      for p in shape_leaves(shape, ARG_PREFIX + name)]  # fmt: skip
            prologue += self.assign_value(name, rebuild(shape, leaves), tree)
        return tuple(prologue) + self.block(tree.body)


def always_returns(stmts: tuple[N.Stmt, ...]) -> bool:
    """Whether every path through ``stmts`` ends in a ``Return``."""
    for s in stmts:
        if isinstance(s, N.Return):
            return True
        if isinstance(s, N.If) and always_returns(s.body) and always_returns(s.orelse):
            return True
    return False


def _fixpoint(ctx: ModuleContext, spec: FuncSpec) -> PassTypes:
    prev = PassTypes()
    for _ in range(MAX_PASSES):
        lw = FunctionLowerer(ctx, spec, prev, final=False)
        lw.run()
        nxt = prev.merged(lw.cur)
        if nxt == prev:
            return prev
        prev = nxt
    raise CompileError(f"the types of {spec.display_name}'s variables do not settle")


def _result(spec: FuncSpec, types: PassTypes, body: tuple[N.Stmt, ...]) -> RType | None:
    """The function's result: a scalar's type, a tuple's (returned through out-arrays), or
    None (it returns nothing)."""
    tree: ast.FunctionDef = spec.source.src.tree
    src = spec.source.src
    declared = spec.declared_return
    if spec.is_kernel:
        return None
    rtype: RType | None
    if isinstance(declared, T.ScalarType):
        rtype = VType(declared)
    elif isinstance(declared, tuple):
        rtype = declared
    elif declared is INFER:
        if types.returns is not None and types.bare_return:
            raise src.error(tree, f"device function {spec.display_name!r} returns a value on "
                                  "some paths and nothing on others")  # fmt: skip
        rtype = types.returns
    else:
        rtype = None
    if rtype is not None and not always_returns(body):
        raise src.error(tree, f"device function {spec.display_name!r} may reach its end without "
                              "returning a value")  # fmt: skip
    return rtype


def lower_function(
    ctx: ModuleContext, spec: FuncSpec
) -> tuple[N.Function, bool, tuple[RType, ...] | None]:
    """Lower ``spec`` to an ``ir.Function`` (device functions it calls go to ``ctx``);
    whether its inferred scalar result is weak (every ``return`` gives a Python literal, so
    callers treat the result like a Python number, R2); and its tuple result, if it returns
    one (the function's last parameters are then one out-array per item)."""
    types = _fixpoint(ctx, spec)
    lw = FunctionLowerer(ctx, spec, types, final=True)
    body = lw.run()
    src = spec.source.src
    arg_nodes = {a.arg: a for a in src.tree.args.posonlyargs + src.tree.args.args}
    params = [
        N.Param(lw.param_ir_name(name) if isinstance(t, T.ScalarType) else name, t,
                loc=src.loc(arg_nodes.get(_user_name(name), src.tree)))
        for name, t in spec.params
    ]  # fmt: skip
    result = _result(spec, types, body)
    results = result if isinstance(result, tuple) else None
    if results is not None:
        params += [N.Param(out_param(k), out_type(vt.type), loc=src.loc(src.tree))
                   for k, vt in enumerate(flat_results(results))]  # fmt: skip
    local_types: dict[str, T.ScalarType] = {n: vt.type for n, vt in types.locals.items()}
    local_types.update(types.declared)
    local_types.update(lw.temps)
    weak = spec.declared_return is INFER and isinstance(types.returns, VType) and \
        types.returns.weak  # fmt: skip
    func = N.Function(
        spec.ir_name,
        tuple(params),
        result.type if isinstance(result, VType) else None,
        local_types,
        body,
        is_kernel=spec.is_kernel,
        shared=tuple(lw.shared),
        filename=src.filename,
        firstlineno=src.firstlineno,
        loc=src.loc(src.tree),
        private=tuple(lw.private.values()),
    )
    return func, weak, results


def _user_name(name: str) -> str:
    """The Python parameter an IR parameter comes from (a tuple's item: ``_gpuoff_arg_p.0``)."""
    return name.removeprefix(ARG_PREFIX).split(".")[0]
