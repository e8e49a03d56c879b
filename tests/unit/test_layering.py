"""The import direction of DESIGN.md, checked on the source of every module.

``lang, ownership, errors -> ir -> frontend -> codegen -> runtime -> cli``: a module may import
its own layer and the layers to its left, never one to its right (imports inside functions and
under ``TYPE_CHECKING`` count too). ``codegen`` never imports pyopencl or cuda-python; the mypy
plugin never imports the runtime or codegen; ``import gpuoff`` loads no backend library.
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
    ("gpuoff.ownership", 0),
    ("gpuoff.errors", 0),
    ("gpuoff.ir", 1),
    ("gpuoff.frontend", 2),
    ("codegen", 3),
    ("gpuoff.runtime", 4),
    ("gpuoff.cli", 5),
    ("gpuoff.bench", 5),
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


def test_mypy_plugin_loads_no_backend_library() -> None:
    # mypy loads the plugin in every editor session: it must stay light. (Through the gpuoff
    # package it does load the runtime's pure modules and codegen.abi, which is fine.)
    code = (
        "import json, sys\n"
        "import gpuoff.mypy\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('llvmlite', 'pyopencl', 'cuda', 'numba'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)  # fmt: skip
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
