"""Output of the benchmark suite: a text table, JSON, and an optional plot (matplotlib)."""

from __future__ import annotations

import importlib
import json
import os
import platform
from collections.abc import Sequence
from typing import Any

from gpuoff.bench.harness import Row, Timing

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


def table_lines(rows: Sequence[Row]) -> list[str]:
    """One line for gpuoff and one per baseline, for each row; ratio = baseline / gpuoff."""
    body: list[tuple[str, ...]] = []
    for row in rows:
        body.append((row.kernel, row.size, row.device, "gpuoff", format_time(row.gpuoff.median),
                     format_rate(row, row.gpuoff), ""))  # fmt: skip
        for name, timing in row.baselines.items():
            body.append(("", "", "", name, format_time(timing.median), format_rate(row, timing),
                         f"{row.ratio(name):.2f}x"))  # fmt: skip
    widths = [max(len(r[c]) for r in [HEADER, *body]) for c in range(len(HEADER))]

    def fmt(cells: tuple[str, ...]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    lines = [fmt(HEADER), fmt(tuple("-" * w for w in widths))]
    lines.extend(fmt(r) for r in body)
    return lines


def markdown_table(rows: Sequence[Row]) -> str:
    """The rows as a Markdown table (for docs): one line per row, baselines in one cell."""
    lines = ["| kernel | size | device | gpuoff | rate | baselines: time (ratio) |",
             "| --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for r in rows:
        base = "; ".join(f"{name} {format_time(t.median)} ({r.ratio(name):.2f}x)"
                         for name, t in r.baselines.items())  # fmt: skip
        lines.append(f"| {r.kernel} | {r.size} | {r.device} | {format_time(r.gpuoff.median)} | "
                     f"{format_rate(r, r.gpuoff)} | {base} |")  # fmt: skip
    return "\n".join(lines)


def rows_from_json(text: str) -> list[Row]:
    """Rows back from ``to_json`` output (to re-render saved results)."""
    doc = json.loads(text)
    rows = []
    for r in doc["rows"]:
        gp = Timing(r["gpuoff_s"], tuple(r["gpuoff_samples_s"]))
        bases = {n: Timing(b["time_s"], tuple(b["samples_s"])) for n, b in r["baselines"].items()}
        rows.append(Row(r["kernel"], r["size"], r["device"], r["unit"], r.get("work", 0.0), gp,
                        bases, r.get("note", "")))  # fmt: skip
    return rows


def render_table(rows: Sequence[Row], skipped: Sequence[str] = ()) -> str:
    """The table as text, with a legend and the skipped cases at the end."""
    if not rows:
        out = ["no benchmark ran"]
    else:
        out = table_lines(rows)
        out.append("")
        out.append("time: median per run (per launch for 'launch'); "
                   "ratio = baseline time / gpuoff time (> 1: gpuoff faster)")  # fmt: skip
    out.extend(f"skipped: {s}" for s in skipped)
    return "\n".join(out)


def machine_info() -> dict[str, Any]:
    """Where the figures were measured."""
    import gpuoff

    return {
        "gpuoff": gpuoff.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "processor": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "omp_num_threads": os.environ.get("OMP_NUM_THREADS"),
    }


def to_json(rows: Sequence[Row], skipped: Sequence[str] = ()) -> str:
    """The results as a JSON document (times in seconds)."""
    doc = {"machine": machine_info(), "rows": [r.to_json() for r in rows], "skipped": list(skipped)}
    return json.dumps(doc, indent=2)


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed; the message says how to get it."""


def write_plot(rows: Sequence[Row], path: str) -> None:
    """A bar chart of every ratio (baseline / gpuoff), one group per row, into ``path``."""
    try:
        # import_module: matplotlib is optional and untyped here; Any is what we get anyway.
        matplotlib: Any = importlib.import_module("matplotlib")
        matplotlib.use("Agg")
        plt: Any = importlib.import_module("matplotlib.pyplot")
    except ImportError as e:
        raise PlotUnavailable(
            "--plot needs matplotlib, which is not installed: pip install matplotlib"
        ) from e
    names = sorted({b for r in rows for b in r.baselines})
    labels = [f"{r.kernel}\n{r.device}" for r in rows]
    width = 0.8 / max(len(names), 1)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.4 * len(rows)), 4.0))
    for k, name in enumerate(names):
        xs = [i + k * width for i, r in enumerate(rows) if name in r.baselines]
        ys = [r.ratio(name) for r in rows if name in r.baselines]
        ax.bar(xs, ys, width, label=name)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(rows))], labels, fontsize=8)
    ax.set_ylabel("baseline time / gpuoff time")
    ax.set_title("gpuoff bench (higher is better for gpuoff)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
