"""Numba kernel that looks for a shorter winning line once one is known.

``beam`` is a beam search in layers, one per action, seeded with the known
line: layer d keeps the ``width`` best positions (by one heuristic) for each
number of deals left, and always the position the known line reaches after
d actions. So a win turns up at a depth no greater than the known line's,
and sooner whenever some kept position leads to one sooner. A position kept
in an earlier layer is not kept again (its shortest path is known); when
the known line passes through such a position, the line is cut short there
at once (a shortcut), and the beam goes on from that position's layer with
the new line. The caller replays the result with the reference rules.

The kept nodes and the candidates of a layer, and how the best candidates
are kept, are in ``_kept.py``.
"""

import numpy as np

from .._jit import njit
from ..state._board import DEAL, FD, JIT, LEN, MAX_ACTIONS, N_COLS, NREMOVED, NSTOCK, UNDO_SIZE
from ..state._hashing import combine_exact
from ..state._kernels import apply_action, gen_actions, undo_action
from ..state._packing import PACKED_SIZE, pack, unpack
from ._kept import (
    KEPT_CAP,
    _board_value,
    _grow_candidates,
    _grow_kept,
    _keep_best,
    _moved_key,
    _new_candidates,
    _node_columns,
    _same_position,
)
from ._kernels import STOP_EVERY
from ._table import DEAL_LEVELS, stock_parts, tt_rebuild, tt_slot
from ._terms import W_REMOVED, column_value, first_empty_column, is_spare, splits_run


@njit(**JIT)
def unpromising(board, action, first_empty):
    """True for moves the beam leaves out (unless the known line plays them).

    - A move into an empty column other than the first while the stock
      lasts (``is_spare``), and a whole column, face-up cards only, moved
      into an empty one: each makes a position that differs from one at
      hand only in which column holds the cards (so in which stock cards go
      onto them).
    - A move that splits a same-suit run, unless the run its cards are part
      of is longer where they land (``splits_run``, KPatience's rule).

    The beam only looks for shorter lines, so leaving moves out costs
    nothing but lines it might have found. Measured on SP1-S4C 1000..1039
    at width 100, the run rule made the beam twice as fast and its lines
    shorter (mean 144.0 -> 139.9 moves).
    """
    if action == DEAL:
        return False
    if is_spare(board, action, first_empty):
        return True
    src = action >> 12
    dst = (action >> 8) & 15
    if board[LEN + dst] == 0 and board[FD + src] == 0 and board[LEN + src] == action & 255:
        return True  # a whole column, face-up cards only, into an empty one
    return splits_run(board, action) == 1


@njit(**JIT)
def _path(parent, action, node, out):
    """Actions from the root to ``node`` into ``out``; returns how many."""
    k = 0
    x = node
    while parent[x] >= 0:
        k += 1
        x = parent[x]
    n = k
    x = node
    while parent[x] >= 0:
        k -= 1
        out[k] = action[x]
        x = parent[x]
    return n


# what expanding a node or a layer came to
GO_ON = 0  # nothing that ends the layer
WON = 1  # a winning action
SHORTCUT = 2  # the known line met a position kept at an earlier depth
COLLISION = 3  # two positions with one key: stop with the line at hand
STOPPED = 4  # the stop flag was set


@njit(**JIT)
def _expand_node(
    node,
    board,
    on_guide,
    next_action,
    relaxed,
    prune,
    actions,
    undo,
    hashes,
    values,
    key,
    weights,
    card_keys,
    stock_part,
    deal_hash,
    deal_value,
    table,
    keys,
    packed,
    scratch,
    c_key,
    c_parent,
    c_action,
    c_hash,
    c_level,
    n_cand,
    guide_cand,
):
    """The children of kept node ``node`` (``board``) not kept already, as candidates.

    ``on_guide``: the node is the known line's position at this depth, whose
    next action is ``next_action``. The candidate arrays must have room for
    every action. Returns (status, n_cand, guide_cand, action, seen): for
    ``WON`` the winning action; for ``SHORTCUT`` the kept node ``seen``
    the known line's next position is.
    """
    value = _board_value(board, values, weights)
    removed = board[NREMOVED]
    count = gen_actions(board, relaxed, actions)
    first_empty = first_empty_column(board)
    for i in range(count):
        a = actions[i]
        on_line = on_guide and a == next_action
        if prune and not on_line and unpromising(board, a, first_empty):
            continue
        apply_action(board, a, undo)
        if board[NREMOVED] == 8:
            undo_action(board, undo)
            return WON, n_cand, guide_cand, a, -1
        if a == DEAL:  # every column changed
            _node_columns(board, -1, -1, deal_hash, deal_value, card_keys, stock_part, weights)
            child_key = combine_exact(deal_hash, board, 0)
            child_value = _board_value(board, deal_value, weights)
        else:
            child_key = _moved_key(key, hashes, board, a, card_keys, stock_part)
            child_value = value - weights[W_REMOVED] * (board[NREMOVED] - removed)
            for c in (a >> 12, (a >> 8) & 15):
                child_value += column_value(board, c, weights) - values[c]
        slot = tt_slot(table, keys, keys, child_key, child_key)
        if table[slot] >= 0:
            seen = table[slot]
            if on_line:
                # the known line comes back to a position kept at an
                # earlier depth: cut it short there
                same = _same_position(packed, seen, board, scratch)
                undo_action(board, undo)
                return (SHORTCUT if same else COLLISION), n_cand, guide_cand, a, seen
            undo_action(board, undo)
            continue
        c_key[n_cand] = (np.int64(child_value + (1 << 30)) << 32) | n_cand
        c_parent[n_cand] = node
        c_action[n_cand] = a
        c_hash[n_cand] = child_key
        c_level[n_cand] = board[NSTOCK] // N_COLS
        if on_line:
            guide_cand = n_cand
        n_cand += 1
        undo_action(board, undo)
    return GO_ON, n_cand, guide_cand, 0, -1


