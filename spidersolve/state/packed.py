"""The packed position (112 bytes, layout in ``_packing.py``) and the bridge
between ``Position`` and the numba kernels (``_board.py``, ``_kernels.py``).

>>> from spidersolve.state import GameCode
>>> pos = GameCode.parse("SP1-S4C-AAAAAAD").position()
>>> from_packed(to_packed(pos), pos.suits, pos.rules) == pos
True
"""

from __future__ import annotations

import numpy as np

from ..interrupt import run_kernel
from . import _board as B
from . import _kernels as K
from ._hashing import CARD_KEYS, STOCK_KEYS
from ._hashing import canonical_hash as _canonical_hash
from ._packing import PACKED_SIZE, pack, unpack
from .position import N_COLS, Position
from .rules import DEAL, Action


def to_board(pos: Position, moves: int = 0, score: int = 500) -> np.ndarray:
    """The working board of the kernels for ``pos``."""
    board = np.zeros(B.BOARD_SIZE, np.int16)
    for c in range(N_COLS):
        cards = pos.down[c] + pos.up[c]
        board[c * B.CAP:c * B.CAP + len(cards)] = cards
        board[B.LEN + c] = len(cards)
        board[B.FD + c] = len(pos.down[c])
    n = len(pos.stock)
    board[B.STOCK + 50 - n:B.STOCK + 50] = pos.stock
    board[B.NSTOCK] = n
    board[B.NREMOVED] = len(pos.removed)
    board[B.REMOVED:B.REMOVED + len(pos.removed)] = pos.removed
    board[B.MOVES] = moves
    board[B.SCORE] = score
    return board


def from_board(board: np.ndarray, suits: int, rules: str) -> Position:
    down, up = [], []
    for c in range(N_COLS):
        length, fd = int(board[B.LEN + c]), int(board[B.FD + c])
        cards = [int(x) for x in board[c * B.CAP:c * B.CAP + length]]
        down.append(cards[:fd])
        up.append(cards[fd:])
    n = int(board[B.NSTOCK])
    stock = [int(x) for x in board[B.STOCK + 50 - n:B.STOCK + 50]]
    removed = [int(x) for x in board[B.REMOVED:B.REMOVED + int(board[B.NREMOVED])]]
    return Position.make(suits, rules, down, up, stock, removed)


def to_packed(pos: Position, moves: int = 0, score: int = 500) -> np.ndarray:
    out = np.zeros(PACKED_SIZE, np.uint8)
    pack(to_board(pos, moves, score), out)
    return out


def from_packed(packed: np.ndarray, suits: int, rules: str) -> Position:
    board = np.zeros(B.BOARD_SIZE, np.int16)
    unpack(packed, board)
    return from_board(board, suits, rules)


def action_from_code(code: int) -> Action:
    if code == B.DEAL:
        return DEAL
    return Action(code >> 12, (code >> 8) & 15, code & 255)


def action_to_code(action: Action) -> int:
    if action.is_deal:
        return B.DEAL
    return (action.src << 12) | (action.dst << 8) | action.n_cards


def kernel_actions(pos: Position) -> list[Action]:
    """Legal actions by the kernel, in the documented order."""
    out = np.empty(B.MAX_ACTIONS, np.int32)
    n = K.gen_actions(to_board(pos), pos.relaxed, out)
    return [action_from_code(int(x)) for x in out[:n]]


def canonical_hash(pos: Position) -> tuple[int, int]:
    """The 128-bit canonical hash (two 64-bit halves) of the search's table."""
    board = to_board(pos)
    return tuple(int(_canonical_hash(board, CARD_KEYS, STOCK_KEYS, v)) for v in (0, 1))


def kernel_perft(pos: Position, depth: int) -> int:
    """perft by the kernels (positions with unknown cards: see the reference)."""
    if depth < 0:
        raise ValueError("depth must be at least 0")
    board = to_board(pos)
    actions = np.empty((max(depth, 1), B.MAX_ACTIONS), np.int32)
    undos = np.empty((max(depth, 1), B.UNDO_SIZE), np.int32)
    leaves = run_kernel(K.perft, board, pos.relaxed, depth, actions, undos)
    if leaves < 0:
        from .rules import IllegalAction
        raise IllegalAction("perft would turn up an unknown card: name the face-down cards")
    return int(leaves)


def kernel_divide(pos: Position, depth: int) -> list[tuple[Action, int]]:
    """perft split by first action, by the kernels."""
    from .rules import apply
    if depth < 1:
        raise ValueError("divide needs a depth of at least 1")
    return [(a, kernel_perft(apply(pos, a)[0], depth - 1)) for a in kernel_actions(pos)]
