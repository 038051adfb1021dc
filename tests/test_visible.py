"""The visible position, the unseen cards, samples and naming cards (SPEC section 11)."""

from __future__ import annotations

from collections import Counter

import pytest
from data import read_vectors, vector_id
from hypothesis import given, settings
from hypothesis import strategies as st

from spidersolve.cards import UNKNOWN, card_text, parse_card
from spidersolve.state import (
    DEAL,
    Action,
    GameCode,
    HiddenCard,
    Position,
    PositionError,
    apply,
    legal_actions,
    replay,
)
from spidersolve.state.visible import (
    agrees,
    fill,
    name_deal,
    name_down,
    sample_hidden,
    sample_rng,
    samples,
    unknown_count,
    unseen_cards,
    visible_of,
)

VISIBLE = read_vectors("visible")


def _full(row) -> Position:
    return replay(GameCode.parse(row["code"]).position(), row["line"]).position


@pytest.mark.parametrize("row", [r for r in VISIBLE if r.get("error")], ids=vector_id)
def test_visible_vector_that_is_not_valid_is_refused(row):
    with pytest.raises(PositionError):
        Position.from_text(row["visible"])


@pytest.mark.parametrize("row", [r for r in VISIBLE if not r.get("error")], ids=vector_id)
def test_visible_vector(row):
    view = Position.from_text(row["visible"])
    assert view.to_text() == row["visible"]
    assert Position.from_text(view.to_text()) == view
    assert {card_text(c): n for c, n in unseen_cards(view).items()} == row["unseen"]
    assert sum(row["unseen"].values()) == unknown_count(view)
    assert sorted(a.text() for a in legal_actions(view)) == row["legal"]
    full = _full(row)
    assert agrees(view, full)
    assert visible_of(full) == visible_of(view)
    assert sorted(a.text() for a in legal_actions(full)) == row["legal"]


def test_visible_of_a_deal_hides_the_face_down_cards_and_the_stock():
    pos = GameCode.parse("SP1-S4C-AAAAAAD").position()
    view = visible_of(pos)
    assert view.up == pos.up and view.removed == pos.removed
    assert set(view.stock) == {UNKNOWN} and len(view.stock) == 50
    assert all(
        set(col) <= {UNKNOWN} and len(col) == len(full) for col, full in zip(view.down, pos.down)
    )
    assert unknown_count(view) == 94
    assert unseen_cards(view) == Counter(pos.stock) + Counter(c for col in pos.down for c in col)
    assert Position.from_text(view.to_text()) == view


def test_stock_of_unknowns_round_trips_and_mixes_with_known_cards():
    view = visible_of(GameCode.parse("SP1-S2C-AAAAAAD").position())
    text = view.to_text().replace("stock: ??", "stock: 2S", 1)
    mixed = Position.from_text(text)
    assert mixed.stock[0] == parse_card("2S") and mixed.stock[1] == UNKNOWN
    assert mixed.to_text() == text
    assert mixed.has_unknown


def test_unknown_stock_card_in_the_face_up_part_is_refused():
    text = visible_of(GameCode.parse("SP1-S1C-AAAAAAD").position()).to_text()
    with pytest.raises(PositionError, match="line 4.*'\\?\\?' may stand only"):
        Position.from_text(text.replace("| 2S", "| ?? 2S"))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**35 - 1), st.sampled_from([1, 2, 4]), st.integers(0, 2**32))
def test_a_sample_fills_the_unknown_places_with_the_unseen_cards(deal, suits, seed):
    pos = GameCode(suits, "classic", deal).position()
    view = visible_of(pos)
    sample = sample_hidden(view, sample_rng(view, seed))
    assert agrees(view, sample)
    assert visible_of(sample) == view
    assert sample == Position.from_text(sample.to_text())  # a valid full position


def test_samples_depend_on_the_visible_text_and_seed_only():
    a = visible_of(GameCode.parse("SP1-S4C-AAAAAAD").position())
    assert samples(a, 3, seed=5) == samples(a, 3, seed=5)
    assert samples(a, 3, seed=5)[:2] == samples(a, 2, seed=5)
    assert samples(a, 1, seed=5) != samples(a, 1, seed=6)


def test_sampler_is_uniform_over_the_unseen_cards():
    # Which card lands in one place (the top face-down card of column 1), over
    # 4,000 samples of a 4-suit deal: chi-square against the unseen counts.
    view = visible_of(GameCode.parse("SP1-S4C-AAAAAAD").position())
    unseen = unseen_cards(view)
    total = sum(unseen.values())
    rng = sample_rng(view, 1)
    n = 4000
    counts = Counter(sample_hidden(view, rng).down[0][-1] for _ in range(n))
    chi2 = sum((counts[c] - n * k / total) ** 2 / (n * k / total) for c, k in unseen.items())
    # 51 degrees of freedom (52 distinct cards): the 99.9% point is about 90.6.
    assert len(unseen) == 52 and chi2 < 90.6
    # and the last stock card, a place at the other end of the order
    counts = Counter(sample_hidden(view, rng).stock[-1] for _ in range(n))
    chi2 = sum((counts[c] - n * k / total) ** 2 / (n * k / total) for c, k in unseen.items())
    assert chi2 < 90.6


