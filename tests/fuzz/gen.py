"""Random valid kernels as Python source, for the differential fuzzer (``tests.fuzz.run``).

``generate(seed)`` returns a ``Case``: the source of a module with up to two ``@go.func``
helpers and one ``@go.kernel``, and how to launch it (grid, block, arguments). Everything is
derived from the seed, so a case is reproduced by its seed alone.

What the kernels contain: expression trees over every dtype (``bool, u8, u32, i32, i64, f32,
f64``) and operator (arithmetic, floor division and modulo, powers, bitwise and shifts,
comparisons, ``and``/``or``/``not``, conditional expressions, casts), the math functions,
``if``/``elif``/``else``, ``for`` over ``range`` (near the i32 limit too) and bounded
``while`` loops with ``break``/``continue``, early ``return``, device-function calls, 1-D and
2-D arrays indexed by computed indices (in range through ``%``, sometimes not: a bounds error)
and nested loads (``x[x[x[i % n] % n] % n]``); and, one kernel in four, a work-group kernel
with shared memory, barriers, uniform loops and conditions around them (some read from memory,
so that the barriers under them are voted on at run time) and shared-memory atomics (every
CUDA atomic: contended counters with order-independent ops, each op on a work-item's own slot).

Values are typed by construction: every expression is generated for a wanted dtype and only
strong operands are combined (literals are written ``go.i32(5)``), so the front end's NEP 50
rules never widen anything. Work-items store only at their own index (no races). Results of
the math functions that are not correctly rounded (``exp``, ``sin``, ...: ``APPROX``) go only
to their own output arrays (``oa_*``), straight from the call, so that the runner compares
them within a per-function tolerance while everything else is compared exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

INTS = ("u8", "u32", "i32", "i64")
FLOATS = ("f32", "f64")
DTYPES = ("bool", *INTS, *FLOATS)
GO_NAME = {"bool": "go.boolean", "u8": "go.u8", "u32": "go.u32", "i32": "go.i32",
           "i64": "go.i64", "f32": "go.f32", "f64": "go.f64"}  # fmt: skip
NP_DTYPE = {"bool": np.bool_, "u8": np.uint8, "u32": np.uint32, "i32": np.int32,
            "i64": np.int64, "f32": np.float32, "f64": np.float64}  # fmt: skip
INT_RANGE = {"u8": (0, 255), "u32": (0, 2**32 - 1), "i32": (-(2**31), 2**31 - 1),
             "i64": (-(2**63), 2**63 - 1)}  # fmt: skip

ATOMIC_TYPES = ("u32", "i32", "i64", "f32", "f64")
"""The element types atomics take (32 and 64 bits) among the generator's."""

CONTENDED_OPS = ("add", "sub", "and", "or", "xor", "min", "max")
"""Integer atomics whose final value does not depend on the order the work-items apply them."""

OWN_SLOT_OPS = {
    "i": ("add", "sub", "exch", "cas", "min", "max", "and", "or", "xor"),
    "u": ("add", "sub", "exch", "cas", "min", "max", "and", "or", "xor", "inc", "dec"),
    "f": ("add", "sub", "exch", "cas"),  # float min/max are C's fmin/fmax: zero's sign is open
}

APPROX = ("exp", "log", "log2", "sin", "cos", "tan", "tanh", "erf", "pow", "rsqrt")
"""Math functions whose results are compared within a tolerance (``run.TOLERANCE_ULPS``)."""

FLOAT_SPECIALS = (0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -3.75, 7.0, 1e30, -1e-30, 1e-40,
                  float("inf"), float("-inf"), float("nan"), 0.1, 65504.0, 3.0e38)  # fmt: skip


@dataclass
class ArrayArg:
    """One array argument: its parameter name, dtype, shape and whether the kernel writes it."""

    name: str
    dtype: str
    shape: tuple[int, ...]
    writes: bool = False


@dataclass
class Case:
    """A generated kernel and its launch."""

    seed: int
    source: str
    kernel: str
    grid: int
    block: int | None
    arrays: list[ArrayArg]
    scalars: list[tuple[str, str]]  # (name, dtype) in parameter order after the arrays
    inputs: dict[str, object] = field(default_factory=dict)  # argument values by name
    uses_fma: bool = False
    workgroup: bool = False

    @property
    def params(self) -> list[str]:
        return [a.name for a in self.arrays] + [n for n, _ in self.scalars]


