"""The plugin class: it only dispatches fully-qualified names to the checks.

``get_*_hook`` runs for every call mypy checks, so each lookup is a set membership test or,
for the "any function with an ``Owned`` parameter" rule, one symbol-table lookup.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable
from pathlib import Path

from mypy.nodes import Decorator, FuncBase, OverloadedFuncDef, SymbolNode, TypeInfo
from mypy.plugin import (
    FunctionContext,
    FunctionSigContext,
    MethodSigContext,
    Plugin,
    ReportConfigContext,
)
from mypy.types import CallableType, Overloaded, Type, get_proper_type

from gpuoff.ownership import Access
from mypy_plugin import borrow_write, kernel_body, launch
from mypy_plugin.names import BODY_DECORATORS, DEVICE_CALLS, LAUNCH_CALLS, access_of

__version__ = "0.1.0"
"""Bump with every release (users' caches are also keyed by the checks' source, below)."""


def _source_hash() -> str:
    # mypy keys its cache on the entry module (gpuoff/mypy.py) only; the checks live here, so
    # report their source through report_config_data to invalidate caches when they change.
    digest = hashlib.sha256(__version__.encode())
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


_SOURCE_HASH = _source_hash()


NEVER_OWNED = frozenset(sys.stdlib_module_names | {"numpy", "pytest", "_pytest", "mypy"})
"""Top-level packages whose functions cannot take gpuoff ``Owned`` parameters (a fast path)."""


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

    def _takes_owned(self, fullname: str) -> bool:
        if fullname.partition(".")[0] in NEVER_OWNED:
            return False
        sym = self.lookup_fully_qualified(fullname)
        node = sym.node if sym is not None else None
        if node is None and "." in fullname:
            # A method inherited from a base class is named after the receiver's class.
            owner, _, attr = fullname.rpartition(".")
            cls = self.lookup_fully_qualified(owner)
            if cls is not None and isinstance(cls.node, TypeInfo):
                found = cls.node.get(attr)
                node = found.node if found is not None else None
        if not isinstance(node, (FuncBase, Decorator)):
            return False
        return any(access_of(t) is Access.OWNED for sig in _signatures(node) for t in sig.arg_types)

    def report_config_data(self, ctx: ReportConfigContext) -> str:
        return _SOURCE_HASH

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        return kernel_body.decorator_hook if fullname in BODY_DECORATORS else None

    def get_function_signature_hook(
        self, fullname: str
    ) -> Callable[[FunctionSigContext], CallableType] | None:
        if self._takes_owned(fullname):
            return launch.owned_function_signature
        return None

    def get_method_signature_hook(
        self, fullname: str
    ) -> Callable[[MethodSigContext], CallableType] | None:
        if fullname in LAUNCH_CALLS or fullname in DEVICE_CALLS:
            return launch.launch_signature
        if fullname == borrow_write.BORROW_SETITEM:
            return borrow_write.borrow_setitem_signature
        if self._takes_owned(fullname):
            return launch.owned_method_signature
        return None


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point (``plugins = ["gpuoff.mypy"]``)."""
    return GpuoffPlugin
