"""What a player sees (SPEC section 11): the visible position, the unseen
cards, samples of the hidden cards, and naming a card when it turns up.

A visible position is a position with ``??`` (``cards.UNKNOWN``) for every
card the player cannot see: face-down cards and stock cards. The *places*
of the unknown cards are listed in one fixed order, columns 1..10 bottom to
top, then the stock in deal order; a sample fills them with a uniformly
shuffled list of the unseen cards, so every assignment is equally likely.

>>> from spidersolve.state import GameCode
>>> view = visible_of(GameCode.parse("SP1-S1C-AAAAAAD").position())
>>> view.stock[:3], sum(unseen_cards(view).values())
((15, 15, 15), 94)
"""

from __future__ import annotations

import hashlib
from collections import Counter

import numpy as np

from ..cards import UNKNOWN, card_text, deck_counts, is_card_number, make_card
from ..errors import SpiderError, shown
from .position import N_COLS, Position, PositionError, check_column, mark_checked
from .source import as_position

# The stream a sample draws from: SeedSequence(seed, digest of the visible text).
SAMPLE_STREAM = 0x51DE


def visible_of(pos: Position) -> Position:
    """The position as a player sees it: every face-down and stock card ``??``.

    ``pos`` is a Position or anything ``as_position`` reads.
    """
    pos = as_position(pos)
    # the visible form of a valid position is valid (SPEC 11): checked already
    return mark_checked(
        Position(
            pos.suits,
            pos.rules,
            pos.removed,
            (UNKNOWN,) * len(pos.stock),
            tuple((UNKNOWN,) * len(col) for col in pos.down),
            pos.up,
        )
    )


def unseen_cards(pos: Position) -> Counter:
    """The cards not known anywhere in ``pos``: the deck less every known card.

    As many cards as ``pos`` has ``??`` places (``Position`` validity).
    """
    left = Counter(deck_counts(pos.suits))
    known = Counter(c for c in pos.stock if c != UNKNOWN)
    for c in range(N_COLS):
        known.update(x for x in pos.down[c] if x != UNKNOWN)
        known.update(pos.up[c])
    for suit in pos.removed:
        known.update(make_card(rank, suit) for rank in range(1, 14))
    left.subtract(known)
    return Counter({card: n for card, n in left.items() if n > 0})


def unknown_count(pos: Position) -> int:
    """How many ``??`` places ``pos`` has."""
    return pos.stock.count(UNKNOWN) + sum(col.count(UNKNOWN) for col in pos.down)


def fill(pos: Position, cards) -> Position:
    """``pos`` with its ``??`` places filled by ``cards``, in the places' order."""
    cards = list(cards)
    if len(cards) != unknown_count(pos):
        raise SpiderError(f"{len(cards)} cards for {unknown_count(pos)} unknown places")
    it = iter(cards)
    down = tuple(tuple(next(it) if x == UNKNOWN else x for x in col) for col in pos.down)
    stock = tuple(next(it) if x == UNKNOWN else x for x in pos.stock)
    return Position.make(pos.suits, pos.rules, down, pos.up, stock, pos.removed)


def sample_rng(pos: Position, seed: int) -> np.random.Generator:
    """The generator for samples of ``pos``: a function of its text and ``seed`` alone."""
    digest = hashlib.sha256(pos.to_text().encode()).digest()
    words = [int.from_bytes(digest[i : i + 4], "little") for i in range(0, 32, 4)]
    return np.random.Generator(
        np.random.PCG64(
            np.random.SeedSequence(
                [SAMPLE_STREAM, int(seed) & 0xFFFFFFFF, int(seed) >> 32 & 0xFFFFFFFF, *words]
            )
        )
    )


def sample_hidden(pos: Position, rng: np.random.Generator) -> Position:
    """One uniform sample: the unseen cards shuffled into the ``??`` places."""
    unseen = unseen_cards(pos)
    cards = [card for card in sorted(unseen) for _ in range(unseen[card])]
    order = rng.permutation(len(cards))
    return fill(pos, [cards[i] for i in order])


def samples(pos: Position, count: int, seed: int = 0) -> list[Position]:
    """``count`` samples of ``pos``, drawn in order from ``sample_rng(pos, seed)``.

    The first k samples do not depend on ``count``.
    """
    rng = sample_rng(pos, seed)
    return [sample_hidden(pos, rng) for _ in range(count)]


def agrees(view: Position, full: Position) -> bool:
    """True when ``full`` fills ``view``: the same position wherever ``view`` knows a card."""
    if (view.suits, view.rules, view.removed, view.up) != (
        full.suits,
        full.rules,
        full.removed,
        full.up,
    ):
        return False
    if len(view.stock) != len(full.stock) or any(
        len(v) != len(f) for v, f in zip(view.down, full.down)
    ):
        return False
    pairs = list(zip(view.stock, full.stock))
    for v, f in zip(view.down, full.down):
        pairs += zip(v, f)
    return not full.has_unknown and all(v in (UNKNOWN, f) for v, f in pairs)


def name_down(pos: Position, col: int, card: int) -> Position:
    """Name the top face-down card of column ``col`` (0..9): the one that turns up next.

    The card must be one of the unseen cards; an error names what is wrong.
    """
    check_column(col)
    down = pos.down[col]
    if not down:
        raise PositionError(f"column {col + 1} has no face-down card")
    if down[-1] != UNKNOWN:
        raise PositionError(
            f"column {col + 1}: its top face-down card is already known ({card_text(down[-1])})"
        )
    _check_unseen(pos, [card])
    cols = list(pos.down)
    cols[col] = down[:-1] + (card,)
    return Position.make(pos.suits, pos.rules, cols, pos.up, pos.stock, pos.removed)


def name_deal(pos: Position, cards) -> Position:
    """Name the next ten stock cards, in deal order (column 1 first).

    Cards already known must be named as they are; the others must be unseen.
    """
    cards = list(cards)
    if not pos.stock:
        raise PositionError("the stock is empty: there is no deal to name")
    if len(cards) != N_COLS:
        raise PositionError(f"a deal is ten cards, one a column; {len(cards)} given")
    new = []
    for i, (known, card) in enumerate(zip(pos.stock, cards)):
        if known != UNKNOWN and known != card:
            raise PositionError(
                f"card {i + 1} of the deal is known to be {card_text(known)}, not {card_text(card)}"
            )
        if known == UNKNOWN:
            new.append(card)
    _check_unseen(pos, new)
    stock = tuple(cards) + pos.stock[N_COLS:]
    return Position.make(pos.suits, pos.rules, pos.down, pos.up, stock, pos.removed)


def _check_unseen(pos: Position, cards) -> None:
    unseen = unseen_cards(pos)
    left = unseen.copy()  # what the cards named so far leave
    for card in cards:
        if card == UNKNOWN:
            raise PositionError("name a card, not '??'")
        if not is_card_number(card):
            raise PositionError(
                f"{shown(repr(card))} is not a card number (suit * 16 + rank, rank 1..13)"
            )
        if left[card] <= 0:
            if card not in deck_counts(pos.suits):
                raise PositionError(f"{card_text(card)} is not in a {pos.suits}-suit deck")
            text = card_text(card)
            if unseen[card] > 0:  # the cards named before it took the unseen ones
                times = sum(1 for c in cards if c == card)
                raise PositionError(
                    f"{text} is named {times} times, but only {unseen[card]} "
                    f"{text} {'is' if unseen[card] == 1 else 'are'} unseen"
                )
            raise PositionError(
                f"{text} cannot be hidden here: every {text} of the deck is already seen"
            )
        left[card] -= 1