def _lit(rng: random.Random, t: str) -> str:
    """A literal of dtype ``t``, written so it is strong (``go.i32(5)``)."""
    if t == "bool":
        return rng.choice(["True", "False"])
    if t in FLOATS:
        v = rng.choice(FLOAT_SPECIALS + (rng.uniform(-10, 10),))
        if v != v:
            text = 'float("nan")'
        elif v in (float("inf"), float("-inf")):
            text = 'float("inf")' if v > 0 else 'float("-inf")'
        else:
            text = repr(v)
        return f"{GO_NAME[t]}({text})"
    lo, hi = INT_RANGE[t]
    v = rng.choice([0, 1, 2, 3, 5, 7, 31, 63, 255, -1, -2, -7, -8, lo, hi, lo + 1, hi - 1,
                    rng.randint(-100, 100)])  # fmt: skip
    v = min(max(v, lo), hi)
    return f"{GO_NAME[t]}({v})"


class _Scope:
    """Names visible at a point: locals by dtype (loop variables included)."""

    def __init__(self, parent: _Scope | None = None) -> None:
        self.parent = parent
        self.names: dict[str, str] = {}

    def all(self) -> dict[str, str]:
        out = dict(self.parent.all()) if self.parent is not None else {}
        out.update(self.names)
        return out


