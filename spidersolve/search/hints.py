"""Hints: the first action of a proven winning line, or an honest "unproven"."""

from __future__ import annotations

from dataclasses import dataclass

from ..state import Action, as_game, legal_actions, line_text
from ..verdict import HintStatus
from .solver import SolveResult, _solve_game

HINT_NODES = 167_000


@dataclass(frozen=True)
class HintResult:
    """A hint and how sure it is.

    Attributes
    ----------
    status : HintStatus
        ``proven`` (the first action of a winning line found within the
        budget), ``lost`` (no winning line exists), ``unproven`` (no proof
        within the budget: ``action`` is the search's best guess), ``won``
        (the game is already won) or ``stuck`` (no legal action, runs left).
    action : Action or None
        The action to play (None for ``lost``, ``won``, ``stuck``).
    words : str or None
        The action in words.
    line : tuple of Action or None
        For ``proven``, the whole winning line.
    nodes : int
        Positions the search expanded.
    seconds : float
        Time taken.

    Examples
    --------
    >>> result = hint("SP1-S1C-AAAAAAD", nodes=20_000)
    >>> result.status, result.action, result.line_length
    (HintStatus.PROVEN, Action.parse('10>2'), 112)
    """

    status: HintStatus
    action: Action | None
    words: str | None
    line: tuple[Action, ...] | None
    nodes: int
    seconds: float

    def __post_init__(self):
        object.__setattr__(self, "status", HintStatus(self.status))

    @property
    def line_length(self) -> int | None:
        """The length of the proven line (None without one).

        >>> hint("SP1-S1C-AAAAAAD", nodes=20_000).line_length
        112
        """
        return None if self.line is None else len(self.line)

    def as_dict(self) -> dict:
        """The hint as the JSON object ``hint --json`` prints.

        >>> hint("SP1-S1C-AAAAAAD", nodes=20_000).as_dict()["action"]
        '10>2'
        """
        return {
            "status": self.status.value,
            "action": self.action.text() if self.action else None,
            "words": self.words,
            "line": line_text(self.line) if self.line is not None else None,
            "line_length": self.line_length,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


def hint(source, nodes: int = HINT_NODES, after: str = "", weights=None) -> HintResult:
    """The first action of a winning line, or the search's best guess (SPEC section 9).

    Parameters
    ----------
    source : str, Position, Game, GameCode or PysolDeal
        Where to start: a game code, ``pysol:S:N``, a position file name, or
        a value (see ``state.as_game``).
    nodes : int
        The search's node limit.
    after : str
        A line played from the source first.
    weights
        The heuristic rows (``None``: the default).

    Returns
    -------
    HintResult
        The status, the action, and for ``proven`` the winning line.

    Examples
    --------
    >>> hint("SP1-S1C-AAAAAAD", after="10>2", nodes=20_000).action
    Action.parse('9>10')
    >>> hint("SP1-S4C-AAAAAAD", nodes=50).status
    HintStatus.UNPROVEN
    """
    game = as_game(source, after)
    position = game.position
    if game.won:
        return HintResult("won", None, None, None, 0, 0.0)
    if not legal_actions(position):
        return HintResult("stuck", None, None, None, 0, 0.0)
    result, run = _solve_game(game, nodes, weights)
    if result.verdict == "won":
        action = result.line[0]
        return HintResult(
            "proven", action, action.words(position), result.line, result.nodes, result.seconds
        )
    if result.verdict == "lost":
        return HintResult("lost", None, None, None, result.nodes, result.seconds)
    action = run.best_first_action() or legal_actions(position)[0]
    return HintResult(
        "unproven", action, action.words(position), None, result.nodes, result.seconds
    )


__all__ = ["HINT_NODES", "HintResult", "SolveResult", "hint"]
