"""Win rates from per-deal rows: bounds, Wilson intervals and nested budgets.

A run at node limit L gives three counts per group of N deals. The win rate
is known only between two bounds: at least ``won / N`` and at most
``1 - lost / N``, each reported with its Wilson 95% interval (the upper
bound's is one minus the interval of ``lost / N``); the gap is the share
still unknown. The verdicts are never merged.

The solver's search order does not depend on the limit, so the rows of one
run also give the verdicts at every smaller budget B <= L: a deal is won
within B if it was won with at most B nodes, lost within B if its search was
exhausted with at most B nodes, and unknown otherwise.

>>> wilson_interval(87, 100)
(0.7901..., 0.9224...)
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..board import plural
from ..errors import SpiderError, comma_items
from .plan import Rung
from .schema import DEFAULT_SEARCH
from .text import align, count_text, interval, pct, plain, secs

Z95 = 1.959963984540054  # the 97.5% point of the standard normal
GROUP_COLUMNS = ("source", "suits", "rules", "node_limit", "search", "version")
DEFAULT_BY = ("source", "suits", "rules")
VERDICTS = ("won", "lost", "unknown")


def wilson_interval(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials (95% by default).

    >>> wilson_interval(0, 10)[0]
    0.0
    """
    if n <= 0:
        return (math.nan, math.nan)
    if not 0 <= k <= n:
        raise ValueError(f"wilson_interval: {k} successes in {n} trials is not 0 .. {n}")
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # At k = 0 and k = n the bound is exactly 0 or 1; rounding would leave 1e-17.
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return (low, high)


def by_columns(by) -> list[str]:
    """The grouping columns of ``by`` (``"suits,rules"`` or a list), each checked once."""
    names = comma_items(by) if isinstance(by, str) else [t.strip() for t in by if t.strip()]
    for name in names:
        if name not in GROUP_COLUMNS:
            raise SpiderError(f"'{name}' is not a column to group by ({', '.join(GROUP_COLUMNS)})")
    return list(dict.fromkeys(names))


def group_keys(by, frame: pd.DataFrame | None = None) -> list[str]:
    """Grouping columns; the node limit is always one (rows at two limits are two runs),
    and so is the search when some row of ``frame`` ran another than the default."""
    keys = by_columns(by)
    keys += [] if "node_limit" in keys else ["node_limit"]
    if "search" not in keys and other_searches(frame):
        keys.append("search")
    return keys


def other_searches(frame: pd.DataFrame | None) -> bool:
    """Whether some row ran a search configuration other than the default."""
    return (
        frame is not None
        and "search" in frame.columns
        and bool((frame["search"] != DEFAULT_SEARCH).any())
    )


def verdicts_within(frame: pd.DataFrame, budget: int) -> pd.Series:
    """Each row's verdict had the limit been ``budget`` (needs budget <= node_limit)."""
    if (frame["node_limit"] < budget).any():
        raise SpiderError(
            f"budget {budget} is above the node limit of some rows: "
            "their verdicts at that budget are not known"
        )
    nodes = frame["nodes"].astype("int64")
    out = pd.Series("unknown", index=frame.index, dtype=object)
    out[(frame["verdict"] == "won") & (nodes <= budget)] = "won"
    out[(frame["verdict"] == "lost") & (nodes <= budget)] = "lost"
    return out


# the keys of ``counts``, in its order
COUNT_COLUMNS = [
    "deals",
    "won",
    "lost",
    "unknown",
    "win_low",
    "win_low_ci_low",
    "win_low_ci_high",
    "win_high",
    "win_high_ci_low",
    "win_high_ci_high",
]


