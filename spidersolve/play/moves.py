"""The cards a short command of ``play`` means: ``7>3`` without a count, ``7`` alone.

``fitting_action`` gives the cards ``SRC>DST`` moves (one card, as SPEC
section 7 reads it, or the group that fits where one card cannot go), and
``click_action`` where a click sends a column's group.
"""

from __future__ import annotations

from ..cards import RANKS, card_rank, card_suit, card_text
from ..state import Action, why_illegal
from ..state.position import N_COLS
from ..state.rules import run_length


def fitting_action(pos, src: int, dst: int) -> tuple[Action | None, str | None]:
    """``SRC>DST`` without a count: one card, as SPEC section 7 reads it, when one
    card can go (always onto an empty column); onto a card where it cannot, the
    one group of src that fits there (``8>7`` plays ``8>7x2`` when 3S 2S go onto
    a 4). So every line (SPEC notation) replays as typed.

    Returns the action, or None and the rule that refuses every size.
    """
    up = pos.up[src]
    if src == dst:
        return None, "a column cannot move onto itself"
    if not up:
        return None, f"column {src + 1} is empty"
    run = run_length(up, pos.relaxed)
    if not pos.up[dst]:
        return Action(src, dst, 1), None
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
