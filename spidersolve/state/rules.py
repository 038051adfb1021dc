"""The reference rules (SPEC sections 5-7): actions, their notation, applying
them, the move counter and the score.

This is the readable oracle. The numba kernels in ``_kernels.py`` must agree
with it on every position; a winning line is verified by replaying it here.

>>> game = Game.start(GameCode.parse("SP1-S1C-AAAAAAD").position())
>>> game = game.play(Action.parse("1>8"))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from ..cards import UNKNOWN, ascii_lower, card_rank, card_suit, card_text
from ..errors import SpiderError, shown
from .position import N_COLS, Position, is_complete_run

START_SCORE = 500


class IllegalAction(SpiderError):
    """An action that the rules refuse; the message gives the rule."""


class HiddenCard(IllegalAction):
    """A legal action that would turn up, or deal, a card that is not known (``??``).

    ``col`` is the column (0..9) whose unknown face-down card would turn up,
    or None when a deal would take unknown stock cards. Name the card first
    (``state.visible.name_down`` / ``name_deal``), then play the action again.
    """

    def __init__(self, message: str, col: int | None):
        super().__init__(message)
        self.col = col


class Action(NamedTuple):
    """A move of ``n_cards`` from column ``src`` to ``dst`` (0..9), or a deal.

    >>> Action.parse("7>3x3").text()
    '7>3x3'
    """

    src: int
    dst: int
    n_cards: int

    @property
    def is_deal(self) -> bool:
        return self.src < 0

    @classmethod
    def parse(cls, text: str) -> "Action":
        raw = text.strip(" \t\r\n")
        if ascii_lower(raw) == "deal":
            return DEAL
        m = re.fullmatch(r"([0-9]{1,3})>([0-9]{1,3})(?:[xX]([0-9]{1,3}))?", raw)
        if not m:
            raise SpiderError(f"'{shown(text)}' is not an action: write SRC>DST, SRC>DSTxN "
                              "or deal")
        src, dst = int(m.group(1)), int(m.group(2))
        n = int(m.group(3)) if m.group(3) else 1
        for name, col in (("source", src), ("destination", dst)):
            if not 1 <= col <= N_COLS:
                raise SpiderError(f"'{text}': {name} column {col} is not 1..10")
        if n < 1:
            raise SpiderError(f"'{text}': the number of cards must be at least 1")
        return cls(src - 1, dst - 1, n)

    def text(self) -> str:
        if self.is_deal:
            return "deal"
        suffix = f"x{self.n_cards}" if self.n_cards > 1 else ""
        return f"{self.src + 1}>{self.dst + 1}{suffix}"

    def __str__(self) -> str:
        return self.text()

    def words(self, pos: Position) -> str:
        """The action in words, given the position it is played from (see ``words.py``)."""
        from .words import action_sentence  # words.py plays the action with these rules

        return action_sentence(pos, self)


DEAL = Action(-1, -1, 0)


def parse_line(text: str) -> list[Action]:
    """Read a line of actions separated by white space; errors name the index.

    White space is ASCII space, tab and line ends: another character (a form
    feed, ``\\u2028``) is part of an action, which is then an error.
    """
    actions = []
    for i, tok in enumerate((t for t in re.split(r"[ \t\r\n]+", text) if t), start=1):
        try:
            actions.append(Action.parse(tok))
        except SpiderError as err:
            raise SpiderError(f"action {i}: {err}") from None
    return actions


def line_text(actions) -> str:
    return " ".join(a.text() for a in actions)


def run_length(cards, relaxed: bool) -> int:
    """How many cards at the top of a face-up pile form a movable group."""
    if not cards:
        return 0
    n = 1
    while n < len(cards):
        lower, upper = cards[-n - 1], cards[-n]
        if card_rank(lower) != card_rank(upper) + 1:
            break
        if not relaxed and card_suit(lower) != card_suit(upper):
            break
        n += 1
    return n


def legal_actions(pos: Position) -> list[Action]:
    """Every legal action, moves by (src, dst, n_cards) and then the deal.

    This is the documented order that the kernels reproduce.
    """
    actions = []
    for src in range(N_COLS):
        run = run_length(pos.up[src], pos.relaxed)
        if not run:
            continue
        top_rank = card_rank(pos.up[src][-1])
        for dst in range(N_COLS):
            if dst == src:
                continue
            if not pos.up[dst]:  # empty column: every group size
                actions.extend(Action(src, dst, n) for n in range(1, run + 1))
            else:
                n = card_rank(pos.up[dst][-1]) - top_rank
                if 1 <= n <= run:
                    actions.append(Action(src, dst, n))
    if pos.stock and all(pos.up[c] for c in range(N_COLS)):
        actions.append(DEAL)
    return actions


def why_illegal(pos: Position, action: Action) -> str | None:
    """The rule an action breaks in ``pos``, or None when it is legal."""
    if action.is_deal:
        if not pos.stock:
            return "the stock is empty"
        empty = [c + 1 for c in range(N_COLS) if not pos.up[c]]
        if empty:
            return f"no deal while a column is empty (column {empty[0]})"
        return None
    src, dst, n = action
    if src == dst:
        return "a column cannot move onto itself"
    up = pos.up[src]
    if not up:
        return f"column {src + 1} is empty"
    if n > len(up):
        return (f"column {src + 1} has {len(up)} face-up card{'s' if len(up) != 1 else ''}, "
                f"not {n}")
    run = run_length(up, pos.relaxed)
    if n > run:
        group = up[-n:]
        for i in range(len(group) - 1):
            if card_rank(group[i]) != card_rank(group[i + 1]) + 1:
                return (f"{card_text(group[i + 1])} is not one rank below {card_text(group[i])}: "
                        "the group is not a descending run")
        return (f"the group {' '.join(card_text(c) for c in group)} is not one suit, "
                "as Classic rules require")
    if not pos.up[dst]:
        return None
    top, bottom = pos.up[dst][-1], up[-n]
    if card_rank(top) == 1:
        return f"nothing can go onto an ace (column {dst + 1} ends in {card_text(top)})"
    if card_rank(top) != card_rank(bottom) + 1:
        return (f"{card_text(bottom)} is not one rank below {card_text(top)} "
                f"(the top card of column {dst + 1})")
    return None


def apply(pos: Position, action: Action) -> tuple[Position, list[int]]:
    """Play a legal action: the new position and the suits of the runs it removed."""
    reason = why_illegal(pos, action)
    if reason:
        raise IllegalAction(f"{action.text()} is illegal: {reason}")
    down = [list(c) for c in pos.down]
    up = [list(c) for c in pos.up]
    stock = list(pos.stock)
    if action.is_deal:
        unknown = stock[:N_COLS].count(UNKNOWN)
        if unknown:
            raise HiddenCard(f"the deal would deal {unknown} unknown stock card"
                             f"{'s' if unknown != 1 else ''}: name the ten cards first", None)
        for c in range(N_COLS):
            up[c].append(stock.pop(0))
    else:
        src, dst, n = action
        up[dst].extend(up[src][-n:])
        del up[src][-n:]
    removed = settle(down, up)
    new = Position(pos.suits, pos.rules, pos.removed + tuple(removed), tuple(stock),
                   tuple(map(tuple, down)), tuple(map(tuple, up)))
    return new, removed


def settle(down, up) -> list[int]:
    """Remove complete runs and turn up cards until nothing changes (in place)."""
    removed = []
    changed = True
    while changed:
        changed = False
        for c in range(N_COLS):
            if len(up[c]) >= 13 and is_complete_run(up[c][-13:]):
                removed.append(card_suit(up[c][-1]))
                del up[c][-13:]
                changed = True
            if not up[c] and down[c]:
                if down[c][-1] == UNKNOWN:
                    raise HiddenCard(f"it would turn up an unknown card in column {c + 1}: "
                                     "name the card first", c)
                up[c].append(down[c].pop())
                changed = True
    return removed


def next_score(score: int, runs_removed: int) -> int:
    """SPEC section 6: pay the action's point (never below 0), then 100 a run."""
    return max(0, score - 1) + 100 * runs_removed


@dataclass(frozen=True)
class Game:
    """A position with its move counter and score."""

    position: Position
    moves: int = 0
    score: int = START_SCORE

    @classmethod
    def start(cls, position: Position) -> "Game":
        return cls(position)

    def play(self, action: Action) -> "Game":
        pos, removed = apply(self.position, action)
        return Game(pos, self.moves + 1, next_score(self.score, len(removed)))

    @property
    def won(self) -> bool:
        return len(self.position.removed) == 8

    @property
    def state(self) -> str:
        if self.won:
            return "won"
        return "playing" if legal_actions(self.position) else "lost"


def replay(position: Position, line, game: Game | None = None) -> Game:
    """Replay a line (text or actions); an illegal action names its index."""
    actions = parse_line(line) if isinstance(line, str) else list(line)
    game = game or Game.start(position)
    for i, action in enumerate(actions, start=1):
        try:
            game = game.play(action)
        except IllegalAction as err:
            raise IllegalAction(f"action {i} ({action.text()}): {err}") from None
    return game