def counts(verdicts: pd.Series) -> dict:
    """Deals, won, lost, unknown and both bounds of the win rate with Wilson's interval."""
    n = int(len(verdicts))
    won = int((verdicts == "won").sum())
    lost = int((verdicts == "lost").sum())
    low, high = wilson_interval(won, n)
    lost_low, lost_high = wilson_interval(lost, n)
    return {
        "deals": n,
        "won": won,
        "lost": lost,
        "unknown": n - won - lost,
        "win_low": won / n if n else math.nan,
        "win_low_ci_low": low,
        "win_low_ci_high": high,
        "win_high": 1 - lost / n if n else math.nan,
        "win_high_ci_low": 1 - lost_high,
        "win_high_ci_high": 1 - lost_low,
    }


def grouped(frame: pd.DataFrame, by):
    """The grouping keys of ``by`` and ``(labels, rows)`` for each group, in order."""
    keys = group_keys(by, frame)
    if frame.empty:
        return keys, []
    return keys, [
        (dict(zip(keys, key if isinstance(key, tuple) else (key,))), rows)
        for key, rows in frame.groupby(keys, sort=True)
    ]


def summary(frame: pd.DataFrame, by=DEFAULT_BY) -> pd.DataFrame:
    """One row per group: counts, bounds, Wilson interval, median and p95 nodes and seconds.

    The node and second figures are over every deal of the group (a deal
    left unknown counts with the nodes it used, its limit).
    """
    keys, groups = grouped(frame, by)
    records = []
    for labels, rows in groups:
        record = {k: plain(v) for k, v in labels.items()}
        record.update(counts(rows["verdict"]))
        nodes = rows["nodes"].astype("float64")
        seconds = rows["seconds"].astype("float64")
        record.update(
            {
                "nodes_median": float(nodes.median()),
                "nodes_p95": float(nodes.quantile(0.95)),
                "seconds_median": float(seconds.median()),
                "seconds_p95": float(seconds.quantile(0.95)),
            }
        )
        records.append(record)
    columns = keys + [
        *COUNT_COLUMNS,
        "nodes_median",
        "nodes_p95",
        "seconds_median",
        "seconds_p95",
    ]
    return pd.DataFrame.from_records(records, columns=columns)


def budget_table(frame: pd.DataFrame, budgets, by=DEFAULT_BY) -> pd.DataFrame:
    """One row per group and budget (budgets above a group's limit are left out)."""
    keys, groups = grouped(frame, by)
    records = []
    for labels, rows in groups:
        limit = int(rows["node_limit"].min())
        for budget in budgets:
            if budget > limit:
                continue
            record = {k: plain(v) for k, v in labels.items()}
            record["budget"] = int(budget)
            record.update(counts(verdicts_within(rows, budget)))
            records.append(record)
    columns = keys + ["budget", *COUNT_COLUMNS]
    return pd.DataFrame.from_records(records, columns=columns)


def curve(rows: pd.DataFrame, budgets=()) -> pd.DataFrame:
    """The nested win-rate curve of one group: a row at every budget where it changes.

    Budgets are the node counts of the decided deals and the node limit, plus
    any ``budgets`` given (for curves of several groups on one axis); those
    above the limit are left out.
    """
    limit = int(rows["node_limit"].min())
    decided = rows[rows["verdict"].isin(["won", "lost"])]
    points = set(int(x) for x in decided["nodes"].astype("int64")) | {limit}
    points = sorted(p for p in points | {int(b) for b in budgets} if 1 <= p <= limit)
    return pd.DataFrame.from_records(
        [{"budget": b, **counts(verdicts_within(rows, b))} for b in points]
    )


