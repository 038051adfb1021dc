"""The reference rules, card and position text, case by case (SPEC sections 1-8)."""

from __future__ import annotations

import re

import pytest
from data import CLUBS_STUCK_TEXT, read_vectors

from spidersolve import SpiderError
from spidersolve.cards import CardError, card_text, parse_card
from spidersolve.state import (
    DEAL,
    Action,
    Game,
    GameCode,
    IllegalAction,
    Position,
    PositionError,
    apply,
    legal_actions,
    parse_line,
    replay,
    why_illegal,
)
from spidersolve.state.perft import divide, perft

# Column 1 holds K..3 and column 2 holds 2 A of spades: 2>1x2 makes a run.
RUN_READY = """\
spider 1 classic
removed: S S S S S S
stock:
1: | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S
2: | 2S AS
3: | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
4: | AS
5: |
6: |
7: |
8: |
9: |
10: |
"""


def deal3(suits=4, rules="classic"):
    return GameCode(suits, rules, 3).position()


# -- cards ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expect",
    [
        ("AS", "AS"),
        ("10h", "TH"),
        ("td", "TD"),
        ("K\u2663", "KC"),
        ("9\u2665", "9H"),
        (" qs ", "QS"),
    ],
)
def test_card_parser_accepts_ten_lower_case_and_symbols(text, expect):
    assert card_text(parse_card(text)) == expect


@pytest.mark.parametrize(
    "text",
    # the outline suit symbols are not among SPEC section 1's (they were taken)
    ["", "A", "1S", "ZS", "AX", "11H", "??", "A\u2664", "A\u2661", "A\u2662", "A\u2667"],
)
def test_card_parser_refuses_what_is_not_a_card(text):
    with pytest.raises(CardError):
        parse_card(text)


# -- codes ---------------------------------------------------------------


def test_one_suit_relaxed_code_is_written_classic():
    assert GameCode(1, "relaxed", 3).text() == "SP1-S1C-AAAAAAD"
    assert GameCode.parse("SP1-S1R-AAAAAAD").rules == "classic"


def test_same_deal_number_puts_the_same_ranks_in_the_same_places():
    ranks = {s: [c & 15 for c in GameCode(s, "classic", 12345).deck()] for s in (1, 2, 4)}
    assert ranks[1] == ranks[2] == ranks[4]


@pytest.mark.parametrize(
    "text",
    [
        "pysol:3:1",
        "pysol:4:0",
        "pysol:4:abc",
        "pysol:4",
        "pysol:4:ms0",
        "pysol:4:100000000000000000000",
    ],
)
def test_bad_pysol_deal_is_refused(text):
    from spidersolve.state import PysolDeal

    with pytest.raises(SpiderError):
        PysolDeal.parse(text)


def test_pysol_14934_has_the_documented_bottom_row():
    from spidersolve.state import PysolDeal

    position = PysolDeal.parse("pysol:4:14934").position()
    assert (
        " ".join(card_text(position.column(c)[0]) for c in range(10))
        == "TS 2H 4S QD 3D TD 9H AS JS JD"
    )


# -- actions -------------------------------------------------------------


@pytest.mark.parametrize(
    "text, action",
    [
        ("7>3", Action(6, 2, 1)),
        ("7>3x3", Action(6, 2, 3)),
        ("10>1x12", Action(9, 0, 12)),
        ("1>2x1", Action(0, 1, 1)),
        ("DEAL", DEAL),
        (" deal ", DEAL),
    ],
)
def test_action_notation_is_read(text, action):
    assert Action.parse(text) == action


def test_action_writer_never_writes_x1():
    assert Action.parse("1>2x1").text() == "1>2"


@pytest.mark.parametrize("text", ["", "1-2", "0>3", "1>11", "1>2x0", "1>2x", "dealx", "a>b"])
def test_bad_action_notation_is_refused(text):
    with pytest.raises(SpiderError):
        Action.parse(text)