@njit(**JIT)
def _expand_layer(
    lo,
    hi,
    guide,
    next_action,
    expanded,
    stop,
    board,
    relaxed,
    prune,
    actions,
    undo,
    kept,
    weights,
    card_keys,
    stock_part,
    deal_hash,
    deal_value,
    table,
    scratch,
    cands,
):
    """Expand the kept nodes ``lo..hi-1`` (a layer) into candidates, until one ends it.

    ``guide``: the known line's node in the layer, ``next_action`` its next
    action. ``expanded`` counts the nodes expanded so far; ``stop`` is
    polled on it. Returns (status, node, action, seen, expanded, n_cand,
    guide_cand, cands): ``cands`` grown as needed; for a status other than
    ``GO_ON``, the node that ended the layer and ``_expand_node``'s action
    and seen.
    """
    packed, _parent, _action, keys, col_hash, col_value = kept
    c_key, c_parent, c_action, c_hash, c_level = cands
    n_cand = 0
    guide_cand = -1
    status = GO_ON
    node = lo
    a = 0
    seen = -1
    for node in range(lo, hi):
        if (expanded & (STOP_EVERY - 1)) == 0 and stop[0] != 0:
            status = STOPPED
            break
        if n_cand + MAX_ACTIONS > c_key.shape[0]:
            c_key, c_parent, c_action, c_hash, c_level = _grow_candidates(
                c_key, c_parent, c_action, c_hash, c_level, n_cand + MAX_ACTIONS
            )
        unpack(packed[node], board)
        expanded += 1
        status, n_cand, guide_cand, a, seen = _expand_node(
            node,
            board,
            node == guide,
            next_action,
            relaxed,
            prune,
            actions,
            undo,
            col_hash[node],
            col_value[node],
            keys[node],
            weights,
            card_keys,
            stock_part,
            deal_hash,
            deal_value,
            table,
            keys,
            packed,
            scratch,
            c_key,
            c_parent,
            c_action,
            c_hash,
            c_level,
            n_cand,
            guide_cand,
        )
        if status != GO_ON:
            break
    cands = (c_key, c_parent, c_action, c_hash, c_level)
    return status, node, a, seen, expanded, n_cand, guide_cand, cands


@njit(**JIT)
def _take_shortcut(kept, seen, path, out, best, depth, layer_start, table):
    """Cut the known line ``out[:best]`` short at kept node ``seen``, met at ``depth + 1``.

    The new line runs through kept nodes up to ``seen`` (at a depth no
    greater than this one); the beam starts again from the layer of
    ``seen``, and the nodes kept after it are dropped. Returns (the new
    length, the depth of ``seen``, that layer's first and end nodes, the
    number of nodes kept, the table).
    """
    _packed, parent, action, keys, _col_hash, _col_value = kept
    k = _path(parent, action, seen, path)
    rest = best - depth - 1
    for j in range(rest):
        path[k + j] = out[depth + 1 + j]
    best = k + rest
    out[:best] = path[:best]
    lo = layer_start[k]
    hi = layer_start[k + 1]
    table = tt_rebuild(keys, keys, hi, table.shape[0])
    return best, k, lo, hi, hi, table


@njit(**JIT)
def _won_line(kept, node, last, path, out):
    """The line to kept node ``node``, then ``last``, into ``out``; returns its length."""
    _packed, parent, action, _keys, _col_hash, _col_value = kept
    k = _path(parent, action, node, path)
    path[k] = last
    out[: k + 1] = path[: k + 1]
    return k + 1


