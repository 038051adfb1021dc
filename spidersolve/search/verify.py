"""Every winning line is replayed with the reference rules before it is reported."""

from __future__ import annotations

from ..state import Game, HiddenCard, as_action, as_game, parse_line, replay


class ReplayFailed(AssertionError):
    """A line the search called winning does not win under the reference rules: a bug.

    Examples
    --------
    >>> verify_win(Game.start("SP1-S1C-AAAAAAD"), "10>2")
    Traceback (most recent call last):
    ...
    spidersolve.search.verify.ReplayFailed: the search's line ends with 0 runs removed, not a win
    """


def _replay(game: Game, line, whose: str) -> Game:
    # a line that is no line (bad notation, not actions) is the caller's error (SpiderError),
    # not a search's bug
    actions = parse_line(line) if isinstance(line, str) else [as_action(a) for a in line]
    try:
        return replay(game.position, actions, game)
    except HiddenCard:  # a position with ?? given to verify: the caller's, not a search's
        raise
    except ValueError as err:
        raise ReplayFailed(f"{whose} line is illegal under the reference rules: {err}") from err


def verify_win(game: Game, line) -> Game:
    """Replay ``line`` from ``game`` with the reference rules; it must win.

    Parameters
    ----------
    game : Game, Position or str
        Where the line starts: a Game's counter and score carry on; anything
        else ``state.as_game`` reads starts a game.
    line : str or iterable of Action
        The line.

    Returns
    -------
    Game
        The won game at the end of the line.

    Raises
    ------
    ReplayFailed
        When an action is illegal or the line does not end in a win.

    Examples
    --------
    >>> from spidersolve.search import solve
    >>> verify_win("SP1-S1C-AAAAAAD", solve("SP1-S1C-AAAAAAD", nodes=20_000).line).score
    1188
    """
    final = _replay(as_game(game), line, "the search's")
    if not final.won:
        raise ReplayFailed(
            f"the search's line ends with {len(final.position.removed)} runs removed, not a win"
        )
    return final


def verify_line(game: Game, line, won: bool) -> Game:
    """Replay a played game's ``line`` from ``game``; it must end won exactly when ``won``.

    >>> verify_line(Game.start("SP1-S1C-AAAAAAD"), "10>2", won=False).moves
    1
    """
    final = _replay(as_game(game), line, "the game's")
    if final.won != won:
        raise ReplayFailed(
            f"the game's line ends with {len(final.position.removed)} runs "
            f"removed, but the game was reported {'won' if won else 'lost'}"
        )
    return final
