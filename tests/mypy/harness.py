"""Runs mypy with the gpuoff plugin over golden files and compares errors with ``# E:`` comments.

The files run in a scratch copy of the project so that the cache, the daemon's status file
and edits between runs never touch the working tree. Until ``gpuoff.runtime.kernel`` exists
the copy gets a minimal stand-in with the same names and signatures (``Kernel[P]``,
``Launch[P]``, ``kernel`` with both decorator forms).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASES = Path(__file__).resolve().parent / "cases"

STANDIN = """
from __future__ import annotations
from collections.abc import Callable
from typing import Any, Generic, ParamSpec, overload
P = ParamSpec("P")
class Launch(Generic[P]):
    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> Any: ...
class Kernel(Generic[P]):
    def __getitem__(self, grid: object) -> Launch[P]: ...
@overload
def kernel(fn: Callable[P, None], /) -> Kernel[P]: ...
@overload
def kernel(
    *, boundscheck: bool = True, fastmath: bool = False
) -> Callable[[Callable[P, None]], Kernel[P]]: ...
def kernel(fn: Any = None, /, *, boundscheck: bool = True, fastmath: bool = False) -> Any: ...
"""

CONFIG = """\
[mypy]
strict = True
plugins = gpuoff.mypy
cache_dir = {cache}
[mypy-gpuoff.*,codegen.*]
follow_imports = silent
ignore_errors = True
ignore_missing_imports = True
"""

_ERROR = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+): error: (?P<msg>.*)$")

Error = tuple[str, int, str]


def make_workspace(tmp: Path, plugin: bool = True) -> Path:
    """A copy of gpuoff, the plugin and the golden cases under ``tmp``; returns the config."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for pkg in ("gpuoff", "mypy_plugin"):
        shutil.copytree(ROOT / pkg, tmp / pkg, ignore=ignore)
    shutil.copytree(CASES, tmp / "tests" / "mypy" / "cases", ignore=ignore)
    for marker in ("tests/__init__.py", "tests/mypy/__init__.py"):
        (tmp / marker).write_text("")
    kernel = tmp / "gpuoff" / "runtime" / "kernel.py"
    if not kernel.exists():
        kernel.write_text(STANDIN)
    init = tmp / "gpuoff" / "__init__.py"
    if not re.search(r"^\s+kernel,$|import .*\bkernel\b", init.read_text(), re.M):
        with init.open("a") as f:
            # For the type checker only: importing the runtime when mypy loads the plugin
            # would tie these tests to every runtime module being importable.
            f.write(
                "\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                "    from gpuoff.runtime.kernel import Kernel as Kernel, kernel as kernel\n"
            )
    cfg = tmp / "mypy.ini"
    text = CONFIG.format(cache=tmp / ".mypy_cache")
    cfg.write_text(text if plugin else text.replace("plugins = gpuoff.mypy\n", ""))
    return cfg


def parse_errors(stdout: str) -> set[Error]:
    """``(path, line, "message  [code]")`` for every error line mypy printed."""
    out: set[Error] = set()
    for line in stdout.splitlines():
        m = _ERROR.match(line)
        if m:
            out.add((m["path"].replace("\\", "/"), int(m["line"]), m["msg"].strip()))
    return out


def expected_errors(path: Path, rel: str) -> set[Error]:
    """The ``# E: message  [code]`` comments of a golden file (several per line allowed)."""
    out: set[Error] = set()
    for n, text in enumerate(path.read_text().splitlines(), start=1):
        for part in text.split("# E: ")[1:]:
            out.add((rel, n, part.strip()))
    return out
