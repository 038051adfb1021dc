"""Numba kernels that hash the working board (``_board.py``), and their keys.

Two hashes, each in two 64-bit variants (``variant`` 0 and 1 use different
keys and finalizers, so together they make 128 bits):

- the canonical hash, up to column order: each column is hashed with the
  stock cards future deals will put on it, and the columns' mixed hashes
  are summed (``combine``), so permuting the columns, each deal of the stock
  with them, gives the same hash. The search's table keys on it.
- the exact hash (``zobrist_hash``), columns in place: an XOR of
  ``placed_hash`` terms (``combine_exact``). The line beam keys on it.

``CARD_KEYS[variant, slot, card, face_down]`` (uint64[2, CAP, 64, 2]) and
``STOCK_KEYS[variant, deal, card]`` (uint64[2, 5, 64]) are fixed by
``KEY_SEED`` (``keys.py``); the kernels take them as arguments.
"""

import numpy as np

from .._jit import njit
from ._board import CAP, FD, JIT, LEN, N_COLS, NSTOCK, STOCK
from .keys import load_keys

CARD_KEYS, STOCK_KEYS = load_keys()


@njit(**JIT)
def mix(z, variant):
    """A bijective 64-bit finalizer (splitmix64's, or murmur3's for variant 1)."""
    if variant == 0:
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))
    z = (z ^ (z >> np.uint64(33))) * np.uint64(0xFF51AFD7ED558CCD)
    z = (z ^ (z >> np.uint64(33))) * np.uint64(0xC4CEB9FE1A85EC53)
    return z ^ (z >> np.uint64(33))


@njit(**JIT)
def column_zobrist(board, c, card_keys, variant):
    """Zobrist hash of column c: XOR of card_keys[variant, slot, card, face_down].

    Moving, turning or removing a card changes it by XOR of that card's keys,
    so it can be updated incrementally.
    """
    h = np.uint64(0)
    base = c * CAP
    fd = board[FD + c]
    for i in range(board[LEN + c]):
        h ^= card_keys[variant, i, board[base + i], 1 if i < fd else 0]
    return h


@njit(**JIT)
def column_stock_hash(board, c, stock_keys, variant):
    """Hash of the stock cards that future deals will put on column c."""
    h = np.uint64(0)
    first = STOCK + 50 - board[NSTOCK]
    for k in range(board[NSTOCK] // 10):
        h ^= stock_keys[variant, k, board[first + 10 * k + c]]
    return h


@njit(**JIT)
def combine(col_hashes, board, variant):
    """The canonical hash: a sum over columns, so column order does not count.

    col_hashes[c] must already include column c's future stock cards.
    """
    h = mix(np.uint64(board[NSTOCK]) + np.uint64(0x5851F42D4C957F2D), variant)
    for c in range(N_COLS):
        h += mix(col_hashes[c], variant)
    return h


@njit(**JIT)
def column_hash(board, c, card_keys, stock_keys, variant):
    """Column c's cards and the stock cards future deals will put on it."""
    return column_zobrist(board, c, card_keys, variant) ^ column_stock_hash(
        board, c, stock_keys, variant
    )


@njit(**JIT)
def _all_column_hashes(board, card_keys, stock_keys, variant):
    col = np.empty(N_COLS, np.uint64)
    for c in range(N_COLS):
        col[c] = column_hash(board, c, card_keys, stock_keys, variant)
    return col


@njit(**JIT)
def canonical_hash(board, card_keys, stock_keys, variant):
    """Hash of the position up to column symmetry (with each column's future stock)."""
    return combine(_all_column_hashes(board, card_keys, stock_keys, variant), board, variant)


@njit(**JIT)
def placed_hash(col_hash, c, variant):
    """Column c's hash mixed with its place: one term of ``combine_exact``."""
    return mix(col_hash + np.uint64(c + 1) * np.uint64(0x9E3779B97F4A7C15), variant)


@njit(**JIT)
def combine_exact(col_hashes, board, variant):
    """The exact hash from the columns' hashes: each column in its place (an XOR
    of ``placed_hash`` terms, so a move can swap the terms of its columns)."""
    h = np.uint64(board[NSTOCK])
    for c in range(N_COLS):
        h ^= placed_hash(col_hashes[c], c, variant)
    return h


@njit(**JIT)
def zobrist_hash(board, card_keys, stock_keys, variant):
    """Hash of the exact position (columns in place): not symmetric."""
    return combine_exact(_all_column_hashes(board, card_keys, stock_keys, variant), board, variant)