class Gen:
    """Generates one module from ``seed``."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        r = self.rng
        self.types = sorted(set(r.sample(DTYPES, r.randint(2, 4))) | {"i64"}, key=DTYPES.index)
        self.n = 0  # fresh-name counter
        self.uses_fma = False
        self.functions: list[tuple[str, list[tuple[str, str]], str, str | None]] = []
        # (name, [(param, dtype)], return dtype, array param dtype or None)
        self.arrays: dict[str, ArrayArg] = {}
        self.in_function = False
        self.func_array: tuple[str, str] | None = None  # (param name, dtype) in a function
        self.lines: list[str] = []
        self.indent = 1
        self.loop_depth = 0
        self.stmt_budget = 0

    # -- names ------------------------------------------------------------------------------

    def fresh(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def array(self, t: str, ndim: int = 1) -> str | None:
        """The input array of dtype ``t`` (made on first use), or None in a device function
        whose array parameter has another dtype."""
        if self.in_function:
            if self.func_array is not None and self.func_array[1] == t and ndim == 1:
                return self.func_array[0]
            return None
        name = f"x_{t}" if ndim == 1 else f"m_{t}"
        if name not in self.arrays:
            r = self.rng
            shape = (r.randint(1, 12),) if ndim == 1 else (r.randint(1, 5), r.randint(1, 5))
            self.arrays[name] = ArrayArg(name, t, shape)
        return name

    # -- expressions ------------------------------------------------------------------------

    def index(self, array: str, dim: int, scope: _Scope, depth: int) -> str:
        """An index for dimension ``dim`` of ``array``: in range through ``%`` (nested loads
        included), or now and then a raw computed index that may be out of range."""
        r = self.rng.random()
        size = f"{array}.shape[{dim}]"
        if r < 0.03:
            off = self.rng.choice([-2, -1, 1, 2, 3, 2**62, -(2**63)])
            return f"{self.expr('i64', scope, 0)} + ({off})"
        if r < 0.22 and depth > 0 and not self.in_function:
            # a nested load: the index is read from memory
            inner_t = self.rng.choice([t for t in self.types if t in INTS] or ["i64"])
            inner = self.array(inner_t)
            assert inner is not None
            idx = self.index(inner, 0, scope, depth - 1)
            return f"go.i64({inner}[{idx}]) % {size}"
        if r < 0.45 and not self.in_function:
            return f"i % {size}"
        return f"{self.expr('i64', scope, max(depth - 1, 0))} % {size}"

    def leaf(self, t: str, scope: _Scope, depth: int) -> str:
        r = self.rng
        names = [n for n, nt in scope.all().items() if nt == t]
        choices: list[str] = ["lit"]
        if names:
            choices += ["var"] * 3
        if not self.in_function and t in self.types:
            choices += ["scalar"]
        if self.array(t) is not None:
            choices += ["load"] * 2
        if t in ("bool", "u8", "i32", "f32", "f64") and not self.in_function:
            choices += ["load2"]
        if t == "i64" and not self.in_function:
            choices += ["gid"]
        kind = r.choice(choices)
        if kind == "var":
            return r.choice(names)
        if kind == "scalar":
            return f"s_{t}"
        if kind == "load":
            a = self.array(t)
            assert a is not None
            return f"{a}[{self.index(a, 0, scope, depth)}]"
        if kind == "load2":
            m = self.array(t, 2)
            assert m is not None
            return f"{m}[{self.index(m, 0, scope, 0)}, {self.index(m, 1, scope, 0)}]"
        if kind == "gid":
            return "i"
        return _lit(r, t)

    def expr(self, t: str, scope: _Scope, depth: int) -> str:
        """An expression of dtype exactly ``t``."""
        r = self.rng
        if depth <= 0 or r.random() < 0.2:
            return self.leaf(t, scope, depth)
        d = depth - 1
        k = r.random()
        if t == "bool":
            if k < 0.35:
                s = r.choice(self.types)
                op = r.choice(["<", "<=", ">", ">=", "==", "!="])
                return f"({self.expr(s, scope, d)} {op} {self.expr(s, scope, d)})"
            if k < 0.55:
                op = r.choice(["and", "or"])
                return f"({self.expr('bool', scope, d)} {op} {self.expr('bool', scope, d)})"
            if k < 0.65:
                return f"(not {self.expr('bool', scope, d)})"
            if k < 0.75:
                op = r.choice(["&", "|", "^"])
                return f"({self.expr('bool', scope, d)} {op} {self.expr('bool', scope, d)})"
            if k < 0.85:
                f = r.choice(FLOATS)
                fn = r.choice(["go.isnan", "go.isinf"])
                return f"{fn}({self.expr(f, scope, d)})"
            if k < 0.92:
                return f"go.boolean({self.expr(r.choice(self.types), scope, d)})"
            return self.select(t, scope, d)
        if k < 0.45:
            return self.binary(t, scope, d)
        if k < 0.55:
            return self.cast(t, scope, d)
        if k < 0.63:
            return self.select(t, scope, d)
        if k < 0.7:
            op = "-" if t in FLOATS or r.random() < 0.6 else "~"
            return f"({op}{self.expr(t, scope, d)})"
        if k < 0.88:
            return self.math(t, scope, d)
        if self.functions and k < 0.95:
            call = self.call(t, scope, d)
            if call is not None:
                return call
        return self.leaf(t, scope, d)

    def binary(self, t: str, scope: _Scope, d: int) -> str:
        r = self.rng
        if t in FLOATS:
            # no **: on floats it is pow, not correctly rounded (go.pow in the oa_ outputs)
            op = r.choice(["+", "-", "*", "/", "//", "%", "+", "*", "-"])
        else:
            op = r.choice(["+", "-", "*", "//", "%", "&", "|", "^", "<<", ">>", "+", "*", "**"])
        a = self.expr(t, scope, d)
        b = self.expr(t, scope, d)
        if op == "**" and t not in FLOATS:
            # bounded exponents (a negative constant exponent is a compile error)
            b = f"({b} % {GO_NAME[t]}(9))"
        if r.random() < 0.15 and t in INTS and op in ("+", "-", "*", "&", "|", "^", ">>"):
            # a bare Python literal next to a strong operand (weak: adapts to the other's type)
            lo, hi = INT_RANGE[t]
            b = str(r.choice([v for v in (0, 1, 2, 3, 7, 100, -1, -5) if lo <= v <= hi]))
        return f"({a} {op} {b})"

    def cast(self, t: str, scope: _Scope, d: int) -> str:
        s = self.rng.choice(self.types)
        return f"{GO_NAME[t]}({self.expr(s, scope, d)})"

    def select(self, t: str, scope: _Scope, d: int) -> str:
        c = self.expr("bool", scope, d)
        return f"({self.expr(t, scope, d)} if {c} else {self.expr(t, scope, d)})"

    def math(self, t: str, scope: _Scope, d: int) -> str:
        r = self.rng
        if t in FLOATS:
            fn = r.choice(["abs", "min", "max", "go.sqrt", "go.floor", "go.ceil", "go.fma",
                           "min", "max", "go.abs"])  # fmt: skip
        elif t == "u8" or t == "bool":
            fn = r.choice(["min", "max", "abs"])
        else:
            fn = r.choice(["abs", "min", "max", "go.min", "go.max"])
        nargs = {"min": 2, "max": 2, "go.min": 2, "go.max": 2, "go.fma": 3}.get(fn, 1)
        if fn == "go.fma":
            self.uses_fma = True
        args = [self.expr(t, scope, d) for _ in range(nargs)]
        if fn in ("abs", "go.abs") and t == "u8":
            fn = "min"
            args = [args[0], self.expr(t, scope, d)]
        text = f"{fn}({', '.join(args)})"
        # abs/min/max of bools give i64; bring them back to bool
        return f"go.boolean({text})" if t == "bool" else text

    def call(self, t: str, scope: _Scope, d: int) -> str | None:
        options = [f for f in self.functions if f[2] == t]
        if not options:
            return None
        name, params, _, arr = self.rng.choice(options)
        args = [self.expr(pt, scope, d) for _, pt in params]
        if arr is not None:
            a = self.array(arr)
            if a is None:
                return None
            args.append(a)
        return f"{name}({', '.join(args)})"

    # -- statements -------------------------------------------------------------------------

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)

    def block(self, scope: _Scope, depth: int, count: int) -> None:
        start = len(self.lines)
        for _ in range(count):
            if self.stmt_budget <= 0:
                break
            self.stmt(scope, depth)
        if len(self.lines) == start:
            self.emit("pass")

    def stmt(self, scope: _Scope, depth: int) -> None:
        r = self.rng
        self.stmt_budget -= 1
        k = r.random()
        edepth = r.randint(1, 3)
        if k < 0.3 or depth <= 0:
            t = r.choice(self.types)
            name = self.fresh("v")
            self.emit(f"{name}: {GO_NAME[t]} = {self.expr(t, scope, edepth)}")
            scope.names[name] = t
            return
        locals_ = [(n, t) for n, t in scope.all().items() if not n.startswith("k")]
        if k < 0.42 and locals_:
            name, t = r.choice(locals_)
            if t != "bool" and r.random() < 0.5:
                op = r.choice(["+", "-", "*"] if t in FLOATS else ["+", "-", "*", "^", "|"])
                self.emit(f"{name} {op}= {self.expr(t, scope, edepth)}")
            else:
                self.emit(f"{name} = {self.expr(t, scope, edepth)}")
            return
        if k < 0.55 and not self.in_function:
            t = r.choice(self.types)
            self.emit(f"o_{t}[i] = {self.expr(t, scope, edepth)}")
            return
        if k < 0.7:
            self.emit(f"if {self.expr('bool', scope, 2)}:")
            self.nested(scope, depth)
            while r.random() < 0.3:
                self.emit(f"elif {self.expr('bool', scope, 2)}:")
                self.nested(scope, depth)
            if r.random() < 0.5:
                self.emit("else:")
                self.nested(scope, depth)
            return
        if k < 0.8:
            self.for_loop(scope, depth)
            return
        if k < 0.87:
            w = self.fresh("w")
            self.emit(f"{w} = 0")
            self.emit(f"while {w} < {r.randint(0, 4)}:")
            self.indent += 1
            self.emit(f"{w} += 1")
            self.loop_depth += 1
            self.block(_Scope(scope), depth - 1, r.randint(1, 3))
            self.loop_depth -= 1
            self.indent -= 1
            return
        if k < 0.95 and self.loop_depth > 0:
            self.emit(f"if {self.expr('bool', scope, 2)}:")
            self.indent += 1
            self.emit(r.choice(["break", "continue"]))
            self.indent -= 1
            return
        if not self.in_function and r.random() < 0.5:
            self.emit(f"if {self.expr('bool', scope, 2)}:")
            self.indent += 1
            self.emit("return")
            self.indent -= 1
            return
        t = r.choice(self.types)
        name = self.fresh("v")
        self.emit(f"{name}: {GO_NAME[t]} = {self.expr(t, scope, edepth)}")
        scope.names[name] = t

    def nested(self, scope: _Scope, depth: int) -> None:
        self.indent += 1
        self.block(_Scope(scope), depth - 1, self.rng.randint(1, 3))
        self.indent -= 1

    def for_loop(self, scope: _Scope, depth: int) -> None:
        r = self.rng
        var = self.fresh("k")
        k = r.random()
        if k < 0.1:
            # near the i32 limit: the counter must not overflow (2 iterations)
            lo = r.choice([2147483640, 2147483600])
            header = f"range(go.i32({lo}), go.i32(2147483647), go.i32({r.choice([5, 7, 3])}))"
            vt = "i32"
        elif k < 0.2:
            header = f"range(go.i32(-2147483641), go.i32(-2147483648), go.i32(-{r.randint(2, 9)}))"
            vt = "i32"
        elif k < 0.6:
            header = f"range({r.randint(0, 5)})"
            vt = "i64"
        else:
            a, b = r.randint(-4, 4), r.randint(-4, 6)
            step = r.choice([1, 2, 3, -1, -2])
            header = f"range({a}, {b}, {step})"
            vt = "i64"
        self.emit(f"for {var} in {header}:")
        inner = _Scope(scope)
        inner.names[var] = vt
        self.indent += 1
        self.loop_depth += 1
        self.block(inner, depth - 1, r.randint(1, 3))
        self.loop_depth -= 1
        self.indent -= 1

    # -- whole programs ---------------------------------------------------------------------

    def function(self) -> list[str]:
        r = self.rng
        name = self.fresh("f")
        params = [(f"a{j}", r.choice(self.types)) for j in range(r.randint(1, 3))]
        ret = r.choice(self.types)
        arr = r.choice([t for t in self.types]) if r.random() < 0.5 else None
        self.in_function = True
        self.func_array = ("arr", arr) if arr is not None else None
        scope = _Scope()
        for p, t in params:
            scope.names[p] = t
        self.lines = []
        self.indent = 1
        self.stmt_budget = r.randint(1, 3)
        self.block(scope, 2, self.stmt_budget)
        self.emit(f"return {self.expr(ret, scope, 3)}")
        self.in_function = False
        self.func_array = None
        sig = ", ".join(f"{p}: {GO_NAME[t]}" for p, t in params)
        if arr is not None:
            sig += f", arr: Borrow[Array[{GO_NAME[arr]}]]"
        self.functions.append((name, params, ret, arr))
        return ["@go.func", f"def {name}({sig}) -> {GO_NAME[ret]}:", *self.lines, ""]

    def kernel_body(self) -> list[str]:
        r = self.rng
        self.lines = []
        self.indent = 1
        self.emit("i = go.global_id(0)")
        scope = _Scope()
        self.stmt_budget = r.randint(2, 8)
        self.block(scope, 3, self.stmt_budget)
        for t in self.types:
            if r.random() < 0.7:
                self.emit(f"o_{t}[i] = {self.expr(t, scope, 2)}")
        for t in FLOATS:
            if t in self.types and r.random() < 0.6:
                self.emit(f"oa_{t}[i] = {self.approx(t, scope)}")
        return self.lines

    def approx(self, t: str, scope: _Scope) -> str:
        fn = self.rng.choice(APPROX)
        if fn == "pow":
            if self.rng.random() < 0.5:  # the operator spelling of pow
                return f"({self.expr(t, scope, 2)} ** {self.expr(t, scope, 1)})"
            return f"go.pow({self.expr(t, scope, 2)}, {self.expr(t, scope, 1)})"
        return f"go.{fn}({self.expr(t, scope, 2)})"

    def workgroup_body(self, block: int) -> list[str]:
        """A work-group kernel: per-item values exchanged through shared memory between
        barriers, in uniform loops and under uniform conditions, plus integer atomics."""
        r = self.rng
        self.lines = []
        self.indent = 1
        t = r.choice(self.types)
        scope = _Scope()
        self.emit("i = go.global_id(0)")
        self.emit("lid = go.local_id(0)")
        self.emit(f"sh = go.shared({block}, {GO_NAME[t]})")
        self.emit(f"v: {GO_NAME[t]} = {self.expr(t, scope, 2)}")
        scope.names["v"] = t
        atom = self.atomic_counter() if r.random() < 0.4 else None
        # a value read from memory at a group-uniform index: the front end cannot prove it
        # uniform, so barriers under it are voted on (all agree here: no BarrierError)
        voted = "x_i64[go.group_id(0) % x_i64.shape[0]]"
        self.array("i64")
        for _ in range(r.randint(1, 3)):
            kind = r.random()
            if kind < 0.5:
                self.exchange(t, block, scope)
            elif kind < 0.8:
                var = self.fresh("k")
                # uniform; a trip count read from memory is voted on at run time
                trips = r.choice(["3", "s_i64 % 4", "go.group_id(0) + 1", f"{voted} % 4"])
                self.emit(f"for {var} in range({trips}):")
                self.indent += 1
                scope.names[var] = "i64"
                self.exchange(t, block, scope, var)
                self.indent -= 1
                del scope.names[var]
            else:
                cond = r.choice(["go.group_id(0) % 2 == 0", "s_i64 > 0", "True", f"{voted} > 0"])
                self.emit(f"if {cond}:")
                self.indent += 1
                self.exchange(t, block, scope)
                self.indent -= 1
        if atom is not None:
            self.emit("go.barrier()")
            op, at = atom
            value = self.expr(at, scope, 1)
            where = f"(lid * {r.randint(1, 7)}) % 4"
            self.emit(f"go.atomic_{op}(cnt, {where}, {GO_NAME[at]}({value}))")
            own = [u for u in self.types if u in ATOMIC_TYPES and u not in (t, "i64")]
            if own and r.random() < 0.7:
                self.atomic_own_slot(r.choice(own), block, scope)
            self.emit("go.barrier()")
            self.emit("o_i64[i] = go.i64(cnt[lid % 4])")
        self.emit(f"o_{t}[i] = v")
        return self.lines

    def atomic_counter(self) -> tuple[str, str]:
        """Four shared counters that every work-item of the group updates with one atomic op
        whose final value does not depend on the order (``CONTENDED_OPS``), each starting at
        the op's identity; returns (op, dtype)."""
        r = self.rng
        at = r.choice([u for u in self.types if u in ("u32", "i32", "i64")])
        op = r.choice(CONTENDED_OPS)
        lo, hi = INT_RANGE[at]
        init = {"and": hi if at == "u32" else -1, "min": hi, "max": lo}.get(op, 0)
        self.emit(f"cnt = go.shared(4, {GO_NAME[at]})")
        self.emit("if lid < 4:")
        self.emit(f"    cnt[lid] = {GO_NAME[at]}({init})")
        return op, at

    def atomic_own_slot(self, t: str, block: int, scope: _Scope) -> None:
        """Every atomic op of dtype ``t`` (exch, cas, inc and dec included) on the work-item's
        own shared slot: no contention, so the old value it returns is determined too;
        ``o_<t>`` gets the old value, the new one or both."""
        r = self.rng
        kind = "f" if t in FLOATS else "u" if t[0] == "u" else "i"
        op = r.choice(OWN_SLOT_OPS[kind])
        self.emit(f"own = go.shared({block}, {GO_NAME[t]})")
        self.emit(f"own[lid] = {self.expr(t, scope, 1)}")
        value = f"{GO_NAME[t]}({self.expr(t, scope, 1)})"
        if op == "cas":  # the compare value matches now and then
            compare = "own[lid]" if r.random() < 0.5 else f"{GO_NAME[t]}({self.expr(t, scope, 1)})"
            value = f"{compare}, {value}"
        self.emit(f"old = go.atomic_{op}(own, lid, {value})")
        result = r.choice(["old", "own[lid]", "(old ^ own[lid])" if kind != "f" else "old"])
        self.emit(f"o_{t}[i] = {result}")

    def exchange(self, t: str, block: int, scope: _Scope, var: str | None = None) -> None:
        r = self.rng
        self.emit(f"sh[lid] = {self.expr(t, scope, 2)}")
        self.emit("go.barrier()")
        shift = r.randint(1, block - 1) if block > 1 else 0
        src = f"(lid + {shift}) % {block}" if var is None else f"(lid + {var} + {shift}) % {block}"
        self.emit(f"v = {self.combine(t, f'sh[{src}]', scope)}")
        self.emit("go.barrier()")

    def combine(self, t: str, other: str, scope: _Scope) -> str:
        r = self.rng
        if t == "bool":
            return f"(v {r.choice(['^', '|', '&'])} {other})"
        op = r.choice(["+", "-", "*"] if t in FLOATS else ["+", "^", "-", "|"])
        return f"(v {op} {other})"


