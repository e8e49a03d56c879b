"""Complex numbers (``go.complex64``/``go.complex128``, NumPy's): lowered to their two parts.

A complex value is a ``TupleVal`` of kind ``"complex"`` whose items are its real and imaginary
parts, both of the part type (f32 for ``complex64``, f64 for ``complex128``); like a tuple it
never reaches the IR: a local is two IR locals, a device function takes two parameters and
returns two out-values, a complex array is its part array with a last axis of 2
(``ArrayType.pairs``, the runtime's ``Buffer._pairs``). So the IR interpreter and every
backend compute exactly the scalar code written out here, and it costs what that code costs.

The arithmetic is NumPy's: an operand that is real becomes complex first (imaginary part +0,
so ``z + 1.0`` adds 0.0 to ``z.imag`` as NumPy does: -0.0 becomes +0.0), ``*`` is
``(ar*br - ai*bi, ar*bi + ai*br)``, ``/`` is Smith's algorithm exactly as NumPy's division
loop writes it, ``abs`` is ``hypot``. Promotion follows NEP 50 on the complex dtypes (a Python
complex is weak; ``complex64`` with an i32 or f64 gives ``complex128``).
"""

from __future__ import annotations

import ast
import builtins
import cmath
from typing import TypeGuard

import numpy as np

from gpuoff.frontend.base import Lowerer
from gpuoff.frontend.irutil import TupleVal, Val, Value, const, has_effects
from gpuoff.frontend.typing_rules import VType
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T

KIND = "complex"

CMATH: dict[object, str] = {
    cmath.exp: "exp", cmath.sqrt: "sqrt", cmath.log: "log", cmath.phase: "phase",
    cmath.isnan: "isnan", cmath.isinf: "isinf", cmath.isfinite: "isfinite",
    cmath.rect: "rect", np.conjugate: "conjugate", np.conj: "conjugate", np.real: "real",
    np.imag: "imag", np.angle: "phase",
}  # fmt: skip
"""Functions of complex numbers kernels have, by identity (``cmath``, NumPy's)."""

COMPLEX_MATH = frozenset({"exp", "sqrt", "log", "abs", "isnan", "isinf", "isfinite"})
"""The math functions (``go.*``, ``np.*``, ``abs``) that take a complex argument too."""

def is_complex(v: object) -> TypeGuard[TupleVal]:
    return isinstance(v, TupleVal) and v.kind == KIND


def of_parts(re: Val, im: Val) -> TupleVal:
    return TupleVal((re, im), KIND)


def parts(v: TupleVal) -> tuple[Val, Val]:
    re, im = v.items
    assert isinstance(re, Val) and isinstance(im, Val)
    return re, im


def complex_type(part: T.ScalarType) -> T.ScalarType:
    """``complex64`` for f32 parts, ``complex128`` for f64."""
    return T.complex64 if part == T.f32 else T.complex128


def _part_of(t: T.ScalarType) -> T.ScalarType:
    """The part type a real type becomes when made complex (NumPy: f16 and f32 and the
    integers that fit f32 exactly are complex64, the rest complex128)."""
    return T.scalar_from_numpy(np.promote_types(t.np_dtype, np.complex64)).component


def _vtype(v: Value) -> tuple[T.ScalarType, bool, bool]:
    """(type, weak, complex) of an operand; a complex's type is its part type."""
    if is_complex(v):
        re, _ = parts(v)
        return re.expr.type, re.weak, True
    assert isinstance(v, Val)
    return v.expr.type, v.weak, False


def promote(a: Value, b: Value) -> VType:
    """The part type of ``a op b`` made complex (NEP 50 on the complex dtypes)."""
    (ta, wa, ca), (tb, wb, cb) = _vtype(a), _vtype(b)
    if wa and wb:
        return VType(T.f64, True)
    if wa or wb:
        t, c = (tb, cb) if wa else (ta, ca)
        return VType(t if c else _part_of(t))
    da = complex_type(ta).np_dtype if ca else ta.np_dtype
    db = complex_type(tb).np_dtype if cb else tb.np_dtype
    both = T.scalar_from_numpy(np.promote_types(da, db))
    return VType(both.component if both.is_complex else _part_of(both))


