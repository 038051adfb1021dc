"""Hypothesis strategies shared by the test files, and the one random legal walk."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

from hypothesis import event
from hypothesis import strategies as st

from spidersolve.cards import make_card
from spidersolve.files import write_atomic
from spidersolve.state import Action, Game, GameCode, Position, legal_actions
from spidersolve.state.codes import MAX_DEAL
from spidersolve.state.rules import apply

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


# --- small endgames and an exhaustive reference search --------------------------------


def random_endgame(
    rng: random.Random, suits: int, runs_left: int, blocked: bool = False
) -> Position | None:
    """A position with ``runs_left`` runs' cards on the table and the stock empty.

    ``blocked``: every column holds cards and only its top card is face up,
    which makes lost positions common.
    """
    left_suits = [s for s in range(suits) for _ in range(8 // suits)]
    rng.shuffle(left_suits)
    keep, gone = left_suits[:runs_left], left_suits[runs_left:]
    cards = [make_card(r, s) for s in keep for r in range(1, 14)]
    rng.shuffle(cards)
    n_cols = 10 if blocked else rng.choice([7, 9, 10])
    cuts = sorted(rng.sample(range(1, len(cards)), n_cols - 1))
    piles = [cards[a:b] for a, b in zip([0] + cuts, cuts + [len(cards)])]
    piles += [[] for _ in range(10 - n_cols)]
    rng.shuffle(piles)
    down, up = [], []
    for pile in piles:
        fd = len(pile) - 1 if blocked else rng.randint(0, max(0, len(pile) - 1))
        down.append(pile[:fd])
        up.append(pile[fd:])
    try:
        return Position.make(suits, rng.choice(["classic", "relaxed"]), down, up, [], sorted(gone))
    except ValueError:
        return None


def exhaustive_verdict(position: Position, cap: int) -> str | None:
    """Reference verdict by depth-first search with the reference rules.

    The stock is empty, so columns are interchangeable: positions are keyed
    by their sorted columns. None when more than ``cap`` positions are seen.
    """

    def key(pos):
        return tuple(sorted(zip(pos.down, pos.up)))

    seen = {key(position)}
    stack = [position]
    while stack:
        pos = stack.pop()
        for action in legal_actions(pos):
            child, _ = apply(pos, action)
            if len(child.removed) == 8:
                return "won"
            k = key(child)
            if k not in seen:
                if len(seen) >= cap:
                    return None
                seen.add(k)
                stack.append(child)
    return "lost"


ENDGAMES = Path(__file__).with_name("endgames.jsonl")
ENDGAME_CAP = 3000  # positions the exhaustive search may see before a case is passed over


def make_endgame_cases(count: int, seed: int) -> tuple:
    """Endgames with their exhaustive verdicts: half free, half blocked with few actions.

    Most candidates (about 5 in 6) see more than ``ENDGAME_CAP`` positions and
    are passed over, which is why the sets the tests use are stored.
    """
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        blocked = len(cases) % 2 == 1
        pos = random_endgame(rng, rng.choice([1, 2, 4]), rng.choice([1, 2]), blocked)
        if pos is None or (blocked and len(legal_actions(pos)) > 3):
            continue
        verdict = exhaustive_verdict(pos, ENDGAME_CAP)
        if verdict is not None:
            cases.append((pos, verdict))
    return tuple(cases)


# The sets the tests use, as make_endgame_cases makes them: `python tests/strategies.py`
# writes endgames.jsonl again.
STORED_ENDGAMES = ((60, 20261129), (40, 7))


@functools.cache
def stored_endgames() -> dict:
    """``{(count, seed): cases}`` read from endgames.jsonl, in order."""
    sets: dict = {}
    with ENDGAMES.open() as f:
        for line in f:
            row = json.loads(line)
            pos = Position.from_text(row["position"])
            sets.setdefault((row["count"], row["seed"]), []).append((pos, row["verdict"]))
    return {key: tuple(cases) for key, cases in sets.items()}


@functools.cache
def endgame_cases(count: int, seed: int) -> tuple:
    """``make_endgame_cases(count, seed)``, read from endgames.jsonl when it is stored there.

    Each stored verdict is found again here by the exhaustive search, so a
    stored case is only ever spared the candidates passed over before it
    (tests/test_solver.py checks that the file starts as the generator does).
    """
    cases = stored_endgames().get((count, seed))
    if cases is None:
        return make_endgame_cases(count, seed)
    for pos, verdict in cases:
        assert exhaustive_verdict(pos, ENDGAME_CAP) == verdict, pos.to_text()
    return cases


def write_endgames() -> None:
    rows = [
        json.dumps({"count": count, "seed": seed, "verdict": verdict, "position": pos.to_text()})
        for count, seed in STORED_ENDGAMES
        for pos, verdict in make_endgame_cases(count, seed)
    ]
    write_atomic(ENDGAMES, lambda f: f.write("\n".join(rows) + "\n"), text=True)


if __name__ == "__main__":
    write_endgames()
