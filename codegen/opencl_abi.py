"""What the OpenCL renderer's modules share: the kernel ABI (names, argument descriptions;
``codegen.opencl``'s docstring describes the arguments) and ``FunctionContext``.

``codegen.opencl`` (the kernel ABI, in its docstring, and the statement writer) imports the
expression writer ``codegen.opencl_exprs``; the expression writer sees the function it renders
into only through ``FunctionContext``, so imports run one way::

    opencl_helpers, opencl_abi  <-  opencl_exprs  <-  opencl
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from codegen.opencl_helpers import ERR_ITEM, ERR_KEY, ERR_LEN, ERR_LOCK, Helpers
from gpuoff.ir import nodes as n

GRID_ARGS = ("gpuoff_grid0", "gpuoff_grid1", "gpuoff_grid2")
META_ARG = "gpuoff_meta"
ERR_ARG = "gpuoff_err"
ERR_SLOT_ARG = "gpuoff_err_slot"

EXACT_GRID_OPTION = "-DGPUOFF_EXACT_GRID"
"""Build option for launches whose global size equals the grid: no test of ids past it."""
META_KINDS = ("offset", "shape", "stride", "grid")
"""The kinds of ``long`` arguments packed into the meta vector(s)."""


@dataclass(frozen=True)
class KernelArg:
    """One OpenCL kernel argument.

    ``kind``: ``"buffer"`` (a ``cl.Buffer``), ``"offset"`` / ``"shape"`` / ``"stride"`` (a
    ``long``: element offset, extent or stride ``dim`` of array parameter ``param``),
    ``"scalar"`` (parameter ``param`` by value, as ``ctype``), ``"grid"`` (grid extent ``dim``),
    ``"meta"`` (a ``ctype`` vector of ``long``: the values of ``parts``, in order, zero-padded),
    ``"err"`` (the error-record buffer) or ``"err_slot"``. ``param`` is the kernel parameter's
    index, or -1.
    """

    kind: str
    name: str
    param: int = -1
    dim: int = 0
    ctype: str = "long"
    parts: tuple[KernelArg, ...] = ()


@dataclass(frozen=True)
class OpenCLSource:
    """A rendered program: its text, the kernel's C name and its argument list."""

    text: str
    kernel_name: str
    args: tuple[KernelArg, ...]
    uses_fp64: bool = False
    uses_fp16: bool = False
    uses_barrier: bool = False
    has_checks: bool = False
    build_options: tuple[str, ...] = ()
    fast: int = 0
    """The kernel's dimension rendered as dimension 0 (``render_opencl``'s ``fast``): the
    runtime exchanges it with dimension 0 in the launch's grid and block."""


def meta_args(longs: tuple[KernelArg, ...]) -> list[KernelArg]:
    """``longs`` packed into ``long2``/``long4``/``long8``/``long16`` arguments, 16 per vector."""
    chunks = [longs[i : i + 16] for i in range(0, len(longs), 16)]
    out: list[KernelArg] = []
    for k, chunk in enumerate(chunks):
        lanes = next(w for w in (2, 4, 8, 16) if w >= len(chunk))
        name = META_ARG if len(chunks) == 1 else f"{META_ARG}{k}"
        out.append(KernelArg("meta", name, -1, 0, f"long{lanes}", chunk))
    return out


class FunctionContext(Protocol):
    """The function an ``ExprWriter`` renders into (``codegen.opencl._FunctionWriter``): its
    C names, its helpers, its temporaries and its output lines."""

    names: dict[str, str]
    """IR name -> C name of every parameter, shared array and local."""
    fn_names: dict[str, str]
    """IR name -> C name of every function of the module."""
    helpers: Helpers
    exact_f32: str
    """How f32 division and sqrt are made correctly rounded: ``"native"`` (the device does it),
    ``"double"`` (through f64), ``"device"`` (impossible here) or ``"fast"`` (fastmath)."""
    depth: int
    """Indentation of the next ``emit``ted line (statements nest by changing it)."""

    def shape(self, array: str, dim: int) -> str:
        """The C name of extent ``dim`` of ``array``."""

    def stride(self, array: str, dim: int) -> str:
        """The C name of stride ``dim`` of ``array`` (in elements)."""

    def new_temp(self, ctype: str) -> str:
        """A fresh function-scope temporary of ``ctype`` (declared at the top)."""

    def call_args(self, callee: str, args: tuple[n.Expr | n.ArrayRef, ...]) -> list[str]:
        """The C arguments of a call to device function ``callee``."""

    def emit(self, line: str, loc: n.Loc | None = None) -> None:
        """Append ``line`` at the current depth, with a pointer to the Python source."""


__all__ = [
    "ERR_ARG", "ERR_ITEM", "ERR_KEY", "ERR_LEN", "ERR_LOCK", "ERR_SLOT_ARG",
    "EXACT_GRID_OPTION", "GRID_ARGS", "META_ARG", "META_KINDS", "FunctionContext", "KernelArg",
    "OpenCLSource", "meta_args",
]  # fmt: skip
