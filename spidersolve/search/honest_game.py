"""An honest game (SPEC section 11): a full deal played by a player shown only
what a player sees.

The loop holds the deal; the player (``advise``) is given ``visible_of`` the
position before each decision and nothing else. It commits to its plan (up
to the first action that turns up a card or deals) and is asked again with
what that action turned up. No undo. A visible position the player has
already been in (no card turned up since) would get the same decision again
(a decision is a function of the visible position, the options and the seed
alone, SPEC section 11), and so go round the same circle: there the player
resigns. (It used to plan again with another seed, twice, before resigning;
in the 2,200 honest games of the committed benchmarks no won game ever came
back to a visible position, so that changed no result.)
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
    seen: set[Position] = set()  # the visible positions decided in
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
        if view in seen:  # the same decision again would go round the same circle
            reason = "resigned: the same position came back"
            break
        seen.add(view)
        if len(legal) == 1:
            plan = (legal[0],)
        else:
            advice = advise(view, samples, seed, nodes, method, top, workers)
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
