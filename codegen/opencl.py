"""IR -> OpenCL C 1.2 source text.

``render_opencl(module)`` returns an ``OpenCLSource``: the program text, the kernel's name and
its flattened argument list. The text is meant to be read: the user's names, one statement
per line, each ending with a ``/* file.py:LINE */`` comment pointing at the Python source.

Kernel arguments, in order (``OpenCLSource.args`` describes each one):

* per kernel parameter, in declaration order:
  - array: ``__global T* restrict x`` (``const`` for ``Borrow``; ``restrict`` always, since the
    runtime's guards refuse any aliasing of a written argument), ``long x_offset`` (element
    offset of the view's first element: OpenCL 1.2 cannot pass an offset pointer), ``long
    x_shape0..`` and, for non-contiguous arrays only, ``long x_stride0..`` (in elements;
    contiguous strides are derived from the shape in the kernel);
  - scalar: by value (``bool`` travels as ``uchar x_arg``: OpenCL C forbids bool arguments);
* ``long gpuoff_grid0, gpuoff_grid1, gpuoff_grid2``: the launch grid. For kernels without
  barriers the runtime may round the global size up to a multiple of the work-group size;
  work-items at or past the grid return at once, so ids run over exactly ``range(grid[d])``
  and ``global_size(d)`` is the grid. Kernels with barriers are launched unrounded. Built with
  ``EXACT_GRID_OPTION``, the program leaves that test out: only for launches whose global size
  is the grid (there the test is dead, but PoCL still evaluates it per work-item: ~4% of a
  5-point stencil);
* ``longN gpuoff_meta``: the ``long`` arguments above (offsets, shapes, strides, grid) that the
  kernel uses, packed into one vector argument (``N`` = 2, 4, 8 or 16; more than 16 take
  ``gpuoff_meta0, gpuoff_meta1, ...``), unpacked into ``const long`` locals of the same names
  at the top of the kernel. A driver pays for every argument at every launch (PoCL allocates
  and copies each one per command: nine arguments cost it about a microsecond more per launch
  than four), and one vector is one argument. A single ``long`` stays as it is;
* ``__global long* gpuoff_err, long gpuoff_err_slot``: a buffer of error records and the index
  of this launch's record (``ERR_LEN = 1 + 2 * MAX_NDIM`` longs, zero before the launch):
  ``codegen.abi``'s record, then the failing array's shape. The first failed check wins (see
  ``Helpers.oob``). ``OpenCLSource.has_checks`` is False when no access is checked.

Semantics follow the docstrings of ``gpuoff.ir.nodes``; where C differs, helpers in
``codegen.opencl_helpers`` restore the IR's meaning (floor division, modulo, integer ``pow``,
masked shifts, saturating float -> int casts via ``convert_T_sat_rtz``, NumPy's float
min/max). Where C leaves something undefined that the IR defines, the C says it explicitly:
signed ``+ - *``, unary ``-`` and ``<<`` compute on the unsigned bits and convert back (C
compilers exploit signed overflow: ``(x + 1) > x`` would fold to true), and a ``range`` loop
counts its iterations in ``ulong`` (``k += step`` past the type's limit never ends).

Floating point without ``fastmath``: ``#pragma OPENCL FP_CONTRACT OFF`` (drivers fuse
``a*b - c*d`` into FMAs otherwise), and f32 division and ``sqrt`` correctly rounded: by the
``-cl-fp32-correctly-rounded-divide-sqrt`` build option where the device promises it, else
through double precision (correctly rounded in OpenCL; rounding the double result to float is
then exact, 53 >= 2 * 24 + 2), else (neither) as the device computes them (2.5 and 3 ulp).
"""

from __future__ import annotations

import dataclasses
import linecache
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass

from codegen import opencl_exprs
from codegen.opencl_abi import (
    ERR_ARG,
    ERR_LEN,
    ERR_SLOT_ARG,
    EXACT_GRID_OPTION,
    GRID_ARGS,
    META_ARG,
    META_KINDS,
    KernelArg,
    OpenCLSource,
    meta_args,
)
from codegen.opencl_exprs import simple
from codegen.opencl_helpers import Helpers, c_identifier, memory_ctype, value_ctype, zero_literal
from gpuoff.errors import CompileError, SourceLocation
from gpuoff.ir import nodes as n
from gpuoff.ir.fast_axis import permute_dims
from gpuoff.ir.types import AddressSpace, ArrayType, ScalarType
from gpuoff.ownership import Access

