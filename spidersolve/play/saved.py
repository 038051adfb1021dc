"""Saved games: position text with the moves, score, line and start as comments.

``play`` writes one with ``save FILE``; every command reads it as the
position reached, and ``spidersolve play FILE`` resumes the game, its line
checked against its start.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..errors import SpiderError
from ..state import Action, Game, GameCode, Position, PysolDeal, line_text, parse_line, replay
from ..state.position import text_lines
from ..state.rules import START_SCORE

SAVED_HEADER = "# spidersolve saved game"
STOCK_CARDS = 50  # the stock of a deal: five deals of ten (SPEC)
MOST_MOVES = 999_999_999  # the largest counter a saved game may give


def saved_game_text(game: Game, line, start: str | None = None) -> str:
    """A saved game: comments (moves, score, line, the start) and the position text.

    >>> from spidersolve.state import GameCode
    >>> g = Game.start(GameCode.parse("SP1-S1C-AAAAAAD").position()).play(Action.parse("1>8"))
    >>> saved_game_text(g, [Action.parse("1>8")], "SP1-S1C-AAAAAAD").splitlines()[:5]
    ['# spidersolve saved game', '# start: SP1-S1C-AAAAAAD', '# line: 1>8', '# moves: 1', '# score: 499']
    """
    head = [SAVED_HEADER]
    if start:
        head.append(f"# start: {start}")
    head += [
        f"# line: {line_text(line)}".rstrip(),
        f"# moves: {game.moves}",
        f"# score: {game.score}",
    ]
    return "\n".join(head) + "\n" + game.position.to_text()


class SavedGame(NamedTuple):
    """A saved game read back: the game reached, the line, and where it started.

    ``start`` is the game code or ``pysol:`` name and ``first`` its start
    position, both None when the game began from a position file.
    """

    game: Game
    line: list[Action]
    start: str | None
    first: Position | None


SAVED_FIELD = r"#\s*(start|line|moves|score):(.*)"  # a comment line a saved game reads


def _fields(lines, first: int = 1):
    """(line number, name, value) of each saved-game field among ``lines``, the
    first of them numbered ``first``."""
    for number, raw in enumerate(lines, start=first):
        m = re.fullmatch(SAVED_FIELD, raw.strip())
        if m:
            yield number, m.group(1), m.group(2).strip()


def headless_field(text: str) -> tuple[int, str] | None:
    """(line number, name) of the first saved-game field (``# line:`` ...) of text
    that is not a saved game (no ``SAVED_HEADER`` first), or None."""
    lines = text_lines(text)
    if lines and lines[0].strip() == SAVED_HEADER:
        return None
    return next(((number, name) for number, name, _value in _fields(lines)), None)


def _counter(text: str) -> int:
    """A saved counter: ASCII digits only, as the toolkit writes them (``int`` alone
    takes ``２``, ``+2`` and ``1_0``); ValueError otherwise."""
    text = text.strip(" \t")
    if not (text.isascii() and text.isdigit() and len(text.lstrip("0")) <= 9):
        raise ValueError(text)
    return int(text)


def read_saved_game(text: str, where: str = "saved game") -> SavedGame | None:
    """A ``SavedGame`` from a saved game's text, or None for plain position text.

    The position is the one reached; ``moves`` and ``score`` restore the
    counters. With a ``start`` code, the line must lead from it to the
    position with those counters, or the file is refused.
    """
    lines = text_lines(text)  # as position text has them (Position.from_text)
    if not lines or lines[0].strip() != SAVED_HEADER:
        return None
    fields = {}
    for number, name, value in _fields(lines[1:], first=2):
        if name in fields:  # which one is meant? neither is taken
            raise SpiderError(f"{where}: line {number}: a second '# {name}:' line")
        fields[name] = value
    try:
        position = Position.from_text(text)
    except SpiderError as err:
        raise SpiderError(f"{where}: {err}") from None
    try:
        line = parse_line(fields.get("line", ""))
    except SpiderError as err:
        raise SpiderError(f"{where}: '# line:': {err}") from None
    try:
        # no '# moves:' or '# score:': what the line and the removed runs give (SPEC
        # section 6), as the toolkit writes them
        moves = _counter(fields.get("moves", str(len(line))))
        # the least score the moves leave (a move costs 1 at most, runs only add), the
        # score they leave if it never reached 0, and the most it can be
        least = max(START_SCORE - moves, 0)
        most = least + 100 * len(position.removed)
        score = _counter(fields.get("score", str(most)))
        if not (0 <= moves <= MOST_MOVES and 0 <= score <= MOST_MOVES):
            raise ValueError
    except ValueError:
        raise SpiderError(
            f"{where}: '# moves:' and '# score:' must be whole numbers 0 .. {MOST_MOVES:,}"
        ) from None
    game = Game(position, moves, score)
    start = fields.get("start") or None
    if not start:  # nothing to replay: at least the counters must fit the line and the table
        if moves < len(line):
            raise SpiderError(
                f"{where}: '# moves:' {moves} is fewer than the {len(line)} actions of '# line:'"
            )
        if score > most:
            raise SpiderError(
                f"{where}: '# score:' {score} is more than {moves} moves and "
                f"{len(position.removed)} removed runs can reach (SPEC section 6)"
            )
        if score < least:
            raise SpiderError(
                f"{where}: '# score:' {score} is less than {moves} moves can leave: "
                f"{least} (SPEC section 6)"
            )
        # the line started from some position: its stock held the cards dealt since
        deals = sum(action.is_deal for action in line)
        room = (STOCK_CARDS - len(position.stock)) // 10
        if deals > room:
            raise SpiderError(
                f"{where}: '# line:' deals {deals} {'time' if deals == 1 else 'times'}, "
                f"but a stock of {STOCK_CARDS} cards leaves {len(position.stock)} after "
                f"{room} {'deal' if room == 1 else 'deals'} at most"
            )
    first = None
    if start:
        try:
            code = (
                PysolDeal.parse(start)
                if start.lower().startswith("pysol:")
                else GameCode.parse(start)
            )
        except SpiderError as err:
            raise SpiderError(f"{where}: '# start:' {err}") from None
        try:
            first = code.position()
            reached = replay(first, line)
        except SpiderError as err:
            raise SpiderError(f"{where}: the line does not replay from {start}: {err}") from None
        if reached != game:
            raise SpiderError(
                f"{where}: the line from {start} does not lead to the saved "
                "position, moves and score"
            )
    return SavedGame(game, line, start, first)
