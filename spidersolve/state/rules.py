"""The reference rules (SPEC sections 5-7): actions, their notation, applying
them, the move counter and the score.

This is the readable oracle. The numba kernels in ``_kernels.py`` must agree
with it on every position; a winning line is verified by replaying it here.

>>> position, removed = apply("SP1-S1C-AAAAAAD", "10>2")
>>> card_text(position.up[9][0]), removed  # the 9S turned up, no run removed
('9S', [])
"""

from __future__ import annotations

from ..cards import UNKNOWN, card_rank, card_suit, card_text
from ..errors import SpiderError
from .actions import DEAL, Action, as_action, line_text, parse_line  # noqa: F401 (re-exported)
from .position import N_COLS, Position, is_checked, is_complete_run, mark_checked
from .source import as_position

START_SCORE = 500


class IllegalAction(SpiderError):
    """An action that the rules refuse; the message gives the rule.

    Examples
    --------
    >>> apply("SP1-S1C-AAAAAAD", "1>1")
    Traceback (most recent call last):
    ...
    spidersolve.state.rules.IllegalAction: 1>1 is illegal: a column cannot move onto itself
    """


class HiddenCard(IllegalAction):
    """A legal action that would turn up, or deal, a card that is not known (``??``).

    ``col`` is the column (0..9) whose unknown face-down card would turn up,
    or None when a deal would take unknown stock cards. Name the card first
    (``state.visible.name_down`` / ``name_deal``), then play the action again.

    Examples
    --------
    >>> from spidersolve.state.visible import visible_of
    >>> view = visible_of(as_position("SP1-S1C-AAAAAAD"))
    >>> try:
    ...     apply(view, "deal")
    ... except HiddenCard as err:
    ...     print(err.col, err)
    None the deal would deal 10 unknown stock cards (??): write the next ten stock cards in the position (in play: deal CARD ... , ten cards)
    """

    def __init__(self, message: str, col: int | None):
        super().__init__(message)
        self.col = col


def run_length(cards, relaxed: bool) -> int:
    """How many cards at the top of a face-up pile form a movable group."""
    if not cards:
        return 0
    n = 1
    while n < len(cards):
        lower, upper = cards[-n - 1], cards[-n]
        if card_rank(lower) != card_rank(upper) + 1:
            break
        if not relaxed and card_suit(lower) != card_suit(upper):
            break
        n += 1
    return n


def legal_actions(pos) -> list[Action]:
    """Every legal action, moves by (src, dst, n_cards) and then the deal.

    This is the documented order that the kernels reproduce.

    Parameters
    ----------
    pos : Position, Game, GameCode, PysolDeal or str
        The position, or anything ``as_position`` reads.

    Examples
    --------
    >>> actions = legal_actions("SP1-S1C-AAAAAAD")
    >>> len(actions), line_text(actions[:3]), actions[-1]
    (8, '1>8 6>1 7>10', Action.parse('deal'))
    """
    if not isinstance(pos, Position):
        pos = as_position(pos)
    actions: list[Action] = []
    for src in range(N_COLS):
        run = run_length(pos.up[src], pos.relaxed)
        if not run:
            continue
        top_rank = card_rank(pos.up[src][-1])
        for dst in range(N_COLS):
            if dst == src:
                continue
            if not pos.up[dst]:  # empty column: every group size
                actions.extend(Action(src, dst, n) for n in range(1, run + 1))
            else:
                n = card_rank(pos.up[dst][-1]) - top_rank
                if 1 <= n <= run:
                    actions.append(Action(src, dst, n))
    if pos.stock and all(pos.up[c] for c in range(N_COLS)):
        actions.append(DEAL)
    return actions


def why_illegal(pos, action) -> str | None:
    """The rule an action breaks in ``pos``, or None when it is legal.

    ``pos`` is anything ``as_position`` reads, ``action`` an Action or its text.

    Examples
    --------
    >>> why_illegal("SP1-S1C-AAAAAAD", "1>2") is None
    False
    >>> why_illegal("SP1-S1C-AAAAAAD", "10>2") is None
    True
    """
    if not isinstance(pos, Position):
        pos = as_position(pos)
    return _why_illegal(pos, as_action(action))