_VECTOR_LANES = "0123456789abcdef"  # component names of a long16: .s0 ... .sf
CORRECT_DIV_SQRT_OPTION = "-cl-fp32-correctly-rounded-divide-sqrt"


def render_opencl(
    module: n.Module, *, fp64: bool = True, fp16: bool = False, device_name: str = "this device",
    correct_div_sqrt: bool = False, int64_atomics: tuple[bool, bool] = (True, True),
    fast: int = 0,
) -> OpenCLSource:
    """Render ``module`` as OpenCL C 1.2.

    ``fast``: the work-item dimension to render as dimension 0 (``gpuoff.ir.fast_axis``: the
    one indexing the arrays' contiguous axis, so neighbouring work-items touch neighbouring
    addresses); the launch then exchanges it with dimension 0 in its geometry
    (``OpenCLSource.fast``), and bounds records keep the kernel's own work-item order.

    ``fp64`` / ``fp16``: whether the target device has ``cl_khr_fp64`` / ``cl_khr_fp16``;
    ``int64_atomics``: whether it has ``cl_khr_int64_base_atomics`` and
    ``cl_khr_int64_extended_atomics``. A kernel that needs a missing one is a ``CompileError``
    naming ``device_name``.
    ``correct_div_sqrt``: whether the device sets ``CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT`` (then
    the build option gives exact f32 division and sqrt; else they go through f64 if it exists).
    With both int64 atomics extensions a bounds error reports the earliest failure
    (``gpuoff.ir.bounds.failure_order``); without, the first recorded.
    """
    used = _scalar_types(module)
    uses_fp64 = any(t.name == "f64" for t in used)
    uses_fp16 = any(t.name == "f16" for t in used)
    where = f"kernel {module.name!r} ({os.path.basename(module.kernel.filename)})"
    if uses_fp64 and not fp64:
        raise CompileError(f"{where} uses f64, but OpenCL device {device_name!r} has no "
                           "cl_khr_fp64 (double precision) support")  # fmt: skip
    if uses_fp16 and not fp16:
        raise CompileError(f"{where} uses f16, but OpenCL device {device_name!r} has no "
                           "cl_khr_fp16 (half precision) support")  # fmt: skip
    _check_int64_atomics(module, *int64_atomics, device_name)
    module = permute_dims(module, fast)
    helpers = Helpers(all(int64_atomics), fast)
    hidden = _hidden_params(module)
    fn_names = _function_names(module)
    if module.fastmath:
        exact_f32 = "fast"
    elif correct_div_sqrt or not _f32_div_sqrt(module):
        exact_f32 = "native"
    else:
        exact_f32 = "double" if fp64 else "device"
    writers = [
        _FunctionWriter(module, f, helpers, hidden, fn_names, exact_f32)
        for f in (*module.functions, module.kernel)
    ]
    bodies = [w.render() for w in writers]
    args = writers[-1].kernel_args()  # after render: only the arguments the kernel uses
    head = [f"/* OpenCL C generated by gpuoff from {os.path.basename(module.kernel.filename)}: "
            f"kernel {module.name} */"]  # fmt: skip
    if not module.fastmath:
        head.append("#pragma OPENCL FP_CONTRACT OFF")  # + - * / as written: no FMA fusion
    if uses_fp64 or exact_f32 == "double":
        head.append("#pragma OPENCL EXTENSION cl_khr_fp64 : enable")
    if uses_fp16:
        head.append("#pragma OPENCL EXTENSION cl_khr_fp16 : enable")
    if _uses_int64_atomics(module) or (all(int64_atomics) and helpers.records_errors()):
        head.append("#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable")
        head.append("#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable")
    parts = ["\n".join(head) + "\n"]
    if helpers.text():
        parts.append(helpers.text())
    parts.extend(bodies)
    if module.fastmath:
        options: tuple[str, ...] = ("-cl-fast-relaxed-math",)
    else:
        options = (CORRECT_DIV_SQRT_OPTION,) if correct_div_sqrt else ()
    return OpenCLSource(
        text="\n".join(parts),
        kernel_name=fn_names[module.kernel.name],
        args=args,
        uses_fp64=uses_fp64,
        uses_fp16=uses_fp16,
        uses_barrier=any(isinstance(x, n.Barrier) for x in _walk(module)),
        has_checks=any(h.err for h in hidden.values()),
        build_options=options,
        fast=fast,
    )


