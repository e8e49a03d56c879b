"""Disk cache keys and entries (runtime/cache.py)."""

from __future__ import annotations

import inspect
import linecache
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import gpuoff as go
from gpuoff import Array, Borrow
from gpuoff.frontend import parse_signature
from gpuoff.ir.nodes import Module
from gpuoff.runtime import args as A
from gpuoff.runtime import cache

T = go.f32
LIMIT = 4


def kern(x: Borrow[Array[T]], n: go.i32) -> None:
    if n < LIMIT:
        pass


def test_source_hash_follows_captured_constants(monkeypatch: pytest.MonkeyPatch) -> None:
    before = cache.source_hash(kern)
    assert cache.source_hash(kern) == before
    monkeypatch.setitem(kern.__globals__, "LIMIT", 5)
    assert cache.source_hash(kern) != before


def test_signature_key_follows_annotation_aliases(monkeypatch: pytest.MonkeyPatch) -> None:
    before = cache.signature_key(kern, "kern")
    monkeypatch.setitem(kern.__globals__, "T", go.f64)
    assert cache.signature_key(kern, "kern") != before


def test_decls_roundtrip_and_bad_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPUOFF_CACHE_DIR", str(tmp_path))
    decls = parse_signature(kern)
    key = cache.signature_key(kern, "kern")
    assert cache.load_decls(key) is None
    cache.store_decls(key, decls)
    loaded = cache.load_decls(key)
    assert loaded is not None
    assert [(d.name, d.dtype, d.access, d.is_array) for d in loaded] == [
        (d.name, d.dtype, d.access, d.is_array) for d in decls
    ]
    (tmp_path / f"{key}.bin").write_bytes(b"garbage")
    assert cache.load_decls(key) is None
    assert cache.load(key) is None


def test_disabled_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPUOFF_CACHE_DIR", "")
    assert cache.cache_dir() is None
    cache.store_decls("k", [])
    assert cache.load_decls("k") is None


# ------------------------------------------------------------------------------------------------
# source text without tokenising
# ------------------------------------------------------------------------------------------------

MODULE_SRC = """
import functools

@functools.lru_cache
def decorated(a, b):
    c = (a +
         b)
    return (c,
            a)
"""


def _define(tmp_path: Path, source: str) -> Any:
    path = tmp_path / "mod_src.py"
    path.write_text(source)
    linecache.checkcache(str(path))
    scope: dict[str, Any] = {"__name__": "mod_src"}
    exec(compile(source, str(path), "exec"), scope)
    return scope["decorated"].__wrapped__


def test_source_text_matches_inspect(tmp_path: Path) -> None:
    fn = _define(tmp_path, MODULE_SRC)
    assert cache._source_text(fn) == inspect.getsource(fn)
    assert cache._source_text(kern) == inspect.getsource(kern)


def test_source_hash_follows_the_last_line_of_a_statement(tmp_path: Path) -> None:
    before = cache.source_hash(_define(tmp_path, MODULE_SRC))
    after = cache.source_hash(_define(tmp_path, MODULE_SRC.replace("a)", "a )")))
    assert before != after


def test_source_hash_follows_where_the_source_is(tmp_path: Path) -> None:
    # the cached module's errors name a file, line and column: the same text elsewhere must
    # not load another file's entry (its errors would point into that file)
    here = cache.source_hash(_define(tmp_path, MODULE_SRC))
    moved = cache.source_hash(_define(tmp_path, "\n" + MODULE_SRC))
    (tmp_path / "other").mkdir()
    elsewhere = cache.source_hash(_define(tmp_path / "other", MODULE_SRC))
    assert len({here, moved, elsewhere}) == 3
    assert cache.source_hash(_define(tmp_path, MODULE_SRC)) == here


def test_source_hash_without_a_source_file() -> None:
    scope: dict[str, Any] = {}
    exec("def f(x):\n    return x + 1\n", scope)
    exec("def g(x):\n    return x + 2\n", scope)
    assert cache.source_hash(scope["f"]) != cache.source_hash(scope["g"])


# ------------------------------------------------------------------------------------------------
# compiled entries
# ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def module() -> Module:
    """A real specialised IR module (what the runtime caches next to the artifact)."""
    k = go.kernel(kern)
    lowered: Module = k._lower([A.array_type(k.params[0], ("float32", 1, True)), k.params[1].dtype])
    return lowered


def test_entry_roundtrip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: Module) -> None:
    monkeypatch.setenv("GPUOFF_CACHE_DIR", str(tmp_path))
    cache.store("k1", module, b"artifact")
    hit = cache.load("k1")
    assert hit is not None and hit[1] == b"artifact" and hit[0] == module
    assert cache.load("k2") is None


