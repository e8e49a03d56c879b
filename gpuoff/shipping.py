"""Pickling ``@go.kernel`` and ``@go.func`` objects (SPEC §4): by reference when importable,
by source otherwise, so that a kernel defined in ``__main__``, a notebook cell or ``exec``'d
text can be shipped to another process (``multiprocessing``, Dask) and compiled there.

By reference: the module and qualified name, when that name in that (imported, not
``__main__``) module is this very object; the other process imports it.

By source: the function's source lines (read as the front end reads them, through
``linecache``: a notebook's cells and registered ``exec`` text are there), where they came
from (file name, first line), the globals its code names (modules by name, other values
pickled with it: constants, ``go.func`` helpers, by source in turn) and its closure's values.
The receiving process registers the lines in its ``linecache`` under the original file name
unless that file already holds them, and compiles the same text at the same line numbers:
errors point at the user's file and line, and the disk cache key (source and globals) is the
sender's, so a second process on the machine finds the compiled code there. The decorator
lines are kept in the text but not run: the kernel is rebuilt with the sender's options.

This module is at the bottom layer (``gpuoff.lang`` imports it for ``DeviceFunction``); the
classes to rebuild are pickled by reference like any class.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import linecache
import pickle
import sys
import types
from collections.abc import Callable, Iterator
from typing import Any

from gpuoff.errors import GpuoffError


class KernelPickleError(GpuoffError, pickle.PicklingError):
    """A kernel or device function that cannot be pickled: its source cannot be read."""


_IDENTITY = "__gpuoff_unpickled_decorator__"
_OUTER = "__gpuoff_unpickled_closure__"


def reduce(obj: Any, cls: type, options: dict[str, Any]) -> tuple[Any, ...]:
    """``__reduce__`` of a kernel-like ``obj`` (``pyfunc``, ``__module__``, ``__qualname__``)
    that ``cls(pyfunc, **options)`` rebuilds."""
    if importable(obj):
        return (by_reference, (obj.__module__, obj.__qualname__))
    return (by_source, (cls, options, function_state(obj.pyfunc, repr(obj))))


def importable(obj: Any) -> bool:
    """Whether ``obj`` is what its module's attribute of its qualified name holds."""
    module_name, qualname = obj.__module__, obj.__qualname__
    if module_name in ("__main__", "__mp_main__") or "<locals>" in qualname:
        return False
    module = sys.modules.get(module_name)
    try:
        return module is not None and _lookup(module, qualname) is obj
    except AttributeError:
        return False


def _lookup(module: types.ModuleType, qualname: str) -> Any:
    value: Any = module
    for part in qualname.split("."):
        value = getattr(value, part)
    return value


def by_reference(module: str, qualname: str) -> Any:
    """Unpickle by reference: import ``module`` and look ``qualname`` up in it."""
    return _lookup(importlib.import_module(module), qualname)


