"""``batch --retry``: escalation solves only the unknown deals again, and ``stats`` settles them."""

from __future__ import annotations

import json
import shutil

import pandas as pd
import pytest
from click.testing import CliRunner

from spidersolve.cli.main import cli
from spidersolve.stats import load_results, settled
from spidersolve.stats.store import KEY, VOLATILE

# At 1,250 nodes some 1-suit deals are won and every 4-suit deal is unknown;
# 20,000 nodes wins some of those (a few seconds in all).
NODES = 1250


def batch(out, *extra, deals="0:6", nodes=NODES, suits="1,4", code=0):
    result = CliRunner().invoke(
        cli,
        [
            "batch",
            "--suits",
            suits,
            "--workers",
            "1",
            "--deals",
            deals,
            "--nodes",
            str(nodes),
            "--out",
            str(out),
            *extra,
        ],
    )
    assert result.exit_code == code, (result.output, result.exception)
    return result


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """Deals 0..5 of 1 and 4 suits at NODES: some won, some unknown."""
    out = tmp_path_factory.mktemp("retry") / "base"
    batch(out, "--quiet")
    rows = load_results(out)
    assert set(rows["verdict"]) == {"won", "unknown"}
    return out


@pytest.fixture
def results(base, tmp_path):
    """A copy of the base run to escalate."""
    return shutil.copytree(base, tmp_path / "res")


def at(frame: pd.DataFrame, limit: int) -> pd.DataFrame:
    return frame[frame["node_limit"] == limit].reset_index(drop=True)


def unknown_codes(frame: pd.DataFrame, limit: int) -> list[str]:
    rows = at(frame, limit)
    return sorted(rows.loc[rows["verdict"] == "unknown", "code"])


def retry_once(results, rung: str, said: str):
    """Retry the base run at ``rung``, check the summary line (``said``: how it
    names the rung); the rows before, the codes left unknown, the rows after."""
    before = load_results(results)
    unknown = unknown_codes(before, NODES)
    result = batch(results, "--retry", rung)
    assert result.stdout.startswith(
        f"retry at {said}: {len(unknown)} deals left unknown "
        f"at 1,250, 0 already done, {len(unknown)} solved now: "
    )
    return before, unknown, load_results(results)


def test_retry_solves_only_the_deals_left_unknown(results):
    before, unknown, after = retry_once(results, "20000", "20,000 nodes")
    pd.testing.assert_frame_equal(at(after, NODES), at(before, NODES))  # untouched
    again = at(after, 20000)
    assert sorted(again["code"]) == unknown  # the won deals are not solved again
    assert not after.duplicated(KEY).any()
    assert (again["nodes"] <= 20000).all() and set(again["verdict"]) == {"won", "unknown"}


def test_a_rerun_adds_nothing(results):
    batch(results, "--retry", "20000", "--quiet")
    first = load_results(results)
    result = batch(results, "--retry", "20000")
    assert "all already done: nothing to do" in result.stdout
    pd.testing.assert_frame_equal(load_results(results), first)  # times too


