"""Every winning line is replayed with the reference rules before it is reported."""

from __future__ import annotations

from ..state import Game, replay


class ReplayFailed(AssertionError):
    """A line the search called winning does not win under the reference rules: a bug."""


def _replay(game: Game, line, whose: str) -> Game:
    try:
        return replay(game.position, line, game)
    except ValueError as err:
        raise ReplayFailed(f"{whose} line is illegal under the reference rules: {err}") from err


def verify_win(game: Game, line) -> Game:
    """Replay ``line`` from ``game`` with the reference rules; it must win."""
    final = _replay(game, line, "the search's")
    if not final.won:
        raise ReplayFailed(f"the search's line ends with {len(final.position.removed)} runs "
                           "removed, not a win")
    return final


def verify_line(game: Game, line, won: bool) -> Game:
    """Replay a played game's ``line`` from ``game``; it must end won exactly when ``won``."""
    final = _replay(game, line, "the game's")
    if final.won != won:
        raise ReplayFailed(f"the game's line ends with {len(final.position.removed)} runs "
                           f"removed, but the game was reported {'won' if won else 'lost'}")
    return final
