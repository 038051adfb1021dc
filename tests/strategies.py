"""Hypothesis strategies shared by the test files, and the one random legal walk."""

from __future__ import annotations

from hypothesis import event
from hypothesis import strategies as st

from spidersolve.state import Action, Game, GameCode, legal_actions
from spidersolve.state.codes import MAX_DEAL

codes = st.builds(
    GameCode,
    st.sampled_from([1, 2, 4]),
    st.sampled_from(["classic", "relaxed"]),
    st.integers(0, MAX_DEAL),
)

# Moves as written, legal or not: any source, any other destination, 1..13 cards.
moves = st.builds(Action, st.integers(0, 9), st.integers(0, 9), st.integers(1, 13)).filter(
    lambda a: a.src != a.dst
)


def random_walk(data, start: Game | GameCode, max_steps: int = 150) -> list[Game]:
    """The games along a random legal walk from ``start``, ``start`` first.

    ``data`` (hypothesis's ``st.data()``) draws the number of steps, 0 to
    ``max_steps``, and at each step an index into the sorted legal actions,
    so a failing walk shrinks to a short one with early actions. The walk
    ends early at a position with no legal action.
    """
    game = start if isinstance(start, Game) else Game.start(start.position())
    games = [game]
    for _ in range(data.draw(st.integers(0, max_steps), label="steps")):
        actions = legal_actions(game.position)
        if not actions:
            break
        game = game.play(actions[data.draw(st.integers(0, len(actions) - 1))])
        games.append(game)
    event(f"walk of {(len(games) - 1) // 25 * 25}+ actions")
    return games
