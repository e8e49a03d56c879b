"""Output of the benchmark suite: a text table and JSON (the plot: ``plot``)."""

from __future__ import annotations

import json
import os
import platform
import sys
from collections.abc import Sequence
from typing import Any

from gpuoff.bench.harness import Row, Timing, family_of

HEADER = ("kernel", "size", "device", "impl", "time", "rate", "ratio")


def format_time(seconds: float) -> str:
    """``4.52 ms``, ``3.1 us``: three significant digits in a readable unit."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def format_rate(row: Row, timing: Timing) -> str:
    """Throughput in the row's unit (``44.1 GB/s``, ``512 M options/s``) or ``""``."""
    rate = row.rate(timing)
    if rate is None:
        return ""
    if row.unit in ("options/s", "interactions/s"):
        return f"{rate / 1e6:.4g} M {row.unit}"
    return f"{rate:.4g} {row.unit}"


UNCHECKED_LABEL = "no boundscheck"
"""The table's name for gpuoff compiled with ``boundscheck=False`` (its ratio: the price of
the checks, as unchecked time / checked time)."""
BEST_MARK = " *"


def _best_names(row: Row) -> set[str]:
    """The fastest variant of each baseline family that has more than one (marked ``*``)."""
    out = set()
    for fam in row.families():
        members = [n for n in row.baselines if family_of(n) == fam]
        best = row.best(fam)
        if len(members) > 1 and best is not None:
            out.add(best)
    return out


def _row_cells(row: Row) -> list[tuple[str, ...]]:
    cells: list[tuple[str, ...]] = [
        (row.kernel, row.size, row.device, "gpuoff", format_time(row.gpuoff.median),
         format_rate(row, row.gpuoff), ""),
    ]  # fmt: skip
    if row.unchecked is not None:
        cost = row.boundscheck_cost()
        cells.append(("", "", "", UNCHECKED_LABEL, format_time(row.unchecked.median),
                      format_rate(row, row.unchecked),
                      "" if cost is None else f"{1.0 / cost:.2f}x"))  # fmt: skip
    best = _best_names(row)
    for name, timing in row.baselines.items():
        label = name + (BEST_MARK if name in best else "")
        cells.append(("", "", "", label, format_time(timing.median), format_rate(row, timing),
                      f"{row.ratio(name):.2f}x"))  # fmt: skip
    return cells


