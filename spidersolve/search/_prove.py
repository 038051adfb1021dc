"""Numba kernel of the exhaustive proof: a depth-first search over every position.

The best-first search keeps about 470 bytes for each position it expands (the
packed position, its entry, heap keys and table slots), because it must come
back to any of them. A proof does not need an order: a depth-first walk that
marks each position (up to column symmetry) as seen the first time it is
entered visits every position reachable from the root exactly once, and keeps
only the seen set (16 bytes a position: its 128-bit canonical hash) and the
current path (the actions of each level and what undoes them). When the walk
ends without a win, no reachable position is won: the deal is lost.

Sound reductions: only positions already seen are skipped (equal up to column
order, with each column's future stock cards, as in the best-first search); a
skipped position was, or is being, walked from where it was first seen.
"""

import numpy as np

from .._jit import njit
from ..state._board import DEAL, JIT, MAX_ACTIONS, N_COLS, NREMOVED
from ..state._hashing import column_hash, combine, mix
from ..state._kernels import apply_action, gen_actions, undo_action

# result slots
P_VERDICT = 0  # WON, LOST or UNKNOWN
P_NODES = 1  # positions entered (the root included): the node count
P_DEPTH = 2  # for a win: the length of the line in ``line``
P_MAX_DEPTH = 3  # the deepest path walked
P_STOPPED = 4  # 1 when the stop flag ended the walk
P_FULL = 5  # why the walk gave up before the node limit: FULL_* below
P_SEEN = 6  # positions in the seen set
N_RESULT = 7

WON, LOST, UNKNOWN = 1, 2, 0
FULL_NONE, FULL_TABLE, FULL_DEPTH, FULL_ACTIONS = 0, 1, 2, 3
TABLE_LOAD = 0.75  # the seen set gives up when this full (linear probing slows past it)
# the stop flag is polled every STOP_EVERY new positions: with 1 << 14 a walk with
# 8 GB answered Ctrl-C after 19 s, as each early position first touches a page of the
# seen set (``prove._zeroed``)
STOP_EVERY = 1 << 8


@njit(**JIT)
def _hashes(board, card_keys, stock_keys, col_lo, col_hi):
    """The position's two canonical hashes; its columns' hashes into col_lo, col_hi."""
    for c in range(N_COLS):
        col_lo[c] = column_hash(board, c, card_keys, stock_keys, 0)
        col_hi[c] = column_hash(board, c, card_keys, stock_keys, 1)
    return combine(col_lo, board, 0), combine(col_hi, board, 1)


@njit(**JIT)
def _child_hashes(board, action, card_keys, stock_keys, col_lo, col_hi, lo, hi, out_lo, out_hi):
    """The hashes of ``board`` just after ``action`` from a position whose hashes
    were lo, hi and its columns' col_lo, col_hi; the child's columns' hashes
    into out_lo, out_hi. A move changes only its two columns (their turned
    or removed cards included); a deal changes them all."""
    if action == DEAL:
        return _hashes(board, card_keys, stock_keys, out_lo, out_hi)
    out_lo[:] = col_lo
    out_hi[:] = col_hi
    for c in (action >> 12, (action >> 8) & 15):
        out_lo[c] = column_hash(board, c, card_keys, stock_keys, 0)
        out_hi[c] = column_hash(board, c, card_keys, stock_keys, 1)
        lo += mix(out_lo[c], 0) - mix(col_lo[c], 0)
        hi += mix(out_hi[c], 1) - mix(col_hi[c], 1)
    return lo, hi


@njit(**JIT)
def _insert(seen_lo, seen_hi, lo, hi):
    """Add (lo, hi) to the seen set: True if it was not there (a free slot is 0, 0)."""
    if lo == 0 and hi == 0:
        hi = np.uint64(1)
    mask = seen_lo.shape[0] - 1
    i = np.int64(lo & np.uint64(mask))
    while True:
        a = seen_lo[i]
        b = seen_hi[i]
        if a == lo and b == hi:
            return False
        if a == 0 and b == 0:
            seen_lo[i] = lo
            seen_hi[i] = hi
            return True
        i = (i + 1) & mask


@njit(**JIT)
def _record_line(actions, starts, index, level, line):
    """The path's actions, levels 0..level, into ``line``."""
    for d in range(level + 1):
        line[d] = actions[starts[d] + index[d] - 1]


@njit(**JIT)
def _finish(result, won, nodes, deepest, seen):
    if won:
        result[P_VERDICT] = WON
    result[P_NODES] = nodes
    result[P_MAX_DEPTH] = deepest
    result[P_SEEN] = seen


