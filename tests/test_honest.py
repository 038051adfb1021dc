"""Honest play (SPEC section 11): decisions from the visible position alone."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from data import STUCK_TEXT

from spidersolve import SpiderError
from spidersolve.cards import UNKNOWN
from spidersolve.cli.main import cli
from spidersolve.search.honest import METHODS, advise, default_workers, reveal_plan
from spidersolve.search.honest_game import MAX_ACTIONS, play_honest
from spidersolve.state import Action, GameCode, Position, apply, legal_actions, replay
from spidersolve.state.visible import samples, visible_of

FAST = dict(samples=3, nodes=1500)


def _twin(position: Position, seed: int = 11) -> Position:
    """Another full position with the same visible position: the hidden cards reshuffled."""
    twin = samples(visible_of(position), 1, seed)[0]
    assert twin != position and visible_of(twin) == visible_of(position)
    return twin


def test_advice_is_the_same_for_every_filling_of_the_hidden_cards():
    pos = GameCode.parse("SP1-S2C-AAAAAAD").position()
    twin = _twin(pos)
    assert _decision(advise(pos, **FAST)) == _decision(advise(twin, **FAST))


def _decision(advice):
    """Everything an advice says but the seconds it took."""
    return (
        advice.status,
        advice.plan,
        advice.wins,
        advice.scored,
        advice.samples,
        advice.candidates,
        advice.nodes,
    )


def test_two_deals_with_one_visible_position_are_played_alike_until_they_differ():
    # The whole honest game on a deal and on a twin deal (the same face-up
    # cards, other hidden cards): the same action at every step while the
    # visible positions are the same.
    deal = GameCode.parse("SP1-S2C-AAAAAAD").position()
    twin = _swap_deep(deal)
    one, two = play_honest(deal, **FAST), play_honest(twin, **FAST)
    a, b = deal, twin
    same = 0
    for x, y in zip(one.line, two.line):
        if visible_of(a) != visible_of(b):
            break
        assert x == y, f"action {same + 1}: {x.text()} against {y.text()} from one view"
        a, b = apply(a, x)[0], apply(b, y)[0]
        same += 1
    assert same >= 20  # the two differ only in cards that turn up late


def _swap_deep(pos: Position) -> Position:
    """The deal with the bottom card of column 1 and the last stock card swapped."""
    down = [list(col) for col in pos.down]
    stock = list(pos.stock)
    assert down[0][0] != stock[-1]
    down[0][0], stock[-1] = stock[-1], down[0][0]
    return Position.make(pos.suits, pos.rules, down, pos.up, stock, pos.removed)


@pytest.mark.parametrize("method", METHODS)
def test_advice_is_deterministic_and_a_legal_action(method):
    view = visible_of(GameCode.parse("SP1-S4C-AAAAAAD").position())
    first = advise(view, method=method, **FAST)
    assert _decision(first) == _decision(advise(view, method=method, **FAST))
    assert first.status == "honest" and first.action in legal_actions(view)
    assert first.plan[0] == first.action
    assert 0 <= first.wins <= first.scored and first.samples == FAST["samples"]
    assert first.nodes > 0


def test_the_ranking_lists_every_scored_candidate_best_first():
    view = visible_of(GameCode.parse("SP1-S4C-AAAAAAD").position())
    ranking: list = []
    advice = advise(view, ranking=ranking, **FAST)
    assert _decision(advice) == _decision(advise(view, **FAST))  # asking changes nothing
    assert len(ranking) >= 2 and ranking[0][0] == advice.plan
    plans = [plan for plan, _wins, _scored, _value in ranking]
    assert len(set(plans)) == len(plans)
    for plan, wins, scored, value in ranking:
        assert 0 <= wins <= scored <= FAST["samples"] and isinstance(value, float)
        assert plan[0] in legal_actions(view)
    # the last round's candidates first, then those halved out, the later first: the
    # samples scored never grow down the list, and within one round the rank holds
    counts = [scored for _p, _w, scored, _v in ranking]
    assert counts == sorted(counts, reverse=True) and len(set(counts)) >= 2
    for (_p, w1, n1, v1), (_q, w2, n2, v2) in zip(ranking, ranking[1:]):
        if n1 == n2:
            assert (-w1 / n1, v1) <= (-w2 / n2, v2)
    voted: list = []
    advise(view, method="vote", ranking=voted, **FAST)
    assert voted == []  # nothing scored


def test_threads_give_the_same_advice_as_one():
    view = visible_of(GameCode.parse("SP1-S2C-AAAAABA").position())
    one, two = advise(view, workers=1, **FAST), advise(view, workers=2, **FAST)
    assert _decision(one) == _decision(two)


def test_another_seed_draws_other_samples():
    view = visible_of(GameCode.parse("SP1-S4C-AAAAAAD").position())
    a, b = advise(view, seed=0, **FAST), advise(view, seed=1, **FAST)
    assert (a.nodes, a.wins, a.plan) != (b.nodes, b.wins, b.plan)


def test_a_plan_stops_at_the_first_action_that_turns_up_a_card():
    view = visible_of(GameCode.parse("SP1-S1C-AAAAAAD").position())
    # 1>8 moves column 1's only face-up card: a card turns up, the plan ends there
    assert reveal_plan(view, [Action.parse("1>8"), Action.parse("8>7x2")]) == (Action.parse("1>8"),)
    assert reveal_plan(view, [Action.parse("deal"), Action.parse("1>2")]) == (Action.parse("deal"),)


def test_an_honest_game_replays_with_the_reference_rules():
    deal = GameCode.parse("SP1-S1C-AAAAAAD").position()
    result = play_honest(deal, **FAST)
    final = replay(deal, result.line)
    assert final.won == (result.result == "won")
    assert (final.moves, final.score) == (result.moves, result.score)
    assert len(result.line) <= MAX_ACTIONS


def test_an_honest_game_on_a_position_with_unknown_cards_is_refused():
    with pytest.raises(Exception, match="full deal"):
        play_honest(visible_of(GameCode.parse("SP1-S1C-AAAAAAD").position()))


def test_advice_on_a_won_or_stuck_position_says_so():
    won = Position.from_text(
        "spider 1 classic\nremoved: S S S S S S S S\nstock:\n"
        + "".join(f"{c}: |\n" for c in range(1, 11))
    )
    assert advise(won).status == "won"
    stuck = visible_of(Position.from_text(STUCK_TEXT))
    assert stuck.has_unknown and advise(stuck).status == "stuck"


def _run(*args, stdin=None):
    return CliRunner().invoke(cli, list(args), input=stdin)


def test_hint_honest_json_has_the_estimate_and_the_cost():
    out = _run("hint", "SP1-S2C-AAAAAAD", "--honest", "--samples", "3", "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    for key in ("status", "action", "words", "win_estimate", "samples", "nodes", "seconds"):
        assert key in data
    assert data["status"] == "honest" and data["samples"] == 3
    assert 0 <= data["win_estimate"] <= 1


def test_hint_on_a_visible_position_is_honest_and_ignores_what_it_cannot_see():
    view = visible_of(GameCode.parse("SP1-S2C-AAAAAAD").position()).to_text()
    out = _run("hint", "-", "--samples", "3", "--json", stdin=view)
    full = _run("hint", "SP1-S2C-AAAAAAD", "--honest", "--samples", "3", "--json")
    assert out.exit_code == 0 and full.exit_code == 0
    a, b = json.loads(out.stdout), json.loads(full.stdout)
    assert (a["action"], a["win_estimate"], a["nodes"]) == (
        b["action"],
        b["win_estimate"],
        b["nodes"],
    )


def test_hint_uses_the_hidden_cards_a_position_with_unknowns_names_bug():
    # a player who noted the first ten stock cards: the hint is advise's on that
    # position, not on one with every stock card hidden again
    full = GameCode.parse("SP1-S2C-AAAAAAD").position()
    noted = dataclasses.replace(visible_of(full), stock=full.stock[:10] + (UNKNOWN,) * 40)
    hidden = _run("hint", "-", "--samples", "3", "--json", stdin=visible_of(full).to_text())
    out = _run("hint", "-", "--samples", "3", "--json", stdin=noted.to_text())
    assert out.exit_code == 0 and hidden.exit_code == 0, out.output
    expected = advise(noted, samples=3, workers=default_workers())
    got = json.loads(out.stdout)
    assert (got["action"], got["nodes"]) == (expected.action.text(), expected.nodes)
    assert got["nodes"] != json.loads(hidden.stdout)["nodes"]


def test_hint_honest_hides_the_cards_a_position_with_unknowns_names_bug():
    # --honest is the visible position alone (SPEC 11): the same decision as for the
    # full deal, although the file names every face-down card and hides the stock
    full = GameCode.parse("SP1-S1C-AAAAAAD").position()
    half = dataclasses.replace(full, stock=(UNKNOWN,) * len(full.stock))
    args = ("--honest", "--samples", "2", "--json")
    a = _run("hint", "-", *args, stdin=half.to_text())
    b = _run("hint", "SP1-S1C-AAAAAAD", *args)
    assert a.exit_code == 0 and b.exit_code == 0, a.output
    a, b = json.loads(a.stdout), json.loads(b.stdout)
    assert (a["action"], a["win_estimate"], a["nodes"]) == (
        b["action"],
        b["win_estimate"],
        b["nodes"],
    )
    # without --honest the hint uses the face-down cards the file names
    named = json.loads(_run("hint", "-", "--samples", "2", "--json", stdin=half.to_text()).stdout)
    expected = advise(half, samples=2, workers=default_workers())
    assert (named["action"], named["nodes"]) == (expected.action.text(), expected.nodes)


ALL_FACE_UP = (
    "spider 1 classic\nremoved: S S S S S S S\nstock:\n"
    "1: | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S\n2: | AS\n"
    + "".join(f"{c}: |\n" for c in range(3, 11))
)


def test_an_honest_hint_with_nothing_hidden_says_one_search_decided_bug():
    # it said "1 of 1 samples won ... 0 samples of the hidden cards"
    out = _run("hint", "-", "--honest", stdin=ALL_FACE_UP)
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert lines[0].startswith("2>1: move the AS")
    assert lines[1].startswith("honest: no card is hidden, so one search decided: a win follows")
    assert len(lines) == 2


def test_hint_honest_after_a_line_hides_what_the_player_could_not_see():
    after = _run(
        "hint", "SP1-S1C-AAAAAAD", "--after", "1>8", "--honest", "--samples", "2", "--json"
    )
    assert after.exit_code == 0, after.output
    assert json.loads(after.stdout)["status"] == "honest"


def test_autoplay_honest_json_replays():
    out = _run("autoplay", "SP1-S1C-AAAAAAD", "--honest", "--samples", "3", "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    for key in ("result", "line", "moves", "score", "seconds"):
        assert key in data
    final = replay(GameCode.parse("SP1-S1C-AAAAAAD").position(), data["line"])
    assert final.won == (data["result"] == "won") and final.moves == data["moves"]


def test_autoplay_without_honest_plays_the_solvers_line():
    out = _run("autoplay", "SP1-S1C-AAAAAAD", "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["result"] == "won" and data["player"] == "solver"
    assert replay(GameCode.parse("SP1-S1C-AAAAAAD").position(), data["line"]).won


def test_autoplay_of_a_game_already_won_makes_no_decision_with_either_player():
    row = json.loads((Path(__file__).parent / "vectors" / "wins.jsonl").read_text().splitlines()[0])
    won = replay(GameCode.parse(row["code"]).position(), row["line"])
    for flag in ([], ["--honest"]):
        out = _run("autoplay", row["code"], "--after", row["line"], "--json", *flag)
        assert out.exit_code == 0, out.output
        data = json.loads(out.stdout)
        assert data["result"] == "won" and data["decisions"] == 0 and data["line"] == ""
        assert data["moves"] == won.moves and data["score"] == won.score
    # after a line, both count the game's moves, as its score does (the solver
    # gave the moves of its own line only)
    part = " ".join(row["line"].split()[:-10])
    for flag in ([], ["--honest", "--samples", "2"]):
        out = _run("autoplay", row["code"], "--after", part, "--json", *flag)
        data = json.loads(out.stdout)
        final = replay(GameCode.parse(row["code"]).position(), part + " " + data["line"])
        assert (data["moves"], data["score"]) == (final.moves, final.score), flag


def _mid_game(code: str, actions: int) -> Position:
    """The visible position after the honest player's first ``actions`` actions."""
    deal = GameCode.parse(code).position()
    line = play_honest(deal, **FAST).line[:actions]
    return visible_of(replay(deal, line).position)