def settled(frame: pd.DataFrame, by=DEFAULT_BY) -> list[dict]:
    """Per group of ``by`` whose rows hold several rungs: each deal once, settled.

    A rung is a node limit and a search configuration (``batch --retry
    1e7,1e6@kp300``). A deal run at several rungs counts once, with the
    verdict of the first rung that decided it (won or lost), in the order of
    the node limit, the default search first at each limit; a deal never
    decided is unknown at its last rung. A search's budgets nest, so at the
    default search alone that is the verdict at the largest limit. Each
    record holds the group's labels, :func:`counts` of the settled verdicts,
    and ``at``: one ``{"node_limit", "won", "lost", "unknown"}`` per rung (with
    ``"search"`` when some rung ran another search), the deals settled (or
    left unknown) there. Groups with one rung, and every group when ``by``
    names ``node_limit``, have no record.
    """
    keys = by_columns(by)
    if frame.empty or "node_limit" in keys:
        return []
    groups = frame.groupby(keys, sort=True) if keys else [((), frame)]
    rung = ["node_limit", "search"]
    out = []
    for key, rows in groups:
        if len(rows[rung].drop_duplicates()) < 2:
            continue
        named = other_searches(rows)
        rows = rows.assign(_other=rows["search"] != DEFAULT_SEARCH).sort_values(
            ["node_limit", "_other", "search"], kind="stable"
        )
        deal = ["source", "code"]
        decided = rows[rows["verdict"] != "unknown"].drop_duplicates(deal, keep="first")
        done = set(zip(decided["source"], decided["code"]))
        left = rows[[pair not in done for pair in zip(rows["source"], rows["code"])]]
        final = pd.concat([decided, left.drop_duplicates(deal, keep="last")])
        record = {k: plain(v) for k, v in zip(keys, key if isinstance(key, tuple) else (key,))}
        record.update(counts(final["verdict"]))
        record["at"] = [
            {
                "node_limit": int(limit),
                **({"search": str(search)} if named else {}),
                **{v: int((part["verdict"] == v).sum()) for v in VERDICTS},
            }
            for (limit, _other, search), part in final.groupby(
                ["node_limit", "_other", "search"], sort=True
            )
        ]
        out.append(record)
    return out


def rung_text(record: dict) -> str:
    """``1,000,000``, or ``1,000,000 with kp300`` for a rung of another search."""
    return Rung(record["node_limit"], record.get("search", DEFAULT_SEARCH)).text()


def settled_text(records: list[dict], by=DEFAULT_BY) -> str:
    """The settled verdicts as text, one line per group (see :func:`settled`)."""
    keys = by_columns(by)
    labels = [[str(r[k]) for k in keys] for r in records]
    widths = [max(len(cells[i]) for cells in labels) for i in range(len(keys))]
    lines = []
    for record, cells in zip(records, labels):
        parts = []
        for verdict in VERDICTS:
            where = [f"{a[verdict]} at {rung_text(a)}" for a in record["at"] if a[verdict]]
            parts.append(
                f"{verdict} {record[verdict]}" + (f" ({', '.join(where)})" if where else "")
            )
        head = "  ".join(c.ljust(w) for c, w in zip(cells, widths))
        lines.append(
            f"{head}  {plural(record['deals'], 'deal')}: {', '.join(parts)}; "
            f"win >= {pct(record['win_low'])} [{interval(record, 'win_low')}], "
            f"win <= {pct(record['win_high'])} [{interval(record, 'win_high')}]"
        )
    if any("search" in a for r in records for a in r["at"]):
        head = (
            "Settled (each deal once, at the first rung that decided it: node limits "
            "in order, the default search first at each):\n"
        )
    else:
        head = "Settled (each deal once, at the largest node limit it was run at; budgets nest):\n"
    return head + "\n".join(lines)


def hardest(frame: pd.DataFrame, n: int = 10) -> pd.DataFrame:
    """The n won deals that took the most nodes."""
    won = frame[frame["verdict"] == "won"]
    return (
        won.sort_values(["nodes", "code"], ascending=[False, True]).head(n).reset_index(drop=True)
    )


def unresolved(frame: pd.DataFrame) -> pd.DataFrame:
    """Every deal lost or left unknown, most nodes first."""
    rows = frame[frame["verdict"] != "won"]
    return rows.sort_values(
        ["verdict", "nodes", "code"], ascending=[True, False, True]
    ).reset_index(drop=True)


