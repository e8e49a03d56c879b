"""The plugin class: it only dispatches fully-qualified names to the checks.

``get_*_hook`` runs for every call mypy checks, so each lookup is a set membership test or,
for host functions that take buffers, one symbol-table lookup (skipped for the standard
library, NumPy, pytest and mypy). Importing this module loads mypy's own modules and
``gpuoff.ownership``/``gpuoff.subset`` (both standard library only): not NumPy, not the
runtime, not the front end.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable
from pathlib import Path

from mypy.nodes import Decorator, FuncBase, FuncDef, OverloadedFuncDef, SymbolNode, TypeInfo
from mypy.plugin import (
    DynamicClassDefContext,
    FunctionContext,
    FunctionSigContext,
    MethodSigContext,
    Plugin,
    ReportConfigContext,
)
from mypy.types import CallableType, Overloaded, Type, get_proper_type

from mypy_plugin import borrow_write, kernel_body, launch, partial, typevars
from mypy_plugin.names import BODY_DECORATORS, DEVICE_CALLS, LAUNCH_CALLS, PARTIAL_CALL

__version__ = "0.2.0"
"""Bump with every release (users' caches are also keyed by the checks' source, below)."""


def _source_hash() -> str:
    # mypy keys its cache on the entry module (gpuoff/mypy.py) only; the checks live here and
    # read gpuoff's tables, so report their source through report_config_data to invalidate
    # caches when they change.
    digest = hashlib.sha256(__version__.encode())
    here = Path(__file__).parent
    for path in [*sorted(here.glob("*.py")), here.parent / "gpuoff" / "subset.py",
                 here.parent / "gpuoff" / "ownership.py"]:  # fmt: skip
        if path.exists():
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


_SOURCE_HASH = _source_hash()

NEVER_HOST = frozenset(sys.stdlib_module_names | {"numpy", "pytest", "_pytest", "mypy", "gpuoff"})
"""Top-level packages whose functions are not user code taking gpuoff buffers (a fast path)."""

SigHook = Callable[[FunctionSigContext | MethodSigContext], CallableType]


def _signatures(node: SymbolNode | None) -> list[CallableType]:
    t = node.var.type if isinstance(node, Decorator) else getattr(node, "type", None)
    if isinstance(node, OverloadedFuncDef) and t is None:
        return []
    p = get_proper_type(t) if isinstance(t, Type) else None
    if isinstance(p, CallableType):
        return [p]
    if isinstance(p, Overloaded):
        return list(p.items)
    return []


class GpuoffPlugin(Plugin):
    """Static ownership checks for gpuoff (see docs/static-checking.md)."""

    def _host_node(self, fullname: str) -> SymbolNode | None:
        if fullname.partition(".")[0] in NEVER_HOST:
            return None
        sym = self.lookup_fully_qualified(fullname)
        node = sym.node if sym is not None else None
        if node is None and "." in fullname:
            # A method inherited from a base class is named after the receiver's class.
            owner, _, attr = fullname.rpartition(".")
            cls = self.lookup_fully_qualified(owner)
            if cls is not None and isinstance(cls.node, TypeInfo):
                found = cls.node.get(attr)
                node = found.node if found is not None else None
        return node if isinstance(node, FuncBase | Decorator) else None

    def _host_hook(self, fullname: str, method: bool) -> SigHook | None:
        node = self._host_node(fullname)
        if node is None or not any(launch.takes_buffers(s) for s in _signatures(node)):
            return None
        func = node.func if isinstance(node, Decorator) else node
        body = func if isinstance(func, FuncDef) else None
        bound = method and body is not None and not body.is_static
        return launch.host_signature(fullname, body, bound)  # type: ignore[no-any-return]

    def report_config_data(self, ctx: ReportConfigContext) -> str:
        return _SOURCE_HASH

    def get_dynamic_class_hook(
        self, fullname: str
    ) -> Callable[[DynamicClassDefContext], None] | None:
        return typevars.dtype_var_hook if fullname == typevars.DTYPE_VAR else None

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        return kernel_body.decorator_hook if fullname in BODY_DECORATORS else None  # type: ignore[return-value]

    def get_function_signature_hook(
        self, fullname: str
    ) -> Callable[[FunctionSigContext], CallableType] | None:
        if fullname in borrow_write.ATOMIC_CALLS:
            return borrow_write.atomic_signature
        return self._host_hook(fullname, method=False)

    def get_method_signature_hook(
        self, fullname: str
    ) -> Callable[[MethodSigContext], CallableType] | None:
        if fullname in LAUNCH_CALLS:
            return launch.launch_signature
        if fullname in DEVICE_CALLS:
            return launch.device_call_signature
        if fullname == borrow_write.BORROW_SETITEM:
            return borrow_write.borrow_setitem_signature
        if fullname == PARTIAL_CALL:
            return partial.partial_call_signature
        return self._host_hook(fullname, method=True)


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point (``plugins = ["gpuoff.mypy"]``)."""
    return GpuoffPlugin
