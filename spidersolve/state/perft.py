"""Reference perft: count the action sequences of a given length (SPEC 5).

Moves and deals both count; equal positions reached by different sequences
are not merged. This is the pure-Python oracle that the kernel perft in
``kernel.py`` must match.

>>> from spidersolve.state import GameCode
>>> perft(GameCode.parse("SP1-S1C-AAAAAAA").position(), 2)
57
"""

from __future__ import annotations

from .actions import Action
from .position import Position
from .rules import apply, legal_actions


def perft(position: Position, depth: int) -> int:
    """The number of action sequences of length ``depth`` from ``position``.

    The last level is counted without playing it (its actions are legal by
    construction), which keeps depth 5 within seconds in pure Python. A
    position with unknown face-down cards raises ``IllegalAction`` as soon
    as a sequence would turn one up.
    """
    if depth < 0:
        raise ValueError(f"depth must be at least 0, not {depth}")
    if depth == 0:
        return 1
    actions = legal_actions(position)
    if depth == 1:
        return len(actions)
    return sum(perft(apply(position, action)[0], depth - 1) for action in actions)


def divide(position: Position, depth: int) -> list[tuple[Action, int]]:
    """``perft`` split by first action, in the order of ``legal_actions``.

    Depth 0 has no first action and gives an empty list.
    """
    if depth < 0:
        raise ValueError(f"depth must be at least 0, not {depth}")
    if depth == 0:
        return []
    return [
        (action, perft(apply(position, action)[0], depth - 1)) for action in legal_actions(position)
    ]
