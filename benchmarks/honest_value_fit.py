"""Which table wins honestly? A logistic fit of honest games' outcomes on the heuristic's terms.

    python benchmarks/honest_value_fit.py                        # the committed training games
    python benchmarks/honest_value_fit.py GAMES.csv --before-deals

Reads honest games (a CSV with ``code``, ``verdict`` and ``line``, as
``benchmarks/results/honest-train-s4/games.csv``: SP1-S4C 3040..3099,
training deals, the kept player of 2026-12-04, seed 0), replays each line,
and fits P(the game is won) = logistic(a[deals left] + b . terms) over the
positions of the games (each game weighing 1 in all; ``--before-deals``:
only the tables the player dealt on, and how well the plain row's value
and the face-down cards alone tell the games won from those lost at each
deal: an AUC), where the terms are the search
heuristic's (``_terms.features``: face-down cards, breaks, mixed pairs,
-empty columns, -runs removed, buried runs). It prints each term's weight
on the scale of the plain row (face-down cards 3), with a bootstrap over
games, beside the plain row's: what the honest advisor's value row
(docs/honest.md) would weigh if it were fitted to honest outcomes.
Nothing is solved or played here.
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd

from spidersolve.search import _terms as T
from spidersolve.search.heuristic import PLAIN
from spidersolve.state import Game, parse_line
from spidersolve.state.codes import GameCode
from spidersolve.state.packed import to_board

GAMES = "benchmarks/results/honest-train-s4/games.csv"
TERMS = {  # name -> the kernels' slot
    "face_down": T.W_FACE_DOWN,
    "breaks": T.W_BREAK,
    "mixed": T.W_MIXED,
    "empty": T.W_EMPTY,
    "removed": T.W_REMOVED,
    "buried": T.W_BURIED,
}
RIDGE = 1e-3


def positions(code: str, line: str, before_deals: bool):
    """(deals left, terms) of each position of a game, or of each table it dealt on."""
    game = Game.start(GameCode.parse(code).position())
    actions = parse_line(line) if isinstance(line, str) and line else []
    out = np.zeros(T.N_WEIGHTS, np.int64)
    for k in range(len(actions) + 1):
        if not before_deals or (k < len(actions) and actions[k].is_deal):
            T.features(to_board(game.position), out)
            yield len(game.position.stock) // 10, [int(out[s]) for s in TERMS.values()]
        if k < len(actions):
            game = game.play(actions[k])


def fit(z: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weighted logistic regression by Newton's method, with a small ridge."""
    beta = np.zeros(z.shape[1])
    for _ in range(100):
        p = 1 / (1 + np.exp(-(z @ beta)))
        hessian = z.T @ (z * (w * p * (1 - p))[:, None]) + RIDGE * np.eye(z.shape[1])
        step = np.linalg.solve(hessian, z.T @ (w * (y - p)) - RIDGE * beta)
        beta += step
        if abs(step).max() < 1e-9:
            break
    return beta


def auc(values, won) -> float:
    """The chance that a won game's value is lower (better) than a lost one's, ties half."""
    good = [v for v, w in zip(values, won) if w]
    bad = [v for v, w in zip(values, won) if not w]
    if not good or not bad:
        return float("nan")
    return sum((a < b) + 0.5 * (a == b) for a in good for b in bad) / (len(good) * len(bad))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", default=GAMES)
    parser.add_argument("--before-deals", action="store_true")
    parser.add_argument("--boots", type=int, default=200)
    args = parser.parse_args()
    games = pd.read_csv(args.games)
    stage, terms, won, weight, group = [], [], [], [], []
    for i, row in enumerate(games.itertuples()):
        seen = list(positions(row.code, row.line, args.before_deals))
        for deals_left, x in seen:
            stage.append(deals_left)
            terms.append(x)
            won.append(row.verdict == "won")
            weight.append(1.0 if args.before_deals else 1.0 / len(seen))
            group.append(i)
    terms_at, stage_at = np.array(terms), np.array(stage)
    varies = terms_at.std(axis=0) > 0  # a term that never varies cannot be fitted
    names = [name for name, kept in zip(TERMS, varies) if kept]
    dummies = np.eye(6)[stage_at]  # one intercept per number of deals left
    first = dummies.shape[1]  # the terms' coefficients come after the intercepts
    z = np.hstack([dummies, terms_at[:, varies].astype(float)])
    y, w, group = np.array(won, float), np.array(weight), np.array(group)
    beta = fit(z, y, w)
    rng = np.random.default_rng(0)
    boots = []
    for _ in range(args.boots):
        pick = rng.choice(len(games), len(games))
        rows = np.concatenate([np.flatnonzero(group == g) for g in pick])
        boots.append(fit(z[rows], y[rows], w[rows]))
    boots = np.array(boots)
    fd = first + names.index("face_down")
    print(
        f"{len(games)} games, {int(games.verdict.eq('won').sum())} won, {len(y)} positions"
        + (" (the tables dealt on)" if args.before_deals else "")
    )
    print(f"{'term':<10}{'fitted':>8}  {'bootstrap 10-90%':<18}{'plain row':>9}")
    for k, name in enumerate(names):
        scaled = beta[first + k] / beta[fd] * 3
        spread = np.percentile(boots[:, first + k] / boots[:, fd] * 3, [10, 90])
        print(
            f"{name:<10}{scaled:>8.2f}  {spread[0]:>6.2f} .. {spread[1]:<8.2f}"
            f"{getattr(PLAIN, name):>9}"
        )
    if args.before_deals:
        plain = np.array([getattr(PLAIN, name) for name in TERMS])
        values = terms_at @ plain
        for left in sorted(set(stage), reverse=True):
            at = stage_at == left
            print(
                f"dealing with {left} deal(s) left: AUC of the plain value "
                f"{auc(values[at], y[at]):.2f}, of face-down cards alone "
                f"{auc(terms_at[at, 0], y[at]):.2f}"
            )


if __name__ == "__main__":
    main()
