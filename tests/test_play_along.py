"""Playing along with a real table or another app: a game with unknown cards (??)."""

from __future__ import annotations

from spidersolve.cards import card_text
from spidersolve.play import PlaySession
from spidersolve.state import Game, GameCode, Position, replay
from spidersolve.state.visible import visible_of

CODE = "SP1-S1C-AAAAAAD"


def _session():
    full = GameCode.parse(CODE).position()
    return full, PlaySession(Game.start(visible_of(full)))


def test_a_move_that_turns_up_an_unknown_card_asks_for_it_and_turn_names_it():
    full, s = _session()
    said = s.handle("1>8")
    assert "a face-down card turns up in column 1" in said and "turn 1 CARD" in said
    assert s.line == ""  # nothing played yet
    assert s.handle("deal").startswith("refused: 1>8 waits for the card")
    assert s.handle("turn 2 KS").startswith("refused: the card that turns up is in column 1")
    card = card_text(full.down[0][-1])
    said = s.handle(f"turn 1 {card}")
    assert said.startswith("1>8: move the 2S") and f"the {card} in column 1 turns up" in said
    assert s.line == "1>8"
    assert s.game.position.up == replay(full, "1>8").position.up


def test_a_card_that_cannot_be_hidden_is_refused_with_the_reason():
    _full, s = _session()
    s.handle("1>8")
    said = s.handle("turn 1 AH")
    assert said.startswith("refused:") and "not in a 1-suit deck" in said
    assert s.handle("turn 1 XX").startswith("refused:")
    assert s.handle("turn").startswith("refused: write turn 1 CARD")


def test_turn_with_a_column_of_thousands_of_digits_is_refused_as_typed():
    _full, s = _session()
    s.handle("1>8")
    said = s.handle("turn " + "9" * 5000 + " KS")
    assert said == (
        "refused: the card that turns up is in column 1, not " + "9" * 40 + "... (5,000 characters)"
    )


def test_cancel_takes_back_the_waiting_action():
    _full, s = _session()
    s.handle("1>8")
    assert s.handle("cancel").startswith("cancelled 1>8")
    assert s.handle("turn 1 KS").startswith("refused: no card is waiting")


def test_a_deal_from_an_unknown_stock_needs_its_ten_cards():
    full, s = _session()
    said = s.handle("deal")
    assert said.startswith("refused: the next ten stock cards are not known")
    assert s.handle("deal AS 2S").startswith("refused: a deal is ten cards")
    cards = " ".join(card_text(c) for c in full.stock[:10])
    said = s.handle("deal " + cards)
    assert said.startswith("deal: deal a row (4 deals left)")
    assert s.game.position.up == replay(full, "deal").position.up


def test_tabs_part_the_words_of_deal_and_turn_bug():
    # "deal<TAB>5D ..." was an unknown command
    full, s = _session()
    cards = "\t".join(card_text(c) for c in full.stock[:10])
    assert s.handle("deal\t" + cards).startswith("deal: deal a row (4 deals left)")
    full, s = _session()
    s.handle("1>8")
    assert s.handle(f"turn\t1\t{card_text(full.down[0][-1])}").startswith("1>8: move the 2S")


def test_named_cards_stay_known_through_undo_restart_and_redo():
    full, s = _session()
    s.handle("1>8")
    s.handle(f"turn 1 {card_text(full.down[0][-1])}")
    s.handle("undo")
    assert s.handle("1>8").startswith("1>8: move the 2S")  # no second question
    s.handle("restart")
    assert s.handle("redo").startswith("redid 1>8")
    assert s.game.position.up == replay(full, "1>8").position.up


def test_a_whole_game_followed_card_by_card_ends_as_the_real_one():
    full = GameCode.parse(CODE).position()
    from spidersolve.search import solve

    line = solve(full).line
    s = PlaySession(Game.start(visible_of(full)))
    real = Game.start(full)
    for action in line:
        said = s.handle(action.text() if not action.is_deal else "deal")
        while "turn" in said and "CARD" in said:  # name what turned up, as at a table
            col = int(said.split("column ")[1].split(":")[0]) - 1
            top = real.play(action).position
            shown = top.up[col][0] if top.up[col] else None
            said = s.handle(f"turn {col + 1} {card_text(shown)}")
        if said.startswith("refused: the next ten stock cards"):
            said = s.handle("deal " + " ".join(card_text(c) for c in real.position.stock[:10]))
        real = real.play(action)
        assert s.game.position.up == real.position.up, said
    assert s.game.won


def test_hint_in_a_game_with_unknown_cards_is_honest():
    _full, s = _session()
    said = s.handle("hint")
    assert said.startswith("hint: ") and "honest:" in said and "samples won after it" in said


