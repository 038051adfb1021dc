"""Figures of batch results (matplotlib, drawn without pyplot on the Agg canvas).

- :func:`winrate_figure`: win rate against node budget (log x), one colour per
  group (suit count and rule variant): the lower bound ``won / N`` as a solid
  step line with its Wilson 95% band, and the upper bound ``1 - lost / N``
  dashed, each group's dashes in their own phase (so that bounds on top of
  each other at 100% stay visible). Two lines per group; the legend names
  each group once (solid line) and the dashed style once; the x axis runs
  from the first budget drawn to the largest node limit. A group with fewer
  than 1/20 of the largest group's results (an escalation rung of a few
  deals beside hundreds) is not drawn; the legend counts them.
- :func:`nodes_figure`: the distribution of nodes per won deal (log bins),
  one step histogram per group.
- :func:`lines_figure`: the distributions of line length and final score of
  the won deals, one step histogram per group in each of two panels.

``save_plots(frame, "winrates.png")`` writes the first figure there and the
second beside it as ``winrates-nodes.png``, in the format the extension
names (``.png``, ``.svg`` or ``.pdf``), each atomically.
"""

from __future__ import annotations

import io
import math
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator

from ..board import plural
from ..errors import SpiderError
from ..files import write_all_asked
from .winrates import curve, group_keys, grouped

PLOT_BY = ("source", "suits", "rules")
# The win-rate figure leaves out a group with fewer than 1/SMALL_SHARE of the
# largest group's results.
SMALL_SHARE = 20
FORMATS = ("png", "svg", "pdf")


def _label(labels: dict, keys: list[str], many_limits: bool, many_sources: bool) -> str:
    parts = []
    if "source" in labels and (many_sources or labels["source"] != "code"):
        parts.append(str(labels["source"]))
    if "suits" in labels:
        parts.append(f"{labels['suits']} suit{'s' if labels['suits'] != 1 else ''}")
    if "rules" in labels:
        parts.append(str(labels["rules"]))
    for k in keys:
        if k not in ("source", "suits", "rules", "node_limit"):
            parts.append(f"{k} {labels[k]}")
    if many_limits:
        parts.append(f"limit {labels['node_limit']:,}")
    return ", ".join(parts) or "all deals"


def _labelled_groups(frame: pd.DataFrame, by):
    keys, groups = grouped(frame, by)
    many_limits = frame["node_limit"].nunique() > 1 if not frame.empty else False
    many_sources = frame["source"].nunique() > 1 if not frame.empty else False
    return [(_label(labels, keys, many_limits, many_sources), rows) for labels, rows in groups]


def _title(frame: pd.DataFrame, what: str) -> str:
    limits = sorted(int(x) for x in frame["node_limit"].unique()) if not frame.empty else []
    budget = " / ".join(f"{x:,}" for x in limits) or "-"
    return f"{what}\n{len(frame):,} results, node budget {budget}"


def _new_figure(**kwargs) -> Figure:
    fig = Figure(**kwargs)
    FigureCanvasAgg(fig)
    return fig