def generate(seed: int) -> Case:
    """The case of ``seed`` (see the module docstring)."""
    g = Gen(seed)
    r = g.rng
    workgroup = r.random() < 0.25
    head = [f"# Generated by tests.fuzz.gen (seed {seed}).", "import math", "",
            "import gpuoff as go", "from gpuoff import Array, Borrow, BorrowMut", ""]  # fmt: skip
    funcs: list[str] = []
    if not workgroup:
        for _ in range(r.randint(0, 2)):
            funcs += g.function() + [""]
    block: int | None = None
    if workgroup:
        block = r.choice([4, 8, 16])
        grid = block * r.randint(1, 3)
        g.types = sorted(set(g.types) | {"i32", "i64"}, key=DTYPES.index)
        body = g.workgroup_body(block)
    else:
        grid = r.randint(1, 33)
        body = g.kernel_body()
    outputs = [ArrayArg(f"o_{t}", t, (grid,), True) for t in g.types]
    outputs += [ArrayArg(f"oa_{t}", t, (grid,), True) for t in FLOATS if t in g.types]
    arrays = list(g.arrays.values()) + outputs
    scalars = [(f"s_{t}", t) for t in g.types]
    params = [f"{a.name}: {'BorrowMut' if a.writes else 'Borrow'}[Array[{GO_NAME[a.dtype]}]]"
              for a in arrays] + [f"{n}: {GO_NAME[t]}" for n, t in scalars]  # fmt: skip
    sig = ",\n        ".join(params)
    kernel = [f"@go.kernel\ndef kernel(\n        {sig}) -> None:", *body]
    source = "\n".join(head + funcs + kernel) + "\n"
    case = Case(seed, source, "kernel", grid, block, arrays, scalars, uses_fma=g.uses_fma,
                workgroup=workgroup)  # fmt: skip
    case.inputs = make_inputs(case, np.random.default_rng(seed))
    return case