def test_hint_waits_for_the_card_a_pending_action_turns_up_bug():
    # a hint then would answer for the position before the action
    _full, s = _session()
    s.handle("1>8")
    assert s.handle("hint").startswith("refused: 1>8 waits for the card")


def test_the_line_says_it_needs_the_named_cards_when_the_start_cannot_replay_it_bug():
    full, s = _session()
    s.handle("1>8")
    s.handle(f"turn 1 {card_text(full.down[0][-1])}")
    s.handle("quit")
    note, line = s.line_report().splitlines()
    assert line == "line: 1>8" and "'save FILE' keeps them" in note
    # a line that turns up no unknown card replays from the start: no note
    _full, quiet = _session()
    quiet.handle("quit")
    assert quiet.line_report() == "line:"


def test_a_kept_line_that_led_to_the_game_is_not_replayed_again_for_the_note_bug():
    # play FILE --after LINE (or a saved game) replayed its kept line from the
    # position after it, failed, and said the line needed named cards
    full = replay(CODE, "10>2 9>10").position
    view = visible_of(full)
    after = replay(view, "10>4")  # turns up no card
    s = PlaySession(after, line=after.history)
    s.handle("quit")
    assert s.line_report() == "line: 10>4"
    # a card named in this session still gets the note
    s = PlaySession(after, line=after.history)
    said = s.handle("1>8")
    assert "turn 1 CARD" in said, said
    s.handle(f"turn 1 {card_text(full.down[0][-1])}")
    note, line = s.line_report().splitlines()
    assert line == "line: 10>4 1>8" and "'save FILE' keeps them" in note


def test_a_no_break_space_does_not_part_the_cards_of_deal_and_turn_bug():
    # "deal<NBSP>..." was refused but "deal 2S<NBSP>8S ..." was read as two cards
    full, s = _session()
    cards = [card_text(c) for c in full.stock[:10]]
    said = s.handle("deal " + cards[0] + "\u00a0" + " ".join(cards[1:]))
    assert said.startswith("refused: ") and "is not a card" in said
    s.handle("1>8")
    assert s.handle("turn 1\u00a0" + card_text(full.down[0][-1])).startswith(
        "refused: write turn 1 CARD"
    )


def test_a_full_game_names_no_hidden_card_in_moves_hint_or_deal():
    """SPEC 11: a player sees face-up cards and counts, never which card lies face
    down or in the stock; play's own words must not read them out either."""
    position = GameCode.parse("SP1-S2C-AAAAAAD").position()
    session = PlaySession(Game.start(position))
    moves = session.handle("moves")
    assert "1>8" in moves and "a face-down card in column 1 turns up" in moves
    # the card under 1's 2H is the KS: named nowhere before it turns up
    assert card_text(position.down[0][-1]) == "KS" and "KS" not in moves
    hint = session.handle("hint")
    assert hint.startswith("hint: ")
    hidden = {card_text(c) for col in position.down for c in col[-1:]}
    shown_up = {card_text(col[-1]) for col in position.up if col}
    assert not (hidden - shown_up) & set(hint.replace(";", " ").replace(")", " ").split())
    first = card_text(position.stock[0])
    guess = "AS" if first != "AS" else "2S"
    refused = session.handle("deal " + " ".join([guess] * 10))
    assert refused.startswith("refused: the next ten stock cards are known to this game")
    assert first not in refused
    assert session.game.position == position  # nothing played


def test_a_card_named_before_a_cancel_stays_known_in_what_redo_brings_back_bug():
    # 2>1 removes a run and turns up two cards; the first named, then cancelled:
    # redo brought back the game after 3>4 with that card ?? again
    cols = ["?? | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "?? | AS", "| 9S", "| TS"]
    cols += ["?? ?? ?? ?? ?? | KS"] * 5 + ["?? ?? ?? ?? ?? ?? | KS"]
    text = "spider 1 classic\nremoved:\nstock: " + " ".join(["??"] * 50) + "\n"
    text += "".join(f"{i + 1}: {col}\n" for i, col in enumerate(cols))
    s = PlaySession(Game.start(Position.from_text(text)))
    s.handle("3>4")
    s.handle("undo")
    said = s.handle("2>1")
    col = int(said.split("column ")[1].split(":")[0])
    assert "turns up in column" in s.handle(f"turn {col} 5S")  # the second card
    assert s.handle("cancel").startswith("cancelled 2>1")
    assert s.handle("redo").startswith("redid 3>4")
    assert card_text(s.game.position.down[col - 1][-1]) == "5S"