def test_stats_settles_each_deal_at_its_largest_limit(results):
    batch(results, "--retry", "20000", "--quiet")
    frame = load_results(results)
    result = CliRunner().invoke(cli, ["stats", str(results), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["planned"], report["missing"]) == (12, 0)  # deals, not searches
    assert [(g["suits"], g["node_limit"]) for g in report["groups"]] == [
        (1, NODES),
        (1, 20000),
        (4, NODES),
        (4, 20000),
    ]  # the per-limit table as before
    for record in report["settled"]:
        rows = frame[frame["suits"] == record["suits"]]
        base, again = at(rows, NODES), at(rows, 20000)
        won_at_base = int((base["verdict"] == "won").sum())
        won_again = int((again["verdict"] == "won").sum())
        assert record["deals"] == len(base) == 6
        assert record["won"] == won_at_base + won_again
        assert record["unknown"] == int((again["verdict"] == "unknown").sum())
        assert record["lost"] == 0
        assert (
            record["at"]
            == [
                {"node_limit": NODES, "won": won_at_base, "lost": 0, "unknown": 0},
                {"node_limit": 20000, "won": won_again, "lost": 0, "unknown": record["unknown"]},
            ][0 if won_at_base else 1 :]
        )
    text = CliRunner().invoke(cli, ["stats", str(results)]).stdout
    assert "\n\nSettled (each deal once, at the largest node limit it was run at" in text
    four = next(r for r in report["settled"] if r["suits"] == 4)
    assert (
        f"code  4  classic  6 deals: won {four['won']} ({four['won']} at 20,000), lost 0, "
        f"unknown {four['unknown']} ({four['unknown']} at 20,000); win >= "
    ) in text


def test_one_limit_has_no_settled_line(base):
    text = CliRunner().invoke(cli, ["stats", str(base)]).stdout
    assert "Settled" not in text
    report = json.loads(CliRunner().invoke(cli, ["stats", str(base), "--json"]).stdout)
    assert "settled" not in report
    assert settled(load_results(base)) == []


def test_a_ladder_retries_what_the_rung_before_left_unknown(base, results, tmp_path):
    result = batch(results, "--retry", "5000,2e4")
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "retry at 5,000 nodes",
        "retry at 20,000 nodes",
    ]
    frame = load_results(results)
    assert sorted(at(frame, 5000)["code"]) == unknown_codes(frame, NODES)
    assert sorted(at(frame, 20000)["code"]) == unknown_codes(frame, 5000)
    assert 0 < len(at(frame, 20000)) < len(at(frame, 5000))
    # the rung at 20,000 gives what a direct retry gives those deals: same search
    direct = shutil.copytree(base, tmp_path / "direct")
    batch(direct, "--retry", "20000", "--quiet")
    direct_rows = at(load_results(direct), 20000)
    direct_rows = direct_rows[direct_rows["code"].isin(at(frame, 20000)["code"])]
    pd.testing.assert_frame_equal(
        at(frame, 20000).drop(columns=VOLATILE),
        direct_rows.drop(columns=VOLATILE).reset_index(drop=True),
    )
    assert (
        batch(results, "--retry", "5000,20000")
        .stdout.splitlines()[-1]
        .endswith("all already done: nothing to do -> " + str(results))
    )


def test_deals_without_a_row_at_the_limit_are_not_solved(results):
    result = batch(results, "--retry", "20000", deals="0:8")
    assert result.stderr.splitlines() == [
        "note: 4 deals have no row at 1,250 nodes (not solved): run without --retry first"
    ]
    assert set(load_results(results)["deal"]) == set(range(6))


@pytest.mark.parametrize(
    "extra, message",
    [
        (
            ["--retry", "1250"],
            "error: --retry: each node limit must be above --nodes and the one "
            "before it, not 1,250 after 1,250",
        ),
        (
            ["--retry", "5000,3000"],
            "error: --retry: each node limit must be above --nodes and "
            "the one before it, not 3,000 after 5,000",
        ),
        (["--retry", "x"], "error: --retry: 'x' is not a node count"),
        (["--retry", "2e7", "--memory", "1G"], "error: --retry 20000000 may need"),
        (["--retry", "20000", "--player", "honest"], "error: --retry is for --player solver"),
    ],
)
def test_bad_retry_is_one_error_line(results, extra, message):
    result = batch(results, *extra, code=2)
    assert result.stderr.startswith(message) and len(result.stderr.splitlines()) == 1, result.stderr


def test_retry_without_rows_at_the_limit_is_an_error(results):
    result = batch(results, "--retry", "20000", nodes=1000, code=2)
    assert result.stderr == (
        "error: --retry: none of the 12 deals planned has a row at 1,000 "
        f"nodes in '{results}': run without --retry first\n"
    )
    result = batch(results.parent / "empty", "--retry", "20000", code=2)
    assert "none of the 12 deals planned has a row at 1,250 nodes" in result.stderr
    assert not (results.parent / "empty").exists()


def test_retry_rows_have_the_schema_of_the_first_run(results):
    batch(results, "--retry", "20000", "--quiet")
    frame = load_results(results)
    again, base = at(frame, 20000), at(frame, NODES)
    assert list(again.columns) == list(base.columns)
    merged = again.merge(base, on=["source", "code"], suffixes=("", "_base"))
    assert (merged["verdict_base"] == "unknown").all()
    assert (merged["node_limit"] == 20000).all() and (merged["player"] == "solver").all()


