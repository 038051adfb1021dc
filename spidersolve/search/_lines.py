"""Numba kernel that looks for a shorter winning line once one is known.

``beam`` is a beam search in layers, one per action, seeded with the known
line: layer d keeps the ``width`` best positions (by one heuristic) for each
number of deals left, and always the position the known line reaches after
d actions. So a win turns up at a depth no greater than the known line's,
and sooner whenever some kept position leads to one sooner. A position kept
in an earlier layer is not kept again (its shortest path is known); when
the known line passes through such a position, the line is cut short there
at once (a shortcut). The caller replays the result with the reference
rules.
"""

import numpy as np
from numba import njit

from ..state._kernels import (DEAL, FD, JIT, LEN, MAX_ACTIONS, N_COLS, NREMOVED,
                              NSTOCK, UNDO_SIZE, apply_action, combine_exact,
                              gen_actions, pack, undo_action, unpack)
from ._kernels import (N_WEIGHTS, PACKED_SIZE, _column_hashes, _grow, _tt_rebuild, _tt_slot,
                       _update_cols, _value, features, first_empty_column, is_spare)

@njit(**JIT)
def unpromising(board, action, first_empty):
    """True for moves the beam leaves out (unless the known line plays them).

    A move into an empty column other than the first while the stock lasts
    (``is_spare``), and a whole column, face-up cards only, moved into an
    empty one: each makes a position that differs from one at hand only in
    which column holds the cards (so in which stock cards go onto them).
    The beam only looks for shorter
    lines, so leaving moves out costs nothing but lines it might have
    found. (Leaving out moves that split a same-suit run as well, as
    KPatience does, made it faster but its 4-suit lines longer.)
    """
    if action == DEAL:
        return False
    if is_spare(board, action, first_empty):
        return True
    src = action >> 12
    dst = (action >> 8) & 15
    n = action & 255
    # a whole column, face-up cards only, into an empty one
    return board[LEN + dst] == 0 and board[FD + src] == 0 and board[LEN + src] == n


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
def beam(root, relaxed, line, width, weights, card_keys, stock_keys, node_budget, prune, out,
         stats):
    """A line no longer than ``line`` (which must win from ``root``) into ``out``.

    Returns its length. ``weights``: one row of the search's heuristic
    (its depth term is ignored: a layer is one depth). ``node_budget`` caps
    the positions expanded; when it runs out the best line found so far is
    returned. ``prune``: leave out ``unpromising`` moves. ``stats[0]`` gets
    the positions expanded.
    """
    n_line = line.shape[0]
    best = n_line
    out[:n_line] = line
    board = root.copy()
    undo = np.empty(UNDO_SIZE, np.int32)
    actions = np.empty(MAX_ACTIONS, np.int32)
    terms = np.empty(N_WEIGHTS, np.int64)
    col_lo = np.empty(N_COLS, np.uint64)
    col_hi = np.empty(N_COLS, np.uint64)
    tmp_lo = np.empty(N_COLS, np.uint64)
    tmp_hi = np.empty(N_COLS, np.uint64)
    path = np.empty(n_line + 1, np.int32)

    # kept nodes
    cap = 1 << 12
    packed = np.empty((cap, PACKED_SIZE), np.uint8)
    parent = np.empty(cap, np.int64)
    action = np.empty(cap, np.int32)
    key_lo = np.empty(cap, np.uint64)
    key_hi = np.empty(cap, np.uint64)
    table = np.full(1 << 13, -1, np.int32)  # kept nodes by hash, as in the search
    # candidates of one layer
    c_cap = 1 << 12
    c_key = np.empty(c_cap, np.int64)  # value << 32 | candidate number
    c_parent = np.empty(c_cap, np.int64)
    c_action = np.empty(c_cap, np.int32)
    c_lo = np.empty(c_cap, np.uint64)
    c_hi = np.empty(c_cap, np.uint64)
    c_level = np.empty(c_cap, np.int64)

    for c in range(N_COLS):
        _column_hashes(board, c, card_keys, stock_keys, col_lo, col_hi)
    pack(board, packed[0])
    parent[0] = -1
    action[0] = 0
    key_lo[0] = combine_exact(col_lo, board, 0)
    key_hi[0] = combine_exact(col_hi, board, 1)
    table[_tt_slot(table, key_lo, key_hi, key_lo[0], key_hi[0])] = 0
    n_nodes = 1
    layer_lo = 0
    layer_hi = 1
    guide = 0  # the node of the known line's position at this depth
    expanded = 0
    depth = 0
    while depth + 1 < best and layer_hi > layer_lo and expanded < node_budget:
        n_cand = 0
        guide_cand = -1
        won_parent = -1
        won_action = 0
        restart = False
        for node in range(layer_lo, layer_hi):
            unpack(packed[node], board)
            expanded += 1
            for c in range(N_COLS):
                _column_hashes(board, c, card_keys, stock_keys, col_lo, col_hi)
            count = gen_actions(board, relaxed, actions)
            first_empty = first_empty_column(board)
            for i in range(count):
                a = actions[i]
                on_line = node == guide and a == out[depth]
                if prune and not on_line and unpromising(board, a, first_empty):
                    continue
                apply_action(board, a, undo)
                if board[NREMOVED] == 8:
                    won_parent = node
                    won_action = a
                    undo_action(board, undo)
                    break
                _update_cols(board, a, col_lo, tmp_lo, card_keys, stock_keys, 0)
                _update_cols(board, a, col_hi, tmp_hi, card_keys, stock_keys, 1)
                lo = combine_exact(tmp_lo, board, 0)
                hi = combine_exact(tmp_hi, board, 1)
                slot = _tt_slot(table, key_lo, key_hi, lo, hi)
                if table[slot] >= 0:
                    if on_line:
                        # the known line comes back to a position kept at
                        # an earlier depth: cut it short there
                        seen = table[slot]
                        k = _path(parent, action, seen, path)
                        rest = best - depth - 1
                        for j in range(rest):
                            path[k + j] = out[depth + 1 + j]
                        best = k + rest
                        out[:best] = path[:best]
                        restart = True
                        undo_action(board, undo)
                        break
                    undo_action(board, undo)
                    continue
                if n_cand >= c_cap:
                    c_cap *= 2
                    c_key = _grow(c_key)
                    c_parent = _grow(c_parent)
                    c_action = _grow(c_action)
                    c_lo = _grow(c_lo)
                    c_hi = _grow(c_hi)
                    c_level = _grow(c_level)
                features(board, False, terms)
                value = _value(weights, terms) + (1 << 30)
                c_key[n_cand] = (np.int64(value) << 32) | n_cand
                c_parent[n_cand] = node
                c_action[n_cand] = a
                c_lo[n_cand] = lo
                c_hi[n_cand] = hi
                c_level[n_cand] = board[NSTOCK] // 10
                if on_line:
                    guide_cand = n_cand
                n_cand += 1
                undo_action(board, undo)
            if won_parent >= 0 or restart:
                break
        if won_parent >= 0:
            k = _path(parent, action, won_parent, path)
            path[k] = won_action
            best = k + 1
            out[:best] = path[:best]
            break
        if restart:
            # a shortcut was taken: start again from the root with the new line
            layer_lo = 0
            layer_hi = 1
            n_nodes = 1
            table[:] = -1
            table[_tt_slot(table, key_lo, key_hi, key_lo[0], key_hi[0])] = 0
            guide = 0
            depth = 0
            continue
        # keep the best ``width`` of each level, and the known line's child
        order = np.argsort(c_key[:n_cand])
        taken = np.zeros(6, np.int64)
        new_lo = n_nodes
        new_guide = -1
        for r in range(n_cand):
            cand = order[r]
            lvl = c_level[cand]
            if taken[lvl] >= width and cand != guide_cand:
                continue
            slot = _tt_slot(table, key_lo, key_hi, c_lo[cand], c_hi[cand])
            if table[slot] >= 0:  # the same child from another parent
                if cand == guide_cand:
                    new_guide = table[slot]
                continue
            taken[lvl] += 1
            if n_nodes >= packed.shape[0]:
                grown = np.empty((packed.shape[0] * 2, PACKED_SIZE), np.uint8)
                grown[:packed.shape[0]] = packed
                packed = grown
                parent = _grow(parent)
                action = _grow(action)
                key_lo = _grow(key_lo)
                key_hi = _grow(key_hi)
            x = n_nodes
            n_nodes += 1
            unpack(packed[c_parent[cand]], board)
            apply_action(board, c_action[cand], undo)
            pack(board, packed[x])
            parent[x] = c_parent[cand]
            action[x] = c_action[cand]
            key_lo[x] = c_lo[cand]
            key_hi[x] = c_hi[cand]
            table[slot] = x
            if cand == guide_cand:
                new_guide = x
            if 2 * n_nodes > table.shape[0]:
                table = _tt_rebuild(key_lo, key_hi, n_nodes, 2 * table.shape[0])
        guide = new_guide
        layer_lo = new_lo
        layer_hi = n_nodes
        depth += 1
    stats[0] = expanded
    return best
