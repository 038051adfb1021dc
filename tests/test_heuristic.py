"""The search's heuristic terms: the kernel against a pure-Python reading of them."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from spidersolve.cards import card_rank, card_suit
from spidersolve.search import _kernels as SK
from spidersolve.search.heuristic import DEFAULT_WEIGHTS, TERMS, weights_row
from spidersolve.state import Game, GameCode, legal_actions
from spidersolve.state.packed import to_board


def reference_terms(pos) -> dict[str, int]:
    """The terms as heuristic.py describes them, signed as the kernel stores them."""
    terms = dict.fromkeys(TERMS, 0)
    tops, run_bottoms = {}, {}
    for c in range(10):
        down, up = pos.down[c], pos.up[c]
        if not down and not up:
            terms["empty"] -= 1
            continue
        terms["face_down"] += len(down)
        segments = 1
        for lower, upper in zip(up, up[1:]):
            if card_rank(lower) == card_rank(upper) + 1:
                if card_suit(lower) != card_suit(upper):
                    terms["mixed"] += 1
                    segments += 1
            else:
                terms["breaks"] += 1
                segments += 1
        if down:
            terms["buried"] += segments
        elif card_rank(up[0]) != 13:
            terms["loose"] += 1
        tops[c] = up[-1]
        bottom = len(up) - 1
        while bottom > 0 and card_rank(up[bottom - 1]) == card_rank(up[bottom]) + 1 \
                and card_suit(up[bottom - 1]) == card_suit(up[bottom]):
            bottom -= 1
        run_bottoms[c] = up[bottom]
    terms["good"] = -sum(any(d != c and top == run_bottoms[c] + 1 for d, top in tops.items())
                         for c in tops)
    terms["removed"] = -len(pos.removed)
    terms["deal_left"] = len(pos.stock) // 10
    return terms


def kernel_terms(pos) -> dict[str, int]:
    out = np.empty(SK.N_WEIGHTS, np.int64)
    SK.features(to_board(pos), True, out)
    return {name: int(out[index]) for name, index in TERMS.items()}


@settings(deadline=None, max_examples=40)
@given(st.sampled_from([1, 2, 4]), st.integers(0, 2**35 - 1), st.data())
def test_kernel_terms_equal_the_reference_along_random_walks(suits, deal, data):
    game = Game.start(GameCode(suits, "classic", deal).position())
    for _ in range(data.draw(st.integers(0, 120), label="steps")):
        assert kernel_terms(game.position) == reference_terms(game.position)
        actions = legal_actions(game.position)
        if not actions:
            break
        game = game.play(actions[data.draw(st.integers(0, len(actions) - 1))])


def test_value_is_the_weighted_sum_of_the_terms():
    pos = GameCode.parse("SP1-S4C-AAAAAAD").position()
    terms = reference_terms(pos)
    for row in DEFAULT_WEIGHTS + (weights_row(good=2, loose=1),):
        expected = sum(row[TERMS[name]] * value for name, value in terms.items())
        assert SK.evaluate(to_board(pos), np.array(row, np.int64)) == expected
