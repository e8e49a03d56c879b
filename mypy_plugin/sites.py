"""Where abstract values come from: sites for variables, allocations, attributes, elements,
kernels and launches, typed from mypy's types when they are known.

The shape of a site decides what indexing it means: a ``buffer`` is viewed (``a[1:]``), a
``container`` gives an element (``bufs[0]``), a ``kernel`` gives a launch (``k[n]``);
anything unknown gives a fresh value, so that the analysis reports only what it can show.
"""

from __future__ import annotations

from mypy.nodes import Decorator, Expression, RefExpr, SymbolNode, Var
from mypy.types import AnyType, Instance, TupleType, Type, get_proper_type

from mypy_plugin.names import KERNEL_CLASS, KERNEL_DECORATORS, LAUNCH_CLASS, is_array_type
from mypy_plugin.values import Site

CONTAINERS = frozenset({
    "builtins.list", "builtins.dict", "builtins.tuple", "builtins.set",
    "typing.Sequence", "typing.MutableSequence", "typing.Mapping", "typing.MutableMapping",
})  # fmt: skip


def shape_of(typ: object) -> str:
    """``buffer``, ``container``, ``launch``, ``kernel``, ``other``, or ``?`` (unknown)."""
    p = get_proper_type(typ) if isinstance(typ, Type) else None
    if p is None or isinstance(p, AnyType):
        return "?"
    if isinstance(p, TupleType):
        return "container"
    if isinstance(p, Instance):
        if is_array_type(p):
            return "buffer"
        name = p.type.fullname
        if name == LAUNCH_CLASS:
            return "launch"
        if name == KERNEL_CLASS:
            return "kernel"
        if name in CONTAINERS or any(p.type.has_base(c) for c in CONTAINERS):
            return "container"
    return "other"


def attribute_type(typ: object, name: str) -> Type | None:
    """The declared type of attribute ``name`` of a value of type ``typ``."""
    p = get_proper_type(typ) if isinstance(typ, Type) else None
    if isinstance(p, Instance):
        sym = p.type.get(name)
        node = sym.node if sym is not None else None
        if isinstance(node, Var):
            return node.type
    return None


def element_type(typ: object, key: object) -> Type | None:
    """The type of ``c[key]`` for a list, tuple or dict ``c``."""
    p = get_proper_type(typ) if isinstance(typ, Type) else None
    if isinstance(p, TupleType):
        if isinstance(key, int) and -len(p.items) <= key < len(p.items):
            return p.items[key]
        return None
    if isinstance(p, Instance) and p.args:
        return p.args[-1]  # list[T], Sequence[T], dict[K, T], tuple[T, ...]
    return None


def var_site(var: Var) -> Site:
    return Site("var", id(var), var.name, shape_of(var.type), var.type)


def static_site(node: SymbolNode, name: str) -> Site:
    """A module-level function, class, module or kernel named in the code."""
    shape = "other"
    if isinstance(node, Decorator):
        t = node.var.type
        if t is not None:
            shape = shape_of(t)
        elif any(isinstance(d, RefExpr) and d.fullname in KERNEL_DECORATORS
                 for d in node.original_decorators):  # fmt: skip
            shape = "kernel"  # a forward reference: its type is not inferred yet
    return Site("static", id(node), name, shape)


def launch_site(kernel: Site) -> Site:
    return Site("launch", kernel.key, kernel.label, "launch")


def fresh_site(node: Expression, label: str, typ: object) -> Site:
    """The object one evaluation of ``node`` makes (a call's result, a literal)."""
    return Site("alloc", id(node), label, shape_of(typ), typ)


def field_site(owner: Site, attr: str, epoch: frozenset[int]) -> Site:
    """What attribute ``attr`` of ``owner`` held since the last call that may change it."""
    typ = attribute_type(owner.typ, attr)
    return Site("field", (owner, attr, epoch), f"{owner.label}.{attr}", shape_of(typ), typ)


def element_site(owner: Site, key: object, label: str) -> Site:
    typ = element_type(owner.typ, key)
    return Site("elem", (owner, key), label, shape_of(typ), typ)
