"""A game of Spider in the terminal, as a library: commands in, text out.

``PlaySession`` keeps the game, the actions played and the undo stack. It
never prints and never reads: ``handle(command)`` returns the text to show,
so the command line (``spidersolve play``) and the tests drive it the same way.

>>> from spidersolve.state import GameCode, Game
>>> session = PlaySession(Game.start(GameCode.parse("SP1-S1C-AAAAAAD").position()))
>>> session.handle("1>8").splitlines()[0]
'1>8: move 5S from column 1 to column 8'

Commands (columns 1..10):

- ``7>3``: move the largest movable group of column 7 that fits on column 3
  (onto a card exactly one size fits; onto an empty column the whole movable
  group goes);
- ``7>3x2``: move exactly 2 cards;
- ``7``: send the movable group of column 7 where a click sends it (see
  ``click_action``);
- ``deal``, ``undo`` (up to ``MAX_UNDO`` actions), ``hint``, ``score``,
  ``show``, ``help``, ``quit``.

The table follows the answer to every game command (actions, ``undo``,
``hint``, ``score``, ``show``), refused or not; ``help``, ``quit`` and an
unknown command print only their own text. A refused command is not a move.
"""

from __future__ import annotations

import re
from collections import deque

from .cards import RANKS, SUIT_NAMES, ascii_lower, card_rank, card_suit, card_text
from .errors import shown
from .state import DEAL, Action, Game, IllegalAction, legal_actions, line_text, why_illegal
from .state.position import N_COLS
from .state.rules import run_length

MAX_UNDO = 100
HINT_NODES = 167_000
HIDDEN = "##"

HELP_TEXT = """\
commands (columns are 1..10):
  7>3     move the largest group from column 7 that fits on column 3
  7>3x2   move exactly 2 cards from column 7 to column 3
  7       send the group on top of column 7 to the best column: first onto a
          card one rank higher in the same suit, then onto any card one rank
          higher, then to the first empty column (lowest column first)
  deal    deal a row from the stock (not while a column is empty)
  undo    take back the last action (up to 100)
  hint    ask the solver for the next action
  score   show the moves and the score
  show    show the table again
  help    this list
  quit    stop; the line played so far is printed"""

_MOVE = re.compile(r"(\d+)\s*>\s*(\d+)(?:\s*[xX]\s*(\d+))?")


class PlaySession:
    """One game played command by command.

    Parameters
    ----------
    game : Game
        The game to start from (``--after`` already played into it).
    line : sequence of Action, optional
        The actions that led to ``game``; they begin ``line`` and cannot be
        undone.
    words : bool
        Describe the table in plain words instead of drawing it.
    """

    def __init__(self, game: Game, line=(), words: bool = False):
        self.game = game
        self.words = words
        self.played: list[Action] = list(line)
        # Previous games, newest last; the oldest falls off past MAX_UNDO.
        self._undo: deque[Game] = deque(maxlen=MAX_UNDO)
        self.finished = False

    # -- the text the player reads ---------------------------------------
    @property
    def line(self) -> str:
        """The actions played so far (``--after`` included, undone ones left out)."""
        return line_text(self.played)

    def line_report(self) -> str:
        """The last line of a session: ``line:`` and the line, to replay it."""
        return f"line: {self.line}".rstrip()

    def table(self) -> str:
        """The table as the player sees it: face-down cards are hidden."""
        pos, game = self.game.position, self.game
        if self.words:
            return f"{pos.words()} Moves: {game.moves}; score: {game.score}."
        deals = len(pos.stock) // 10
        removed = len(pos.removed)
        runs = f"{removed} run{'s' if removed != 1 else ''}"
        if pos.removed:
            runs += " (" + " ".join("SHDC"[s] for s in pos.removed) + ")"
        head = (f"stock: {len(pos.stock)} cards, {deals} deal{'s' if deals != 1 else ''} left"
                f" | removed: {runs} | moves: {game.moves} | score: {game.score}")
        rows = [head]
        for c in range(N_COLS):
            cards = [HIDDEN] * len(pos.down[c]) + [card_text(x) for x in pos.up[c]]
            rows.append(f"{c + 1:>2}: " + (" ".join(cards) if cards else "(empty)"))
        return "\n".join(rows)

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
        if word in ("help", "?", "h"):
            return HELP_TEXT
        if word in ("quit", "exit", "q"):
            self.finished = True
            return f"quit after {self.game.moves} moves, score {self.game.score}"
        if word in ("show", "table", "look"):
            return self.table()
        if word == "score":
            return self._with_table(f"moves: {self.game.moves}, score: {self.game.score}")
        if word == "undo":
            return self._with_table(self._undo_once())
        if word == "hint":
            return self._with_table(self._hint())
        if word == "deal":
            return self._play(DEAL)
        if text.isdigit():
            col = int(text)
            if not 1 <= col <= N_COLS:
                return self._with_table(f"refused: column {col} is not 1..10")
            action, reason = click_action(self.game.position, col - 1)
            return self._play(action) if action else self._with_table(f"refused: {reason}")
        m = _MOVE.fullmatch(text)
        if m:
            return self._move(m)
        return f"unknown command '{shown(text)}': type help for the commands"

    def _move(self, m) -> str:
        src, dst = int(m.group(1)), int(m.group(2))
        for name, col in (("source", src), ("destination", dst)):
            if not 1 <= col <= N_COLS:
                return self._with_table(f"refused: {name} column {col} is not 1..10")
        if m.group(3) is not None:
            n = int(m.group(3))
            if n < 1:
                return self._with_table("refused: the number of cards must be at least 1")
            return self._play(Action(src - 1, dst - 1, n))
        action, reason = fitting_action(self.game.position, src - 1, dst - 1)
        return self._play(action) if action else self._with_table(f"refused: {reason}")

    def _play(self, action: Action) -> str:
        before = self.game
        reason = why_illegal(before.position, action)
        if reason:
            return self._with_table(f"refused: {action.text()}: {reason}")
        try:
            after = before.play(action)
        except IllegalAction as err:  # an unknown card (??) would turn face up
            return self._with_table(f"refused: {err}")
        self._undo.append(before)
        self.played.append(action)
        self.game = after
        said = f"{action.text()}: {action.words(before.position)}"
        new_runs = after.position.removed[len(before.position.removed):]
        for suit in new_runs:
            said += f"\nremoved a run of {SUIT_NAMES[suit]} (+100)"
        ending = self._ending()
        return self._with_table(said, ending)

    def _undo_once(self) -> str:
        if not self._undo:
            return "refused: nothing more to undo"
        last = self.played.pop()
        self.game = self._undo.pop()
        return f"undid {last.text()}"

    def _hint(self) -> str:
        pos = self.game.position
        if pos.has_unknown:
            return ("refused: the solver needs every face-down card, and this position has "
                    "unknown ones (??)")
        try:
            from .search import hint
        except ImportError:
            return "refused: the solver is not available in this installation"
        res = hint(pos, nodes=HINT_NODES)
        return hint_text(res, pos)

    def _ending(self) -> str | None:
        """The end of the game, when the position is won or lost."""
        if self.game.won:
            self.finished = True
            return (f"you won: all 8 runs removed in {self.game.moves} moves, "
                    f"final score {self.game.score}")
        if not legal_actions(self.game.position):
            return ("no legal action is left: the game is lost (undo to go back, "
                    "or quit)")
        return None

    def _with_table(self, said: str, ending: str | None = None) -> str:
        parts = [p for p in (said, self.table(), ending) if p]
        return "\n".join(parts)