def as_complex(lw: Lowerer, v: Value, vt: VType, node: ast.AST) -> tuple[N.Expr, N.Expr]:
    """``v`` as the two parts of type ``vt``: a real's imaginary part is +0."""
    if is_complex(v):
        re, im = parts(v)
        return lw.coerce(re, vt.type, node), lw.coerce(im, vt.type, node)
    assert isinstance(v, Val)
    if v.expr.type.is_bool:
        v = Val(lw.coerce(v, T.i64, node), v.weak)
    return lw.coerce(v, vt.type, node), const(0.0, vt.type, lw.loc(node))


def share(lw: Lowerer, e: N.Expr, node: ast.AST) -> N.Expr:
    """``e`` evaluated once when an algorithm reads it more than once: a temporary assigned
    before the statement, where the statement allows (else ``e`` itself, when it is pure)."""
    if isinstance(e, N.Const | N.Var):
        return e
    if lw.hoist_ban is not None:
        if has_effects(e):
            lw.fail(node, f"complex arithmetic on a call cannot stand in {lw.hoist_ban}; "
                          "assign the call's result to a variable first")  # fmt: skip
        return e
    assign, var = lw.new_temp(e, node)
    lw.hoist([assign], node)
    return var


class _Ops:
    """IR builders for one part type at one source location."""

    def __init__(self, lw: Lowerer, node: ast.AST, vt: VType) -> None:
        self.lw, self.node, self.t, self.weak = lw, node, vt.type, vt.weak
        self.loc = lw.loc(node)

    def b(self, op: str, x: N.Expr, y: N.Expr) -> N.Expr:
        return N.Binary(self.t, op, x, y, loc=self.loc)

    def f(self, name: str, *args: N.Expr) -> N.Expr:
        return N.MathCall(self.t, name, args, loc=self.loc)

    def c(self, value: float) -> N.Expr:
        return const(value, self.t, self.loc)

    def share(self, e: N.Expr) -> N.Expr:
        return share(self.lw, e, self.node)

    def result(self, re: N.Expr, im: N.Expr) -> TupleVal:
        return of_parts(Val(re, self.weak), Val(im, self.weak))

    def mul(self, a: tuple[N.Expr, N.Expr], b: tuple[N.Expr, N.Expr]) -> tuple[N.Expr, N.Expr]:
        (ar, ai), (br, bi) = (tuple(self.share(x) for x in a), tuple(self.share(x) for x in b))
        return (self.b("sub", self.b("mul", ar, br), self.b("mul", ai, bi)),
                self.b("add", self.b("mul", ar, bi), self.b("mul", ai, br)))  # fmt: skip

    def div(self, a: tuple[N.Expr, N.Expr], b: tuple[N.Expr, N.Expr]) -> tuple[N.Expr, N.Expr]:
        """NumPy's complex division (Smith's algorithm, its zero divisor case included)."""
        ar, ai = (self.share(x) for x in a)
        br, bi = (self.share(x) for x in b)

        def add(x: N.Expr, y: N.Expr) -> N.Expr:
            return self.b("add", x, y)

        def sub(x: N.Expr, y: N.Expr) -> N.Expr:
            return self.b("sub", x, y)

        def mul(x: N.Expr, y: N.Expr) -> N.Expr:
            return self.b("mul", x, y)

        abs_r, abs_i = self.share(self.f("abs", br)), self.share(self.f("abs", bi))
        bool_t, loc, one = T.boolean, self.loc, self.c(1.0)
        first = self.share(N.Compare(bool_t, "ge", abs_r, abs_i, loc=loc))
        zero = self.share(N.Logical(
            bool_t, "and", N.Compare(bool_t, "eq", abs_r, self.c(0.0), loc=loc),
            N.Compare(bool_t, "eq", abs_i, self.c(0.0), loc=loc), loc=loc))  # fmt: skip
        # |br| >= |bi|: rat = bi/br, scl = 1/(br + bi*rat)
        rat1 = self.share(self.b("truediv", bi, br))
        scl1 = self.share(self.b("truediv", one, add(br, mul(bi, rat1))))
        re1, im1 = mul(add(ar, mul(ai, rat1)), scl1), mul(sub(ai, mul(ar, rat1)), scl1)
        # else: rat = br/bi, scl = 1/(bi + br*rat)
        rat2 = self.share(self.b("truediv", br, bi))
        scl2 = self.share(self.b("truediv", one, add(bi, mul(br, rat2))))
        re2, im2 = mul(add(mul(ar, rat2), ai), scl2), mul(sub(mul(ai, rat2), ar), scl2)
        re0, im0 = self.b("truediv", ar, abs_r), self.b("truediv", ai, abs_r)
        t = self.t

        def pick(z: N.Expr, one: N.Expr, two: N.Expr) -> N.Expr:
            inner = N.Select(t, zero, z, one, loc=loc)
            return N.Select(t, first, inner, two, loc=loc)

        return pick(re0, re1, re2), pick(im0, im1, im2)


