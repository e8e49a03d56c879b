"""C helper snippets and naming rules for the OpenCL C renderer (``codegen.opencl``).

Helpers are emitted on demand, once per program, before the device functions: Python's floor
division and modulo, integer ``pow``, the error-record writer and the atomics OpenCL 1.2 lacks
(float add/min/max through compare-and-swap loops). Everything is plain OpenCL 1.2 C.
"""

from __future__ import annotations

import re

from codegen.abi import KEY_CHECK_BITS, MAX_NDIM
from gpuoff.ir.types import ScalarType

ERR_ITEM = 1 + 2 * MAX_NDIM
ERR_KEY = ERR_ITEM + 1
ERR_LOCK = ERR_KEY + 1
ERR_LEN = ERR_LOCK + 1
"""Longs in one OpenCL error record: the check id and indices of ``codegen.abi``'s record, the
array's shape, the failing work-item's linear id, then the key and the lock that keep the
earliest failure (``Helpers.oob``). ``codegen.opencl_abi`` re-exports them."""

# Scalar type -> OpenCL C type of values (registers) and of memory (bool is uchar in memory:
# OpenCL C forbids bool in kernel arguments and through pointers).
VALUE_CTYPE = {
    "f16": "half", "f32": "float", "f64": "double", "i8": "char", "i16": "short", "i32": "int",
    "i64": "long", "u8": "uchar", "u16": "ushort", "u32": "uint", "u64": "ulong",
    "bool": "bool",
}  # fmt: skip
MEMORY_CTYPE = {**VALUE_CTYPE, "bool": "uchar"}

C_KEYWORDS = frozenset(
    """auto break case char const continue default do double else enum extern float for goto
    if inline int long register restrict return short signed sizeof static struct switch
    typedef union unsigned void volatile while bool true false half uchar ushort uint ulong
    size_t ptrdiff_t intptr_t uintptr_t global local constant private kernel read_only
    write_only read_write image2d_t image3d_t sampler_t event_t __global __local __constant
    __private __kernel main NULL INFINITY NAN MAXFLOAT HUGE_VALF HUGE_VAL""".split()
)
# OpenCL C builtins a user name could shadow (a local named ``exp`` would hide ``exp()``, a
# device function named ``dot`` would clash with the builtin overload set).
C_BUILTINS = frozenset(
    """acos acosh acospi asin asinh asinpi atan atan2 atanh atanpi atan2pi cbrt ceil copysign
    cos cosh cospi erfc erf exp exp2 exp10 expm1 fabs fdim floor fma fmax fmin fmod fract
    frexp hypot ilogb ldexp lgamma lgamma_r log log2 log10 log1p logb mad maxmag minmag modf
    nan nextafter pow pown powr remainder remquo rint rootn round rsqrt sin sincos sinh sinpi
    sqrt tan tanh tanpi tgamma trunc abs abs_diff add_sat hadd rhadd clamp clz mad_hi
    mad_sat max min mul_hi rotate sub_sat upsample popcount mad24 mul24 degrees mix radians
    step smoothstep sign cross dot distance length normalize fast_distance fast_length
    fast_normalize isequal isnotequal isgreater isgreaterequal isless islessequal
    islessgreater isfinite isinf isnan isnormal isordered isunordered signbit any all
    bitselect select vload vstore shuffle shuffle2 barrier mem_fence read_mem_fence
    write_mem_fence get_work_dim get_global_size get_global_id get_local_size get_local_id
    get_num_groups get_group_id get_global_offset printf async_work_group_copy
    wait_group_events prefetch atomic_add atomic_sub atomic_xchg atomic_inc atomic_dec
    atomic_cmpxchg atomic_min atomic_max atomic_and atomic_or atomic_xor atom_add atom_min
    atom_max atom_cmpxchg as_int as_uint as_float as_long as_ulong as_double""".split()
)
_GENERATED = re.compile(r"^gpuoff|_(shape|stride)\d+$|_(offset|arg)$|^__|^[0-9]")