def test_fill_needs_exactly_one_card_per_unknown_place():
    view = visible_of(GameCode.parse("SP1-S1C-AAAAAAD").position())
    with pytest.raises(Exception, match="94 unknown places"):
        fill(view, [parse_card("AS")])


ENDGAME = """spider 1 classic
removed: S S S S S S S
stock:
1: ?? | 2S
2: | 3S
3: | KS QS JS TS 9S 8S 7S 6S 5S 4S
4: |
5: |
6: |
7: |
8: |
9: |
10: |
"""


def test_an_action_that_turns_up_an_unknown_card_names_the_column():
    pos = Position.from_text(ENDGAME)
    with pytest.raises(HiddenCard) as err:
        apply(pos, Action.parse("1>2"))
    assert err.value.col == 0
    named = name_down(pos, 0, parse_card("AS"))
    after, removed = apply(named, Action.parse("1>2"))
    assert after.up[0] == (parse_card("AS"),) and not removed


def test_naming_refuses_a_card_that_cannot_be_hidden():
    pos = visible_of(GameCode.parse("SP1-S4C-AAAAAAD").position())
    with pytest.raises(PositionError, match="every 2C of the deck is already seen"):
        # 2C is face up on column 1; the deck has two: name both, then a third
        twice = name_down(name_down(pos, 1, parse_card("2C")), 2, parse_card("2C"))
        name_down(twice, 3, parse_card("2C"))
    with pytest.raises(PositionError, match="AH is not in a 1-suit deck"):
        name_down(Position.from_text(ENDGAME), 0, parse_card("AH"))
    with pytest.raises(PositionError, match="column 3 has no face-down card"):
        name_down(Position.from_text(ENDGAME), 2, parse_card("AS"))
    with pytest.raises(PositionError, match="already known"):
        name_down(name_down(pos, 0, parse_card("AS")), 0, parse_card("AS"))


def test_a_deal_from_an_unknown_stock_needs_its_ten_cards():
    full = GameCode.parse("SP1-S2C-AAAAAAD").position()
    view = visible_of(full)
    with pytest.raises(HiddenCard) as err:
        apply(view, DEAL)
    assert err.value.col is None
    named = name_deal(view, full.stock[:10])
    after, _ = apply(named, DEAL)
    assert after.up == apply(full, DEAL)[0].up
    assert visible_of(after) == visible_of(apply(full, DEAL)[0])
    with pytest.raises(PositionError, match="a deal is ten cards"):
        name_deal(view, full.stock[:9])
    with pytest.raises(PositionError, match="known to be"):
        name_deal(named, full.stock[1:11])


def test_a_card_named_more_often_than_it_is_unseen_says_how_often():
    from spidersolve.cards import parse_card
    from spidersolve.state.visible import name_deal

    view = visible_of(GameCode.parse("SP1-S4C-AAAAAAD").position())
    cards = [parse_card(c) for c in "7H 7H 7H AS 2S 3S 4S 5S 6S 8S".split()]
    with pytest.raises(PositionError, match=r"^7H is named 3 times, but only 2 7H are unseen$"):
        name_deal(view, cards)


def test_a_card_named_more_often_counts_every_time_it_is_named_bug():
    # ten 2S in a one-suit deal where 7 are unseen: named 10 times, not "8"
    from spidersolve.cards import parse_card
    from spidersolve.state.visible import name_deal

    view = visible_of(GameCode.parse("SP1-S1C-AAAAAAD").position())
    left = unseen_cards(view)[parse_card("2S")]
    with pytest.raises(PositionError, match=rf"^2S is named 10 times, but only {left} 2S are"):
        name_deal(view, [parse_card("2S")] * 10)


def test_naming_cards_checks_the_column_and_the_card_bug():
    # name_down(V, -1, ...) named column 10's card, column 10 and card 14 raised
    # IndexError, card 0 was called KS; visible_of took no game code
    from spidersolve.cards import parse_card
    from spidersolve.state import PositionError
    from spidersolve.state.visible import name_deal, name_down

    view = visible_of("SP1-S1C-AAAAAAD")
    assert view == visible_of(GameCode.parse("SP1-S1C-AAAAAAD").position())
    for col in (-1, 10, 1.0, True):
        with pytest.raises(PositionError, match="a column is 0..9 here"):
            name_down(view, col, parse_card("AS"))
    for card in (0, 14, -15):
        with pytest.raises(PositionError, match=f"{card} is not a card number"):
            name_down(view, 0, card)
    with pytest.raises(PositionError, match="14 is not a card number"):
        name_deal(view, [14] * 10)
    with pytest.raises(PositionError, match="a column is 0..9 here"):
        view.column(-1)
