"""Win rates, Wilson intervals, nested budgets and the stats/hints commands,
on hand-made result tables with counts worked out by hand."""

from __future__ import annotations

import json
import math
import re

import pandas as pd
import pytest
from click.testing import CliRunner
from data import hand_table, result_row

from spidersolve.cli.main import cli
from spidersolve.state import Action, GameCode, legal_actions
from spidersolve.stats import (
    budget_table,
    hints_frame,
    load_results,
    summary,
    verdicts_within,
    wilson_interval,
)
from spidersolve.stats.store import ResultStore, rows_table, write_atomic


@pytest.fixture
def hand_results(tmp_path):
    rows = hand_table()
    store = ResultStore(tmp_path / "res")
    store.open_for_writing()
    # Two part files, one row in both: the store reads each deal once.
    store.write_part(rows[:8], {"run_id": "a"}, 0)
    store.write_part(rows[7:], {"run_id": "b"}, 0)
    return tmp_path / "res"


def test_wilson_interval_matches_values_worked_by_hand():
    # p = 0.7, n = 10, z = 1.96: centre (0.7 + z^2/20) / (1 + z^2/10) = 0.64449,
    # half-width z sqrt(0.021 + z^2/400) / (1 + z^2/10) = 0.24772.
    low, high = wilson_interval(7, 10)
    assert low == pytest.approx(0.39678, abs=1e-5)
    assert high == pytest.approx(0.89221, abs=1e-5)
    # 87 of 100 (the anchor figure): centre 0.85631, half-width 0.06612.
    assert wilson_interval(87, 100) == pytest.approx((0.79020, 0.92243), abs=1e-5)
    # None won of 3: [0, z^2 / (3 + z^2)].
    assert wilson_interval(0, 3) == (0.0, pytest.approx(3.84146 / 6.84146, abs=1e-5))
    assert wilson_interval(3, 3)[1] == 1.0
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


def test_summary_counts_bounds_and_percentiles(hand_results):
    frame = load_results(hand_results)
    assert len(frame) == 13  # the row written twice is read once
    table = summary(frame, ["suits", "rules"]).set_index(["suits", "rules"])
    one = table.loc[(1, "classic")]
    assert (one.deals, one.won, one.lost, one.unknown) == (10, 7, 1, 2)
    assert one.win_low == pytest.approx(0.7)
    assert one.win_high == pytest.approx(0.9)
    assert (one.win_low_ci_low, one.win_low_ci_high) == pytest.approx((0.39678, 0.89221), abs=1e-5)
    # nodes sorted: 10 20 30 40 50 60 500 700 1000 1000 -> median 55, p95 at 8.55 -> 1000
    assert one.nodes_median == 55
    assert one.nodes_p95 == 1000
    assert one.seconds_median == pytest.approx(0.055)
    four = table.loc[(4, "relaxed")]
    assert (four.deals, four.won, four.lost, four.unknown) == (3, 0, 0, 3)
    assert (four.win_low, four.win_high) == (0.0, 1.0)


def test_nested_budgets_follow_the_node_counts(hand_results):
    frame = load_results(hand_results)
    one = frame[frame["suits"] == 1]
    assert list(verdicts_within(one, 100).value_counts().sort_index().items()) == [
        ("unknown", 4),
        ("won", 6),
    ]
    nested = budget_table(frame, [100, 600, 1000, 5000], ["suits", "rules"])
    got = {(r.suits, r.budget): (r.won, r.lost, r.unknown) for r in nested.itertuples()}
    assert got == {
        (1, 100): (6, 0, 4),
        (1, 600): (6, 1, 3),
        (1, 1000): (7, 1, 2),
        (4, 100): (0, 0, 3),
        (4, 600): (0, 0, 3),
        (4, 1000): (0, 0, 3),
    }
    at_600 = nested[(nested.suits == 1) & (nested.budget == 600)].iloc[0]
    assert (at_600.win_low, at_600.win_high) == pytest.approx((0.6, 0.9))
    assert (at_600.win_low_ci_low, at_600.win_low_ci_high) == pytest.approx(wilson_interval(6, 10))


