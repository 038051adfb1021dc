"""A game of Spider in the terminal, as a library: commands in, text out.

``PlaySession`` keeps the game, the actions played and the undo and redo
stacks. It never prints and never reads: ``handle(command)`` returns the
text to show, so the command line (``spidersolve play``) and the tests drive
it the same way.

>>> from spidersolve.state import GameCode, Game
>>> session = PlaySession(Game.start(GameCode.parse("SP1-S1C-AAAAAAD").position()))
>>> session.handle("1>8").splitlines()[0]
'1>8: move the 2S from column 1 onto the 3S in column 8; the KS in column 1 turns up'

Commands (columns 1..10):

- ``7>3``: move one card from column 7 to column 3 (SPEC section 7), or, onto
  a card where one card cannot go, the one group that fits there;
- ``7>3x2``: move exactly 2 cards;
- ``7``: send the movable group of column 7 where a click sends it (see
  ``click_action``);
- ``deal`` (``d``), ``undo`` (``u``, up to ``MAX_UNDO`` actions), ``redo``,
  ``restart``, ``moves`` (``m``, the legal actions), ``hint``, ``score``,
  ``show``, ``save FILE``, ``help``, ``quit``.

The table follows every command that changes it (an action, ``undo``,
``redo``, ``restart``) and ``show``; a refusal, ``score``, ``hint``,
``moves``, ``save``, ``help``, ``quit`` and an unknown command print only
their own text. A refused command is not a move.

In a game with unknown cards (``??``), ``turn 7 QH`` names the card an
action turns up and ``deal 5D 6C ...`` the cards a deal lays down
(:mod:`.naming`).

A saved game (``save FILE``, see ``saved_game_text``) is position text, so
every command reads it as the position reached; its comments hold the
moves, the score and the line, and ``play FILE`` resumes it.
"""

from __future__ import annotations

import dataclasses
import re
import shlex
from collections import deque

from ..board import PLAIN, Style, plural, table_text
from ..cards import SUIT_NAMES, ascii_lower
from ..errors import SpiderError, shown
from ..show import marked_cards
from ..state import (
    DEAL,
    Action,
    Game,
    HiddenCard,
    IllegalAction,
    legal_actions,
    line_text,
    replay,
    why_illegal,
)
from ..state.actions import MAX_CARDS, read_number
from ..state.position import N_COLS
from ..state.visible import visible_of
from ..state.words import action_outcome, outcome_sentence
from .advice import hint_text, honest_hint_text
from .moves import click_action, fitting_action
from .naming import CardNaming
from .saved import saved_game_text

MAX_UNDO = 100

HELP_TEXT = """\
commands (columns are 1..10):
  7>3       move a card from column 7 to column 3 (or the group that fits there)
  7>3x2     move exactly 2 cards from column 7 to column 3
  7         send the group on top of column 7 to the best column: first onto a
            card one rank higher in the same suit, then onto any card one rank
            higher, then to the first empty column (lowest column first)
  deal, d   deal a row from the stock (not while a column is empty)
  undo, u   take back the last action (up to 100)
  redo      play again the action last taken back
  restart   go back to the start of the game (redo plays it forward again)
  moves, m  list the legal actions (typed as written, each plays that action)
  hint      ask the solver for the next action (honest when cards are unknown: ??)
  turn 7 QH name the card that turned up in column 7 (a game with ?? cards)
  deal 5D 6C ... deal, naming the ten cards that fall, column 1 first (unknown stock)
  cancel    take back an action that waits for a card to be named
  score     the moves and the score
  show      show the table again
  save FILE save the game: 'spidersolve play FILE' resumes it
  help      this list
  quit, q   stop; the line played so far is printed"""

_MOVE = re.compile(r"(\d+)\s*>\s*(\d+)(?:\s*[xX]\s*(\d+))?", re.ASCII)


def _split_word(text: str) -> tuple[str, str]:
    """The first word of a command and the rest, apart by spaces or tabs only (the
    rest keeps any other white space, which the command then refuses)."""
    parts = re.split(r"[ \t]+", text, maxsplit=1)
    return parts[0], parts[1] if len(parts) > 1 else ""


