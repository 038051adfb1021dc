"""Actions in words (``spidersolve.state.words``), checked against the reference rules."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from data import filled_position_text, read_vectors
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import codes, random_walk

from spidersolve.cards import SUIT_NAMES, card_text
from spidersolve.cli.main import cli
from spidersolve.state import (
    DEAL,
    Action,
    Game,
    GameCode,
    IllegalAction,
    Position,
    apply,
    legal_actions,
    parse_line,
)
from spidersolve.state.words import action_outcome, action_sentence, line_sentences

WINS = read_vectors("wins")


def expected_pieces(pos: Position, action: Action) -> tuple[str, list[str], list[str], list[str]]:
    """What the sentence must say, worked out from ``apply`` alone.

    Returns the head (the move or the deal), the turn-up clauses, the run
    clauses' suits and numbers, and the emptied columns.
    """
    after, removed = apply(pos, action)
    if action.is_deal:
        left = len(after.stock) // 10
        head = (
            "deal the last row (no deals left)"
            if left == 0
            else f"deal a row ({left} deal{'s' if left != 1 else ''} left)"
        )
    else:
        cards = pos.up[action.src][-action.n_cards :]
        names = ("the " if len(cards) == 1 else "") + " ".join(card_text(c) for c in cards)
        dst = pos.up[action.dst]
        where = (
            f"onto the {card_text(dst[-1])} in column {action.dst + 1}"
            if dst
            else f"to the empty column {action.dst + 1}"
        )
        head = f"move {names} from column {action.src + 1} {where}"
    turned, emptied = [], []
    for c in range(10):
        if len(after.down[c]) < len(pos.down[c]):
            assert len(after.up[c]) == 1
            turned.append(f"the {card_text(after.up[c][0])} in column {c + 1} turns up")
        elif not after.up[c] and (pos.up[c] or action.is_deal or c == action.dst):
            emptied.append(str(c + 1))
    runs = [f"{SUIT_NAMES[s]} ({len(pos.removed) + i + 1} of 8" for i, s in enumerate(removed)]
    return head, turned, runs, emptied


def check_sentence(pos: Position, action: Action) -> str:
    sentence = action_sentence(pos, action)
    head, turned, runs, emptied = expected_pieces(pos, action)
    clauses = sentence.split("; ")
    assert clauses[0] == head, sentence
    said_runs = [c for c in clauses if "is complete and leaves the table" in c]
    found = [
        re.fullmatch(
            r"the (\w+) run in column (\d+) is complete and leaves the table "
            r"\((\d of 8)(: the game is won)?\)",
            c,
        )
        for c in said_runs
    ]
    assert all(found), sentence
    assert [f"{m.group(1)} ({m.group(3)}" for m in found] == runs, sentence
    if not action.is_deal:  # after a move only its destination can complete a run
        assert all(int(m.group(2)) == action.dst + 1 for m in found), sentence
    assert [c for c in clauses if c.endswith("turns up")] == turned, sentence
    said_empty = [c for c in clauses if c.endswith("left empty")]
    if emptied:
        listed = (
            emptied[0] if len(emptied) == 1 else ", ".join(emptied[:-1]) + " and " + emptied[-1]
        )
        assert said_empty == [
            f"column{'s' if len(emptied) > 1 else ''} {listed} "
            f"{'are' if len(emptied) > 1 else 'is'} left empty"
        ], sentence
    else:
        assert not said_empty, sentence
    assert len(clauses) == 1 + len(runs) + len(turned) + bool(emptied), sentence
    return sentence


# -- the examples --------------------------------------------------------------------
def test_a_group_onto_a_card_names_the_card_and_the_card_that_turns_up():
    pos = Position.from_text(filled_position_text(4, {7: "QH 7S 6S", 3: "8S"}, down={7: "5D"}))
    # 7S 6S move; the QH stays face up, so nothing turns up.
    assert (
        action_sentence(pos, Action.parse("7>3x2"))
        == "move 7S 6S from column 7 onto the 8S in column 3"
    )
    pos = Position.from_text(filled_position_text(4, {7: "7S 6S", 3: "8S"}, down={7: "QH"}))
    assert (
        action_sentence(pos, Action.parse("7>3x2"))
        == "move 7S 6S from column 7 onto the 8S in column 3; the QH in column 7 turns up"
    )


def test_a_king_to_an_empty_column():
    pos = Position.from_text(filled_position_text(4, {2: "9D KS", 4: ""}))
    assert (
        action_sentence(pos, Action.parse("2>4"))
        == "move the KS from column 2 to the empty column 4"
    )


def test_a_deal_says_how_many_deals_are_left():
    start = GameCode.parse("SP1-S4C-AAAAAAD").position()
    line = parse_line("deal deal deal")
    game = Game.start(start)
    said = []
    for action in line:
        said.append(action_sentence(game.position, action))
        game = game.play(action)
    assert said == [
        "deal a row (4 deals left)",
        "deal a row (3 deals left)",
        "deal a row (2 deals left)",
    ]
    pos = Position.from_text(filled_position_text(1, {}, stock=1))
    assert action_sentence(pos, DEAL) == "deal the last row (no deals left)"


def test_a_move_that_completes_a_run_says_so_with_the_count():
    game = WINS[0]
    start = GameCode.parse(game["code"]).position()
    actions = parse_line(game["line"])
    said = line_sentences(start, actions)
    runs = [s for s in said if "leaves the table" in s]
    assert len(runs) == 8
    assert [re.search(r"\((\d) of 8", s).group(1) for s in runs] == list("12345678")
    assert "(8 of 8: the game is won)" in runs[-1]


def test_a_deal_that_completes_runs_in_two_columns_lists_them_in_column_order():
    # Spades K..2 on columns 1 and 2, the deal brings an ace to each; a 3S
    # lies face down under column 2.
    text = """spider 1 classic