def _why_illegal(pos: Position, action: Action) -> str | None:
    """``why_illegal`` of a Position and an Action ``as_action`` has checked."""
    if action.is_deal:
        if not pos.stock:
            return "the stock is empty"
        empty = [c + 1 for c in range(N_COLS) if not pos.up[c]]
        if empty:
            return f"no deal while a column is empty (column {empty[0]})"
        return None
    src, dst, n = action
    if src == dst:
        return "a column cannot move onto itself"
    up = pos.up[src]
    if not up:
        return f"column {src + 1} is empty"
    if n > len(up):
        return f"column {src + 1} has {len(up)} face-up card{'s' if len(up) != 1 else ''}, not {n}"
    run = run_length(up, pos.relaxed)
    if n > run:
        group = up[-n:]
        for i in range(len(group) - 1):
            if card_rank(group[i]) != card_rank(group[i + 1]) + 1:
                return (
                    f"{card_text(group[i + 1])} is not one rank below {card_text(group[i])}: "
                    "the group is not a descending run"
                )
        return (
            f"the group {' '.join(card_text(c) for c in group)} is not one suit, "
            "as Classic rules require"
        )
    if not pos.up[dst]:
        return None
    top, bottom = pos.up[dst][-1], up[-n]
    if card_rank(top) == 1:
        return f"nothing can go onto an ace (column {dst + 1} ends in {card_text(top)})"
    if card_rank(top) != card_rank(bottom) + 1:
        return (
            f"{card_text(bottom)} is not one rank below {card_text(top)} "
            f"(the top card of column {dst + 1})"
        )
    return None


def apply(pos, action) -> tuple[Position, list[int]]:
    """Play a legal action: the new position and the suits of the runs it removed.

    Parameters
    ----------
    pos : Position, Game, GameCode, PysolDeal or str
        The position, or anything ``as_position`` reads.
    action : Action or str
        The action or its text.

    Raises
    ------
    IllegalAction
        When the rules refuse the action (the message names the rule);
        ``HiddenCard`` when it would turn up or deal a card written ``??``.

    Examples
    --------
    >>> after, removed = apply("SP1-S1C-AAAAAAD", "10>2")
    >>> " ".join(card_text(c) for c in after.up[1]), removed
    ('6S 5S', [])
    """
    if not isinstance(pos, Position):
        pos = as_position(pos)
    action = as_action(action)
    reason = _why_illegal(pos, action)
    if reason:
        raise IllegalAction(f"{action.text()} is illegal: {reason}")
    down = [list(c) for c in pos.down]
    up = [list(c) for c in pos.up]
    stock = list(pos.stock)
    if action.is_deal:
        unknown = stock[:N_COLS].count(UNKNOWN)
        if unknown:
            raise HiddenCard(
                f"the deal would deal {unknown} unknown stock card"
                f"{'s' if unknown != 1 else ''} (??): write the next ten stock cards in the "
                "position (in play: deal CARD ... , ten cards)",
                None,
            )
        for c in range(N_COLS):
            up[c].append(stock.pop(0))
    else:
        src, dst, n = action
        up[dst].extend(up[src][-n:])
        del up[src][-n:]
    removed = settle(down, up)
    new = Position(
        pos.suits,
        pos.rules,
        pos.removed + tuple(removed),
        tuple(stock),
        tuple(map(tuple, down)),
        tuple(map(tuple, up)),
    )
    if is_checked(pos):  # a legal action keeps a valid position valid
        mark_checked(new)
    return new, removed


def settle(down, up) -> list[int]:
    """Remove complete runs and turn up cards until nothing changes (in place)."""
    removed = []
    changed = True
    while changed:
        changed = False
        for c in range(N_COLS):
            if len(up[c]) >= 13 and is_complete_run(up[c][-13:]):
                removed.append(card_suit(up[c][-1]))
                del up[c][-13:]
                changed = True
            if not up[c] and down[c]:
                if down[c][-1] == UNKNOWN:
                    raise HiddenCard(
                        f"it would turn up an unknown card in column {c + 1}: write it in the "
                        f"position in place of its ?? (in play: turn {c + 1} CARD)",
                        c,
                    )
                up[c].append(down[c].pop())
                changed = True
    return removed


def next_score(score: int, runs_removed: int) -> int:
    """SPEC section 6: pay the action's point (never below 0), then 100 a run."""
    return max(0, score - 1) + 100 * runs_removed