def binop(lw: Lowerer, op: str, a: Value, b: Value, node: ast.AST) -> TupleVal:
    """``a op b`` with a complex operand: ``+ - * /`` and ``**`` by a constant integer."""
    for v, side in ((a, "left"), (b, "right")):
        if isinstance(v, TupleVal) and not is_complex(v):
            lw.fail(node, f"the {side} operand is a tuple; arithmetic with a complex number "
                          "takes numbers")  # fmt: skip
    vt = promote(a, b)
    ops = _Ops(lw, node, vt)
    if op == "pow":
        return _power(lw, ops, a, b, node)
    x, y = as_complex(lw, a, vt, node), as_complex(lw, b, vt, node)
    if op in ("add", "sub"):
        return ops.result(ops.b(op, x[0], y[0]), ops.b(op, x[1], y[1]))
    if op == "mul":
        return ops.result(*ops.mul(x, y))
    if op == "truediv":
        return ops.result(*ops.div(x, y))
    symbol = {"floordiv": "//", "mod": "%"}.get(op, op)
    lw.fail(node, f"the operator {symbol} is not defined for complex numbers (NumPy has no "
                  "complex floor division or remainder either)")  # fmt: skip


def _power(lw: Lowerer, ops: _Ops, a: Value, b: Value, node: ast.AST) -> TupleVal:
    """``z ** n`` for a constant integer ``n`` (0 < n < 100: NumPy's repeated squaring)."""
    k = b.expr.value if isinstance(b, Val) and isinstance(b.expr, N.Const) else None
    if not is_complex(a) or isinstance(k, bool) or not isinstance(k, int) or not 0 < k < 100:
        lw.fail(node, "a complex power in kernels is z ** n with a constant integer n from 1 "
                      "to 99 (NumPy's repeated multiplication)")  # fmt: skip
    base = as_complex(lw, a, VType(ops.t, ops.weak), node)
    if k == 1:
        return ops.result(*base)
    if k == 2:
        return ops.result(*ops.mul(base, base))
    if k == 3:
        return ops.result(*ops.mul(base, ops.mul(base, base)))
    r: tuple[N.Expr, N.Expr] | None = None
    p, mask = base, 1
    while True:  # NumPy's cpow for small integer powers: binary powering from the low bit
        if k & mask:
            r = p if r is None else ops.mul(r, p)
        mask <<= 1
        if k < mask:
            break
        p = ops.mul(p, p)
    assert r is not None
    return ops.result(*r)


def negate(lw: Lowerer, v: TupleVal, node: ast.AST, op: str) -> TupleVal:
    re, im = parts(v)
    if op == "pos":
        return v
    if op != "neg":
        lw.fail(node, "~ is not defined for complex numbers")
    loc = lw.loc(node)
    t = re.expr.type
    return of_parts(Val(N.Unary(t, "neg", re.expr, loc=loc), re.weak),
                    Val(N.Unary(t, "neg", im.expr, loc=loc), im.weak))  # fmt: skip


