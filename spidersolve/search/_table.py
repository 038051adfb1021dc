"""The transposition table and the position hashes it is keyed by (numba kernels).

The table is open addressing with linear probing: ``table[slot]`` holds an
entry number, -1 for a free slot; the 128-bit hashes of entry e live in
``ent_lo[e]`` and ``ent_hi[e]``. The line beam uses the same table with one
64-bit key in both halves.

A position's canonical hash is ``combine`` of its columns' hashes
(``state/_hashing.py``); each column's hash takes the stock's share from
``stock_parts``, so a move's child costs only the two columns it touched.
"""

import numpy as np

from .._jit import njit
from ..state._board import JIT, N_COLS, NSTOCK
from ..state._hashing import column_stock_hash, column_zobrist, mix

# deals left: 0..5, so 6 stock levels
DEAL_LEVELS = 6


@njit(**JIT)
def tt_slot(table, ent_lo, ent_hi, lo, hi):
    """The slot of the entry with hashes (lo, hi), or the free slot where it goes.

    The table must have a free slot.
    """
    mask = table.shape[0] - 1
    i = np.int64(lo & np.uint64(mask))
    while True:
        other = table[i]
        if other < 0 or (ent_lo[other] == lo and ent_hi[other] == hi):
            return i
        i = (i + 1) & mask


@njit(**JIT)
def tt_insert(table, ent_lo, ent_hi, entry):
    """Put ``entry`` in the table unless a position with its hash is there.

    True if it was inserted. The table must have room.
    """
    slot = tt_slot(table, ent_lo, ent_hi, ent_lo[entry], ent_hi[entry])
    if table[slot] >= 0:
        return False
    table[slot] = entry
    return True


@njit(**JIT)
def tt_rebuild(ent_lo, ent_hi, n_entries, size):
    """A table of ``size`` slots (a power of two) holding entries 0..n_entries-1."""
    table = np.full(size, -1, np.int32)
    for entry in range(n_entries):
        tt_insert(table, ent_lo, ent_hi, entry)
    return table


@njit(**JIT)
def stock_parts(root, stock_keys):
    """The stock's share of each column's hash, by hash variant and deals left.

    ``parts[v, k, c]`` is ``column_stock_hash`` of column c once k deals are
    left. Valid for ``root`` and every position played from it: deals take
    cards from the front of the stock, so what is left is always the tail of
    the root's stock. Levels above the root's stay 0.
    """
    parts = np.zeros((2, DEAL_LEVELS, N_COLS), np.uint64)
    board = root.copy()
    for k in range(root[NSTOCK] // N_COLS + 1):
        board[NSTOCK] = N_COLS * k
        for v in range(2):
            for c in range(N_COLS):
                parts[v, k, c] = column_stock_hash(board, c, stock_keys, v)
    return parts


@njit(**JIT)
def column_hashes(board, card_keys, parts, variant, out):
    """Each column's ``column_hash`` (``variant``) into ``out``, the stock's
    shares taken from ``stock_parts``; ``combine`` makes the canonical hash."""
    level = board[NSTOCK] // N_COLS
    for c in range(N_COLS):
        out[c] = column_zobrist(board, c, card_keys, variant) ^ parts[variant, level, c]


@njit(**JIT)
def moved_hash(parent_hash, parent_cols, board, action, card_keys, parts, variant):
    """The canonical hash (``variant``) of ``board`` just after the move ``action``.

    ``parent_hash`` is the hash before the move and ``parent_cols`` the
    columns' hashes then (with their stock shares). The hash is a sum over
    columns, so only the two columns the move touched are swapped; a move
    leaves the stock as it was.
    """
    h = parent_hash
    level = board[NSTOCK] // N_COLS
    for c in (action >> 12, (action >> 8) & 15):
        now = column_zobrist(board, c, card_keys, variant) ^ parts[variant, level, c]
        h += mix(now, variant) - mix(parent_cols[c], variant)
    return h
