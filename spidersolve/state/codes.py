"""Game codes (``SP1-S4C-AAAAAAD``), the splitmix64 shuffle, the layout, and
PySolFC deal numbers (SPEC sections 3, 4 and 4a)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..cards import N_CARDS, ascii_lower, ascii_upper, make_card, ordered_deck
from ..errors import SpiderError, is_whole, shown
from .position import RULES, Position

# white space a code may have around it (ASCII only, as everywhere)
_AROUND = " \t\r\n"

BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
MAX_DEAL = 2**35 - 1
MASK64 = 2**64 - 1


class CodeError(SpiderError):
    """A game code or a PySolFC deal name is malformed.

    >>> GameCode.parse("SP1-S3C-AAAAAAD")
    Traceback (most recent call last):
    ...
    spidersolve.state.codes.CodeError: game code 'SP1-S3C-AAAAAAD': second part 'S3C' must be S, then 1, 2 or 4 suits, then C (classic) or R (relaxed)
    """


@dataclass(frozen=True)
class GameCode:
    """A deal named by suits, rules and deal number.

    >>> GameCode.parse("sp1-s1r-aaaaaad")
    GameCode.parse('SP1-S1C-AAAAAAD')
    """

    suits: int
    rules: str
    deal_number: int

    def __post_init__(self):
        if not is_whole(self.suits) or self.suits not in (1, 2, 4):
            raise CodeError(f"suits must be 1, 2 or 4, not {shown(repr(self.suits))}")
        if self.rules not in RULES:
            raise CodeError(f"rules must be classic or relaxed, not {self.rules!r}")
        if not is_whole(self.deal_number) or not 0 <= self.deal_number <= MAX_DEAL:
            raise CodeError(
                f"deal number must be 0 .. {MAX_DEAL}, not {shown(repr(self.deal_number))}"
            )
        # a numpy integer (a deal number from np.arange) is the same number
        object.__setattr__(self, "suits", int(self.suits))
        object.__setattr__(self, "deal_number", int(self.deal_number))
        if self.suits == 1:
            object.__setattr__(self, "rules", "classic")

    @classmethod
    def parse(cls, text: str) -> GameCode:
        """Read a game code (SPEC section 4), any case, white space around it.

        >>> GameCode.parse(" sp1-s4c-aaaaaad ").deal_number
        3
        """
        if not isinstance(text, str):
            raise CodeError(f"a game code is text, not {shown(repr(text))}")
        raw = text.strip(_AROUND)
        parts = ascii_upper(raw).split("-")
        if not raw:
            raise CodeError("empty game code")
        raw = shown(raw)
        if len(parts) != 3:
            raise CodeError(
                f"game code '{raw}' must have three parts separated by '-', like SP1-S1C-AAAAAAD"
            )
        head, game, number = parts
        if head != "SP1":
            raise CodeError(f"game code '{raw}' must start with SP1, not '{shown(parts[0])}'")
        if not re.fullmatch(r"S[124][CR]", game):
            raise CodeError(
                f"game code '{raw}': second part '{shown(game)}' must be S, then "
                "1, 2 or 4 suits, then C (classic) or R (relaxed)"
            )
        if len(number) != 7:
            raise CodeError(
                f"game code '{raw}': deal part '{shown(number)}' must be 7 base32 "
                f"characters, not {len(number)}"
            )
        bad = [ch for ch in number if ch not in BASE32]
        if bad:
            raise CodeError(
                f"game code '{raw}': '{shown(bad[0])}' is not a base32 character (A-Z, 2-7)"
            )
        deal = 0
        for ch in number:
            deal = deal * 32 + BASE32.index(ch)
        return cls(int(game[1]), "classic" if game[2] == "C" else "relaxed", deal)

    def text(self) -> str:
        """The canonical code, upper case: ``GameCode.parse(code.text()) == code``.

        >>> GameCode(2, "relaxed", 33).text()
        'SP1-S2R-AAAAABB'
        """
        digits = []
        n = self.deal_number
        for _ in range(7):
            digits.append(BASE32[n % 32])
            n //= 32
        rule = "C" if self.rules == "classic" else "R"
        return f"SP1-S{self.suits}{rule}-{''.join(reversed(digits))}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"GameCode.parse({self.text()!r})"

    def deck(self) -> list[int]:
        """The shuffled deck d[0..103] of SPEC section 4.

        >>> len(GameCode.parse("SP1-S1C-AAAAAAD").deck())
        104
        """
        return shuffled_deck(self.suits, self.deal_number)

    def position(self) -> Position:
        """The start position of this deal (SPEC section 3: the deck laid out).

        >>> from spidersolve.cards import card_text
        >>> pos = GameCode.parse("SP1-S1C-AAAAAAD").position()
        >>> len(pos.stock), [card_text(col[0]) for col in pos.up[:3]]
        (50, ['2S', '6S', 'QS'])
        """
        return Position.from_deck(self.suits, self.rules, self.deck())


def splitmix64(state: int):
    """Yield the splitmix64 sequence that starts at ``state``."""
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def shuffled_deck(suits: int, deal_number: int) -> list[int]:
    deck = ordered_deck(suits)
    rng = splitmix64(deal_number)
    for i in range(N_CARDS - 1, 0, -1):
        j = next(rng) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# --- PySolFC ------------------------------------------------------------

_PYSOL_SUITS = {1: "CCCC", 2: "CCHH", 4: "CSHD"}
_PYSOL_TO_OURS = {1: {"C": 0}, 2: {"C": 0, "H": 1}, 4: {"S": 0, "H": 1, "D": 2, "C": 3}}


@dataclass(frozen=True)
class PysolDeal:
    """A PySolFC Spider game: ``pysol:SUITS:NUMBER`` (SPEC 4a).

    >>> deal = PysolDeal.parse("PySol:4:14934")
    >>> deal, deal.text()
    (PysolDeal(suits=4, number='14934'), 'pysol:4:14934')
    """

    suits: int
    number: str  # digits, or 'ms' + digits

    def __post_init__(self):
        if not is_whole(self.suits) or self.suits not in (1, 2, 4):
            raise CodeError(f"PySolFC suits must be 1, 2 or 4, not {shown(repr(self.suits))}")
        object.__setattr__(self, "suits", int(self.suits))
        number = self.number
        if is_whole(number) and number >= 0:
            number = str(int(number))  # PysolDeal(4, 5) is pysol:4:5
        if not isinstance(number, str):
            raise CodeError(
                f"a PySolFC game number is digits or ms + digits, not {shown(repr(number))}"
            )
        digits = re.fullmatch(r"(ms)?([0-9]+)", ascii_lower(number))
        if digits:  # 0005 is game 5, named pysol:S:5
            number = (digits.group(1) or "") + (digits.group(2).lstrip("0") or "0")
        object.__setattr__(self, "number", number)

    @classmethod
    def parse(cls, text: str) -> PysolDeal:
        """Read ``pysol:SUITS:NUMBER`` (NUMBER: digits, or ``ms`` and digits).

        >>> PysolDeal.parse("pysol:1:ms7").number
        'ms7'
        """
        if not isinstance(text, str):
            raise CodeError(f"a game code is text, not {shown(repr(text))}")
        raw = text.strip(_AROUND)
        m = re.fullmatch(r"pysol:([0-9]{1,3}):([!-~]+)", ascii_lower(raw))
        if not m:
            raise CodeError(
                f"'{shown(raw)}' is not a PySolFC deal: write pysol:SUITS:NUMBER, "
                "like pysol:4:14934"
            )
        suits = int(m.group(1))
        if suits not in (1, 2, 4):
            raise CodeError(f"'{shown(raw)}': suits must be 1, 2 or 4, not {suits}")
        deal = cls(suits, m.group(2))  # 0005 is game 5, named pysol:S:5
        deal._generator()  # validates the number
        return deal

    def text(self) -> str:
        """The canonical name, lower case.

        >>> PysolDeal(2, "5").text()
        'pysol:2:5'
        """
        return f"pysol:{self.suits}:{self.number}"

    def __str__(self) -> str:
        return self.text()

    def _generator(self):
        from pysol_cards.random import LCRandom31, MTRandom

        name = shown(self.text())
        m = re.fullmatch(r"(ms)?([0-9]+)", self.number)
        if not m:
            raise CodeError(f"'{name}': game number must be digits or ms + digits")
        digits = m.group(2).lstrip("0") or "0"
        n = int(digits) if len(digits) <= 30 else 10**30  # past every range below
        if m.group(1):
            if not 1 <= n < 2**33:
                raise CodeError(f"'{name}': ms numbers must be 1 .. 2^33 - 1")
            return LCRandom31(n)
        if 1 <= n < 32000:
            return LCRandom31(n)
        if 32000 <= n < 10**20:
            return MTRandom(n)
        raise CodeError(f"'{name}': game number must be 1 .. 10^20 - 1, not {shown(digits)}")

    def position(self) -> Position:
        """The start position of PySolFC's game with this number (its own shuffle).

        >>> from spidersolve.cards import card_text
        >>> pos = PysolDeal.parse("pysol:4:14934").position()
        >>> len(pos.stock), [card_text(col[0]) for col in pos.up[:3]]
        (50, ['5S', 'KH', '2H'])
        """
        cards = []
        for _deck in range(2):
            for suit_char in _PYSOL_SUITS[self.suits]:
                for rank in range(1, 14):
                    cards.append(make_card(rank, _PYSOL_TO_OURS[self.suits][suit_char]))
        rng = self._generator()
        rng.reset()
        rng.shuffle(cards)
        down: list[list[int]] = [[] for _ in range(10)]
        up: list[list[int]] = [[] for _ in range(10)]
        for _row in range(4):
            for col in range(10):
                down[col].append(cards.pop())
        for col in (0, 3, 6, 9):
            down[col].append(cards.pop())
        for col in range(10):
            up[col].append(cards.pop())
        stock = list(reversed(cards))
        return Position.make(self.suits, "classic", down, up, stock, ())
