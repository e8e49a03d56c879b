"""``gpuoff bench`` on the command line: mistakes refused before any benchmark runs, every
option described, and no scratch folder left behind."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpuoff import cli
from gpuoff.bench import scratch


def _bench(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = cli.main(["bench", "--no-progress", *argv])
    return code, capsys.readouterr().err


def _refuse_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any benchmark run fails the test: these mistakes must be caught before one starts."""
    from gpuoff.bench import suite

    def no_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("the suite ran although the command line was wrong")

    monkeypatch.setattr(suite, "run_suite", no_run)


def test_unknown_device_is_refused_with_the_list(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _refuse_runs(monkeypatch)
    code, err = _bench(["--device", "nosuch"], capsys)
    assert code == 2
    from gpuoff.runtime.devices import devices

    usable = ", ".join(d.name for d in devices() if d.available)
    assert f"unknown device 'nosuch'; devices here: {usable}" in err
    for d in devices():  # every device is listed, with why it is unavailable if it is
        assert d.name in err and (d.available or f"{d.name} ({d.reason})" in err)


def test_unavailable_device_is_refused_with_its_reason(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gpuoff.runtime.devices import devices

    missing = [d for d in devices() if not d.available]
    if not missing:
        pytest.skip("every device of this machine is available")
    _refuse_runs(monkeypatch)
    code, err = _bench(["--device", f"cpu,{missing[0].name}"], capsys)
    assert code == 2 and f"device {missing[0].name!r} is unavailable here" in err


def test_devices_are_deduplicated() -> None:
    assert cli.bench_devices(" cpu,cpu ") == ["cpu"]
    assert cli.bench_devices(None) == ["cpu"]
    with pytest.raises(cli.CliError, match="at least one device"):
        cli.bench_devices(" , ")


@pytest.mark.parametrize("option", ["--json", "--plot"])
def test_output_into_a_missing_folder_is_refused_up_front(
    option: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    _refuse_runs(monkeypatch)
    target = tmp_path / "no" / "such" / "out.file"
    code, err = _bench(["--only", "saxpy", option, str(target)], capsys)
    assert code == 2 and f"folder {target.parent} does not exist" in err
    code, err = _bench(["--only", "saxpy", option, str(tmp_path)], capsys)
    assert code == 2 and "is a folder" in err


def test_plot_without_matplotlib_is_refused_up_front(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _refuse_runs(monkeypatch)
    for name in ("matplotlib", "matplotlib.pyplot"):
        monkeypatch.setitem(sys.modules, name, None)
    code, err = _bench(["--only", "saxpy", "--plot", str(tmp_path / "p.png")], capsys)
    assert code == 2 and "pip install matplotlib" in err


def test_unknown_benchmark_is_refused_up_front(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _refuse_runs(monkeypatch)
    code, err = _bench(["--only", "saxpy,nosuch"], capsys)
    assert code == 1 and "unknown benchmark(s) nosuch" in err


def test_every_bench_option_has_a_one_line_description() -> None:
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    bench = sub.choices["bench"]
    assert bench.description
    options = [a for a in bench._actions if a.option_strings and a.dest != "help"]
    assert {a.dest for a in options} >= {"device", "only", "quick", "json", "plot",
                                         "no_progress", "timeout"}  # fmt: skip
    for action in options:
        assert action.help and action.help.strip(), action.dest
    only = next(a for a in options if a.dest == "only")
    assert only.help is not None and "softmax" in only.help and "transpose_rows" in only.help


# --- scratch folders ---------------------------------------------------------------------------


def test_scratch_lives_under_the_cache_folder(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:  # fmt: skip
    monkeypatch.setenv("GPUOFF_CACHE_DIR", str(tmp_path / "cache"))
    assert scratch.scratch_root() == tmp_path / "cache" / "bench"
    monkeypatch.setenv("GPUOFF_CACHE_DIR", "")  # disk cache off: the temporary folder
    assert scratch.scratch_root().name.startswith("gpuoff-bench-")


def test_scratch_is_removed_and_dead_runs_swept(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:  # fmt: skip
    monkeypatch.setenv("GPUOFF_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(scratch, "_current", None)
    root = tmp_path / "bench"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    (root / f"run-{dead}-abc" / "c").mkdir(parents=True)
    (root / f"run-{os.getppid()}-live").mkdir()  # a live process's folder stays
    (root / "unrelated").mkdir()
    folder = scratch.scratch_dir("c")
    assert folder.is_dir() and folder.parent.parent == root
    assert not (root / f"run-{dead}-abc").exists()
    assert (root / f"run-{os.getppid()}-live").exists() and (root / "unrelated").exists()
    scratch.cleanup()
    assert not folder.parent.exists()
    assert scratch.scratch_dir("c").is_dir()  # made again on the next use
    scratch.cleanup()


CHILD = """
import sys
from gpuoff import cli
from gpuoff.bench import cbuild, coldstart, registry, suite
from gpuoff.bench.harness import Case, Impl

def make(device, quick):
    cbuild.load_baseline("saxpy")  # builds a C library in the scratch folder
    coldstart._cache_root()
    if sys.argv[1] == "hang":
        import time
        time.sleep(60)
    return Case("probe", "1", device, "us", 0.0, Impl(lambda: None))

suite.SUITE[:] = [registry.Entry("probe", "", make)]
sys.exit(cli.main(["bench", "--only", "probe", "--no-progress", "--timeout", "3"]))
"""


@pytest.mark.parametrize("how", ["finish", "hang"])
def test_a_bench_run_leaves_no_scratch_folder(how: str, tmp_path: Path) -> None:
    if not any(os.path.exists(os.path.join(p, "cc")) for p in os.environ["PATH"].split(":")):
        pytest.skip("no C compiler")
    tmp, cache = tmp_path / "tmp", tmp_path / "cache"
    tmp.mkdir()
    env = dict(os.environ, TMPDIR=str(tmp), GPUOFF_CACHE_DIR=str(cache))
    proc = subprocess.run([sys.executable, "-c", CHILD, how], capture_output=True, text=True,
                          env=env, timeout=120, check=False)  # fmt: skip
    assert proc.returncode == (0 if how == "finish" else 124), proc.stderr
    assert list(tmp.iterdir()) == []  # nothing in the temporary folder
    assert list((cache / "bench").iterdir()) == []  # the run's own folder is gone
