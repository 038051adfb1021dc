"""The ``Position`` value and its text form (SPEC section 8)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ..cards import (
    BLANKS,
    N_CARDS,
    SUIT_NAMES,
    SUITS,
    UNKNOWN,
    CardError,
    ascii_lower,
    card_rank,
    card_suit,
    card_text,
    card_words,
    deck_counts,
    is_card_number,
    make_card,
    parse_card,
    suit_letter,
)
from ..errors import SpiderError, is_whole, shown

N_COLS = 10
RULES = ("classic", "relaxed")


class PositionError(SpiderError):
    """A position text, or a position built in code, breaks SPEC section 8.

    Examples
    --------
    >>> Position.from_text("spider 3 classic")
    Traceback (most recent call last):
    ...
    spidersolve.state.position.PositionError: line 1: suits must be 1, 2 or 4, not '3'
    """

    # an error about cards in several lines: their names ('1', 'stock'), so that
    # from_text can say which lines
    places: tuple[str, ...] = ()


def is_complete_run(cards) -> bool:
    """True for exactly 13 cards K, Q, ..., A of one suit, bottom to top.

    >>> is_complete_run(range(13, 0, -1)), is_complete_run(range(1, 14))
    (True, False)
    """
    if len(cards) != 13:
        return False
    suit = card_suit(cards[0])
    return all(
        card_suit(c) == suit and card_rank(c) == 13 - i and c != UNKNOWN
        for i, c in enumerate(cards)
    )


def check_column(c) -> None:
    """Raise PositionError unless ``c`` is a column index 0..9 (the library's count)."""
    if not is_whole(c) or not 0 <= c < N_COLS:
        raise PositionError(f"a column is 0..9 here (column 1 is 0), not {shown(repr(c))}")


def mark_checked(pos: Position) -> Position:
    """``pos`` taken as checked without ``validate``: for a position the library
    builds itself, valid by construction (``rules.apply`` after a legal action)
    or outside SPEC section 8 on purpose (the honest player's table without its
    stock, ``search.honest._solve_before_deal``). Never for a caller's position.
    """
    pos.__dict__["_checked"] = True  # not a field: no part of ==, hash or repr
    return pos


def is_checked(pos: Position) -> bool:
    """Whether ``pos`` was checked (``Position.checked``) or marked so (``mark_checked``)."""
    return "_checked" in pos.__dict__


def _check_fields(check, removed, stock, down, up) -> None:
    """``check(name, value)`` on each field of a position and on each column."""
    for name, value in (("removed", removed), ("stock", stock), ("down", down), ("up", up)):
        check(name, value)
    for name, columns in (("down", down), ("up", up)):
        for col in columns:
            check(f"{name}: a column", col)


def _check_tuple(name: str, value) -> None:
    """Raise PositionError unless ``value`` is a tuple, as a Position's fields are
    (``make`` takes lists and makes tuples of them)."""
    _check_sequence(name, value)
    if not isinstance(value, tuple):
        raise PositionError(
            f"{name}: a tuple, not a {type(value).__name__} (Position.make takes lists)"
        )


def _check_sequence(name: str, value) -> None:
    """Raise PositionError unless ``value`` is a sequence (of cards, or of columns)."""
    if isinstance(value, (str, bytes, bytearray)):
        raise PositionError(
            f"{name}: a sequence of card numbers, not text (Position.from_text reads text)"
        )
    if not hasattr(value, "__len__") or not hasattr(value, "__iter__"):
        raise PositionError(f"{name}: a sequence of card numbers, not {shown(repr(value))}")


@dataclass(frozen=True)
class Position:
    """One position: the table, the stock and the runs removed (SPEC section 8).

    Immutable and hashable. Its text form round-trips: ``from_text`` reads
    what ``to_text`` writes, and the repr is the ``from_text`` call.

    Attributes
    ----------
    suits : int
        1, 2 or 4.
    rules : str
        ``classic`` or ``relaxed``.
    removed : tuple of int
        The suit of each removed run, in order of removal.
    stock : tuple of int
        The stock cards, in deal order.
    down, up : tuple of tuple of int
        Column c's face-down and face-up cards (c = 0..9), bottom to top.
        Cards are ints, ``cards.card_text`` writes them; ``??`` is
        ``cards.UNKNOWN``.

    Examples
    --------
    >>> from spidersolve.state import as_position
    >>> p = as_position("SP1-S1C-AAAAAAD")
    >>> print(p.to_text().splitlines()[3])
    1: 8S AS TS AS KS | 2S
    >>> Position.from_text(p.to_text()) == p, eval(repr(p)) == p
    (True, True)
    """

    suits: int
    rules: str
    removed: tuple[int, ...]
    stock: tuple[int, ...]
    down: tuple[tuple[int, ...], ...]
    up: tuple[tuple[int, ...], ...]

    # -- construction --------------------------------------------------
    @classmethod
    def make(cls, suits, rules, down, up, stock, removed) -> Position:
        """Build and validate a position from lists of cards (errors name the problem).

        Raises
        ------
        PositionError
            When the position breaks SPEC section 8.

        Examples
        --------
        >>> from spidersolve.state import as_position
        >>> p = as_position("SP1-S1C-AAAAAAD")
        >>> Position.make(1, "classic", p.down, p.up, p.stock, ()) == p
        True
        """
        _check_fields(_check_sequence, removed, stock, down, up)  # lists are taken here
        pos = cls(
            suits,
            # SPEC 8: 'spider 1 relaxed' is read as classic; other words are errors
            "classic" if suits == 1 and rules in RULES else rules,
            tuple(removed),
            tuple(stock),
            tuple(tuple(col) for col in down),
            tuple(tuple(col) for col in up),
        )
        return pos.checked()

    @classmethod
    def from_deck(cls, suits: int, rules: str, deck) -> Position:
        """Lay out a shuffled deck d[0..103] as SPEC section 3 says.

        >>> from spidersolve.cards import ordered_deck
        >>> Position.from_deck(1, "classic", ordered_deck(1)).words()[:44]
        'Stock: 50 cards, 5 deals left; no runs remov'
        """
        deck = list(deck)
        if len(deck) != N_CARDS:
            raise PositionError(f"a deck is {N_CARDS} cards, not {len(deck)}")
        piles: list[list[int]] = [[] for _ in range(N_COLS)]
        for i in range(54):
            piles[i % N_COLS].append(deck[i])
        return cls.make(
            suits, rules, [p[:-1] for p in piles], [p[-1:] for p in piles], deck[54:], ()
        )

    # -- text ------------------------------------------------------------
    @classmethod
    def from_text(cls, text: str) -> Position:
        """Read position text; an error names the line and what is wrong.

        Lines end at ``\\n`` or ``\\r\\n`` only, tokens are separated by
        spaces and tabs, keywords are read with ASCII case folding, and a
        leading byte-order mark is skipped.

        Raises
        ------
        PositionError
            Naming the line and what is wrong.

        Examples
        --------
        >>> from spidersolve.state import as_position
        >>> text = as_position("SP1-S1C-AAAAAAD").to_text()
        >>> Position.from_text(text.replace("1: 8S", "1: 8S 8S"))
        Traceback (most recent call last):
        ...
        spidersolve.state.position.PositionError: lines 3, 4, 10, 12, 13: cards: 8S appears 9 times (columns 1, 7, 9 and 10, stock), the 1-suit deck has 8
        """
        if not isinstance(text, str):
            raise PositionError(f"position text is a str, not {shown(repr(text))[:60]}")
        header = None
        removed = stock = None
        columns: dict[int, tuple[list[int], list[int]]] = {}
        where: dict[str, int] = {}
        for number, raw in enumerate(text_lines(text), start=1):
            line = raw.split("#", 1)[0].strip(BLANKS)
            if not line:
                continue
            try:
                if header is None:
                    header = _parse_header(line)
                    continue
                key, sep, rest = line.partition(":")
                if not sep:
                    raise PositionError(
                        f"expected 'removed:', 'stock:' or 'N:' and cards, got '{shown(line)}'"
                    )
                if key != key.strip(BLANKS) or (rest and rest[0] not in BLANKS):
                    # tokens are separated by white space (SPEC section 8): 'N:' is one
                    raise PositionError(
                        f"'{shown(line)}': the label and its colon are one token, "
                        "with white space after it, as in '1: 3H | TS'"
                    )
                key = _without_zeros(ascii_lower(key))  # '01:' and '001:' are column 1 too
                if key in where:
                    raise PositionError(f"'{shown(key)}:' given twice (first on line {where[key]})")
                where[key] = number
                tokens = words_of(rest)
                if key == "removed":
                    removed = [_parse_suit(tok) for tok in tokens]
                elif key == "stock":
                    stock = [parse_card(tok, allow_unknown=True) for tok in tokens]
                elif re.fullmatch(r"[0-9]{1,2}", key) and 1 <= int(key) <= N_COLS:
                    columns[int(key) - 1] = _parse_column(tokens)
                else:
                    raise PositionError(
                        f"'{shown(key)}:' is not a line of a position "
                        "(removed, stock, or a column 1..10)"
                    )
            except (PositionError, CardError) as err:
                raise PositionError(f"line {number}: {err}") from None
        if header is None:
            raise PositionError("empty position: the first line must be like 'spider 4 classic'")
        missing = [name for name, val in (("removed", removed), ("stock", stock)) if val is None]
        missing += [f"{c + 1}" for c in range(N_COLS) if c not in columns]
        if missing:
            raise PositionError("missing line(s): " + ", ".join(f"'{m}:'" for m in missing))
        suits, rules = header
        down = [columns[c][0] for c in range(N_COLS)]
        up = [columns[c][1] for c in range(N_COLS)]
        try:
            return cls.make(suits, rules, down, up, stock, removed)
        except PositionError as err:
            lines = _lines_of(err, where)
            raise PositionError(f"{lines}: {err}" if lines else str(err)) from None

    def to_text(self) -> str:
        """The canonical position text of SPEC section 8 (one final newline).

        >>> from spidersolve.state import as_position
        >>> as_position("SP1-S1C-AAAAAAD").to_text().splitlines()[:2]
        ['spider 1 classic', 'removed:']
        """
        lines = [
            f"spider {self.suits} {self.rules}",
            _joined("removed:", [SUITS[s] for s in self.removed]),
            _joined("stock:", [card_text(c) for c in self.stock]),
        ]
        for c in range(N_COLS):
            down = " ".join(card_text(x) for x in self.down[c])
            up = " ".join(card_text(x) for x in self.up[c])
            lines.append(f"{c + 1}: " + " ".join(part for part in (down, "|", up) if part))
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"Position.from_text({self.to_text()!r})"

    # -- checks ------------------------------------------------------------
    def checked(self) -> Position:
        """This position, once ``validate`` has passed: every public function
        that solves, hints, advises or replays from a position checks it so
        (``as_position``, ``Game``); ``legal_actions`` and ``rules.apply``
        take a ``Position`` as it is given.

        A position is checked once: ``make`` and ``from_text`` check theirs,
        and ``rules.apply`` passes a checked position's mark on to the
        position after a legal action (the rules keep it valid). So a
        ``Position(...)`` built by hand, which is not checked, is refused
        with the ``PositionError`` that ``make`` would give, never solved.

        >>> from spidersolve.state import as_position
        >>> p = as_position("SP1-S1C-AAAAAAD")
        >>> Position(3, p.rules, p.removed, p.stock, p.down, p.up).checked()
        Traceback (most recent call last):
        ...
        spidersolve.state.position.PositionError: suits must be 1, 2 or 4, not 3
        """
        if not is_checked(self):
            self.validate()
            mark_checked(self)
        return self

    def validate(self) -> None:
        """Check SPEC section 8's validity rules; ``PositionError`` names the first broken.

        >>> from spidersolve.state import as_position
        >>> as_position("SP1-S1C-AAAAAAD").validate()
        """
        if not is_whole(self.suits) or self.suits not in (1, 2, 4):
            raise PositionError(f"suits must be 1, 2 or 4, not {shown(repr(self.suits))}")
        # tuples: a position never changes
        _check_fields(_check_tuple, self.removed, self.stock, self.down, self.up)
        if self.rules not in RULES:
            raise PositionError(f"rules must be classic or relaxed, not {self.rules!r}")
        if len(self.down) != N_COLS or len(self.up) != N_COLS:
            raise PositionError("a position has 10 columns")
        if len(self.stock) % 10:
            raise PositionError(f"stock: {len(self.stock)} cards is not a multiple of 10")
        if len(self.stock) > 50:
            raise PositionError(f"stock: {len(self.stock)} cards is more than 5 deals")
        for c in range(N_COLS):
            if self.down[c] and not self.up[c]:
                raise PositionError(
                    f"column {c + 1}: face-down cards are not covered by a face-up card"
                )
            if UNKNOWN in self.up[c]:
                raise PositionError(
                    f"column {c + 1}: '??' may stand only among face-down cards and in the stock"
                )
            if len(self.up[c]) >= 13 and is_complete_run(self.up[c][-13:]):
                raise PositionError(
                    f"column {c + 1}: ends in a complete run K..A of "
                    f"{SUIT_NAMES[card_suit(self.up[c][-1])]}, which would "
                    "already have been removed"
                )
        self._validate_cards()

    def _validate_cards(self) -> None:
        deck = deck_counts(self.suits)
        if len(self.removed) > 8:
            raise PositionError(f"removed: {len(self.removed)} runs is more than 8")
        for suit in self.removed:
            if not is_whole(suit) or not 0 <= suit < 4:
                raise PositionError(
                    f"removed: {shown(repr(suit))} is not a suit number (0..3: S, H, D, C)"
                )
        for line in (self.stock, *self.down, *self.up):
            for card in line:
                if not (is_card_number(card) or (is_whole(card) and card == UNKNOWN)):
                    raise PositionError(
                        f"cards: {shown(repr(card))} is not a card number "
                        "(suit * 16 + rank, rank 1..13, suit 0..3; 15 for ??)"
                    )
        seen = Counter(self.stock)
        for c in range(N_COLS):
            seen.update(self.down[c])
            seen.update(self.up[c])
        for suit in self.removed:
            for rank in range(1, 14):
                seen[make_card(rank, suit)] += 1
        unknown = seen.pop(UNKNOWN, 0)
        for card, count in sorted(seen.items()):
            if card not in deck:
                where = "removed" if any(card_suit(card) == s for s in self.removed) else "cards"
                raise PositionError(
                    f"{where}: {card_text(card)} is not in a {self.suits}-suit deck"
                )
            if count > deck[card]:
                err = PositionError(
                    f"cards: {card_text(card)} appears {count} times "
                    f"({self._lines_with(card)}), the {self.suits}-suit deck has {deck[card]}"
                )
                err.places = tuple(self._places_with(card))
                raise err
        total = sum(seen.values()) + unknown
        if total != 104:
            raise PositionError(f"cards: {total} cards with the removed runs, a deck has 104")

    def _places_with(self, card: int) -> list[str]:
        """The names of the lines that hold ``card``: ``['1', '4', 'stock', 'removed']``."""
        places = [str(c + 1) for c in range(N_COLS) if card in self.down[c] + self.up[c]]
        if card in self.stock:
            places.append("stock")
        if card_suit(card) in self.removed:
            places.append("removed")
        return places

    def _lines_with(self, card: int) -> str:
        """The lines that hold ``card``: ``columns 1 and 4, stock, removed``."""
        places = self._places_with(card)
        columns = [name for name in places if name.isdigit()]
        lines = []
        if columns:
            head = ", ".join(columns[:-1])
            numbers = f"{head} and {columns[-1]}" if head else columns[0]
            lines.append(f"column{'s' if head else ''} {numbers}")
        lines += [name for name in places if not name.isdigit()]
        return ", ".join(lines)

    # -- queries -----------------------------------------------------------
    @property
    def has_unknown(self) -> bool:
        """True when a face-down or stock card is not known (``??``, SPEC 11).

        >>> from spidersolve.state import as_position
        >>> from spidersolve.state.visible import visible_of
        >>> p = as_position("SP1-S1C-AAAAAAD")
        >>> p.has_unknown, visible_of(p).has_unknown
        (False, True)
        """
        return UNKNOWN in self.stock or any(UNKNOWN in col for col in self.down)

    @property
    def relaxed(self) -> bool:
        """True under Relaxed rules (groups of mixed suits move).

        >>> from spidersolve.state import as_position
        >>> as_position("SP1-S2R-AAAAAAD").relaxed
        True
        """
        return self.rules == "relaxed"

    def column(self, c: int) -> tuple[int, ...]:
        """Column ``c``'s cards (c = 0..9), face-down then face-up, bottom to top.

        >>> from spidersolve.cards import card_text
        >>> from spidersolve.state import as_position
        >>> " ".join(card_text(x) for x in as_position("SP1-S1C-AAAAAAD").column(0))
        '8S AS TS AS KS 2S'
        """
        check_column(c)
        return self.down[c] + self.up[c]

    def words(self) -> str:
        """The plain-words description of SPEC section 10.

        >>> from spidersolve.state import as_position
        >>> as_position("SP1-S1C-AAAAAAD").words()[:73]
        'Stock: 50 cards, 5 deals left; no runs removed. Column 1: 5 face down, th'
        """
        deals = len(self.stock) // 10
        if self.removed:
            names = ", ".join(SUIT_NAMES[s] for s in self.removed)
            runs = (
                f"{len(self.removed)} run{'s' if len(self.removed) != 1 else ''} removed ({names})"
            )
        else:
            runs = "no runs removed"
        parts = [
            f"Stock: {len(self.stock)} cards, {deals} deal{'s' if deals != 1 else ''} left; {runs}."
        ]
        cols = []
        for c in range(N_COLS):
            if not self.down[c] and not self.up[c]:
                cols.append(f"column {c + 1}: empty")
                continue
            up = ", ".join(card_words(x) for x in self.up[c])
            if self.down[c]:
                cols.append(f"column {c + 1}: {len(self.down[c])} face down, then {up}")
            else:
                cols.append(f"column {c + 1}: {up}")
        text = "; ".join(cols)
        return parts[0] + " " + text[0].upper() + text[1:] + "."


def _joined(head: str, items) -> str:
    return " ".join([head, *items]) if items else head


def words_of(text: str) -> list[str]:
    """The tokens of a line: separated by spaces and tabs only."""
    return [t for t in re.split(r"[ \t]+", text) if t]


def _without_zeros(token: str) -> str:
    """A number of one or two digits without its leading zeros (``'004'`` ->
    ``'4'``); any other token as it is."""
    return str(int(token)) if re.fullmatch(r"0*[0-9]{1,2}", token) else token


def _parse_header(line: str):
    tokens = words_of(ascii_lower(line))
    if len(tokens) != 3 or tokens[0] != "spider":
        raise PositionError(f"the first line must be like 'spider 4 classic', got '{shown(line)}'")
    suits = _without_zeros(tokens[1])
    if suits not in ("1", "2", "4"):  # '04' is 4, as '01:' is column 1
        raise PositionError(f"suits must be 1, 2 or 4, not '{shown(tokens[1])}'")
    if tokens[2] not in RULES:
        raise PositionError(f"rules must be classic or relaxed, not '{shown(tokens[2])}'")
    return int(suits), tokens[2]


def text_lines(text: str) -> list[str]:
    """The lines of position text: ``\n`` or ``\r\n`` ends a line (no other
    character does), and a leading byte-order mark, as some editors write, is
    skipped."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return [raw[:-1] if raw.endswith("\r") else raw for raw in text.split("\n")]


def _parse_suit(token: str) -> int:
    """A suit of ``removed:``: S, H, D or C, either case, or its symbol (as in cards)."""
    suit = suit_letter(token)
    if len(suit) != 1 or suit not in SUITS:
        raise PositionError(f"'{shown(token)}' is not a suit (S, H, D or C)")
    return SUITS.index(suit)


def _parse_column(tokens):
    if tokens.count("|") != 1:
        raise PositionError("a column needs exactly one '|' between face-down and face-up cards")
    bar = tokens.index("|")
    down = [parse_card(tok, allow_unknown=True) for tok in tokens[:bar]]
    up = []
    for tok in tokens[bar + 1 :]:
        if tok == "??":
            raise PositionError("'??' may stand only among face-down cards and in the stock")
        up.append(parse_card(tok))
    return down, up


def _lines_of(err: PositionError, where: dict[str, int]) -> str | None:
    """The line a whole-position error belongs to (``line 4``), when it names
    one; for a card that appears too often, the lines that hold it
    (``lines 3, 4, 13``: the error's ``places``)."""
    head = str(err).split(":", 1)[0].strip()
    if head.startswith("column "):
        head = head.split()[1]
    names = getattr(err, "places", None) or [head]
    numbers = sorted({where[name] for name in names if name in where})
    if not numbers:
        return None
    return f"line{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))}"