def test_prepared_reveals_turn_up_a_card_after_moves_that_reveal_nothing():
    from spidersolve.search.honest import _prepared_reveals
    from spidersolve.state import HiddenCard

    view = _mid_game("SP1-S1C-AAAAAAD", 12)
    found = _prepared_reveals(view, 3)
    assert 1 <= len(found) <= 3
    for plan, (before, last) in found:
        assert len(plan) >= 2 and plan[-1] == last and not last.is_deal
        pos = view
        for action in plan[:-1]:  # legal and revealing nothing, from the view itself
            assert action in legal_actions(pos)
            pos = apply(pos, action)[0]
        assert pos == before
        with pytest.raises(HiddenCard):  # the last one turns up a face-down card
            apply(pos, last)
    _ranked_as_the_kernel_ranks(view, found)
    assert _prepared_reveals(view, 0) == []


def _ranked_as_the_kernel_ranks(view, found):
    """The plans are in the order of the kernel's plain value of the table before their
    last action, then of length, in any filling of the hidden cards (face-up cards only)."""
    from spidersolve.search._terms import evaluate
    from spidersolve.search.heuristic import PLAIN, weight_rows
    from spidersolve.state.packed import to_board

    row = weight_rows(PLAIN)[0]
    for fill in samples(view, 2, 5):
        keys = [
            (int(evaluate(to_board(replay(fill, plan[:-1]).position), row)), len(plan))
            for plan, _key in found
        ]
        assert keys == sorted(keys)


