"""Expressions and array accesses for the OpenCL C renderer (``codegen.opencl``).

Every operand that is not a name, a literal or a call is parenthesised, so C's precedence
never decides anything; statements print their top expression without outer parentheses.

Checked accesses test ``(ulong)i < (ulong)x_shape0`` (one compare catches negative indices)
and, when out of range, call ``gpuoff_oobN`` instead of touching memory. Index expressions
are evaluated once: side-effect-free ones are simply repeated (the C compiler merges them),
others (calls, atomics) are first assigned to function-scope temporaries with C's comma
operator, which keeps Python's left-to-right order and the short-circuit of ``and``/``or``.
"""

from __future__ import annotations

import math

import numpy as np

from codegen.opencl_abi import ERR_ARG, GRID_ARGS, FunctionContext
from codegen.opencl_helpers import memory_ctype, promoted, value_ctype, wrap_ctype
from gpuoff.errors import CompileError
from gpuoff.ir import nodes as n
from gpuoff.ir.types import AddressSpace, ScalarType
from gpuoff.ir.verify import atomic_supports

_CMP = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}
_ARITH = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "bitand": "&", "bitor": "|",
          "bitxor": "^"}  # fmt: skip
_FLOAT_MATH = {
    "sqrt", "rsqrt", "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "sin",
    "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh",
    "atanh", "pow", "cbrt", "hypot", "erf", "erfc", "lgamma", "tgamma", "floor", "ceil",
    "trunc", "round", "rint", "fma", "copysign", "fmod", "remainder", "fdim", "nextafter",
}  # fmt: skip
"""IR float functions that are OpenCL C built-ins of the same name and meaning."""
_WORK_ITEM = {"global_id": "get_global_id", "local_id": "get_local_id",
              "group_id": "get_group_id", "local_size": "get_local_size",
              "num_groups": "get_num_groups"}  # fmt: skip


def literal(value: int | float | bool, t: ScalarType) -> str:
    """``value`` as an OpenCL C literal of type ``t``."""
    if t.is_bool:
        return "true" if value else "false"
    if t.is_float:
        # Round to the type first (a value past f32's range is inf, not a C warning), then
        # print the shortest text that reads back to it.
        with np.errstate(over="ignore"):
            v = float(value) if t.name == "f64" else float(np.dtype(t.np_dtype).type(value))
        if math.isnan(v):
            text = "NAN"
        elif math.isinf(v):
            text = "INFINITY" if v > 0 else "(-INFINITY)"
        elif t.name == "f64":
            return repr(v)
        else:
            text = str(np.float32(v)) + "f"
        return f"({value_ctype(t)}){text}" if t.name != "f32" else text
    iv = int(value)
    suffix = {"i64": "L", "u32": "u", "u64": "UL"}.get(t.name, "")
    if t.is_signed and iv == -(1 << (t.bits - 1)):
        text = f"(-{-iv - 1}{suffix} - 1{suffix})"  # the literal 2**(bits-1) would not fit
    else:
        text = f"{iv}{suffix}"
    return f"({value_ctype(t)}){text}" if promoted(t) else text