def test_truncated_and_tampered_entries_are_misses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: Module
) -> None:
    monkeypatch.setenv("GPUOFF_CACHE_DIR", str(tmp_path))
    cache.store("k", module, b"x" * 1000)
    entry = tmp_path / "k.bin"
    whole = entry.read_bytes()
    for cut in (0, 1, len(whole) // 2, len(whole) - 1):
        entry.write_bytes(whole[:cut])
        assert cache.load("k") is None
    # a flipped byte inside the artifact: the entry unpickles but its digest disagrees
    at = whole.index(b"x" * 1000)
    entry.write_bytes(whole[:at] + b"y" + whole[at + 1 :])
    assert cache.load("k") is None
    # an entry of the older (module, artifact) format
    with open(entry, "wb") as fh:
        pickle.dump((module, b"x"), fh)
    assert cache.load("k") is None
    cache.store("k", module, b"x" * 1000)  # rewritten by the next compile
    assert cache.load("k") is not None


def test_failed_write_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: Module
) -> None:
    monkeypatch.setenv("GPUOFF_CACHE_DIR", str(tmp_path))
    cache._write("bad", lambda: None)  # unpicklable
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setenv("GPUOFF_CACHE_DIR", str(tmp_path / "file"))
    (tmp_path / "file").write_text("not a folder")
    cache.store("k", module, b"a")  # ignored
    assert cache.load("k") is None


WRITER = """
import sys
from gpuoff.runtime import cache
from gpuoff.ir.nodes import Module
import pickle
module = pickle.loads(bytes.fromhex(sys.argv[1]))
tag = sys.argv[2].encode()
for i in range(60):
    cache.store("shared", module, tag * (1000 + 997 * (i % 7)))
"""


def test_concurrent_writers_never_expose_half_an_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: Module
) -> None:
    monkeypatch.setenv("GPUOFF_CACHE_DIR", str(tmp_path))
    blob = pickle.dumps(module).hex()
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, blob, tag], env=dict(os.environ))
        for tag in ("a", "b", "c")
    ]
    while any(p.poll() is None for p in procs):
        hit = cache.load("shared")  # a miss before the first write; after it, whole entries
        if hit is not None:
            art = hit[1]
            assert art[:1] in (b"a", b"b", b"c") and art == art[:1] * len(art)
            assert (len(art) - 1000) % 997 == 0
    assert all(p.wait() == 0 for p in procs)
    assert cache.load("shared") is not None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shared.bin"]  # no temporaries


# -- what a kernel reaches through a module attribute (issue 20, item 9: a stale disk cache) --


MAIN = """
import sys
import numpy as np
import gpuoff as go
from gpuoff import Array, BorrowMut, f32
import cfg
import helpers

@go.kernel
def k(x: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < x.shape[0]:
        x[i] = helpers.bump(x[i]) + cfg.OFFSET + cfg.nested.SCALE

with go.on(sys.argv[1]):
    x = go.zeros(4, go.f32)
    k[4](x)
    print(x.numpy()[0], go.stats().compiles)
"""


def _run(folder: Path, device: str) -> tuple[float, int]:
    env = dict(os.environ, GPUOFF_CACHE_DIR=str(folder / "cache"), PYTHONPATH=str(folder))
    proc = subprocess.run([sys.executable, str(folder / "main.py"), device], env=env,
                          capture_output=True, text=True, check=False, timeout=120)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    value, compiles = proc.stdout.split()
    return float(value), int(compiles)


@pytest.mark.parametrize("device", ["cpu", "opencl:0"])
def test_a_changed_module_attribute_the_kernel_reaches_recompiles(
    tmp_path: Path, device: str
) -> None:
    if device not in [d.name for d in go.devices() if d.available]:
        pytest.skip(f"{device} is not available here")
    (tmp_path / "main.py").write_text(MAIN)
    helpers = "import gpuoff as go\n\n@go.func\ndef bump(v: float) -> float:\n    return v + {}\n"
    cfg = "import types\nOFFSET = {}\nnested = types.SimpleNamespace(SCALE={})\n"
    (tmp_path / "helpers.py").write_text(helpers.format("1.0"))
    (tmp_path / "cfg.py").write_text(cfg.format(10, 100))
    assert _run(tmp_path, device) == (111.0, 1)
    assert _run(tmp_path, device) == (111.0, 0)  # a disk hit
    (tmp_path / "helpers.py").write_text(helpers.format("2.0"))  # the device function
    assert _run(tmp_path, device) == (112.0, 1)
    (tmp_path / "cfg.py").write_text(cfg.format(20, 100))  # a module constant
    assert _run(tmp_path, device) == (122.0, 1)
    (tmp_path / "cfg.py").write_text(cfg.format(20, 300))  # an attribute of an attribute
    assert _run(tmp_path, device) == (322.0, 1)
    assert _run(tmp_path, device) == (322.0, 0)
