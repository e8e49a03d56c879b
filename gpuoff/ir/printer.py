"""A stable, readable text form of the IR (goldens, ``gpuoff show --target ir``,
``GPUOFF_DEBUG=4``).

Format, by example::

    module saxpy  boundscheck=True fastmath=False
      check c1: saxpy x (1-d) at file.py:13:19  y[i] = a * x[i] + y[i]

    kernel saxpy(a: f32, x: Borrow[f32[1d,C]], y: BorrowMut[f32[1d,C]])  # file.py:10
      local i: i64
      i = global_id(0)  # line 11
      if (i < y.shape[0]):  # line 12
        y[i]{c3} = ((a * x[i]{c1}) + y[i]{c2})  # line 13

Expressions are fully parenthesised; constants carry their type (``1:i64``), casts read
``f32(...)``, checked accesses end in ``{cN}`` (the check id), the parameter, local, shared
and private declarations give every variable's type, and statements end with ``# line N``. A
store or a device-function call inside ``with go.unsafe():`` (not race-checked) starts with
``unsafe``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpuoff.ir import nodes as n

_BINARY_SYMBOLS = {
    "add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%",
    "pow": "**", "bitand": "&", "bitor": "|", "bitxor": "^", "lshift": "<<", "rshift": ">>",
}  # fmt: skip
_COMPARE_SYMBOLS = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}
_UNARY_SYMBOLS = {"neg": "-", "not": "not ", "invert": "~"}
INDENT = "  "


def _const(e: n.Const) -> str:
    if e.type.is_bool:
        return repr(bool(e.value))
    value = repr(float(e.value)) if e.type.is_float else repr(int(e.value))
    return f"{value}:{e.type}"


def _access(array: n.ArrayRef, indices: tuple[n.Expr, ...], check: int | None) -> str:
    idx = ", ".join(format_expr(i) for i in indices)
    mark = "" if check is None else f"{{c{check}}}"
    return f"{array.name}[{idx}]{mark}"


def _call_arg(a: n.Expr | n.ArrayRef) -> str:
    return a.name if isinstance(a, n.ArrayRef) else format_expr(a)


_EXPR: dict[type[n.Expr], Callable[[Any], str]] = {
    n.Const: _const,
    n.Var: lambda e: e.name,
    n.Unary: lambda e: f"({_UNARY_SYMBOLS.get(e.op, e.op + ' ')}{format_expr(e.operand)})",
    n.Binary: lambda e: (
        f"({format_expr(e.lhs)} {_BINARY_SYMBOLS.get(e.op, e.op)} {format_expr(e.rhs)})"
    ),
    n.Compare: lambda e: (
        f"({format_expr(e.lhs)} {_COMPARE_SYMBOLS.get(e.op, e.op)} {format_expr(e.rhs)})"
    ),
    n.Logical: lambda e: f"({format_expr(e.lhs)} {e.op} {format_expr(e.rhs)})",
    n.Select: lambda e: (
        f"({format_expr(e.if_true)} if {format_expr(e.cond)} else {format_expr(e.if_false)})"
    ),
    n.Cast: lambda e: f"{e.type}({format_expr(e.value)})",
    n.Load: lambda e: _access(e.array, e.indices, e.check),
    n.ShapeOf: lambda e: f"{e.array.name}.shape[{e.dim}]",
    n.WorkItem: lambda e: f"{e.name}({e.dim})",
    n.MathCall: lambda e: f"{e.name}({', '.join(format_expr(a) for a in e.args)}):{e.type}",
    n.Call: lambda e: (
        f"{'unsafe ' if e.unsafe else ''}{e.callee}({', '.join(_call_arg(a) for a in e.args)})"
        f":{e.type}"
    ),
    n.AtomicRMW: lambda e: (
        f"atomic_{e.op}({_access(e.array, e.indices, e.check)}, "
        + ("" if e.compare is None else f"{format_expr(e.compare)}, ")
        + f"{format_expr(e.value)})"
    ),
}


def format_expr(e: n.Expr) -> str:
    """One expression as text."""
    fmt = _EXPR.get(type(e))
    return f"<?{type(e).__name__}>" if fmt is None else fmt(e)


def _line(s: n.Node) -> str:
    return "" if s.loc is None else f"  # line {s.loc.line}"


def _block(body: tuple[n.Stmt, ...], depth: int, out: list[str]) -> None:
    if not body:
        out.append(INDENT * depth + "pass")
    for s in body:
        _stmt(s, depth, out)


def _stmt(s: n.Stmt, depth: int, out: list[str]) -> None:
    pad = INDENT * depth
    if isinstance(s, n.If):
        out.append(f"{pad}if {format_expr(s.cond)}:{_line(s)}")
        _block(s.body, depth + 1, out)
        if s.orelse:
            out.append(f"{pad}else:")
            _block(s.orelse, depth + 1, out)
        return
    if isinstance(s, n.ForRange):
        bounds = ", ".join(format_expr(x) for x in (s.start, s.stop, s.step))
        out.append(f"{pad}for {s.var} in range({bounds}):{_line(s)}")
        _block(s.body, depth + 1, out)
        return
    if isinstance(s, n.While):
        out.append(f"{pad}while {format_expr(s.cond)}:{_line(s)}")
        _block(s.body, depth + 1, out)
        return
    out.append(f"{pad}{_simple(s)}{_line(s)}")


def _simple(s: n.Stmt) -> str:
    if isinstance(s, n.Assign):
        return f"{s.target} = {format_expr(s.value)}"
    if isinstance(s, n.Store):
        target = _access(s.array, s.indices, s.check)
        return f"{'unsafe ' if s.unsafe else ''}{target} = {format_expr(s.value)}"
    if isinstance(s, n.Return):
        return "return" if s.value is None else f"return {format_expr(s.value)}"
    if isinstance(s, n.ExprStmt):
        return format_expr(s.expr)
    simple = {n.Break: "break", n.Continue: "continue", n.Barrier: "barrier()"}
    return simple.get(type(s), f"<?{type(s).__name__}>")


def format_function(fn: n.Function) -> str:
    """One function (kernel or device function) as text."""
    params = ", ".join(f"{p.name}: {p.type}" for p in fn.params)
    kind = "kernel" if fn.is_kernel else "func"
    ret = "" if fn.return_type is None else f" -> {fn.return_type}"
    out = [f"{kind} {fn.name}({params}){ret}  # {fn.filename}:{fn.firstlineno}"]
    for name in sorted(fn.locals):
        out.append(f"{INDENT}local {name}: {fn.locals[name]}")
    for sh in fn.shared:
        out.append(f"{INDENT}shared {sh.name}: {sh.type} {sh.type.static_shape}{_line(sh)}")
    for pa in fn.private:
        out.append(f"{INDENT}private {pa.name}: {pa.type} {pa.type.static_shape}{_line(pa)}")
    _block(fn.body, 1, out)
    return "\n".join(out)


def format_module(module: n.Module) -> str:
    """The whole module: header, bounds-check table, device functions, then the kernel."""
    out = [f"module {module.name}  boundscheck={module.boundscheck} fastmath={module.fastmath}"]
    for c in module.checks:
        where = f"{c.filename}:{c.line}:{c.col}"
        src = f"  {c.source.strip()}" if c.source.strip() else ""
        out.append(f"{INDENT}check c{c.id}: {c.function} {c.array} ({c.ndim}-d) at {where}{src}")
    for fn in (*module.functions, module.kernel):
        out.append("")
        out.append(format_function(fn))
    return "\n".join(out) + "\n"
