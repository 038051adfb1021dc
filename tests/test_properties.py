"""Hypothesis properties: text forms round-trip, random legal walks stay valid."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import codes, moves, random_walk

from spidersolve.cards import UNKNOWN, deck_counts, make_card
from spidersolve.state import DEAL, Action, GameCode, Position, legal_actions, why_illegal
from spidersolve.state.rules import START_SCORE


def card_multiset(position: Position) -> Counter:
    """Table + stock + removed runs, card by card."""
    seen = Counter(position.stock)
    for col in range(10):
        seen.update(position.down[col])
        seen.update(position.up[col])
    for suit in position.removed:
        seen.update(make_card(rank, suit) for rank in range(1, 14))
    return seen


@settings(deadline=None)
@given(codes)
def test_game_code_text_parses_back(code):
    assert GameCode.parse(code.text()) == code
    assert GameCode.parse(f"  {code.text().lower()}\t") == code
    assert GameCode(code.suits, code.rules, code.deal_number).text() == code.text()


@settings(deadline=None)
@given(st.one_of(moves, st.just(DEAL)))
def test_action_text_parses_back(action):
    assert Action.parse(action.text()) == action


@settings(deadline=None, max_examples=60)
@given(codes, st.data())
def test_position_text_round_trips_along_a_random_walk(code, data):
    position = random_walk(data, code, max_steps=120)[-1].position
    assert Position.from_text(position.to_text()) == position
    # Hiding some face-down cards as ?? still round-trips.
    hide = data.draw(st.sets(st.integers(0, 9)))
    down = [
        tuple(UNKNOWN for _ in col) if c in hide else col for c, col in enumerate(position.down)
    ]
    hidden = Position.make(
        position.suits, position.rules, down, position.up, position.stock, position.removed
    )
    assert Position.from_text(hidden.to_text()) == hidden


@settings(deadline=None, max_examples=60)
@given(codes, st.data())
def test_random_legal_walk_keeps_the_deck_and_follows_the_score_rules(code, data):
    deck = Counter(deck_counts(code.suits))
    games = random_walk(data, code, max_steps=300)
    assert (games[0].moves, games[0].score) == (0, START_SCORE)
    for before, after in zip(games, games[1:]):
        after.position.validate()
        assert card_multiset(after.position) == deck
        runs = len(after.position.removed) - len(before.position.removed)
        assert runs >= 0
        assert after.moves == before.moves + 1
        assert after.score == max(0, before.score - 1) + 100 * runs
        assert after.position.removed[: len(before.position.removed)] == before.position.removed
        # SPEC 5: the table settles; no face-down card is left uncovered
        assert all(after.position.up[c] or not after.position.down[c] for c in range(10))
        assert len(after.position.stock) <= len(before.position.stock)
    last = games[-1]
    assert last.moves < START_SCORE  # the score never reached 0: the closed form of SPEC 6
    assert last.score == START_SCORE - last.moves + 100 * len(last.position.removed)


@settings(deadline=None, max_examples=40)
@given(codes, st.data())
def test_legal_actions_are_exactly_the_actions_why_illegal_accepts(code, data):
    position = random_walk(data, code, max_steps=150)[-1].position
    candidates = [
        Action(s, d, n) for s in range(10) for d in range(10) if s != d for n in range(1, 14)
    ] + [DEAL]
    accepted = [a for a in candidates if why_illegal(position, a) is None]
    assert accepted == legal_actions(position)
