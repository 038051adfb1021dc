"""The solver: verified wins, sound losses, determinism and nested budgets."""

from __future__ import annotations

import random

import pytest
from data import LOST_TEXT, STUCK_TEXT, read_vectors
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from strategies import (
    STORED_ENDGAMES,
    endgame_cases,
    exhaustive_verdict,
    make_endgame_cases,
    random_endgame,
    stored_endgames,
)

from spidersolve import SpiderError
from spidersolve.search import ReplayFailed, solve, verify_win
from spidersolve.state import (
    Action,
    Game,
    GameCode,
    Position,
    as_game,
    legal_actions,
    line_text,
    parse_line,
    replay,
)
from spidersolve.state.rules import apply


def _code(suits, deal, rules="classic"):
    return GameCode(suits, rules, deal).position()


@pytest.mark.parametrize("suits,deal", [(1, 0), (1, 3), (1, 7), (2, 0), (2, 5), (4, 1003)])
def test_won_line_replays_to_a_win_with_the_reference_rules(suits, deal):
    result = solve(_code(suits, deal), nodes=300_000)
    assert result.verdict == "won"
    final = replay(_code(suits, deal), result.line)
    assert final.won
    assert result.moves == len(result.line) == final.moves
    assert result.score == final.score == 500 - final.moves + 800  # lines stay under 500


def test_won_line_from_after_starts_where_after_ends():
    start = _code(1, 3)
    after = "1>8 8>7x2"
    result = solve("SP1-S1C-AAAAAAD", nodes=100_000, after=after)
    assert result.verdict == "won"
    game = replay(start, after)
    final = replay(game.position, result.line, game)
    assert final.won and final.score == result.score


def test_same_input_gives_same_verdict_line_and_nodes():
    first = solve(_code(2, 11), nodes=50_000)
    second = solve(_code(2, 11), nodes=50_000)
    assert (first.verdict, first.nodes, first.line) == (second.verdict, second.nodes, second.line)


def _assert_budgets_nest(source, after, full, below_spends_all=False):
    """``full`` (a win in n nodes) is the same win at n and at n + 12,345 nodes, and
    unknown at n - 1 (having spent all n - 1 nodes, with ``below_spends_all``)."""
    n = full.nodes
    exact = solve(source, after=after, nodes=n)
    below = solve(source, after=after, nodes=n - 1)
    above = solve(source, after=after, nodes=n + 12_345)
    assert (exact.verdict, exact.nodes, exact.line) == ("won", n, full.line)
    assert (above.verdict, above.nodes, above.line) == ("won", n, full.line)
    assert below.verdict == "unknown"
    assert below.nodes == n - 1 if below_spends_all else below.nodes <= n - 1


@pytest.mark.parametrize("suits,deal", [(1, 2), (2, 4), (4, 1000)])
def test_budgets_nest_won_at_n_unknown_at_n_minus_one(suits, deal):
    full = solve(_code(suits, deal), nodes=300_000)
    assert full.verdict == "won"
    _assert_budgets_nest(_code(suits, deal), "", full, below_spends_all=True)


def _no_back_beams(monkeypatch):
    """The default's phases without back beams, after the rows or after a tail beam."""
    from spidersolve.search import solver

    for name in ("BACK_NODES", "BACK_DEALS", "BEAM_BACK_DEALS"):
        monkeypatch.setattr(solver, name, 0)