@njit(**JIT)
def _kept_root(root, card_keys, stock_part, weights):
    """The kept nodes (``kept``, see ``_kept.py``), ``root`` as node 0, and their table."""
    packed = np.zeros((KEPT_CAP, PACKED_SIZE), np.uint8)
    parent = np.empty(KEPT_CAP, np.int64)
    action = np.empty(KEPT_CAP, np.int32)
    keys = np.empty(KEPT_CAP, np.uint64)
    col_hash = np.empty((KEPT_CAP, N_COLS), np.uint64)
    col_value = np.empty((KEPT_CAP, N_COLS), np.int64)
    table = np.full(2 * KEPT_CAP, -1, np.int32)
    pack(root, packed[0])
    parent[0] = -1
    action[0] = 0
    _node_columns(root, -1, -1, col_hash[0], col_value[0], card_keys, stock_part, weights)
    keys[0] = combine_exact(col_hash[0], root, 0)
    table[tt_slot(table, keys, keys, keys[0], keys[0])] = 0
    return (packed, parent, action, keys, col_hash, col_value), table


@njit(**JIT)
def beam(
    root, relaxed, line, width, weights, card_keys, stock_keys, node_budget, prune, out, stats, stop
):
    """A line no longer than ``line`` (which must win from ``root``) into ``out``.

    Returns its length. ``weights``: one row of the search's heuristic
    (its depth and spare terms are ignored: a layer is one depth).
    ``node_budget`` caps the positions expanded; when it runs out the best
    line found so far is returned. ``prune``: leave out ``unpromising``
    moves. ``stats[0]`` gets the positions expanded, ``stats[1]`` 1 if
    ``stop`` ended the beam. ``stop`` (int64[1]) is polled every
    ``STOP_EVERY`` positions: another thread sets it to 1 to end the beam
    early (Ctrl-C), with the best line found so far.

    Each kept node keeps its columns' hashes and shares of the value, so a
    move's child costs the two columns it touched. Positions are told apart
    by a 64-bit key (exact: columns in place); where the line depends on two
    positions being the same (the known line meeting a kept position), they
    are compared card by card, and on a mismatch (a key collision) the beam
    stops with the line it has.
    """
    n_line = line.shape[0]
    best = n_line
    out[:n_line] = line
    board = root.copy()
    undo = np.empty(UNDO_SIZE, np.int32)
    actions = np.empty(MAX_ACTIONS, np.int32)
    path = np.empty(n_line + 1, np.int32)
    scratch = np.zeros(PACKED_SIZE, np.uint8)
    deal_hash = np.empty(N_COLS, np.uint64)  # a deal's child: its columns
    deal_value = np.empty(N_COLS, np.int64)
    stock_part = stock_parts(root, stock_keys)[0]

    kept, table = _kept_root(root, card_keys, stock_part, weights)
    cands = _new_candidates(KEPT_CAP)  # of one layer
    n_nodes = 1
    layer_lo = 0
    layer_hi = 1
    layer_start = np.zeros(n_line + 2, np.int64)  # the first node of each depth
    layer_start[1] = 1
    guide = 0  # the node of the known line's position at this depth
    expanded = 0
    stopped = False
    depth = 0
    while depth + 1 < best and layer_hi > layer_lo and expanded < node_budget:
        status, node, a, seen, expanded, n_cand, guide_cand, cands = _expand_layer(
            layer_lo,
            layer_hi,
            guide,
            out[depth],
            expanded,
            stop,
            board,
            relaxed,
            prune,
            actions,
            undo,
            kept,
            weights,
            card_keys,
            stock_part,
            deal_hash,
            deal_value,
            table,
            scratch,
            cands,
        )
        if status == COLLISION or status == STOPPED:
            stopped = status == STOPPED
            break
        if status == WON:
            best = _won_line(kept, node, a, path, out)
            break
        if status == SHORTCUT:
            # start again from the layer of the position met, with it as the guide
            best, depth, layer_lo, layer_hi, n_nodes, table = _take_shortcut(
                kept, seen, path, out, best, depth, layer_start, table
            )
            guide = seen
            continue
        kept = _grow_kept(kept, n_nodes + min(n_cand, DEAL_LEVELS * width + 1))
        new_lo = n_nodes
        table, n_nodes, guide, collision = _keep_best(
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
        )
        if collision:
            break
        layer_lo = new_lo
        layer_hi = n_nodes
        depth += 1
        layer_start[depth + 1] = n_nodes
    stats[0] = expanded
    stats[1] = 1 if stopped else 0
    return best