# --------------------------------------------------------------------------------------------
# Whole-module analyses
# --------------------------------------------------------------------------------------------


def _walk(obj: object) -> Iterator[object]:
    """Every IR node (and nested type) reachable from ``obj``, depth first."""
    if isinstance(obj, tuple):
        for item in obj:
            yield from _walk(item)
        return
    if isinstance(obj, n.Module):
        yield from _walk((obj.kernel, *obj.functions))
        return
    if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
        return
    yield obj
    for f in dataclasses.fields(obj):
        if f.name != "loc":
            yield from _walk(getattr(obj, f.name))


def _scalar_types(module: n.Module) -> set[ScalarType]:
    found: set[ScalarType] = set()
    for fn in (module.kernel, *module.functions):
        found.update(fn.locals.values())
    for x in _walk(module):
        if isinstance(x, ScalarType):
            found.add(x)
        elif isinstance(x, ArrayType):
            found.add(x.dtype)
    return found


def _f32_div_sqrt(module: n.Module) -> bool:
    """Whether ``module`` divides or takes a square root in f32."""
    for x in _walk(module):
        if isinstance(x, n.Binary) and x.op == "truediv" and x.type.name == "f32":
            return True
        if isinstance(x, n.MathCall) and x.name == "sqrt" and x.type.name == "f32":
            return True
    return False


def _uses_int64_atomics(module: n.Module) -> bool:
    return any(isinstance(x, n.AtomicRMW) and x.type.bits == 64 for x in _walk(module))


_INT64_EXTENDED = frozenset({"min", "max", "and", "or", "xor"})
"""64-bit atomics that need ``cl_khr_int64_extended_atomics`` (on integers; float min/max are
compare-and-swap loops, which need only the base extension)."""


def _check_int64_atomics(module: n.Module, base: bool, extended: bool, device: str) -> None:
    """A 64-bit atomic the device cannot do is a ``CompileError`` at its line."""
    for fn in (module.kernel, *module.functions):
        for x in _walk(fn.body):
            if not (isinstance(x, n.AtomicRMW) and x.type.bits == 64):
                continue
            needs_ext = x.op in _INT64_EXTENDED and x.type.is_int
            if base and (extended or not needs_ext):
                continue
            ext = "cl_khr_int64_extended_atomics" if base else "cl_khr_int64_base_atomics"
            where = None
            if x.loc is not None:
                text = linecache.getline(fn.filename, x.loc.line)
                where = SourceLocation(fn.filename, x.loc.line, x.loc.col, text, x.loc.end_col)
            raise CompileError(f"go.atomic_{x.op} on {x.type} needs 64-bit atomics, but "
                               f"OpenCL device {device!r} has no {ext}", where)  # fmt: skip


@dataclass(frozen=True)
class Hidden:
    """Hidden trailing parameters a device function needs (transitively through its callees)."""

    err: bool
    grid: bool


def _hidden_params(module: n.Module) -> dict[str, Hidden]:
    """Which functions need the error record (a checked access) or the grid (``global_size``)."""
    direct: dict[str, tuple[bool, bool, set[str]]] = {}
    for fn in (*module.functions, module.kernel):
        err = grid = False
        callees: set[str] = set()
        for x in _walk(fn.body):
            if isinstance(x, n.Load | n.Store | n.AtomicRMW) and x.check is not None:
                err = True
            elif isinstance(x, n.WorkItem) and x.name == "global_size":
                grid = True
            elif isinstance(x, n.Call):
                callees.add(x.callee)
        direct[fn.name] = (err, grid, callees)
    out: dict[str, Hidden] = {}
    # Callees come before callers in Module.functions, so one pass in order suffices.
    for fn in (*module.functions, module.kernel):
        err, grid, callees = direct[fn.name]
        for c in callees:
            if c in out:
                err = err or out[c].err
                grid = grid or out[c].grid
        out[fn.name] = Hidden(err, grid)
    return out


def _function_names(module: n.Module) -> dict[str, str]:
    taken: set[str] = set()
    out: dict[str, str] = {}
    for fn in (*module.functions, module.kernel):
        out[fn.name] = c_identifier(fn.name, taken)
        taken.add(out[fn.name])
    return out


