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
"""
