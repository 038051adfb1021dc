"""benchmarks/tail.py: the CPU-hours of result rows, with and without ``cpu_seconds``."""

import pandas as pd
import pytest
from data import load_benchmark

from spidersolve.stats.store import ResultsError


def load_tail():
    return load_benchmark("tail")


def test_cpu_hours_count_cpu_time_and_the_wall_clock_of_older_rows():
    tail = load_tail()
    rows = pd.DataFrame({"seconds": [3600.0, 7200.0, 1800.0], "cpu_seconds": [1800.0, None, 900.0]})
    # 1800 + 7200 (no CPU time: its wall clock) + 900 seconds
    assert tail.cpu_hours(rows) == "2.75 CPU-hours in the rows (1 row timed by the wall clock)"
    rows["cpu_seconds"] = [1800.0, 3600.0, 0.0]
    assert tail.cpu_hours(rows) == "1.50 CPU-hours in the rows"


def _rows(*rows, node_limit=1_000_000, search="default"):
    """Result rows (code, verdict, nodes) of one search at one node limit."""
    return pd.DataFrame(
        {
            "code": [r[0] for r in rows],
            "verdict": [r[1] for r in rows],
            "nodes": [r[2] for r in rows],
            "node_limit": node_limit,
            "search": search,
        }
    )


def test_the_tail_phase_keeps_what_the_six_rows_won_before_it_and_takes_the_rest_again():
    tail = load_tail()
    after = tail.TAIL_AFTER
    six = _rows(
        ("pysol:4:1", "won", 1_000),  # won before the tail phase: kept
        ("pysol:4:2", "won", after),  # ... on its last node: kept
        ("pysol:4:3", "won", after + 1),  # won after it: solved again, now unknown
        ("pysol:4:4", "unknown", 1_000_000),  # solved again, now won
        ("pysol:4:5", "unknown", 1_000_000),  # not solved again: left out
        ("pysol:4:6", "won", after + 5),  # not solved again: left out
    )
    tails = pd.concat(
        [
            _rows(("pysol:4:3", "unknown", 1_000_000), ("pysol:4:4", "won", 700_000)),
            # other searches and limits are not the default's figure
            _rows(("pysol:4:5", "won", 2_000_000), node_limit=10_000_000),
            _rows(("pysol:4:6", "won", 20_000), search="kp300"),
            # a row for a deal the six rows won early stands for it
            _rows(("pysol:4:1", "won", 1_000)),
        ],
        ignore_index=True,
    )
    c, solved, missing = tail.with_tail(six, tails)
    assert (c["deals"], c["won"], c["lost"], c["unknown"]) == (4, 3, 0, 1)
    assert (len(solved), missing) == (3, 2)
    assert sorted(solved.index) == ["pysol:4:1", "pysol:4:3", "pysol:4:4"]


def test_a_later_set_not_begun_leaves_its_deals_out_and_says_the_count_is_partial(
    tmp_path, monkeypatch
):
    tail = load_tail()
    # a folder that does not exist, or holds no results yet: no rows
    assert tail._results(tmp_path / "missing") is None
    (tmp_path / "empty").mkdir()
    assert tail._results(tmp_path / "empty") is None
    # a damaged one is not taken for an empty one
    (tmp_path / "damaged").mkdir()
    (tmp_path / "damaged" / "results.parquet").write_bytes(b"not parquet")
    with pytest.raises(ResultsError):
        tail._results(tmp_path / "damaged")

    def rows(*verdicts):
        frame = _rows(*verdicts)
        return frame.assign(
            player="solver", source="pysol", suits=4, rules="classic", seconds=1.0, cpu_seconds=1.0
        )

    first = rows(("pysol:4:1", "won", 10), ("pysol:4:2", "won", 900), ("pysol:4:3", "unknown", 999))
    again = rows(("pysol:4:2", "won", 800))
    frames = {"first": first, "again": again, "later": None}
    monkeypatch.setattr(tail, "_results", lambda folder: frames[folder.name])
    monkeypatch.setattr(tail, "TAIL_PAIRS", [("first", ["again", "later"], "a change", 100)])
    lines = tail.tail_lines(tmp_path)
    assert "2 deals (1 solved again in again, later" in lines[0]
    assert "1 not solved again yet, left out" in lines[0]
    assert "won      2  lost   0  unknown    0" in lines[1]
    assert "partial, not a win rate of the set: it leaves out 1 of its hardest deals" in lines[2]
    # nothing begun after the first set: no lines
    frames["again"] = None
    assert tail.tail_lines(tmp_path) == []
