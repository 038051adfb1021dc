"""The reference rules (SPEC sections 5-7): actions, their notation, applying
them, the move counter and the score.

This is the readable oracle. The numba kernels in ``_kernels.py`` must agree
with it on every position; a winning line is verified by replaying it here.

>>> game = Game.start("SP1-S1C-AAAAAAD")
>>> game.push("10>2")
>>> game.moves, game.score, game.history
(1, 499, (Action.parse('10>2'),))
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from ..cards import UNKNOWN, ascii_lower, card_rank, card_suit, card_text
from ..errors import SpiderError, shown
from .position import N_COLS, Position, is_complete_run
from .source import as_position

START_SCORE = 500


class IllegalAction(SpiderError):
    """An action that the rules refuse; the message gives the rule.

    Examples
    --------
    >>> apply("SP1-S1C-AAAAAAD", "1>1")
    Traceback (most recent call last):
    ...
    spidersolve.state.rules.IllegalAction: 1>1 is illegal: a column cannot move onto itself
    """


class HiddenCard(IllegalAction):
    """A legal action that would turn up, or deal, a card that is not known (``??``).

    ``col`` is the column (0..9) whose unknown face-down card would turn up,
    or None when a deal would take unknown stock cards. Name the card first
    (``state.visible.name_down`` / ``name_deal``), then play the action again.

    Examples
    --------
    >>> from spidersolve.state.visible import visible_of
    >>> view = visible_of(as_position("SP1-S1C-AAAAAAD"))
    >>> try:
    ...     apply(view, "deal")
    ... except HiddenCard as err:
    ...     print(err.col, err)
    None the deal would deal 10 unknown stock cards: name the ten cards first
    """

    def __init__(self, message: str, col: int | None):
        super().__init__(message)
        self.col = col


class Action(NamedTuple):
    """A move of ``n_cards`` from column ``src`` to ``dst``, or the deal (SPEC 5, 7).

    The fields count columns 0..9, as the code inside does; the text form,
    ``str`` and ``repr`` count them 1..10, as people read them. The repr is
    the call that parses the text back. The deal is ``DEAL``, ``(-1, -1, 0)``.

    Examples
    --------
    >>> a = Action.parse("10>2")
    >>> a, str(a), (a.src, a.dst, a.n_cards)
    (Action.parse('10>2'), '10>2', (9, 1, 1))
    >>> eval(repr(a)) == a
    True
    >>> Action.parse("7>3x3").text(), Action.parse("DEAL") == DEAL
    ('7>3x3', True)
    """

    src: int
    dst: int
    n_cards: int

    @property
    def is_deal(self) -> bool:
        """True for the deal.

        >>> DEAL.is_deal, Action.parse("1>2").is_deal
        (True, False)
        """
        return self.src < 0

    @classmethod
    def parse(cls, text: str) -> "Action":
        """Read the notation of SPEC section 7: ``SRC>DST``, ``SRC>DSTxN`` or ``deal``.

        Raises
        ------
        SpiderError
            For text that is not an action, or a column not 1..10.

        Examples
        --------
        >>> Action.parse(" 10>1x12 ")
        Action.parse('10>1x12')
        >>> Action.parse("3>4x1")
        Action.parse('3>4')
        """
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
        """The notation of SPEC section 7, columns 1..10.

        >>> Action(0, 7, 3).text()
        '1>8x3'
        """
        if self.is_deal:
            return "deal"
        suffix = f"x{self.n_cards}" if self.n_cards > 1 else ""
        return f"{self.src + 1}>{self.dst + 1}{suffix}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Action.parse({self.text()!r})"

    def words(self, pos) -> str:
        """The action in words, given the position (or source) it is played from.

        >>> Action.parse("10>2").words("SP1-S1C-AAAAAAD")
        'move the 5S from column 10 onto the 6S in column 2; the 9S in column 10 turns up'
        """
        from .words import action_sentence  # words.py plays the action with these rules

        return action_sentence(as_position(pos), self)


def as_action(action) -> Action:
    """An Action, or its text (``"10>2"``, ``"deal"``) read with ``Action.parse``.

    >>> as_action("deal") is DEAL, as_action("10>2") == Action(9, 1, 1)
    (True, True)
    """
    return Action.parse(action) if isinstance(action, str) else action


DEAL = Action(-1, -1, 0)


def parse_line(text: str) -> list[Action]:
    """Read a line of actions separated by white space; errors name the index.

    White space is ASCII space, tab and line ends: another character (a form
    feed, ``\\u2028``) is part of an action, which is then an error.

    Examples
    --------
    >>> parse_line("10>2  deal\\n1>8x2")
    [Action.parse('10>2'), Action.parse('deal'), Action.parse('1>8x2')]
    >>> parse_line("10>2 11>1")
    Traceback (most recent call last):
    ...
    spidersolve.errors.SpiderError: action 2: '11>1': source column 11 is not 1..10
    """
    actions = []
    for i, tok in enumerate((t for t in re.split(r"[ \t\r\n]+", text) if t), start=1):
        try:
            actions.append(Action.parse(tok))
        except SpiderError as err:
            raise SpiderError(f"action {i}: {err}") from None
    return actions


def line_text(actions) -> str:
    """The text of a line: the actions' notation separated by single spaces.

    >>> line_text([Action(9, 1, 1), DEAL])
    '10>2 deal'
    """
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


def legal_actions(pos) -> list[Action]:
    """Every legal action, moves by (src, dst, n_cards) and then the deal.

    This is the documented order that the kernels reproduce.

    Parameters
    ----------
    pos : Position, Game, GameCode, PysolDeal or str
        The position, or anything ``as_position`` reads.

    Examples
    --------
    >>> actions = legal_actions("SP1-S1C-AAAAAAD")
    >>> len(actions), line_text(actions[:3]), actions[-1]
    (8, '1>8 6>1 7>10', Action.parse('deal'))
    """
    if not isinstance(pos, Position):
        pos = as_position(pos)
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


def why_illegal(pos, action) -> str | None:
    """The rule an action breaks in ``pos``, or None when it is legal.

    ``pos`` is anything ``as_position`` reads, ``action`` an Action or its text.

    Examples
    --------
    >>> why_illegal("SP1-S1C-AAAAAAD", "1>2") is None
    False
    >>> why_illegal("SP1-S1C-AAAAAAD", "10>2") is None
    True
    """
    if not isinstance(pos, Position):
        pos = as_position(pos)
    action = as_action(action)
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


def apply(pos, action) -> tuple[Position, list[int]]:
    """Play a legal action: the new position and the suits of the runs it removed.

    Parameters
    ----------
    pos : Position, Game, GameCode, PysolDeal or str
        The position, or anything ``as_position`` reads.
    action : Action or str
        The action or its text.

    Raises
    ------
    IllegalAction
        When the rules refuse the action (the message names the rule);
        ``HiddenCard`` when it would turn up or deal a card written ``??``.

    Examples
    --------
    >>> after, removed = apply("SP1-S1C-AAAAAAD", "10>2")
    >>> " ".join(card_text(c) for c in after.up[1]), removed
    ('6S 5S', [])
    """
    if not isinstance(pos, Position):
        pos = as_position(pos)
    action = as_action(action)
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


@dataclass
class Game:
    """A position with its move counter, score and the actions played.

    Used the way python-chess uses its ``Board``: ``push`` plays an action in
    place and ``pop`` takes it back; ``play`` returns a new Game and leaves
    this one as it is. Two games are equal when their position, moves and
    score are; ``history`` (the move stack) is not compared.

    Parameters
    ----------
    position : Position
        The position now.
    moves : int
        Actions played since the start of the deal (SPEC section 6).
    score : int
        The score (SPEC section 6).

    Examples
    --------
    >>> game = Game.start("SP1-S1C-AAAAAAD")
    >>> len(game.legal_actions())
    8
    >>> game.push("10>2")
    >>> game.push(DEAL)
    >>> game.history, game.moves, game.score
    ((Action.parse('10>2'), Action.parse('deal')), 2, 498)
    >>> game.pop()
    Action.parse('deal')
    >>> game == Game.start("SP1-S1C-AAAAAAD").play("10>2")
    True
    """

    position: Position
    moves: int = 0
    score: int = START_SCORE
    # what each push replaced, oldest first: (position, moves, score, action)
    _stack: tuple = field(default=(), init=False, repr=False, compare=False)

    @classmethod
    def start(cls, source) -> "Game":
        """A game at the start of ``source``: 0 moves, score 500.

        ``source`` is a Position or anything ``as_position`` reads: a game
        code, ``pysol:S:N``, a position file name.

        >>> Game.start("pysol:1:1").score
        500
        """
        return cls(as_position(source))

    def legal_actions(self) -> list[Action]:
        """Every legal action in the position now (see ``legal_actions``).

        >>> Game.start("SP1-S1C-AAAAAAD").legal_actions()[0]
        Action.parse('1>8')
        """
        return legal_actions(self.position)

    def push(self, action) -> None:
        """Play ``action`` (an Action or its text) in place.

        Raises
        ------
        IllegalAction
            When the rules refuse it; the game is then unchanged.

        Examples
        --------
        >>> game = Game.start("SP1-S1C-AAAAAAD")
        >>> game.push("10>2")
        >>> game.moves
        1
        """
        action = as_action(action)
        position, removed = apply(self.position, action)
        self._stack = self._stack + ((self.position, self.moves, self.score, action),)
        self.position = position
        self.moves += 1
        self.score = next_score(self.score, len(removed))

    def pop(self) -> Action:
        """Take back the last action pushed or played, and return it.

        Raises
        ------
        IndexError
            When no action has been played in this game.

        Examples
        --------
        >>> game = Game.start("SP1-S1C-AAAAAAD").play("10>2")
        >>> game.pop(), game.moves, game.history
        (Action.parse('10>2'), 0, ())
        """
        if not self._stack:
            raise IndexError("pop from a game with no action played")
        self.position, self.moves, self.score, action = self._stack[-1]
        self._stack = self._stack[:-1]
        return action

    def peek(self) -> Action:
        """The last action played, without taking it back (``IndexError`` if none).

        >>> Game.start("SP1-S1C-AAAAAAD").play("10>2").peek()
        Action.parse('10>2')
        """
        if not self._stack:
            raise IndexError("peek at a game with no action played")
        return self._stack[-1][3]

    @property
    def history(self) -> tuple[Action, ...]:
        """The actions played, first first (python-chess's move stack).

        It starts where the game was made: ``Game.start``, or ``Game(...)``
        for a game built from a position, counter and score.

        >>> line_text(replay("SP1-S1C-AAAAAAD", "10>2 deal").history)
        '10>2 deal'
        """
        return tuple(entry[3] for entry in self._stack)

    def copy(self) -> "Game":
        """A game equal to this one, with the same history, that pushes apart.

        >>> game = Game.start("SP1-S1C-AAAAAAD")
        >>> other = game.copy(); other.push("10>2")
        >>> game.moves, other.moves
        (0, 1)
        """
        game = Game(self.position, self.moves, self.score)
        game._stack = self._stack
        return game

    def play(self, action) -> "Game":
        """A new game with ``action`` (an Action or its text) played; this one is unchanged.

        >>> start = Game.start("SP1-S1C-AAAAAAD")
        >>> start.play("10>2").moves, start.moves
        (1, 0)
        """
        game = self.copy()
        game.push(action)
        return game

    @property
    def won(self) -> bool:
        """True when all 8 runs are removed.

        >>> Game.start("SP1-S1C-AAAAAAD").won
        False
        """
        return len(self.position.removed) == 8

    @property
    def state(self) -> str:
        """``won``, ``lost`` (no legal action, runs left) or ``playing``.

        >>> Game.start("SP1-S1C-AAAAAAD").state
        'playing'
        """
        if self.won:
            return "won"
        return "playing" if legal_actions(self.position) else "lost"


def replay(source, line, game: Game | None = None) -> Game:
    """Replay a line from a source; an illegal action names its index.

    Parameters
    ----------
    source : Position, Game, GameCode, PysolDeal or str
        Where to start: a Game goes on from its counter and score (it is not
        changed); anything else starts a game (see ``as_position``).
    line : str or iterable of Action
        The line, as text or actions.
    game : Game, optional
        Go on from this game instead (its position is then the start).

    Returns
    -------
    Game
        The game after the line, its ``history`` ending with the line.

    Examples
    --------
    >>> game = replay("SP1-S1C-AAAAAAD", "10>2 deal")
    >>> game.moves, game.score
    (2, 498)
    >>> replay(game, "1>1")
    Traceback (most recent call last):
    ...
    spidersolve.state.rules.IllegalAction: action 1 (1>1): 1>1 is illegal: a column cannot move onto itself
    """
    actions = parse_line(line) if isinstance(line, str) else [as_action(a) for a in line]
    if game is None:
        game = source if isinstance(source, Game) else Game.start(source)
    for i, action in enumerate(actions, start=1):
        try:
            game = game.play(action)
        except IllegalAction as err:
            raise IllegalAction(f"action {i} ({action.text()}): {err}") from None
    return game


def as_game(source, after: str = "") -> Game:
    """The game a library call was given, with ``after`` played from it.

    A Game is taken as it is (with its counter and score); anything else
    starts one with ``Game.start`` (see ``as_position``). Every public
    function that takes a game or a position reads it with this or
    ``as_position``.

    Examples
    --------
    >>> as_game("SP1-S1C-AAAAAAD", after="10>2").moves
    1
    >>> game = Game.start("SP1-S1C-AAAAAAD"); as_game(game) is game
    True
    """
    game = source if isinstance(source, Game) else Game.start(source)
    if after and after.strip():
        game = replay(game, after)
    return game
