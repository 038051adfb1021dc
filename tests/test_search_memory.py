"""A search capped at a number of bytes: ``solve(..., memory=...)`` and ``batch --search-memory``."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from click.testing import CliRunner

from spidersolve import SpiderError
from spidersolve.cli.main import cli
from spidersolve.search import SolveResult, solve
from spidersolve.search.heuristic import weights_row
from spidersolve.search.solver import _Search
from spidersolve.state import as_game, replay
from spidersolve.stats import load_results
from spidersolve.stats.store import load_runs

UNKNOWN_DEAL = "pysol:4:1009"  # past 450,000 nodes for the six rows: every cap below binds
# plspider's "appears to be unwinnable": no search here has won it, under a cap either
# (the finisher wins pysol:4:1009 under a 40 MB cap, from a capped search's latest position)
NO_WIN_DEAL = "pysol:4:14934"


@pytest.mark.parametrize("cap", [20_000_000, 60_000_000])
def test_a_search_stopped_by_its_memory_is_the_search_stopped_at_its_nodes(cap):
    capped = _Search(as_game(UNKNOWN_DEAL), 10**7, None, cap)
    assert capped.memory_full and capped.verdict == "unknown"
    assert 0 < capped.bytes <= cap
    plain = _Search(as_game(UNKNOWN_DEAL), capped.nodes)  # the node limit it reached
    assert not plain.memory_full and plain.verdict == "unknown"
    assert plain.nodes == capped.nodes
    for name in ("node_entry", "ent_parent", "ent_action"):
        assert np.array_equal(getattr(plain, name), getattr(capped, name)), name
    assert plain.best_value == capped.best_value


@pytest.mark.parametrize("cap", [10_098_808, 10_104_951, 10_500_000, 12_000_000])
def test_the_cap_holds_when_a_beam_row_widens_its_counts(cap):
    # a beam two wide goes deep at once, so its per-depth counts widen often
    beam = [weights_row(breaks=3, face_down=3, width=2)]
    run = _Search(as_game("SP1-S2C-AAAAAAD"), 200_000, weights=beam, memory=cap)
    assert run.memory_full and run.bytes <= cap


@pytest.mark.parametrize("limit", [20_000, 30_000, 70_000, 10**6])
def test_the_cap_stops_at_the_same_node_whatever_the_node_limit(limit):
    assert _Search(as_game(UNKNOWN_DEAL), limit, None, 16 * 2**20).nodes == 8418


def test_a_cap_below_the_starting_arrays_stops_before_the_first_node():
    capped = _Search(as_game(UNKNOWN_DEAL), 10**7, None, 1_000_000)
    assert capped.memory_full and capped.verdict == "unknown" and capped.nodes == 0


def test_a_larger_cap_goes_further_and_the_same_cap_stops_at_the_same_node():
    nodes = [_Search(as_game(UNKNOWN_DEAL), 10**7, None, cap).nodes for cap in (10**7, 4 * 10**7)]
    assert nodes[0] < nodes[1]
    assert _Search(as_game(UNKNOWN_DEAL), 10**7, None, 10**7).nodes == nodes[0]


def test_a_cap_that_does_not_bind_changes_nothing():
    free = solve("SP1-S4C-AAAAAAA")
    capped = solve("SP1-S4C-AAAAAAA", memory=2**31)
    assert capped == free and capped.line == free.line and not capped.memory_full
    assert "memory_full" not in capped.as_dict()
    assert _Search(as_game("SP1-S4C-AAAAAAA"), 10**6).bytes > 0  # counted without a cap too


def test_the_result_says_the_memory_stopped_it():
    result = solve(UNKNOWN_DEAL, nodes=10**7, memory=8_000_000)
    assert result.verdict == "unknown" and result.memory_full and result.nodes < 10**7
    assert result.as_dict()["memory_full"] is True
    assert "memory_full=True" in repr(result)
    assert result == SolveResult("unknown", result.nodes)  # not part of the identity


@pytest.mark.parametrize("memory", [0, -5])
def test_a_cap_of_no_bytes_is_refused(memory):
    with pytest.raises(ValueError, match="positive number of bytes"):
        solve("SP1-S1C-AAAAAAD", memory=memory)


def run(*args):
    return CliRunner().invoke(cli, list(args))


def batch(out, *extra):
    """Three four-suit deals: two won and 234 (SP1-S4C-AAAAAHK), unknown under a 16 MB cap."""
    return run(
        "batch", "--suits", "4", "--deals", "0,1,234", "--nodes", "1e7", "--out", str(out), *extra
    )


def test_batch_search_memory_caps_each_search_the_same_with_any_workers(tmp_path):
    one = batch(tmp_path / "one", "--search-memory", "16M", "--workers", "1", "--quiet")
    assert one.exit_code == 0, (one.output, one.exception)
    two = batch(tmp_path / "two", "--search-memory", "16M", "--workers", "2", "--quiet")
    assert two.exit_code == 0, (two.output, two.exception)
    rows = load_results(tmp_path / "one")
    assert (rows["node_limit"] == 10**7).all()
    # a search the cap stopped is unknown with fewer nodes than its limit
    assert (rows["verdict"] == "unknown").any()
    stopped = rows[rows["verdict"] == "unknown"]
    assert (stopped["nodes"] < stopped["node_limit"]).all()
    keep = ["code", "verdict", "nodes", "line"]
    assert rows[keep].equals(load_results(tmp_path / "two")[keep])
    runs = load_runs(tmp_path / "one")
    assert {r["settings"]["search_memory"] for r in runs} == {16 * 2**20}


def test_batch_search_memory_lets_a_limit_beyond_the_model_run(tmp_path):
    refused = batch(tmp_path / "r", "--memory", "1G", "--workers", "1")
    assert refused.exit_code == 2 and "--nodes 10000000 may need 14.5 GB" in refused.stderr
    assert not (tmp_path / "r").exists()
    ran = batch(tmp_path / "r", "--memory", "1G", "--search-memory", "16M", "--workers", "1")
    assert ran.exit_code == 0, (ran.output, ran.exception)


@pytest.mark.parametrize(
    "extra,message",
    [
        (["--search-memory", "lots"], "--search-memory: 'lots' is not a memory size"),
        (["--search-memory", "15M"], "--search-memory: at least 16 MB"),
        (["--search-memory", "1e7T"], "--search-memory: '1e7T' is more than any machine's memory"),
        (["--search-memory", "2G", "--memory", "1G"], "lower --search-memory"),
        (["--search-memory", "1G", "--player", "honest"], "--search-memory is for --player solver"),
    ],
)
def test_batch_search_memory_refusals_are_one_line(tmp_path, extra, message):
    result = batch(tmp_path / "r", *extra)
    assert result.exit_code == 2, result.output
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output
    assert not (tmp_path / "r").exists()


def test_stats_reads_a_capped_run(tmp_path):
    assert (
        batch(tmp_path / "c", "--search-memory", "16M", "--workers", "1", "--quiet").exit_code == 0
    )
    report = json.loads(run("stats", str(tmp_path / "c"), "--json").stdout)
    assert report["missing"] == 0 and report["groups"][0]["deals"] == 3
    rows = load_results(tmp_path / "c")
    early = int(((rows["verdict"] == "unknown") & (rows["nodes"] < rows["node_limit"])).sum())
    assert early > 0 and report["stopped_early"] == early
    text = run("stats", str(tmp_path / "c"))
    noun = "row" if early == 1 else "rows"
    assert f"note: {early} unknown {noun} stopped before the node limit" in text.stdout
    plain = run(
        "batch",
        "--suits",
        "4",
        "--deals",
        "0:2",
        "--nodes",
        "500",
        "--workers",
        "1",
        "--out",
        str(tmp_path / "p"),
        "--quiet",
    )
    assert plain.exit_code == 0  # unknown at the limit: not stopped early
    assert "stopped_early" not in json.loads(run("stats", str(tmp_path / "p"), "--json").stdout)


def test_solve_search_memory_says_the_cap_stopped_it():
    result = run("solve", NO_WIN_DEAL, "--nodes", "1e7", "--search-memory", "40M")
    assert result.exit_code == 0, result.output
    assert "verdict: unknown" in result.stdout
    assert "reached --search-memory 40 MB before --nodes 10000000" in result.stdout
    assert "raise --search-memory" in result.stdout
    data = json.loads(
        run("solve", NO_WIN_DEAL, "--nodes", "1e7", "--search-memory", "40M", "--json").stdout
    )
    assert data["verdict"] == "unknown" and data["memory_full"] is True
    assert data["nodes"] == int(result.stdout.split("nodes: ")[1].split()[0])


def test_solve_search_memory_lets_a_limit_beyond_the_estimate_run():
    refused = run("solve", UNKNOWN_DEAL, "--nodes", "1e8", "--memory", "1G")
    assert refused.exit_code == 2
    assert "or cap each search with --search-memory" in refused.stderr
    too_big = run(
        "solve", UNKNOWN_DEAL, "--nodes", "1e7", "--memory", "1G", "--search-memory", "99G"
    )
    assert too_big.exit_code == 2 and "or a lower --search-memory" in too_big.stderr
    refused = run("solve", UNKNOWN_DEAL, "--nodes", "1e8", "--prove")
    assert refused.exit_code == 2 and "--search-memory" not in refused.stderr
    ran = run("solve", UNKNOWN_DEAL, "--nodes", "1e8", "--memory", "1G", "--search-memory", "20M")
    assert ran.exit_code == 0 and "verdict: unknown" in ran.stdout


@pytest.mark.parametrize(
    "extra,message",
    [
        (["--search-memory", "4M"], "--search-memory: at least 16 MB, not '4M'"),
        (["--search-memory", "20M", "--prove"], "--prove does not combine with --search-memory"),
        (["--nodes", "1e7", "--search-memory", "2G", "--memory", "1G"], "lower --search-memory"),
    ],
)
def test_solve_search_memory_refusals_are_one_line(extra, message):
    result = run("solve", "SP1-S1C-AAAAAAD", *extra)
    assert result.exit_code == 2 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and result.stdout == ""


def test_a_capped_first_phase_leaves_its_nodes_to_the_tail_beams():
    """Past TAIL_AFTER, a cap that stops the default rows hands the rest to the beams.

    Each beam runs to its mark (``solver._phases``), so the first back beam
    (from the capped rows' latest position) gets what the six rows left too;
    then the beams from the deal, each followed by its own back beams (from its
    latest position); the finisher then searches from every search's latest
    positions (``_finisher_starts``), with the same cap. The six rows do not
    run a third time: they would stop where they stopped.
    """
    from spidersolve.search.heuristic import TAIL_BEAMS
    from spidersolve.search.solver import (
        BACK,
        BACK_DEALS,
        BEAM_BACK_DEALS,
        FINISH,
        FINISH_EACH,
        TAIL_AFTER,
        _back_starts,
        _finisher_starts,
        _phases,
    )

    cap = 40 * 2**20
    game = as_game(NO_WIN_DEAL)
    first = _Search(game, TAIL_AFTER, None, cap)
    assert first.memory_full and first.nodes < TAIL_AFTER
    back = _back_starts(first.late_line(), BACK_DEALS)
    assert back  # the back beams run too, from the capped rows' latest line
    spent = first.nodes
    late = [first.late_line()]
    finished = 0  # the finisher's searches
    for mark, rows in _phases(10**7, None)[1:]:
        if mark is None:
            break
        if rows == BACK:
            starts, back = back[:1], back[1:]
        else:
            starts = _finisher_starts(game, late) if rows == FINISH else [()]
        for start in starts:
            if mark - spent < 1:
                break
            budget = min(mark - spent, FINISH_EACH) if rows == FINISH else mark - spent
            run = _Search(
                replay(game, start) if start else game,
                budget,
                None if rows == FINISH else TAIL_BEAMS[-1] if rows == BACK else rows,
                cap,
            )
            spent += run.nodes
            finished += rows == FINISH
            assert run.verdict != "won"
            if rows != FINISH and run.verdict == "unknown":
                late.append(start + run.late_line())
            if rows not in (FINISH, BACK):
                back = _back_starts(late[-1], BEAM_BACK_DEALS)
    result = solve(game, nodes=10**7, memory=cap)
    assert result.verdict == "unknown" and result.memory_full
    assert result.nodes == spent > first.nodes and finished > 0


def test_budgets_nest_under_a_cap_that_stops_the_first_phase(monkeypatch):
    """A cap that stops the default rows early hands the rest to the phases after them at
    every limit, even one below ``TAIL_AFTER``: a deal won in n nodes in all under the
    cap is won with the same line at n and above, and unknown at n - 1.

    Small phases and a narrow beam of the test's own (as in test_solver.py), a
    two-suit deal 30 actions in: the rows stop at the 12 MB cap, the back beams win.
    """
    from spidersolve.search import solver
    from spidersolve.search.heuristic import Weights
    from spidersolve.state import GameCode, line_text

    narrow = Weights(face_down=5, breaks=5, mixed=5, empty=10, removed=10, spare=50, width=20)
    code = GameCode(2, "classic", 4).position()
    game = as_game(code, line_text(solve(code, nodes=10_000).line[:30]))
    for name, value in (("TAIL_AFTER", 5_000), ("BACK_NODES", 5_000), ("TAIL_NODES", 5_000)):
        monkeypatch.setattr(solver, name, value)
    monkeypatch.setattr(solver, "FINISH_NODES", 0)
    monkeypatch.setattr(solver, "TAIL_BEAMS", (narrow, narrow))
    cap = 12 * 2**20
    rows = _Search(game, 5_000, None, cap)
    assert rows.memory_full and rows.nodes < 5_000
    full = solve(game, nodes=30_000, memory=cap)
    assert full.verdict == "won" and rows.nodes < full.nodes < 5_000
    for limit in (full.nodes, full.nodes + 1, 5_000, 30_000):
        again = solve(game, nodes=limit, memory=cap)
        assert (again.verdict, again.nodes, again.line) == ("won", full.nodes, full.line)
    below = solve(game, nodes=full.nodes - 1, memory=cap)
    assert below.verdict == "unknown" and below.nodes == full.nodes - 1


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"nodes": None}, "the node limit must be 1 .. "),
        ({"nodes": "100"}, "not '100'"),
        ({"nodes": 1.5}, "not 1.5"),  # was 1 node, silently
        ({"nodes": True}, "not True"),
        ({"nodes": 100, "memory": 0.5}, "not 0.5"),  # int(0.5) == 0 ran with no cap at all
        ({"nodes": 100, "memory": True}, "not True"),
    ],
)
def test_limits_that_are_no_whole_numbers_are_refused_bug(kwargs, words):
    with pytest.raises(SpiderError, match=re.escape(words)):
        solve("SP1-S1C-AAAAAAD", **kwargs)
    won = replay("SP1-S1C-AAAAAAD", solve("SP1-S1C-AAAAAAD", nodes=20_000).line)
    with pytest.raises(SpiderError, match=re.escape(words)):
        solve(won, **kwargs)  # a won game is no reason to take a bad limit


def test_a_numpy_node_limit_is_the_number_it_is():
    assert solve("SP1-S1C-AAAAAAD", nodes=np.int64(300)) == solve("SP1-S1C-AAAAAAD", nodes=300)