@pytest.mark.parametrize("cut, tail", [(60, 50_000), (60, 10), (40, 50_000)])
def test_the_phases_of_a_budget_nest(monkeypatch, cut, tail):
    """The default's first TAIL_AFTER nodes, then the tail beams, then the default again.

    Small phases (the real ones are 450,000, 50,000 and 172,500 nodes) and two
    beams of this test's own (not the default's, so that the cases below
    hold whatever the default's beams are), from ``cut`` actions into a
    one-suit deal: from 60,
    with a long tail the first beam wins, and with a tail of 10 nodes
    neither beam does and the default wins again, from the start, after
    them; from 40 the first beam does not win and the second does.
    """
    from spidersolve.search import solver
    from spidersolve.search.heuristic import Weights

    wide = Weights(face_down=5, breaks=5, mixed=5, empty=10, removed=10, spare=50, width=500)
    beams = (wide, wide.replace(width=250, noise=2, seed=1))

    code = _code(1, 3)
    after = line_text(solve(code, nodes=10_000).line[:cut])
    monkeypatch.setattr(solver, "TAIL_AFTER", 50)
    monkeypatch.setattr(solver, "TAIL_NODES", tail)
    monkeypatch.setattr(solver, "TAIL_BEAMS", beams)
    monkeypatch.setattr(solver, "FINISH_NODES", 0)  # no finisher: the next test has one
    _no_back_beams(monkeypatch)  # tests below have them
    alone = solve(code, after=after, nodes=100_000, weights="default")  # the default rows alone
    full = solve(code, after=after, nodes=100_000)
    assert alone.verdict == full.verdict == "won" and alone.nodes > 50
    n = full.nodes
    first, second = (solve(code, after=after, nodes=tail, weights=b) for b in beams)
    if tail == 10:  # no beam won in its 10 nodes: the default did, again
        assert first.verdict == second.verdict == "unknown"
        assert (n, full.line) == (50 + 2 * 10 + alone.nodes, alone.line)
    elif cut == 60:
        assert first.verdict == "won"
        assert (n, full.line) == (50 + first.nodes, first.line) and first.line != alone.line
    else:
        assert first.verdict == "unknown" and first.nodes == tail and second.verdict == "won"
        assert (n, full.line) == (50 + tail + second.nodes, second.line)
    _assert_budgets_nest(code, after, full)
    small = solve(code, after=after, nodes=50)
    assert small == solve(code, after=after, nodes=50, weights="default")
    # unknown after two phases: a hint follows the first phase's best line
    from spidersolve.search.hints import hint

    two = hint(code, after=after, nodes=60)
    assert two.status == "unproven" and two.nodes == 60
    assert two.action == hint(code, after=after, nodes=50, weights="default").action


def test_the_finisher_wins_from_a_beams_latest_position(monkeypatch):
    """After the tail beams, FINISH_NODES: the default rows from each search's latest
    position, the fewest deals left and best plain value first, FINISH_EACH at most
    from each.

    Small phases again (the test above): neither beam wins by its mark. The
    rows' latest position comes first (no deal left, the best plain value)
    and would be won in 321 nodes, more than FINISH_EACH; the first beam's
    comes next and is won. The line is the line to that position and then the
    finisher's, replayed to a win, and budgets nest.
    """
    from spidersolve.search import solver
    from spidersolve.search.heuristic import Weights, position_value
    from spidersolve.search.solver import _finisher_starts, _Search

    wide = Weights(face_down=5, breaks=5, mixed=5, empty=10, removed=10, spare=50, width=500)
    beams = (wide, wide.replace(width=250, noise=2, seed=1))
    code = _code(1, 3)
    after = line_text(solve(code, nodes=10_000).line[:40])
    monkeypatch.setattr(solver, "TAIL_AFTER", 50)
    monkeypatch.setattr(solver, "TAIL_NODES", 500)
    monkeypatch.setattr(solver, "FINISH_NODES", 600)
    monkeypatch.setattr(solver, "FINISH_EACH", 200)
    monkeypatch.setattr(solver, "TAIL_BEAMS", beams)
    _no_back_beams(monkeypatch)  # the next tests have them
    full = solve(code, after=after, nodes=1_650)
    assert full.verdict == "won" and 1_050 < full.nodes <= 1_650  # after both beams' marks
    game = as_game(code, after)
    rows = _Search(game, 50)
    runs = [_Search(game, 500, beam) for beam in beams]
    assert [run.verdict for run in [rows, *runs]] == ["unknown"] * 3
    assert runs[0].nodes + runs[1].nodes == 1_000
    late = [run.late_line() for run in (rows, *runs)]
    starts = _finisher_starts(game, late)
    assert sorted(starts) == sorted(set(late))  # each once
    ends = [replay(game, start).position for start in starts]
    keys = [(len(end.stock), position_value(end)) for end in ends]
    assert keys == sorted(keys) and starts[0] == late[0]  # the rows' first here
    assert solve(replay(game, starts[0]), nodes=1_000, weights="default").nodes > 200
    spent, line = 50 + 1_000, None
    for start in starts:
        assert start
        budget = min(1_650 - spent, 200)
        finisher = solve(replay(game, start), nodes=budget, weights="default")
        spent += finisher.nodes
        if finisher.verdict == "won":
            line = start + finisher.line
            break
    assert start == starts[1] == late[1]  # the cap left nodes for the first beam's
    assert all(not replay(game, s).position.stock for s in starts)  # no deal left
    assert (full.nodes, full.line) == (spent, line)
    assert replay(game, full.line).won
    _assert_budgets_nest(code, after, full)


