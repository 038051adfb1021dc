"""Hints and the solve/hint commands."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from data import LOST_TEXT, STUCK_TEXT, read_vectors

from spidersolve.cli.main import cli
from spidersolve.search import HINT_NODES, hint, solve
from spidersolve.state import GameCode, Position, legal_actions, replay
from spidersolve.state.words import line_sentences


def run(*args, stdin=None):
    return CliRunner().invoke(cli, list(args), input=stdin)


# Within the default budget, every one of these hints is proven.
HINT_CASES = [
    ("SP1-S1C-AAAAAAD", ""),
    ("SP1-S1C-AAAAAAD", "1>8 8>7x2 8>2 deal"),
    ("SP1-S2C-AAAAAAA", ""),
    ("SP1-S2R-AAAAAAB", "3>2 4>7"),
    ("SP1-S4C-AAAAPOA", ""),
]


@pytest.mark.parametrize("code,after", HINT_CASES)
def test_hint_is_a_legal_action_and_a_proven_line_wins(code, after):
    game = replay(GameCode.parse(code).position(), after)
    result = hint(code, after=after)
    assert result.status == "proven"
    assert result.action in legal_actions(game.position)
    assert result.nodes <= HINT_NODES
    assert result.line[0] == result.action
    assert replay(game.position, result.line, game).won
    assert result.line_length == len(result.line)
    assert result.words == result.action.words(game.position)


@pytest.mark.parametrize("code,after", HINT_CASES)
def test_hint_one_node_short_of_its_proof_is_unproven_and_still_legal(code, after):
    game = replay(GameCode.parse(code).position(), after)
    proven = hint(code, after=after)
    short = hint(code, after=after, nodes=proven.nodes - 1)
    assert short.status == "unproven"
    assert (short.line, short.line_length, short.nodes) == (None, None, proven.nodes - 1)
    assert short.action in legal_actions(game.position)
    assert short.words == short.action.words(game.position)
    assert solve(game, nodes=proven.nodes - 1).verdict == "unknown"


def test_one_suit_hint_is_proven():
    result = hint("SP1-S1C-AAAAAAD")
    assert result.status == "proven"
    assert result.words.startswith("move ") or result.words.startswith("deal ")


def test_unproven_hint_still_suggests_a_legal_action():
    result = hint("SP1-S4C-AAAAAAB", nodes=20)
    assert result.status == "unproven"
    assert result.action in legal_actions(GameCode.parse("SP1-S4C-AAAAAAB").position())


def test_lost_position_says_lost():
    result = hint(Position.from_text(LOST_TEXT))
    assert (result.status, result.action, result.line) == ("lost", None, None)


def test_position_with_no_legal_action_is_stuck():
    result = hint(Position.from_text(STUCK_TEXT))
    assert (result.status, result.action) == ("stuck", None)


def test_won_game_says_won():
    row = read_vectors("wins")[0]
    result = hint(row["code"], after=row["line"])
    assert result.status == "won"


def test_hint_command_prints_action_words_and_status():
    out = run("hint", "SP1-S1C-AAAAAAD", "--line")
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    action, words = lines[0].split(": ", 1)
    assert words.startswith("move ") or words.startswith("deal ")
    assert lines[1].startswith("proven: the first action of a winning line of ")
    assert lines[2].startswith("line: " + action)


def test_hint_command_json_has_stable_keys():
    out = run("hint", "SP1-S1C-AAAAAAD", "--after", "1>8", "--json")
    data = json.loads(out.stdout)
    assert list(data) == ["status", "action", "words", "line", "line_length", "nodes", "seconds"]
    assert data["status"] == "proven" and data["line"].split()[0] == data["action"]


def test_hint_command_reports_lost_and_stuck(tmp_path):
    lost = tmp_path / "lost.txt"
    lost.write_text(LOST_TEXT)
    out = run("hint", str(lost))
    assert out.exit_code == 0 and out.stdout.startswith("lost: no winning line exists")
    out = run("hint", "-", stdin=STUCK_TEXT)
    assert out.exit_code == 0 and "no legal action" in out.stdout


def test_hint_with_unknown_cards_is_honest(tmp_path):
    path = tmp_path / "unknown.txt"
    path.write_text(STUCK_TEXT.replace("1: 2S 2H | AS", "1: ?? ?? | AS"))
    out = run("hint", str(path))
    assert out.exit_code == 0, out.output
    assert "no legal action" in out.stdout  # stuck whatever the hidden cards are


def test_hint_after_an_illegal_action_names_it_and_the_rule():
    out = run("hint", "SP1-S1C-AAAAAAD", "--after", "1>8 1>9")
    assert out.exit_code == 2
    assert (
        out.stderr.strip().splitlines() == [out.stderr.strip()]
        and "action 2 (1>9)" in out.stderr
        and "not one rank below" in out.stderr
    )


def test_solve_command_json_has_stable_keys_and_a_winning_line():
    out = run("solve", "SP1-S1C-AAAAAAD", "--json")
    data = json.loads(out.stdout)
    assert list(data) == ["verdict", "nodes", "seconds", "line", "moves", "score"]
    assert data["verdict"] == "won"
    final = replay(GameCode.parse("SP1-S1C-AAAAAAD").position(), data["line"])
    assert final.won and final.score == data["score"] and final.moves == data["moves"]


def test_solve_command_prints_the_line_in_words():
    out = run("solve", "SP1-S1C-AAAAAAD", "--words")
    assert out.exit_code == 0
    assert "verdict: won" in out.stdout
    line = next(l for l in out.stdout.splitlines() if l.startswith("line: "))[6:]
    numbered = [l for l in out.stdout.splitlines() if l[:1].isdigit()]
    start = GameCode.parse("SP1-S1C-AAAAAAD").position()
    assert numbered == [
        f"{i}. {a}: {s}"
        for i, (a, s) in enumerate(zip(line.split(), line_sentences(start, line)), start=1)
    ]
    assert numbered[0].startswith("1. 10>2: move the 5S from column 10 onto the 6S in column 2")


def test_solve_command_unknown_and_lost(tmp_path):
    out = run("solve", "SP1-S4C-AAAAAAB", "--nodes", "10", "--json")
    assert json.loads(out.stdout)["verdict"] == "unknown"
    assert json.loads(out.stdout)["line"] is None
    path = tmp_path / "lost.txt"
    path.write_text(LOST_TEXT)
    out = run("solve", str(path), "--json")
    assert json.loads(out.stdout) | {"seconds": 0} == {
        "verdict": "lost",
        "nodes": 2,
        "seconds": 0,
        "line": None,
        "moves": None,
        "score": None,
    }


def test_solve_command_rejects_a_zero_node_limit():
    out = run("solve", "SP1-S1C-AAAAAAD", "--nodes", "0")
    assert out.exit_code == 2 and out.stderr.startswith("error:")


def test_first_run_says_it_compiles(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # an empty cache
    monkeypatch.setenv("SPIDERSOLVE_NATIVE", "0")  # numba's kernels (see test_native.py)
    out = run("hint", "SP1-S1C-AAAAAAD", "--json")
    assert out.exit_code == 0
    assert out.stderr.startswith("compiling the numba kernels")
    assert json.loads(out.stdout)["status"] == "proven"


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "SP1-S1C-AAAAAAD", "--nodes", str(2**63)],
        ["hint", "SP1-S1C-AAAAAAD", "--nodes", "1" + "0" * 20],
        ["solve", "SP1-S1C-AAAAAAD", "--after", "1>2x" + "9" * 5000],
        ["deal", "pysol:4:" + "9" * 5000],
        ["deal", "pysol:" + "9" * 5000 + ":5"],
        ["batch", "--nodes", "1e400", "--deals", "0:2", "--out", "unused"],
        ["hint", "SP1-S1C-AAAAAAD", "--honest", "--seed", str(2**64)],
        ["batch", "--player", "honest", "--seed", str(2**63), "--deals", "0:2", "--out", "unused"],
    ],
)
def test_huge_numbers_are_one_error_line(args):
    out = run(*args)
    assert out.exit_code == 2
    assert out.stderr.startswith("error:") and len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.output


def test_a_non_ascii_digit_column_label_is_an_error():
    out = run("solve", "-", stdin="spider 1 classic\n\u00b2: |\n")
    assert out.exit_code == 2 and out.stderr.startswith("error: line 2:")


def test_lost_is_said_at_the_exact_node_count():
    lost = solve(Position.from_text(LOST_TEXT), nodes=2)
    stuck = solve(Position.from_text(STUCK_TEXT), nodes=1)
    assert (lost.verdict, lost.nodes) == ("lost", 2)
    assert (stuck.verdict, stuck.nodes) == ("lost", 1)


def test_a_long_game_can_still_be_solved():
    from spidersolve.state import Game

    game = Game(GameCode.parse("SP1-S1C-AAAAAAD").position(), moves=40_000, score=0)
    result = solve(game, nodes=100_000)
    final = replay(game.position, result.line, game)
    assert result.verdict == "won" and final.won
    assert (result.score, final.moves) == (final.score, 40_000 + result.moves)


def test_solve_command_shorten_gives_a_shorter_line_that_wins():
    plain = json.loads(run("solve", "SP1-S1C-AAAAAAD", "--json").stdout)
    short = json.loads(run("solve", "SP1-S1C-AAAAAAD", "--shorten", "--json").stdout)
    assert short["verdict"] == "won" and short["nodes"] == plain["nodes"]
    assert short["moves"] < plain["moves"] and short["score"] > plain["score"]
    game = replay(GameCode.parse("SP1-S1C-AAAAAAD").position(), short["line"])
    assert game.won and game.score == short["score"]


def test_shorten_says_it_compiles_the_beam_the_first_time(tmp_path, monkeypatch):
    from spidersolve.search.compiled import cache_dir

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("SPIDERSOLVE_NATIVE", "0")
    cache = cache_dir("search")
    cache.mkdir()
    (cache / "_kernels.search-1.py311.nbi").write_bytes(b"")
    assert run("solve", "SP1-S1C-AAAAAAD").stderr == ""
    out = run("solve", "SP1-S1C-AAAAAAD", "--shorten")
    assert out.exit_code == 0 and out.stderr.startswith("compiling the numba kernels")
    (cache / "_lines.beam-1.py311.nbi").write_bytes(b"")
    assert run("solve", "SP1-S1C-AAAAAAD", "--shorten").stderr == ""


def test_stale_search_cache_is_dropped_and_a_fresh_one_kept(tmp_path, monkeypatch):
    """Cache files of the search package older than a kernel file they inline go."""
    import os

    from spidersolve.search.compiled import cache_dir, drop_stale_search_cache, kernel_sources

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    newest = max(path.stat().st_mtime for path in kernel_sources("search"))
    files = {}
    for folder, name, age in [
        ("search", "_kernels.search-1.py311", -10),
        ("search", "_lines.beam-1.py311", -10),
        ("search", "_lines.beam-2.py311", +10),
        ("state", "_kernels.perft-1.py311", -10),
    ]:
        cache_dir(folder).mkdir(exist_ok=True)
        for suffix in (".nbi", ".1.nbc"):
            path = cache_dir(folder) / (name + suffix)
            path.write_bytes(b"")
            os.utime(path, (newest + age, newest + age))
            files[path] = (folder, age)
    drop_stale_search_cache()
    for path, (folder, age) in files.items():
        assert path.exists() == (folder == "state" or age > 0), path


def test_an_honest_hint_takes_every_seed_the_library_takes():
    # the CLI stopped at 2**63 - 1 (a batch's int64 column) where advise takes 2**64 - 1
    out = run("hint", "SP1-S1C-AAAAAAD", "--honest", "--seed", str(2**64 - 1), "--json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["status"] == "honest"
