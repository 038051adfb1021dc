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
"""

import numpy as np
from numba import njit

from ..state._board import DEAL, FD, JIT, LEN, MAX_ACTIONS, N_COLS, NREMOVED, NSTOCK, UNDO_SIZE
from ..state._hashing import column_zobrist, combine_exact, placed_hash
from ..state._kernels import apply_action, gen_actions, undo_action
from ..state._packing import PACKED_CARDS, PACKED_REMOVED, PACKED_SIZE, pack, unpack
from ._heap import grow, grow_rows
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
def _take_shortcut(parent, action, seen, path, out, best, depth):
    """Cut the known line ``out[:best]`` short at kept node ``seen``, met at ``depth + 1``.

    Returns (the new length, the depth of ``seen``).
    """
    k = _path(parent, action, seen, path)
    rest = best - depth - 1
    for j in range(rest):
        path[k + j] = out[depth + 1 + j]
    best = k + rest
    out[:best] = path[:best]
    return best, k


@njit(**JIT)
def _keep_best(
    board,
    undo,
    width,
    n_cand,
    guide_cand,
    c_key,
    c_parent,
    c_action,
    c_hash,
    c_level,
    table,
    keys,
    packed,
    parent,
    action,
    col_hash,
    col_value,
    n_nodes,
    card_keys,
    stock_part,
    weights,
    scratch,
):
    """Keep the best ``width`` candidates of each level, and the known line's child.

    The kept-node arrays must have room for them. Returns (table, n_nodes,
    the known line's kept child, collision): the table rebuilt when it
    filled; collision True if the known line's child, reached from another
    parent too, is not the same position.
    """
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


KEPT_CAP = 1 << 12  # kept nodes and candidates the beam starts with room for


@njit(**JIT)
def _kept_root(root, card_keys, stock_part, weights):
    """The kept-node arrays, holding ``root`` as node 0, and their table.

    (packed, parent, action, keys, col_hash, col_value, table): node x's
    packed position, parent node (-1 for the root), the action from it, its
    64-bit key, its columns' hashes and shares of the value; the table holds
    kept nodes by key (the search's table, one key in both halves).
    """
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
    return packed, parent, action, keys, col_hash, col_value, table


@njit(**JIT)
def _grow_kept(packed, col_hash, col_value, parent, action, keys, n_needed):
    """The kept-node arrays, doubled until ``n_needed`` nodes fit."""
    while n_needed > packed.shape[0]:
        packed = grow_rows(packed)
        col_hash = grow_rows(col_hash)
        col_value = grow_rows(col_value)
        parent = grow(parent)
        action = grow(action)
        keys = grow(keys)
    return packed, col_hash, col_value, parent, action, keys


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

    packed, parent, action, keys, col_hash, col_value, table = _kept_root(
        root, card_keys, stock_part, weights
    )
    # candidates of one layer
    c_key = np.empty(KEPT_CAP, np.int64)  # value << 32 | candidate number
    c_parent = np.empty(KEPT_CAP, np.int64)
    c_action = np.empty(KEPT_CAP, np.int32)
    c_hash = np.empty(KEPT_CAP, np.uint64)
    c_level = np.empty(KEPT_CAP, np.int64)
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
        n_cand = 0
        guide_cand = -1
        status = GO_ON
        for node in range(layer_lo, layer_hi):
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
                out[depth],
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
        if status == COLLISION or status == STOPPED:
            stopped = status == STOPPED
            break
        if status == WON:
            k = _path(parent, action, node, path)
            path[k] = a
            best = k + 1
            out[:best] = path[:best]
            break
        if status == SHORTCUT:
            # the new line runs through kept nodes up to the position it met
            # (at a depth <= this one); start again from that layer, with
            # that position as the guide
            best, depth = _take_shortcut(parent, action, seen, path, out, best, depth)
            layer_lo = layer_start[depth]
            layer_hi = layer_start[depth + 1]
            n_nodes = layer_hi
            table = tt_rebuild(keys, keys, n_nodes, table.shape[0])
            guide = seen
            continue
        packed, col_hash, col_value, parent, action, keys = _grow_kept(
            packed,
            col_hash,
            col_value,
            parent,
            action,
            keys,
            n_nodes + min(n_cand, DEAL_LEVELS * width + 1),
        )
        new_lo = n_nodes
        table, n_nodes, guide, collision = _keep_best(
            board,
            undo,
            width,
            n_cand,
            guide_cand,
            c_key,
            c_parent,
            c_action,
            c_hash,
            c_level,
            table,
            keys,
            packed,
            parent,
            action,
            col_hash,
            col_value,
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
