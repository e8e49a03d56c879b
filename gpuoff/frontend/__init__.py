"""Python source -> typed IR.

Public entry points (used by the runtime and the CLI):

``parse_signature(pyfunc) -> tuple[ParamDecl, ...]``
    Reads the kernel's annotations once (cheap; no IR). Each ``ParamDecl`` has ``name``,
    ``dtype`` (an ``ir.types.ScalarType``), ``access`` (``ownership.Access`` for arrays,
    ``None`` for scalars) and ``is_array``. A bad annotation (an array without an ownership
    wrapper, an unknown type) raises ``LaunchTypeError`` naming the parameter.

``lower_kernel(pyfunc, arg_types, *, boundscheck=True, fastmath=False) -> ir.Module``
    Traces the kernel's source into a verified ``ir.Module`` specialised for ``arg_types``
    (one ``ScalarType`` or ``ArrayType`` per parameter; array types carry ndim, contiguity and
    the declared access). Any construct outside the kernel subset raises ``CompileError``
    pointing at the user's file, line and column.

Modules: ``source`` (source capture, line map), ``signature`` (annotations), ``typing_rules``
(promotion, one function per operation), ``resolve`` (globals, closures, builtins),
``exprs``/``calls``/``stmts`` (the dispatch tables), ``function`` (type fixpoint per
function), ``lower`` (the module: device functions, bounds checks).

Kernel-language notes: ``math.floor``/``math.ceil`` return floats in kernels (as C's do);
``~`` on a bool is logical not (NumPy); arithmetic on bools computes in i64; Python number
literals and captured Python numbers are "weak" (NEP 50), so ``x[i] * 2.0`` keeps f32.
"""

from gpuoff.frontend.lower import lower_kernel
from gpuoff.frontend.signature import ParamDecl, parse_signature

__all__ = ["ParamDecl", "lower_kernel", "parse_signature"]