class ExprWriter:
    """Renders expressions of one function; array accesses go through the function's names."""

    def __init__(self, fw: FunctionContext) -> None:
        self.fw = fw
        # (array, index texts) a store's guard has just tested: a load of that element in the
        # stored value (``a[i] += v``) is only rendered where the guard holds, so its own test
        # could never fail.
        self.guarded: tuple[str, tuple[str, ...]] | None = None

    # -- entry points ---------------------------------------------------------------------------

    def top(self, e: n.Expr) -> str:
        """``e`` as a full expression (no outer parentheses)."""
        return self._render(e)[0]

    def sub(self, e: n.Expr) -> str:
        """``e`` as an operand: parenthesised unless it is a name, literal or call."""
        text, atomic = self._render(e)
        return text if atomic else f"({text})"

    @staticmethod
    def pure(e: n.Expr) -> bool:
        """True when evaluating ``e`` twice is the same as once (no calls, no atomics)."""
        if isinstance(e, n.Call | n.AtomicRMW):
            return False
        if isinstance(e, n.Unary | n.Cast):
            return ExprWriter.pure(e.operand if isinstance(e, n.Unary) else e.value)
        if isinstance(e, n.Binary | n.Compare | n.Logical):
            return ExprWriter.pure(e.lhs) and ExprWriter.pure(e.rhs)
        if isinstance(e, n.Select):
            return all(ExprWriter.pure(x) for x in (e.cond, e.if_true, e.if_false))
        if isinstance(e, n.Load):
            return all(ExprWriter.pure(x) for x in e.indices)
        if isinstance(e, n.MathCall):
            return all(ExprWriter.pure(x) for x in e.args)
        return True

    # -- dispatch -------------------------------------------------------------------------------

    def _render(self, e: n.Expr) -> tuple[str, bool]:
        if isinstance(e, n.Const):
            text = literal(e.value, e.type)
            return text, not text.startswith(("-", "("))
        if isinstance(e, n.Var):
            return self.fw.names[e.name], True
        if isinstance(e, n.ShapeOf):
            return self.fw.shape(e.array.name, e.dim), True
        if isinstance(e, n.Unary):
            return self._unary(e), False
        if isinstance(e, n.Binary):
            return self._binary(e)
        if isinstance(e, n.Compare):
            return f"{self.sub(e.lhs)} {_CMP[e.op]} {self.sub(e.rhs)}", False
        if isinstance(e, n.Logical):
            op = "&&" if e.op == "and" else "||"
            return f"{self.sub(e.lhs)} {op} {self.sub(e.rhs)}", False
        if isinstance(e, n.Select):
            text = f"{self.sub(e.cond)} ? {self.sub(e.if_true)} : {self.sub(e.if_false)}"
            if promoted(e.type) and not e.type.is_bool:
                return f"({value_ctype(e.type)})({text})", False  # ?: promotes to int
            return text, False
        if isinstance(e, n.Cast):
            return self._cast(e)
        if isinstance(e, n.WorkItem):
            return self._work_item(e)
        if isinstance(e, n.MathCall):
            return self._math(e)
        if isinstance(e, n.Call):
            name = self.fw.fn_names[e.callee]
            return f"{name}({', '.join(self.fw.call_args(e.callee, e.args))})", True
        if isinstance(e, n.Load):
            text = self._load(e)
            return text, not e.type.is_bool and text.endswith("]") and not text.startswith("(")
        if isinstance(e, n.AtomicRMW):
            return self._atomic(e), False
        raise CompileError(f"the OpenCL backend cannot render {type(e).__name__}")

    # -- operators ------------------------------------------------------------------------------

    def _unary(self, e: n.Unary) -> str:
        x = self.sub(e.operand)
        if e.op == "not":
            return f"!{x}"
        if e.op == "neg" and e.type.is_signed:
            # C leaves -INT_MIN undefined (compilers exploit it); the IR wraps: negate the
            # unsigned bits and convert back.
            c = value_ctype(e.type)
            return f"({c})((u{c})0 - (u{c}){x})"
        if e.op == "invert" and not e.type.is_bool:
            return f"{self.fw.helpers.invert(e.type)}({x})"
        text = f"-{x}" if e.op == "neg" else f"~{x}"
        return f"({value_ctype(e.type)})({text})" if promoted(e.type) else text

    def _binary(self, e: n.Binary) -> tuple[str, bool]:
        # Each operand is rendered exactly once (rendering allocates temporaries: twice per
        # level would make nested loads exponential).
        t = e.type
        h = self.fw.helpers
        fast = self._by_positive_const(e)
        if fast is not None:
            return fast, False
        if e.op == "floordiv":
            return f"{h.floordiv(t)}({self.top(e.lhs)}, {self.top(e.rhs)})", True
        if e.op == "mod":
            return f"{h.mod(t)}({self.top(e.lhs)}, {self.top(e.rhs)})", True
        if e.op == "pow":
            fn = "pow" if t.is_float else h.ipow(t)
            return f"{fn}({self.top(e.lhs)}, {self.top(e.rhs)})", True
        a, b = self.sub(e.lhs), self.sub(e.rhs)
        if e.op in ("lshift", "rshift"):
            op = "<<" if e.op == "lshift" else ">>"
            if e.op == "lshift" and (t.is_signed or promoted(t)):
                # a negative value shifted left is undefined in C, and so is a promoted
                # ushort shifted past int's range: shift the unsigned bits
                c = value_ctype(t)
                return f"({c})(({wrap_ctype(t)}){a} << ({b} & {t.bits - 1}))", False
            text = f"{a} {op} ({b} & {t.bits - 1})"  # the IR masks shift counts to bits - 1
        elif (t.is_signed or promoted(t)) and not t.is_bool and e.op in ("add", "sub", "mul"):
            # Signed overflow is undefined in C, and OpenCL compilers exploit it ((x + 1) > x
            # folds to true); char and short are promoted to int, where ushort * ushort
            # overflows too. The IR wraps: compute on unsigned bits, convert back.
            c = value_ctype(t)
            u = wrap_ctype(t)
            return f"({c})(({u}){a} {_ARITH[e.op]} ({u}){b})", False
        else:
            text = f"{a} {_ARITH[e.op]} {b}"
        if promoted(t):
            # C promotes char, short and bool operands to int: back to the IR type.
            return f"({value_ctype(t)})({text})", False
        if e.op == "truediv" and t.name == "f32" and self.fw.exact_f32 == "double":
            # The device does not promise a correctly rounded float division, double does;
            # rounding the double quotient to float is then correctly rounded too (53 >= 2*24+2).
            return f"(float)((double){a} / (double){b})", False
        return text, False

    def _by_positive_const(self, e: n.Binary) -> str | None:
        """``a // c`` / ``a % c`` for an integer constant ``c > 0`` without the helpers' tests
        for zero and -1 (PoCL and others keep the call or its branches in hot loops): unsigned
        types use C's operators, which agree with Python's there; a signed power of two is
        an arithmetic shift / a mask (floor semantics in two's complement). Else None."""
        t, rhs = e.type, e.rhs
        if e.op not in ("floordiv", "mod") or t.is_float or promoted(t):
            return None
        if not isinstance(rhs, n.Const) or isinstance(rhs.value, bool):
            return None
        c = rhs.value
        if not isinstance(c, int) or c <= 0:
            return None
        a = self.sub(e.lhs)
        if not t.is_signed:
            return f"{a} {'/' if e.op == 'floordiv' else '%'} {literal(c, t)}"
        if c & (c - 1):
            return None
        if e.op == "floordiv":
            return f"{a} >> {c.bit_length() - 1}"
        return f"{a} & {literal(c - 1, t)}"

    def _cast(self, e: n.Cast) -> tuple[str, bool]:
        src, dst = e.value.type, e.type
        if src == dst:
            return self._render(e.value)
        if dst.is_bool:
            return f"{self.sub(e.value)} != 0", False
        c = value_ctype(dst)
        if src.is_float and not dst.is_float:
            fn = self.fw.helpers.float_to_int(src, dst)
            return f"{fn}({self.top(e.value)})", True
        return f"({c}){self.sub(e.value)}", False

    def _work_item(self, e: n.WorkItem) -> tuple[str, bool]:
        if e.name == "global_size":
            return GRID_ARGS[e.dim], True
        return f"(long){_WORK_ITEM[e.name]}({e.dim})", False

    def _math(self, e: n.MathCall) -> tuple[str, bool]:
        arg_t = e.args[0].type
        name = e.name
        if name == "abs" and arg_t.is_int and not arg_t.is_signed:
            return self._render(e.args[0])
        texts = [self.top(a) for a in e.args]  # each rendered once
        args = ", ".join(texts)
        if name in ("isnan", "isinf", "isfinite", "signbit"):
            return f"{name}({args}) != 0", False
        if name in ("popc", "clz"):  # OpenCL's popcount/clz give the argument's type
            return f"(int){'popcount' if name == 'popc' else 'clz'}({args})", False
        if name in ("ffs", "brev"):
            return f"{self.fw.helpers.bit_function(name, arg_t)}({args})", True
        if name == "sign":
            return f"{self.fw.helpers.sign(arg_t)}({args})", True
        if name == "abs":
            if arg_t.is_float:
                return f"fabs({args})", True
            # OpenCL's integer abs returns the unsigned type; cast back (abs(MIN) wraps).
            return f"({value_ctype(e.type)})abs({args})", False
        if name in ("min", "max"):
            if e.type.is_float:
                fn = self.fw.helpers.min_max(name, e.type)
                return f"{fn}({args})", True
            # C promotes char and short operands (a conditional, a checked load) to int, which would
            # make the overloaded min/max ambiguous: convert each to the IR type.
            c = value_ctype(e.type)
            fn = self.fw.helpers.int_min_max(name, e.type)
            return f"{fn}({', '.join(f'({c})({a})' for a in texts)})", True
        if name == "sqrt" and e.type.name == "f32" and self.fw.exact_f32 == "double":
            return f"(float)sqrt((double)({args}))", False
        if name in ("tanh", "tgamma"):  # the libms' edges (PoCL's) as the interpreter's
            fn = getattr(self.fw.helpers, name)(e.type)
            return f"{fn}({args})", True
        if name in _FLOAT_MATH:
            return f"{name}({args})", True
        raise CompileError(f"the OpenCL backend has no math function {name!r}")

    # -- array accesses -------------------------------------------------------------------------

    def _offset(self, array: n.ArrayRef, idx: list[str]) -> str:
        """Element offset of ``array[idx]`` (each index already an operand)."""
        t = array.type
        terms = []
        for d, i in enumerate(idx):
            if t.contiguous and d == t.ndim - 1:
                terms.append(i)
            else:
                terms.append(f"{i} * {self.fw.stride(array.name, d)}")
        if not terms:
            return "0"
        return " + ".join(terms)

    def _indices(
        self, indices: tuple[n.Expr, ...], prefix: list[str], checked: bool = False
    ) -> list[str]:
        """Operand texts for ``indices``. Impure ones go through temporaries (``prefix``), and
        so, for a checked access (whose test, access and error record each name the index),
        does any index that is not a few names: nested checked loads would otherwise repeat
        their index text three times per level (``x[x[x[i % n] % n] % n]``: 63 KB of C)."""
        if all(self.pure(i) for i in indices) and not (
            checked and not all(simple(i) for i in indices)
        ):
            return [self.sub(i) for i in indices]
        out = []
        for i in indices:
            if simple(i) and self.pure(i):
                out.append(self.sub(i))
                continue
            tmp = self.fw.new_temp("long")
            prefix.append(f"{tmp} = {self.top(i)}")
            out.append(tmp)
        return out

    def _in_bounds(self, array: n.ArrayRef, idx: list[str]) -> str:
        return " && ".join(
            f"(ulong){i} < (ulong){self.fw.shape(array.name, d)}" for d, i in enumerate(idx)
        )

    def _oob_call(self, array: n.ArrayRef, check: int, idx: list[str]) -> str:
        fn = self.fw.helpers.oob(len(idx))
        shape = [self.fw.shape(array.name, d) for d in range(len(idx))]
        return f"{fn}({', '.join([ERR_ARG, str(check), *idx, *shape])})"

    def _load(self, e: n.Load) -> str:
        prefix: list[str] = []
        idx = self._indices(e.indices, prefix, e.check is not None)
        name = self.fw.names[e.array.name]
        value = f"{name}[{self._offset(e.array, idx)}]"
        if e.type.is_bool:
            value = f"({value} != 0)"
        if e.check is None or self.guarded == (e.array.name, tuple(idx)):
            text = value
        else:
            zero = f"({value_ctype(e.type)}){self._oob_call(e.array, e.check, idx)}"
            text = f"({self._in_bounds(e.array, idx)}) ? {value} : {zero}"
            if promoted(e.type) and not e.type.is_bool:
                text = f"({value_ctype(e.type)})({text})"  # ?: promotes to int
        if prefix:
            # A comma expression must stay parenthesised even at the top of a statement.
            return f"({', '.join(prefix)}, ({text}))"
        return text

    def _atomic(self, e: n.AtomicRMW) -> str:
        t = e.array.type
        if not atomic_supports(e.op, t.dtype):  # the front end refuses these first
            raise CompileError(f"atomic_{e.op} on {t.dtype.name} arrays is not supported")
        space = "local" if t.space is AddressSpace.SHARED else "global"
        fn = self.fw.helpers.atomic(e.op, t.dtype, space)
        prefix: list[str] = []
        idx = self._indices(e.indices, prefix, e.check is not None)
        operands = [x for x in (e.compare, e.value) if x is not None]
        texts = [self.top(x) for x in operands]
        impure = [not self.pure(x) for x in operands]
        if ((prefix or e.check is not None) and any(impure)) or sum(impure) > 1:
            # C leaves the order of a call's arguments open; Python's is indices, compare,
            # value, each evaluated even when the index is out of range (the interpreter's
            # rule): effects go through temporaries, in that order.
            for k in range(len(operands)):
                if impure[k]:
                    tmp = self.fw.new_temp(value_ctype(e.type))
                    prefix.append(f"{tmp} = {texts[k]}")
                    texts[k] = tmp
        name = self.fw.names[e.array.name]
        call = f"{fn}(&{name}[{self._offset(e.array, idx)}], {', '.join(texts)})"
        if e.check is not None:
            zero = f"({value_ctype(e.type)}){self._oob_call(e.array, e.check, idx)}"
            call = f"({self._in_bounds(e.array, idx)}) ? {call} : {zero}"
        return f"({', '.join(prefix)}, ({call}))" if prefix else call

    def store(self, s: n.Store) -> None:
        """Emit ``array[indices] = value`` (checked: the write happens only in range)."""
        fw = self.fw
        # a checked store names its indices three times (test, access, error record): only
        # a few names are repeated, anything else goes through a temporary
        pure_idx = all(self.pure(i) and (s.check is None or simple(i)) for i in s.indices)
        idx: list[str] = [self.sub(i) for i in s.indices] if pure_idx else []
        if s.check is not None and self.pure(s.value) and pure_idx:
            # The value is rendered inside the guard below (see ``guarded``).
            self.guarded = (s.array.name, tuple(idx))
        try:
            value = self.sub(s.value) if s.value.type.is_bool else self.top(s.value)
        finally:
            self.guarded = None
        if not self.pure(s.value):
            # Python evaluates the value first, then the indices; each exactly once.
            tmp = fw.new_temp(value_ctype(s.value.type))
            fw.emit(f"{tmp} = {value};", s.loc)
            value = tmp
        if not pure_idx:
            idx = []
            for i in s.indices:
                t = fw.new_temp("long")
                fw.emit(f"{t} = {self.top(i)};", s.loc)
                idx.append(t)
        if s.value.type.is_bool:
            value = f"(uchar){value}"
        target = f"{fw.names[s.array.name]}[{self._offset(s.array, idx)}]"
        if s.check is None:
            fw.emit(f"{target} = {value};", s.loc)
            return
        fw.emit(f"if ({self._in_bounds(s.array, idx)}) {{", s.loc)
        fw.depth += 1
        fw.emit(f"{target} = {value};")
        fw.depth -= 1
        fw.emit("} else {")
        fw.depth += 1
        fw.emit(f"{self._oob_call(s.array, s.check, idx)};")
        fw.depth -= 1
        fw.emit("}")


def simple(e: n.Expr) -> bool:
    """A name, a literal, an id or a shape, or one operation on two of those (``i + 1``):
    cheap to repeat."""
    leaf = (n.Var, n.Const, n.WorkItem, n.ShapeOf)
    if isinstance(e, leaf):
        return True
    if isinstance(e, n.Cast):
        return isinstance(e.value, leaf)
    if isinstance(e, n.Binary) and e.op in ("add", "sub", "mul"):
        return isinstance(e.lhs, leaf) and isinstance(e.rhs, leaf)
    return False


__all__ = ["ExprWriter", "literal", "memory_ctype", "simple"]
