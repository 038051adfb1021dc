"""``spidersolve batch``: rows, resume after kill -9, identical results from every backend."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from datetime import datetime

import pandas as pd
import pytest
from click.testing import CliRunner

import spidersolve
from spidersolve.cli.main import cli
from spidersolve.revision import code_revision, row_version
from spidersolve.state import GameCode, PysolDeal, replay
from spidersolve.stats import load_results, load_runs, plan, run_batch
from spidersolve.stats.backends import InlineBackend
from spidersolve.stats.batch import _not_done
from spidersolve.stats.store import COLUMNS, KEY, VOLATILE, ResultStore

# Small budgets and few 1-suit deals keep these quick; the real solver runs.
NODES = "2000"
DEALS = "0:6"


def batch(out, *extra, deals=DEALS, nodes=NODES):
    args = [
        "batch",
        "--suits",
        "1",
        "--deals",
        deals,
        "--nodes",
        nodes,
        "--out",
        str(out),
        "--quiet",
        *extra,
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def stable(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows without the columns that change from run to run."""
    return frame.drop(columns=VOLATILE).reset_index(drop=True)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted run in this process (one worker)."""
    out = tmp_path_factory.mktemp("reference")
    batch(out, "--workers", "1")
    return load_results(out)


def test_one_row_per_deal_with_every_column(reference):
    assert list(reference.columns) == COLUMNS
    assert list(reference["code"]) == [GameCode(1, "classic", d).text() for d in range(6)]
    assert not reference.duplicated(KEY).any()
    assert set(reference["verdict"]) <= {"won", "lost", "unknown"}
    assert (reference["node_limit"] == 2000).all()
    assert (reference["nodes"] <= 2000).all()
    assert (reference["version"] == row_version()).all()
    assert row_version() == f"{spidersolve.__version__}+{code_revision()}"
    assert reference["cpu_seconds"].notna().all() and (reference["cpu_seconds"] >= 0).all()
    for stamp in reference["time"]:
        assert stamp.endswith("Z") and datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    assert (reference["verdict"] == "won").any()
    for r in reference.itertuples():
        if r.verdict == "won":
            game = replay(GameCode.parse(r.code).position(), r.line)
            assert game.won and game.moves == r.moves and game.score == r.score
            assert r.first_action == r.line.split()[0]
        else:
            assert pd.isna(r.moves) and pd.isna(r.line) and pd.isna(r.first_action)
            if r.verdict == "unknown":
                assert r.nodes == 2000


def test_same_command_again_skips_deals_done(tmp_path, reference):
    out = tmp_path / "res"
    batch(out, "--workers", "1")
    first = load_results(out)
    result = CliRunner().invoke(
        cli,
        [
            "batch",
            "--suits",
            "1",
            "--deals",
            DEALS,
            "--nodes",
            NODES,
            "--out",
            str(out),
            "--workers",
            "1",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "6 deals planned, all already done" in result.stdout
    pd.testing.assert_frame_equal(load_results(out), first)  # times too: nothing rewritten
    pd.testing.assert_frame_equal(stable(first), stable(reference))
    # A wider range only solves the new deals.
    batch(out, "--workers", "1", deals="4:8")
    wider = load_results(out)
    assert list(wider["deal"]) == list(range(8))
    pd.testing.assert_frame_equal(wider[wider["deal"] < 6].reset_index(drop=True), first)


def test_two_workers_give_the_same_rows(tmp_path, reference):
    batch(tmp_path, "--workers", "2", "--chunk", "2")
    pd.testing.assert_frame_equal(stable(load_results(tmp_path)), stable(reference))


def test_dask_cluster_gives_the_same_rows(tmp_path, reference):
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        batch(tmp_path, "--scheduler", cluster.scheduler_address, "--chunk", "2")
    pd.testing.assert_frame_equal(stable(load_results(tmp_path)), stable(reference))
    assert load_runs(tmp_path)[0]["backend"] == "dask"


def start_and_kill(out, deals, parts):
    """Start a batch in a subprocess and kill -9 it once ``parts`` part files exist."""
    cmd = [
        sys.executable,
        "-c",
        "from spidersolve.cli.main import main; main()",
        "batch",
        "--suits",
        "1",
        "--deals",
        deals,
        "--nodes",
        "20000",
        "--out",
        str(out),
        "--workers",
        "2",
        "--chunk",
        "1",
        "--quiet",
    ]
    # Its own session, so that kill -9 reaches the worker processes too.
    proc = subprocess.Popen(cmd, start_new_session=True)
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        if len(list(out.glob("part-*.parquet"))) >= parts:
            break
        time.sleep(0.005)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the run finished before it could be killed"


def test_killed_run_resumes_with_every_deal_once(tmp_path):
    out = tmp_path / "res"
    start_and_kill(out, "0:16", parts=1)
    partial = load_results(out)
    assert 1 <= len(partial) < 16
    assert not (out / "results.parquet").exists()
    # Killed again while resuming, then left to finish.
    start_and_kill(out, "0:16", parts=len(list(out.glob("part-*.parquet"))) + 2)
    again = load_results(out)
    assert len(partial) < len(again) < 16
    assert not again.duplicated(KEY).any()
    batch(out, "--workers", "1", deals="0:16", nodes="20000")
    resumed = load_results(out)
    assert not resumed.duplicated(KEY).any()
    assert list(resumed["deal"]) == list(range(16))
    # Rows written before a kill are kept as they were.
    kept = resumed[resumed["code"].isin(again["code"])].reset_index(drop=True)
    pd.testing.assert_frame_equal(kept, again)
    fresh = tmp_path / "fresh"
    batch(fresh, "--workers", "1", deals="0:16", nodes="20000")
    pd.testing.assert_frame_equal(stable(resumed), stable(load_results(fresh)))


class Crash(Exception):
    pass


def crash_on_deal_3(position, nodes):
    """A stand-in solver for the plumbing test: dies on deal 3."""
    if position == GameCode(1, "classic", 3).position():
        raise Crash()
    from spidersolve.search import solve

    return solve(position, nodes=nodes)


def test_a_run_that_dies_keeps_its_finished_chunks(tmp_path):
    tasks = plan("code", [1], ["classic"], range(6), 500)
    with pytest.raises(Crash):
        run_batch(tasks, tmp_path, InlineBackend(), chunk=2, solver=crash_on_deal_3)
    assert list(load_results(tmp_path)["deal"]) == [0, 1]
    report = run_batch(tasks, tmp_path, InlineBackend(), chunk=2)
    assert (report.planned, report.skipped, report.solved) == (6, 2, 4)
    assert list(load_results(tmp_path)["deal"]) == list(range(6))
    assert [p.name for p in ResultStore(tmp_path).files()] == ["results.parquet"]


def test_a_ctrl_c_lost_in_a_finalizer_stops_the_batch_after_its_chunk(tmp_path):
    """The command line keeps a KeyboardInterrupt that Python ignored in a finalizer;
    a batch raises it after the chunk it was writing (with worker processes no
    search runs in this process to raise it)."""
    from spidersolve.errors import keep_lost_interrupts
    from spidersolve.search import solve

    tasks = plan("code", [1], ["classic"], range(6), 500)
    known = {t.deal: solve(GameCode(1, "classic", t.deal).position(), nodes=500) for t in tasks}
    by_position = {GameCode(1, "classic", d).position(): r for d, r in known.items()}

    class Finalizer:
        def __del__(self):
            raise KeyboardInterrupt

    def on_chunk(rows):
        if rows[0]["deal"] == 0:
            Finalizer()  # as if Ctrl-C came while a finalizer ran

    with keep_lost_interrupts(), pytest.raises(KeyboardInterrupt):
        run_batch(
            tasks,
            tmp_path,
            InlineBackend(),
            chunk=2,
            solver=lambda position, nodes: by_position[position],
            on_chunk=on_chunk,
        )
    assert list(load_results(tmp_path)["deal"]) == [0, 1]


def test_one_suit_relaxed_is_one_suit_classic():
    tasks = plan("code", [1, 2], ["classic", "relaxed"], range(2), 100)
    assert [(t.suits, t.rules, t.deal) for t in tasks] == [
        (1, "classic", 0),
        (1, "classic", 1),
        (2, "classic", 0),
        (2, "classic", 1),
        (2, "relaxed", 0),
        (2, "relaxed", 1),
    ]


def test_pysol_games_are_named_by_their_game_number(tmp_path):
    tasks = plan("pysol", [1], ["classic"], [1, 2], 100)
    assert [t.code for t in tasks] == ["pysol:1:1", "pysol:1:2"]
    assert tasks[0].position() == PysolDeal.parse("pysol:1:1").position()
    result = CliRunner().invoke(
        cli,
        [
            "batch",
            "--source",
            "pysol",
            "--suits",
            "4",
            "--deals",
            "1:3",
            "--nodes",
            "200",
            "--out",
            str(tmp_path),
            "--workers",
            "1",
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    frame = load_results(tmp_path)
    assert list(frame["code"]) == ["pysol:4:1", "pysol:4:2"]
    assert set(frame["source"]) == {"pysol"}


def test_run_settings_and_versions_are_in_the_file_metadata(tmp_path):
    batch(tmp_path, "--workers", "1", deals="0:2", nodes="300")
    (run,) = load_runs(tmp_path)
    assert run["settings"]["node_limit"] == 300
    assert run["settings"]["suits"] == [1]
    assert run["settings"]["deals"] == "0:2"
    assert run["versions"]["spidersolve"] == spidersolve.__version__
    assert run["versions"]["code"] == code_revision()
    assert {"numba", "numpy", "pandas", "pyarrow", "python"} <= set(run["versions"])


def test_empty_deal_range_says_so(tmp_path):
    result = CliRunner().invoke(cli, ["batch", "--deals", "5:5", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: --deals: '5:5' is an empty range (A:B means deals A up "
        "to B-1, so B must be above A)\n"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--suits", "3", "--deals", "0:2"],
        ["--suits", "1,x", "--deals", "0:2"],
        ["--deals", "5:5"],
        ["--deals", "9:2"],
        ["--deals", "a:b"],
        ["--deals", "0:2", "--rules", "easy"],
        ["--deals", "0:2", "--nodes", "0"],
        ["--deals", "0:2", "--nodes", "many"],
        ["--deals", "0:2", "--workers", "0"],
        ["--deals", "0:2", "--source", "pysol"],
        ["--deals", "1:2", "--source", "pysol", "--suits", "2", "--rules", "relaxed"],
        ["--deals", "-1:2"],
        ["--deals", "1:2:3"],
    ],
)
def test_bad_batch_arguments_give_one_error_line(args, tmp_path):
    result = CliRunner().invoke(cli, ["batch", "--out", str(tmp_path / "out"), "--quiet", *args])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert not (tmp_path / "out").exists()


def test_out_must_be_a_directory(tmp_path):
    target = tmp_path / "file"
    target.write_text("x")
    result = CliRunner().invoke(
        cli, ["batch", "--deals", "0:1", "--out", str(target), "--workers", "1", "--quiet"]
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ")


def test_smaller_budget_from_node_counts_matches_a_run_at_that_budget(tmp_path, reference):
    from spidersolve.stats import verdicts_within

    # A budget between the node counts of the reference wins, so that some
    # deals are won within it and some are not.
    won_nodes = sorted(reference.loc[reference["verdict"] == "won", "nodes"])
    budget = int(won_nodes[len(won_nodes) // 2]) - 1
    batch(tmp_path, "--workers", "1", nodes=str(budget))
    small = load_results(tmp_path)
    expected = list(verdicts_within(reference, budget))
    assert "won" in expected and "unknown" in expected
    assert expected == list(small["verdict"])
    won = small["verdict"] == "won"
    assert list(small.loc[won, "nodes"]) == list(reference.loc[won, "nodes"])


HONEST = ["--player", "honest", "--samples", "2"]


@pytest.fixture(scope="module")
def honest_reference(tmp_path_factory):
    """Honest games of deals 0..2 in this process: the rows every backend must give."""
    out = tmp_path_factory.mktemp("honest")
    batch(out, "--workers", "1", *HONEST, deals="0:3", nodes="1000")
    return load_results(out)


def test_honest_games_are_one_row_each_and_replay(honest_reference):
    rows = honest_reference
    assert list(rows["player"]) == ["honest"] * 3 and set(rows["samples"]) == {2}
    assert set(rows["verdict"]) <= {"won", "lost"} and (rows["node_limit"] == 1000).all()
    assert rows["cpu_seconds"].notna().all() and (rows["cpu_seconds"] >= 0).all()
    for r in rows.itertuples():
        game = replay(GameCode.parse(r.code).position(), r.line)
        assert game.won == (r.verdict == "won")
        assert (game.moves, game.score) == (r.moves, r.score)


def test_honest_games_are_the_same_on_two_workers_and_on_dask(tmp_path, honest_reference):
    from distributed import LocalCluster

    batch(tmp_path / "pool", "--workers", "2", "--chunk", "1", *HONEST, deals="0:3", nodes="1000")
    pd.testing.assert_frame_equal(stable(load_results(tmp_path / "pool")), stable(honest_reference))
    with LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        batch(
            tmp_path / "dask",
            "--scheduler",
            cluster.scheduler_address,
            "--chunk",
            "1",
            *HONEST,
            deals="0:3",
            nodes="1000",
        )
    pd.testing.assert_frame_equal(stable(load_results(tmp_path / "dask")), stable(honest_reference))


def test_stats_shows_the_honest_rate_beside_the_solvers_verdicts(tmp_path):
    batch(tmp_path, "--workers", "1", deals="0:3")
    # one sample of 200 nodes a decision: weak enough to lose deal 1 honestly
    batch(
        tmp_path, "--workers", "1", "--player", "honest", "--samples", "1", deals="0:3", nodes="200"
    )
    out = CliRunner().invoke(cli, ["stats", str(tmp_path)])
    assert out.exit_code == 0, out.output
    assert "Honest player" in out.stdout and "3/3" in out.stdout  # the solver won all 3
    frame = load_results(tmp_path)
    honest = frame[frame["player"] == "honest"]
    lost = sorted(honest[honest["verdict"] == "lost"]["code"])
    assert lost  # the lines below say so
    assert "lost honestly" in out.stdout and all(code in out.stdout for code in lost)
    data = json.loads(CliRunner().invoke(cli, ["stats", str(tmp_path), "--json"]).stdout)
    assert data["honest"][0]["games"] == 3
    # the CSV is one table, the solver's groups: it says it leaves the honest games out
    flat = CliRunner().invoke(cli, ["stats", str(tmp_path), "--csv"])
    assert flat.exit_code == 0 and len(flat.stdout.splitlines()) == 2
    assert "the CSV leaves out the 3 honest games" in flat.stderr
    assert data["honest"][0]["won"] == int((honest["verdict"] == "won").sum())
    # hints are the solver's: an honest game lost proves nothing of the deal
    hints = CliRunner().invoke(cli, ["hints", str(tmp_path), "--suggest-nodes", "0"])
    assert hints.exit_code == 0, hints.output
    rows = list(csv.DictReader(io.StringIO(hints.stdout)))
    assert [r["code"] for r in rows] == list(frame[frame["player"] == "solver"]["code"])
    assert {r["verdict"] for r in rows} == {"won"}


def test_stats_of_honest_games_only_bug(tmp_path):
    # --csv printed only a header, --plot drew empty plots, --budgets and --by did nothing
    batch(
        tmp_path, "--workers", "1", "--player", "honest", "--samples", "1", deals="0:2", nodes="200"
    )
    flat = CliRunner().invoke(cli, ["stats", str(tmp_path), "--csv"])
    assert flat.exit_code == 0, flat.output
    rows = list(csv.DictReader(io.StringIO(flat.stdout)))
    assert len(rows) == 1 and rows[0]["games"] == "2" and rows[0]["samples"] == "1"
    honest = load_results(tmp_path)
    assert rows[0]["won"] == str(int((honest["verdict"] == "won").sum()))
    for args, named in [
        (["--budgets", "100"], "--budgets"),
        (["--by", "suits"], "--by"),
        (["--plot", str(tmp_path / "p.png")], "--plot"),
        (["--by", "search", "--plot", str(tmp_path / "p.png")], "--by, --plot"),
    ]:
        out = CliRunner().invoke(cli, ["stats", str(tmp_path), *args])
        assert out.exit_code == 2 and out.stdout == ""
        assert out.stderr.startswith(f"error: {named}: the results hold honest games only")
        assert len(out.stderr.splitlines()) == 1
    assert not (tmp_path / "p.png").exists()
    # hints are the solver's: none to give, and an old CSV is not replaced by an empty one
    (tmp_path / "h.csv").write_text("old")
    out = CliRunner().invoke(cli, ["hints", str(tmp_path), "--out", str(tmp_path / "h.csv")])
    assert out.exit_code == 2 and out.stdout == ""
    assert out.stderr.startswith("error: the results hold honest games only")
    assert len(out.stderr.splitlines()) == 1
    assert (tmp_path / "h.csv").read_text() == "old"


def test_results_with_no_rows_are_no_results(tmp_path, monkeypatch):
    # stats printed an empty table, --plot drew two empty figures, all with status 0
    frame = load_results_frame_of_one_row(tmp_path)
    monkeypatch.chdir(tmp_path)
    frame.iloc[0:0].to_parquet("empty.parquet")
    for args in (["stats"], ["stats", "--json"], ["hints"]):
        out = CliRunner().invoke(cli, [*args, "empty.parquet"])
        assert out.exit_code == 2 and out.stdout == "", out.output
        assert out.stderr == "error: no results at 'empty.parquet': its files hold no rows\n"


def load_results_frame_of_one_row(tmp_path):
    batch(tmp_path / "one", "--workers", "1", deals="0:1", nodes="200")
    return load_results(tmp_path / "one")


def test_a_resumed_run_reads_its_results_once_bug(tmp_path, monkeypatch):
    """Resuming 32,000 PySolFC deals spent hours reading the store once per task."""
    out = tmp_path / "res"
    batch(out, "--workers", "1")
    reads = []
    load = ResultStore.load

    def counted(self, *args, **kwargs):
        reads.append(1)
        return load(self, *args, **kwargs)

    monkeypatch.setattr(ResultStore, "load", counted)
    tasks = plan("code", [1], ["classic"], range(0, 2000), int(NODES))
    left = _not_done(ResultStore(out), tasks)
    assert len(left) == 2000 - 6 and len(reads) == 1