class PlaySession(CardNaming):
    """One game played command by command.

    Parameters
    ----------
    game : Game
        The game to start from (``--after`` or a saved game already played into it).
    line : sequence of Action, optional
        The actions that led to ``game``; they begin ``line`` and cannot be
        undone.
    words : bool
        Describe the table in plain words instead of drawing it.
    style : Style
        How cards are drawn (``board.PLAIN`` or ``board.FANCY``).
    start : str, optional
        The game code or ``pysol:`` name the game started from, written into a
        saved game so that ``play FILE`` can check its line.
    """

    def __init__(
        self,
        game: Game,
        line=(),
        words: bool = False,
        style: Style = PLAIN,
        start: str | None = None,
    ):
        self.game = game
        self.words = words
        self.style = style
        self.start_name = start
        self.played: list[Action] = list(line)
        self._first = game
        self._given = game.position  # the start as given: named cards fill in _first only
        self._kept = len(self.played)  # the actions before this session: never undone
        # Previous games, newest last; the oldest falls off past MAX_UNDO.
        self._undo: deque[Game] = deque(maxlen=MAX_UNDO)
        # Actions taken back, newest last, with the game each one leads to.
        self._redo: list[tuple[Action, Game]] = []
        self._marked: tuple = ()
        self.finished = False
        # An action that turns up a card this game does not know (a game with ??):
        # it waits for the card, named with ``turn COL CARD``; the column it waits on.
        self._pending: tuple[Action, int] | None = None

    def fast_forward(self, actions) -> None:
        """Play ``actions`` silently, as if typed: they can be undone (``IllegalAction``
        names the rule an illegal one breaks)."""
        for action in actions:
            before = self.game
            self.game = before.play(action)
            self._undo.append(before)
            self.played.append(action)
        self._redo.clear()
        self._marked = ()

    # -- the text the player reads ---------------------------------------
    @property
    def line(self) -> str:
        """The actions played so far (``--after`` included, undone ones left out)."""
        return line_text(self.played)

    def line_report(self) -> str:
        """The last line of a session: ``line:`` and the line, to replay it.

        A start with unknown cards (``??``) gets a note first: the line turns up
        cards only the session was told (``turn``, ``deal CARD ...``), so it
        replays from a saved game, which keeps them, not from the start."""
        line = f"line: {self.line}".rstrip()
        if self._given.has_unknown and not self._replays():
            return (
                "note: this line turns up cards named here; 'save FILE' keeps them "
                "('play FILE' resumes), the start alone cannot replay it\n" + line
            )
        return line

    def _replays(self) -> bool:
        """Whether this session's actions replay from the position it was given (no
        named card needed); the kept actions (``--after``, a saved line) led there."""
        try:
            replay(self._given, self.played[self._kept :])
        except SpiderError:
            return False
        return True

    def table(self) -> str:
        """The table as the player sees it: face-down cards are hidden."""
        pos, game = self.game.position, self.game
        if self.words:
            return f"{pos.words()} Moves: {game.moves}; score: {game.score}."
        return table_text(game, self.style, self._marked)

    def start(self) -> str:
        """What to show before the first command."""
        return self._with_table("", self._ending())

    # -- commands ----------------------------------------------------------
    def handle(self, command: str) -> str:
        """Run one command and return the text to show (never empty for a command)."""
        text = command.strip(" \t\r\n")
        word = ascii_lower(text)
        if not text:
            return ""
        if self.finished:
            return "the game is over: " + ("won" if self.game.won else "you quit")
        first, rest = _split_word(text)  # words apart by spaces or tabs
        if ascii_lower(first) == "turn":
            return self._turn(rest)
        if self._pending is not None and word not in (
            "help",
            "?",
            "h",
            "quit",
            "exit",
            "q",
            "show",
            "table",
            "look",
            "score",
            "undo",
            "u",
            "cancel",
        ):
            action, col = self._pending
            return (
                f"refused: {action.text()} waits for the card that turned up in column "
                f"{col + 1}: turn {col + 1} CARD (or cancel)"
            )
        if self._pending is not None and word in ("undo", "u", "cancel"):
            action, _col = self._pending
            self._pending = None
            return self._with_table(f"cancelled {action.text()}")
        if word == "cancel":
            return "refused: nothing to cancel (cancel takes back an action that waits for a card)"
        if word in ("help", "?", "h"):
            return HELP_TEXT
        if word in ("quit", "exit", "q"):
            self.finished = True
            return f"quit after {plural(self.game.moves, 'move')}, score {self.game.score}"
        if word in ("show", "table", "look"):
            return self.table()
        if word == "score":
            return f"moves: {self.game.moves}, score: {self.game.score}"
        if word in ("undo", "u"):
            return self._undo_once()
        if word == "redo":
            return self._redo_once()
        if word == "restart":
            return self._restart()
        if word in ("moves", "m"):
            return self._moves()
        if word == "hint":
            return self._hint()
        if word in ("deal", "d"):
            return self._play(DEAL)
        if ascii_lower(first) in ("deal", "d"):
            return self._deal_named(rest)
        if ascii_lower(first) == "save":  # save FILE, apart by spaces or tabs
            return self._save(rest.strip(" \t"))
        if text.isascii() and text.isdigit():
            col = read_number(text)
            if not 1 <= col <= N_COLS:
                return f"refused: column {shown(text)} is not 1..10"
            action, reason = click_action(self.game.position, col - 1)
            return self._play(action) if action else f"refused: {reason}"
        m = _MOVE.fullmatch(text)
        if m:
            return self._move(m)
        return f"unknown command '{shown(text)}': type help for the commands"

    def _move(self, m) -> str:
        src, dst = read_number(m.group(1)), read_number(m.group(2))
        for name, col, typed in (("source", src, m.group(1)), ("destination", dst, m.group(2))):
            if not 1 <= col <= N_COLS:
                return f"refused: {name} column {shown(typed)} is not 1..10"
        if m.group(3) is not None:
            n = read_number(m.group(3))
            if n < 1:
                return "refused: the number of cards must be at least 1"
            if n > MAX_CARDS:
                return (
                    f"refused: {shown(m.group(3))} cards is more than a column holds "
                    f"(at most {MAX_CARDS})"
                )
            return self._play(Action(src - 1, dst - 1, n))
        action, reason = fitting_action(self.game.position, src - 1, dst - 1)
        return self._play(action) if action else f"refused: {reason}"

    def _play(self, action: Action) -> str:
        before = self.game
        reason = why_illegal(before.position, action)
        if reason:
            return f"refused: {action.text()}: {reason}"
        try:
            after = before.play(action)
        except HiddenCard as err:  # a card this game does not know would turn up
            return self._ask_for_card(action, err)
        except IllegalAction as err:
            return f"refused: {err}"
        self._undo.append(before)
        self._redo.clear()
        return self._arrive(action, before, after)

    def _arrive(self, action: Action, before: Game, after: Game, verb: str = "") -> str:
        """Make ``after`` the game, reached by ``action`` from ``before``; say so."""
        self.played.append(action)
        self.game = after
        outcome = action_outcome(before.position, action)
        self._marked = marked_cards(after, outcome)
        said = f"{verb}{action.text()}: {outcome_sentence(outcome)}"
        for _col, suit, _number in outcome.runs:
            said += f"\nremoved a run of {SUIT_NAMES[suit]} (+100)"
        return self._with_table(said, self._ending())

    def _undo_once(self) -> str:
        if not self._undo:
            return "refused: nothing more to undo"
        last = self.played.pop()
        self._redo.append((last, self.game))
        self.game = self._undo.pop()
        self._marked = ()
        self.finished = False
        return self._with_table(f"undid {last.text()}", self._ending())

    def _redo_once(self) -> str:
        if not self._redo:
            return "refused: nothing to redo"
        action, after = self._redo.pop()
        self._undo.append(self.game)
        return self._arrive(action, self.game, after, verb="redid ")

    def _restart(self) -> str:
        since = self.played[self._kept :]
        if not since:
            return "refused: already at the start"
        # Every action since the start can be redone, the first one first, and
        # then the ones undone before the restart.
        games, game = [], self._first
        for action in since:
            game = game.play(action)
            games.append((action, game))
        self._redo += reversed(games)
        self._undo.clear()
        del self.played[self._kept :]
        self.game = self._first
        self._marked = ()
        self.finished = False
        return self._with_table(
            f"restarted: back to the start ({plural(len(self._redo), 'action')} to redo)",
            self._ending(),
        )

    def _moves(self) -> str:
        pos = self.game.position
        legal = legal_actions(pos)
        if not legal:
            return "no legal action is left"
        rows = [f"{plural(len(legal), 'legal action')}:"]
        width = max(len(a.text()) for a in legal)
        view = visible_of(pos)  # words name no card before it turns up
        for action in legal:
            rows.append(f"  {action.text():<{width}}  {action.words(view)}")
        return "\n".join(rows)

    def _hint(self) -> str:
        pos = self.game.position
        if pos.has_unknown:  # the honest advisor: it sees only what the player sees
            from ..search.honest import advise, default_workers

            return honest_hint_text(advise(pos, workers=default_workers()), pos)
        from ..search import HINT_NODES, hint

        # the solver reads every card; its words name none the player has not seen
        view = visible_of(pos)
        res = hint(pos, nodes=HINT_NODES)
        if res.action is not None:
            res = dataclasses.replace(res, words=res.action.words(view))
        return hint_text(res, view)

    def _save(self, name: str) -> str:
        if not name:
            return "refused: save needs a file name: save FILE"
        from ..files import output_problem, write_text_atomic
        from ..state.source import file_source

        if name == "-":  # elsewhere '-' is standard input or output: never a file so named
            return (
                "refused: save: '-' is standard input elsewhere (play - cannot resume it): "
                "give a name (./- names one called -)"
            )
        problem = output_problem(name)
        if problem:
            return f"refused: {problem}"
        try:
            path = write_text_atomic(name, saved_game_text(self.game, self.played, self.start_name))
        except SpiderError as err:
            return f"refused: {err}"
        return (
            f"saved to {path} after {plural(self.game.moves, 'move')}; "
            f"resume it with: spidersolve play {shlex.quote(file_source(str(path)))}"
        )

    def _ending(self) -> str | None:
        """The end of the game, when the position is won or lost."""
        if self.game.won:
            self.finished = True
            return (
                f"you won: all 8 runs removed in {plural(self.game.moves, 'move')}, "
                f"final score {self.game.score}"
            )
        if not legal_actions(self.game.position):
            return "no legal action is left: the game is lost (undo to go back, or quit)"
        return None

    def _with_table(self, said: str, ending: str | None = None) -> str:
        parts = [p for p in (said, self.table(), ending) if p]
        return "\n".join(parts)