removed: S S S S
stock: AS AS KS KS QS QS JS JS TS TS
1: | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
2: 3S | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
3: | 9S 8S 7S
4: | 6S 5S 4S
5: | 3S 2S AS
6: | 9S
7: | 8S
8: | 7S 6S
9: | 5S 4S
10: | 2S AS
"""
    pos = Position.from_text(text)
    assert check_sentence(pos, DEAL) == (
        "deal the last row (no deals left); "
        "the spades run in column 1 is complete and leaves the table (5 of 8); "
        "the spades run in column 2 is complete and leaves the table (6 of 8); "
        "the 3S in column 2 turns up; column 1 is left empty"
    )


def test_a_column_that_loses_two_runs_in_one_deal_loses_the_second_after_the_other_columns():
    # Column 1: hearts K..A under spades K..2; column 2: spades K..2. The deal
    # completes both spades runs in the first pass and the hearts in the second.
    text = """spider 2 classic
removed: H H H
stock: AS AS KS KS QS QS JS JS TS TS
1: | KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
2: | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
3: | 9S 8S 7S
4: | 6S 5S 4S
5: | 3S 2S AS
6: | 9S
7: | 8S
8: | 7S 6S
9: | 5S 4S 3S
10: | 2S AS
"""
    pos = Position.from_text(text)
    after, removed = apply(pos, DEAL)
    assert [SUIT_NAMES[s] for s in removed] == ["spades", "spades", "hearts"]
    assert check_sentence(pos, DEAL) == (
        "deal the last row (no deals left); "
        "the spades run in column 1 is complete and leaves the table (4 of 8); "
        "the spades run in column 2 is complete and leaves the table (5 of 8); "
        "the hearts run in column 1 is complete and leaves the table (6 of 8); "
        "columns 1 and 2 are left empty"
    )
    outcome = action_outcome(pos, DEAL)
    assert outcome.runs == ((0, 0, 4), (1, 0, 5), (0, 1, 6))
    assert outcome.emptied == (0, 1)


def test_an_unknown_card_that_turns_up_is_said_without_a_name():
    pos = Position.from_text(filled_position_text(1, {7: "7S", 3: "8S"}, down={7: "?? ??"}))
    assert action_sentence(pos, Action.parse("7>3")) == (
        "move the 7S from column 7 onto the 8S in column 3; "
        "a face-down card in column 7 turns up (not known here)"
    )
    # The line stops there: the card must be named before play goes on.
    with pytest.raises(IllegalAction, match="action 1 .*unknown card in column 7"):
        line_sentences(pos, "7>3 3>7")
    assert line_sentences(pos, "7>3") == [action_sentence(pos, Action.parse("7>3"))]


def test_a_deal_from_an_unknown_stock_is_said_without_claiming_a_run():
    # Built directly: ?? in the stock is the honest-play issue's position text.
    known = Position.from_text(
        filled_position_text(1, {1: "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"}, stock=1)
    )
    hidden = Position(known.suits, known.rules, known.removed, (15,) * 10, known.down, known.up)
    assert action_sentence(hidden, DEAL) == "deal the last row (no deals left)"


def test_action_words_is_the_sentence():
    start = GameCode.parse("SP1-S2C-AAAAAAD").position()
    for action in legal_actions(start):
        assert action.words(start) == action_sentence(start, action)


def test_an_illegal_action_raises_with_its_rule():
    start = GameCode.parse("SP1-S1C-AAAAAAD").position()
    with pytest.raises(IllegalAction, match="not one rank below"):
        action_sentence(start, Action.parse("1>2"))
    with pytest.raises(IllegalAction, match=r"action 2 \(1>2\)"):
        line_sentences(start, "1>8 1>2")


# -- against the rules, action by action --------------------------------------------------------
@pytest.mark.parametrize("code", [w["code"] for w in WINS])
def test_every_action_of_every_recorded_win_is_said_as_the_rules_play_it(code):
    game = next(w for w in WINS if w["code"] == code)
    pos = GameCode.parse(code).position()
    runs = 0
    for action in parse_line(game["line"]):
        sentence = check_sentence(pos, action)
        runs += sentence.count("leaves the table")
        pos, _removed = apply(pos, action)
    assert runs == 8


@settings(max_examples=40, deadline=None)
@given(codes, st.data())
def test_random_walks_are_said_as_the_rules_play_them(code, data):
    for game in random_walk(data, code, max_steps=100):
        # Every action from each position of the walk is checked.
        for action in legal_actions(game.position):
            check_sentence(game.position, action)


# -- the commands ------------------------------------------------------------------------------
def test_replay_words_numbers_every_action_then_prints_the_final_position():
    game = WINS[0]
    result = CliRunner().invoke(cli, ["replay", game["code"], game["line"], "--words"])
    assert result.exit_code == 0, result.output
    actions = parse_line(game["line"])
    lines = result.stdout.splitlines()
    said = line_sentences(GameCode.parse(game["code"]).position(), actions)
    assert lines[: len(actions)] == [
        f"{i}. {a.text()}: {s}" for i, (a, s) in enumerate(zip(actions, said), start=1)
    ]
    assert lines[len(actions)] == "spider 1 classic"
    assert lines[-1] == "state: won"
    obj = json.loads(
        CliRunner().invoke(cli, ["replay", game["code"], game["line"], "--words", "--json"]).stdout
    )
    assert obj["words"] == said and obj["state"] == "won"


def test_replay_words_of_an_illegal_line_is_one_error_line():
    result = CliRunner().invoke(cli, ["replay", "SP1-S1C-AAAAAAD", "1>8 1>2", "--words"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "error: action 2 (1>2): 1>2 is illegal: KS is not one rank below 6S (the top card of "
        "column 2)"
    ]


def test_actions_lists_the_sentences():
    result = CliRunner().invoke(cli, ["actions", "SP1-S1C-AAAAAAD"])
    assert result.stdout.splitlines()[0] == (
        "1>8\tmove the 2S from column 1 onto the 3S in column 8; the KS in column 1 turns up"
    )
