"""Numba kernels between the working board (``_board.py``) and the 112-byte
packed position that the search stores, and the packed layout.

Packed layout, ``uint8[PACKED_SIZE]``; the byte offsets are named here and
nowhere else::

    byte     name              what
    0..9     PACKED_LEN        cards in each column (face down + face up)
    10..19   PACKED_FD         face-down cards in each column
    20       PACKED_NSTOCK     cards left in the stock
    21       PACKED_NREMOVED   runs removed
    22..23   PACKED_REMOVED    suit of each removed run, 2 bits each, first
                               removed lowest
    24..25   PACKED_MOVES      moves (little endian)
    26..27   PACKED_SCORE      score (little endian)
    28..105  PACKED_CARDS      the cards, 6 bits each (rank | suit << 4), packed
                               low bit first: columns 1..10 bottom to top, then
                               the stock in deal order (104 cards at most =
                               78 bytes)
    106..111                   zero

Bytes ``PACKED_REMOVED .. PACKED_CARDS - 1`` hold the order of the removed
runs and the counters; the rest is the position itself (its columns, stock
and number of runs removed).
"""

import numpy as np

from .._jit import njit
from ._board import CAP, FD, JIT, LEN, MOVES, N_COLS, NREMOVED, NSTOCK, REMOVED, SCORE, STOCK

PACKED_SIZE = 112
PACKED_LEN = 0
PACKED_FD = PACKED_LEN + N_COLS
PACKED_NSTOCK = PACKED_FD + N_COLS
PACKED_NREMOVED = PACKED_NSTOCK + 1
PACKED_REMOVED = PACKED_NREMOVED + 1
PACKED_MOVES = PACKED_REMOVED + 2
PACKED_SCORE = PACKED_MOVES + 2
PACKED_CARDS = PACKED_SCORE + 2


@njit(**JIT)
def pack(board, out):
    """Write the 112-byte packed form of ``board`` into ``out`` (uint8)."""
    for c in range(N_COLS):
        out[PACKED_LEN + c] = board[LEN + c]
        out[PACKED_FD + c] = board[FD + c]
    out[PACKED_NSTOCK] = board[NSTOCK]
    out[PACKED_NREMOVED] = board[NREMOVED]
    bits = 0
    for r in range(board[NREMOVED]):
        bits |= board[REMOVED + r] << (2 * r)
    out[PACKED_REMOVED] = bits & 255
    out[PACKED_REMOVED + 1] = bits >> 8
    out[PACKED_MOVES] = board[MOVES] & 255
    out[PACKED_MOVES + 1] = board[MOVES] >> 8
    out[PACKED_SCORE] = board[SCORE] & 255
    out[PACKED_SCORE + 1] = board[SCORE] >> 8
    # the cards, 6 bits each from bit 0 of byte PACKED_CARDS on, streamed
    # through an accumulator, low bits first, a byte written at a time
    acc, n_bits, at = 0, 0, PACKED_CARDS
    for c in range(N_COLS):
        acc, n_bits, at = _pack_cards(board, c * CAP, board[LEN + c], out, acc, n_bits, at)
    acc, n_bits, at = _pack_cards(
        board, STOCK + 50 - board[NSTOCK], board[NSTOCK], out, acc, n_bits, at
    )
    if n_bits > 0:
        out[at] = acc
        at += 1
    for i in range(at, out.shape[0]):
        out[i] = 0


@njit(**JIT)
def _pack_cards(board, start, count, out, acc, n_bits, at):
    """Stream board[start:start + count] into ``out`` at 6 bits a card.

    ``acc`` holds ``n_bits`` bits not yet written, ``at`` is the next byte
    of ``out``; returns them after these cards (low bits first).
    """
    for i in range(start, start + count):
        acc |= np.int64(board[i]) << n_bits
        n_bits += 6
        if n_bits >= 8:
            out[at] = acc & 255
            acc >>= 8
            n_bits -= 8
            at += 1
    return acc, n_bits, at


@njit(**JIT)
def _unpack_cards(packed, board, start, count, acc, n_bits, at):
    """Read ``count`` 6-bit cards from ``packed`` into board[start:]; the inverse
    of ``_pack_cards`` (same accumulator state in and out)."""
    for i in range(start, start + count):
        if n_bits < 6:
            acc |= np.int64(packed[at]) << n_bits
            at += 1
            n_bits += 8
        board[i] = acc & 63
        acc >>= 6
        n_bits -= 6
    return acc, n_bits, at


@njit(**JIT)
def unpack(packed, board):
    """Rebuild the working board from its packed form."""
    acc, n_bits, at = 0, 0, PACKED_CARDS
    for c in range(N_COLS):
        board[LEN + c] = packed[PACKED_LEN + c]
        board[FD + c] = packed[PACKED_FD + c]
        acc, n_bits, at = _unpack_cards(
            packed, board, c * CAP, packed[PACKED_LEN + c], acc, n_bits, at
        )
    n_stock = packed[PACKED_NSTOCK]
    board[NSTOCK] = n_stock
    _unpack_cards(packed, board, STOCK + 50 - n_stock, n_stock, acc, n_bits, at)
    board[NREMOVED] = packed[PACKED_NREMOVED]
    bits = np.int32(packed[PACKED_REMOVED]) | (np.int32(packed[PACKED_REMOVED + 1]) << 8)
    for r in range(8):
        board[REMOVED + r] = (bits >> (2 * r)) & 3 if r < packed[PACKED_NREMOVED] else 0
    board[MOVES] = np.int32(packed[PACKED_MOVES]) | (np.int32(packed[PACKED_MOVES + 1]) << 8)
    board[SCORE] = np.int32(packed[PACKED_SCORE]) | (np.int32(packed[PACKED_SCORE + 1]) << 8)