def test_stats_command_prints_a_table_with_budgets(hand_results):
    result = CliRunner().invoke(
        cli, ["stats", str(hand_results), "--by", "suits,rules", "--budgets", "100,600"]
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split()[:6] == ["suits", "rules", "node_limit", "deals", "won", "lost"]
    first = lines[2].split()
    assert first[:8] == ["1", "classic", "1,000", "10", "7", "1", "2", "70.0%"]
    assert "39.7% - 89.2%" in lines[2] and "90.0%" in lines[2]
    assert "Within smaller budgets" in result.stdout
    assert any(
        line.split()[:7] == ["1", "classic", "1,000", "600", "6", "1", "3"] for line in lines
    )


def test_stats_command_json_and_csv(hand_results):
    result = CliRunner().invoke(
        cli, ["stats", str(hand_results), "--by", "suits", "--budgets", "600", "--json"]
    )
    assert result.exit_code == 0, result.output
    groups = json.loads(result.stdout)["groups"]
    assert [(g["suits"], g["deals"], g["won"], g["lost"]) for g in groups] == [
        (1, 10, 7, 1),
        (4, 3, 0, 0),
    ]
    assert groups[0]["budgets"][0]["budget"] == 600
    assert groups[0]["budgets"][0]["won"] == 6
    result = CliRunner().invoke(cli, ["stats", str(hand_results), "--budgets", "600", "--csv"])
    assert result.exit_code == 0, result.output
    from io import StringIO

    table = pd.read_csv(StringIO(result.stdout))
    assert list(table["won"]) == [7, 0]
    assert list(table["won_at_600"]) == [6, 0]
    assert list(table["lost_at_600"]) == [1, 0]


def test_hints_give_the_first_action_in_notation_and_words(tmp_path):
    position = GameCode(2, "classic", 5).position()
    action = legal_actions(position)[0]
    rows = [
        result_row(2, "classic", 5, "won", 321, first_action=action.text(), moves=140),
        result_row(2, "classic", 6, "unknown", 1000),
    ]
    store = ResultStore(tmp_path / "res")
    store.open_for_writing()
    store.write_part(rows, {"run_id": "x"}, 0)
    hints = hints_frame(load_results(tmp_path / "res"))
    first = hints.iloc[0]
    assert first["code"] == "SP1-S2C-AAAAAAF"
    assert bool(first["proven"]) and first["moves"] == 140
    assert first["first_action"] == action.text()
    assert first["first_action_words"] == action.words(position)
    assert first["first_action_words"].startswith("move ")
    second = hints.iloc[1]
    assert not bool(second["proven"]) and pd.isna(second["first_action"])

    out = tmp_path / "hints.csv"
    result = CliRunner().invoke(cli, ["hints", str(tmp_path / "res"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    table = pd.read_csv(out)
    assert list(table.columns) == [
        "code",
        "suits",
        "rules",
        "node_limit",
        "verdict",
        "proven",
        "first_action",
        "first_action_words",
        "moves",
    ]
    assert table.loc[0, "first_action_words"] == action.words(position)
    assert Action.parse(table.loc[0, "first_action"]) == action


def test_hints_suggest_an_unproven_action_for_an_unknown_deal(tmp_path):
    rows = [result_row(4, "classic", 7, "unknown", 1000)]
    store = ResultStore(tmp_path / "res")
    store.open_for_writing()
    store.write_part(rows, {"run_id": "x"}, 0)
    hint = hints_frame(load_results(tmp_path / "res"), suggest_nodes=50).iloc[0]
    position = GameCode(4, "classic", 7).position()
    assert not bool(hint["proven"]) and pd.isna(hint["moves"])
    action = Action.parse(hint["first_action"])
    assert action in legal_actions(position)
    assert hint["first_action_words"] == action.words(position)


def test_a_stray_temporary_file_is_ignored(hand_results):
    (hand_results / ".part-zzz.parquet.abc.tmp").write_bytes(b"PAR1 half a file")
    assert len(load_results(hand_results)) == 13


def test_compaction_keeps_every_row_once(hand_results):
    store = ResultStore(hand_results)
    before = store.load()
    store.compact()
    assert [p.name for p in store.files()] == ["results.parquet"]
    pd.testing.assert_frame_equal(store.load(), before)


def assert_one_error_line(result):
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["stats", "no/such/results"],
        ["stats", "{empty}"],
        ["stats", "{garbage}"],
        ["stats", "{res}", "--by", "colour"],
        ["stats", "{res}", "--budgets", "ten"],
        ["stats", "{res}", "--json", "--csv"],
        ["hints", "{garbage}"],
    ],
)
def test_bad_stats_arguments_give_one_error_line(args, hand_results, tmp_path):
    (tmp_path / "empty").mkdir()
    garbage = tmp_path / "garbage.parquet"
    garbage.write_text("not parquet at all")
    names = {
        "{empty}": str(tmp_path / "empty"),
        "{garbage}": str(garbage),
        "{res}": str(hand_results),
    }
    result = CliRunner().invoke(cli, [names.get(a, a) for a in args])
    assert_one_error_line(result)


def test_results_files_carry_their_metadata(tmp_path):
    path = tmp_path / "one.parquet"
    write_atomic(rows_table(hand_table()[:2], {"runs": [{"run_id": "r1", "settings": {}}]}), path)
    from spidersolve.stats import load_runs

    assert load_runs(path) == [{"run_id": "r1", "settings": {}}]
    assert len(load_results(path)) == 2


def test_plan_and_the_interval_check_what_they_are_given_bug():
    # rules="classic" planned rules 'c', 'l', 'a', 's', 'i'; suits 3, deal 1.5 and a
    # limit past the largest were taken; wilson_interval(11, 10) was a math domain error
    from spidersolve import SpiderError
    from spidersolve.stats.plan import plan
    from spidersolve.stats.winrates import wilson_interval

    assert plan("code", [1], "classic", range(3), 100) == plan(
        "code", [1], ["classic"], range(3), 100
    )
    for args, words in (
        (("code", [3], ["classic"], range(3), 100), "--suits: '3' is not a suit count"),
        (("code", [4], ["classic"], [1.5], 100), "--deals: a deal number is a whole number"),
        (("code", [4], ["classic"], range(2), 10**20), "--nodes: the node limit must be 1 .. "),
        (("code", [4], ["nope"], range(2), 100), "--rules: 'nope' is not classic or relaxed"),
    ):
        with pytest.raises(SpiderError, match=re.escape(words)):
            plan(*args)
    with pytest.raises(ValueError, match="11 successes in 10 trials"):
        wilson_interval(11, 10)
