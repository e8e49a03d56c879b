"""``gpuoff bench --plot``: log ratio axis, labelled parity, values on the bars, one panel per
device, machine and ``--quick`` in the title."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gpuoff.bench import plot
from gpuoff.bench.harness import Row, Timing


def _t(seconds: float) -> Timing:
    return Timing(seconds, (seconds,) * 5)


def _rows() -> list[Row]:
    c = {"C/OpenMP": _t(8e-3), "C/OpenMP+libmvec": _t(2e-3), "NumPy": _t(40e-3),
         "Numba": _t(16e-3)}  # fmt: skip
    return [
        Row("black_scholes", "2^22", "cpu", "options/s", 1.0, _t(4e-3), c, "", _t(3.2e-3)),
        Row("saxpy", "2^24", "cpu", "GB/s", 1.0, _t(1e-3), {"C/OpenMP": _t(1e-3)}),
        Row("saxpy", "2^24", "opencl:0", "GB/s", 1.0, _t(1e-3),
            {"OpenCL C": _t(1.1e-3), "OpenCL C, grid-stride": _t(0.9e-3)}, "", _t(1e-3)),
    ]  # fmt: skip


INFO = {"machine": {"cpu_model": "AMD EPYC", "cores": 2, "usable_cores": 2}, "quick": True}


def test_comparisons_use_the_fastest_variant_and_the_safety_price() -> None:
    bars = plot.comparisons(_rows()[0])
    assert bars["C (fastest variant)"] == pytest.approx(0.5)  # libmvec 2 ms vs 4 ms
    assert bars["NumPy"] == pytest.approx(10.0) and bars["Numba"] == pytest.approx(4.0)
    assert bars["gpuoff, no boundscheck"] == pytest.approx(0.8)
    assert "C/OpenMP" not in bars  # the slower variant is not a bar of its own
    assert plot.comparisons(_rows()[2])["OpenCL C (fastest variant)"] == pytest.approx(0.9)


def test_title_names_machine_and_quick() -> None:
    assert plot.title_of(INFO).startswith("gpuoff bench: AMD EPYC, 2 cores")
    assert "--quick" in plot.title_of(INFO)
    assert "--quick" not in plot.title_of({**INFO, "quick": False})
    assert "(1 usable)" in plot.title_of({"machine": {"cpu_model": "x", "cores": 2,
                                                      "usable_cores": 1}})  # fmt: skip


def test_one_log_panel_per_device_with_parity_and_values() -> None:
    fig = plot.build_figure(_rows(), INFO)
    try:
        axes = fig.axes
        assert [ax.get_title(loc="left") for ax in axes] == ["cpu", "opencl:0"]
        for ax in axes:
            assert ax.get_yscale() == "log"
            labels = ax.get_legend_handles_labels()[1]
            assert any(label.startswith("parity (1.0x)") for label in labels)
            assert any(line.get_ydata()[0] == 1.0 for line in ax.get_lines())
        values = {t.get_text() for t in axes[0].texts}
        assert {"0.50", "10.00", "4.00", "0.80", "1.00"} <= values  # every bar carries its value
        ticks = [t.get_text() for t in axes[0].get_xticklabels()]
        assert ticks == ["black_scholes\n2^22", "saxpy\n2^24"]  # name over size
        assert "AMD EPYC" in fig._suptitle.get_text()
    finally:
        plot.require_matplotlib().close(fig)


def test_plot_writes_png(tmp_path: Path) -> None:
    out = tmp_path / "p.png"
    plot.write_plot(_rows(), str(out), INFO)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_without_matplotlib_is_a_clear_message(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("matplotlib", "matplotlib.pyplot"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails as if not installed
    with pytest.raises(plot.PlotUnavailable, match="pip install matplotlib"):
        plot.require_matplotlib()
