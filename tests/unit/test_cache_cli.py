"""``gpuoff cache info|clear`` and where the cache lives; ``GPUOFF_DEBUG`` refusing values it
does not know and logging through ``logging.getLogger("gpuoff")`` (issue 18, item 5)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpuoff.cli import main
from gpuoff.runtime import cache, debug


def fill(folder: Path) -> None:
    (folder / "opencl-probe").mkdir(parents=True)
    (folder / ("ab" * 32 + ".bin")).write_bytes(b"x" * 1000)
    (folder / "host-1234.key").write_text("k")
    (folder / "opencl-probe" / "p.json").write_text("{}")
    (folder / "notes.txt").write_text("the user's own file")


def test_cache_info_and_clear(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    monkeypatch.setenv("GPUOFF_CACHE_DIR", str(tmp_path))
    fill(tmp_path)
    assert main(["cache"]) == 0
    out = capsys.readouterr().out
    assert f"folder: {tmp_path} (GPUOFF_CACHE_DIR)" in out
    assert "compiled kernels: 1 entries" in out and "opencl-probe/:" in out
    assert "left alone (not gpuoff's): notes.txt" in out
    assert main(["cache", "clear"]) == 0
    assert "removed 1 compiled kernels and 1 folders" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_cache_off(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GPUOFF_CACHE_DIR", "")
    assert main(["cache", "clear"]) == 0
    assert "the disk cache is off" in capsys.readouterr().out


def test_the_default_folder_is_the_platforms(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:  # fmt: skip
    platformdirs = pytest.importorskip("platformdirs")
    monkeypatch.delenv("GPUOFF_CACHE_DIR")
    for xdg in (None, str(tmp_path)):
        if xdg is None:
            monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
        else:
            monkeypatch.setenv("XDG_CACHE_HOME", xdg)
        assert str(cache.cache_dir()) == platformdirs.user_cache_dir("gpuoff", appauthor=False)


@pytest.mark.parametrize("bad", ["yes", "5", "-1", "1.5"])
def test_gpuoff_debug_refuses_what_it_does_not_know(bad: str) -> None:
    code = "import gpuoff as go\ngo.zeros(3)\n"
    env = {**os.environ, "GPUOFF_DEBUG": bad}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=60)  # fmt: skip
    assert out.returncode != 0
    assert "ConfigError: GPUOFF_DEBUG is a level from 0 (off) to 4" in out.stderr
    assert repr(bad) in out.stderr


def test_debug_messages_are_records_of_the_gpuoff_logger() -> None:
    seen: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record)

    logger = logging.getLogger("gpuoff")
    keep = Keep()
    logger.addHandler(keep)
    old = debug.level()
    try:
        debug.set_level(2)
        debug.log(debug.CACHE, "disk hit")
        debug.log(debug.CODE, "not at this level")
    finally:
        debug.set_level(old)
        logger.removeHandler(keep)
    assert [r.getMessage() for r in seen] == ["disk hit"]
    assert seen[0].name == "gpuoff"