def equal(lw: Lowerer, node: ast.AST, op: str, a: Value, b: Value) -> N.Expr:
    """``a == b`` / ``a != b`` with a complex operand (both parts equal); no order."""
    if op not in ("eq", "ne"):
        lw.fail(node, "complex numbers have no order; compare abs(z), z.real or z.imag")
    vt = promote(a, b)
    x, y = as_complex(lw, a, vt, node), as_complex(lw, b, vt, node)
    loc = lw.loc(node)
    sides = [N.Compare(T.boolean, op, p, q, loc=loc) for p, q in zip(x, y, strict=True)]
    return N.Logical(T.boolean, "and" if op == "eq" else "or", *sides, loc=loc)


def attribute(lw: Lowerer, v: Value, attr: str, node: ast.AST) -> Val:
    """``z.real`` / ``z.imag`` (of a real number: itself and +0 of its type, as NumPy)."""
    if is_complex(v):
        re, im = parts(v)
        return re if attr == "real" else im
    if isinstance(v, TupleVal):
        lw.fail(node, f"a tuple has no attribute .{attr}")
    if attr == "real":
        return v
    t = v.expr.type if not v.expr.type.is_bool else T.i64
    return Val(const(0, t, lw.loc(node)), v.weak)


def conjugate(lw: Lowerer, v: Value, node: ast.AST) -> Value:
    if not is_complex(v):
        if isinstance(v, TupleVal):
            lw.fail(node, "a tuple has no conjugate")
        return v
    re, im = parts(v)
    return of_parts(re, Val(N.Unary(im.expr.type, "neg", im.expr, loc=lw.loc(node)), im.weak))


def construct(lw: Lowerer, node: ast.Call, target: T.ScalarType | None) -> TupleVal:
    """``complex(re, im)``, ``go.complex64(z)``, ``go.complex64(re, im)`` (``target``: the
    dtype called; ``complex(...)`` gives the parts' own type, at least f32)."""
    what = f"{target.name}()" if target is not None else "complex()"
    if not 1 <= len(node.args) <= 2 or node.keywords:
        lw.fail(node, f"{what} takes one or two arguments (re, im) in kernels")
    vals = [lw.value(a) for a in node.args]
    for v, a in zip(vals, node.args, strict=True):
        if isinstance(v, TupleVal) and not is_complex(v):
            lw.fail(a, f"{what} takes numbers, got a tuple")
    if len(vals) == 2 and any(is_complex(v) for v in vals):
        lw.fail(node, f"{what} of two parts takes real numbers")
    if target is not None:
        vt = VType(target.component)
    elif len(vals) == 1:
        vt = promote(vals[0], Val(const(0.0, T.f64), True))
    else:
        vt = promote(vals[0], vals[1])
    if len(vals) == 1:
        return of_parts(*(Val(e, vt.weak) for e in as_complex(lw, vals[0], vt, node)))
    re, im = (as_complex(lw, v, vt, node)[0] for v in vals)
    return of_parts(Val(re, vt.weak), Val(im, vt.weak))


