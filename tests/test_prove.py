"""The exhaustive walk (``solve --prove``): it sees every reachable position once.

Checked against a reference walk with the reference rules that keys positions
by their columns (each with the stock cards future deals put on it) in sorted
order: on random small endgames, with and without a stock, the walk's verdict
is the reference's, and for a lost position the number of positions it saw
is exactly the number the reference counts.
"""

from __future__ import annotations

import random

import pytest
from strategies import endgame_cases

from spidersolve.errors import SpiderError
from spidersolve.search import _prove as P
from spidersolve.search.heuristic import is_preset
from spidersolve.search.prove import MIN_MEMORY, prove, walk
from spidersolve.search.verify import verify_win
from spidersolve.state import Game, GameCode, Position, legal_actions
from spidersolve.state.rules import apply

WALK_MEMORY = 400 * 2**20


def _key(pos: Position):
    """The position up to column order: each column with its future stock cards."""
    deals = len(pos.stock) // 10
    future = [tuple(pos.stock[10 * k + c] for k in range(deals)) for c in range(10)]
    return len(pos.stock), tuple(sorted(zip(pos.down, pos.up, future)))


def reference_walk(position: Position, cap: int):
    """(verdict, every reachable position) by the reference rules; None past ``cap``."""
    seen = {_key(position)}
    stack = [position]
    won = len(position.removed) == 8
    while stack:
        pos = stack.pop()
        for action in legal_actions(pos):
            child, _ = apply(pos, action)
            won = won or len(child.removed) == 8
            k = _key(child)
            if k not in seen:
                if len(seen) >= cap:
                    return None
                seen.add(k)
                stack.append(child)
    return ("won" if won else "lost"), len(seen)


def reference_dfs(position: Position, limit: int, every: bool = False):
    """The kernel's walk, step for step, with the reference rules: actions in
    their documented order, a new child entered at once, the walk given up
    when ``limit`` positions were entered (``every``: not at a win either).
    (verdict, positions seen)."""
    won = False
    seen = {_key(position)}
    stack = [iter(legal_actions(position))]
    path = [position]
    nodes = 1
    while stack:
        action = next(stack[-1], None)
        if action is None:
            stack.pop()
            path.pop()
            continue
        child, _ = apply(path[-1], action)
        if len(child.removed) == 8:
            if not every:
                return "won", len(seen)
            won = True
        k = _key(child)
        if k in seen:
            continue
        seen.add(k)
        if nodes >= limit:
            return ("won" if won else "unknown"), len(seen)
        nodes += 1
        stack.append(iter(legal_actions(child)))
        path.append(child)
    return ("won" if won else "lost"), len(seen)


# the lost endgames of the solver's exhaustive check (every position counted)
SMALL = [
    (pos, reference_walk(pos, 5000))
    for pos, verdict in endgame_cases(60, seed=20261129)
    if verdict == "lost"
]


def _walked(seed: int) -> Position:
    """A position some random actions into a deal (1, 2 or 4 suits, either rules)."""
    rng = random.Random(seed)
    suits = rng.choice([1, 2, 4])
    rules = "C" if suits == 1 else rng.choice("CR")
    game = Game.start(f"SP1-S{suits}{rules}-AAAAA{'ABCDEFGH'[seed % 8]}{'ABCD'[seed % 4]}")
    for _ in range(rng.randint(0, 40)):
        actions = game.legal_actions()
        if not actions:
            break
        game.push(rng.choice(actions))
    return game.position


def test_the_lost_endgames_are_there():
    assert len(SMALL) >= 5 and max(count for _, (_, count) in SMALL) > 3


@pytest.mark.parametrize("index", range(len(SMALL)))
def test_walk_of_a_lost_endgame_sees_every_reachable_position_once(index):
    pos, (verdict, count) = SMALL[index]
    got, _, result, _, _ = walk(Game.start(pos), WALK_MEMORY)
    assert (got, int(result[P.P_SEEN])) == ("lost", count), pos.to_text()