def test_prepared_reveals_are_among_the_candidates_scored(monkeypatch):
    import spidersolve.search.honest as honest

    view = _mid_game("SP1-S1C-AAAAAAD", 12)
    with_them = advise(view, **FAST)
    monkeypatch.setitem(honest.HONEST_PREPARED, 1, 0)
    without = advise(view, **FAST)
    assert with_them.candidates > without.candidates
    assert with_them.nodes > without.nodes  # they were scored on the samples


# Four suits, no face-down card can turn up: every candidate deals, and the samples'
# lines make different moves first (met in an honest game of SP1-S4C-AAAAAAD).
ONLY_DEALS = """spider 4 classic
removed:
stock: STOCK
1: ?? ?? ?? ?? ?? | 2C AD
2: ?? ?? ?? ?? ?? | 6S 5H
3: ?? ?? ?? ?? | 6S 5C 4S 3S 2S
4: ?? ?? ?? ?? ?? | 9S 8S
5: ?? ?? ?? ?? | 9D 8D
6: ?? ?? | 3H
7: ?? | 3S
8: ?? ?? | QD
9: ?? ?? ?? | KD QD
10: ?? ?? ?? ?? | 5D
""".replace("STOCK", " ".join(["??"] * 50))


def test_prepared_deals_deal_after_moves_that_reveal_nothing():
    from spidersolve.search.honest import _prepared_reveals
    from spidersolve.state import HiddenCard

    view = Position.from_text(ONLY_DEALS)
    found = _prepared_reveals(view, 3, deals=True)
    assert len(found) == 3
    for plan, (before, last) in found:
        assert len(plan) >= 2 and plan[-1] == last and last.is_deal
        pos = view
        for action in plan[:-1]:  # legal and revealing nothing, from the view itself
            assert action in legal_actions(pos) and not action.is_deal
            pos = apply(pos, action)[0]
        assert pos == before
        with pytest.raises(HiddenCard):  # the deal turns up the stock's cards
            apply(pos, last)
    _ranked_as_the_kernel_ranks(view, found)
    assert _prepared_reveals(view, 0, deals=True) == []


