"""``spidersolve play``: the session class and the click command, driven by scripted input."""

from __future__ import annotations

import json
from collections import Counter, namedtuple
from pathlib import Path

import pytest
from click.testing import CliRunner

from spidersolve.cards import card_rank, card_text, ordered_deck, parse_card
from spidersolve.cli.play import play
from spidersolve.play import MAX_UNDO, PlaySession, click_action, fitting_action, hint_text
from spidersolve.state import Action, Game, GameCode, Position, legal_actions, parse_line, replay
from spidersolve.state.visible import visible_of

VECTORS = Path(__file__).parent / "vectors"
WINS = [
    json.loads(line) for line in (VECTORS / "wins.jsonl").read_text().splitlines() if line.strip()
]


def win(code: str) -> dict:
    return next(w for w in WINS if w["code"] == code)


def position_text(
    up: dict[int, str],
    suits: int = 1,
    rules: str = "classic",
    stock_deals: int = 0,
    down: dict[int, str] | None = None,
) -> str:
    """Position text with the face-up cards ``up`` (columns 1..10, bottom to top).

    A column missing from ``up`` gets the highest card left, a king while
    there is one (``""`` leaves it empty). The cards the deck has left fill ``stock_deals`` deals of stock, in card
    order, and then go face down, in card order, under the highest-numbered
    column without ``down`` of its own: tests do not move from that column.
    """
    up, down = dict(up), dict(down or {})
    left = Counter(ordered_deck(suits))
    given = " ".join(list(up.values()) + list(down.values())).split()
    left.subtract(parse_card(t) for t in given if t != "??")
    for c in range(1, 11):
        if c not in up:
            high = max(
                (card for card in left if left[card] > 0),
                key=lambda card: (card_rank(card), left[card]),
            )
            up[c] = card_text(high)
            left[high] -= 1
            given.append(up[c])
    rest = sorted(left.elements())[given.count("??") :]
    stock, rest = rest[: 10 * stock_deals], rest[10 * stock_deals :]
    dump = max(c for c in up if up[c] and c not in down)
    down[dump] = " ".join(card_text(c) for c in rest)
    lines = [
        f"spider {suits} {rules}",
        "removed:",
        " ".join(["stock:"] + [card_text(c) for c in stock]),
    ]
    for c in range(1, 11):
        lines.append(" ".join(f"{c}: {down.get(c, '')} | {up[c]}".split()))
    return "\n".join(lines) + "\n"


def session_for(text: str, **kw) -> PlaySession:
    return PlaySession(Game.start(Position.from_text(text)), **kw)


def run_cli(args, commands: list[str]):
    result = CliRunner().invoke(play, args, input="".join(c + "\n" for c in commands))
    return result


# -- whole games ---------------------------------------------------------------
def test_a_known_winning_line_typed_into_stdin_wins_with_the_recorded_score_and_moves():
    game = win("SP1-S1C-AAAAAAD")
    result = run_cli([game["code"]], game["line"].split())
    assert result.exit_code == 0, result.output
    assert "you won: all 8 runs removed in 89 moves, final score 1211" in result.output
    assert game["moves"] == 89 and game["score"] == 1211
    assert "refused" not in result.output
    assert result.output.splitlines()[-1] == "line: " + game["line"]


@pytest.mark.parametrize("code", [w["code"] for w in WINS])
def test_every_recorded_win_played_through_the_session_ends_won(code):
    game = win(code)
    session = PlaySession(Game.start(GameCode.parse(code).position()))
    # a line, in SPEC notation, is typed as it is written (7>3 is one card)
    for action in parse_line(game["line"]):
        out = session.handle(action.text())
        assert not out.startswith("refused"), out
    assert session.finished and session.game.won
    assert (session.game.moves, session.game.score) == (game["moves"], game["score"])
    assert f"in {game['moves']} moves, final score {game['score']}" in out
    assert session.line == game["line"]


def test_input_after_the_win_is_not_read():
    game = win("SP1-S1C-AAAAAAD")
    result = run_cli([game["code"]], game["line"].split() + ["1>2", "help"])
    assert "> 1>2" not in result.output
    assert result.output.splitlines()[-1] == "line: " + game["line"]


# -- undo ------------------------------------------------------------------------
def test_undo_brings_back_a_removed_run_with_the_score_and_the_move_counter():
    game = win("SP1-S1C-AAAAAAD")
    start = GameCode.parse(game["code"]).position()
    actions = parse_line(game["line"])
    # The first action that removes a run.
    k = next(i for i in range(1, len(actions) + 1) if replay(start, actions[:i]).position.removed)
    before = replay(start, actions[: k - 1])
    session = PlaySession(before, actions[: k - 1])
    out = session.handle(actions[k - 1].text())
    assert "removed a run of spades (+100)" in out
    assert session.game.score == max(0, before.score - 1) + 100
    assert "removed: 1 run (S)" in out
    out = session.handle("undo")
    assert out.startswith(f"undid {actions[k - 1].text()}")
    assert session.game == before
    assert "removed: 0 runs" in out
    assert f"moves: {before.moves} | score: {before.score}" in out
    assert session.line == " ".join(a.text() for a in actions[: k - 1])


