"""The import direction of DESIGN.md, checked on the source of every module.

``lang, ownership, errors -> ir -> frontend -> codegen -> runtime -> cli``: a module may import
its own layer and the layers to its left, never one to its right (imports inside functions and
under ``TYPE_CHECKING`` count too). ``codegen`` never imports pyopencl or cuda-python; the mypy
plugin never imports the runtime or codegen; ``import gpuoff`` loads no backend library.

Inside a package (one folder) imports run one way too: no import cycle among its modules,
counting the same imports. What several modules share lives in a leaf module they import; a
callback a helper needs from its caller is a ``Protocol`` in that leaf (DESIGN.md).
"""

from __future__ import annotations

import ast
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("gpuoff", "codegen", "mypy_plugin")

# (prefix, layer); the longest matching prefix wins.
LAYERS: tuple[tuple[str, int], ...] = (
    ("gpuoff.lang", 0),
    ("gpuoff.lang_math", 0),
    ("gpuoff.lang_generic", 0),
    ("gpuoff.lang_vec", 0),  # small vectors (go.vec3): lang's dtypes
    ("gpuoff.lang_mat", 0),  # small matrices (go.mat33): lang's dtypes and lang_vec's rows
    ("gpuoff.ownership", 0),
    ("gpuoff.errors", 0),
    ("gpuoff.subset", 0),
    ("gpuoff.shipping", 0),  # pickling kernels and device functions (lang's DeviceFunction)
    ("gpuoff.ir", 1),
    ("gpuoff.frontend", 2),
    ("codegen", 3),
    ("gpuoff.runtime", 4),
    ("gpuoff.cli", 5),
    ("gpuoff.bench", 5),
    ("gpuoff.lib", 5),  # library kernels: written against the public gpuoff API
    ("gpuoff.models", 5),  # whole models (MiniLM) over the public API, as a user writes them
    ("gpuoff.__main__", 5),
    ("gpuoff", 5),  # the package itself re-exports the runtime's public names
)
PLUGIN = ("mypy_plugin", "gpuoff.mypy")
# The plugin may share the front end's tables (construct names, builtins) so both agree; the
# front end itself never reaches the runtime or codegen (its own layer check above).
PLUGIN_FORBIDDEN = ("gpuoff.runtime", "codegen", "gpuoff.cli", "gpuoff.bench")
CODEGEN_FORBIDDEN_THIRD_PARTY = ("pyopencl", "cuda")


def _is_under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def layer_of(module: str) -> int | None:
    """The layer of a first-party module, ``None`` for the plugin and third-party modules."""
    if any(_is_under(module, p) for p in PLUGIN):
        return None
    best: tuple[int, int] | None = None
    for prefix, layer in LAYERS:
        if _is_under(module, prefix) and (best is None or len(prefix) > best[0]):
            best = (len(prefix), layer)
    return None if best is None else best[1]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            out[module_name(path)] = path
    return out


def _resolve_from(module: str, is_pkg: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_pkg:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: str, path: Path, known: set[str]) -> list[tuple[str, int]]:
    """Every module ``module`` imports, with the line: ``from a import b`` is ``a.b`` when
    that is a module, else ``a``."""
    tree = ast.parse(path.read_text(), filename=str(path))
    is_pkg = path.name == "__init__.py"
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve_from(module, is_pkg, node)
            for alias in node.names:
                if alias.name == "__version__":
                    continue  # package metadata, not a dependency on the package's contents
                sub = f"{base}.{alias.name}"
                found.append((sub if sub in known else base, node.lineno))
    return found


MODULES = all_modules()


def test_every_first_party_module_has_a_layer() -> None:
    unplaced = [m for m in MODULES if layer_of(m) is None and not any(
        _is_under(m, p) for p in PLUGIN)]  # fmt: skip
    assert unplaced == [], f"add these modules to LAYERS in {Path(__file__).name}: {unplaced}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_backward_import(module: str) -> None:
    path = MODULES[module]
    mine = layer_of(module)
    problems = []
    for target, line in imports_of(module, path, set(MODULES)):
        if any(_is_under(module, p) for p in PLUGIN):
            if any(_is_under(target, f) for f in PLUGIN_FORBIDDEN):
                problems.append(f"{path.name}:{line} mypy plugin imports {target}")
            continue
        theirs = layer_of(target)
        if mine is not None and theirs is not None and theirs > mine:
            problems.append(f"{path.name}:{line} {module} (layer {mine}) imports {target} "
                            f"(layer {theirs})")  # fmt: skip
        if _is_under(module, "codegen") and any(
            _is_under(target, t) for t in CODEGEN_FORBIDDEN_THIRD_PARTY
        ):
            problems.append(f"{path.name}:{line} codegen imports backend library {target}")
    assert problems == []


