"""A play session's commands for a game with unknown cards (``??``).

When an action would turn up a card the game does not know, the session
waits for the player to name it (``turn COL CARD``); a deal from an unknown
stock names its ten cards (``deal C1 ... C10``). ``CardNaming`` holds these
commands for ``PlaySession`` (:mod:`.session`), and the cards named so far,
so that undo and restart keep them known.
"""

from __future__ import annotations

from collections import deque

from ..cards import UNKNOWN, parse_card
from ..errors import SpiderError, shown
from ..state import DEAL, Action, Game, HiddenCard, Position, why_illegal
from ..state.actions import read_number
from ..state.position import N_COLS, words_of
from ..state.visible import name_deal, name_down


class CardNaming:
    """Naming the cards that turn up in a game with ``??`` (a mixin of ``PlaySession``)."""

    # PlaySession's own (and its ``_play``, which plays an action once its cards are named)
    game: Game
    _first: Game
    _undo: deque[Game]
    _redo: list[tuple[Action, Game]]
    _pending: tuple[Action, int] | None

    # Cards named so far, by their place in the start position: ("down", col, index)
    # or ("stock", index); undo and restart keep them known.
    _names: dict | None = None

    def _name(self, named: Position) -> None:
        """Make ``named`` (the position with cards just named) the game, and remember them."""
        pos, first = self.game.position, self._first.position
        names = self._names if self._names is not None else {}
        for c in range(N_COLS):
            for i, (old, new) in enumerate(zip(pos.down[c], named.down[c])):
                if old != new:
                    names[("down", c, i)] = new
        shift = len(first.stock) - len(pos.stock)
        for i, (old, new) in enumerate(zip(pos.stock, named.stock)):
            if old != new:
                names[("stock", shift + i)] = new
        self._names = names
        self.game = Game(named, self.game.moves, self.game.score)
        self._first = self._known(self._first)
        self._undo = deque((self._known(g) for g in self._undo), maxlen=self._undo.maxlen)
        # An action of two cards named one at a time and then cancelled leaves the redo
        # list as it was: its games learn the card too.
        self._redo = [(action, self._known(g)) for action, g in self._redo]

    def _known(self, game: Game) -> Game:
        """``game`` with every card named so far filled in where it is still ``??``."""
        if not self._names:
            return game
        pos = game.position
        down = [list(col) for col in pos.down]
        stock = list(pos.stock)
        shift = len(self._first.position.stock) - len(stock)
        for place, card in self._names.items():
            if place[0] == "down":
                _kind, c, i = place
                if i < len(down[c]) and down[c][i] == UNKNOWN:
                    down[c][i] = card
            elif 0 <= place[1] - shift < len(stock) and stock[place[1] - shift] == UNKNOWN:
                stock[place[1] - shift] = card
        known = Position.make(pos.suits, pos.rules, down, pos.up, stock, pos.removed)
        return Game(known, game.moves, game.score)

    def _ask_for_card(self, action: Action, err: HiddenCard) -> str:
        if err.col is None:
            return (
                "refused: the next ten stock cards are not known: name them as they are "
                "dealt, column 1 first: deal CARD CARD ... (ten cards)"
            )
        self._pending = (action, err.col)
        col = err.col + 1
        return (
            f"{action.text()}: a face-down card turns up in column {col}: name it with "
            f"'turn {col} CARD' (or cancel)"
        )

    def _turn(self, rest: str) -> str:
        """``turn COL CARD``: the card that turned up in column COL."""
        if self._pending is None:
            return (
                "refused: no card is waiting to be named: turn COL CARD names the card an "
                "action turns up, after the action"
            )
        action, col = self._pending
        parts = words_of(rest)  # apart by spaces and tabs only, as in a position file
        if len(parts) != 2 or not (parts[0].isascii() and parts[0].isdigit()):
            return f"refused: write turn {col + 1} CARD, for example turn {col + 1} QH"
        if read_number(parts[0]) != col + 1:
            return f"refused: the card that turns up is in column {col + 1}, not {shown(parts[0])}"
        try:
            card = parse_card(parts[1])
            named = name_down(self.game.position, col, card)
        except SpiderError as err:
            return f"refused: {err}"
        self._pending = None
        self._name(named)
        return self._play(action)

    def _deal_named(self, cards_text: str) -> str:
        """``deal C1 ... C10``: deal, naming the ten cards as they fall, column 1 first."""
        if self._pending is not None:
            action, col = self._pending
            return f"refused: {action.text()} waits for the card in column {col + 1} first"
        stock = self.game.position.stock
        try:
            cards = [parse_card(tok) for tok in words_of(cards_text)]
            if stock and UNKNOWN not in stock[:N_COLS]:  # naming them would read them out
                return (
                    "refused: the next ten stock cards are known to this game: "
                    "deal names no cards here, type deal"
                )
            named = name_deal(self.game.position, cards)
        except SpiderError as err:
            return f"refused: {err}"
        reason = why_illegal(named, DEAL)
        if reason:
            return f"refused: deal: {reason}"
        self._name(named)
        return self._play(DEAL)
