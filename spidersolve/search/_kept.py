"""The line beam's kept nodes and candidates (``_lines.beam``).

The beam keeps its nodes in six arrays, passed together as the tuple
``kept`` = (packed, parent, action, keys, col_hash, col_value): node x's
packed position, its parent node (-1 for the root), the action from it,
its 64-bit key (exact: columns in place), its columns' hashes and shares
of the value (so a move's child costs the two columns it touched). A
layer's children not kept already are candidates, in five arrays passed
as ``cands`` = (c_key, c_parent, c_action, c_hash, c_level): candidate i's
sort key ``value << 32 | i``, its parent node and action, its key, and its
number of deals left. The table holds kept nodes by key (the search's
table, one key in both halves).
"""

import numpy as np

from .._jit import njit
from ..state._board import DEAL, JIT, N_COLS, NREMOVED, NSTOCK
from ..state._hashing import column_zobrist, placed_hash
from ..state._kernels import apply_action
from ..state._packing import PACKED_CARDS, PACKED_REMOVED, PACKED_SIZE, pack, unpack
from ._heap import grow, grow_rows
from ._table import DEAL_LEVELS, tt_rebuild, tt_slot
from ._terms import W_REMOVED, column_value

KEPT_CAP = 1 << 12  # kept nodes and candidates the beam starts with room for


@njit(**JIT)
def _board_value(board, col_value, weights):
    """The heuristic value (no depth or spare terms) from column shares."""
    value = -weights[W_REMOVED] * board[NREMOVED]
    for c in range(N_COLS):
        value += col_value[c]
    return value


@njit(**JIT)
def _same_position(nodes, x, board, scratch):
    """True if kept node ``x`` holds the same columns and stock as ``board``."""
    pack(board, scratch)
    for i in range(PACKED_SIZE):
        # not the order of the runs removed, the moves and the score
        if (i < PACKED_REMOVED or i >= PACKED_CARDS) and nodes[x, i] != scratch[i]:
            return False
    return True


@njit(**JIT)
def _node_columns(board, src, dst, hashes, values, card_keys, stock_part, weights):
    """Column hashes and value shares of ``board``: columns src and dst, or all if src < 0."""
    level = board[NSTOCK] // 10
    for c in range(N_COLS):
        if src < 0 or c == src or c == dst:
            hashes[c] = column_zobrist(board, c, card_keys, 0) ^ stock_part[level, c]
            values[c] = column_value(board, c, weights)


@njit(**JIT)
def _moved_key(key, hashes, board, action, card_keys, stock_part):
    """The key of ``board`` just after the move ``action`` from a position with
    ``key`` and column hashes ``hashes``: only the two columns it touched change."""
    level = board[NSTOCK] // 10
    for c in (action >> 12, (action >> 8) & 15):
        now = column_zobrist(board, c, card_keys, 0) ^ stock_part[level, c]
        key ^= placed_hash(hashes[c], c, 0) ^ placed_hash(now, c, 0)
    return key


@njit(**JIT)
def _new_candidates(cap):
    """Candidate arrays with room for ``cap`` candidates (``cands``)."""
    return (
        np.empty(cap, np.int64),
        np.empty(cap, np.int64),
        np.empty(cap, np.int32),
        np.empty(cap, np.uint64),
        np.empty(cap, np.int64),
    )


@njit(**JIT)
def _grow_kept(kept, n_needed):
    """The kept-node arrays (``kept``), doubled until ``n_needed`` nodes fit."""
    packed, parent, action, keys, col_hash, col_value = kept
    while n_needed > packed.shape[0]:
        packed = grow_rows(packed)
        col_hash = grow_rows(col_hash)
        col_value = grow_rows(col_value)
        parent = grow(parent)
        action = grow(action)
        keys = grow(keys)
    return packed, parent, action, keys, col_hash, col_value


@njit(**JIT)
def _grow_candidates(c_key, c_parent, c_action, c_hash, c_level, n_needed):
    """The candidate arrays, doubled until ``n_needed`` candidates fit."""
    while n_needed > c_key.shape[0]:
        c_key = grow(c_key)
        c_parent = grow(c_parent)
        c_action = grow(c_action)
        c_hash = grow(c_hash)
        c_level = grow(c_level)
    return c_key, c_parent, c_action, c_hash, c_level


@njit(**JIT)
def _keep_best(
    board,
    undo,
    width,
    n_cand,
    guide_cand,
    cands,
    table,
    kept,
    n_nodes,
    card_keys,
    stock_part,
    weights,
    scratch,
):
    """Keep the best ``width`` candidates of each level, and the known line's child.

    ``cands``: ``n_cand`` candidates (``guide_cand`` the known line's
    child); ``kept``: the kept nodes, ``n_nodes`` of them, with room for
    the new ones. Returns (table, n_nodes, the known line's kept child,
    collision): the table rebuilt when it filled; collision True if the
    known line's child, reached from another parent too, is not the same
    position.
    """
    c_key, c_parent, c_action, c_hash, c_level = cands
    packed, parent, action, keys, col_hash, col_value = kept
    order = np.argsort(c_key[:n_cand])
    taken = np.zeros(DEAL_LEVELS, np.int64)
    new_guide = -1
    collision = False
    for r in range(n_cand):
        cand = order[r]
        lvl = c_level[cand]
        if taken[lvl] >= width and cand != guide_cand:
            continue
        slot = tt_slot(table, keys, keys, c_hash[cand], c_hash[cand])
        x = table[slot]
        if x < 0:
            taken[lvl] += 1
            x = n_nodes
            n_nodes += 1
            p = c_parent[cand]
            a = c_action[cand]
            unpack(packed[p], board)
            apply_action(board, a, undo)
            pack(board, packed[x])
            parent[x] = p
            action[x] = a
            keys[x] = c_hash[cand]
            col_hash[x] = col_hash[p]
            col_value[x] = col_value[p]
            if a == DEAL:
                _node_columns(
                    board, -1, -1, col_hash[x], col_value[x], card_keys, stock_part, weights
                )
            else:
                _node_columns(
                    board,
                    a >> 12,
                    (a >> 8) & 15,
                    col_hash[x],
                    col_value[x],
                    card_keys,
                    stock_part,
                    weights,
                )
            table[slot] = x
            if 2 * n_nodes > table.shape[0]:
                table = tt_rebuild(keys, keys, n_nodes, 2 * table.shape[0])
        elif cand == guide_cand:
            # the known line's child was reached from another parent of
            # this layer too (kept earlier in this pass): check it is the same
            unpack(packed[c_parent[cand]], board)
            apply_action(board, c_action[cand], undo)
            if not _same_position(packed, x, board, scratch):
                collision = True
        if cand == guide_cand:
            new_guide = x
    return table, n_nodes, new_guide, collision