@pytest.mark.parametrize(
    "text, words",
    [
        ("1>2x1000", "1000 cards is more than a column holds (at most 104)"),
        ("1>2x105", "105 cards is more than a column holds"),
        ("1000>2", "source column 1000 is not 1..10"),
        ("1>" + "9" * 5000, "destination column 9999"),
    ],
)
def test_long_numbers_in_an_action_say_what_is_wrong_bug(text, words):
    """A number of any length is read; the message names it (cut when long)."""
    with pytest.raises(SpiderError) as err:
        Action.parse(text)
    assert words in str(err.value) and len(str(err.value)) < 300


def test_leading_zeros_and_the_largest_count_are_read():
    assert Action.parse("0010>001x0104") == Action(9, 0, 104)


@pytest.mark.parametrize(
    "action, words",
    [
        (Action(3, 9, 0), "a move of 0 cards (a move takes 1..104)"),
        (Action(6, -1, 1), "not a move (columns 0..9) and not the deal"),
        (Action(-1, 3, 5), "not a move (columns 0..9) and not the deal"),
        (Action(10, 0, 1), "source column 10 is not 0..9"),
        (Action(0, 10, 1), "destination column 10 is not 0..9"),
        (Action(0, 1, 105), "a move of 105 cards"),
        (Action(0.0, 1.0, 1.0), "its fields are whole numbers"),
        (Action(True, 1, 1), "its fields are whole numbers"),
        ((9, 1, 1), "an action is an Action or its text"),
        (None, "an action is an Action or its text"),
        (b"10>2", "an action is an Action or its text"),
    ],
)
def test_an_action_built_from_bad_fields_is_never_played_bug(action, words):
    # Action(3, 9, 0) moved the whole face-up pile, not a run; Action(6, -1, 1)
    # was played as 7>10 and written 7>0; others raised IndexError or AttributeError
    start = replay("SP1-S4C-AAAAAAD", "deal")
    for attempt in (
        lambda: apply(start.position, action),
        lambda: why_illegal(start.position, action),
        lambda: start.play(action),
        lambda: replay(start.position, [action]),
        lambda: Game.start(start.position).push(action),
    ):
        with pytest.raises(SpiderError, match=re.escape(words)):
            attempt()


def test_numpy_fields_make_an_action():
    import numpy as np

    action = Action(np.int64(9), np.int32(1), np.int16(1))
    start = GameCode.parse("SP1-S1C-AAAAAAD").position()
    assert apply(start, action)[0] == apply(start, Action.parse("10>2"))[0]


def test_leading_zeros_of_any_number_are_read_bug():
    # ten characters or more were taken as a huge number: "0000000002 cards is more
    # than a column holds", "source column 0000000001 is not 1..10"
    pad = "0" * 12
    assert Action.parse(f"{pad}1>{pad}8x{pad}2") == Action(0, 7, 2)
    with pytest.raises(SpiderError, match="source column 0000000000011 is not 1..10"):
        Action.parse("0000000000011>2")


def test_bad_action_in_a_line_names_its_index():
    with pytest.raises(SpiderError, match="action 2"):
        parse_line("1>2 1>>2 deal")


def test_legal_actions_come_by_source_destination_size_then_deal():
    actions = legal_actions(deal3())
    moves = [a for a in actions if not a.is_deal]
    assert moves == sorted(moves)
    assert actions[-1] == DEAL


def test_legal_actions_are_exactly_those_why_illegal_accepts():
    position = Position.from_text(RUN_READY)
    candidates = [Action(s, d, n) for s in range(10) for d in range(10) for n in range(1, 14)]
    legal = [a for a in candidates + [DEAL] if why_illegal(position, a) is None]
    assert legal == legal_actions(position)


def test_any_group_size_may_go_to_an_empty_column():
    position = Position.from_text(RUN_READY)
    to_col5 = [a for a in legal_actions(position) if a.dst == 4 and a.src == 0]
    assert [a.n_cards for a in to_col5] == list(range(1, 12))


def test_nothing_goes_onto_an_ace():
    position = Position.from_text(RUN_READY)
    reason = why_illegal(position, Action.parse("3>4"))
    assert reason.startswith("nothing can go onto an ace")


