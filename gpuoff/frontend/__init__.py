"""Python source -> typed IR.

Public entry points (used by the runtime and the CLI):

``parse_signature(pyfunc) -> tuple[ParamDecl, ...]``
    Reads the kernel's annotations once (cheap; no IR). Each ``ParamDecl`` has ``name``,
    ``dtype`` (an ``ir.types.ScalarType``), ``access`` (``ownership.Access`` for arrays,
    ``None`` for scalars) and ``is_array``. A bad annotation (an array without an ownership
    wrapper, an unknown type) raises ``LaunchTypeError`` naming the parameter.

``lower_specialised(pyfunc, arg_types, binding, consts, *, boundscheck, fastmath)``
    ``lower_kernel`` for one specialisation of a generic kernel (``generic``): the dtype of
    each dtype variable, the value of each ``go.Const`` parameter (not in ``arg_types``).

``lower_kernel(pyfunc, arg_types, *, boundscheck=True, fastmath=False) -> ir.Module``
    Traces the kernel's source into a verified ``ir.Module`` specialised for ``arg_types``
    (one ``ScalarType`` or ``ArrayType`` per parameter; array types carry ndim, contiguity and
    the declared access). Any construct outside the kernel subset raises ``CompileError``
    pointing at the user's file, line and column.

Modules, in import order: ``source`` (source capture, line map), ``signature`` (annotations),
``typing_rules`` (promotion, one function per operation), ``resolve`` (globals, closures,
builtins), ``base`` (the walker ``Lowerer``: per-pass state, shared helpers, dispatch, and the
``ModuleContext`` protocol it lowers in), ``exprs`` -> ``calls`` -> ``stmts`` (one handler per
construct, each module with its ``TABLE``), ``function`` (binds the tables; the type fixpoint
per function), ``lower`` (the module: device functions, bounds checks).

Adding a construct: a handler ``(lw, node)`` in ``exprs``/``calls``/``stmts`` and one line in
that module's ``TABLE``; its typing rule in ``typing_rules``; a name for the error in
``diagnostics.CONSTRUCT_NAMES`` only while it is refused.

Kernel-language notes (where SPEC.md is silent):

* Typing follows NumPy 2 / NEP 50 (rules R1-R11 in ``typing_rules``): Python number literals,
  captured Python numbers and the results of device functions that return only literals are
  "weak", so ``x[i] * 2.0`` keeps f32 and ``i + 1`` keeps i32; a literal that does not fit the
  other operand's integer type is an error in arithmetic and exact in comparisons. One rule
  for weak values, literal or not: a comparison of an integer with a weak integer that may not
  fit it (a Python-int local, ``v = 300; x[i] < v``) compares exactly too (in i64).
* A local's type is the join of everything assigned to it; a bool joined with a number is an
  error; ``v: go.f32 = 0`` fixes a local's type. A local read where no path has assigned it
  is an error.
* ``math.floor``/``math.ceil`` return floats in kernels (as C's do); ``~`` on a bool is
  logical not (NumPy); arithmetic whose common type is bool computes in i64 (Python);
  integer ``**`` with a negative constant exponent is an error.
* A constant negative index counts from the end (``x[-1]``, as in NumPy); a negative index
  computed at run time is out of range (a ``BoundsError`` when checked), not wrapped.
* Device functions take keyword arguments and defaults; their return type is the annotation
  or, without one, the join of their ``return`` values. They cannot use ``go.shared`` or
  ``go.barrier`` (the IR forbids both outside kernels).
* ``go.barrier()`` under an ``if``/loop whose condition depends on ``global_id``/``local_id``
  or an atomic's result (through data or through control flow: a variable assigned under such
  a condition), and a ``return``/``break``/``continue`` under such a condition that skips a
  barrier other work-items still reach, are rejected (``frontend.barriers``). Such a condition
  that depends only on memory the work-items write is checked when the kernel runs
  (``BarrierError``).
"""

from gpuoff.frontend.lower import lower_kernel, lower_specialised
from gpuoff.frontend.signature import ParamDecl, parse_signature

__all__ = ["ParamDecl", "lower_kernel", "lower_specialised", "parse_signature"]