def test_a_back_beam_wins_from_the_rows_latest_line_cut_before_a_deal(monkeypatch):
    """After the default rows, the back beams: the second tail beam from the rows'
    latest position's line cut before its last deal, then before the one before.

    Small phases again, on a two-suit deal 30 actions in, and a narrow beam
    of this test's own: from the game it does not win in 5,000 nodes; from
    the first cut it ends early without a win, leaving its nodes to the
    second, which wins. The line is the rows' line to the cut and then the
    beam's, replayed to a win, and budgets nest.
    """
    from spidersolve.search import solver
    from spidersolve.search.heuristic import Weights
    from spidersolve.search.solver import _back_starts, _Search

    narrow = Weights(face_down=5, breaks=5, mixed=5, empty=10, removed=10, spare=50, width=20)
    code = _code(2, 4)
    after = line_text(solve(code, nodes=10_000).line[:30])
    monkeypatch.setattr(solver, "TAIL_AFTER", 50)
    monkeypatch.setattr(solver, "BACK_NODES", 5_000)
    monkeypatch.setattr(solver, "TAIL_NODES", 5_000)
    monkeypatch.setattr(solver, "FINISH_NODES", 0)
    monkeypatch.setattr(solver, "TAIL_BEAMS", (narrow, narrow))
    game = as_game(code, after)
    assert _Search(game, 5_000, narrow).verdict == "unknown"
    rows = _Search(game, 50)
    assert rows.verdict == "unknown"
    starts = _back_starts(rows.late_line(), 2)
    assert len(starts) == 2 and len(starts[0]) > len(starts[1]) > 0
    late = rows.late_line()
    assert all(start == late[: len(start)] and late[len(start)].is_deal for start in starts)
    first = _Search(replay(game, starts[0]), 10_000, narrow)
    assert first.verdict == "unknown" and first.nodes < 5_000  # out of positions
    second = _Search(replay(game, starts[1]), 10_000 - first.nodes, narrow)
    assert second.verdict == "won"
    full = solve(game, nodes=20_000)
    assert full.verdict == "won" and full.nodes == 50 + first.nodes + second.nodes
    assert full.line == starts[1] + second.winning_line()
    assert replay(game, full.line).won
    _assert_budgets_nest(code, after, full)
    # without back beams the same budget does not win
    monkeypatch.setattr(solver, "BACK_NODES", 0)
    assert solve(game, nodes=full.nodes).verdict == "unknown"