def math(lw: Lowerer, node: ast.Call, name: str, args: list[Value]) -> Value:
    """A math function of a complex argument (``cmath.*``, ``go.exp(z)``, ``abs(z)``)."""
    if name == "rect":
        return _rect(lw, node, args)
    if len(args) != 1:
        lw.fail(node, f"{name}() of a complex number takes one argument")
    (v,) = args
    if isinstance(v, TupleVal) and not is_complex(v):
        lw.fail(node, f"{name}() takes a number, got a tuple")
    if name in ("real", "imag"):
        return attribute(lw, v, name, node)
    if name == "conjugate":
        return conjugate(lw, v, node)
    if not is_complex(v):
        v = construct_from(lw, v, node)
    ops = _Ops(lw, node, VType(parts(v)[0].expr.type, parts(v)[0].weak))
    re, im = (p.expr for p in parts(v))
    if name in ("isnan", "isinf", "isfinite"):
        loc = lw.loc(node)
        re, im = ops.share(re), ops.share(im)
        one = [N.MathCall(T.boolean, name, (x,), loc=loc) for x in (re, im)]
        return Val(N.Logical(T.boolean, "and" if name == "isfinite" else "or", *one, loc=loc))
    if name == "abs":
        return Val(ops.f("hypot", re, im), ops.weak)
    if name == "phase":
        return Val(ops.f("atan2", im, re), ops.weak)
    if name == "exp":
        return _exp(ops, re, im)
    if name == "log":
        re, im = ops.share(re), ops.share(im)
        return ops.result(ops.f("log", ops.f("hypot", re, im)), ops.f("atan2", im, re))
    if name == "sqrt":
        return _sqrt(ops, re, im)
    lw.fail(node, f"{name}() of a complex number is not supported in kernels (complex math "
                  "there: abs, cmath.exp, cmath.sqrt, cmath.log, cmath.phase, cmath.rect, "
                  "cmath.isnan/isinf/isfinite)")  # fmt: skip


def construct_from(lw: Lowerer, v: Value, node: ast.AST) -> TupleVal:
    """A real number as a complex one (its part type as ``promote`` gives it)."""
    vt = promote(v, Val(const(0.0, T.f64), True))
    return of_parts(*(Val(e, vt.weak) for e in as_complex(lw, v, vt, node)))


def _exp(ops: _Ops, re: N.Expr, im: N.Expr) -> TupleVal:
    """``exp(re) * (cos(im), sin(im))``; an imaginary part of zero stays exactly (C99 cexp:
    ``cexp(x + 0i) = exp(x) + 0i``, also for an infinite ``exp(x)``)."""
    im = ops.share(im)
    e = ops.share(ops.f("exp", re))
    loc = ops.loc
    real_axis = ops.share(N.Compare(T.boolean, "eq", im, ops.c(0.0), loc=loc))
    out_re = N.Select(ops.t, real_axis, e, ops.b("mul", e, ops.f("cos", im)), loc=loc)
    out_im = N.Select(ops.t, real_axis, im, ops.b("mul", e, ops.f("sin", im)), loc=loc)
    return ops.result(out_re, out_im)


def _sqrt(ops: _Ops, re: N.Expr, im: N.Expr) -> TupleVal:
    """The principal square root as C99's csqrt computes it (the branch cut on the negative
    real axis, the sign of the imaginary part kept): ``t = sqrt((|re| + |z|) / 2)``, then
    ``(t, im / 2t)`` for ``re >= 0`` else ``(|im| / 2t, copysign(t, im))``; ``sqrt(±0 + yi)``
    with ``y = ±0`` is ``+0 + yi``, an infinite ``im`` gives ``inf + im i``."""
    re, im = ops.share(re), ops.share(im)
    loc = ops.loc
    half = ops.c(0.5)
    t = ops.share(ops.f("sqrt", ops.b("mul", ops.b("add", ops.f("abs", re),
                                                         ops.f("hypot", re, im)), half)))
    two_t = ops.share(ops.b("mul", ops.c(2.0), t))
    nonneg = ops.share(N.Compare(T.boolean, "ge", re, ops.c(0.0), loc=loc))
    zero = ops.share(N.Logical(T.boolean, "and",
                               N.Compare(T.boolean, "eq", re, ops.c(0.0), loc=loc),
                               N.Compare(T.boolean, "eq", im, ops.c(0.0), loc=loc), loc=loc))
    inf_im = ops.share(N.MathCall(T.boolean, "isinf", (im,), loc=loc))
    re_pos = N.Select(ops.t, nonneg, t, ops.b("truediv", ops.f("abs", im), two_t), loc=loc)
    im_pos = N.Select(ops.t, nonneg, ops.b("truediv", im, two_t), ops.f("copysign", t, im),
                      loc=loc)  # fmt: skip
    inf = ops.c(float("inf"))
    out_re = N.Select(ops.t, inf_im, inf, N.Select(ops.t, zero, ops.c(0.0), re_pos, loc=loc),
                      loc=loc)  # fmt: skip
    out_im = N.Select(ops.t, inf_im, im, N.Select(ops.t, zero, im, im_pos, loc=loc), loc=loc)
    return ops.result(out_re, out_im)


