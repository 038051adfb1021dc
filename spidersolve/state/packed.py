"""The packed position (112 bytes) and the bridge between ``Position`` and
the numba kernels of ``_kernels.py``.

Packed layout, ``uint8[112]``::

    byte     what
    0..9     cards in each column (face down + face up)
    10..19   face-down cards in each column
    20       cards left in the stock
    21       runs removed
    22..23   suit of each removed run, 2 bits each, first removed lowest
    24..25   moves (little endian)
    26..27   score (little endian)
    28..105  the cards, 6 bits each (rank | suit << 4), packed low bit first:
             columns 1..10 bottom to top, then the stock in deal order
             (104 cards at most = 78 bytes)
    106..111 zero

>>> from spidersolve.state import GameCode
>>> pos = GameCode.parse("SP1-S4C-AAAAAAD").position()
>>> from_packed(to_packed(pos), pos.suits, pos.rules) == pos
True
"""

from __future__ import annotations

import numpy as np

from ..interrupt import run_kernel
from . import _kernels as K
from .position import N_COLS, Position
from .rules import DEAL, Action

PACKED_SIZE = 112
KEY_SEED = 0x5D1DE5


def _make_keys():
    rng = np.random.Generator(np.random.PCG64(KEY_SEED))
    card_keys = rng.integers(0, 2**64, size=(2, K.CAP, 64, 2), dtype=np.uint64,
                             endpoint=False)
    stock_keys = rng.integers(0, 2**64, size=(2, 5, 64), dtype=np.uint64, endpoint=False)
    return card_keys, stock_keys


CARD_KEYS, STOCK_KEYS = _make_keys()


def to_board(pos: Position, moves: int = 0, score: int = 500) -> np.ndarray:
    """The working board of the kernels for ``pos``."""
    board = np.zeros(K.BOARD_SIZE, np.int16)
    for c in range(N_COLS):
        cards = pos.down[c] + pos.up[c]
        board[c * K.CAP:c * K.CAP + len(cards)] = cards
        board[K.LEN + c] = len(cards)
        board[K.FD + c] = len(pos.down[c])
    n = len(pos.stock)
    board[K.STOCK + 50 - n:K.STOCK + 50] = pos.stock
    board[K.NSTOCK] = n
    board[K.NREMOVED] = len(pos.removed)
    board[K.REMOVED:K.REMOVED + len(pos.removed)] = pos.removed
    board[K.MOVES] = moves
    board[K.SCORE] = score
    return board


def from_board(board: np.ndarray, suits: int, rules: str) -> Position:
    down, up = [], []
    for c in range(N_COLS):
        length, fd = int(board[K.LEN + c]), int(board[K.FD + c])
        cards = [int(x) for x in board[c * K.CAP:c * K.CAP + length]]
        down.append(cards[:fd])
        up.append(cards[fd:])
    n = int(board[K.NSTOCK])
    stock = [int(x) for x in board[K.STOCK + 50 - n:K.STOCK + 50]]
    removed = [int(x) for x in board[K.REMOVED:K.REMOVED + int(board[K.NREMOVED])]]
    return Position.make(suits, rules, down, up, stock, removed)


def to_packed(pos: Position, moves: int = 0, score: int = 500) -> np.ndarray:
    out = np.zeros(PACKED_SIZE, np.uint8)
    K.pack(to_board(pos, moves, score), out)
    return out


def from_packed(packed: np.ndarray, suits: int, rules: str) -> Position:
    board = np.zeros(K.BOARD_SIZE, np.int16)
    K.unpack(packed, board)
    return from_board(board, suits, rules)


def action_from_code(code: int) -> Action:
    if code == K.DEAL:
        return DEAL
    return Action(code >> 12, (code >> 8) & 15, code & 255)


def action_to_code(action: Action) -> int:
    if action.is_deal:
        return K.DEAL
    return (action.src << 12) | (action.dst << 8) | action.n_cards


def kernel_actions(pos: Position) -> list[Action]:
    """Legal actions by the kernel, in the documented order."""
    out = np.empty(K.MAX_ACTIONS, np.int32)
    n = K.gen_actions(to_board(pos), pos.relaxed, out)
    return [action_from_code(int(x)) for x in out[:n]]


def canonical_hash(pos: Position) -> tuple[int, int]:
    """The 128-bit canonical hash (two 64-bit halves) of the search's table."""
    board = to_board(pos)
    return tuple(int(K.canonical_hash(board, CARD_KEYS, STOCK_KEYS, v)) for v in (0, 1))


def kernel_perft(pos: Position, depth: int) -> int:
    """perft by the kernels (positions with unknown cards: see the reference)."""
    if depth < 0:
        raise ValueError("depth must be at least 0")
    board = to_board(pos)
    actions = np.empty((max(depth, 1), K.MAX_ACTIONS), np.int32)
    undos = np.empty((max(depth, 1), K.UNDO_SIZE), np.int32)
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