def test_deal_is_refused_while_a_column_is_empty():
    row = next(r for r in read_vectors("positions") if r["name"] == "empty column blocks the deal")
    position = Position.from_text(row["position"])  # column 1 is empty, the stock is not
    assert position.stock and DEAL not in legal_actions(position)
    assert why_illegal(position, DEAL) == "no deal while a column is empty (column 1)"
    with pytest.raises(IllegalAction, match="column is empty"):
        apply(position, DEAL)


def test_deal_is_refused_when_the_stock_is_empty():
    assert why_illegal(Position.from_text(RUN_READY), DEAL) == "the stock is empty"


def test_classic_refuses_a_mixed_suit_group_that_relaxed_moves():
    row = next(r for r in read_vectors("positions") if r["name"] == "classic mixed group")
    classic = Position.from_text(row["position"])  # column 1 ends TH 9S 8H 7H
    relaxed = Position.from_text(row["position"].replace("classic", "relaxed", 1))
    move = Action.parse("1>2x4")  # TH 9S 8H 7H onto JD
    assert "not one suit" in why_illegal(classic, move)
    assert why_illegal(relaxed, move) is None
    assert why_illegal(classic, Action.parse("1>3x2")) is None  # 8H 7H onto 9C


def test_move_that_completes_a_run_removes_it_and_turns_nothing():
    position = Position.from_text(RUN_READY)
    after, removed = apply(position, Action.parse("2>1x2"))
    assert removed == [0]
    assert after.up[0] == () and after.up[1] == ()
    assert len(after.removed) == 7


def test_move_that_uncovers_an_unknown_card_cannot_be_applied():
    text = deal3().to_text().replace("1: 8S AC TD AS KD | 2C", "1: 8S AC TD AS ?? | 2C")
    position = Position.from_text(text)
    assert position.has_unknown
    move = next(a for a in legal_actions(position) if a.src == 0)  # 2C onto a 3
    with pytest.raises(IllegalAction, match="unknown card in column 1"):
        apply(position, move)


# -- score (SPEC 6) ------------------------------------------------------


def test_each_action_costs_one_point_and_counts_one_move():
    game = Game.start(deal3()).play(DEAL)
    assert (game.moves, game.score) == (1, 499)


def test_removing_a_run_adds_one_hundred():
    game = Game.start(Position.from_text(RUN_READY)).play(Action.parse("2>1x2"))
    assert (game.moves, game.score) == (1, 599)
    assert game.won is False


def test_a_move_at_score_zero_that_removes_a_run_ends_at_one_hundred():
    game = Game(Position.from_text(RUN_READY), moves=700, score=0)
    assert game.play(Action.parse("2>1x2")).score == 100


def test_score_never_goes_below_zero():
    game = Game(Position.from_text(RUN_READY), moves=700, score=0)
    assert game.play(Action.parse("1>5")).score == 0


def test_state_is_lost_when_no_action_is_left():
    game = Game.start(Position.from_text(CLUBS_STUCK_TEXT))
    assert legal_actions(game.position) == []
    assert game.state == "lost"


def test_replay_error_names_the_index_action_and_rule():
    with pytest.raises(IllegalAction, match=r"action 2 \(3>4\).*onto an ace"):
        replay(Position.from_text(RUN_READY), "1>5 3>4")


# -- perft ---------------------------------------------------------------


def test_perft_of_depth_zero_is_one_and_depth_one_is_the_legal_count():
    position = deal3()
    assert perft(position, 0) == 1
    assert perft(position, 1) == len(legal_actions(position))
    assert divide(position, 0) == []


def test_perft_refuses_a_negative_depth():
    with pytest.raises(ValueError):
        perft(deal3(), -1)


# -- position text (SPEC 8) ----------------------------------------------


def test_position_reader_takes_comments_blank_lines_and_any_line_order():
    canonical = deal3().to_text()
    lines = canonical.splitlines()
    shuffled = ["# a comment", lines[0].upper() + "  # header", ""] + lines[:0:-1]
    assert Position.from_text("\n".join(shuffled)).to_text() == canonical


def test_one_suit_relaxed_header_reads_as_classic():
    text = GameCode(1, "classic", 3).position().to_text().replace("classic", "relaxed")
    assert Position.from_text(text).rules == "classic"


