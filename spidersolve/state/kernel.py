"""The reference rules played by the numba kernels, under the reference's names.

Each function here takes and returns what its namesake in ``rules.py`` or
``perft.py`` does (``Position``, ``Action``), runs the kernels of
``_kernels.py`` on the working board, and must give the same result; the
tests hold each pair equal (the table is in ``docs/kernels.md``). The
reference stays the oracle: a winning line is replayed with ``rules.py``.

>>> from spidersolve.state import GameCode, rules
>>> pos = GameCode.parse("SP1-S1C-AAAAAAA").position()
>>> legal_actions(pos) == rules.legal_actions(pos)
True
>>> perft(pos, 2)
57
"""

from __future__ import annotations

import numpy as np

from ..interrupt import run_kernel
from . import _kernels as K
from . import rules
from ._board import MAX_ACTIONS, MOVES, NREMOVED, REMOVED, SCORE, UNDO_SIZE, UNKNOWN
from ._hashing import CARD_KEYS, STOCK_KEYS
from ._hashing import canonical_hash as _canonical_hash
from .actions import Action
from .game import Game
from .packed import action_from_code, action_to_code, from_board, to_board
from .position import N_COLS, Position
from .rules import IllegalAction

__all__ = [
    "CARD_KEYS",
    "STOCK_KEYS",
    "apply",
    "canonical_hash",
    "divide",
    "legal_actions",
    "perft",
    "play",
]


def _action_codes(board: np.ndarray, relaxed: bool) -> np.ndarray:
    out = np.empty(MAX_ACTIONS, np.int32)
    return out[: K.gen_actions(board, relaxed, out)]


def legal_actions(pos: Position) -> list[Action]:
    """Every legal action in the reference order (``rules.legal_actions``)."""
    return [action_from_code(int(x)) for x in _action_codes(to_board(pos), pos.relaxed)]


def _apply_on_board(pos: Position, action: Action, board: np.ndarray) -> None:
    """Play ``action`` on ``pos``'s board, refused as the reference refuses it."""
    code = action_to_code(action)
    if code not in _action_codes(board, pos.relaxed):
        raise IllegalAction(f"{action.text()} is illegal: {rules.why_illegal(pos, action)}")
    hidden = action.is_deal and UNKNOWN in pos.stock[:N_COLS]  # the kernel deals any card
    if hidden or K.apply_action(board, code, np.empty(UNDO_SIZE, np.int32)) < 0:
        rules.apply(pos, action)  # raises HiddenCard with the reference's message
        raise AssertionError(f"the reference plays {action.text()}, the kernel refused it")


def apply(pos: Position, action: Action) -> tuple[Position, list[int]]:
    """Play a legal action: the new position and the suits of the runs it removed
    (``rules.apply``; ``IllegalAction`` or ``HiddenCard`` where it raises)."""
    board = to_board(pos)
    _apply_on_board(pos, action, board)
    removed = [int(x) for x in board[REMOVED + len(pos.removed) : REMOVED + board[NREMOVED]]]
    return from_board(board, pos.suits, pos.rules), removed


def play(game: Game, action: Action) -> Game:
    """``game.play(action)``: the position and the counters, by the kernel."""
    pos = game.position
    board = to_board(pos, game.moves, game.score)
    _apply_on_board(pos, action, board)
    return Game(from_board(board, pos.suits, pos.rules), int(board[MOVES]), int(board[SCORE]))


def perft(pos: Position, depth: int) -> int:
    """The number of action sequences of length ``depth`` (``perft.perft``).

    A position with unknown face-down cards raises ``IllegalAction`` if a
    sequence would turn one up (the reference raises as soon as one does).
    """
    if depth < 0:
        raise ValueError(f"depth must be at least 0, not {depth}")
    board = to_board(pos)
    actions = np.empty((max(depth, 1), MAX_ACTIONS), np.int32)
    undos = np.empty((max(depth, 1), UNDO_SIZE), np.int32)
    leaves = run_kernel(K.perft, board, pos.relaxed, depth, actions, undos)
    if leaves < 0:
        raise IllegalAction("perft would turn up an unknown card: name the face-down cards")
    return int(leaves)


def divide(pos: Position, depth: int) -> list[tuple[Action, int]]:
    """``perft`` split by first action, in the order of ``legal_actions``
    (``perft.divide``; depth 0 gives an empty list)."""
    if depth < 0:
        raise ValueError(f"depth must be at least 0, not {depth}")
    if depth == 0:
        return []
    return [(action, perft(apply(pos, action)[0], depth - 1)) for action in legal_actions(pos)]


def canonical_hash(pos: Position) -> tuple[int, int]:
    """The 128-bit canonical hash (two 64-bit halves) of the search's table.

    Equal for positions equal up to column order (each deal of the stock
    permuted with the columns); no reference namesake.
    """
    board = to_board(pos)
    lo, hi = (int(_canonical_hash(board, CARD_KEYS, STOCK_KEYS, v)) for v in (0, 1))
    return lo, hi