def _rect(lw: Lowerer, node: ast.Call, args: list[Value]) -> TupleVal:
    """``cmath.rect(r, phi)``: ``(r cos phi, r sin phi)``."""
    if len(args) != 2 or any(isinstance(a, TupleVal) for a in args):
        lw.fail(node, "cmath.rect(r, phi) takes two real numbers")
    r, phi = args
    assert isinstance(r, Val) and isinstance(phi, Val)
    vt = promote(r, phi)
    ops = _Ops(lw, node, vt)
    rr, pp = (ops.share(as_complex(lw, x, vt, node)[0]) for x in (r, phi))
    return ops.result(ops.b("mul", rr, ops.f("cos", pp)), ops.b("mul", rr, ops.f("sin", pp)))


def is_complex_callee(obj: object) -> bool:
    """``complex`` (the builtin) or a function of ``CMATH``."""
    try:
        return obj is builtins.complex or obj in CMATH
    except TypeError:  # an unhashable object
        return False


# -- complex arrays ----------------------------------------------------------------------------


def _element(lw: Lowerer, node: ast.Subscript, array: N.ArrayRef) -> tuple[N.Expr, ...]:
    from gpuoff.frontend.exprs import indices

    idx = indices(lw, node, array, whole=True)
    return tuple(share(lw, e, node) for e in idx)


def load(lw: Lowerer, node: ast.Subscript, array: N.ArrayRef) -> TupleVal:
    """``z = a[i]`` of a complex array: its two parts (``a[i, 0]``, ``a[i, 1]``)."""
    from gpuoff.frontend.exprs import load as load_part

    idx = _element(lw, node, array)
    loc = lw.loc(node)
    re, im = (load_part(lw, node, array, (*idx, const(k, T.INDEX, loc))) for k in (0, 1))
    return of_parts(re, im)


def store(lw: Lowerer, target: ast.Subscript, array: N.ArrayRef, value: Value) -> list[N.Stmt]:
    """``a[i] = z`` of a complex array (a real ``z`` stores +0 as its imaginary part); both
    parts are computed before either is stored (``a[i] = a[i] * w`` reads the old ``a[i]``)."""
    if not array.type.access.writes:
        from gpuoff.ownership import borrow_write_message

        lw.fail(target, borrow_write_message(array.name))
    if isinstance(value, TupleVal) and not is_complex(value):
        lw.fail(target, f"an element of {array.name!r} holds one complex number; a tuple "
                        "cannot be stored in it")  # fmt: skip
    idx = _element(lw, target, array)
    loc = lw.loc(target)
    vt = VType(array.type.dtype)
    out: list[N.Stmt] = []
    held: list[N.Expr] = []
    for e in as_complex(lw, value, vt, target):
        if not isinstance(e, N.Const | N.Var):
            assign, e = lw.new_temp(e, target)
            out.append(assign)
        held.append(e)
    for k, e in enumerate(held):
        check = lw.add_check(target, array)
        out.append(N.Store(array, (*idx, const(k, T.INDEX, loc)), e, check, loc=loc,
                           unsafe=lw.unsafe_depth > 0))  # fmt: skip
    return out


def coerce_to(lw: Lowerer, value: Value, t: T.ScalarType, node: ast.AST) -> TupleVal:
    """``value`` (real or complex) as a complex of type ``t`` (an annotation, a result)."""
    if isinstance(value, TupleVal) and not is_complex(value):
        lw.fail(node, f"a tuple where a {t.name} is needed")
    vt = VType(t.component)
    re, im = as_complex(lw, value, vt, node)
    return of_parts(Val(re), Val(im))