def test_a_back_beam_wins_from_a_tail_beams_latest_line_cut_before_a_deal(monkeypatch):
    """After each tail beam, its own back beam: the last tail beam's weights from that
    tail beam's latest position's line cut before its last deal.

    Small phases, no back beams after the rows (``BACK_DEALS`` 0), two beams
    of this test's own, a noisy one and a narrow one, a two-suit deal 30
    actions in: neither tail beam wins in its 3,000 nodes, nor does the
    narrow beam from the first one's cut line in 2,000; from the second
    one's cut line it wins. The line is the second tail beam's line to the
    cut and then the back beam's, replayed to a win, and budgets nest.
    """
    from spidersolve.search import solver
    from spidersolve.search.heuristic import Weights
    from spidersolve.search.solver import _back_starts, _Search

    narrow = Weights(face_down=5, breaks=5, mixed=5, empty=10, removed=10, spare=50, width=20)
    noisy = narrow.replace(noise=2, seed=1)
    code = _code(2, 4)
    after = line_text(solve(code, nodes=10_000).line[:30])
    for name, value in (
        ("TAIL_AFTER", 50),
        ("BACK_DEALS", 0),
        ("TAIL_NODES", 3_000),
        ("BACK_NODES", 2_000),
        ("FINISH_NODES", 0),
        ("TAIL_BEAMS", (noisy, narrow)),
    ):
        monkeypatch.setattr(solver, name, value)
    game = as_game(code, after)
    assert _Search(game, 50).verdict == "unknown"
    starts = []
    for beam in (noisy, narrow):
        tail = _Search(game, 3_000, beam)
        assert tail.verdict == "unknown" and tail.nodes == 3_000
        late = tail.late_line()
        (start,) = _back_starts(late, 1)
        assert late[len(start)].is_deal and start == late[: len(start)]
        starts.append(start)
    assert starts[0] != starts[1]
    first = _Search(replay(game, starts[0]), 2_000, narrow)
    assert first.verdict == "unknown" and first.nodes == 2_000
    back = _Search(replay(game, starts[1]), 2_000, narrow)
    assert back.verdict == "won"
    full = solve(game, nodes=20_000)
    assert full.verdict == "won" and full.nodes == 50 + 3_000 + 2_000 + 3_000 + back.nodes
    assert full.line == starts[1] + back.winning_line()
    assert replay(game, full.line).won
    _assert_budgets_nest(code, after, full)
    # without them this line is not found (the default rows, again from the start
    # with what the tail beams left, win another way)
    monkeypatch.setattr(solver, "BEAM_BACK_DEALS", 0)
    assert solve(game, nodes=full.nodes).line != full.line


def test_shortened_line_still_wins_and_is_shorter():
    from spidersolve.search.heuristic import weights_row
    from spidersolve.search.solver import shorten_line

    greedy = weights_row(face_down=3, breaks=3, mixed=2, empty=4, removed=30)  # no depth term
    start = Game.start(_code(1, 2))
    plain = solve(start, nodes=100_000, weights=greedy)
    short = shorten_line(start, plain.line)
    assert len(short) < len(plain.line)
    assert replay(start.position, short).won
    result = solve(start, nodes=100_000, weights=greedy, shorten=True)
    assert result.line == short and result.moves == len(short)


@pytest.mark.parametrize(
    "suits, deal, rules",
    [(1, 5, "classic"), (2, 7, "classic"), (4, 3, "classic"), (4, 3, "relaxed")],
)
def test_beam_shortening_never_lengthens_and_is_deterministic(suits, deal, rules):
    from spidersolve.search.solver import shorten_line

    start = Game.start(_code(suits, deal, rules))
    line = solve(start).line
    for width, nodes in ((1, 10**6), (20, 10**6), (50, 300)):  # a tiny beam; a cut-off one
        short = shorten_line(start, line, width=width, nodes=nodes)
        assert len(short) <= len(line)
        assert replay(start.position, short).won
        assert shorten_line(start, line, width=width, nodes=nodes) == short


def test_beam_shortening_with_the_default_width_saves_moves():
    from spidersolve.search.solver import shorten_line

    start = Game.start(_code(1, 0))
    line = solve(start).line
    short = shorten_line(start, line)
    assert len(short) <= len(line) - 10  # 113 -> 91 when measured
    assert replay(start.position, short).won


def _detour(position):
    """A move and the move that takes it back to ``position``, or None."""
    for action in legal_actions(position):
        if action.n_cards == 0:
            continue
        moved = apply(position, action)[0]
        back = Action(action.dst, action.src, action.n_cards)
        if back in legal_actions(moved) and apply(moved, back)[0] == position:
            return [action, back]
    return None


def test_beam_cuts_a_detour_put_into_a_line():
    """A line made longer on purpose (a card moved away and back) comes back short."""
    from spidersolve.search.solver import shorten_line

    start = Game.start(_code(1, 0))
    line = list(solve(start).line)
    for i in range(len(line)):
        detour = _detour(replay(start.position, line[:i]).position)
        if detour:
            longer = line[:i] + detour + line[i:]
            assert replay(start.position, longer).won
            short = shorten_line(start, longer, width=1)
            assert len(short) <= len(line)
            return
    pytest.fail("no reversible action along the line")