@pytest.mark.parametrize("index", range(0, 60, 6))
def test_walk_counts_every_position_past_a_win(index):
    pos, verdict = endgame_cases(60, seed=20261129)[index]
    limit = 400
    got, line, result, _, _ = walk(Game.start(pos), WALK_MEMORY, limit, every=True)
    want = reference_dfs(pos, limit, every=True)
    assert (got, int(result[P.P_SEEN])) == want, pos.to_text()
    if got == "won":
        verify_win(Game.start(pos), line)


@pytest.mark.parametrize("seed", range(16))
def test_walk_is_the_reference_walk_step_for_step(seed):
    pos = _walked(seed)
    limit = 150
    got, line, result, _, _ = walk(Game.start(pos), WALK_MEMORY, limit)
    want = reference_dfs(pos, limit)
    assert (got, int(result[P.P_SEEN])) == want, pos.to_text()


def test_prove_settles_a_lost_endgame_with_the_walk():
    pos, (_, count) = max((c for c in SMALL if c[1][0] == "lost"), key=lambda c: c[1][1])
    result = prove(pos, memory=WALK_MEMORY, search_nodes=1)
    assert (result.verdict, result.by, result.seen) == ("lost", "walk", count)


def test_prove_reports_the_search_s_win_without_a_walk():
    result = prove("SP1-S1C-AAAAAAD", memory=WALK_MEMORY)
    assert (result.verdict, result.by, result.nodes) == ("won", "search", 0)
    verify_win("SP1-S1C-AAAAAAD", result.line)


def test_a_won_walk_line_is_shortened_and_replayed():
    pos = next(p for p, v in endgame_cases(60, seed=20261129) if v == "won")
    result = prove(pos, memory=WALK_MEMORY, search_nodes=1)
    assert result.verdict == "won"
    verify_win(Game.start(pos), result.line)


def test_walk_is_unknown_at_its_node_limit_and_says_why():
    result = prove("SP1-S4C-AAAAAAA", memory=WALK_MEMORY, search_nodes=10, nodes=1000)
    assert (result.verdict, result.by, result.nodes) == ("unknown", "walk", 1000)
    assert "node limit" in result.why


def test_same_walk_twice_is_the_same():
    a = prove("SP1-S4C-AAAAAAA", memory=WALK_MEMORY, search_nodes=10, nodes=5000)
    b = prove("SP1-S4C-AAAAAAA", memory=WALK_MEMORY, search_nodes=10, nodes=5000)
    assert (a.seen, a.max_depth) == (b.seen, b.max_depth)


def test_too_little_memory_is_refused():
    with pytest.raises(SpiderError, match="too little"):
        prove("SP1-S1C-AAAAAAD", memory=MIN_MEMORY // 2)


# --- the command line ----------------------------------------------------------------


def _run(args, text=None):
    from click.testing import CliRunner

    from spidersolve.cli.main import cli

    return CliRunner().invoke(cli, args, input=text)


def test_solve_prove_walks_when_the_search_gives_up(tmp_path):
    pos, (_, count) = max(SMALL, key=lambda c: c[1][1])
    path = tmp_path / "lost.txt"
    path.write_text(pos.to_text())
    result = _run(["solve", str(path), "--nodes", "1", "--prove", "--memory", "500M"])
    assert result.exit_code == 0, result.output
    assert "verdict: lost" in result.output and "settled by: walk" in result.output
    assert f"{count:,} seen" in result.output
    assert "every reachable position was walked" in result.output


def test_solve_prove_text_of_a_won_deal_gives_the_score_as_solve_does():
    result = _run(["solve", "SP1-S1C-AAAAAAD", "--nodes", "20000", "--prove", "--memory", "500M"])
    assert result.exit_code == 0, result.output
    plain = _run(["solve", "SP1-S1C-AAAAAAD", "--nodes", "20000"])
    score = [x for x in plain.output.splitlines() if x.startswith("score: ")]
    assert "verdict: won" in result.output and score
    if "settled by: search" in result.output:  # the same search: the same line and score
        assert score[0] in result.output.splitlines()
    assert any(x.startswith("score: ") for x in result.output.splitlines())


def test_solve_prove_with_too_little_memory_prints_only_the_refusal():
    result = _run(["solve", "SP1-S1C-AAAAAAD", "--nodes", "20000", "--prove", "--memory", "300M"])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "error: --memory 300 MB is too little for the walk: it needs at least 339 MB"
    ]


