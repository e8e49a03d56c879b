"""Runs mypy with the gpuoff plugin over golden files and compares errors with ``# E:`` comments.

An expectation is ``# E: message  [code]`` at the end of the line the error is reported on
(several per line allowed); ``...`` in it stands for any text, so a case can pin the words
that matter and leave the rest to one fully spelled-out case of the same message. The files
run in a scratch copy of the project so that the cache, the daemon's status file and edits
between runs never touch the working tree.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASES = Path(__file__).resolve().parent / "cases"

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
_CODE = re.compile(r"\[(?P<code>[a-z0-9-]+)\]\s*$")

Error = tuple[str, int, str]


def make_workspace(tmp: Path, plugin: bool = True, root: Path = ROOT) -> Path:
    """A copy of gpuoff, the plugin (both from ``root``) and the golden cases under ``tmp``;
    returns the mypy config file."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for pkg in ("gpuoff", "mypy_plugin"):
        shutil.copytree(root / pkg, tmp / pkg, ignore=ignore)
    shutil.copytree(CASES, tmp / "tests" / "mypy" / "cases", ignore=ignore)
    for marker in ("tests/__init__.py", "tests/mypy/__init__.py"):
        (tmp / marker).write_text("")
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


@dataclass(frozen=True)
class Expected:
    """One ``# E:`` comment: where, and the message pattern (``...`` = any text)."""

    path: str
    line: int
    pattern: str

    @property
    def code(self) -> str:
        m = _CODE.search(self.pattern)
        return m["code"] if m else ""

    def matches(self, message: str) -> bool:
        parts = [re.escape(p.strip()) for p in self.pattern.split("...")]
        return re.fullmatch(r"\s*.*?\s*".join(parts), message) is not None


def expected_errors(path: Path, rel: str) -> list[Expected]:
    """The ``# E: message  [code]`` comments of a golden file."""
    out: list[Expected] = []
    for n, text in enumerate(path.read_text().splitlines(), start=1):
        for part in text.split("# E: ")[1:]:
            out.append(Expected(rel, n, part.strip()))
    return out


def code_of(message: str) -> str:
    m = _CODE.search(message)
    return m["code"] if m else ""


def compare(want: list[Expected], got: set[Error]) -> tuple[list[Expected], list[Error]]:
    """The expectations no error matches, and the errors no expectation matches."""
    left = sorted(got)
    missing: list[Expected] = []
    for e in want:
        hit = next((g for g in left if g[:2] == (e.path, e.line) and e.matches(g[2])), None)
        if hit is None:
            missing.append(e)
        else:
            left.remove(hit)
    return missing, left


def category(path: str) -> str:
    """A case file's category: its name up to the first underscore (``alias_views`` ->
    ``alias``)."""
    return Path(path).stem.split("_")[0]


@dataclass
class Score:
    """Per category: expected errors found, missed (false negatives), unexpected (false
    positives), matched by line and error code only, so that any plugin can be scored."""

    expected: int = 0
    found: int = 0
    false_negatives: int = 0
    false_positives: int = 0


def score(want: list[Expected], got: set[Error]) -> dict[str, Score]:
    out: dict[str, Score] = {}
    left = sorted(got)
    for e in want:
        s = out.setdefault(category(e.path), Score())
        s.expected += 1
        hit = next((g for g in left if g[:2] == (e.path, e.line) and code_of(g[2]) == e.code), None)
        if hit is None:
            s.false_negatives += 1
        else:
            s.found += 1
            left.remove(hit)
    for g in left:
        out.setdefault(category(g[0]), Score()).false_positives += 1
    return out
