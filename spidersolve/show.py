"""Follow a line step by step: the board after each action, with its sentence.

``line_steps`` replays a line with the reference rules and keeps, for every
step, the game after it, the sentence (``state/words.py``) and the cards it
moved; ``step_text`` draws one step; ``Stepper`` walks the steps on keys
(space or right arrow: next, left arrow: back, q: quit). The command
``spidersolve show`` and the solution page (``page.py``) are built on them.

>>> from spidersolve.state import GameCode
>>> steps = line_steps(GameCode.parse("SP1-S1C-AAAAAAD").position(), "1>8 deal")
>>> [s.number for s in steps], steps[1].sentence
([0, 1, 2], 'move the 2S from column 1 onto the 3S in column 8; the KS in column 1 turns up')
"""

from __future__ import annotations

from typing import NamedTuple

from .board import PLAIN, Style, plural, table_text
from .state import Action, Game, IllegalAction, parse_line
from .state.position import N_COLS
from .state.words import Outcome, action_outcome, outcome_sentence


class Step(NamedTuple):
    """Step ``number`` of a line: 0 is the start, k the board after action k.

    ``marked``: ``(col, i)`` of the face-up cards the action put down (the
    cards moved, or the cards dealt) that are still on the table.
    """

    number: int
    action: Action | None
    sentence: str
    game: Game
    outcome: Outcome | None
    marked: tuple[tuple[int, int], ...]


def line_steps(start, line, name: str = "") -> list[Step]:
    """Every step of ``line`` (text or actions) from a Game or Position, start first.

    An illegal action raises ``IllegalAction`` naming its index, as ``replay`` does.
    """
    game = start if isinstance(start, Game) else Game.start(start)
    actions = parse_line(line) if isinstance(line, str) else list(line)
    opening = f"start{': ' + name if name else ''}, a line of {plural(len(actions), 'action')}"
    steps = [Step(0, None, opening, game, None, ())]
    for i, action in enumerate(actions, start=1):
        try:
            outcome = action_outcome(game.position, action)
            game = game.play(action)
        except IllegalAction as err:
            raise IllegalAction(f"action {i} ({action.text()}): {err}") from None
        steps.append(
            Step(i, action, outcome_sentence(outcome), game, outcome, marked_cards(game, outcome))
        )
    return steps


def marked_cards(game: Game, outcome: Outcome) -> tuple[tuple[int, int], ...]:
    """``(col, i)`` of the cards ``outcome``'s action put down that are still in ``game``."""
    up = game.position.up
    run_cols = {col for col, _suit, _number in outcome.runs}
    if outcome.action.is_deal:
        return tuple((c, len(up[c]) - 1) for c in range(N_COLS) if c not in run_cols and up[c])
    dst, n = outcome.action.dst, outcome.action.n_cards
    if dst in run_cols:
        return ()
    return tuple((dst, i) for i in range(len(up[dst]) - n, len(up[dst])))


def ending_text(game: Game) -> str:
    """The state after the last step: won, lost or still playing."""
    if game.won:
        return f"won: all 8 runs removed in {plural(game.moves, 'move')}, final score {game.score}"
    if game.state == "lost":
        return f"lost: no legal action is left after {plural(game.moves, 'move')}"
    return (
        f"the line ends here, {plural(len(game.position.removed), 'run')} of 8 removed, "
        f"after {plural(game.moves, 'move')}"
    )


def step_text(step: Step, total: int, style: Style = PLAIN) -> str:
    """One step: its title and sentence, the table, and the ending after the last step."""
    if step.action is None:
        title = step.sentence
    else:
        title = f"step {step.number} of {total}: {step.action.text()}: {step.sentence}"
    parts = [title, table_text(step.game, style, step.marked)]
    if step.number == total:
        parts.append(ending_text(step.game))
    return "\n".join(parts)


KEYS_HELP = "space or right arrow: next, left arrow: back, q: quit"


class Stepper:
    """The steps shown one at a time; ``press(key)`` moves and says whether to go on.

    Keys are names: ``next`` (space, right arrow, enter, n), ``back`` (left
    arrow, backspace, p), ``first`` (home), ``last`` (end), ``quit`` (q,
    Ctrl-C, Ctrl-D); anything else is ignored.
    """

    def __init__(self, steps: list[Step], start: int = 0, style: Style = PLAIN):
        self.steps = steps
        self.index = start
        self.style = style

    @property
    def total(self) -> int:
        return len(self.steps) - 1

    def screen(self) -> str:
        where = f"[{self.index}/{self.total}] {KEYS_HELP}"
        return step_text(self.steps[self.index], self.total, self.style) + "\n" + where

    def press(self, key: str) -> bool:
        if key == "quit":
            return False
        if key == "next":
            self.index = min(self.index + 1, self.total)
        elif key == "back":
            self.index = max(self.index - 1, 0)
        elif key == "first":
            self.index = 0
        elif key == "last":
            self.index = self.total
        return True


# The bytes a terminal sends in raw mode, and the key they mean.
KEY_BYTES = {
    b" ": "next",
    b"\r": "next",
    b"\n": "next",
    b"n": "next",
    b"\x1b[C": "next",
    b"\x1bOC": "next",
    b"l": "next",
    b"\x1b[D": "back",
    b"\x1bOD": "back",
    b"\x7f": "back",
    b"\x08": "back",
    b"p": "back",
    b"h": "back",
    b"\x1b[H": "first",
    b"\x1bOH": "first",
    b"\x1b[1~": "first",
    b"g": "first",
    b"\x1b[F": "last",
    b"\x1bOF": "last",
    b"\x1b[4~": "last",
    b"G": "last",
    b"q": "quit",
    b"Q": "quit",
    b"\x03": "quit",
    b"\x04": "quit",
    b"\x1b": "quit",
}


def key_name(data: bytes) -> str | None:
    """The key that ``data`` (the bytes of one key) stands for, or None."""
    return KEY_BYTES.get(data)


def key_names(data: bytes) -> list[str]:
    """The keys of one read from a raw terminal, in order: a read can hold several
    (typing fast, a key held down, a paste). Bytes of no key are passed over, an
    escape sequence of no key whole.

    >>> key_names(b"  \x1b[C\x1b[Dq"), key_names(b"x\x1b[5~G"), key_names(b"\x1b")
    (['next', 'next', 'next', 'back', 'quit'], ['last'], ['quit'])
    """
    keys, i = [], 0
    while i < len(data):
        if data[i : i + 1] == b"\x1b" and data[i + 1 : i + 2] in (b"[", b"O"):
            end = i + 2
            if data[i + 1 : i + 2] == b"[":  # parameters, then one final byte
                while end < len(data) and 0x30 <= data[end] <= 0x3F:
                    end += 1
            end = min(end + 1, len(data))
            chunk = data[i:end]
        else:
            chunk = data[i : i + 1]
            end = i + 1
        key = KEY_BYTES.get(chunk)
        if key is not None:
            keys.append(key)
        i = end
    return keys


__all__ = [
    "KEYS_HELP",
    "Step",
    "Stepper",
    "ending_text",
    "key_name",
    "key_names",
    "line_steps",
    "marked_cards",
    "step_text",
]