@njit(**JIT)
def prove(
    root,
    relaxed,
    node_limit,
    every,
    card_keys,
    stock_keys,
    seen_lo,
    seen_hi,
    actions,
    undos,
    line,
    result,
    stop,
):
    """Walk every position reachable from ``root`` (a working board), depth first.

    Caller-allocated: ``seen_lo``/``seen_hi`` (uint64, a power of two long,
    zeroed) the seen set; ``actions`` (int32) the actions of every level of
    the path, one after the other; ``undos`` (int32[depth, UNDO_SIZE]) what
    undoes each level's action, so the path is at most ``undos.shape[0]``
    actions long; ``line`` (int32[undos.shape[0]]) receives a winning line;
    ``result`` (int64[N_RESULT]) the slots ``P_*``. ``stop`` (int64[1]) is
    polled every ``STOP_EVERY`` positions (Ctrl-C).

    The verdict is WON (the line is in ``line[:result[P_DEPTH]]``), LOST
    (every reachable position was walked) or UNKNOWN: the node limit, the
    seen set (``TABLE_LOAD``), the path's depth or the action stack ran out
    first (``result[P_FULL]`` says which), or the walk was stopped.

    ``every``: do not stop at the first win; walk on and count every
    reachable position (a won one has no action; the first win's line is
    kept). The verdict is then WON if any was won.
    """
    board = root.copy()
    max_depth = undos.shape[0]
    col_lo = np.empty((max_depth + 1, N_COLS), np.uint64)  # each level's columns' hashes
    col_hi = np.empty((max_depth + 1, N_COLS), np.uint64)
    path_lo = np.empty(max_depth + 1, np.uint64)  # each level's position's hashes
    path_hi = np.empty(max_depth + 1, np.uint64)
    # each level's slots are set when the walk enters it: np.empty, as zeroing the
    # path of a large --memory took seconds before the first position (and its stop poll)
    starts = np.empty(max_depth + 1, np.int64)
    counts = np.empty(max_depth + 1, np.int64)
    index = np.empty(max_depth + 1, np.int64)
    starts[0] = 0
    index[0] = 0
    table_cap = np.int64(seen_lo.shape[0] * TABLE_LOAD)
    for k in range(N_RESULT):
        result[k] = 0
    result[P_VERDICT] = UNKNOWN
    if board[NREMOVED] == 8:
        result[P_VERDICT] = WON
        return
    path_lo[0], path_hi[0] = _hashes(board, card_keys, stock_keys, col_lo[0], col_hi[0])
    _insert(seen_lo, seen_hi, path_lo[0], path_hi[0])
    seen = 1
    nodes = 1
    counts[0] = gen_actions(board, relaxed, actions)
    level = 0
    deepest = 0
    won = False
    while True:
        if index[level] >= counts[level]:
            if level == 0:
                result[P_VERDICT] = WON if won else LOST
                break
            level -= 1
            undo_action(board, undos[level])
            continue
        action = actions[starts[level] + index[level]]
        index[level] += 1
        apply_action(board, action, undos[level])
        if board[NREMOVED] == 8 and not won:
            _record_line(actions, starts, index, level, line)
            won = True
            result[P_DEPTH] = level + 1
            if not every:
                break
        lo, hi = _child_hashes(
            board,
            action,
            card_keys,
            stock_keys,
            col_lo[level],
            col_hi[level],
            path_lo[level],
            path_hi[level],
            col_lo[level + 1],
            col_hi[level + 1],
        )
        if seen >= table_cap:
            result[P_FULL] = FULL_TABLE
            undo_action(board, undos[level])
            break
        if not _insert(seen_lo, seen_hi, lo, hi):
            undo_action(board, undos[level])
            continue
        seen += 1
        if nodes >= node_limit or ((nodes & (STOP_EVERY - 1)) == 0 and stop[0] != 0):
            result[P_STOPPED] = 1 if nodes < node_limit else 0
            undo_action(board, undos[level])
            break
        nodes += 1
        if level + 1 >= max_depth:
            result[P_FULL] = FULL_DEPTH
            break
        start = starts[level] + counts[level]
        if start + MAX_ACTIONS > actions.shape[0]:
            result[P_FULL] = FULL_ACTIONS
            break
        level += 1
        path_lo[level] = lo
        path_hi[level] = hi
        starts[level] = start
        counts[level] = gen_actions(board, relaxed, actions[start:])
        index[level] = 0
        if level > deepest:
            deepest = level
    _finish(result, won, nodes, deepest, seen)