# Import cycles still being removed (issue 12). It may only shrink: an entry that is no longer
# a cycle fails too, so whoever removes a circle removes its line. Empty when issue 12 closes.
ALLOWED_CYCLES: frozenset[frozenset[str]] = frozenset()


def package_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules of its own folder it imports (a package's ``__init__`` is not a
    target: importing a package's public names is not a dependency on its other modules)."""
    known = set(modules)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        graph[name] = {
            target for target, _ in imports_of(name, path, known)
            if target in modules and target != name and modules[target].parent == path.parent
            and modules[target].name != "__init__.py"
        }  # fmt: skip
    return graph


def import_cycles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected components of two or more modules (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, edges = work[-1]
            w = next(edges, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    x = stack.pop()
                    on_stack.discard(x)
                    comp.add(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    found.add(frozenset(comp))
    return found


def test_no_import_cycle_inside_a_package() -> None:
    cycles = import_cycles(package_graph(MODULES))
    new = sorted(sorted(c) for c in cycles - ALLOWED_CYCLES)
    assert new == [], (
        "import cycles inside a package (move what they share into a leaf module; a callback "
        f"becomes a Protocol there): {new}"
    )


def test_cycle_allow_list_only_shrinks() -> None:
    stale = sorted(sorted(c) for c in ALLOWED_CYCLES - import_cycles(package_graph(MODULES)))
    assert stale == [], f"these circles are gone: remove them from ALLOWED_CYCLES: {stale}"


def test_cycle_checker_sees_function_level_and_type_only_imports(tmp_path: Path) -> None:
    # The rule itself must be able to fail: a -> b at the top, b -> c under TYPE_CHECKING,
    # c -> a inside a function; d imports a but nothing imports d.
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from pkg.a import A\n")
    (pkg / "a.py").write_text("from pkg import b\nA = 1\n")
    (pkg / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.c import C\n"
    )
    (pkg / "c.py").write_text("def f():\n    from pkg.a import A\n    return A\nC = 1\n")
    (pkg / "d.py").write_text("import pkg.a\n")
    modules = {f"pkg.{p.stem}" if p.stem != "__init__" else "pkg": p
               for p in sorted(pkg.glob("*.py"))}  # fmt: skip
    assert import_cycles(package_graph(modules)) == {frozenset({"pkg.a", "pkg.b", "pkg.c"})}
    assert import_cycles({"x": {"y"}, "y": set()}) == set()


def test_layer_table_orders_design_direction() -> None:
    order = ["gpuoff.errors", "gpuoff.ir.nodes", "gpuoff.frontend", "codegen.abi",
             "gpuoff.runtime.kernel", "gpuoff.cli"]  # fmt: skip
    layers = [layer_of(m) for m in order]
    assert None not in layers
    known = [x for x in layers if x is not None]
    assert known == sorted(known) and len(set(known)) == len(known)


def test_checker_sees_a_backward_edge(tmp_path: Path) -> None:
    # The checker itself must be able to fail: an ir module importing the runtime.
    fake = tmp_path / "bad.py"
    fake.write_text("def f():\n    from gpuoff.runtime import kernel\n")
    found = imports_of("gpuoff.ir.bad", fake, {"gpuoff.runtime.kernel"})
    assert ("gpuoff.runtime.kernel", 2) in found
    assert layer_of("gpuoff.runtime.kernel") == 4 > (layer_of("gpuoff.ir.bad") or 0)


def test_relative_imports_resolve() -> None:
    node = ast.parse("from ..types import X").body[0]
    assert isinstance(node, ast.ImportFrom)
    assert _resolve_from("gpuoff.ir.sub.mod", False, node) == "gpuoff.ir.types"


def test_import_gpuoff_loads_no_backend_library() -> None:
    code = (
        "import json, sys\n"
        "import gpuoff\n"
        "print(json.dumps(sorted(m for m in sys.modules "
        "if m.split('.')[0] in ('llvmlite', 'pyopencl', 'cuda', 'numba'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)  # fmt: skip
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_gpuoff_is_importable_from_this_checkout() -> None:
    spec = importlib.util.find_spec("gpuoff")
    assert spec is not None and spec.origin is not None
    assert Path(spec.origin).resolve().is_relative_to(ROOT)


def test_mypy_plugin_loads_neither_numpy_nor_the_runtime() -> None:
    # mypy loads the plugin at the start of every run and editor session: it must stay
    # light. The gpuoff package loads its public names lazily, and the plugin reads only
    # gpuoff.ownership and gpuoff.subset (standard library only).
    code = (
        "import json, sys\n"
        "import mypy.build\n"
        "before = set(sys.modules)\n"
        "import gpuoff.mypy\n"
        "print(json.dumps(sorted(m for m in sys.modules if m not in before "
        "and m.split('.')[0] not in ('mypy_plugin',))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)  # fmt: skip
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert loaded == ["gpuoff", "gpuoff.mypy", "gpuoff.ownership", "gpuoff.subset"], loaded
