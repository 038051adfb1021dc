"""Actions in words a person can follow on a real table (SPEC sections 5, 7, 10).

One sentence per action: which cards move, onto which card or into which
empty column, which card turns up, which runs are complete and leave the
table, how many deals are left. Everything said comes from playing the
action with the reference rules (``rules.apply``) and comparing the columns
before and after, so the words cannot disagree with the rules.

>>> from spidersolve.state import GameCode
>>> action_sentence(GameCode.parse("SP1-S1C-AAAAAAD").position(), Action.parse("1>8"))
'move the 2S from column 1 onto the 3S in column 8; the KS in column 1 turns up'
"""

from __future__ import annotations

from typing import NamedTuple

from ..cards import SUIT_NAMES, UNKNOWN, card_text, make_card
from .actions import Action, check_line, parse_line
from .game import Game
from .position import N_COLS, Position
from .rules import IllegalAction, apply

# Stands in for an unknown card while the action is played: a king never
# completes a run by turning up or by being dealt, so it changes nothing else.
_STAND_IN = make_card(13, 0)


class Outcome(NamedTuple):
    """What one action does, in table terms (columns 0..9).

    ``cards``: the cards moved, bottom to top (empty for a deal); ``onto``:
    the card they land on, or None for an empty column (and for a deal);
    ``runs``: ``(col, suit, number)`` for each run removed, in the order of
    ``removed:``, ``number`` counting every run removed so far (1..8);
    ``turned``: ``(col, card)`` for each card turned face up, ``card`` being
    ``UNKNOWN`` for a ``??``; ``emptied``: the columns the action leaves empty;
    ``deals_left``: the deals left in the stock afterwards.
    """

    action: Action
    cards: tuple[int, ...]
    onto: int | None
    runs: tuple[tuple[int, int, int], ...]
    turned: tuple[tuple[int, int], ...]
    emptied: tuple[int, ...]
    deals_left: int


def action_outcome(position: Position, action: Action) -> Outcome:
    """Play ``action`` from ``position`` with the reference rules and say what changed.

    A ``??`` that turns up (or is dealt) is played as a stand-in card that
    cannot complete a run, and reported as ``UNKNOWN``. An illegal action
    raises ``IllegalAction`` with the rule it breaks.
    """
    known = _with_stand_ins(position)
    after, _suits = apply(known, action)
    piles = [list(col) for col in position.up]
    cards: tuple[int, ...] = ()
    onto = None
    if action.is_deal:
        for c in range(N_COLS):
            piles[c].append(position.stock[c])
    else:
        src, dst, n = action
        cards = tuple(piles[src][-n:])
        onto = piles[dst][-1] if piles[dst] else None
        piles[dst].extend(cards)
        del piles[src][-n:]
    runs: list[tuple[int, int, int]] = []
    turned: list[tuple[int, int]] = []
    emptied: list[int] = []
    for c in range(N_COLS):
        turned_here = len(position.down[c]) - len(after.down[c])
        n_runs = (len(piles[c]) + turned_here - len(after.up[c])) // 13
        # The reference removes at most one run per column and pass, so a
        # column's second run comes after the other columns' first ones.
        runs.extend((j, c, piles[c][-13 * j - 1]) for j in range(n_runs))
        if turned_here:
            turned.append((c, position.down[c][-1]))
        elif not after.up[c] and (piles[c] or position.up[c]):
            emptied.append(c)
    runs.sort()
    before = len(position.removed)
    return Outcome(
        action,
        cards,
        onto,
        tuple((c, card >> 4, before + i + 1) for i, (_j, c, card) in enumerate(runs)),
        tuple(turned),
        tuple(emptied),
        len(after.stock) // 10,
    )


def outcome_sentence(outcome: Outcome) -> str:
    """The sentence for an ``Outcome`` (see ``action_sentence``)."""
    action = outcome.action
    if action.is_deal:
        left = outcome.deals_left
        if left == 0:
            parts = ["deal the last row (no deals left)"]
        else:
            parts = [f"deal a row ({left} deal{'s' if left != 1 else ''} left)"]
    else:
        names = " ".join(card_text(c) for c in outcome.cards)
        moved = f"the {names}" if len(outcome.cards) == 1 else names
        where = (
            f"to the empty column {action.dst + 1}"
            if outcome.onto is None
            else f"onto the {card_text(outcome.onto)} in column {action.dst + 1}"
        )
        parts = [f"move {moved} from column {action.src + 1} {where}"]
    for col, suit, number in outcome.runs:
        won = ": the game is won" if number == 8 else ""
        parts.append(
            f"the {SUIT_NAMES[suit]} run in column {col + 1} is complete and leaves "
            f"the table ({number} of 8{won})"
        )
    for col, card in outcome.turned:
        if card == UNKNOWN:
            parts.append(f"a face-down card in column {col + 1} turns up (not known here)")
        else:
            parts.append(f"the {card_text(card)} in column {col + 1} turns up")
    if outcome.emptied:
        cols = [str(c + 1) for c in outcome.emptied]
        if len(cols) == 1:
            parts.append(f"column {cols[0]} is left empty")
        else:
            parts.append(f"columns {', '.join(cols[:-1])} and {cols[-1]} are left empty")
    return "; ".join(parts)


def action_sentence(position: Position, action: Action) -> str:
    """One sentence for ``action`` played from ``position``.

    >>> from spidersolve.state import GameCode
    >>> start = GameCode.parse("SP1-S1C-AAAAAAD").position()
    >>> action_sentence(start, Action.parse("deal"))
    'deal a row (4 deals left)'
    """
    return outcome_sentence(action_outcome(position, action))


def line_sentences(start, line) -> list[str]:
    """The sentence of every action of ``line`` (text or actions) from a Game or Position.

    An illegal action raises ``IllegalAction`` naming its index, as ``replay`` does.
    """
    game = start if isinstance(start, Game) else Game.start(start)
    check_line(line)
    actions = parse_line(line) if isinstance(line, str) else list(line)
    sentences = []
    for i, action in enumerate(actions, start=1):
        try:
            sentences.append(action_sentence(game.position, action))
            if i < len(actions):
                game = game.play(action)
        except IllegalAction as err:
            raise IllegalAction(f"action {i} ({action.text()}): {err}") from None
    return sentences


def _with_stand_ins(position: Position) -> Position:
    if not (any(UNKNOWN in col for col in position.down) or UNKNOWN in position.stock):
        return position

    def fill(cards):
        return tuple(_STAND_IN if c == UNKNOWN else c for c in cards)

    # Not validated: the stand-ins break the deck count, which apply never checks.
    return Position(
        position.suits,
        position.rules,
        position.removed,
        fill(position.stock),
        tuple(fill(col) for col in position.down),
        position.up,
    )


__all__ = ["Outcome", "action_outcome", "action_sentence", "line_sentences", "outcome_sentence"]