def c_identifier(name: str, taken: set[str]) -> str:
    """A C identifier for the user's ``name`` that shadows no keyword, builtin or generated
    name (``x_shape0``, ``x_offset``, ``gpuoff_*``) and is not in ``taken``."""
    out = "".join(ch if (ch.isascii() and (ch.isalnum() or ch == "_")) else f"_u{ord(ch):x}"
                  for ch in name)  # fmt: skip
    if out in C_KEYWORDS or out in C_BUILTINS or _GENERATED.search(out):
        out += "_"
    while out in taken:
        out += "_"
    return out


def value_ctype(t: ScalarType) -> str:
    """OpenCL C type of a value of ``t``."""
    return VALUE_CTYPE[t.name]


def memory_ctype(t: ScalarType) -> str:
    """OpenCL C type of an array element of ``t`` (bool is stored as uchar)."""
    return MEMORY_CTYPE[t.name]


def zero_literal(t: ScalarType) -> str:
    """A zero of ``t`` as an OpenCL C literal."""
    if promoted(t) and not t.is_bool:
        return f"({value_ctype(t)})0"
    return {"f32": "0.0f", "f64": "0.0", "f16": "(half)0.0f", "bool": "false", "i64": "0L",
            "u32": "0u", "u64": "0UL"}.get(t.name, "0")  # fmt: skip


def promoted(t: ScalarType) -> bool:
    """Whether C's integer promotions turn an operand of ``t`` into an ``int`` (bool, char,
    uchar, short, ushort): the result of an operator must then be converted back to ``t``."""
    return t.is_bool or (t.is_int and t.bits < 32)


def wrap_ctype(t: ScalarType) -> str:
    """The unsigned C type in which ``t``'s wrapping ``+ - * <<`` are computed without C's
    undefined signed overflow: ``uint`` for 8- to 32-bit types (``ushort * ushort`` would
    overflow the ``int`` it is promoted to), ``ulong`` for 64-bit ones."""
    return "ulong" if t.bits == 64 else "uint"


