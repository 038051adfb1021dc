"""Hints: the first action of a proven winning line, or an honest "unproven"."""

from __future__ import annotations

from dataclasses import dataclass

from ..state import Action, legal_actions, line_text
from .solver import SolveResult, _solve_game, start_of

HINT_NODES = 167_000


@dataclass(frozen=True)
class HintResult:
    """A hint and how sure it is.

    ``status``: ``proven`` (the first action of a winning line found within
    the budget), ``lost`` (no winning line exists), ``unproven`` (no proof
    within the budget: ``action`` is the search's best guess), ``won`` (the
    game is already won) or ``stuck`` (no legal action, runs left).
    """

    status: str
    action: Action | None
    words: str | None
    line: tuple[Action, ...] | None
    nodes: int
    seconds: float

    @property
    def line_length(self) -> int | None:
        return None if self.line is None else len(self.line)

    def as_dict(self) -> dict:
        return {"status": self.status,
                "action": self.action.text() if self.action else None,
                "words": self.words,
                "line": line_text(self.line) if self.line is not None else None,
                "line_length": self.line_length,
                "nodes": self.nodes, "seconds": round(self.seconds, 4)}


def hint(source, nodes: int = HINT_NODES, after: str = "", weights=None) -> HintResult:
    """The hint for a source, Position or Game (with ``after`` played first).

    >>> hint("SP1-S1C-AAAAAAD").status
    'proven'
    """
    game = start_of(source, after)
    position = game.position
    if game.won:
        return HintResult("won", None, None, None, 0, 0.0)
    if not legal_actions(position):
        return HintResult("stuck", None, None, None, 0, 0.0)
    result, run = _solve_game(game, nodes, weights)
    if result.verdict == "won":
        action = result.line[0]
        return HintResult("proven", action, action.words(position), result.line, result.nodes,
                          result.seconds)
    if result.verdict == "lost":
        return HintResult("lost", None, None, None, result.nodes, result.seconds)
    action = run.best_first_action() or legal_actions(position)[0]
    return HintResult("unproven", action, action.words(position), None, result.nodes,
                      result.seconds)


__all__ = ["HINT_NODES", "HintResult", "SolveResult", "hint"]