@pytest.mark.parametrize(
    "edit, fragment",
    [
        (lambda t: t.replace("spider 4 classic", "spider 3 classic"), "suits"),
        (lambda t: t.replace("spider 4 classic", "spades 4 classic"), "first line"),
        (lambda t: t.replace("1: 8S", "1: XS"), "line 4"),
        (lambda t: t.replace("| 2C", "| ?? 2C"), "face-down"),
        (lambda t: t.replace("10: 9D 8C KC 9H | 5D", ""), "'10:'"),
        (lambda t: t + "3: |\n", "twice"),
        (lambda t: t.replace("stock: 2S 8H 3D 4S 6D ", "stock: "), "multiple of 10"),
        (lambda t: t.replace("1: 8S AC TD AS KD | 2C", "1: 8S AC TD AS KD |"), "not covered"),
        (lambda t: t.replace("| 2C", "| 2C 2C"), "appears 3 times"),
        (lambda t: t.replace("| 2C", "| 3C"), "3C"),
        (lambda t: t.replace("removed:", "removed: X"), "not a suit"),
        (lambda t: t.replace("removed:", "removed: S"), "cards"),
        (lambda t: t.replace("| 2C", "2C"), "'|'"),
        (lambda t: t.replace("1: ", "11: "), "not a line"),
    ],
)
def test_bad_position_text_is_refused_with_the_problem_named(edit, fragment):
    with pytest.raises(PositionError, match=fragment.replace("?", r"\?").replace("|", r"\|")):
        Position.from_text(edit(deal3().to_text()))


def test_a_complete_run_left_on_the_table_is_refused():
    text = RUN_READY.replace("2: | 2S AS", "2: |").replace("3S\n2:", "3S 2S AS\n2:")
    with pytest.raises(PositionError, match="complete run"):
        Position.from_text(text)


def test_empty_position_text_is_refused():
    with pytest.raises(PositionError, match="empty"):
        Position.from_text("# nothing\n\n")


def test_words_describe_stock_runs_and_columns():
    words = Position.from_text(RUN_READY).words()
    assert words.startswith("Stock: 0 cards, 0 deals left; 6 runs removed")
    assert "column 5: empty" in words


def test_a_card_that_appears_too_often_is_named_with_the_lines_that_hold_it():
    text = GameCode.parse("SP1-S4C-AAAAAAD").position().to_text()
    with pytest.raises(PositionError) as err:
        Position.from_text(text.replace("| 2C", "| 2C 2C"))
    assert str(err.value) == (
        "lines 3, 4: cards: 2C appears 3 times (column 1, stock), the 4-suit deck has 2"
    )
    with pytest.raises(PositionError) as err:
        Position.from_text(text.replace("| 2C", "| 2C 5D"))
    assert str(err.value).startswith("lines 3, 4, 13: cards: 5D appears 3 times (columns 1 and 10")
    one = text.replace("| 2C", "| 2C 2C 2C").replace(" 2C ", " ?? ", 1)  # the stock's 2C
    with pytest.raises(PositionError) as err:  # one line: that line alone
        Position.from_text(one)
    assert str(err.value).startswith("line 4: cards: 2C appears 3 times (column 1)")


def test_removed_runs_may_be_written_with_suit_symbols():
    from spidersolve.state.position import _parse_suit

    assert [_parse_suit(s) for s in ("\u2660", "\u2665", "\u2666", "\u2663", "s", "C")] == [
        0, 1, 2, 3, 0, 3,
    ]  # fmt: skip
    with pytest.raises(PositionError, match="'X' is not a suit"):
        _parse_suit("X")


def test_verify_win_calls_a_line_that_is_no_line_the_callers_error_bug():
    # it raised ReplayFailed, "a bug" of the search, for notation the caller got wrong
    from spidersolve.search.verify import ReplayFailed, verify_win

    with pytest.raises(SpiderError, match="'foo' is not an action") as caught:
        verify_win("SP1-S1C-AAAAAAD", "foo")
    assert not isinstance(caught.value, ReplayFailed)
    with pytest.raises(ReplayFailed, match="illegal under the reference rules"):
        verify_win("SP1-S1C-AAAAAAD", "1>1")


