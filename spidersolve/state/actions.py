"""Actions and their notation (SPEC section 7): ``10>2``, ``7>3x3``, ``deal``.

>>> line_text(parse_line("10>2 deal"))
'10>2 deal'
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..cards import ascii_lower
from ..errors import SpiderError, is_whole, shown
from .position import N_COLS
from .source import as_position


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
    def parse(cls, text: str) -> Action:
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
        if not isinstance(text, str):
            raise SpiderError(
                f"an action is text such as '10>2' or 'deal', not {shown(repr(text))}"
            )
        raw = text.strip(" \t\r\n")
        if ascii_lower(raw) == "deal":
            return DEAL
        m = re.fullmatch(r"([0-9]+)>([0-9]+)(?:[xX]([0-9]+))?", raw)
        if not m:
            raise SpiderError(f"'{shown(text)}' is not an action: write SRC>DST, SRC>DSTxN or deal")
        # a number of any length is read (capped: ``read_number``), so that its message
        # says what is wrong with it
        src, dst = read_number(m.group(1)), read_number(m.group(2))
        n = read_number(m.group(3)) if m.group(3) else 1
        for name, col, typed in (("source", src, m.group(1)), ("destination", dst, m.group(2))):
            if not 1 <= col <= N_COLS:
                raise SpiderError(f"'{shown(raw)}': {name} column {shown(typed)} is not 1..10")
        if n < 1:
            raise SpiderError(f"'{shown(raw)}': the number of cards must be at least 1")
        if n > MAX_CARDS:
            raise SpiderError(
                f"'{shown(raw)}': {shown(m.group(3))} cards is more than a column holds "
                f"(at most {MAX_CARDS})"
            )
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


MAX_CARDS = 104  # two decks: no column can hold more
NUMBER_DIGITS = 9  # a number typed with more digits is out of every range, and not converted


def read_number(digits: str) -> int:
    """The number ``digits`` stands for; one too long to be a column or a count is
    taken as 10**NUMBER_DIGITS, which every range check refuses (Python will not
    convert more than 4,300 digits). Leading zeros do not count towards its length.

    >>> read_number("0012"), read_number("9" * 5000) == 10**NUMBER_DIGITS
    (12, True)
    >>> read_number("0" * 20 + "2"), read_number("000")
    (2, 0)
    """
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= NUMBER_DIGITS else 10**NUMBER_DIGITS


def as_action(action) -> Action:
    """An Action, or its text (``"10>2"``, ``"deal"``) read with ``Action.parse``.

    An ``Action`` built from its fields is checked as its text would be:
    columns 0..9, 1..104 cards, or the deal exactly (``DEAL``).

    >>> as_action("deal") is DEAL, as_action("10>2") == Action(9, 1, 1)
    (True, True)
    >>> as_action(Action(3, 9, 0))
    Traceback (most recent call last):
    ...
    spidersolve.errors.SpiderError: Action(3, 9, 0): a move of 0 cards (a move takes 1..104)
    """
    if action is DEAL:
        return action
    if isinstance(action, str):
        return Action.parse(action)
    if not isinstance(action, Action):
        raise SpiderError(
            f"an action is an Action or its text, such as '10>2' or 'deal', "
            f"not {shown(repr(action))}"
        )
    problem = _field_problem(action)
    if problem:
        fields = ", ".join(shown(repr(f)) for f in action)
        raise SpiderError(f"Action({fields}): {problem}")
    return action


def _field_problem(action: Action) -> str | None:
    """Why an Action's fields are no action (``as_action``), or None."""
    src, dst, n = action
    if type(src) is not int or type(dst) is not int or type(n) is not int:  # fast path: ints
        if not (is_whole(src) and is_whole(dst) and is_whole(n)):
            return "its fields are whole numbers (columns 0..9, then the cards)"
        src, dst, n = int(src), int(dst), int(n)
    if src < 0 or dst < 0:
        if (src, dst, n) == tuple(DEAL):
            return None
        return "not a move (columns 0..9) and not the deal, Action(-1, -1, 0)"
    for name, col in (("source", src), ("destination", dst)):
        if col >= N_COLS:
            return f"{name} column {col} is not 0..9 (the fields count columns from 0)"
    if not 1 <= n <= MAX_CARDS:
        return f"a move of {n} cards (a move takes 1..{MAX_CARDS})"
    return None


DEAL = Action(-1, -1, 0)


def check_line(line) -> None:
    """Raise SpiderError unless ``line`` is a line's text or an iterable of actions.

    Bytes are refused as a whole (iterated, they would be read as numbers).
    """
    if isinstance(line, (bytes, bytearray)):
        raise SpiderError("a line is its text or its actions, not bytes: decode it first")
    if not isinstance(line, str) and not hasattr(line, "__iter__"):
        raise SpiderError(f"a line is its text or its actions, not {shown(repr(line))}")


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

    >>> line_text([Action(9, 1, 1), DEAL]), line_text(["10>2", "deal"])
    ('10>2 deal', '10>2 deal')
    """
    return " ".join(as_action(a).text() for a in actions)
