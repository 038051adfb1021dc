"""Macro moves written out as the moves of the rules (``_kernels.macro_moves``).

A search with macro moves (a row with ``Weights.macro``) may play, as one
action, ``(src, dst, n)`` where the top ``n`` cards of ``src`` are a
rank-descending sequence of several same-suit runs: the runs above the
lowest are parked (each on a column whose top card is one rank above its
lowest card, else in an empty column), the lowest run moves, and the parked
runs follow it. ``expand`` turns such a line into the moves the rules allow,
so that every line the solver reports or replays is made of legal moves.
"""

from __future__ import annotations

from ..cards import card_rank, card_suit
from ..state import Position
from ..state.actions import Action
from ..state.rules import apply, why_illegal


def _runs(cards) -> list[int]:
    """The lengths of the same-suit runs of ``cards`` (a rank-descending sequence), top first."""
    lengths = [1]
    for i in range(len(cards) - 1, 0, -1):
        if card_suit(cards[i - 1]) == card_suit(cards[i]):
            lengths[-1] += 1
        else:
            lengths.append(1)
    return lengths


def macro_steps(pos: Position, action: Action) -> list[Action]:
    """The legal moves that play the macro move ``action`` in ``pos``.

    Raises ValueError if ``action`` is not a macro move of ``pos`` (the
    caller then lets the reference replay refuse it).
    """
    src, dst, n = action
    up = pos.up[src]
    tail = up[-n:] if 0 < n <= len(up) else ()
    if len(tail) != n or any(
        card_rank(tail[i]) != card_rank(tail[i + 1]) + 1 for i in range(n - 1)
    ):
        raise ValueError(f"{action.text()} is not a macro move")
    runs = _runs(tail)
    if len(runs) < 2:
        raise ValueError(f"{action.text()} is not a macro move")
    empties = [c for c in range(len(pos.up)) if c != dst and not pos.up[c] and not pos.down[c]]
    steps: list[Action] = []
    parked: list[tuple[int, int]] = []  # (column, run length), in the order parked
    top = n  # cards of the tail still on src
    ace_on_top = card_rank(tail[-1]) == 1
    for r, length in enumerate(runs[:-1]):
        low = tail[top - length]  # the run's lowest card
        spot = next(
            (
                c
                for c in range(len(pos.up))
                if c not in (src, dst)
                and pos.up[c]
                and card_rank(pos.up[c][-1]) == card_rank(low) + 1
                and not (r == 0 and ace_on_top and card_suit(pos.up[c][-1]) == card_suit(low))
            ),
            None,
        )
        if spot is None:
            if not empties:
                raise ValueError(f"{action.text()}: no room to park a run")
            spot = empties.pop(0)
        steps.append(Action(src, spot, length))
        parked.append((spot, length))
        top -= length
    steps.append(Action(src, dst, top))
    steps.extend(Action(spot, dst, length) for spot, length in reversed(parked))
    return steps


def expand(pos: Position, line) -> tuple[Action, ...]:
    """``line`` from ``pos`` with each macro move written out as its legal moves.

    Actions the rules allow are kept as they are; the result is replayed by
    the caller (``verify.verify_win``), as every line is.
    """
    out: list[Action] = []
    for action in line:
        if action.is_deal or why_illegal(pos, action) is None:
            steps = [action]
        else:
            steps = macro_steps(pos, action)
        for step in steps:
            pos, _ = apply(pos, step)
            out.append(step)
    return tuple(out)