def test_beam_cuts_many_detours_within_a_small_budget():
    """Each detour met is a shortcut; the beam goes on from the layer of the
    position met, not from the root, so many detours cost little budget."""
    from spidersolve.search.solver import shorten_line

    start = Game.start(_code(4, 3))
    line = list(solve(start).line)
    longer, detours = [], 0
    for i, step in enumerate(line):
        detour = _detour(replay(start.position, line[:i]).position) if i % 10 == 5 else None
        if detour:
            longer += detour
            detours += 1
        longer.append(step)
    assert detours >= 8 and replay(start.position, longer).won
    short = shorten_line(start, longer, width=1, nodes=20 * len(longer))
    assert len(short) <= len(line)
    assert replay(start.position, short).won


def test_unknown_when_the_limit_runs_out():
    result = solve(_code(4, 1001), nodes=50)
    assert result.verdict == "unknown" and result.nodes == 50 and result.line is None


def test_position_with_no_legal_action_is_lost():
    position = Position.from_text(STUCK_TEXT)
    assert legal_actions(position) == []
    result = solve(position)
    assert (result.verdict, result.nodes) == ("lost", 1)


def test_position_whose_only_line_dead_ends_is_lost():
    position = Position.from_text(LOST_TEXT)
    assert [a.text() for a in legal_actions(position)] == ["9>10"]
    result = solve(position)
    assert (result.verdict, result.nodes) == ("lost", 2)


def test_already_won_game_is_won_with_an_empty_line():
    row = read_vectors("wins")[0]
    game = replay(GameCode.parse(row["code"]).position(), row["line"])
    result = solve(game)
    assert result.verdict == "won" and result.line == () and result.score == row["score"]


def test_unknown_cards_cannot_be_solved():
    text = STUCK_TEXT.replace("1: 2S 2H | AS", "1: ?? ?? | AS")
    with pytest.raises(ValueError, match="unknown cards"):
        solve(Position.from_text(text))


def test_verify_win_rejects_a_line_that_does_not_win():
    game = Game.start(_code(1, 3))
    with pytest.raises(ReplayFailed):
        verify_win(game, [Action.parse("1>8")])
    with pytest.raises(ReplayFailed):
        verify_win(game, [Action.parse("1>2")])


# --- soundness against an exhaustive reference search on small endgames -------------


def test_the_stored_endgames_start_as_the_generator_makes_them():
    stored = stored_endgames()
    assert sorted(stored) == sorted(STORED_ENDGAMES)
    for count, seed in STORED_ENDGAMES:
        assert len(stored[count, seed]) == count
        # each case depends only on those before it, so a shorter run is a prefix
        assert stored[count, seed][:2] == make_endgame_cases(2, seed)  # one free, one blocked


def test_solver_agrees_with_exhaustive_search_on_sampled_endgames():
    cases = endgame_cases(60, seed=20261129)
    verdicts = [v for _, v in cases]
    assert "won" in verdicts and "lost" in verdicts  # both kinds are exercised
    for pos, verdict in cases:
        result = solve(pos, nodes=100_000)
        assert result.verdict == verdict, pos.to_text()


def test_solver_agrees_with_exhaustive_search_on_random_endgames():
    """Hypothesis draws the endgames; only those the exhaustive search decides
    count, and enough of them must be checked for the test to mean anything."""
    checked = []

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
    @given(
        seed=st.integers(0, 2**32 - 1),
        suits=st.sampled_from([1, 2, 4]),
        runs_left=st.sampled_from([1, 2]),
        blocked=st.booleans(),
    )
    def check(seed, suits, runs_left, blocked):
        pos = random_endgame(random.Random(seed), suits, runs_left, blocked)
        assume(pos is not None)
        verdict = exhaustive_verdict(pos, 3000)
        if verdict is None:
            event("the exhaustive search gave up")
        assume(verdict is not None)
        event(f"exhaustive verdict: {verdict}")
        result = solve(pos, nodes=100_000)
        assert result.verdict == verdict, pos.to_text()
        checked.append(verdict)

    check()
    assert len(checked) >= 20, f"only {len(checked)} endgames decided by the exhaustive search"


# --- beam rows ----------------------------------------------------------------------


