"""IR printer goldens (``tests/golden/ir/*.ir``); regenerate with ``GPUOFF_REGEN_GOLDEN=1``."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from gpuoff.ir import nodes as n
from gpuoff.ir.bounds import eliminate_redundant_checks
from gpuoff.ir.printer import format_expr, format_module
from gpuoff.ir.types import f32, i32
from gpuoff.ir.verify import verify
from tests.unit import irbuild as b

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "ir"
REGEN = os.environ.get("GPUOFF_REGEN_GOLDEN") == "1"

CASES: dict[str, Callable[[], n.Module]] = {
    "saxpy": b.saxpy,
    "saxpy_unguarded": lambda: b.saxpy(guarded=False),
    "saxpy_checks_eliminated": lambda: eliminate_redundant_checks(b.saxpy()),
    "tree_reduction": b.tree_reduction,
    "kitchen_sink": b.kitchen_sink,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str) -> None:
    module = CASES[name]()
    verify(module)
    text = format_module(module)
    path = GOLDEN / f"{name}.ir"
    if REGEN or not path.exists():
        if not REGEN:
            pytest.fail(f"missing golden {path}; run with GPUOFF_REGEN_GOLDEN=1")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert text == path.read_text()


def test_output_is_stable_and_independent_of_locals_order() -> None:
    m = b.kitchen_sink()
    reordered = dict(reversed(list(m.kernel.locals.items())))
    from dataclasses import replace

    m2 = replace(m, kernel=replace(m.kernel, locals=reordered))
    assert format_module(m) == format_module(m2) == format_module(b.kitchen_sink())


def test_printer_shows_types_checks_and_lines() -> None:
    text = format_module(b.saxpy())
    assert "kernel saxpy(a: f32, x: Borrow[f32[1d,C]], y: BorrowMut[f32[1d,C]])" in text
    assert "local i: i64" in text
    assert "y[i]{c3} = ((a * x[i]{c1}) + y[i]{c2})  # line 13" in text
    assert "check c1: saxpy x (1-d) at file.py:13:4  y[i] = a * x[i] + y[i]" in text


@pytest.mark.parametrize(
    ("expr", "text"),
    [
        (b.c(3, i32), "3:i32"),
        (b.c(2.5), "2.5:f32"),
        (b.c(True), "True"),
        (b.cast(f32, b.var("j", i32)), "f32(j)"),
        (b.not_(b.var("p", b.boolean)), "(not p)"),
        (n.Unary(i32, "neg", b.var("j", i32)), "(-j)"),
        (b.bin_("floordiv", b.var("j", i32), 2), "(j // 2:i32)"),
        (b.math("min", b.var("j", i32), b.var("k", i32)), "min(j, k):i32"),
        (b.wi("num_groups", 2), "num_groups(2)"),
    ],
)
def test_format_expr(expr: n.Expr, text: str) -> None:
    assert format_expr(expr) == text
