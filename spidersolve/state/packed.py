"""Conversions between ``Position``/``Action`` and the kernels' forms: the
working board (layout in ``_board.py``), the 112-byte packed position
(layout in ``_packing.py``) and the action codes.

The kernels' rules under the reference's names are in ``kernel.py``.

>>> from spidersolve.state import GameCode
>>> pos = GameCode.parse("SP1-S4C-AAAAAAD").position()
>>> from_packed(to_packed(pos), pos.suits, pos.rules) == pos
True
"""

from __future__ import annotations

import numpy as np

from . import _board as B
from ._packing import PACKED_SIZE, pack, unpack
from .actions import DEAL, Action
from .position import N_COLS, Position

__all__ = [
    "PACKED_SIZE",
    "action_from_code",
    "action_to_code",
    "from_board",
    "from_packed",
    "to_board",
    "to_packed",
]


def to_board(pos: Position, moves: int = 0, score: int = 500) -> np.ndarray:
    """The working board of the kernels for ``pos``."""
    board = np.zeros(B.BOARD_SIZE, np.int16)
    for c in range(N_COLS):
        cards = pos.down[c] + pos.up[c]
        board[c * B.CAP : c * B.CAP + len(cards)] = cards
        board[B.LEN + c] = len(cards)
        board[B.FD + c] = len(pos.down[c])
    n = len(pos.stock)
    board[B.STOCK + 50 - n : B.STOCK + 50] = pos.stock
    board[B.NSTOCK] = n
    board[B.NREMOVED] = len(pos.removed)
    board[B.REMOVED : B.REMOVED + len(pos.removed)] = pos.removed
    board[B.MOVES] = moves
    board[B.SCORE] = score
    return board


def from_board(board: np.ndarray, suits: int, rules: str) -> Position:
    """The ``Position`` on a working board (its counters are not part of it)."""
    down, up = [], []
    for c in range(N_COLS):
        length, fd = int(board[B.LEN + c]), int(board[B.FD + c])
        cards = [int(x) for x in board[c * B.CAP : c * B.CAP + length]]
        down.append(cards[:fd])
        up.append(cards[fd:])
    n = int(board[B.NSTOCK])
    stock = [int(x) for x in board[B.STOCK + 50 - n : B.STOCK + 50]]
    removed = [int(x) for x in board[B.REMOVED : B.REMOVED + int(board[B.NREMOVED])]]
    return Position.make(suits, rules, down, up, stock, removed)


def to_packed(pos: Position, moves: int = 0, score: int = 500) -> np.ndarray:
    """The 112-byte packed form of ``pos`` with its counters."""
    out = np.zeros(PACKED_SIZE, np.uint8)
    pack(to_board(pos, moves, score), out)
    return out


def from_packed(packed: np.ndarray, suits: int, rules: str) -> Position:
    """The ``Position`` in a packed form (the inverse of ``to_packed``)."""
    board = np.zeros(B.BOARD_SIZE, np.int16)
    unpack(packed, board)
    return from_board(board, suits, rules)


def action_from_code(code: int) -> Action:
    """The ``Action`` of a kernel action code."""
    if code == B.DEAL:
        return DEAL
    return Action(code >> 12, (code >> 8) & 15, code & 255)


def action_to_code(action: Action) -> int:
    """The kernel action code of an ``Action``."""
    if action.is_deal:
        return B.DEAL
    return (action.src << 12) | (action.dst << 8) | action.n_cards