def make_inputs(case: Case, rng: np.random.Generator) -> dict[str, object]:
    """Argument values: arrays full of edge values (NaN, infinities, signed zeros, the
    integer limits), outputs filled with a marker, scalars drawn the same way."""
    out: dict[str, object] = {}
    for a in case.arrays:
        out[a.name] = _values(a.dtype, a.shape, rng, marker=a.writes)
    for name, t in case.scalars:
        v = _values(t, (1,), rng, marker=False)[0]
        out[name] = v.item()
    return out


def _values(t: str, shape: tuple[int, ...], rng: np.random.Generator,
            marker: bool) -> np.ndarray:  # fmt: skip
    dtype = NP_DTYPE[t]
    if marker:
        return np.full(shape, 1 if t == "bool" else 77, dtype)
    size = int(np.prod(shape))
    if t == "bool":
        return rng.integers(0, 2, shape).astype(np.bool_)
    if t in FLOATS:
        pool = np.array(FLOAT_SPECIALS, dtype=np.float64)
        vals = np.where(rng.random(size) < 0.5, rng.choice(pool, size),
                        rng.normal(0, 10, size))  # fmt: skip
        with np.errstate(over="ignore"):
            return vals.astype(dtype).reshape(shape)
    lo, hi = INT_RANGE[t]
    edges = np.array([lo, hi, lo + 1, hi - 1, 0, 1, 2, 3, 7], dtype=object)
    small = rng.integers(max(lo, -50), min(hi, 50) + 1, size)
    pick = rng.choice(edges, size)
    vals = np.where(rng.random(size) < 0.3, pick, small)
    return np.array([int(v) for v in vals], dtype=dtype).reshape(shape)