def test_solve_prove_with_more_memory_than_the_machine_has_is_refused_bug():
    # it printed numpy's "Unable to allocate 256. TiB ..." (or ran the machine out of
    # memory) after the compiling notice
    from spidersolve.search.memory import size_text, total_bytes

    for memory in ("1000T", "2000000G"):
        result = _run(["solve", "SP1-S1C-AAAAAAD", "--nodes", "10", "--prove", "--memory", memory])
        assert result.exit_code == 2
        [line] = result.output.splitlines()
        assert line.startswith("error: --memory ") and line.endswith(
            f"is more than this machine's memory ({size_text(total_bytes())}): give at most that"
        )


def test_a_seen_set_the_system_will_not_map_is_one_clear_error(monkeypatch):
    import mmap

    from spidersolve.search import prove as W

    def refuse(*_args):
        raise OSError(12, "Cannot allocate memory")

    monkeypatch.setattr(mmap, "mmap", refuse)
    with pytest.raises(SpiderError, match="could not have .* smaller --memory"):
        W.walk(Game.start(GameCode.parse("SP1-S1C-AAAAAAD").position()), MIN_MEMORY, nodes=10)


def test_solve_prove_json_of_a_won_deal():
    import json

    result = _run(["solve", "SP1-S1C-AAAAAAD", "--prove", "--json", "--memory", "2G"])
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert (obj["verdict"], obj["by"], obj["nodes"]) == ("won", "search", 0)
    end = verify_win("SP1-S1C-AAAAAAD", obj["line"].split())
    # the keys solve --json has are there too, with the same values
    plain = json.loads(_run(["solve", "SP1-S1C-AAAAAAD", "--json"]).stdout)
    assert set(plain) - {"nodes", "seconds"} <= set(obj)
    assert (
        (obj["moves"], obj["score"]) == (end.moves, end.score) == (plain["moves"], plain["score"])
    )


def test_unknown_says_how_to_go_further():
    result = _run(["solve", "SP1-S4C-AAAAAAA", "--nodes", "10"])
    assert (
        "try a larger --nodes, another --search (kp300, macro, beam_1500, beam_5000, kp_beam_5000, "
        "kp300_n1 .. _n9, kp300_n5_s1 .. _s60, beam_1500_n1 .. _n9), or --prove" in result.output
    )
    for search, then in (
        ("beam_1500", "beam_1500_n1"),
        ("beam_1500_n5", "beam_1500_n6"),
        ("kp300", "kp300_n1"),
        ("kp300_n9", "kp300_n10"),
        ("kp300_n9999", "kp300_n1"),  # a name preset takes, always
        ("kp300_n3_s1", "kp300_n3_s2"),  # with a seed: the same noise, the next seed
        ("beam_1500_n40_s9999", "beam_1500_n40_s1"),
    ):
        result = _run(["solve", "SP1-S4C-AAAAAAA", "--nodes", "10", "--search", search])
        assert (
            f"try a larger --nodes, the same search with other noise (--search {then}), or --prove"
            in result.output
        )
        assert is_preset(then)


def test_solve_search_runs_that_configuration():
    import json

    from spidersolve.search import solve

    for name in ("default", "kp300", "KP300", "beam_300_n4"):  # names in any case
        result = _run(["solve", "SP1-S2C-AAAAAAD", "--search", name, "--json"])
        assert result.exit_code == 0, result.output
        obj = json.loads(result.stdout)
        alone = solve("SP1-S2C-AAAAAAD", weights=None if name == "default" else name.lower())
        assert (obj["verdict"], obj["nodes"], obj["line"]) == (
            alone.verdict,
            alone.nodes,
            alone.line_text,
        )
    # another search indeed: 1,720 nodes against the default's 2,056
    assert solve("SP1-S2C-AAAAAAD", weights="kp300").nodes != solve("SP1-S2C-AAAAAAD").nodes