# --------------------------------------------------------------------------------------------
# One function
# --------------------------------------------------------------------------------------------


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _declared(decl: str) -> str:
    """The name a C parameter declaration declares: its last identifier."""
    name: str = _IDENT.findall(decl)[-1]
    return name


class _FunctionWriter:
    """Renders one kernel or device function; holds its name map and output lines (the
    ``opencl_abi.FunctionContext`` its expression writer renders into)."""

    def __init__(
        self,
        module: n.Module,
        fn: n.Function,
        helpers: Helpers,
        hidden: dict[str, Hidden],
        fn_names: dict[str, str],
        exact_f32: str = "native",
    ) -> None:
        self.module = module
        # f32 division and sqrt: "native" (the device rounds them correctly), "double"
        # (through f64), "device" (neither is possible) or "fast" (fastmath)
        self.exact_f32 = exact_f32
        self.fn = fn
        self.helpers = helpers
        self.hidden = hidden
        self.fn_names = fn_names
        self.file = os.path.basename(fn.filename)
        self.used: set[str] | None = None  # a rendered kernel: the names its code uses
        self.meta: list[KernelArg] = []  # ... and its packed ``long`` arguments
        taken = set(fn_names.values())
        self.names: dict[str, str] = {}
        self.arrays: dict[str, ArrayType] = {}
        for p in fn.params:
            self.names[p.name] = c_identifier(p.name, taken)
            taken.add(self.names[p.name])
            if isinstance(p.type, ArrayType):
                self.arrays[p.name] = p.type
        owned: list[n.SharedArray | n.PrivateArray] = [*fn.shared, *fn.private]
        for s in owned:
            self.names[s.name] = c_identifier(s.name, taken)
            taken.add(self.names[s.name])
            self.arrays[s.name] = s.type
        for name in fn.locals:
            if name not in self.names:
                self.names[name] = c_identifier(name, taken)
                taken.add(self.names[name])
        self.temps: list[tuple[str, str]] = []  # (C type, name) declared at function top
        self.lines: list[str] = []
        self.depth = 1
        self.exprs = opencl_exprs.ExprWriter(self)

    # -- names shared with the expression writer ----------------------------------------------

    def new_temp(self, ctype: str) -> str:
        """A fresh function-scope temporary of ``ctype`` (declared at the top)."""
        name = f"gpuoff_t{len(self.temps)}"
        self.temps.append((ctype, name))
        return name

    def shape(self, array: str, dim: int) -> str:
        return f"{self.names[array]}_shape{dim}"

    def stride(self, array: str, dim: int) -> str:
        return f"{self.names[array]}_stride{dim}"

    # -- signature ----------------------------------------------------------------------------

    def _array_decl(self, p_name: str, t: ArrayType) -> list[str]:
        c = self.names[p_name]
        space = {AddressSpace.SHARED: "__local", AddressSpace.PRIVATE: "__private"}.get(
            t.space, "__global")
        const = "const " if t.access is Access.BORROW and t.space is AddressSpace.GLOBAL else ""
        restrict = " restrict" if self.fn.is_kernel else ""
        out = [f"{space} {const}{memory_ctype(t.dtype)}*{restrict} {c}"]
        if self.fn.is_kernel:
            out.append(f"long {c}_offset")
        out += [f"long {c}_shape{d}" for d in range(t.ndim)]
        if not t.contiguous:
            out += [f"long {c}_stride{d}" for d in range(t.ndim)]
        return out

    def _param_decls(self) -> list[str]:
        """One line per parameter (an array's pointer, offset, shape and strides together)."""
        out: list[str] = []
        for p in self.fn.params:
            if isinstance(p.type, ArrayType):
                out.append(", ".join(self._array_decl(p.name, p.type)))
            elif p.type.is_bool and self.fn.is_kernel:
                out.append(f"uchar {self.names[p.name]}_arg")
            else:
                out.append(f"{value_ctype(p.type)} {self.names[p.name]}")
        hidden = self.hidden[self.fn.name]
        if self.fn.is_kernel or hidden.grid:
            out.append(", ".join(f"long {g}" for g in GRID_ARGS))
        if self.fn.is_kernel:
            out.append(f"__global long* {ERR_ARG}, long {ERR_SLOT_ARG}")
        elif hidden.err:
            out.append(f"__global long* {ERR_ARG}")
        if self.used is not None:  # a kernel: only the declarations of used names
            meta = self.meta
            packed = {p.name for a in meta for p in a.parts}
            kept = (", ".join(d for d in line.split(", ")
                              if _declared(d) in self.used and _declared(d) not in packed)
                    for line in out)  # fmt: skip
            out = [line for line in kept if line]
            if meta:
                at = len(out) - (1 if ERR_ARG in self.used else 0)
                out.insert(at, ", ".join(f"{a.ctype} {a.name}" for a in meta))
        return out

    def _unpack_meta(self) -> list[str]:
        """The kernel's first lines: the packed ``long`` arguments as locals of their names."""
        lines: list[str] = []
        for a in self.meta:
            lines += [f"    const long {p.name} = {a.name}.s{_VECTOR_LANES[i]};"
                      for i, p in enumerate(a.parts)]  # fmt: skip
        if lines:
            lines[0] += "  /* offsets, shapes, grid: one argument */"
        return lines

    def kernel_args(self) -> tuple[KernelArg, ...]:
        """The kernel's flattened argument list (see the module docstring)."""
        out: list[KernelArg] = []
        for i, p in enumerate(self.fn.params):
            c = self.names[p.name]
            if isinstance(p.type, ArrayType):
                out.append(KernelArg("buffer", c, i))
                out.append(KernelArg("offset", f"{c}_offset", i))
                out += [KernelArg("shape", f"{c}_shape{d}", i, d) for d in range(p.type.ndim)]
                if not p.type.contiguous:
                    out += [KernelArg("stride", f"{c}_stride{d}", i, d)
                            for d in range(p.type.ndim)]  # fmt: skip
            else:
                name = f"{c}_arg" if p.type.is_bool else c
                out.append(KernelArg("scalar", name, i, 0, memory_ctype(p.type)))
        out += [KernelArg("grid", g, -1, d) for d, g in enumerate(GRID_ARGS)]
        out.append(KernelArg("err", ERR_ARG))
        out.append(KernelArg("err_slot", ERR_SLOT_ARG))
        used = self.used
        kept = [a for a in out if used is None or a.name in used]
        longs = tuple(a for a in kept if a.kind in META_KINDS)
        if len(longs) < 2:
            return tuple(kept)
        err = [a for a in kept if a.kind in ("err", "err_slot")]
        rest = [a for a in kept if a.kind not in META_KINDS and a not in err]
        return (*rest, *meta_args(longs), *err)

    def call_args(self, callee: str, args: tuple[n.Expr | n.ArrayRef, ...]) -> list[str]:
        """The C arguments of a call to device function ``callee``."""
        target = self.module.function(callee)
        out: list[str] = []
        for a in args:
            if isinstance(a, n.ArrayRef):
                out.append(self.names[a.name])
                out += [self.shape(a.name, d) for d in range(a.type.ndim)]
                if not a.type.contiguous:
                    out += [self.stride(a.name, d) for d in range(a.type.ndim)]
            else:
                out.append(self.exprs.top(a))
        hidden = self.hidden[target.name]
        if hidden.grid:
            out += list(GRID_ARGS)
        if hidden.err:
            out.append(ERR_ARG)
        return out

    # -- body -----------------------------------------------------------------------------------

    def render(self) -> str:
        """The complete C function. A kernel declares only the arguments its prologue and
        body name (``kernel_args`` lists the same): each argument costs the driver time at
        every launch, and one without checks needs no error record."""
        self._body(self.fn.body)
        body_lines = self.lines
        self.lines = []
        self._prologue()
        prologue = self.lines
        if self.fn.is_kernel:
            self.used = set(_IDENT.findall("\n".join([*prologue, *body_lines])))
            self.meta = [a for a in self.kernel_args() if a.kind == "meta"]
        if self.fn.is_kernel:
            head = f"__kernel void {self.fn_names[self.fn.name]}("
        else:
            ret = "void" if self.fn.return_type is None else value_ctype(self.fn.return_type)
            head = f"{ret} {self.fn_names[self.fn.name]}("
        decls = self._param_decls()
        sig = head + (",\n    ".join(["", *decls])[1:] if decls else "void") + ")"
        where = f"/* {self.file}:{self.fn.firstlineno}: {'kernel' if self.fn.is_kernel else 'device function'} {self.fn.name} */"  # noqa: E501
        if self.fn.is_kernel:
            prologue = [*self._unpack_meta(), *prologue]
        return "\n".join([where, sig, "{", *prologue, *body_lines, "}", ""])

    def _prologue(self) -> None:
        fn = self.fn
        if fn.is_kernel:
            # __local arrays first: OpenCL C wants them at kernel scope, before any statement.
            for s in fn.shared:
                c = self.names[s.name]
                shape = s.type.static_shape or (1,)
                size = 1
                for e in shape:
                    size *= e
                self.emit(f"__local {memory_ctype(s.type.dtype)} {c}[{max(size, 1)}];")
                for d, e in enumerate(shape):
                    self.emit(f"const long {c}_shape{d} = {e};")
            if not any(isinstance(x, n.Barrier) for x in _walk(self.module)):
                # The global size may be rounded up to whole work-groups: ids past the grid
                # do nothing. (Kernels with barriers are never rounded, and must not return
                # early: a barrier some work-items skip hangs the group.) One branch, on `|`:
                # after `||`'s three, Intel's CPU runtime miscompiles a bitwise not of a max
                # or min however it is spelt (`-1 - (a if a > b else b)`; see
                # opencl_helpers.Helpers.invert).
                self.lines.append("#ifndef " + EXACT_GRID_OPTION.removeprefix("-D"))
                self.emit(f"if ((get_global_id(0) >= (size_t){GRID_ARGS[0]}) |")
                self.emit(f"    (get_global_id(1) >= (size_t){GRID_ARGS[1]}) |")
                self.emit(f"    (get_global_id(2) >= (size_t){GRID_ARGS[2]})) return;")
                self.lines.append("#endif")
            if self.hidden[fn.name].err:
                self.emit(f"{ERR_ARG} += {ERR_SLOT_ARG} * {ERR_LEN};  /* this launch's record */")
        for pa in fn.private:
            # (no initialiser: the front end stores every element before reading it)
            c = self.names[pa.name]
            shape = pa.type.static_shape or (1,)
            size = 1
            for e in shape:
                size *= e
            self.emit(f"{memory_ctype(pa.type.dtype)} {c}[{size}];")
            for d, e in enumerate(shape):
                self.emit(f"const long {c}_shape{d} = {e};")
        for p in fn.params:
            c = self.names[p.name]
            if isinstance(p.type, ArrayType) and fn.is_kernel:
                self.emit(f"{c} += {c}_offset;")
            if not isinstance(p.type, ArrayType) and p.type.is_bool and fn.is_kernel:
                self.emit(f"const bool {c} = {c}_arg != 0;")
        for name, t in self.arrays.items():
            if t.contiguous:
                for d in range(t.ndim - 2, -1, -1):
                    expr = self.shape(name, d + 1)
                    if d < t.ndim - 2:
                        expr += f" * {self.stride(name, d + 1)}"
                    self.emit(f"const long {self.stride(name, d)} = {expr};")
        for name, lt in self.fn.locals.items():
            self.emit(f"{value_ctype(lt)} {self.names[name]} = {zero_literal(lt)};")
        for ctype, name in self.temps:
            self.emit(f"{ctype} {name};")

    def emit(self, line: str, loc: n.Loc | None = None) -> None:
        """Append ``line`` at the current depth, with a pointer to the Python source."""
        comment = f"  /* {self.file}:{loc.line} */" if loc is not None else ""
        self.lines.append("    " * self.depth + line + comment)

    def _block(self, stmts: tuple[n.Stmt, ...]) -> None:
        self.depth += 1
        self._body(stmts)
        self.depth -= 1

    def _body(self, stmts: tuple[n.Stmt, ...]) -> None:
        for s in stmts:
            self._stmt(s)

    def _stmt(self, s: n.Stmt) -> None:
        e = self.exprs
        if isinstance(s, n.Assign):
            self.emit(f"{self.names[s.target]} = {e.top(s.value)};", s.loc)
        elif isinstance(s, n.Store):
            e.store(s)
        elif isinstance(s, n.If):
            self._if(s)
        elif isinstance(s, n.ForRange):
            self._for(s)
        elif isinstance(s, n.While):
            self.emit(f"while ({e.top(s.cond)}) {{", s.loc)
            self._block(s.body)
            self.emit("}")
        elif isinstance(s, n.Break):
            self.emit("break;", s.loc)
        elif isinstance(s, n.Continue):
            self.emit("continue;", s.loc)
        elif isinstance(s, n.Return):
            value = "" if s.value is None else " " + e.top(s.value)
            self.emit(f"return{value};", s.loc)
        elif isinstance(s, n.ExprStmt):
            text = e.top(s.expr)
            if not isinstance(s.expr, n.Call):
                text = f"(void)({text})"  # an atomic whose old value is dropped
            self.emit(f"{text};", s.loc)
        elif isinstance(s, n.Barrier):
            self.emit("barrier(CLK_LOCAL_MEM_FENCE);", s.loc)
        else:
            raise CompileError(f"the OpenCL backend cannot render {type(s).__name__}")

    def _if(self, s: n.If) -> None:
        self.emit(f"if ({self.exprs.top(s.cond)}) {{", s.loc)
        self._block(s.body)
        orelse = s.orelse
        while len(orelse) == 1 and isinstance(orelse[0], n.If):
            inner = orelse[0]
            self.emit(f"}} else if ({self.exprs.top(inner.cond)}) {{", inner.loc)
            self._block(inner.body)
            orelse = inner.orelse
        if orelse:
            self.emit("} else {")
            self._block(orelse)
        self.emit("}")

    def _for(self, s: n.ForRange) -> None:
        # start/stop/step are evaluated once, in order; the loop counts its iterations in
        # ulong (exact, like the IR's ``range``: stepping a counter of the variable's type
        # would overflow near the type's limit, range(2147483640, 2147483647, 5) would not
        # end), and the variable is start + k * step computed on unsigned bits, assigned at
        # the top of each iteration, so assigning it in the body does not change the
        # iteration and it keeps its last value after the loop (Python's rule).
        e = self.exprs
        lt = self.fn.locals[s.var]
        var = self.names[s.var]
        t = value_ctype(lt)
        u = f"u{t}" if lt.is_signed else t
        count = self.new_temp("ulong")
        k = self.new_temp("ulong")
        bounds: list[str] = []
        for part in (s.start, s.stop, s.step):
            if e.pure(part) and simple(part):
                bounds.append(e.sub(part))
                continue
            tmp = self.new_temp(t)
            self.emit(f"{tmp} = {e.top(part)};", s.loc)
            bounds.append(tmp)
        start, stop, step = bounds

        def wide(x: str) -> str:
            # the exact value as ulong bits (differences of two of them wrap to the truth)
            return f"(ulong)(long){x}" if lt.is_signed else f"(ulong){x}"

        step_c = s.step.value if isinstance(s.step, n.Const) else None
        up = f"({wide(stop)} - {wide(start)} - 1) / {wide(step)} + 1"
        down = f"({wide(start)} - {wide(stop)} - 1) / (0 - {wide(step)}) + 1"
        if step_c == 1:
            n_iter = f"{start} < {stop} ? {wide(stop)} - {wide(start)} : 0"
        elif step_c is not None and int(step_c) > 0:
            n_iter = f"{start} < {stop} ? {up} : 0"
        elif step_c is not None and int(step_c) < 0:
            n_iter = f"{start} > {stop} ? {down} : 0"
        elif step_c is not None:
            n_iter = "0"
        else:
            n_iter = (f"({step} > 0) ? ({start} < {stop} ? {up} : 0) : "
                      f"({step} < 0 && {start} > {stop}) ? {down} : 0")  # fmt: skip
        self.emit(f"{count} = {n_iter};", s.loc)
        self.emit(f"for ({k} = 0; {k} < {count}; {k}++) {{", s.loc)
        self.depth += 1
        if step_c == 1:
            self.emit(f"{var} = ({t})(({u}){start} + ({u}){k});")
        else:
            self.emit(f"{var} = ({t})(({u}){start} + ({u}){k} * ({u}){step});")
        self.depth -= 1
        self._block(s.body)
        self.emit("}")


__all__ = [
    "ERR_ARG", "ERR_LEN", "ERR_SLOT_ARG", "EXACT_GRID_OPTION", "GRID_ARGS", "META_ARG",
    "KernelArg", "OpenCLSource", "render_opencl",
]  # fmt: skip