def table_lines(rows: Sequence[Row]) -> list[str]:
    """One line for gpuoff, one for gpuoff without bounds checks and one per baseline, for
    each row; ratio = that implementation's time / gpuoff's."""
    body = [cells for row in rows for cells in _row_cells(row)]
    widths = [max(len(r[c]) for r in [HEADER, *body]) for c in range(len(HEADER))]

    def fmt(cells: tuple[str, ...]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    lines = [fmt(HEADER), fmt(tuple("-" * w for w in widths))]
    lines.extend(fmt(r) for r in body)
    return lines


def twin_ratios(rows: Sequence[Row]) -> list[tuple[Row, Row, float]]:
    """(row, its twin's row on the same device, twin's gpuoff time / row's gpuoff time) for
    every row whose twin ran too: 1.0 = both forms equally fast, below 1: this form slower."""
    by_key = {(r.kernel, r.device): r for r in rows}
    out = []
    for r in rows:
        other = by_key.get((r.twin, r.device)) if r.twin else None
        if other is not None and r.gpuoff.median > 0:
            out.append((r, other, other.gpuoff.median / r.gpuoff.median))
    return out


def markdown_table(rows: Sequence[Row]) -> str:
    """The rows as a Markdown table (for docs): one line per row, baselines in one cell."""
    lines = ["| kernel | size | device | gpuoff | rate | no boundscheck | "
             "baselines: time (ratio) |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        best = _best_names(r)
        base = "; ".join(f"{name}{BEST_MARK if name in best else ''} "
                         f"{format_time(t.median)} ({r.ratio(name):.2f}x)"
                         for name, t in r.baselines.items())  # fmt: skip
        cost = r.boundscheck_cost()
        raw = "" if r.unchecked is None or cost is None else \
            f"{format_time(r.unchecked.median)} ({1.0 / cost:.2f}x)"
        lines.append(f"| {r.kernel} | {r.size} | {r.device} | {format_time(r.gpuoff.median)} | "
                     f"{format_rate(r, r.gpuoff)} | {raw} | {base} |")  # fmt: skip
    return "\n".join(lines)


def rows_from_json(text: str) -> list[Row]:
    """Rows back from ``to_json`` output (to re-render saved results)."""
    doc = json.loads(text)
    rows = []
    for r in doc["rows"]:
        gp = Timing(r["gpuoff_s"], tuple(r["gpuoff_samples_s"]))
        bases = {n: Timing(b["time_s"], tuple(b["samples_s"])) for n, b in r["baselines"].items()}
        raw = r.get("unchecked")
        unchecked = None if raw is None else Timing(raw["time_s"], tuple(raw["samples_s"]))
        rows.append(Row(r["kernel"], r["size"], r["device"], r["unit"], r.get("work", 0.0), gp,
                        bases, r.get("note", ""), unchecked, r.get("twin", "")))  # fmt: skip
    return rows


def render_table(rows: Sequence[Row], skipped: Sequence[str] = (),
                 info: dict[str, Any] | None = None) -> str:  # fmt: skip
    """The table as text: where it ran (``info``: ``run_info``), the rows, a legend, the twins'
    ratios, the peers that could not run, and the skipped cases."""
    out = [] if info is None else header_lines(info)
    if not rows:
        out.append("no benchmark ran")
    else:
        out.extend(table_lines(rows))
        out.append("")
        out.append("time: median per run (per launch for 'launch'); "
                   "ratio = that implementation's time / gpuoff's (> 1: gpuoff faster)")
        out.append(f"{UNCHECKED_LABEL}: gpuoff with boundscheck=False (its ratio below 1: "
                   "what the checks cost); *: the fastest C variant, the one to judge against")
        for row, twin, ratio in twin_ratios(rows):
            out.append(f"twin: {row.kernel} vs {twin.kernel} on {row.device}: {ratio:.2f}x "
                       f"({twin.kernel}'s gpuoff time / {row.kernel}'s)")
    out.extend(f"skipped: {s}" for s in skipped)
    return "\n".join(out)


def header_lines(info: dict[str, Any]) -> list[str]:
    """Where and how the figures were measured, and which peers could run."""
    m = info.get("machine", {})
    lines = [f"machine: {m.get('cpu_model')}, {m.get('cores')} cores ({m.get('usable_cores')} "
             f"usable), OpenMP threads {m.get('omp_num_threads')}; gpuoff {m.get('gpuoff')}, "
             f"Python {m.get('python')}" + ("; --quick sizes" if info.get("quick") else "")]
    peers = info.get("peers") or {}
    if peers:
        parts = [f"{name} {p['version']}" if "version" in p else f"{name}: {p['error']}"
                 for name, p in peers.items()]  # fmt: skip
        lines.append("peers: " + "; ".join(parts))
    lines.append("")
    return lines


def cpu_model() -> str:
    """The processor's marketing name (``/proc/cpuinfo``, ``sysctl`` on macOS), else the
    architecture: ``platform.processor()`` is empty on most Linux systems."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    if sys.platform == "darwin":
        try:
            import subprocess

            return subprocess.run(["sysctl", "-n", "machdep.cpu.brand_string"],
                                  capture_output=True, text=True, check=True,
                                  timeout=5).stdout.strip()  # fmt: skip
        except (OSError, subprocess.SubprocessError):
            pass
    return platform.processor() or platform.machine()


def machine_info() -> dict[str, Any]:
    """Where the figures were measured."""
    import gpuoff

    usable: int | None
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = os.cpu_count()
    return {
        "gpuoff": gpuoff.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpu_model": cpu_model(),
        "processor": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "omp_num_threads": os.environ.get("OMP_NUM_THREADS"),
    }


def run_info(devices: Sequence[str], quick: bool) -> dict[str, Any]:
    """The run's context for the table header, the JSON and the plot: machine, devices,
    ``--quick``, and the peers' versions or why they cannot run (only with ``cpu``, the one
    device they run on; importing them takes seconds)."""
    from gpuoff.bench.cbuild import set_openmp_threads

    set_openmp_threads()  # what the C baselines will use, recorded with the machine
    info: dict[str, Any] = {"machine": machine_info(), "devices": list(devices), "quick": quick}
    if any(d.split(":", 1)[0] == "cpu" for d in devices):
        from gpuoff.bench.peers import peer_status

        info["peers"] = peer_status()
    return info


def to_json(rows: Sequence[Row], skipped: Sequence[str] = (),
            info: dict[str, Any] | None = None) -> str:  # fmt: skip
    """The results as a JSON document (times in seconds): ``machine``, ``quick``, ``devices``
    and ``peers`` from ``info``, every row, the twins' ratios and what was skipped."""
    base = dict(info) if info is not None else {"machine": machine_info()}
    doc = {
        **base,
        "rows": [r.to_json() for r in rows],
        "twins": [{"kernel": r.kernel, "twin": t.kernel, "device": r.device, "ratio": ratio}
                  for r, t, ratio in twin_ratios(rows)],  # fmt: skip
        "skipped": list(skipped),
    }
    return json.dumps(doc, indent=2)
