"""The table drawn as text for people: counters, then columns 1..10 bottom to top.

Face-down cards are ``##``. ``Style`` chooses plain two-character cards
(``7S``, for pipes and files) or suit symbols with red hearts and diamonds
(``7♠``, ``7♥`` in red) for a colour terminal; cards to point at (the ones
just moved) are drawn in brackets, or in reverse video with colour.

>>> from spidersolve.state import Game, GameCode
>>> table_text(Game.start(GameCode.parse("SP1-S1C-AAAAAAD").position())).splitlines()[1]
' 1: ## ## ## ## ## 2S'
"""

from __future__ import annotations

import os
from typing import NamedTuple

from .cards import SUITS, card_suit, card_text
from .state.position import N_COLS

HIDDEN = "##"
SYMBOLS = "\u2660\u2665\u2666\u2663"  # spades, hearts, diamonds, clubs
_RED = "\x1b[31m"
_REVERSE = "\x1b[7m"
_DIM = "\x1b[2m"
_RESET = "\x1b[0m"


class Style(NamedTuple):
    """How cards are drawn: ``symbols`` (suit symbols) and ``color`` (ANSI colours)."""

    symbols: bool = False
    color: bool = False


PLAIN = Style()
FANCY = Style(symbols=True, color=True)


def terminal_style(stream, no_color: bool = False) -> Style:
    """FANCY for a colour terminal, PLAIN for a pipe, a file, ``--no-color`` or NO_COLOR.

    NO_COLOR (https://no-color.org) counts when it is set to anything but the
    empty string; TERM=dumb has no colour either.
    """
    if no_color or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return PLAIN
    isatty = getattr(stream, "isatty", None)
    return FANCY if isatty is not None and isatty() else PLAIN


def plural(n: int, word: str, plural_word: str | None = None) -> str:
    """``1 move``, ``2 moves``, ``0 moves``."""
    return f"{n} {word if n == 1 else (plural_word or word + 's')}"


def card_face(card: int, style: Style = PLAIN) -> str:
    """One face-up card: ``7H``, or ``7♥`` in red with colour."""
    if not style.symbols:
        return card_text(card)
    text = card_text(card)[0] + SYMBOLS[card_suit(card)]
    if style.color and SUITS[card_suit(card)] in "HD":
        return _RED + text + _RESET
    return text


def counters_text(game, style: Style = PLAIN) -> str:
    """``stock: 50 cards, 5 deals left | removed: 0 runs | moves: 0 | score: 500``."""
    pos = game.position
    runs = plural(len(pos.removed), "run")
    if pos.removed:
        runs += (
            " ("
            + " ".join(_suit_face(s, style) if style.symbols else SUITS[s] for s in pos.removed)
            + ")"
        )
    return (
        f"stock: {plural(len(pos.stock), 'card')}, "
        f"{plural(len(pos.stock) // 10, 'deal')} left"
        f" | removed: {runs} | moves: {game.moves} | score: {game.score}"
    )


def table_text(game, style: Style = PLAIN, marked=()) -> str:
    """The counters line, then one line per column; ``marked`` holds ``(col, i)``
    pairs of face-up cards (``i`` counted from the bottom of the face-up part)
    to point at."""
    pos = game.position
    marked = set(marked)
    rows = [counters_text(game, style)]
    for c in range(N_COLS):
        hidden = _DIM + HIDDEN + _RESET if style.color else HIDDEN
        cards = [hidden] * len(pos.down[c])
        group: list[str] = []
        for i, card in enumerate(pos.up[c]):
            face = card_face(card, style)
            if (c, i) in marked:
                group.append(face)
                continue
            if group:
                cards.append(_mark(group, style))
                group = []
            cards.append(face)
        if group:
            cards.append(_mark(group, style))
        rows.append(f"{c + 1:>2}: " + (" ".join(cards) if cards else "(empty)"))
    return "\n".join(rows)


def _mark(group: list[str], style: Style) -> str:
    if style.color:
        return " ".join(
            _REVERSE + face.replace(_RESET, _RESET + _REVERSE) + _RESET for face in group
        )
    return "[" + " ".join(group) + "]"


def _suit_face(suit: int, style: Style) -> str:
    symbol = SYMBOLS[suit]
    return _RED + symbol + _RESET if style.color and SUITS[suit] in "HD" else symbol


__all__ = [
    "FANCY",
    "HIDDEN",
    "PLAIN",
    "Style",
    "card_face",
    "counters_text",
    "plural",
    "table_text",
    "terminal_style",
]
