"""Text of the stats tables: percentages, counts, seconds, aligned columns."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd


def plain(value):
    """numpy scalars to Python ones, for JSON."""
    if isinstance(value, np.generic):
        return value.item()
    if value is pd.NA:
        return None
    return value


def pct(x: float) -> str:
    """``0.875`` -> ``87.5%``; a missing value is ``-``."""
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def count_text(x: float) -> str:
    """A node count: ``1,177``, or ``29k`` from 10,000 on; a missing value is ``-``."""
    if x is None or math.isnan(x):
        return "-"
    if x >= 10_000:
        return f"{x / 1000:,.0f}k"
    return f"{x:,.0f}"


def interval(record: dict, name: str) -> str:
    """The 95% interval of ``name`` in a record, as ``LOW - HIGH`` percentages."""
    return f"{pct(record[name + '_ci_low'])} - {pct(record[name + '_ci_high'])}"


def secs(x: float) -> str:
    """Seconds to two decimals; a missing value is ``-``."""
    return "-" if x is None or math.isnan(x) else f"{x:.2f}"


def align(header: list[str], rows: list[list[str]], left: int) -> str:
    """A text table: the header, a rule, the rows; the first ``left`` columns to the left."""
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)
    ]

    def line(cells):
        return "  ".join(
            c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))
        ).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in rows])