def test_stats_counts_the_deals_an_interrupted_retry_left(results):
    from spidersolve.stats import plan, run_batch
    from spidersolve.stats.batch import retry_plan

    tasks = plan("code", [1, 4], ["classic"], range(6), nodes=NODES)
    again, missing, _settled = retry_plan(results, tasks, 20000)
    assert not missing and len(again) > 2
    meta = {
        "source": "code",
        "suits": [1, 4],
        "rules": ["classic"],
        "deals": "0:6",
        "settings": ["1 classic", "4 classic"],
        "node_limit": 20000,
        "player": "solver",
        "retry_from": NODES,
    }
    run_batch(again[:2], results, settings_meta=meta)  # as if killed after two deals
    report = json.loads(CliRunner().invoke(cli, ["stats", str(results), "--json"]).stdout)
    # deals, each once: a deal still to retry is missing though its first row is there
    assert (report["planned"], report["missing"]) == (12, len(again) - 2)
    # in words: no deal lacks its first row, so the note names the retries
    text = " ".join(CliRunner().invoke(cli, ["stats", str(results)]).stdout.split())
    assert (
        f"note: {len(again) - 2} of the 12 deals planned have their first rows but not "
        "all the --retry rows planned for them (a stopped ladder?)"
    ) in text
    assert "an interrupted run" not in text
    assert batch(results, "--retry", "20000").stdout.startswith(
        f"retry at 20,000 nodes: {len(again)} deals left unknown at 1,250, 2 already done, "
        f"{len(again) - 2} solved now"
    )


def test_a_ladder_stops_where_nothing_is_left_unknown(results):
    lines = batch(results, "--retry", "5000,20000", suits="1").stdout.splitlines()
    assert lines[0].startswith(
        "retry at 5,000 nodes: 1 deal left unknown at 1,250, 0 already "
        "done, 1 solved now: won 1, lost 0, unknown 0 in "
    )
    assert lines[1:] == [
        f"retry at 20,000 nodes: no deal left unknown at 5,000: nothing to do -> {results}"
    ]
    assert set(load_results(results)["node_limit"]) == {NODES, 5000}


def test_settled_counts_a_deal_at_the_smallest_limit_that_decided_it(results):
    batch(results, "--quiet", nodes=5000)  # every deal again at 5,000, not a retry
    frame = load_results(results)
    record = next(r for r in settled(frame) if r["suits"] == 1)
    base = at(frame[frame["suits"] == 1], NODES)
    won_at_base = int((base["verdict"] == "won").sum())
    assert record["deals"] == 6 and record["won"] == 6
    assert record["at"] == [
        {"node_limit": NODES, "won": won_at_base, "lost": 0, "unknown": 0},
        {"node_limit": 5000, "won": 6 - won_at_base, "lost": 0, "unknown": 0},
    ]
    assert settled(frame, by="suits,node_limit") == []  # groups of one limit


# -- rungs that run another search configuration (``--retry N@NAME``) --------


def test_a_rung_of_another_search_solves_the_unknown_deals_with_it(results):
    from spidersolve.search import solve
    from spidersolve.state import as_position

    before, unknown, after = retry_once(results, "1250@kp300", "1,250 nodes with kp300")
    assert set(before["search"]) == {"default"}  # the rows written before say so
    pd.testing.assert_frame_equal(
        after[after["search"] == "default"].reset_index(drop=True), before
    )
    rung = after[after["search"] == "kp300"].reset_index(drop=True)
    assert sorted(rung["code"]) == unknown and (rung["node_limit"] == NODES).all()
    assert not after.duplicated(KEY).any() and list(rung.columns) == list(before.columns)
    # each row is that search's own: the same verdict, nodes and line as solve() gives
    for row in rung.head(3).itertuples():
        alone = solve(as_position(row.code), nodes=NODES, weights="kp300")
        assert (alone.verdict, alone.nodes, alone.line_text) == (
            row.verdict,
            row.nodes,
            row.line,
        )