def test_undo_takes_back_100_actions_and_the_101st_undo_has_nothing_more_to_undo():
    # Column 1 holds a lone 5S with nothing under it and column 2 is empty: 1>2, 2>1, ...
    text = position_text({1: "5S", 2: ""})
    session = session_for(text)
    for i in range(110):
        out = session.handle("1>2" if i % 2 == 0 else "2>1")
        assert not out.startswith("refused"), out
    assert session.game.moves == 110
    for _ in range(MAX_UNDO):
        assert session.handle("undo").startswith("undid ")
    assert (session.game.moves, session.game.score) == (10, 490)
    assert session.handle("undo").startswith("refused: nothing more to undo")
    assert (session.game.moves, session.game.score) == (10, 490)
    assert session.line == " ".join(["1>2", "2>1"] * 5)


def test_undo_at_the_start_has_nothing_to_undo():
    session = PlaySession(Game.start(GameCode.parse("SP1-S4C-AAAAAAD").position()))
    assert session.handle("undo").startswith("refused: nothing more to undo")


def test_line_after_quit_holds_the_after_actions_and_leaves_out_undone_ones():
    game = win("SP1-S1C-AAAAAAD")
    first = game["line"].split()
    result = run_cli(
        [game["code"], "--after", " ".join(first[:3])],
        [
            first[3],
            first[4],
            "undo",
            first[4],
            first[5],
            "undo",
            "undo",
            "undo",
            "undo",
            "quit",
            "help",
        ],
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    # The fifth undo would reach into --after: refused.
    assert "refused: nothing more to undo" in result.output
    assert "> help" not in result.output
    assert lines[-1] == "line: " + " ".join(first[:3])


def test_line_at_the_end_of_input_holds_every_action_kept():
    game = win("SP1-S1C-AAAAAAD")
    first = game["line"].split()
    result = run_cli([game["code"], "--after", first[0]], [first[1], "8>1", first[2]])
    assert result.output.splitlines()[-1] == "line: " + " ".join(first[:3])


def test_line_is_empty_when_nothing_was_played():
    result = run_cli(["SP1-S4C-AAAAAAD"], ["quit"])
    assert result.output.splitlines()[-1] == "line:"


# -- the table -------------------------------------------------------------------
def test_the_table_hides_face_down_cards_and_shows_counters():
    session = PlaySession(Game.start(GameCode.parse("SP1-S4C-AAAAAAD").position()))
    table = session.start().splitlines()
    assert table[0] == ("stock: 50 cards, 5 deals left | removed: 0 runs | moves: 0 | score: 500")
    assert table[1] == " 1: ## ## ## ## ## 2C"
    assert table[10] == "10: ## ## ## ## 5D"
    assert sum(row.count("##") for row in table) == 44


def test_words_say_face_down_cards_only_as_a_count():
    position = GameCode.parse("SP1-S4C-AAAAAAD").position()
    session = PlaySession(Game.start(position), words=True)
    out = session.start()
    assert out.startswith(
        "Stock: 50 cards, 5 deals left; no runs removed. Column 1: 5 face down, then 2 of clubs;"
    )
    assert out.endswith("Moves: 0; score: 500.")
    assert "##" not in out
    assert session.handle("1>8").splitlines()[-1].endswith("Moves: 1; score: 499.")


def test_words_option_of_the_command():
    result = run_cli(["SP1-S4C-AAAAAAD", "--words"], ["quit"])
    assert result.output.startswith("Stock: 50 cards")


def test_an_empty_column_is_shown_empty():
    session = session_for(position_text({1: "5S", 2: ""}))
    assert " 2: (empty)" in session.table().splitlines()


# -- moves and their refusals ----------------------------------------------------------
def test_move_without_a_count_takes_the_one_group_size_that_fits_the_card():
    session = session_for(position_text({1: "9S 8S 7S 6S", 2: "8H"}, suits=2))
    out = session.handle("1>2")
    assert out.startswith("1>2x2: move 7S 6S from column 1 onto the 8H in column 2")


def test_move_without_a_count_onto_an_empty_column_is_one_card_as_spec_writes_it():
    session = session_for(position_text({1: "KH 9S 8S 7S", 2: ""}, suits=2))
    assert session.handle("1>2").startswith("1>2: move the 7S from column 1 to the empty column 2")


def test_move_with_a_count_moves_exactly_that_many_cards():
    session = session_for(position_text({1: "KH 9S 8S 7S", 2: ""}, suits=2))
    assert session.handle("1>2x2").startswith(
        "1>2x2: move 8S 7S from column 1 to the empty column 2"
    )


REFUSALS = [
    (
        "not one rank lower",
        {1: "5S", 2: "9H"},
        "1>2",
        "refused: 1>2: 5S is not one rank below 9H (the top card of column 2)",
    ),
    (
        "not one rank lower with a count",
        {1: "6S 5S", 2: "9H"},
        "1>2x2",
        "refused: 1>2x2: 6S is not one rank below 9H (the top card of column 2)",
    ),
    (
        "group of two suits under classic rules",
        {1: "7H 6S", 2: "8D"},
        "1>2",
        "refused: 1>2x2: the group 7H 6S is not one suit, as Classic rules require",
    ),
    (
        "group that does not descend",
        {1: "7H 9S", 2: "8D"},
        "1>2x2",
        "refused: 1>2x2: 9S is not one rank below 7H: the group is not a descending run",
    ),
    (
        "onto an ace",
        {1: "5S", 2: "AH"},
        "1>2",
        "refused: 1>2: nothing can go onto an ace (column 2 ends in AH)",
    ),
    ("from an empty column", {1: "5S", 2: ""}, "2>1", "refused: column 2 is empty"),
    ("onto itself", {1: "5S"}, "1>1", "refused: a column cannot move onto itself"),
    (
        "more cards than face up",
        {1: "5S"},
        "1>2x3",
        "refused: 1>2x3: column 1 has 1 face-up card, not 3",
    ),
    ("column out of range", {1: "5S"}, "11>2", "refused: source column 11 is not 1..10"),
    (
        "click with nothing to take the group",
        {1: "5S", 2: "9H", 3: "KD"},
        "1",
        "refused: nothing can take 5S from column 1: no other column ends in a 6, and no "
        "column is empty",
    ),
    (
        "click with nothing to take a group",
        {1: "6S 5S", 2: "9H"},
        "1",
        "refused: nothing can take 6S 5S from column 1: no other column ends in a 6 or a 7 (one "
        "rank above a card of the group), and no column is empty",
    ),
]


@pytest.mark.parametrize("name, up, command, expected", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_a_refused_command_explains_its_rule_and_is_not_a_move(name, up, command, expected):
    session = session_for(position_text(up, suits=4))
    out = session.handle(command)
    assert out == expected  # one line: the table has not changed
    assert session.game.moves == 0 and session.game.score == 500 and session.line == ""


def test_relaxed_rules_move_a_group_of_two_suits():
    text = position_text({1: "7H 6S", 2: "8D"}, suits=4, rules="relaxed")
    session = session_for(text)
    assert session.handle("1>2").startswith(
        "1>2x2: move 7H 6S from column 1 onto the 8D in column 2"
    )


def test_deal_is_refused_while_a_column_is_empty():
    session = session_for(position_text({1: "5S", 2: ""}, stock_deals=2))
    out = session.handle("deal")
    assert out.splitlines()[0] == "refused: deal: no deal while a column is empty (column 2)"
    assert session.game.moves == 0 and len(session.game.position.stock) == 20


def test_deal_is_refused_when_the_stock_is_empty():
    session = session_for(position_text({c: "23456789TJ"[c - 1] + "S" for c in range(1, 11)}))
    assert session.handle("deal").splitlines()[0] == "refused: deal: the stock is empty"


def test_a_position_with_no_legal_action_is_reported_lost():
    # Eight aces and two kings on top, no empty column, no stock.
    up = {c: "AS" for c in range(1, 9)} | {9: "KS", 10: "KS"}
    session = session_for(position_text(up))
    assert session.start().splitlines()[-1].startswith("no legal action is left: the game is lost")
    assert not session.finished


def test_the_move_that_leaves_no_legal_action_says_the_game_is_lost():
    # 10>8 puts AS on 2S and turns up a king (the highest face-down card) in column 10.
    up = {c: "AS" for c in range(1, 7)} | {7: "KS", 8: "2S", 9: "KS", 10: "AS"}
    session = session_for(position_text(up))
    assert "lost" not in session.start()
    out = session.handle("10>8")
    assert out.startswith(
        "10>8: move the AS from column 10 onto the 2S in column 8; the KS in column 10 turns up"
    )
    assert (
        out.splitlines()[-2] == "10: ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## "
        "## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## "
        "## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## "
        "## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## ## KS"
    )
    assert out.splitlines()[-1] == (
        "no legal action is left: the game is lost (undo to go back, or quit)"
    )


def test_unknown_commands_point_to_help():
    session = PlaySession(Game.start(GameCode.parse("SP1-S4C-AAAAAAD").position()))
    assert session.handle("jump") == "unknown command 'jump': type help for the commands"
    assert "7>3x2" in session.handle("help")
    assert session.game.moves == 0


def test_score_shows_moves_and_score():
    session = PlaySession(Game.start(GameCode.parse("SP1-S4C-AAAAAAD").position()))
    session.handle("1>8")
    assert session.handle("score").splitlines()[0] == "moves: 1, score: 499"


# -- the click rule ------------------------------------------------------------------------
def test_click_prefers_a_card_of_the_same_suit_over_a_lower_column_of_another_suit():
    up = {1: "7S 6S 5S", 2: "8H", 5: "6S"}
    position = Position.from_text(position_text(up, suits=2))
    assert click_action(position, 0) == (Action(0, 4, 1), None)


def test_click_same_suit_counts_the_bottom_card_of_the_group_that_fits():
    up = {1: "7S 6S 5S", 2: "8H", 5: "8S"}
    position = Position.from_text(position_text(up, suits=2))
    assert click_action(position, 0) == (Action(0, 4, 3), None)


def test_click_takes_any_suit_before_an_empty_column_and_the_lowest_column_among_equals():
    up = {1: "7S 6S 5S", 3: "8H", 5: "6H", 6: ""}
    position = Position.from_text(position_text(up, suits=2))
    assert click_action(position, 0) == (Action(0, 2, 3), None)


def test_click_uses_the_first_empty_column_for_the_whole_group_when_no_card_fits():
    up = {1: "7S 6S 5S", 4: "", 7: ""}
    position = Position.from_text(position_text(up, suits=2))
    assert click_action(position, 0) == (Action(0, 3, 3), None)


def test_typing_a_column_number_plays_the_click_rule():
    up = {1: "7S 6S 5S", 2: "8H", 5: "6S"}
    session = session_for(position_text(up, suits=2))
    assert session.handle("1").startswith("1>5: move the 5S from column 1 onto the 6S in column 5")


def test_fitting_action_names_the_suit_rule_when_the_fitting_card_is_under_another_suit():
    up = {1: "9H 8H 7S", 2: "9S"}
    position = Position.from_text(position_text(up, suits=2))
    action, reason = fitting_action(position, 0, 1)
    assert action is None and "not one suit" in reason


# -- the command line ----------------------------------------------------------------------
def test_a_position_file_can_be_the_source(tmp_path):
    up = {1: "7S 6S 5S", 2: "8H", 5: "6S"}
    path = tmp_path / "click.txt"
    path.write_text(position_text(up, suits=2))
    result = run_cli([str(path)], ["1", "undo", "1>2"])
    assert result.exit_code == 0, result.output
    assert "> 1\n1>5: move the 5S from column 1 onto the 6S in column 5" in result.output
    assert "1>2x3: move 7S 6S 5S from column 1 onto the 8H in column 2" in result.output
    assert result.output.splitlines()[-1] == "line: 1>2x3"


def test_stdin_cannot_be_both_the_source_and_the_commands():
    result = run_cli(["-"], [])
    assert result.exit_code == 2
    assert "SOURCE cannot be '-'" in result.output


def test_an_illegal_after_line_is_an_error():
    result = run_cli(["SP1-S4C-AAAAAAD", "--after", "1>2"], [])
    assert result.exit_code == 2
    assert "--after: action 1 (1>2)" in result.output


def test_hint_while_face_down_cards_are_unknown_is_honest():
    session = session_for(position_text({1: "5S"}, down={1: "?? ??"}))
    said = session.handle("hint")
    assert said.startswith("hint: ") and ("honest:" in said or "no legal action" in said)


def test_hint_text_says_the_status_and_the_action():
    position = GameCode.parse("SP1-S4C-AAAAAAD").position()
    action = Action.parse("1>8")
    res = namedtuple("Res", "status action words line nodes seconds")
    proven = hint_text(res("proven", action, None, [action] * 5, 1200, 0.25), position)
    assert proven == (
        "hint: 1>8 (move the 2C from column 1 onto the 3S in column 8; the KD in "
        "column 1 turns up); proven: it leads to a "
        "win in 5 actions (1200 nodes, 0.2 s)"
    )
    unproven = hint_text(res("unproven", action, "move it", None, 167000, 3.0), position)
    assert unproven.startswith("hint: 1>8 (move it); unproven: no win found within 167000")
    assert hint_text(res("lost", None, None, None, 10, 0.0), position).startswith(
        "hint: lost: no winning line exists from here"
    )


def test_hint_for_the_last_move_of_a_won_game_is_proven():
    game = win("SP1-S1C-AAAAAAD")
    actions = parse_line(game["line"])
    start = GameCode.parse(game["code"]).position()
    session = PlaySession(replay(start, actions[:-1]), actions[:-1])
    out = session.handle("hint")
    assert out.splitlines()[0].startswith(f"hint: {actions[-1].text()} (")
    assert "proven" in out.splitlines()[0] and "unproven" not in out.splitlines()[0]
    assert session.game.moves == 88


# -- moves, short forms, redo, restart ---------------------------------------------------------
def test_moves_lists_every_legal_action_as_typed_and_each_typed_form_plays_that_action():
    for text in (
        position_text({1: "KH 9S 8S 7S", 2: "", 3: "TH"}, suits=2, stock_deals=1),
        GameCode.parse("SP1-S2C-AAAAAAD").position().to_text(),
    ):
        position = Position.from_text(text)
        session = session_for(text)
        out = session.handle("moves")
        legal = legal_actions(position)
        rows = out.splitlines()
        assert rows[0] == f"{len(legal)} legal action{'s' if len(legal) != 1 else ''}:"
        assert session.handle("m") == out
        assert len(rows) == len(legal) + 1
        for row, action in zip(rows[1:], legal):
            typed, words = row.split(None, 1)
            assert words == action.words(visible_of(position))  # no hidden card named
            probe = session_for(text)
            said = probe.handle(typed)
            assert said.startswith(f"{action.text()}: "), (typed, said)
            assert probe.played == [action]


def test_moves_are_written_in_spec_notation_and_a_bare_move_is_one_card_bug():
    # moves wrote 1>2x1 (SPEC 7: writers never write x1) and a bare 1>2 for three cards
    session = session_for(position_text({1: "KH 9S 8S 7S", 2: ""}, suits=2))
    rows = [r.split(None, 1)[0] for r in session.handle("moves").splitlines()[1:]]
    assert rows[:3] == ["1>2", "1>2x2", "1>2x3"]
    assert session.handle("1>2").startswith("1>2: move the 7S from column 1 to the empty")
    session = session_for(position_text({1: "KH 9S 8S 7S", 2: "", 3: "TS"}, suits=2))
    assert session.handle("1>3").startswith("1>3x3: move 9S 8S 7S")  # one card cannot go


def test_moves_with_no_legal_action_says_so():
    up = {c: "AS" for c in range(1, 9)} | {9: "KS", 10: "KS"}
    assert session_for(position_text(up)).handle("moves") == "no legal action is left"


def test_short_forms_u_d_and_m():
    session = PlaySession(Game.start(GameCode.parse("SP1-S1C-AAAAAAD").position()))
    assert session.handle("d").startswith("deal: deal a row (4 deals left)")
    assert session.handle("u").startswith("undid deal")
    assert session.game.moves == 0
    assert session.handle("m").startswith("8 legal actions:")


def test_redo_plays_again_what_undo_took_back_until_a_new_action():
    session = PlaySession(Game.start(GameCode.parse("SP1-S1C-AAAAAAD").position()))
    session.handle("1>8")
    session.handle("8>7")
    after_two = session.game
    session.handle("undo")
    session.handle("undo")
    assert session.game.moves == 0
    assert session.handle("redo").startswith("redid 1>8: move the 2S from column 1")
    out = session.handle("redo")
    assert out.startswith("redid 8>7x2: ")
    assert session.game == after_two and session.line == "1>8 8>7x2"
    assert session.handle("redo") == "refused: nothing to redo"
    session.handle("undo")
    session.handle("9>4")  # a new action: the undone one cannot come back
    assert session.handle("redo") == "refused: nothing to redo"
    assert session.line == "1>8 9>4"


def test_restart_goes_back_to_the_start_and_redo_plays_the_game_forward():
    game = win("SP1-S1C-AAAAAAD")
    first = game["line"].split()
    result = run_cli(
        [game["code"], "--after", first[0]],
        [first[1], first[2], "restart", "restart", "redo", "quit"],
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "restarted: back to the start (2 actions to redo)" in out
    assert "refused: already at the start" in out
    assert "redid 8>2: " not in out and f"redid {first[1]}" in out
    assert out.splitlines()[-1] == "line: " + " ".join(first[:2])


def test_score_and_a_refusal_print_one_line_and_an_action_prints_the_table():
    session = PlaySession(Game.start(GameCode.parse("SP1-S1C-AAAAAAD").position()))
    assert session.handle("score") == "moves: 0, score: 500"
    assert session.handle("1>2") == (
        "refused: 1>2: 2S is not one rank below 6S (the top card of column 2)"
    )
    assert len(session.handle("1>8").splitlines()) == 12  # what it did, counters, 10 columns


def test_one_move_is_singular():
    result = run_cli(["SP1-S1C-AAAAAAD"], ["1>8", "quit"])
    assert "quit after 1 move, score 499" in result.output
    result = run_cli(["SP1-S1C-AAAAAAD"], ["1>8", "8>7", "quit"])
    assert "quit after 2 moves, score 498" in result.output


def test_the_table_marks_the_cards_just_moved():
    session = PlaySession(Game.start(GameCode.parse("SP1-S1C-AAAAAAD").position()))
    out = session.handle("8>7")
    assert " 7: ## ## ## ## 4S [3S]" in out.splitlines()
    assert "[" in session.handle("show")
    assert "[" not in session.handle("undo")


# -- new deals -----------------------------------------------------------------------------------
def test_play_without_source_deals_a_new_random_game_and_prints_its_code(monkeypatch):
    import secrets

    monkeypatch.setattr(secrets, "randbelow", lambda n: 3)
    result = run_cli([], ["quit"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == (
        "new deal: SP1-S1C-AAAAAAD (play it again with: spidersolve play SP1-S1C-AAAAAAD)"
    )
    assert lines[2] == " 1: ## ## ## ## ## 2S"
    result = run_cli(["--suits", "4"], ["quit"])
    assert result.output.startswith("new deal: SP1-S4C-AAAAAAD")
    assert run_cli(["--suits", "2", "--relaxed"], []).output.startswith("new deal: SP1-S2R-")


def test_new_deals_are_random_and_valid():
    codes = set()
    for _ in range(3):
        first = run_cli(["--suits", "2"], ["quit"]).output.splitlines()[0]
        code = first.split()[2]
        assert GameCode.parse(code).suits == 2
        codes.add(code)
    assert len(codes) == 3


def test_suits_with_a_source_is_an_error():
    result = run_cli(["SP1-S1C-AAAAAAD", "--suits", "2"], [])
    assert result.exit_code == 2
    assert result.output.startswith("error: --suits and --relaxed choose a new random deal")


# -- save and resume -------------------------------------------------------------------------------
def test_save_writes_the_position_reached_and_play_file_resumes_it(tmp_path):
    game = win("SP1-S2C-AAAAAAD")
    first = game["line"].split()
    path = tmp_path / "game.txt"
    result = run_cli([game["code"]], first[:5] + [f"save {path}", "quit"])
    assert result.exit_code == 0, result.output
    assert (
        f"saved to {path} after 5 moves; resume it with: spidersolve play {path}" in result.output
    )
    text = path.read_text(encoding="utf-8")
    reached = replay(GameCode.parse(game["code"]).position(), " ".join(first[:5]))
    assert text.splitlines()[:5] == [
        "# spidersolve saved game",
        f"# start: {game['code']}",
        "# line: " + " ".join(first[:5]),
        "# moves: 5",
        f"# score: {reached.score}",
    ]
    assert Position.from_text(text) == reached.position  # any command reads it as a position
    assert [p.name for p in tmp_path.iterdir()] == ["game.txt"]
    # Resume, finish the game, and the line is the whole game from the code.
    result = run_cli([str(path)], first[5:])  # typed as the line writes them
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == f"resumed {path}: 5 moves, score {reached.score}"
    assert (
        f"you won: all 8 runs removed in {game['moves']} moves, final score "
        f"{game['score']}" in result.output
    )
    assert result.output.splitlines()[-1] == "line: " + game["line"]


def test_a_saved_game_whose_line_does_not_lead_to_its_position_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # short names: a message cuts a long path
    path = Path("game.txt")
    run_cli(["SP1-S1C-AAAAAAD"], ["1>8", f"save {path}", "quit"])
    path.write_text(path.read_text().replace("# moves: 1", "# moves: 7"))
    result = run_cli([str(path)], [])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"error: {path}: the line from SP1-S1C-AAAAAAD does not lead to the saved position, "
        "moves and score"
    ]
    path.write_text(path.read_text().replace("# line: 1>8", "# line: 1>2"))
    assert "the line does not replay from SP1-S1C-AAAAAAD" in run_cli([str(path)], []).output


def test_a_saved_game_with_two_start_lines_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # short names: a message cuts a long path
    path = Path("game.txt")
    run_cli(["SP1-S1C-AAAAAAD"], ["1>8", f"save {path}", "quit"])
    text = path.read_text()
    path.write_text(text.replace("# start:", "# start: SP1-S1C-AAAAAAB\n# start:", 1))
    result = run_cli([str(path)], [])
    assert result.exit_code == 2
    assert result.output.splitlines() == [f"error: {path}: line 3: a second '# start:' line"]


def test_a_saved_game_from_a_position_file_resumes_with_its_counters(tmp_path):
    source = tmp_path / "start.txt"
    source.write_text(position_text({1: "5S", 2: ""}))
    saved = tmp_path / "saved.txt"
    result = run_cli([str(source)], ["1>2", "2>1", f"save {saved}", "quit"])
    assert "saved to" in result.output
    assert "# start:" not in saved.read_text()
    result = run_cli([str(saved)], ["1>2", "quit"])
    assert result.output.splitlines()[0] == f"resumed {saved}: 2 moves, score 498"
    assert "quit after 3 moves, score 497" in result.output
    assert result.output.splitlines()[-1] == "line: 1>2 2>1 1>2"


def test_a_saved_game_from_a_position_file_with_counters_the_line_cannot_give_is_refused(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)  # short names: long ones are cut in messages
    source = tmp_path / "start.txt"
    source.write_text(position_text({1: "5S", 2: ""}))
    saved = Path("saved.txt")
    run_cli([str(source)], ["1>2", "2>1", f"save {saved}", "quit"])
    text = saved.read_text()
    saved.write_text(text.replace("# moves: 2", "# moves: 1"))
    result = run_cli([str(saved)], ["quit"])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"error: {saved}: '# moves:' 1 is fewer than the 2 actions of '# line:'"
    ]
    saved.write_text(text.replace("# score: 498", "# score: 499"))
    result = run_cli([str(saved)], ["quit"])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"error: {saved}: '# score:' 499 is more than 2 moves and 0 removed runs can reach "
        "(SPEC section 6)"
    ]
    # no counters: the line's actions and the score they leave
    saved.write_text(text.replace("# moves: 2\n", "").replace("# score: 498\n", ""))
    assert run_cli([str(saved)], ["quit"]).output.splitlines()[0] == (
        f"resumed {saved}: 2 moves, score 498"
    )
    # more moves than the line (a hand-edited file) and a lower score are taken
    saved.write_text(
        text.replace("# moves: 2", "# moves: 9").replace("# score: 498", "# score: 491")
    )
    assert run_cli([str(saved)], ["quit"]).output.splitlines()[0] == (
        f"resumed {saved}: 9 moves, score 491"
    )
    # ... but not a score that many moves cannot leave, nor a counter of 26 digits
    for old, new, error in [
        ("# score: 498", "# score: 3", "'# score:' 3 is less than 2 moves can leave: 498"),
        ("# moves: 2\n# score: 498", "# moves: 0\n# score: 0", "'# moves:' 0 is fewer"),
        (
            "# moves: 2",
            "# moves: " + "9" * 26,
            "'# moves:' and '# score:' must be whole numbers 0 .. 999,999,999",
        ),
    ]:
        assert old in text
        saved.write_text(text.replace(old, new))
        result = run_cli([str(saved)], ["quit"])
        assert result.exit_code == 2
        [line] = result.output.splitlines()
        assert line.startswith(f"error: {saved}: {error}")


def test_a_saved_game_whose_line_deals_more_than_its_stock_had_is_refused(tmp_path):
    from spidersolve.play.saved import saved_game_text

    game = Game(GameCode.parse("SP1-S1C-AAAAAAD").position(), 2, 498)
    saved = tmp_path / "s.txt"
    saved.write_text(saved_game_text(game, parse_line("1>8 deal")))  # the stock is whole
    result = run_cli([str(saved)], ["quit"])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"error: {saved}: '# line:' deals 1 time, but a stock of 50 cards leaves 50 "
        "after 0 deals at most"
    ]


def test_save_refusals_are_one_line(tmp_path):
    session = PlaySession(Game.start(GameCode.parse("SP1-S1C-AAAAAAD").position()))
    assert session.handle("save") == "refused: save needs a file name: save FILE"
    out = session.handle(f"save {tmp_path / 'no' / 'x.txt'}")
    assert out.startswith("refused: cannot write ") and "\n" not in out


def test_save_names_with_a_nul_byte_a_folder_or_a_missing_folder_are_refused_in_words(tmp_path):
    session = PlaySession(Game.start(GameCode.parse("SP1-S1C-AAAAAAD").position()))
    assert session.handle("save a\x00b") == (
        "refused: cannot write 'a\\x00b': a file name cannot hold a NUL byte"
    )
    assert session.handle(f"save {tmp_path}") == f"refused: '{tmp_path}' is a folder, not a file"
    missing = tmp_path / "nodir"
    assert session.handle(f"save {missing / 'x'}") == (
        f"refused: cannot write '{missing / 'x'}': no such folder '{missing}'"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_saved_name_with_a_space_is_quoted_in_the_command_that_resumes_it(tmp_path):
    session = PlaySession(Game.start(GameCode.parse("SP1-S1C-AAAAAAD").position()))
    path = tmp_path / "my game.txt"
    said = session.handle(f"save {path}")
    assert said == f"saved to {path} after 0 moves; resume it with: spidersolve play '{path}'"


def test_play_reads_a_saved_game_as_other_commands_read_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # short names: a message cuts a long path
    path = Path("game.txt")
    run_cli(["SP1-S1C-AAAAAAD"], ["1>8", f"save {path}", "quit"])
    text = path.read_text()
    bom = Path("bom.txt")
    bom.write_text("\ufeff" + text)
    assert run_cli([str(bom)], ["quit"]).output.startswith(f"resumed {bom}: 1 move")
    crlf = Path("crlf.txt")
    crlf.write_bytes(text.replace("\n", "\r\n").encode())
    assert run_cli([str(crlf)], ["quit"]).output.startswith(f"resumed {crlf}: 1 move")
    bad = Path("bad.txt")
    bad.write_bytes(text.encode() + b"\xff\n")
    result = run_cli([str(bad)], ["quit"])
    assert result.exit_code == 2
    at = len(text.encode())
    assert result.output.splitlines() == [
        f"error: position file '{bad}' is not UTF-8 text: byte 0xff at offset {at}"
    ]
    huge = Path("huge.txt")
    huge.write_text(text + ("# padding\n" * (2 << 20)))
    result = run_cli([str(huge)], ["quit"])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"error: position file '{huge}' holds more than 16 MiB, more than any position text"
    ]


def test_a_saved_game_without_its_first_line_is_played_as_a_position_with_a_note(
    tmp_path, monkeypatch
):
    # it was read as a fresh position with no word of the '# line:' it carried
    monkeypatch.chdir(tmp_path)  # short names: a long path is cut in the note
    path = Path("game.txt")
    run_cli(["SP1-S1C-AAAAAAD"], ["10>2", f"save {path}", "quit"])
    headless = Path("headless.txt")
    headless.write_text(path.read_text().split("\n", 1)[1])
    result = run_cli([str(headless)], ["quit"])
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        f"note: {headless} is read as a position, not a saved game: its '# start:' "
        "(line 1) is read only after the first line '# spidersolve saved game'"
    ]
    assert run_cli([str(path)], ["quit"]).stderr == ""