def _depth_and_level(search, node, deals_at_root):
    """An expanded node's depth and number of deals left, from its action codes."""
    from spidersolve.state._kernels import DEAL

    codes = search._codes_to(node)
    return len(codes), deals_at_root - sum(code == DEAL for code in codes)


def test_a_beam_row_gives_out_at_most_its_width_per_depth_and_deals_left():
    from collections import Counter

    from spidersolve.search.heuristic import weights_row
    from spidersolve.search.solver import _Search

    game = Game.start(_code(4, 1002))
    search = _Search(game, 3000, weights=[weights_row(breaks=3, face_down=3, width=3)])
    # the narrow beam runs dry before the limit: unknown, since it dropped positions
    assert search.verdict == "unknown" and 100 < search.nodes < 3000
    per_layer = Counter(_depth_and_level(search, node, 5) for node in range(search.nodes))
    assert max(per_layer.values()) == 3  # the width binds, and is never exceeded
    depths = [_depth_and_level(search, node, 5)[0] for node in range(search.nodes)]
    assert max(depths) > search.nodes // (3 * 6)  # layers go deep, not wide


def test_beam_rows_alone_never_say_lost_after_dropping_a_position():
    from spidersolve.search.heuristic import weights_row

    narrow = [weights_row(breaks=1, width=1)]
    verdicts = set()
    for pos, verdict in endgame_cases(40, seed=7):
        result = solve(pos, nodes=100_000, weights=narrow)
        assert result.verdict in (verdict, "unknown"), pos.to_text()
        with_rows = solve(pos, nodes=100_000, weights=[narrow[0], weights_row(breaks=1)])
        assert with_rows.verdict == verdict, pos.to_text()  # one full row: sound again
        verdicts.add((verdict, result.verdict))
    assert ("lost", "unknown") in verdicts and ("won", "won") in verdicts


def test_the_shortening_beam_ranks_four_suit_games_with_their_own_weights():
    from spidersolve.search.heuristic import BEAM_WEIGHTS, BEAM_WEIGHTS_4_SUITS, beam_weights
    from spidersolve.search.solver import shorten_line

    assert beam_weights(1) == beam_weights(2) == BEAM_WEIGHTS != BEAM_WEIGHTS_4_SUITS
    start = Game.start(_code(4, 1001))
    line = solve(start, nodes=300_000).line
    short = shorten_line(start, line, width=10)
    assert short == shorten_line(start, line, width=10, weights=BEAM_WEIGHTS_4_SUITS)
    assert len(short) <= len(line) and replay(start.position, short).won


def test_the_late_entry_has_the_fewest_deals_left_then_the_best_value():
    """``_Search.late_line`` (the kernel's ``RESULT_LATE_ENTRY``, where the finisher
    starts): of every position the search generated, one with the fewest deals
    left, and of those one with the best value of row 0, checked against every
    entry's line rebuilt and replayed with the reference rules."""
    from spidersolve.search._terms import evaluate
    from spidersolve.search.heuristic import weight_rows
    from spidersolve.search.solver import _Search
    from spidersolve.state.packed import to_board

    game = as_game(_code(2, 5))
    run = _Search(game, 300)
    assert run.verdict == "unknown"
    row = weight_rows(None)[0]
    best = None
    for entry in range(1, len(run.ent_action)):
        position = replay(game, run._line_to(entry)).position
        key = (len(position.stock), int(evaluate(to_board(position), row)))
        best = key if best is None or key < best else best
    late = replay(game, run.late_line()).position
    assert (len(late.stock), int(evaluate(to_board(late), row))) == best
    assert len(late.stock) < len(game.position.stock)  # it dealt