@pytest.mark.parametrize("bad", [14, 30, 64, -1, 2**70, 0, -15, None, "AS", 1.0, True])
def test_a_card_number_that_is_no_card_is_refused_by_name_bug(bad):
    # IndexError, "KS is not in a 1-suit deck" for 0, "AC" for -15, or a float
    # passed and failed later in to_text and the search
    start = GameCode.parse("SP1-S1C-AAAAAAD").position()
    stock = (bad, *start.stock[1:])
    with pytest.raises(PositionError, match=f"cards: {re.escape(repr(bad))} is not a card number"):
        Position.make(1, "classic", start.down, start.up, stock, ())


@pytest.mark.parametrize("suits", [True, 1.0, "1"])
def test_suits_that_are_no_whole_number_are_refused_bug(suits):
    # True and 1.0 were taken, and the text ('spider True classic') read back by nothing
    start = GameCode.parse("SP1-S1C-AAAAAAD").position()
    with pytest.raises(PositionError, match=re.escape(f"not {suits!r}")):
        Position.make(suits, "classic", start.down, start.up, start.stock, ())
    with pytest.raises(SpiderError, match=re.escape(f"not {suits!r}")):
        GameCode(suits, "classic", 3)


def test_numpy_deal_numbers_and_pysol_numbers_of_any_form_name_one_deal_bug():
    import numpy as np

    from spidersolve.state import PysolDeal

    # np.int64 overflowed in position(); PysolDeal(4, 5) failed in re; "0005" != "5"
    code = GameCode(4, "classic", np.int64(7))
    assert code == GameCode(4, "classic", 7) and type(code.deal_number) is int
    assert code.position() == GameCode(4, "classic", 7).position()
    assert PysolDeal(4, 5) == PysolDeal(4, "0005") == PysolDeal.parse("pysol:4:5")
    for bad in (lambda: PysolDeal(3, "5"), lambda: PysolDeal(4, None)):
        with pytest.raises(SpiderError):
            bad()
    with pytest.raises(SpiderError, match="deal number must be"):
        GameCode(4, "classic", 1.5)


def test_text_readers_given_no_text_say_so_bug(tmp_path):
    # AttributeError ('NoneType' object has no attribute 'strip') before
    from spidersolve.state import PysolDeal, load_source

    for read in (Action.parse, GameCode.parse, PysolDeal.parse, load_source, Position.from_text):
        with pytest.raises(SpiderError, match="not None"):
            read(None)
    path = tmp_path / "p.txt"
    path.write_text(GameCode.parse("SP1-S1C-AAAAAAD").position().to_text())
    assert load_source(path)[0] == GameCode.parse("SP1-S1C-AAAAAAD").position()  # a Path too


def test_a_game_built_from_its_fields_is_checked_bug():
    # Game("SP1-...").won raised AttributeError; a negative score was carried on (709)
    start = GameCode.parse("SP1-S1C-AAAAAAD").position()
    assert Game("SP1-S1C-AAAAAAD") == Game.start(start)
    for fields in ({"score": None}, {"score": -3}, {"moves": 1.0}, {"moves": True}):
        with pytest.raises(SpiderError, match="must be a whole number 0 or more"):
            Game(start, **fields)
    with pytest.raises(SpiderError, match="game must be a Game"):
        replay(start, "10>2", game=start)
    with pytest.raises(SpiderError, match="a line is its text or its actions"):
        replay(start, None)


def test_after_takes_actions_as_replay_does():
    from spidersolve.state import as_game

    assert as_game("SP1-S1C-AAAAAAD", after=[Action(9, 1, 1)]) == as_game(
        "SP1-S1C-AAAAAAD", after="10>2"
    )


def test_verify_win_on_hidden_cards_is_the_callers_error():
    from spidersolve.search.verify import ReplayFailed, verify_win
    from spidersolve.state import HiddenCard
    from spidersolve.state.visible import visible_of

    with pytest.raises(HiddenCard) as caught:
        verify_win(visible_of("SP1-S1C-AAAAAAD"), "10>2")
    assert not isinstance(caught.value, ReplayFailed)
