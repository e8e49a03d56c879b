"""``import gpuoff`` loads its public names on first use; type checkers read __init__.pyi."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import gpuoff

ROOT = Path(__file__).resolve().parents[2]


def _stub_exports() -> set[str]:
    tree = ast.parse((ROOT / "gpuoff" / "__init__.pyi").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            assert isinstance(node.value, ast.List)
            return {e.value for e in node.value.elts if isinstance(e, ast.Constant)
                    and isinstance(e.value, str)}  # fmt: skip
    raise AssertionError("__init__.pyi has no __all__")


def test_stub_and_lazy_table_list_the_same_names() -> None:
    assert set(gpuoff.__all__) == _stub_exports()


def test_every_public_name_resolves_to_its_object() -> None:
    from gpuoff import lang, lang_math, runtime

    for name in gpuoff.__all__:
        assert getattr(gpuoff, name) is not None, name
    assert gpuoff.abs is lang_math.fabs and gpuoff.max is lang_math.maximum
    assert gpuoff.kernel is runtime.kernel and gpuoff.Buffer is runtime.Buffer
    assert gpuoff.lang is lang  # submodules are attributes too
    assert "zeros" in dir(gpuoff)


def test_unknown_name_is_an_attribute_error() -> None:
    try:
        getattr(gpuoff, "no_such_name")  # noqa: B009
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("expected AttributeError")


def test_import_gpuoff_alone_loads_nothing_else() -> None:
    code = (
        "import json, sys\n"
        "import gpuoff\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('gpuoff', 'numpy')))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)  # fmt: skip
    assert json.loads(out.stdout.strip().splitlines()[-1]) == ["gpuoff"]