def test_prepared_deals_are_scored_when_every_candidate_deals(monkeypatch):
    import spidersolve.search.honest as honest

    view = Position.from_text(ONLY_DEALS)
    with_them = advise(view, **FAST)
    monkeypatch.setitem(honest.HONEST_PREPARED_DEALS, 4, 0)
    without = advise(view, **FAST)
    assert with_them.candidates > without.candidates >= 2
    assert with_them.nodes > without.nodes  # they were scored on the samples
    assert with_them.plan[-1].is_deal and without.plan[-1].is_deal
    # a card that can turn up keeps them out: the deal waits (HONEST_DEAL_LAST)
    start = visible_of(GameCode.parse("SP1-S4C-AAAAAAD").position())
    monkeypatch.setitem(honest.HONEST_PREPARED_DEALS, 4, 3)
    calls = []
    real = honest._prepared_reveals
    monkeypatch.setattr(
        honest, "_prepared_reveals", lambda *a, **k: calls.append(k) or real(*a, **k)
    )
    advise(start, **FAST)
    assert {"deals": True} not in calls


def test_a_deal_waits_while_a_card_can_turn_up(monkeypatch):
    import spidersolve.search.honest as honest
    from spidersolve.search.honest import (
        DEALS,
        REVEALS_CARD,
        REVEALS_NOTHING,
        _Candidate,
        _candidates_to_score,
    )

    deal, card, nothing = (_Candidate((), kind) for kind in (DEALS, REVEALS_CARD, REVEALS_NOTHING))
    assert _candidates_to_score([deal, card, nothing], 4) == [card]
    assert _candidates_to_score([deal, nothing], 4) == [deal]  # no card to turn up: deal
    assert _candidates_to_score([nothing], 4) == [nothing]
    # a whole decision: the start of a four-suit deal, where moves turn up cards
    view = visible_of(GameCode.parse("SP1-S4C-AAAAAAD").position())
    assert any(a.is_deal for a in legal_actions(view))
    rule = [advise(view, seed=s, **FAST) for s in range(3)]
    monkeypatch.setitem(honest.HONEST_DEAL_LAST, 1, False)  # without the rule: deals are scored
    monkeypatch.setitem(honest.HONEST_DEAL_LAST, 4, False)
    assert _candidates_to_score([deal, card, nothing], 1) == [deal, card]
    free = [advise(view, seed=s, **FAST) for s in range(3)]
    assert not any(a.plan[-1].is_deal for a in rule)
    assert all(r.candidates < f.candidates for r, f in zip(rule, free))


