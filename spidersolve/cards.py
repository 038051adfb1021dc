"""Ranks, suits and card text (SPEC section 1).

A card is a small int: ``suit * 16 + rank`` with rank 1 (ace) .. 13 (king)
and suit 0..3 for S, H, D, C.  It fits in 6 bits, which the packed state
relies on.  ``UNKNOWN`` (15) stands for a face-down card that is not known
(``??`` in position text); 0 is never a card.

>>> card_text(parse_card("10h"))
'TH'
"""

from __future__ import annotations

from .errors import SpiderError, is_whole, shown

SUITS = "SHDC"
RANKS = "A23456789TJQK"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
UNKNOWN = 15
N_CARDS = 104

# The symbols SPEC section 1 lists, and no others (the outline forms are refused).
_SYMBOLS = {
    "\u2660": "S",
    "\u2665": "H",
    "\u2666": "D",
    "\u2663": "C",
}


class CardError(SpiderError):
    """A card's text is not a card."""


_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_upper(text: str) -> str:
    """``text`` with a-z in upper case and nothing else changed.

    ``str.upper`` maps other letters onto ASCII ones (the long s, ``\u017f``,
    becomes ``S``); every keyword of the formats is ASCII, so only ASCII
    letters are folded.
    """
    return text.translate(_UPPER)


def ascii_lower(text: str) -> str:
    """``text`` with A-Z in lower case and nothing else changed (see ``ascii_upper``)."""
    return text.translate(_LOWER)


# White space between tokens and around them: ASCII space and tab only (a
# form feed, \x85 or \u2028 in a line is a character of a token, not a break).
BLANKS = " \t"


def make_card(rank: int, suit: int) -> int:
    return suit * 16 + rank


def is_card_number(value) -> bool:
    """True for a card's number (``make_card``: suit 0..3, rank 1..13), a whole
    number (a Python or numpy integer, not a bool); False for ``UNKNOWN``.

    >>> is_card_number(make_card(13, 3)), is_card_number(14), is_card_number(1.0)
    (True, False, False)
    """
    if not is_whole(value):
        return False
    return 0 <= value >> 4 < 4 and 1 <= value & 15 <= 13


def card_rank(card: int) -> int:
    return card & 15


def card_suit(card: int) -> int:
    return card >> 4


def card_text(card: int) -> str:
    if card == UNKNOWN:
        return "??"
    return RANKS[card_rank(card) - 1] + SUITS[card_suit(card)]


def card_words(card: int) -> str:
    if card == UNKNOWN:
        return "an unknown card"
    return f"{RANK_NAMES[card_rank(card) - 1]} of {SUIT_NAMES[card_suit(card)]}"


def suit_letter(text: str) -> str:
    """``text`` upper-cased, or a suit symbol's letter: ``♥`` -> ``H``."""
    return _SYMBOLS.get(text, ascii_upper(text))


def parse_card(text: str, allow_unknown: bool = False) -> int:
    """Read a card: ``AS``, ``10h``, ``T\u2665``; ``??`` when allowed."""
    raw = text.strip(BLANKS)
    if raw == "??":
        if allow_unknown:
            return UNKNOWN
        raise CardError("'??' (an unknown card) is not allowed here")
    if len(raw) < 2:
        raise CardError(f"'{shown(text)}' is not a card")
    rank_text, suit_text = ascii_upper(raw[:-1]), suit_letter(raw[-1])
    if rank_text == "10":
        rank_text = "T"
    head = "10" if raw.startswith("10") else raw[0]
    rest = raw[len(head) :]
    if (
        len(rest) > 1
        and (head == "10" or ascii_upper(head) in RANKS)
        and suit_letter(rest[0]) in SUITS
    ):
        # '2SS', '10HH': a card and more, not a rank of two letters
        raise CardError(f"'{shown(text)}' is not a card: a rank and a suit, then more")
    if len(rank_text) != 1 or rank_text not in RANKS:
        raise CardError(f"'{shown(text)}' is not a card: unknown rank '{shown(raw[:-1])}'")
    if suit_text not in SUITS:
        raise CardError(f"'{shown(text)}' is not a card: unknown suit '{shown(raw[-1])}'")
    return make_card(RANKS.index(rank_text) + 1, SUITS.index(suit_text))


def ordered_deck(suits: int) -> list[int]:
    """The 104-card deck for 1, 2 or 4 suits, before shuffling (SPEC 1)."""
    return [make_card(k % 13 + 1, (k // 13) % suits) for k in range(N_CARDS)]


def deck_counts(suits: int) -> dict[int, int]:
    counts: dict[int, int] = {}
    for card in ordered_deck(suits):
        counts[card] = counts.get(card, 0) + 1
    return counts