# SP1-S4C deal 783 after this line is lost: the default rows prove it in more than
# 50 nodes, the first tail beam (dropping nothing) in 144
LOST_AFTER_783 = (
    "7>5 5>10 7>3 1>6 10>5 deal 2>9 8>4 8>3 7>4 3>5 deal 8>4 3>7 deal 8>9 deal 9>6 "
    "3>10 7>1x2 8>3 1>2x2 9>2x2 1>6 deal 2>10 3>7 8>2 4>8 2>7x5 4>5 4>6 2>10 6>3 3>5 "
    "5>3 7>4x3 2>5 2>5 9>2 4>7x3 9>1 1>8 10>5 8>9x2 3>6 5>6x2 7>4x3 7>6x2 10>5 7>5 "
    "5>7 1>8 4>6x3 10>3 6>7x5 6>3x2 5>6 7>3x5 7>6 9>8 8>3 7>5 1>8 3>9 8>3 3>6x6 1>3 "
    "6>4x4 4>8 6>1 1>6 8>4 6>3 3>6 9>8 4>9 6>3 4>3x3 3>1x4 8>1 4>6 9>8 8>9 6>3 3>4 "
    "1>8 1>6x4 6>3x4 4>6 3>6x3 9>6 6>9 6>3x3 6>4 3>1x4 4>6 8>1 6>4 4>6 9>8 1>9 9>1 "
    "6>4 1>9 8>1 1>8 1>3x4 4>6 3>4x4 9>4 6>3 8>9 4>8 9>4 3>6 4>1x5 1>3x5 6>1 3>6x5 "
    "6>4x5 4>6x5 1>4 4>3 6>1x5 1>3x4 1>4 3>9 3>4x3 8>4 3>1 9>8 1>3 3>1 1>3 3>1 1>3 "
    "4>9 4>1x4 9>1 1>9"
)


@pytest.mark.parametrize("rows_backs", [1, 0])
def test_a_back_beam_that_proves_its_start_lost_does_not_end_the_solve(monkeypatch, rows_backs):
    """A back beam's lost is its start position's, not the deal's: the solve goes on and
    ends unknown, its nodes spent. The back beams' start is made a lost position here
    (``LOST_AFTER_783``, which the beam walks whole in 144 nodes): after the six rows
    (``rows_backs`` 1), or only after the first tail beam (0)."""
    from spidersolve.search import solver
    from spidersolve.search.solver import _Search

    code = _code(4, 783)
    lost = tuple(parse_line(LOST_AFTER_783))
    game = as_game(code, "")
    assert _Search(replay(game, lost), 1_000, solver.TAIL_BEAMS[-1]).verdict == "lost"
    for name, value in (
        ("TAIL_AFTER", 50),
        ("BACK_DEALS", rows_backs),
        ("BACK_NODES", 1_000),
        ("TAIL_NODES", 100),
        ("FINISH_NODES", 0),
        ("_back_starts", lambda line, count: [lost][:count]),
    ):
        monkeypatch.setattr(solver, name, value)
    proved = 50 + 144 if rows_backs else 50 + 100 + 144  # where the back beam proves it
    for limit in (proved, proved + 1, 3_250, 5_000):
        result = solve(code, nodes=limit)
        assert (result.verdict, result.nodes) == ("unknown", limit)


def test_a_tail_beam_that_proves_the_deal_lost_ends_the_solve(monkeypatch):
    """A beam that drops nothing and walks the whole tree from the game says lost,
    soundly: the solve stops there, at every larger limit, and no finisher runs
    (its lost would be only its start position's)."""
    from spidersolve.search import solver

    monkeypatch.setattr(solver, "TAIL_AFTER", 50)
    monkeypatch.setattr(solver, "TAIL_NODES", 500)
    monkeypatch.setattr(solver, "FINISH_NODES", 300)
    monkeypatch.setattr(solver, "BACK_NODES", 100)
    code = _code(4, 783)
    assert solve(code, after=LOST_AFTER_783, nodes=50).verdict == "unknown"
    assert solve(code, after=LOST_AFTER_783, nodes=193).verdict == "unknown"
    for limit in (194, 300, 1_050, 5_000):
        result = solve(code, after=LOST_AFTER_783, nodes=limit)
        assert (result.verdict, result.nodes) == ("lost", 194)


def test_the_library_says_what_to_do_with_hidden_cards_in_its_own_words():
    # it told a library caller to "give the game code with --after LINE"
    from spidersolve.state.visible import visible_of

    with pytest.raises(SpiderError) as caught:
        solve(visible_of("SP1-S1C-AAAAAAD"), nodes=100)
    assert "--after" not in str(caught.value) and "advise()" in str(caught.value)
