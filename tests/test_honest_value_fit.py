"""benchmarks/honest_value_fit.py: the logistic fit and the positions it reads from a game."""

import numpy as np
from data import load_benchmark

from spidersolve.search import _terms as T
from spidersolve.state import Game, parse_line
from spidersolve.state.codes import GameCode
from spidersolve.state.packed import to_board


def load_fit():
    return load_benchmark("honest_value_fit")


def test_the_fit_finds_the_weights_the_outcomes_were_drawn_with():
    fit = load_fit()
    rng = np.random.default_rng(1)
    x = rng.normal(size=(20_000, 2))
    z = np.hstack([np.ones((len(x), 1)), x])
    truth = np.array([0.5, -1.0, 2.0])
    y = (rng.random(len(x)) < 1 / (1 + np.exp(-(z @ truth)))).astype(float)
    beta = fit.fit(z, y, np.ones(len(x)))
    assert np.allclose(beta, truth, atol=0.1)


def test_positions_are_the_games_positions_with_their_terms():
    fit = load_fit()
    code, line = "SP1-S4C-AAAAAAA", "deal 1>2 deal"
    seen = list(fit.positions(code, line, before_deals=False))
    assert len(seen) == 4  # the deal and after each of its three actions
    game = Game.start(GameCode.parse(code).position())
    out = np.zeros(T.N_WEIGHTS, np.int64)
    for (deals_left, terms), action in zip(seen, [None, *parse_line(line)]):
        if action is not None:
            game = game.play(action)
        T.features(to_board(game.position), out)
        assert deals_left == len(game.position.stock) // 10
        assert terms == [int(out[s]) for s in fit.TERMS.values()]
    # only the tables dealt on: before the first and the second deal
    dealt_on = list(fit.positions(code, line, before_deals=True))
    assert dealt_on == [seen[0], seen[2]]


def test_auc_counts_won_games_with_lower_values_and_ties_as_half():
    fit = load_fit()
    assert fit.auc([1, 2, 3, 4], [True, True, False, False]) == 1.0
    assert fit.auc([4, 3, 2, 1], [True, True, False, False]) == 0.0
    assert fit.auc([1, 1, 2], [True, False, False]) == 0.75
    assert np.isnan(fit.auc([1, 2], [True, True]))