def test_blind_to_the_stock_a_sample_is_searched_without_it():
    from spidersolve.search.honest import LOST_VALUE, _solve, _solve_before_deal

    sample = samples(visible_of(GameCode.parse("SP1-S4C-AAAAAAD").position()), 1, 3)[0]
    won, line, nodes, value = _solve_before_deal(sample, 2000)
    assert (won, line) == (False, ()) and 0 < nodes <= 2000 and value < LOST_VALUE
    # with the stock dealt it is the plain search
    dealt = replay(sample, [Action.parse("deal")] * 5).position
    assert not dealt.stock and _solve_before_deal(dealt, 2000) == _solve(dealt, 2000)


@pytest.mark.parametrize("suits", [2, 4])
def test_blind_to_the_stock_advice_is_honest_and_reports_the_samples_wins(monkeypatch, suits):
    import spidersolve.search.honest as honest

    pos = GameCode.parse(f"SP1-S{suits}C-AAAAAAD").position()
    assert honest.HONEST_STOCK_BLIND[suits] and honest.HONEST_BLIND_REVEALS[suits] == 2
    assert not honest.HONEST_STOCK_BLIND[1]
    blind = advise(pos, **FAST)
    # the same advice for another filling of the hidden cards (stock included)
    assert _decision(blind) == _decision(advise(_twin(pos), **FAST))
    # its estimate is the share of the samples their own full-knowledge searches won
    assert blind.scored == blind.samples == FAST["samples"] and 0 <= blind.wins <= blind.scored
    monkeypatch.setitem(honest.HONEST_STOCK_BLIND, suits, False)
    seeing = advise(pos, **FAST)
    assert _decision(seeing) != _decision(blind)


