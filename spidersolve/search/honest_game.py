"""An honest game (SPEC section 11): a full deal played by a player shown only
what a player sees.

The loop holds the deal; the player (``advise``) is given ``visible_of`` the
position before each decision and nothing else. It commits to its plan (up
to the first action that turns up a card or deals) and is asked again with
what that action turned up. No undo. A visible position the player has
already been in (no card turned up since) is met again with another seed;
the third time, the player resigns.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..errors import SpiderError
from ..state import Action, Game, Position, legal_actions, line_text, replay
from ..state.visible import visible_of
from .honest import DEFAULT_SEED, HONEST_SAMPLES, HONEST_TOP, advise
from .solver import _solve_game

MAX_ACTIONS = 1000  # SPEC 11: the game is lost for the player at 1,000 actions
MAX_REPEATS = 3  # the player resigns when a visible position comes back this often
REPEAT_SEED = 7919  # added to the seed each time a visible position comes back


def decision_seed(seed: int, repeats: int) -> int:
    """The advisor's seed for a visible position met ``repeats`` times before: the
    game's seed plus ``REPEAT_SEED`` a time, wrapped to the 64 bits a seed has (so a
    game seeded near 2**64 - 1 plans again rather than fails).

    >>> decision_seed(5, 0), decision_seed(2**64 - 1, 1)
    (5, 7918)
    """
    return (seed + REPEAT_SEED * repeats) % 2**64


@dataclass(frozen=True)
class GameResult:
    """How a game went: ``result`` ``won`` or ``lost``; ``line`` replays from the deal."""

    result: str
    line: tuple[Action, ...]
    moves: int
    score: int
    seconds: float
    player: str
    decisions: int = 0
    nodes: int = 0
    reason: str = ""

    @property
    def line_text(self) -> str:
        return line_text(self.line)

    def as_dict(self) -> dict:
        return {
            "result": self.result,
            "line": self.line_text,
            "moves": self.moves,
            "score": self.score,
            "seconds": round(self.seconds, 4),
            "player": self.player,
            "decisions": self.decisions,
            "nodes": self.nodes,
            "reason": self.reason,
        }


def play_honest(
    position: Position,
    samples: int = HONEST_SAMPLES,
    seed: int = DEFAULT_SEED,
    nodes: int | None = None,
    method: str = "bandit",
    top: int = HONEST_TOP,
    commit: str = "reveal",
    workers: int = 1,
    game: Game | None = None,
    progress=None,
) -> GameResult:
    """Play ``position`` (a full deal) to the end with the honest player.

    ``commit``: ``reveal`` plays the player's plan up to the first action
    that reveals a card, ``action`` asks again after every action.
    ``progress(game)``, when given, is called after every action.
    """
    if position.has_unknown:
        raise SpiderError(
            "an honest game is played on a full deal: the position has unknown cards (??)"
        )
    if commit not in ("reveal", "action"):
        raise SpiderError(f"commit must be reveal or action, not {commit!r}")
    started = time.perf_counter()
    game = game or Game.start(position)
    # SPEC 11 counts the game's actions: those played before (``game``'s) count too
    left = MAX_ACTIONS - len(game.history)
    line: list[Action] = []
    seen: dict[Position, int] = {}
    decisions = spent = 0
    reason = ""
    while not game.won:
        if len(line) >= left:
            reason = f"{MAX_ACTIONS} actions"
            break
        view = visible_of(game.position)
        legal = legal_actions(view)
        if not legal:
            reason = "no legal action"
            break
        repeats = seen.get(view, 0)
        if repeats >= MAX_REPEATS:
            reason = "resigned: the same position came back"
            break
        seen[view] = repeats + 1
        if len(legal) == 1:
            plan = (legal[0],)
        else:
            advice = advise(
                view, samples, decision_seed(seed, repeats), nodes, method, top, workers
            )
            decisions += 1
            spent += advice.nodes
            plan = advice.plan if commit == "reveal" else advice.plan[:1]
        for action in plan:
            game = game.play(action)  # the deal itself: cards turn up as they would
            line.append(action)
            if progress is not None:
                progress(game)
            if game.won or len(line) >= left:
                break
    return GameResult(
        "won" if game.won else "lost",
        tuple(line),
        game.moves,
        game.score,
        time.perf_counter() - started,
        "honest",
        decisions,
        spent,
        reason,
    )


def play_known(position: Position, nodes: int, game: Game | None = None) -> GameResult:
    """The full-knowledge solver's game, for comparison: its winning line, or lost."""
    started = time.perf_counter()
    game = game or Game.start(position)
    result, _run = _solve_game(game, nodes)
    decided = 0 if game.won else 1  # a game already won needs no decision (as play_honest)
    if result.verdict == "won":
        final = replay(game, result.line)  # the game's counters, as play_honest gives them
        return GameResult(
            "won",
            result.line,
            final.moves,
            final.score,
            time.perf_counter() - started,
            "solver",
            decided,
            result.nodes,
        )
    return GameResult(
        "lost",
        (),
        game.moves,
        game.score,
        time.perf_counter() - started,
        "solver",
        1,
        result.nodes,
        f"the solver says {result.verdict}",
    )


__all__ = ["GameResult", "MAX_ACTIONS", "play_honest", "play_known"]
