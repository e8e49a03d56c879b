"""Table, JSON and plot output of ``gpuoff bench``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from gpuoff.bench import report
from gpuoff.bench.harness import Row, Timing


def _rows() -> list[Row]:
    return [
        Row("saxpy", "2^24 f32", "cpu", "GB/s", 12.0 * 2**24, Timing(4.5e-3, (4.5e-3,) * 5),
            {"C/OpenMP": Timing(4.4e-3, (4.4e-3,) * 5), "NumPy": Timing(2e-2, (2e-2,) * 5)}),
        Row("black_scholes", "2^22 f32", "cpu", "options/s", 2.0**22, Timing(0.1, (0.1,)), {}),
        Row("launch", "64 items", "cpu", "us", 0.0, Timing(3.2e-6, (3.2e-6,)),
            {"ctypes call": Timing(8e-7, (8e-7,))}),
    ]  # fmt: skip


def test_format_time_units() -> None:
    assert report.format_time(4.5e-3) == "4.5 ms"
    assert report.format_time(3.2e-6) == "3.2 us"
    assert report.format_time(2.0) == "2 s"
    assert report.format_time(5e-8) == "50 ns"


def test_table_has_every_impl_ratio_and_rate() -> None:
    text = report.render_table(_rows(), ["sgemm on cpu: not yet"])
    lines = text.splitlines()
    assert lines[0].split() == list(report.HEADER)
    saxpy = next(line for line in lines if line.startswith("saxpy"))
    assert "gpuoff" in saxpy and "4.5 ms" in saxpy and "44.74 GB/s" in saxpy
    c_line = next(line for line in lines if "C/OpenMP" in line)
    assert c_line.rstrip().endswith("0.98x")
    assert any("41.94 M options/s" in line for line in lines)
    assert any("ctypes call" in line and "0.25x" in line for line in lines)
    assert lines[-1] == "skipped: sgemm on cpu: not yet"


def test_empty_table_says_so() -> None:
    assert report.render_table([]).startswith("no benchmark ran")


def test_json_round_trips() -> None:
    doc = json.loads(report.to_json(_rows(), ["x"]))
    assert doc["skipped"] == ["x"]
    assert [r["kernel"] for r in doc["rows"]] == ["saxpy", "black_scholes", "launch"]
    assert doc["rows"][0]["baselines"]["C/OpenMP"]["ratio"] == pytest.approx(4.4 / 4.5)
    assert doc["machine"]["cores"] >= 1


def test_plot_without_matplotlib_is_a_clear_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("matplotlib", "matplotlib.pyplot"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails as if not installed
    with pytest.raises(report.PlotUnavailable, match="pip install matplotlib"):
        report.write_plot(_rows(), str(tmp_path / "p.png"))


def test_plot_writes_png(tmp_path: Path) -> None:
    out = tmp_path / "p.png"
    report.write_plot(_rows(), str(out))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_markdown_and_json_round_trip() -> None:
    rows = _rows()
    back = report.rows_from_json(report.to_json(rows))
    assert report.table_lines(back) == report.table_lines(rows)
    md = report.markdown_table(back).splitlines()
    assert md[0].startswith("| kernel |") and len(md) == 2 + len(rows)
    assert "C/OpenMP 4.4 ms (0.98x); NumPy 20 ms (4.44x)" in md[2]
