"""The command line as a new user meets it (issue 18, item 5): ``gpuoff --version``, and a
one-line description for every subcommand and every option, short help screens."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

import gpuoff
from gpuoff.cli import build_parser, main


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"gpuoff {gpuoff.__version__}"


def test_version_through_python_dash_m() -> None:
    out = subprocess.run([sys.executable, "-m", "gpuoff", "--version"], capture_output=True,
                         text=True, timeout=60, check=True)  # fmt: skip
    assert out.stdout.strip() == f"gpuoff {gpuoff.__version__}"


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _helps(parser: argparse.ArgumentParser) -> list[tuple[str, str | None]]:
    return [(a.dest, a.help) for a in parser._actions if a.dest != "help"]


def test_every_subcommand_has_a_one_line_description() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    names = {c.dest: c.help for c in commands._choices_actions}
    assert set(names) == set(_subparsers(parser)) >= {"devices", "show", "bench", "tour"}
    for name, text in names.items():
        assert text and "\n" not in text and len(text) < 80, name


def test_every_option_has_a_one_line_description() -> None:
    parser = build_parser()
    everything = {"gpuoff": parser, **_subparsers(parser)}
    for command, sub in everything.items():
        for dest, text in _helps(sub):
            if dest == "command":
                continue
            assert text, f"gpuoff {command}: {dest} has no help"
            assert "\n" not in text, f"gpuoff {command}: {dest}"


@pytest.mark.parametrize("command", ["show", "bench", "tour", "devices"])
def test_help_screens_are_short(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = capsys.readouterr().out
    assert len(out.splitlines()) < 45
    assert "``" not in out  # no reStructuredText