@pytest.mark.parametrize("suits", [2, 4])
def test_endgame_blind_searches_a_dealt_sample_with_the_reveal_limit(monkeypatch, suits):
    import spidersolve.search.honest as honest
    from spidersolve.search.honest import _solve, _solve_before_deal

    code = f"SP1-S{suits}C-AAAAAAD"
    sample = samples(visible_of(GameCode.parse(code).position()), 1, 3)[0]
    dealt = replay(sample, [Action.parse("deal")] * 5).position
    monkeypatch.setitem(honest.HONEST_BLIND_REVEALS, suits, 1)
    monkeypatch.setitem(honest.HONEST_ENDGAME_BLIND, suits, False)
    assert _solve_before_deal(dealt, 3000) == _solve(dealt, 3000)
    monkeypatch.setitem(honest.HONEST_ENDGAME_BLIND, suits, True)
    limited = _solve_before_deal(dealt, 3000)
    assert limited == _solve(dealt, 3000, 1)
    # its best line turns up one face-down card, and the leaf one past it at most
    end = replay(dealt, limited[1]).position
    assert not limited[0] and sum(map(len, dealt.down)) - sum(map(len, end.down)) <= 2
    if suits == 4:  # here the search that may turn up every card goes further
        assert _solve(dealt, 3000)[3] < limited[3]
    # the advice after the last deal is the same for another filling of the hidden cards
    view = visible_of(dealt)
    assert _decision(advise(view, **FAST)) == _decision(advise(_twin(dealt), **FAST))


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"top": 0}, "top must be 1 .. 10000, not 0"),  # IndexError after all the sampling
        ({"top": -1}, "top must be 1 .. 10000, not -1"),  # a candidate silently dropped
        ({"ranking": ()}, "ranking must be a list"),  # AttributeError at the very end
        ({"samples": True}, "samples must be 1 .. 10000, not True"),
        ({"workers": None}, "workers must be 1 .. 10000, not None"),
        ({"seed": None}, "seed must be 0 .. "),
        ({"seed": 2**70}, "seed must be 0 .. "),  # decided as seed 0 did
    ],
)
def test_advise_refuses_bad_options_before_any_work_bug(kwargs, words):
    with pytest.raises(SpiderError, match=re.escape(words)):
        advise("SP1-S1C-AAAAAAD", **kwargs)


def test_the_action_limit_counts_the_actions_played_before_the_player(monkeypatch):
    """SPEC 11: a game ends at 1,000 actions, counted from the deal: a game handed
    over after --after has that many fewer left for the player."""
    import spidersolve.search.honest_game as honest_game
    from spidersolve.state import replay

    monkeypatch.setattr(honest_game, "MAX_ACTIONS", 5)
    before = replay("SP1-S1C-AAAAAAD", "10>2 1>8 deal")
    result = honest_game.play_honest(before.position, game=before)
    assert result.result == "lost" and result.reason == "5 actions"
    assert len(result.line) == 2


def test_a_position_that_comes_back_ends_the_game_with_one_decision_each_bug(monkeypatch):
    """SPEC 11: a decision is a function of the visible position, the options and the
    seed alone. A visible position that came back was planned again with another
    seed (and a third time before resigning): now the player resigns at once."""
    import spidersolve.search.honest_game as honest_game

    text = "spider 1 classic\nremoved: S S S S S S S\nstock:\n"
    text += "1: | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S\n2: | AS\n"
    text += "".join(f"{col}: |\n" for col in range(3, 11))
    plans = iter([(Action.parse("2>3"),), (Action.parse("3>2"),)])  # there and back
    seeds = []

    def scripted(view, samples, seed, *rest):
        seeds.append(seed)
        return dataclasses.replace(advise(view, samples, seed, 10), plan=next(plans))

    monkeypatch.setattr(honest_game, "advise", scripted)
    result = play_honest(Position.from_text(text), seed=41, workers=1)
    assert result.result == "lost" and result.reason == "resigned: the same position came back"
    assert [a.text() for a in result.line] == ["2>3", "3>2"] and seeds == [41, 41]
