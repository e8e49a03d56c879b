"""The compile pipeline: the named passes a kernel's IR goes through before code generation.

The front end (``gpuoff.frontend.lower_kernel``) makes the module; that step is called
``lower``. Then each pass of ``PASSES`` runs in order, each a function ``Module -> Module``
(a check returns its input or raises ``CompileError`` at the user's line), and the verifier
runs after every pass that asks for it, so a broken pass is caught where it broke. The runtime
(``Kernel``, on a first launch) and ``gpuoff show`` run this same list, so what ``show`` prints
is what runs; ``GPUOFF_DEBUG=4`` prints the IR after each pass and ``gpuoff show --target ir
--after NAME`` stops after one.

Adding a pass is one line in ``PASSES``: ``Pass("name", function)``. Code generation
(``codegen``), the launch-time variant without launch-proven checks
(``launch_checks.specialise``, made per specialisation by the runtime and cached with it) and
the race proof (``races.analyse``: the module it gets is this pipeline's output, but the proof
is made per launch shape, since which ids vary and the block are part of it; the runtime makes
it at the first launch of each shape and caches it with the module) come after the pipeline
and are not in it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gpuoff.errors import GpuoffError
from gpuoff.ir.bounds import eliminate_redundant_checks
from gpuoff.ir.nodes import Module
from gpuoff.ir.verify import IRVerifyError, verify


@dataclass(frozen=True)
class Pass:
    """One step of the pipeline: its name (for ``--after`` and the debug dump), the function,
    and whether the verifier checks its output."""

    name: str
    run: Callable[[Module], Module]
    verify: bool = True


LOWER = "lower"
"""The name of the first step: the front end's module, before any pass."""

PASSES: tuple[Pass, ...] = (
    Pass("eliminate-checks", eliminate_redundant_checks),
)
"""The passes after ``lower``, in order."""


class UnknownPassError(GpuoffError, ValueError):
    """A pass name that is not in the pipeline."""


def pass_names(passes: tuple[Pass, ...] = PASSES) -> tuple[str, ...]:
    """Every step's name in order, ``lower`` first."""
    return (LOWER, *(p.name for p in passes))


def check_pass_name(name: str, passes: tuple[Pass, ...] = PASSES) -> None:
    """Raise ``UnknownPassError`` (listing the names) unless ``name`` is a step's name."""
    names = pass_names(passes)
    if name not in names:
        raise UnknownPassError(f"unknown pass {name!r}; the passes are, in order: "
                               f"{', '.join(names)}")  # fmt: skip


def run_passes(
    module: Module,
    *,
    after: str | None = None,
    on_pass: Callable[[str, Module], None] | None = None,
    passes: tuple[Pass, ...] = PASSES,
) -> Module:
    """Verify ``module`` (the output of ``lower``), then run ``passes`` in order, verifying
    after each that asks for it; stop after the step named ``after`` (all when None).
    ``on_pass(name, module)`` sees the module after each step (the debug dump)."""
    if after is not None:
        check_pass_name(after, passes)
    _verified(LOWER, module)
    if on_pass is not None:
        on_pass(LOWER, module)
    if after == LOWER:
        return module
    for p in passes:
        module = p.run(module)
        if p.verify:
            _verified(p.name, module)
        if on_pass is not None:
            on_pass(p.name, module)
        if after == p.name:
            break
    return module


def _verified(name: str, module: Module) -> None:
    try:
        verify(module)
    except IRVerifyError as exc:
        raise IRVerifyError(f"after pass {name!r}: {exc}") from None