def hint_text(res, pos) -> str:
    """One line for the solver's hint ``res`` from ``pos``."""
    cost = f"{res.nodes} nodes, {res.seconds:.1f} s"
    action = res.action
    said = ""
    if action is not None:
        said = f"{action.text()} ({res.words or action.words(pos)})"
    if res.status == "won":
        return "hint: the game is already won"
    if res.status == "stuck":
        return "hint: no legal action is left"
    if res.status == "proven":
        length = f" in {len(res.line)} actions" if res.line else ""
        return f"hint: {said}; proven: it leads to a win{length} ({cost})"
    if res.status == "lost":
        tail = f"; {said} anyway" if said else ""
        return f"hint: lost: no winning line exists from here{tail} ({cost})"
    if said:
        return f"hint: {said}; unproven: no win found within {HINT_NODES} nodes ({cost})"
    return f"hint: {res.status}: no action to suggest ({cost})"


# -- choosing the cards a short command means --------------------------------
def fitting_action(pos, src: int, dst: int) -> tuple[Action | None, str | None]:
    """``SRC>DST`` without a count: the largest movable group of src that fits on dst.

    Returns the action, or None and the rule that refuses every size.
    """
    up = pos.up[src]
    if src == dst:
        return None, "a column cannot move onto itself"
    if not up:
        return None, f"column {src + 1} is empty"
    run = run_length(up, pos.relaxed)
    if not pos.up[dst]:
        return Action(src, dst, run), None
    n = card_rank(pos.up[dst][-1]) - card_rank(up[-1])
    if 1 <= n <= run:
        return Action(src, dst, n), None
    if run < n <= len(up) and _descending(up[-n:]):
        # The card that would fit is there, but the group above it is not one suit.
        return None, f"{Action(src, dst, n).text()}: {why_illegal(pos, Action(src, dst, n))}"
    action = Action(src, dst, run)
    return None, f"{action.text()}: {why_illegal(pos, action)}"


def click_action(pos, src: int) -> tuple[Action | None, str | None]:
    """Where a click on column src sends its movable group, as in the apps.

    First choice: a column whose top card is one rank above the bottom card of
    a group that can move and of the same suit; then a column whose top card
    is one rank above it, whatever its suit; then the first empty column, which
    takes the whole movable group. Within a choice the lowest-numbered column
    wins; onto a card, the one group size that fits that card moves.

    Returns the action, or None and why nothing can move.
    """
    up = pos.up[src]
    if not up:
        return None, f"column {src + 1} is empty"
    run = run_length(up, pos.relaxed)
    same_suit = any_suit = empty = None
    for dst in range(N_COLS):
        if dst == src:
            continue
        if not pos.up[dst]:
            if empty is None:
                empty = Action(src, dst, run)
            continue
        top = pos.up[dst][-1]
        n = card_rank(top) - card_rank(up[-1])
        if not 1 <= n <= run:
            continue
        if same_suit is None and card_suit(top) == card_suit(up[-n]):
            same_suit = Action(src, dst, n)
        if any_suit is None:
            any_suit = Action(src, dst, n)
    action = same_suit or any_suit or empty
    if action:
        return action, None
    group = " ".join(card_text(c) for c in up[-run:])
    ranks = sorted({card_rank(c) + 1 for c in up[-run:] if card_rank(c) < 13})
    if ranks:
        names = " or a ".join(RANKS[r - 1] for r in ranks)
        needs = f"no other column ends in a {names}"
        if run > 1:
            needs += " (one rank above a card of the group)"
    else:
        needs = "a king can go only to an empty column"
    return None, f"nothing can take {group} from column {src + 1}: {needs}, and no column is empty"


def _descending(cards) -> bool:
    return all(card_rank(a) == card_rank(b) + 1 for a, b in zip(cards, cards[1:]))