def test_solve_search_refuses_an_unknown_name_and_prove():
    for bad in ("nosuch", "kp300_n0", "beam_300_n0"):
        result = _run(["solve", "SP1-S1C-AAAAAAD", "--search", bad])
        assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1, result.stderr
        assert bad in result.stderr and "kp300" in result.stderr and "_n1" in result.stderr
    result = _run(["solve", "SP1-S1C-AAAAAAD", "--search", "kp300", "--prove"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --prove does not combine with --search")
    assert "run --prove without it, or solve without --prove to use it" in result.stderr
    # ... and the advice after an unknown says so
    unknown = _run(["solve", "SP1-S4C-AAAAAAB", "--search", "macro", "--nodes", "100"])
    assert unknown.exit_code == 0 and "--prove to walk every position (without --search" in (
        unknown.stdout
    )


def test_solve_prove_with_too_little_memory_is_refused():
    result = _run(["solve", "SP1-S4C-AAAAAAA", "--nodes", "10", "--prove", "--memory", "250M"])
    assert result.exit_code == 2
    assert "too little for the walk" in result.output


def test_solve_prove_with_page_or_words_is_refused():
    result = _run(["solve", "SP1-S1C-AAAAAAD", "--prove", "--words", "--shorten"])
    assert result.exit_code == 2
    assert "--prove does not combine with --words, --shorten" in result.output


def test_walk_path_grows_with_memory_bug():
    # SP1-S4C-AAAAAAA's walk went 262,143 actions deep within 1.7 million
    # positions at --memory 1G and gave up ("the path was too deep"), with
    # the advice "run it again", which changes nothing.
    from spidersolve.search.prove import MIN_DEPTH, path_levels, table_slots

    assert path_levels(400 * 2**20) == MIN_DEPTH
    assert path_levels(8 * 2**30) > 5 * MIN_DEPTH
    assert table_slots(8 * 2**30) == 2**28  # the seen set keeps the lion's share
    result = prove("SP1-S4C-AAAAAAA", memory=WALK_MEMORY, search_nodes=10, nodes=400_000)
    assert result.max_depth < MIN_DEPTH or result.why == "the path was too deep"


def test_the_beam_rung_says_lost_only_when_it_dropped_nothing():
    # beam_1500 keeps 1,500 positions a layer: a small endgame fits, so running out
    # of positions is a proof there; a deal's layers do not, so running out is not
    from spidersolve.search import solve

    for pos, _ in SMALL:
        for name in ("beam_1500", "beam_3000_n5", "beam_5000", "kp_beam_5000"):
            assert solve(pos, nodes=10**5, weights=name).verdict == "lost", (name, pos.to_text())
    ran_out = solve("pysol:4:10858", nodes=3 * 10**6, weights="beam_1500")
    assert ran_out.verdict == "unknown" and ran_out.nodes < 3 * 10**6
    won = solve("SP1-S2C-AAAAAAD", weights="beam_1500")
    assert won.verdict == "won"
    verify_win("SP1-S2C-AAAAAAD", won.line)


def test_the_wide_beam_rungs_are_the_beam_rung_wider():
    from spidersolve.search.heuristic import BEAM_1500, BEAM_3000, BEAM_5000, weight_rows

    assert BEAM_5000 == BEAM_1500.replace(width=5000)
    assert weight_rows("beam_5000").tolist() == [list(BEAM_5000)]
    assert BEAM_3000 == BEAM_1500.replace(width=3000)
    assert weight_rows("beam_3000_n5").tolist() == [list(BEAM_3000.replace(noise=5))]


def test_the_kpatience_beam_rung_is_the_kp300_beam_alone_and_wider():
    from spidersolve.search.heuristic import KP_300, KP_BEAM_5000, weight_rows

    assert KP_BEAM_5000 == KP_300[-1].replace(width=5000)
    assert KP_BEAM_5000.face_down == 0  # ranked as KPatience ranks: no face-down term
    assert weight_rows("kp_beam_5000").tolist() == [list(KP_BEAM_5000)]