def test_a_ladder_of_searches_settles_each_deal_once(results):
    lines = batch(results, "--retry", "5000@kp300,20000").stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "retry at 5,000 nodes with kp300",
        "retry at 20,000 nodes",
    ]
    assert "left unknown at 5,000 with kp300" in lines[1]
    frame = load_results(results)
    kp = frame[frame["search"] == "kp300"]
    assert sorted(kp["code"]) == unknown_codes(frame[frame["search"] == "default"], NODES)
    left = sorted(kp.loc[kp["verdict"] == "unknown", "code"])
    assert sorted(at(frame, 20000)["code"]) == left
    report = json.loads(CliRunner().invoke(cli, ["stats", str(results), "--json"]).stdout)
    assert (report["planned"], report["missing"]) == (12, 0)
    assert {g.get("search") for g in report["groups"]} == {"default", "kp300"}
    for record in report["settled"]:
        rungs = [(a["node_limit"], a["search"] != "default") for a in record["at"]]
        assert rungs == sorted(rungs)  # node limits in order, the default first at each
        assert sum(a["won"] + a["lost"] + a["unknown"] for a in record["at"]) == 6
        assert record["won"] == sum(a["won"] for a in record["at"])
    text = CliRunner().invoke(cli, ["stats", str(results)]).stdout
    assert "Settled (each deal once, at the first rung that decided it" in text
    assert " with kp300" in text and "  search  " in text


def test_a_deal_settled_at_another_rung_is_not_solved_again(results):
    batch(results, "--retry", "20000", "--quiet")
    frame = load_results(results)
    won_later = set(at(frame, 20000).query("verdict == 'won'")["code"])
    assert won_later  # some deals unknown at 1,250 are won at 20,000
    summary = batch(results, "--retry", "1250@KP300").stdout  # names: any case
    kp = load_results(results).query("search == 'kp300'")
    assert sorted(kp["code"]) == sorted(set(unknown_codes(frame, NODES)) - won_later)
    # the summary counts the deals it left alone
    others = "other" if len(won_later) == 1 else "others"
    assert f"left unknown at 1,250 ({len(won_later)} {others} settled at other rungs), " in summary


def test_noisy_beams_are_rungs_of_their_own(results):
    # the same beam with noise 1 and 2: two rungs, each on what the one before left
    lines = batch(results, "--retry", "1250@beam_40_n1,1250@beam_40_n2").stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "retry at 1,250 nodes with beam_40_n1",
        "retry at 1,250 nodes with beam_40_n2",
    ]
    frame = load_results(results)
    one, two = (frame[frame["search"] == f"beam_40_n{n}"] for n in (1, 2))
    assert sorted(one["code"]) == unknown_codes(frame[frame["search"] == "default"], NODES)
    assert sorted(two["code"]) == sorted(one.loc[one["verdict"] == "unknown", "code"])
    text = CliRunner().invoke(cli, ["stats", str(results)]).stdout
    assert "  beam_40_n1  " in text and " with beam_40_n2" in text


@pytest.mark.parametrize(
    "rungs, message",
    [
        (
            "1250@default_n0",
            "error: --retry: no search named 'default_n0'; the names are default, plain",
        ),
        (
            "1250@nosuch",
            "error: --retry: no search named 'nosuch'; the names are default, plain",
        ),
        (
            "5000@kp300,3000@kp300",
            "error: --retry: each node limit of the search kp300 must be above the one "
            "before it, not 3,000 after 5,000",
        ),
        (
            "1250@default",
            "error: --retry: each node limit must be above --nodes and the one before it, "
            "not 1,250 after 1,250",
        ),
        ("x@kp300", "error: --retry: 'x' is not a node count"),
    ],
)
def test_bad_search_rungs_are_one_error_line(results, rungs, message):
    result = batch(results, "--retry", rungs, code=2)
    assert result.stderr.startswith(message) and len(result.stderr.splitlines()) == 1, result.stderr


def test_a_row_with_a_bad_search_name_is_refused(results):
    from spidersolve.stats.row_checks import row_problem

    frame = load_results(results)
    assert row_problem(frame) is None
    frame.loc[0, "search"] = "no such!"
    assert "search 'no such!' is not a search configuration's name" in row_problem(frame)
