"""A short seeded run of the differential fuzzer in every test run (``scripts/fuzz --count N``
for long runs): every generated kernel must give the interpreter's results on every device,
and its PTX must assemble."""

from __future__ import annotations

from tests.fuzz.gen import generate
from tests.fuzz.run import run_many

CI_SEEDS = range(20_000_000, 20_000_012)
"""Seeds outside the long runs' usual range, so CI adds coverage; about half a minute."""


def test_generated_kernels_agree_on_every_backend() -> None:
    summary = run_many(list(CI_SEEDS))
    assert summary.count == len(CI_SEEDS)
    assert not summary.invalid_seeds, summary.invalid_seeds
    assert not summary.findings, "\n".join(
        f"seed {s}: {f}" for s, found in summary.findings.items() for f in found
    )


def test_the_generator_covers_what_the_issue_asks_for() -> None:
    sources = [generate(s) for s in range(200)]
    text = "\n".join(c.source for c in sources)
    for construct in ("go.barrier()", "go.shared(", "go.atomic_add(", "@go.func", "elif ",
                      "while ", "break", "continue", "return", "go.i32(2147483640)",
                      " // ", " % ", " ** ", " << ", " >> ", "go.fma(", "go.sqrt(", "min(",
                      "go.isnan(", "go.f32(", "go.u8(", "m_", "oa_f64[i] = go.",
                      "old = go.atomic_", "go.atomic_xor(", "x_i64[go.group_id(0) % "):
        assert construct in text, construct
    assert any(c.workgroup for c in sources) and any(not c.workgroup for c in sources)
    # nested loads: an index read from memory inside an index read from memory
    assert "% x_i64.shape[0]] % x_" in text or "] % x_i32.shape[0]] %" in text
