"""Honest win rates (SPEC section 11): the honest player's games beside the
full-knowledge verdicts of the same deals.

An honest row (``player`` ``honest``) is one game: ``verdict`` is its
result, ``won`` or ``lost`` for the player. The rate is wins / games with
its Wilson 95% interval. Where the same results hold solver rows for the
same deals, each deal's full-knowledge verdict (at the largest node limit
run) is counted beside it, and the deals won with full knowledge but lost
honestly are listed.
"""

from __future__ import annotations

import pandas as pd

from .text import align, pct, plain, secs
from .winrates import wilson_interval

HONEST_BY = ["source", "suits", "rules", "node_limit", "samples", "seed"]


def split_players(frame: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The solver's rows and the honest player's rows."""
    honest = frame["player"] == "honest"
    return frame[~honest].reset_index(drop=True), frame[honest].reset_index(drop=True)


def known_verdicts(solver: pd.DataFrame) -> dict:
    """code -> the solver's verdict at the largest node limit it was run with."""
    if solver.empty:
        return {}
    best = solver.sort_values(["code", "node_limit"]).drop_duplicates("code", keep="last")
    return dict(zip(best["code"], best["verdict"]))


def honest_summary(frame: pd.DataFrame) -> list[dict]:
    """One record per honest setting: games, wins, rate, interval, seconds, beside the solver's."""
    solver, honest = split_players(frame)
    known = known_verdicts(solver)
    records = []
    if honest.empty:
        return records
    for labels, rows in honest.groupby(HONEST_BY, sort=True):
        rows = rows.sort_values("deal", kind="stable")
        record = {k: plain(v) for k, v in zip(HONEST_BY, labels)}
        games, won = len(rows), int((rows["verdict"] == "won").sum())
        low, high = wilson_interval(won, games)
        seconds = rows["seconds"].astype("float64")
        verdicts = [known.get(code) for code in rows["code"]]
        lost_honestly = [
            code
            for code, v, r in zip(rows["code"], verdicts, rows["verdict"])
            if v == "won" and r != "won"
        ]
        record.update(
            {
                "games": games,
                "won": won,
                "win_rate": won / games,
                "win_ci_low": low,
                "win_ci_high": high,
                "seconds_mean": float(seconds.mean()),
                "seconds_p95": float(seconds.quantile(0.95)),
                "known": sum(v is not None for v in verdicts),
                "known_won": sum(v == "won" for v in verdicts),
                "known_lost": sum(v == "lost" for v in verdicts),
                "known_unknown": sum(v == "unknown" for v in verdicts),
                "won_known_lost_honestly": lost_honestly,
            }
        )
        records.append(record)
    return records


def honest_flat(frame: pd.DataFrame) -> pd.DataFrame:
    """``honest_summary`` as a table, one row per honest setting; the deals won with
    full knowledge but lost honestly as one space-separated field."""
    records = honest_summary(frame)
    for record in records:
        record["won_known_lost_honestly"] = " ".join(record["won_known_lost_honestly"])
    return pd.DataFrame(records)


def honest_render(frame: pd.DataFrame) -> str:
    """The honest table as text, then the deals won with full knowledge but lost honestly."""
    records = honest_summary(frame)
    header = [
        "source",
        "suits",
        "rules",
        "nodes/sample",
        "samples",
        "seed",
        "games",
        "won",
        "honest win",
        "95% interval",
        "s mean",
        "s p95",
        "full knowledge won/of",
    ]
    rows = [
        [
            str(r["source"]),
            str(r["suits"]),
            str(r["rules"]),
            f"{r['node_limit']:,}",
            str(r["samples"]),
            str(r["seed"]),
            str(r["games"]),
            str(r["won"]),
            pct(r["win_rate"]),
            f"{pct(r['win_ci_low'])} - {pct(r['win_ci_high'])}",
            secs(r["seconds_mean"]),
            secs(r["seconds_p95"]),
            f"{r['known_won']}/{r['known']}" if r["known"] else "-",
        ]
        for r in records
    ]
    text = "Honest player (sees only what a player sees):\n" + align(header, rows, 3)
    for r in records:
        if r["won_known_lost_honestly"]:
            plural = "s" if r["suits"] > 1 else ""
            text += (
                f"\nwon with full knowledge, lost honestly ({r['suits']} suit{plural}, "
                f"{r['rules']}): " + " ".join(r["won_known_lost_honestly"])
            )
    return text