def test_a_count_of_thousands_of_digits_is_refused_as_typed():
    session = PlaySession(Game.start(GameCode.parse("SP1-S1C-AAAAAAD").position()))
    said = session.handle("1>8x" + "9" * 5000)
    assert said == (
        "refused: " + "9" * 40 + "... (5,000 characters) cards is more than a column holds "
        "(at most 104)"
    )
    assert session.line == ""


@pytest.mark.parametrize("space", ["\u00a0", "\x0c", "\x0b"])
def test_deal_followed_by_other_white_space_is_a_refusal_not_a_crash(space):
    session = PlaySession(Game.start(GameCode.parse("SP1-S1C-AAAAAAD").position()))
    said = session.handle("deal " + space)
    assert said == f"refused: {space!r} is not a card"  # spaces and tabs part the cards
    assert session.line == ""


# -- on a real terminal (a pty): prompt-toolkit line editing, history, colour -----------------
class Pty:
    """A process on a pseudo-terminal; ``expect`` reads until a text shows up."""

    PROMPT = "\x1b[?2004h"  # prompt-toolkit switches on bracketed paste at each prompt

    def __init__(self, args, env):
        import os
        import pty
        import subprocess

        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(
            args, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True
        )
        os.close(slave)
        self.seen, self.at = "", 0

    def expect(self, text: str, timeout: float = 30.0) -> None:
        import os
        import select
        import time

        deadline = time.time() + timeout
        while text not in self.seen[self.at :]:
            left = deadline - time.time()
            assert left > 0, f"no {text!r} in {self.seen[self.at :][-800:]!r}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    chunk = b""
                assert chunk, f"the process ended before {text!r}: {self.seen[-800:]!r}"
                self.seen += chunk.decode(errors="replace")
        self.at = self.seen.index(text, self.at) + len(text)

    def close(self) -> int:
        import os

        try:
            return self.proc.wait(timeout=30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            os.close(self.master)


def play_on_a_pty(keys, no_color: bool = False, args=("SP1-S4C-AAAAAAD",)) -> str:
    """Type each key string, then read until its expected text (and the next prompt)."""
    import os
    import sys

    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env |= {"TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1", "COLUMNS": "120", "LINES": "40"}
    if no_color:
        env["NO_COLOR"] = "1"
    exe = Path(sys.executable).parent / "spidersolve"
    term = Pty([str(exe), "play", *args], env)
    try:
        term.expect(Pty.PROMPT)
        for i, (key, wait_for) in enumerate(keys):
            os.write(term.master, key)
            term.expect(wait_for)
            if i < len(keys) - 1:
                term.expect(Pty.PROMPT)
    finally:
        assert term.close() == 0
    return term.seen


def test_on_a_terminal_the_arrow_keys_edit_the_line_and_recall_history():
    out = play_on_a_pty(
        [
            (b"score\r", "moves: 0, score: 500"),
            # "18" then left arrow, then ">" typed before the 8: the line reads 1>8.
            (b"18\x1b[D>\r", "1>8: move the 2C from column 1"),
            # Up twice recalls "score".
            (b"\x1b[A\x1b[A\r", "moves: 1, score: 499"),
            (b"quit\r", "line: 1>8"),
        ]
    )
    assert "^[[A" not in out and "^[[D" not in out


def test_on_a_colour_terminal_cards_have_suit_symbols_and_red_and_no_color_turns_it_off():
    fancy = play_on_a_pty([(b"q\r", "line:")])
    assert "2\u2663" in fancy and "\x1b[31m" in fancy  # 2C drawn 2♣, and red cards
    plain = play_on_a_pty([(b"q\r", "line:")], no_color=True)
    assert "2\u2663" not in plain and " 1: ## ## ## ## ## 2C" in plain
    flag = play_on_a_pty([(b"q\r", "line:")], args=("SP1-S4C-AAAAAAD", "--no-color"))
    assert "2\u2663" not in flag and " 1: ## ## ## ## ## 2C" in flag


def test_a_game_resumed_from_a_code_can_be_undone_and_restarted_past_the_save(tmp_path):
    path = tmp_path / "game.txt"
    run_cli(["SP1-S1C-AAAAAAD"], ["1>8", "8>7", f"save {path}", "quit"])
    result = run_cli([str(path)], ["undo", "restart", "redo", "quit"])
    assert result.exit_code == 0, result.output
    assert "undid 8>7x2" in result.output
    # The undone 8>7x2 can still be redone after the restart, after 1>8.
    assert "restarted: back to the start (2 actions to redo)" in result.output
    assert "redid 1>8: " in result.output
    assert result.output.splitlines()[-1] == "line: 1>8"
    result = run_cli([str(path)], ["undo", "restart", "redo", "redo", "redo", "quit"])
    assert "redid 8>7x2: " in result.output and "refused: nothing to redo" in result.output
    assert result.output.splitlines()[-1] == "line: 1>8 8>7x2"


def test_cancel_with_nothing_to_cancel_says_so():
    from spidersolve.play.session import PlaySession
    from spidersolve.state import Game, GameCode

    session = PlaySession(Game.start(GameCode.parse("SP1-S1C-AAAAAAD").position()))
    assert session.handle("cancel").startswith("refused: nothing to cancel")


def test_a_long_game_keeps_its_history_and_copies_push_apart():
    # the history is a linked list: copies share it and push apart
    game = Game.start(Position.from_text(position_text({1: "5S", 2: ""})))
    line = ["1>2" if i % 2 == 0 else "2>1" for i in range(2001)]
    for action in line:
        game.push(action)
    other = game.copy()
    assert other.pop().text() == "1>2" and other.moves == 2000
    other.push("3>2")
    assert [a.text() for a in game.history] == line and game.peek().text() == "1>2"
    assert [a.text() for a in other.history] == line[:-1] + ["3>2"]
    for _ in range(2001):
        game.pop()
    assert game.history == () and game.moves == 0 and other.moves == 2001