class Helpers:
    """The helper functions one program needs, in emission order (dependencies first)."""

    def __init__(self, int64_atomics: bool = True, fast: int = 0) -> None:
        self._snippets: dict[str, str] = {}
        # whether the device has cl_khr_int64_base_atomics and _extended_atomics (oob)
        self.int64_atomics = int64_atomics
        # the kernel's dimension rendered as dimension 0 (render_opencl): the kernel's own
        # dimension d is the rendered dimension dims[d]
        self.dims = [fast if d == 0 else 0 if d == fast else d for d in range(3)]

    def records_errors(self) -> bool:
        """Whether a bounds-error recorder was requested (it uses int64 atomics)."""
        return any(name.startswith("gpuoff_oob") for name in self._snippets)

    def text(self) -> str:
        """All requested helpers as C source (empty when none)."""
        return "\n".join(self._snippets.values())

    def _add(self, name: str, body: str) -> str:
        if name not in self._snippets:
            self._snippets[name] = body
        return name

    def oob(self, ndim: int) -> str:
        """``long gpuoff_oobN(err, check, i0.., n0..)``: record a failed check, return 0.

        The record (``codegen.opencl_abi.ERR_LEN`` longs) is ``codegen.abi``'s error record
        (check id, indices) with the array's shape from ``err[1 + MAX_NDIM]`` and, after it,
        the failing work-item's linear id, a key and a lock (``ERR_ITEM``, ``ERR_KEY``,
        ``ERR_LOCK``). The record kept is the one ``gpuoff.ir.bounds.failure_order`` puts first:
        an atomic max of ``~(item << 16 | check)`` on the key; a work-item writes the record
        only while no other one is writing (a count of writers, ``ERR_LOCK``: an atomic
        increment and decrement around the writes; the one that finds it zero may write), and
        then if it raised the key and its key is still the best, or if the record is still
        empty (so a launch with a failure never leaves it empty). No loop and no atomic under
        another's result: either stops Intel's CPU compiler from vectorising the whole kernel.
        Rarely, the best work-item finds another writer inside and leaves the record to it: the
        record is then a real failure, not the first. Needs the int64 atomics extensions;
        without them (``int64_atomics=False``) the first record wins, through a 32-bit
        compare-and-swap on the low word of ``err[0]``.
        """
        name = f"gpuoff_oob{ndim}"
        params = "".join(f", long i{d}" for d in range(ndim))
        params += "".join(f", long n{d}" for d in range(ndim))
        parts = [f"err[{1 + d}] = i{d};" for d in range(ndim)]
        parts += [f"err[{1 + MAX_NDIM + d}] = n{d};" for d in range(ndim)]
        if not self.int64_atomics:
            stores = "".join(f"        {p}\n" for p in parts)
            body = (
                f"/* Record a failed bounds check (first record wins); yields 0. */\n"
                f"long {name}(__global long* err, int check{params})\n{{\n"
                f"    if (atomic_cmpxchg((volatile __global int*)err, 0, check) == 0) {{\n"
                f"{stores}    }}\n    return 0;\n}}\n"
            )
            return self._add(name, body)
        stores = "".join(f"        {p}\n"
                         for p in ["err[0] = check;", *parts, f"err[{ERR_ITEM}] = (long)item;"])
        x, y, z = self.dims  # the linear id in the kernel's own dimension order
        body = (
            f"/* Record a failed bounds check, keeping the lowest work-item's lowest check */\n"
            f"/* (gpuoff.ir.bounds.failure_order); yields 0. Not inlined: called only when an */\n"
            f"/* access fails, and inlined at every checked access it made builds 2-7x slower. */\n"
            f"__attribute__((noinline)) long {name}(__global long* err, int check{params})\n{{\n"
            f"    ulong item = get_global_id({x}) + get_global_size({x}) * (get_global_id({y})\n"
            f"        + get_global_size({y}) * get_global_id({z}));\n"
            f"    ulong key = ~((item << {KEY_CHECK_BITS}) | (ulong)min(check, "
            f"{(1 << KEY_CHECK_BITS) - 1}));\n"
            f"    volatile __global ulong* kp = (volatile __global ulong*)(err + {ERR_KEY});\n"
            f"    volatile __global int* inside = (volatile __global int*)(err + {ERR_LOCK});\n"
            f"    ulong old = atom_max(kp, key);\n"
            f"    int ticket = atomic_inc(inside);\n"
            f"    if (ticket == 0 && ((old < key && *kp == key) || err[0] == 0)) {{\n"
            f"{stores}"
            f"    }}\n"
            f"    mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
            f"    atomic_dec(inside);\n"
            f"    return 0;\n}}\n"
        )
        return self._add(name, body)

    def floordiv(self, t: ScalarType) -> str:
        """Python ``a // b`` on ``t`` (ints: by zero -> 0; floats: NumPy's divmod rule)."""
        c = value_ctype(t)
        name = f"gpuoff_floordiv_{c}"
        if t.is_float:
            body = self._float_floordiv(name, t)
        elif t.is_signed:
            body = (
                f"{c} {name}({c} a, {c} b)\n{{\n"
                f"    if (b == 0) return 0;\n"
                f"    if (b == -1) return ({c})(0 - (u{c})a);  /* wraps like the IR says */\n"
                f"    {c} q = a / b;\n"
                f"    if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;\n"
                f"    return q;\n}}\n"
            )
        else:
            body = f"{c} {name}({c} a, {c} b)\n{{\n    return b == 0 ? 0 : ({c})(a / b);\n}}\n"
        return self._add(name, body)

    def mod(self, t: ScalarType) -> str:
        """Python ``a % b`` on ``t`` (result has the divisor's sign; int by zero -> 0)."""
        c = value_ctype(t)
        name = f"gpuoff_mod_{c}"
        if t.is_float:
            body = self._float_mod(name, t)
        elif t.is_signed:
            body = (
                f"{c} {name}({c} a, {c} b)\n{{\n"
                f"    if (b == 0 || b == -1) return 0;\n"
                f"    {c} r = a % b;\n"
                f"    if (r != 0 && ((r < 0) != (b < 0))) r += b;\n"
                f"    return r;\n}}\n"
            )
        else:
            body = f"{c} {name}({c} a, {c} b)\n{{\n    return b == 0 ? 0 : ({c})(a % b);\n}}\n"
        return self._add(name, body)

    @staticmethod
    def _float_floordiv(name: str, t: ScalarType) -> str:
        # NumPy's npy_divmod, quotient part. Written without the pointer to the remainder the
        # two used to share: PoCL miscompiled that helper chain in device functions (a NaN
        # quotient came out as 0 or 1 from launch to launch).
        c = value_ctype(t)
        h = "0.5f" if c != "double" else "0.5"
        return (
            f"{c} {name}({c} a, {c} b)\n{{\n"
            f"    {c} m = fmod(a, b);\n"
            f"    if (b == 0) return a / b;\n"
            f"    {c} div = (a - m) / b;\n"
            f"    if (m != 0 && ((b < 0) != (m < 0))) div -= 1;\n"
            f"    if (div == 0) return copysign(({c})0, a / b);\n"
            f"    {c} q = floor(div);\n"
            f"    if (div - q > {h}) q += 1;\n"
            f"    return q;\n}}\n"
        )

    @staticmethod
    def _float_mod(name: str, t: ScalarType) -> str:
        # NumPy's npy_divmod, remainder part (the result has the divisor's sign).
        c = value_ctype(t)
        return (
            f"{c} {name}({c} a, {c} b)\n{{\n"
            f"    {c} m = fmod(a, b);\n"
            f"    if (b == 0) return m;\n"
            f"    if (m == 0) return copysign(({c})0, b);\n"
            f"    if ((b < 0) != (m < 0)) m += b;\n"
            f"    return m;\n}}\n"
        )

    def float_to_int(self, src: ScalarType, dst: ScalarType) -> str:
        """Truncate toward zero, saturate, NaN -> 0 (PoCL's ``convert_long_sat_rtz`` gives
        LONG_MIN for NaN, so NaN is tested explicitly)."""
        s, d = value_ctype(src), value_ctype(dst)
        name = f"gpuoff_{d}_from_{s}"
        body = (f"{d} {name}({s} x)\n{{\n"
                f"    return isnan(x) ? 0 : convert_{d}_sat_rtz(x);\n}}\n")  # fmt: skip
        return self._add(name, body)

    def ipow(self, t: ScalarType) -> str:
        """Integer ``a ** b`` by squaring; negative exponents give 0; wraps (the products are
        taken on unsigned bits: signed overflow is undefined in C)."""
        c = value_ctype(t)
        u = wrap_ctype(t)
        name = f"gpuoff_pow_{c}"
        neg = "    if (b < 0) return 0;\n" if t.is_signed else ""
        body = (
            f"{c} {name}({c} a, {c} b)\n{{\n{neg}"
            f"    {u} r = 1;\n"
            f"    {u} x = ({u})a;\n"
            f"    while (b != 0) {{\n"
            f"        if (b & 1) r = ({u})(r * x);\n"
            f"        x = ({u})(x * x);\n"
            f"        b >>= 1;\n    }}\n    return ({c})r;\n}}\n"
        )
        return self._add(name, body)

    # Intel's CPU runtime miscompiles a bitwise not that meets an integer min or max
    # (``~max(a, b)``, ``-1 - max(a, b)``, ``min(~a, ~b)``, through locals too) after some
    # branches: the all-ones operand of the ``xor`` becomes another value of the kernel
    # (``~max(16, -36)`` gave 25, 16 ^ the grid size; fuzz seed 30000034). Integer min/max and
    # ``~`` therefore pass their operands and results through volatile temporaries, which its
    # optimiser cannot see through; no slowdown was measurable (a clamped-index stencil).

    def invert(self, t: ScalarType) -> str:
        """``T gpuoff_not_T(T x)``: ``~x`` between volatile temporaries (see above)."""
        c = value_ctype(t)
        name = f"gpuoff_not_{c}"
        body = (f"{c} {name}({c} x)\n{{\n"
                f"    volatile {c} a = x;\n    volatile {c} b = ({c})~a;\n    return b;\n}}\n")
        return self._add(name, body)

    def int_min_max(self, op: str, t: ScalarType) -> str:
        """``T gpuoff_i<op>_T(T a, T b)``: OpenCL's integer ``min``/``max`` between volatile
        temporaries (see above)."""
        c = value_ctype(t)
        name = f"gpuoff_i{op}_{c}"
        body = (f"{c} {name}({c} a, {c} b)\n{{\n"
                f"    volatile {c} x = a;\n    volatile {c} y = b;\n"
                f"    volatile {c} r = {op}(({c})x, ({c})y);\n    return r;\n}}\n")  # fmt: skip
        return self._add(name, body)

    def min_max(self, op: str, t: ScalarType) -> str:
        """Float ``min``/``max`` as NumPy's ``minimum``/``maximum`` (``ir.nodes.MathCall``): a
        NaN operand gives NaN, of equal values (-0.0, 0.0) the second. OpenCL's fmin/fmax
        return the other operand for a NaN."""
        c = value_ctype(t)
        name = f"gpuoff_{op}_{c}"
        cmp = "<" if op == "min" else ">"
        body = (f"{c} {name}({c} a, {c} b)\n{{\n"
                f"    return (a {cmp} b || isnan(a)) ? a : b;\n}}\n")  # fmt: skip
        return self._add(name, body)

    # |x| from which tanh(x) rounds to +-1 in each type (1 - tanh(x) ~ 2 exp(-2x) is below
    # half an ulp of 1 from ln(2 ** (p + 1)) / 2 on, p the type's significand bits).
    _TANH_ONE = {"half": "(half)4.6f", "float": "9.02f", "double": "19.1"}

    def tanh(self, t: ScalarType) -> str:
        """``tanh`` that is exactly +-1 where the rounded result is: PoCL's libm gives
        0.99999994 for ``tanh(20.0f)`` (the interpreter, NumPy and Intel's runtime 1.0)."""
        c = value_ctype(t)
        name = f"gpuoff_tanh_{c}"
        one = self._TANH_ONE[c]
        body = (f"{c} {name}({c} x)\n{{\n"
                f"    return fabs(x) >= {one} ? copysign(({c})1, x) : tanh(x);\n}}\n")  # fmt: skip
        return self._add(name, body)

    def tgamma(self, t: ScalarType) -> str:
        """``tgamma`` whose underflow left of zero keeps the sign of gamma there (negative
        where ``floor(x)`` is odd), as C99 and the interpreter: PoCL's libm gives +0.0 for
        ``tgamma(-170.5f)``, whose value is -0.0 in f32."""
        c = value_ctype(t)
        name = f"gpuoff_tgamma_{c}"
        body = (f"{c} {name}({c} x)\n{{\n    {c} r = tgamma(x);\n"
                f"    if (r == ({c})0 && x < ({c})0)\n"
                f"        r = fmod(floor(x), ({c})2) != ({c})0 ? -({c})0 : ({c})0;\n"
                f"    return r;\n}}\n")  # fmt: skip
        return self._add(name, body)

    def sign(self, t: ScalarType) -> str:
        """NumPy's ``sign`` (``ir.nodes.MathCall``): OpenCL's float ``sign`` keeps ``-0.0`` and
        gives 0 for NaN, NumPy gives ``0.0`` and NaN."""
        c = value_ctype(t)
        name = f"gpuoff_sign_{c}"
        if t.is_float:
            ret = "x > 0 ? 1 : x < 0 ? -1 : isnan(x) ? x : 0"
        else:
            ret = "(x > 0) - (x < 0)"
        return self._add(name, f"{c} {name}({c} x)\n{{\n    return ({c})({ret});\n}}\n")

    def bit_function(self, op: str, t: ScalarType) -> str:
        """CUDA's ``__ffs`` (``int``, 0 for 0) and ``__brev`` (``t``) on the unsigned bits of a
        32- or 64-bit ``t``: OpenCL 1.2 has ``popcount`` and ``clz`` but neither of these."""
        c = value_ctype(t)
        u = "uint" if t.bits == 32 else "ulong"
        name = f"gpuoff_{op}_{c}"
        if op == "ffs":
            body = (f"int {name}({c} x)\n{{\n    {u} u = ({u})x;\n"
                    "    return u == 0 ? 0 : (int)popcount((u & (~u + 1)) - 1) + 1;\n}\n")
            return self._add(name, body)
        # brev: swap ever larger blocks (bits, pairs, nibbles, bytes, halves, words).
        steps = []
        masks = [0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F,
                 0x00FF00FF00FF00FF, 0x0000FFFF0000FFFF]  # fmt: skip
        for k, m in enumerate(masks):
            shift, mask = 1 << k, m & ((1 << t.bits) - 1)
            suffix = "UL" if t.bits == 64 else "U"
            steps.append(f"    u = ((u >> {shift}) & {mask:#x}{suffix}) | "
                         f"((u & {mask:#x}{suffix}) << {shift});\n")  # fmt: skip
        if t.bits == 64:
            steps.append("    u = (u >> 32) | (u << 32);\n")
        body = (f"{c} {name}({c} x)\n{{\n    {u} u = ({u})x;\n{''.join(steps)}"
                f"    return ({c})u;\n}}\n")
        return self._add(name, body)

    def atomic(self, op: str, t: ScalarType, space: str) -> str:
        """``T gpuoff_atomic_<op>_<T>_<space>(volatile space T* p, [T compare,] T v)``: the IR's
        ``AtomicRMW`` (``ir.nodes``); returns the old value. 32-bit integers use OpenCL 1.1's
        core atomics, 64-bit ones ``atom_*`` (``cl_khr_int64_base_atomics``: add, sub, xchg,
        cmpxchg; ``_extended_atomics``: min, max, and, or, xor); what OpenCL lacks (float
        add/sub/min/max, CUDA's wrapping inc/dec) is a compare-and-swap loop."""
        c = value_ctype(t)
        name = f"gpuoff_atomic_{op}_{c}_{space}"
        ptr = f"volatile __{space} {c}*"
        word, cas = ("uint", "atomic_cmpxchg") if t.bits == 32 else ("ulong", "atom_cmpxchg")
        prefix = "atomic_" if t.bits == 32 else "atom_"
        builtin = {"exch": "xchg"}.get(op, op)
        if op == "cas":
            if t.is_float:
                q = f"(volatile __{space} {word}*)p"
                ret = f"as_{c}({cas}({q}, as_{word}(cmp), as_{word}(v)))"
            else:
                ret = f"{cas}(p, cmp, v)"
            body = f"{c} {name}({ptr} p, {c} cmp, {c} v)\n{{\n    return {ret};\n}}\n"
        elif op == "exch" and t.is_float:
            q = f"(volatile __{space} {word}*)p"
            body = (f"{c} {name}({ptr} p, {c} v)\n{{\n"
                    f"    return as_{c}({prefix}xchg({q}, as_{word}(v)));\n}}\n")  # fmt: skip
        elif t.is_float or op in ("inc", "dec"):
            body = self._cas_loop(name, op, t, space)
        else:
            body = f"{c} {name}({ptr} p, {c} v)\n{{\n    return {prefix}{builtin}(p, v);\n}}\n"
        return self._add(name, body)

    @staticmethod
    def _cas_loop(name: str, op: str, t: ScalarType, space: str) -> str:
        # A compare-and-swap loop on the element's bits: float add/sub/min/max (OpenCL 1.2 has
        # no float atomics) and CUDA's wrapping inc/dec (OpenCL's atomic_inc has no limit).
        c = value_ctype(t)
        word, cas = ("uint", "atomic_cmpxchg") if t.bits == 32 else ("ulong", "atom_cmpxchg")
        old = f"as_{c}(expected)" if t.is_float else "expected"
        new = {
            "add": f"{old} + v", "sub": f"{old} - v", "min": f"fmin({old}, v)",
            "max": f"fmax({old}, v)", "inc": f"({old} >= v) ? ({c})0 : ({c})({old} + 1)",
            "dec": f"({old} == 0 || {old} > v) ? v : ({c})({old} - 1)",
        }[op]  # fmt: skip
        bits = f"as_{word}({new})" if t.is_float else f"({new})"
        return (
            f"{c} {name}(volatile __{space} {c}* p, {c} v)\n{{\n"
            f"    volatile __{space} {word}* q = (volatile __{space} {word}*)p;\n"
            f"    {word} expected;\n"
            f"    {word} seen = *q;\n"
            f"    do {{\n"
            f"        expected = seen;\n"
            f"        seen = {cas}(q, expected, {bits});\n"
            f"    }} while (seen != expected);\n"
            f"    return {old};\n}}\n"
        )