def _code_objects(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _code_objects(const)


def _shippable(values: dict[str, Any]) -> tuple[dict[str, str], dict[str, Any]]:
    """Split ``values`` into modules (by name: imported again there) and the rest."""
    modules = {k: v.__name__ for k, v in values.items() if isinstance(v, types.ModuleType)}
    rest = {k: v for k, v in values.items() if k not in modules}
    return modules, rest


def function_state(fn: Callable[..., Any], what: str) -> dict[str, Any]:
    """Everything ``function_from_state`` needs to make ``fn`` again in another process."""
    code = fn.__code__
    try:
        lines, start = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        raise KernelPickleError(
            f"cannot pickle {what} by source: its source cannot be read (defined at an "
            f"interactive prompt, or exec'd without registering its text in linecache); "
            f"define it in a file, a notebook cell or an importable module"
        ) from None
    fn_globals: dict[str, Any] = fn.__globals__
    # what the code names, and what its annotations name (strings under ``from __future__
    # import annotations``, which the front end resolves in these globals)
    used = {n for c in _code_objects(code) for n in c.co_names}
    used.update(n.id for n in ast.walk(ast.parse(_dedented(lines))) if isinstance(n, ast.Name))
    names = used & fn_globals.keys()
    modules, values = _shippable({n: fn_globals[n] for n in sorted(names)})
    cells = fn.__closure__ or ()
    free = dict(zip(code.co_freevars, (c.cell_contents for c in cells), strict=True))
    free_modules, free_values = _shippable(free)
    return {
        "name": fn.__name__, "qualname": fn.__qualname__, "module": fn.__module__,
        "filename": code.co_filename, "start": start, "lines": lines,
        "modules": modules, "values": values,
        "freevars": list(code.co_freevars), "free_modules": free_modules,
        "free_values": free_values,
        "defaults": fn.__defaults__, "kwdefaults": fn.__kwdefaults__,
    }  # fmt: skip


def by_source(cls: type, options: dict[str, Any], state: dict[str, Any]) -> Any:
    """Unpickle by source: ``cls(function_from_state(state), **options)``."""
    return cls(function_from_state(state), **options)


def _register_lines(filename: str, start: int, lines: list[str]) -> None:
    """Make ``linecache`` (which ``inspect`` and the front end read) hold ``lines`` at line
    ``start`` of ``filename``, unless it does already (the same file on this machine)."""
    have = linecache.getlines(filename)
    if have[start - 1 : start - 1 + len(lines)] == lines:
        return
    padded = list(have[: start - 1]) + ["\n"] * max(0, start - 1 - len(have)) + lines
    padded += have[start - 1 + len(lines) :]
    # mtime None: linecache.checkcache leaves the entry alone (as for a loader's source)
    linecache.cache[filename] = (sum(map(len, padded)), None, padded, filename)


def _dedented(lines: list[str]) -> str:
    """The lines without the first one's indentation (a function defined in a block)."""
    first = lines[0] if lines else ""
    indent = first[: len(first) - len(first.lstrip())]
    return "".join(ln[len(indent) :] if ln.startswith(indent) else ln for ln in lines)


def function_from_state(state: dict[str, Any]) -> Callable[..., Any]:
    """The function ``function_state`` described, compiled from its source at its lines."""
    filename, start, lines = state["filename"], state["start"], state["lines"]
    _register_lines(filename, start, lines)
    tree = ast.parse("\n" * (start - 1) + _dedented(lines), filename=filename)
    fdef = tree.body[0]
    assert isinstance(fdef, ast.FunctionDef | ast.AsyncFunctionDef)
    # the decorators stay where they were (same first line, same source text) but do nothing
    fdef.decorator_list = [ast.copy_location(ast.Name(_IDENTITY, ast.Load()), d)
                           for d in fdef.decorator_list[:1]]  # fmt: skip
    namespace: dict[str, Any] = {"__name__": state["module"], "__builtins__": builtins,
                                 _IDENTITY: lambda f: f}  # fmt: skip
    namespace.update({k: importlib.import_module(m) for k, m in state["modules"].items()})
    namespace.update(state["values"])
    freevars: list[str] = state["freevars"]
    if freevars:  # a closure: made by an outer function taking the captured values
        outer = ast.FunctionDef(
            name=_OUTER, args=ast.arguments(posonlyargs=[], args=[ast.arg(v) for v in freevars],
                                            kwonlyargs=[], kw_defaults=[], defaults=[]),
            body=[fdef, ast.Return(ast.Name(fdef.name, ast.Load()))], decorator_list=[],
        )  # fmt: skip
        ast.copy_location(outer, fdef)
        tree.body = [ast.fix_missing_locations(outer)]
    exec(compile(tree, filename, "exec"), namespace)  # noqa: S102 - the sender's own source
    fn: Any
    if freevars:
        captured = {k: importlib.import_module(m) for k, m in state["free_modules"].items()}
        captured.update(state["free_values"])
        fn = namespace[_OUTER](*(captured[v] for v in freevars))
    else:
        fn = namespace[fdef.name]
    fn.__qualname__ = state["qualname"]
    fn.__defaults__ = state["defaults"]
    fn.__kwdefaults__ = state["kwdefaults"]
    return fn  # type: ignore[no-any-return]