def _first_budget(frame: pd.DataFrame) -> int:
    """A round budget below every decided deal, where all curves start."""
    decided = frame.loc[frame["verdict"].isin(["won", "lost"]), "nodes"].astype("int64")
    candidates = [max(1, int(frame["node_limit"].min()) // 10)]
    if len(decided):
        candidates.append(int(decided.min()))
    low = min(candidates)
    return int(10 ** math.floor(math.log10(max(1, low))))


def winrate_figure(frame: pd.DataFrame, by=PLOT_BY) -> Figure:
    """Win rate against node budget: lower bound with Wilson band, and upper bound."""
    fig = _new_figure(figsize=(8, 5), layout="constrained")
    ax = fig.add_subplot()
    start = _first_budget(frame) if not frame.empty else 1
    groups = _labelled_groups(frame, by)
    # The upper bounds are often all at 100%: each group's dashes get their
    # own phase of a common period, so that lines on top of each other
    # show every colour in turn instead of the last one drawn.
    # Groups of a few deals (one-deal escalation rungs beside a set of hundreds)
    # would cover the figure with their wide bands: they are left out and
    # counted in the legend (the table lists them). Colours stay as in the
    # nodes figure.
    largest = max((len(rows) for _label, rows in groups), default=0)
    drawn = [
        (i, label, rows)
        for i, (label, rows) in enumerate(groups)
        if len(rows) * SMALL_SHARE >= largest
    ]
    dash, period = 4.0, 4.0 * max(2, len(drawn))
    right = start
    for phase, (i, label, rows) in enumerate(drawn):
        points = curve(rows, [start])
        colour = f"C{i % 10}"
        x = points["budget"].to_numpy()
        right = max(right, int(x.max()))
        ax.fill_between(
            x,
            points["win_low_ci_low"],
            points["win_low_ci_high"],
            step="post",
            color=colour,
            alpha=0.15,
            linewidth=0,
        )
        ax.step(x, points["win_low"], where="post", color=colour, label=f"{label} (N={len(rows)})")
        ax.step(
            x,
            points["win_high"],
            where="post",
            color=colour,
            linestyle=(dash * phase, (dash, period - dash)),
        )
    ax.set_xscale("log")
    if groups:
        ax.set_xlim(start, right)  # where the data start and end
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("node budget (positions expanded, log scale)")
    ax.set_ylabel("win rate")
    ax.yaxis.set_major_formatter(lambda y, _pos: f"{100 * y:.0f}%")
    ax.grid(True, which="major", alpha=0.3)
    ax.set_title(
        _title(
            frame,
            "Win rate within a node budget: solid won/N with Wilson 95% band, dashed 1 - lost/N",
        ),
        fontsize="medium",
    )
    if ax.get_lines():
        handles, labels = ax.get_legend_handles_labels()
        handles.append(Line2D([], [], color="0.4", linestyle="--"))
        labels.append("dashed: 1 - lost/N, the upper bound (same colours)")
        if len(drawn) < len(groups):
            deals = sum(len(rows) for _label, rows in groups) - sum(len(g[2]) for g in drawn)
            handles.append(Line2D([], [], linestyle="none"))
            labels.append(
                f"not drawn: {plural(len(groups) - len(drawn), 'group')} of "
                f"{deals:,} result{'s' if deals != 1 else ''} in all, each under "
                f"1/{SMALL_SHARE} of the largest (see the table)"
            )
        ax.legend(handles, labels, fontsize="small", loc="best")
    return fig


def _log_bins(values: np.ndarray, n: int = 30) -> np.ndarray:
    low = max(1.0, float(values.min()))
    high = max(low * 1.01, float(values.max()))
    return np.geomspace(low, high * 1.0001, n + 1)


def nodes_figure(frame: pd.DataFrame, by=PLOT_BY) -> Figure:
    """Histogram of the nodes each won deal needed, one step line per group."""
    fig = _new_figure(figsize=(8, 5), layout="constrained")
    ax = fig.add_subplot()
    won = frame[frame["verdict"] == "won"]
    bins = _log_bins(won["nodes"].astype("float64").to_numpy()) if len(won) else None
    for i, (label, rows) in enumerate(_labelled_groups(frame, by)):
        values = rows.loc[rows["verdict"] == "won", "nodes"].astype("float64").to_numpy()
        if len(values):
            ax.hist(
                values,
                bins=bins,
                histtype="step",
                color=f"C{i % 10}",
                linewidth=1.5,
                label=f"{label}: {len(values)} won of {len(rows)}",
            )
    ax.set_xscale("log")
    ax.set_xlabel("nodes to win (positions expanded, log scale)")
    ax.set_ylabel("won deals")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(_title(frame, f"Nodes per won deal ({len(won):,} won)"))
    if ax.patches:
        ax.legend(fontsize="small", loc="best")
    return fig


def lines_figure(frame: pd.DataFrame, by=PLOT_BY) -> Figure:
    """Two panels: line length and final score of the won deals, per group."""
    fig = _new_figure(figsize=(11, 4.5), layout="constrained")
    axes = fig.subplots(1, 2)
    won = frame[frame["verdict"] == "won"]
    for ax, column, xlabel in (
        (axes[0], "moves", "line length (moves, deals included)"),
        (axes[1], "score", "final score"),
    ):
        values_all = won[column].astype("float64").to_numpy()
        bins = (
            np.histogram_bin_edges(values_all, bins=min(30, max(1, len(values_all))))
            if len(values_all)
            else None
        )
        for i, (label, rows) in enumerate(_labelled_groups(frame, by)):
            values = rows.loc[rows["verdict"] == "won", column].astype("float64").to_numpy()
            if len(values):
                ax.hist(
                    values,
                    bins=bins,
                    histtype="step",
                    color=f"C{i % 10}",
                    linewidth=1.5,
                    label=f"{label} ({len(values)} won)",
                )
        ax.set_xlabel(xlabel)
        ax.set_ylabel("won deals")
        if ax.patches:
            ax.legend(fontsize="small", loc="best")
    fig.suptitle(_title(frame, f"Winning lines ({len(won):,} won)"))
    return fig


def figure_png(fig: Figure, dpi: int = 110) -> bytes:
    """The figure as PNG bytes (for ``IPython.display.Image(data=...)``)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, dpi=dpi, format="png")
    return buffer.getvalue()


def nodes_path(path) -> Path:
    """Where the second figure goes: ``FILE-nodes.png`` beside ``FILE.png``."""
    path = Path(path)
    return path.with_name(f"{path.stem}-nodes{path.suffix or '.png'}")


# the metadata that would date a figure, left out so that a plot is reproducible
UNDATED = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}


def plot_format(path) -> str:
    """``png``, ``svg`` or ``pdf`` from the file name's extension (none: png)."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if not suffix:
        return "png"
    if suffix not in FORMATS:
        raise SpiderError(
            f"--plot: '{path}': the extension must be .png, .svg or .pdf, not .{suffix}"
        )
    return suffix


def save_plots(frame: pd.DataFrame, path, by=PLOT_BY) -> list[Path]:
    """Write the win-rate figure to ``path`` and the nodes figure beside it.

    The format is the one the extension names; both files are written to
    temporary files first and then renamed together (``write_all_asked``), so
    a failure or Ctrl-C leaves both old files or both new ones. The same
    rows give the same bytes in every format: no date is written (SVG, PDF)
    and the SVG's element ids come from a fixed salt.
    """
    path = Path(path)
    fmt = plot_format(path)
    group_keys(by)  # checks the names before drawing anything

    def save(fig, handle):
        with rc_context({"svg.hashsalt": "spidersolve"}):
            fig.savefig(handle, dpi=110, format=fmt, metadata=UNDATED.get(fmt))

    return write_all_asked(
        [
            (target, lambda handle, fig=fig: save(fig, handle))
            for fig, target in (
                (winrate_figure(frame, by), path),
                (nodes_figure(frame, by), nodes_path(path)),
            )
        ]
    )
