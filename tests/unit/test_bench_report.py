"""Table, JSON and plot output of ``gpuoff bench``."""

from __future__ import annotations

import json

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


def test_markdown_and_json_round_trip() -> None:
    rows = _rows() + _variant_rows()
    back = report.rows_from_json(report.to_json(rows))
    assert report.table_lines(back) == report.table_lines(rows)
    assert [r.twin for r in back] == [r.twin for r in rows]
    md = report.markdown_table(back).splitlines()
    assert md[0].startswith("| kernel |") and len(md) == 2 + len(rows)
    assert "C/OpenMP 4.4 ms (0.98x); NumPy 20 ms (4.44x)" in md[2]
    bs = next(line for line in md if line.startswith("| black_scholes_gridstride"))
    assert "| 1 ms (0.80x) |" in bs  # the unchecked run: 1 ms against 1.25 ms checked
    assert "C/OpenMP+libmvec * 500 us (0.40x)" in bs


def _t(seconds: float) -> Timing:
    return Timing(seconds, (seconds,) * 5)


def _variant_rows() -> list[Row]:
    """Two C variants (the fastest is the one to judge against), an unchecked run, twins."""
    bases = {"C/OpenMP": _t(20e-3), "C/OpenMP+libmvec": _t(0.5e-3), "NumPy": _t(2.5e-3)}
    return [
        Row("black_scholes", "2^22", "cpu", "options/s", 2.0**22, _t(1e-3), bases, "",
            _t(0.9e-3)),
        Row("black_scholes_gridstride", "2^22", "cpu", "options/s", 2.0**22, _t(1.25e-3),
            dict(bases), "", _t(1e-3), "black_scholes"),
    ]  # fmt: skip


def test_fastest_c_variant_is_marked_and_unchecked_run_shown() -> None:
    lines = report.table_lines(_variant_rows())
    assert any("C/OpenMP+libmvec *" in line and line.endswith("0.50x") for line in lines)
    assert not any(line.split()[:1] == ["C/OpenMP"] and "*" in line for line in lines)
    unchecked = [line for line in lines if report.UNCHECKED_LABEL in line]
    assert len(unchecked) == 2 and unchecked[0].endswith("0.90x")
    # a lone variant is not marked: nothing to choose from
    assert not any("*" in line for line in report.table_lines(_rows()))


def test_json_records_best_variant_safety_price_and_twins() -> None:
    rows = _variant_rows()
    doc = json.loads(report.to_json(rows, [], {"machine": {"cores": 2}, "quick": True}))
    first, second = doc["rows"]
    assert first["best"] == {"C": {"name": "C/OpenMP+libmvec", "ratio": pytest.approx(0.5)}}
    assert first["boundscheck_cost"] == pytest.approx(1.0 / 0.9)
    assert first["unchecked"]["time_s"] == pytest.approx(0.9e-3)
    assert second["twin"] == "black_scholes"
    assert doc["twins"] == [{"kernel": "black_scholes_gridstride", "twin": "black_scholes",
                             "device": "cpu", "ratio": pytest.approx(0.8)}]  # fmt: skip
    assert doc["quick"] is True and doc["machine"] == {"cores": 2}


def test_table_reports_twins_machine_and_peers() -> None:
    info = {"machine": {"cpu_model": "Zen 5", "cores": 2, "usable_cores": 2,
                        "omp_num_threads": "2", "gpuoff": "0.1", "python": "3.11"},
            "quick": True,
            "peers": {"Numba": {"version": "0.68"}, "Warp": {"error": "Warp is not installed"}}}
    text = report.render_table(_variant_rows(), ["x: y"], info)
    lines = text.splitlines()
    assert lines[0].startswith("machine: Zen 5, 2 cores (2 usable)") and "--quick" in lines[0]
    assert lines[1] == "peers: Numba 0.68; Warp: Warp is not installed"
    assert ("twin: black_scholes_gridstride vs black_scholes on cpu: 0.80x "
            "(black_scholes's gpuoff time / black_scholes_gridstride's)") in lines
    assert lines[-1] == "skipped: x: y"


def test_twins_pair_only_on_the_same_device() -> None:
    rows = _variant_rows()
    rows[0] = Row(**{**rows[0].__dict__, "device": "opencl:0"})
    assert report.twin_ratios(rows) == []


def test_machine_info_names_the_processor() -> None:
    info = report.machine_info()
    assert isinstance(info["cpu_model"], str) and info["cpu_model"]
    assert info["usable_cores"] >= 1 and info["cores"] >= info["usable_cores"]


def test_run_info_lists_peers_only_with_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpuoff.bench import peers

    monkeypatch.setattr(peers, "peer_status", lambda: {"Numba": {"version": "9"}})
    assert report.run_info(["cpu"], True)["peers"] == {"Numba": {"version": "9"}}
    assert "peers" not in report.run_info(["opencl:0"], False)
    assert report.run_info(["opencl:0"], False)["machine"]["omp_num_threads"] is not None
