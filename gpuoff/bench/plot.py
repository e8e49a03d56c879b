"""``gpuoff bench --plot FILE.png``: the ratios as bar charts people can read (matplotlib).

One panel per device, one group of bars per kernel, one bar per comparison: the fastest
variant of each hand-written baseline family (``C``, ``OpenCL C``, ...), NumPy and the peers,
and gpuoff without bounds checks. The ratio axis is logarithmic (0.1x and 10x are as far from
parity), parity is a labelled line, each bar carries its value, and the title says where the
figures were measured (CPU model, cores) and whether ``--quick`` sizes were used.
"""

from __future__ import annotations

import importlib
import textwrap
from collections.abc import Sequence
from typing import Any

from gpuoff.bench.harness import Row, family_of
from gpuoff.bench.report import UNCHECKED_LABEL


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed; the message says how to get it."""


def require_matplotlib() -> Any:
    """``matplotlib.pyplot`` (Agg backend), or PlotUnavailable: the CLI calls this before a
    long run, so that a missing matplotlib is said at once and not after the measurements."""
    try:
        # import_module: matplotlib is optional and untyped here; Any is what we get anyway.
        matplotlib: Any = importlib.import_module("matplotlib")
        matplotlib.use("Agg")
        return importlib.import_module("matplotlib.pyplot")
    except ImportError as e:
        raise PlotUnavailable(
            "--plot needs matplotlib, which is not installed: pip install matplotlib "
            "(or pip install 'gpuoff[bench]')"
        ) from e


def comparisons(row: Row) -> dict[str, float]:
    """Bar label -> ratio (that implementation's time / gpuoff's) for one row: the fastest
    variant of each family (``"C (fastest variant)"``; the table names it), every other
    baseline, and gpuoff without bounds checks."""
    out: dict[str, float] = {}
    for fam in row.families():
        best = row.best(fam)
        if best is not None:
            out[f"{fam} (fastest variant)"] = row.ratio(best)
    for name in row.baselines:
        if family_of(name) is None:
            out[name] = row.ratio(name)
    cost = row.boundscheck_cost()
    if cost is not None:
        out[f"gpuoff, {UNCHECKED_LABEL}"] = 1.0 / cost
    return out


def tick_label(row: Row) -> str:
    """The kernel's name over its size, the size wrapped so that neighbours do not overlap."""
    return row.kernel + "\n" + textwrap.fill(row.size, width=18)


def title_of(info: dict[str, Any] | None) -> str:
    """``gpuoff bench: AMD EPYC, 2 cores (--quick sizes)``."""
    if not info:
        return "gpuoff bench"
    m = info.get("machine", {})
    text = f"gpuoff bench: {m.get('cpu_model', '?')}, {m.get('cores', '?')} cores"
    if m.get("usable_cores") not in (None, m.get("cores")):
        text += f" ({m['usable_cores']} usable)"
    if info.get("quick"):
        text += " (--quick sizes: small inputs, fewer runs)"
    return text


def write_plot(rows: Sequence[Row], path: str, info: dict[str, Any] | None = None) -> None:
    """Write the chart of ``rows`` to ``path`` (any format matplotlib knows by extension)."""
    plt = require_matplotlib()
    fig = build_figure(rows, info)
    fig.savefig(path, dpi=130)
    plt.close(fig)


def build_figure(rows: Sequence[Row], info: dict[str, Any] | None = None) -> Any:
    """The matplotlib figure of ``rows``: one panel (axes) per device, in the rows' order."""
    plt = require_matplotlib()
    devices = list(dict.fromkeys(r.device for r in rows)) or ["(no rows)"]
    labels = list(dict.fromkeys(label for r in rows for label in comparisons(r)))
    colours = {name: plt.get_cmap("tab10")(k % 10) for k, name in enumerate(labels)}
    widest = max((sum(1 for r in rows if r.device == d) for d in devices), default=1)
    fig, axes = plt.subplots(len(devices), 1, squeeze=False,
                             figsize=(max(8.0, 1.5 * widest + 4.0), 4.2 * len(devices)))
    for ax, device in zip(axes[:, 0], devices, strict=True):
        _panel(ax, [r for r in rows if r.device == device], device, colours)
    fig.suptitle(title_of(info), fontsize=10)
    fig.tight_layout()
    return fig


def _panel(ax: Any, rows: list[Row], device: str, colours: dict[str, Any]) -> None:
    """One device: a group of bars per kernel on a log ratio axis, parity labelled."""
    ratios: list[float] = []
    for i, row in enumerate(rows):
        bars = comparisons(row)
        width = 0.8 / max(len(bars), 1)
        for k, (label, ratio) in enumerate(bars.items()):
            x = i - 0.4 + width * (k + 0.5)
            hatch = "//" if label.startswith("gpuoff,") else None
            drawn = ax.bar([x], [ratio], width, color=colours[label], hatch=hatch,
                           label=label, edgecolor="black", linewidth=0.3)  # fmt: skip
            ax.bar_label(drawn, labels=[f"{ratio:.2f}"], fontsize=6, rotation=90, padding=2)
            ratios.append(ratio)
    ax.set_yscale("log")
    low = min(ratios, default=1.0)
    high = max(ratios, default=1.0)
    ax.set_ylim(min(low, 1.0) / 2.0, max(high, 1.0) * 3.0)  # room for the values above bars
    ax.axhline(1.0, color="black", linewidth=1.0, linestyle="--",
               label="parity (1.0x): above it, gpuoff is faster")  # fmt: skip
    ticker: Any = importlib.import_module("matplotlib.ticker")
    as_ratio = ticker.FuncFormatter(lambda v, _pos: f"{v:g}x")
    ax.yaxis.set_major_locator(ticker.LogLocator(base=10.0, subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(as_ratio)
    ax.yaxis.set_minor_formatter(ticker.NullFormatter())
    ax.set_xticks(range(len(rows)), [tick_label(r) for r in rows], fontsize=7)
    ax.set_xlim(-0.6, max(len(rows), 1) - 0.4)
    ax.set_ylabel("other's time / gpuoff's time")
    ax.set_title(device, fontsize=9, loc="left")
    handles, names = ax.get_legend_handles_labels()
    unique = dict(zip(names, handles, strict=True))
    if unique:
        ax.legend(unique.values(), unique.keys(), fontsize=7, loc="upper left",
                  bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)  # fmt: skip
