"""The named compile pipeline (``gpuoff.ir.pipeline``): order, verification after each pass,
``--after``, the ``GPUOFF_DEBUG=4`` dump per pass, and what the runtime and ``show`` run."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

import gpuoff as go
from gpuoff import Array, Borrow, BorrowMut, cli, f32
from gpuoff.frontend import lower_kernel
from gpuoff.ir import nodes as N
from gpuoff.ir import types as T
from gpuoff.ir.bounds import eliminate_redundant_checks
from gpuoff.ir.pipeline import (
    LOWER,
    PASSES,
    Pass,
    UnknownPassError,
    check_pass_name,
    pass_names,
    run_passes,
)
from gpuoff.ir.printer import format_module
from gpuoff.ir.verify import IRVerifyError
from gpuoff.ownership import Access
from gpuoff.runtime import debug

ROOT = Path(__file__).resolve().parents[2]
SAXPY = str(ROOT / "examples" / "saxpy.py") + ":saxpy"


def _saxpy(a: f32, x: Borrow[Array[f32]], y: BorrowMut[Array[f32]]) -> None:
    i = go.global_id(0)
    if i < y.shape[0]:
        y[i] = a * x[i] + y[i]


def _module() -> N.Module:
    vec = T.ArrayType(T.f32, 1, True, T.AddressSpace.GLOBAL, Access.BORROW)
    return lower_kernel(_saxpy, (T.f32, vec, vec))


def test_the_pipeline_starts_with_lower_and_names_every_pass() -> None:
    assert pass_names() == (LOWER, *(p.name for p in PASSES))
    assert "eliminate-checks" in pass_names()
    assert len(set(pass_names())) == len(pass_names())


def test_run_passes_is_the_front_end_module_after_every_pass() -> None:
    m = _module()
    assert run_passes(m) == eliminate_redundant_checks(m)
    assert run_passes(m, after=LOWER) is m
    assert run_passes(m, after="eliminate-checks") == eliminate_redundant_checks(m)


def test_each_step_is_seen_in_order_with_its_output() -> None:
    seen: list[tuple[str, int]] = []
    tagger = Pass("tag", lambda m: dataclasses.replace(m, fastmath=True))
    run_passes(_module(), passes=(*PASSES, tagger),
               on_pass=lambda name, m: seen.append((name, m.fastmath)))  # fmt: skip
    assert seen == [(LOWER, False), *((p.name, False) for p in PASSES), ("tag", True)]


def test_after_stops_the_pipeline_there() -> None:
    ran: list[str] = []

    def marker(name: str) -> Pass:
        def run(m: N.Module) -> N.Module:
            ran.append(name)
            return m

        return Pass(name, run)

    passes = (marker("one"), marker("two"), marker("three"))
    run_passes(_module(), after="two", passes=passes)
    assert ran == ["one", "two"]


def test_a_pass_that_breaks_the_ir_is_named() -> None:
    def drop_locals(m: N.Module) -> N.Module:
        return dataclasses.replace(m, kernel=dataclasses.replace(m.kernel, locals={}))

    with pytest.raises(IRVerifyError, match="after pass 'drop-locals'"):
        run_passes(_module(), passes=(Pass("drop-locals", drop_locals),))
    # a pass that opts out of the verifier is trusted
    run_passes(_module(), passes=(Pass("drop-locals", drop_locals, verify=False),))


def test_an_unknown_pass_lists_the_names() -> None:
    with pytest.raises(UnknownPassError, match=r"unknown pass 'nope'.*lower, eliminate-checks"):
        check_pass_name("nope")
    with pytest.raises(UnknownPassError):
        run_passes(_module(), after="nope")
    assert isinstance(UnknownPassError("x"), go.GpuoffError | ValueError)


def test_debug_4_dumps_the_ir_after_each_pass(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GPUOFF_CACHE_DIR", str(tmp_path))  # a first launch lowers the source
    monkeypatch.setattr(debug, "_level", debug.IR)
    kernel = go.kernel(_saxpy)
    y = go.array(np.zeros(8, np.float32))
    with go.on("cpu"):
        kernel[8](np.float32(2.0), go.array(np.ones(8, np.float32)), y)
        go.synchronize()
    monkeypatch.setattr(debug, "_level", 0)
    assert y.numpy().tolist() == [2.0] * 8
    err = capsys.readouterr().err
    heads = [line for line in err.splitlines() if line.startswith("[gpuoff] IR of _saxpy after ")]
    assert heads == [f"[gpuoff] IR of _saxpy after {name}:" for name in pass_names()]
    # the dump after lower still marks the checks the pass drops (y[i] read, then written)
    first, second = err.split(heads[1])
    assert first.count("{c") == 3 and second.count("{c") == 1


def test_show_after_a_pass(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["show", SAXPY, "--after", LOWER]) == 0
    before = capsys.readouterr().out
    assert cli.main(["show", SAXPY, "--after", "eliminate-checks"]) == 0
    after = capsys.readouterr().out
    assert cli.main(["show", SAXPY]) == 0
    assert capsys.readouterr().out == after  # the last pass is the default
    assert before.count("{c") == 3 and after.count("{c") == 1
    lowered = cli.lower_for_show(cli.load_object(SAXPY), None, None, None, after=LOWER)
    assert before.strip() == format_module(lowered).strip()


def test_show_after_an_unknown_pass_names_the_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["show", SAXPY, "--after", "nope"]) == 2
    err = capsys.readouterr().err
    assert "unknown pass 'nope'" in err and ", ".join(pass_names()) in err
    assert cli.main(["show", SAXPY, "-t", "llvm", "--after", LOWER]) == 2
    assert "--target ir" in capsys.readouterr().err
