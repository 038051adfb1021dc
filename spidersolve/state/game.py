"""``Game``: a position with its move counter, score and the actions played
(SPEC section 6), and ``replay``, which plays a line with the reference rules.

>>> game = Game.start("SP1-S1C-AAAAAAD")
>>> game.push("10>2")
>>> game.moves, game.score, game.history
(1, 499, (Action.parse('10>2'),))
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import SpiderError, is_whole, shown
from .actions import Action, as_action, check_line, parse_line
from .position import Position, is_checked
from .rules import START_SCORE, HiddenCard, IllegalAction, apply, legal_actions, next_score
from .source import as_position


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
    >>> from spidersolve.state import DEAL
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
    # what each push replaced, (position, moves, score, action), newest first as
    # a linked list: (entry, the stack below) or (), so a push is O(1) however
    # long the game, and copies share what they have in common
    _stack: tuple = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self):
        # a code, a file: as Game.start reads it; a Position is validated once
        if not (isinstance(self.position, Position) and is_checked(self.position)):
            self.position = as_position(self.position)
        for name in ("moves", "score"):
            value = getattr(self, name)
            if not is_whole(value) or value < 0:
                raise SpiderError(
                    f"a game's {name} must be a whole number 0 or more, not {shown(repr(value))}"
                )
            setattr(self, name, int(value))

    @classmethod
    def start(cls, source) -> Game:
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
        self._stack = ((self.position, self.moves, self.score, action), self._stack)
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
        (self.position, self.moves, self.score, action), self._stack = self._stack
        return action

    def peek(self) -> Action:
        """The last action played, without taking it back (``IndexError`` if none).

        >>> Game.start("SP1-S1C-AAAAAAD").play("10>2").peek()
        Action.parse('10>2')
        """
        if not self._stack:
            raise IndexError("peek at a game with no action played")
        return self._stack[0][3]

    @property
    def history(self) -> tuple[Action, ...]:
        """The actions played, first first (python-chess's move stack).

        It starts where the game was made: ``Game.start``, or ``Game(...)``
        for a game built from a position, counter and score.

        >>> from spidersolve.state import line_text
        >>> line_text(replay("SP1-S1C-AAAAAAD", "10>2 deal").history)
        '10>2 deal'
        """
        actions = []
        node = self._stack
        while node:
            actions.append(node[0][3])
            node = node[1]
        return tuple(reversed(actions))

    def copy(self) -> Game:
        """A game equal to this one, with the same history, that pushes apart.

        >>> game = Game.start("SP1-S1C-AAAAAAD")
        >>> other = game.copy(); other.push("10>2")
        >>> game.moves, other.moves
        (0, 1)
        """
        game = Game(self.position, self.moves, self.score)
        game._stack = self._stack
        return game

    def play(self, action) -> Game:
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
    if game is not None and not isinstance(game, Game):
        raise SpiderError(f"game must be a Game (or None), not {type(game).__name__}")
    check_line(line)
    actions = parse_line(line) if isinstance(line, str) else [as_action(a) for a in line]
    if game is None:
        game = source if isinstance(source, Game) else Game.start(source)
    for i, action in enumerate(actions, start=1):
        try:
            game = game.play(action)
        except HiddenCard as err:  # still a HiddenCard, with its column, for those who catch it
            raise HiddenCard(f"action {i} ({action.text()}): {err}", err.col) from None
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
    if isinstance(after, str):
        if after.strip():
            game = replay(game, after)
    elif after is not None:  # actions, as replay takes them
        game = replay(game, after)
    return game