def stats_json(frame: pd.DataFrame, by=DEFAULT_BY, budgets=()) -> list[dict]:
    """The summary with each group's budget rows nested under ``budgets``."""
    keys = group_keys(by, frame)
    table = summary(frame, by)
    nested = budget_table(frame, budgets, by)
    out = []
    for record in table.to_dict(orient="records"):
        record = {k: plain(v) for k, v in record.items()}
        mask = np.ones(len(nested), dtype=bool)
        for k in keys:
            mask &= (nested[k] == record[k]).to_numpy()
        record["budgets"] = [
            {k: plain(v) for k, v in r.items() if k not in keys}
            for r in nested[mask].to_dict(orient="records")
        ]
        out.append(record)
    return out


def stats_flat(frame: pd.DataFrame, by=DEFAULT_BY, budgets=()) -> pd.DataFrame:
    """The summary with columns ``won_at_B`` ... for each budget B (for CSV)."""
    keys = group_keys(by, frame)
    table = summary(frame, by)
    nested = budget_table(frame, budgets, by)
    for budget in budgets:
        part = nested[nested["budget"] == budget].drop(columns=["budget", "deals"])
        part = part.rename(columns={c: f"{c}_at_{budget}" for c in part.columns if c not in keys})
        table = table.merge(part, on=keys, how="left")
    return table


# -- text -------------------------------------------------------------------


def _label_cells(record: dict, keys: list[str]) -> list[str]:
    return [f"{record[k]:,}" if k == "node_limit" else str(record[k]) for k in keys]


def render(frame: pd.DataFrame, by=DEFAULT_BY, budgets=()) -> str:
    """The stats as readable text tables: one row per group, then one per budget."""
    keys = group_keys(by, frame)
    table = summary(frame, by)
    header = keys + [
        "deals",
        "won",
        "lost",
        "unknown",
        "win >=",
        "95% interval",
        "win <=",
        "95% interval",
        "nodes med",
        "nodes p95",
        "s med",
        "s p95",
    ]
    rows = []
    for r in table.to_dict(orient="records"):
        rows.append(
            _label_cells(r, keys)
            + [
                str(r["deals"]),
                str(r["won"]),
                str(r["lost"]),
                str(r["unknown"]),
                pct(r["win_low"]),
                f"{pct(r['win_low_ci_low'])} - {pct(r['win_low_ci_high'])}",
                pct(r["win_high"]),
                interval(r, "win_high"),
                count_text(r["nodes_median"]),
                count_text(r["nodes_p95"]),
                secs(r["seconds_median"]),
                secs(r["seconds_p95"]),
            ]
        )
    text = align(header, rows, len(keys))
    records = settled(frame, by)
    if records:
        text += "\n\n" + settled_text(records, by)
    if budgets:
        nested = budget_table(frame, budgets, by)
        header = keys + [
            "budget",
            "won",
            "lost",
            "unknown",
            "win >=",
            "95% interval",
            "win <=",
            "95% interval",
        ]
        rows = [
            _label_cells(r, keys)
            + [
                f"{r['budget']:,}",
                str(r["won"]),
                str(r["lost"]),
                str(r["unknown"]),
                pct(r["win_low"]),
                f"{pct(r['win_low_ci_low'])} - {pct(r['win_low_ci_high'])}",
                pct(r["win_high"]),
                interval(r, "win_high"),
            ]
            for r in nested.to_dict(orient="records")
        ]
        text += "\n\nWithin smaller budgets (from the node counts of the same run):\n"
        text += align(header, rows, len(keys)) if rows else "(no budget at or below a node limit)"
        above = [b for b in budgets if not table.empty and b > int(table["node_limit"].max())]
        if above:
            text += (
                f"\n(budgets above every node limit left out: {', '.join(f'{b:,}' for b in above)})"
            )
    return text
