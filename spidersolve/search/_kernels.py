"""Numba best-first search over the working board of ``state/_board.py``.

The pieces live beside it: the heuristic's terms in ``_terms.py``, the
transposition table and hashes in ``_table.py``, the heap and growable
buffers in ``_heap.py``, the frontier's keys and order in ``_frontier.py``.
Arrays the search keeps (all preallocated, doubled when full):

- expanded nodes: ``node_packed[n]`` the 112-byte packed position of the
  n-th position taken from the frontier, ``node_entry[n]`` its entry,
  ``node_depth[n]`` its number of moves from the root (a macro move's
  all counted: ``_frontier.action_steps``);
- entries (every distinct position generated): ``ent_parent[e]`` the
  expanded node it was generated from (-1 for the root), ``ent_action[e]``
  the action that made it, ``ent_lo[e]``/``ent_hi[e]`` its 128-bit
  canonical hash, ``ent_done[e]`` 1 once expanded;
- the frontier: one binary min-heap per row of weights and number of deals
  left (heap ``k * DEAL_LEVELS + deals_left``), of int64 keys
  ``priority << 32 | (ENTRY_MASK - entry)`` (``heap_key``), so equal
  priorities give out the newest entry first (deterministic);
- the transposition table (``_table.py``), filled when a position is first
  generated, so each position up to column symmetry is queued once;
- per beam row (a row of weights with a width): ``given[h, d]``, how many
  positions of depth d heap h has given out.

Nothing is pruned but positions already generated: a beam row drops
positions from its own heaps only, and every position is also in the heaps
of the rows that are not beams. So when the frontier runs empty, every
position reachable from the root has been expanded, and the deal is lost.
The order of expansion does not depend on the node limit, so budgets nest.

``cache=True`` (``JIT``): numba's cache sees changes to the file a kernel is
defined in only, not to the kernels it inlines from other files, and it
freezes module globals; ``compiled.drop_stale_caches`` drops it when any
kernel file is newer.
"""

import numpy as np

from .._jit import njit
from ..state._board import CAP, DEAL, FD, JIT, LEN, MAX_ACTIONS, N_COLS, NREMOVED, NSTOCK, UNDO_SIZE
from ..state._hashing import combine
from ..state._kernels import action_code, apply_action, gen_actions, undo_action
from ..state._packing import PACKED_SIZE, pack, unpack
from ._frontier import (
    MACRO_SHIFT,
    PRIORITY_OFFSET,
    action_steps,
    entry_priority,
    heap_key,
    next_entry,
    plain_action,
    row_widths,
)
from ._heap import grow, heap_push
from ._table import DEAL_LEVELS, column_hashes, moved_hash, stock_parts, tt_insert, tt_rebuild
from ._terms import (
    N_COL_TERMS,
    N_WEIGHTS,
    W_FACE_DOWN,
    W_MACRO,
    W_NOISE,
    W_SEED,
    column_terms_into,
    features,
    first_empty_column,
    hash_noise,
    is_spare,
    moved_terms,
    splits_run,
    value_of,
)

# entry numbers are int32 in the table; a search that generates this many
# positions (tens of GB) stops as unknown
MAX_ENTRIES = (1 << 31) - 1 - 4096

WON, LOST, UNKNOWN = 1, 2, 0
# the slots of ``search``'s result array (int64[RESULT_SIZE])
RESULT_VERDICT = 0  # WON, LOST or UNKNOWN
RESULT_NODES = 1  # nodes expanded
RESULT_WIN_NODE = 2  # the expanded node the winning action was played from
RESULT_WIN_ACTION = 3  # that action
RESULT_BEST_ENTRY = 4  # the entry with the best value of row 0 generated
RESULT_BEST_VALUE = 5  # that value (for unproven hints)
RESULT_ENTRIES = 6  # entries: distinct positions generated
RESULT_STOPPED = 7  # STOPPED_BY_FLAG or STOPPED_BY_MEMORY if that ended the search, else 0
RESULT_BYTES = 8  # bytes the search's arrays held at the end (their capacities)
RESULT_LEAVES = 9  # positions past the reveal limit: generated and valued, not expanded
# the entry generated with the fewest deals left, and among those the best value of
# row 0 (the finisher starts from every earlier search's, solver._finisher_starts; the
# back beams from the six rows' and each tail beam's, solver._back_starts)
RESULT_LATE_ENTRY = 10
RESULT_LATE_KEY = 11  # its deals left x LATE_LEVEL + that value
RESULT_SIZE = 12
LATE_LEVEL = 1 << 32  # far above any value of a row
STOPPED_BY_FLAG = 1  # the stop flag (Ctrl-C)
STOPPED_BY_MEMORY = 2  # the arrays would have grown past ``byte_limit``
# nodes between two looks at the stop flag (a power of two): about 10 ms
STOP_EVERY = 1024


@njit(**JIT)
def _new_entries(cap):
    """Entry arrays with room for ``cap`` entries, none done.

    (ent_parent, ent_action, ent_lo, ent_hi, ent_done): see the module's docstring.
    """
    return (
        np.empty(cap, np.int32),
        np.empty(cap, np.uint16),
        np.empty(cap, np.uint64),
        np.empty(cap, np.uint64),
        np.zeros(cap, np.uint8),
    )


@njit(**JIT)
def _grow_entries(ent_parent, ent_action, ent_lo, ent_hi, ent_done, table, n_entries):
    """The entry arrays and the table, with room for ``MAX_ACTIONS`` more entries.

    The arrays are doubled until they fit, the table rebuilt twice as big
    until it is at most half full with them.
    """
    n_needed = n_entries + MAX_ACTIONS
    while n_needed > ent_parent.shape[0]:
        old = ent_parent.shape[0]
        ent_parent = grow(ent_parent)
        ent_action = grow(ent_action)
        ent_lo = grow(ent_lo)
        ent_hi = grow(ent_hi)
        ent_done = grow(ent_done)
        ent_done[old:] = 0
    while 2 * n_needed > table.shape[0]:
        table = tt_rebuild(ent_lo, ent_hi, n_entries, 2 * table.shape[0])
    return ent_parent, ent_action, ent_lo, ent_hi, ent_done, table


@njit(**JIT)
def _heap_rows_room(heaps, sizes, level, n_rows):
    """Grow the heaps an expansion at ``level`` pushes onto so each has room for
    ``MAX_ACTIONS`` more keys (its own level's, and the level below for a
    deal); returns True if one grew."""
    grew = False
    for k in range(n_rows):
        for lv in range(max(level - 1, 0), level + 1):
            h = DEAL_LEVELS * k + lv
            while sizes[h] + MAX_ACTIONS > heaps[h].shape[0]:
                heaps[h] = grow(heaps[h])
                grew = True
    return grew


@njit(**JIT)
def _held_bytes(
    node_packed,
    node_entry,
    node_depth,
    ent_parent,
    ent_action,
    ent_lo,
    ent_hi,
    ent_done,
    table,
    heaps,
    given,
):
    """Bytes the search's arrays hold (their capacities, used or not)."""
    held = node_packed.nbytes + node_entry.nbytes + node_depth.nbytes
    held += ent_parent.nbytes + ent_action.nbytes + ent_lo.nbytes + ent_hi.nbytes
    held += ent_done.nbytes + table.nbytes + given.nbytes
    for h in range(len(heaps)):
        held += heaps[h].nbytes
    return held


@njit(**JIT)
def _growth_bytes(
    node, node_packed, n_entries, ent_parent, table, heaps, sizes, level, n_rows, given
):
    """Bytes the arrays that must grow before the next expansion will allocate.

    The same conditions as ``_store_node``, ``_grow_entries`` and
    ``_heap_rows_room``; each new array is counted whole, since it is made
    before the old one is let go. Room is kept too for ``given`` to double
    when the frontier next gives out a deeper position (``next_entry``
    widens it before this is looked at again).
    """
    extra = 2 * given.nbytes
    if node >= node_packed.shape[0]:
        extra += 2 * node_packed.shape[0] * (PACKED_SIZE + 8)
    cap = ent_parent.shape[0]
    while n_entries + MAX_ACTIONS > cap:
        cap *= 2
    if cap > ent_parent.shape[0]:
        extra += cap * 23  # parent 4, action 2, hash 16, done 1
    size = table.shape[0]
    while 2 * (n_entries + MAX_ACTIONS) > size:
        size *= 2
    if size > table.shape[0]:
        extra += size * 4
    for k in range(n_rows):
        for lv in range(max(level - 1, 0), level + 1):
            h = DEAL_LEVELS * k + lv
            length = heaps[h].shape[0]
            while sizes[h] + MAX_ACTIONS > length:
                length *= 2
            if length > heaps[h].shape[0]:
                extra += length * 8
    return extra


@njit(**JIT)
def macro_moves(board, out, k):
    """Append to ``out`` (from index ``k``) the macro moves of ``board``; return the new count.

    A macro move takes the top ``n`` face-up cards of a column, a rank-descending
    sequence of two or more same-suit runs (which Classic rules do not move as
    one), to a column whose top card is one rank above the lowest moved card, or
    to the first empty column: every run but the lowest is parked first, each
    on a column whose top card is one rank above its own lowest card (not of
    its suit if the run ends on an ace, so that no run is completed there) or
    else in an empty column, then the lowest run moves and the parked runs
    follow it, last parked first. The position after it is the move's
    ``(src, dst, n)`` played as one (``apply_action``); ``macros.expand``
    writes out its moves. Classic rules only. Its code carries the number of
    runs parked (``MACRO_SHIFT``): its depth counts all 2 x parked + 1 moves.
    """
    tops = np.empty(N_COLS, np.int64)
    top_suits = np.empty(N_COLS, np.int64)
    empty = 0
    first_empty = -1
    for c in range(N_COLS):
        length = board[LEN + c]
        if length > 0:
            card = board[c * CAP + length - 1]
            tops[c] = card & 15
            top_suits[c] = card >> 4
        else:
            tops[c] = 0
            top_suits[c] = -1
            empty += 1
            if first_empty < 0:
                first_empty = c
    seg_len = np.empty(13, np.int64)  # the runs of the descending sequence, top first
    seg_low = np.empty(13, np.int64)  # each run's lowest card's rank (its deepest card)
    seg_suit = np.empty(13, np.int64)
    for src in range(N_COLS):
        length = board[LEN + src]
        n_up = length - board[FD + src]
        if n_up < 2:
            continue
        base = src * CAP + length - 1
        n_segs = 1
        seg_len[0] = 1
        seg_suit[0] = board[base] >> 4
        seg_low[0] = board[base] & 15
        desc = 1
        while desc < n_up:
            lower = board[base - desc]
            upper = board[base - desc + 1]
            if (lower & 15) != (upper & 15) + 1:
                break
            if (lower >> 4) != (upper >> 4):
                seg_len[n_segs] = 0
                seg_suit[n_segs] = lower >> 4
                n_segs += 1
            seg_len[n_segs - 1] += 1
            seg_low[n_segs - 1] = lower & 15
            desc += 1
        if n_segs < 2:
            continue
        ace_on_top = (board[base] & 15) == 1
        for dst in range(N_COLS):
            if dst == src:
                continue
            if tops[dst] == 0:
                if dst != first_empty:
                    continue
                n_lo = seg_len[0] + 1
                n_hi = desc if desc < length else desc - 1  # not a whole column to an empty one
            else:
                n_lo = tops[dst] - tops[src]
                n_hi = n_lo
                if n_lo <= seg_len[0] or n_lo > desc:
                    continue
            spare = empty - (1 if tops[dst] == 0 else 0)  # empty columns to park in
            for n in range(n_lo, n_hi + 1):
                # the runs the n cards cover; all but the lowest are parked
                covered = 0
                j = 0
                while covered + seg_len[j] < n:
                    covered += seg_len[j]
                    j += 1
                # runs 0 .. j-1 are parked, run j (maybe part of it) moves first;
                # those with no column to lie on need an empty one
                need = 0
                for r in range(j):
                    fits = False
                    for c in range(N_COLS):
                        if c == src or c == dst or tops[c] != seg_low[r] + 1:
                            continue
                        if r == 0 and ace_on_top and top_suits[c] == seg_suit[r]:
                            continue
                        fits = True
                        break
                    if not fits:
                        need += 1
                if j >= 1 and need <= spare:
                    out[k] = action_code(src, dst, n) | (j << MACRO_SHIFT)
                    k += 1
    return k


@njit(**JIT)
def _expand(
    board,
    node,
    depth,
    relaxed,
    actions,
    undo,
    node_lo,
    node_hi,
    card_keys,
    parts,
    table,
    ent_lo,
    ent_hi,
    ent_parent,
    ent_action,
    n_entries,
    heaps,
    sizes,
    weights,
    widths,
    result,
    col_lo,
    col_hi,
    col_terms,
    node_terms,
    terms,
    deal_lo,
    deal_hi,
    leaf_below,
    noisy,
    macro,
):
    """Generate the children of expanded node ``node`` (``board``, at ``depth``).

    Each child not generated before becomes an entry, queued on every row's
    heap. The entry arrays and the table must have room for every action.
    Returns (the winning action or -1, the number of entries). The last
    seven arrays are scratch: the node's columns' hashes (``col_lo``,
    ``col_hi``) and ``column_terms`` (``col_terms``), so that a move's child
    costs only the two columns it touched, the node's and a child's
    ``features``, a deal's child's columns' hashes.

    A child whose ``hidden`` (face-down cards plus deals left) is below
    ``leaf_below`` is a leaf: entered and valued (``RESULT_BEST_...``), but
    queued on no heap, so it is never expanded (``RESULT_LEAVES`` counts them).
    ``noisy``: some row has noise (``W_NOISE``); without, a child's value is
    not looked at for it.
    """
    column_hashes(board, card_keys, parts, 0, col_lo)
    column_hashes(board, card_keys, parts, 1, col_hi)
    column_terms_into(board, col_terms, node_terms)
    count = gen_actions(board, relaxed, actions)
    if macro and not relaxed:
        count = macro_moves(board, actions, count)
    first_empty = first_empty_column(board)
    for i in range(count):
        code = actions[i]
        action = plain_action(code)
        steps = action_steps(code)  # the moves it stands for: depth counts them
        spare = max(is_spare(board, action, first_empty), splits_run(board, action))
        apply_action(board, action, undo)
        if board[NREMOVED] == 8:
            return action, n_entries
        if action == DEAL:
            column_hashes(board, card_keys, parts, 0, deal_lo)
            column_hashes(board, card_keys, parts, 1, deal_hi)
            ent_lo[n_entries] = combine(deal_lo, board, 0)
            ent_hi[n_entries] = combine(deal_hi, board, 1)
        else:
            ent_lo[n_entries] = moved_hash(node_lo, col_lo, board, action, card_keys, parts, 0)
            ent_hi[n_entries] = moved_hash(node_hi, col_hi, board, action, card_keys, parts, 1)
        if tt_insert(table, ent_lo, ent_hi, n_entries):
            ent_parent[n_entries] = node
            ent_action[n_entries] = code
            if action == DEAL:
                features(board, terms)
            else:
                moved_terms(node_terms, col_terms, board, action, terms)
            level = board[NSTOCK] // N_COLS
            leaf = terms[W_FACE_DOWN] + level < leaf_below
            result[RESULT_LEAVES] += leaf
            for k in range(weights.shape[0]):
                score = value_of(weights[k], terms)
                if k == 0:
                    if score < result[RESULT_BEST_VALUE]:
                        result[RESULT_BEST_ENTRY] = n_entries
                        result[RESULT_BEST_VALUE] = score
                    late = level * LATE_LEVEL + score
                    if late < result[RESULT_LATE_KEY]:
                        result[RESULT_LATE_ENTRY] = n_entries
                        result[RESULT_LATE_KEY] = late
                if leaf:
                    continue
                h = DEAL_LEVELS * k + level
                if sizes[h] >= heaps[h].shape[0]:
                    heaps[h] = grow(heaps[h])
                if noisy:
                    score += hash_noise(ent_lo[n_entries], weights[k, W_NOISE], weights[k, W_SEED])
                priority = entry_priority(weights[k], widths[k], score, spare, depth + steps - 1)
                sizes[h] = heap_push(heaps[h], sizes[h], heap_key(priority, n_entries))
            n_entries += 1
        undo_action(board, undo)
    return -1, n_entries


@njit(**JIT)
def _new_nodes(node_limit):
    """Expanded-node arrays (node_packed, node_entry, node_depth), grown as needed."""
    # the same first size for every limit, so a byte limit stops a search at
    # the same node whatever its node limit (untouched pages cost nothing)
    node_cap = (1 << 16) + 1
    node_packed = np.empty((node_cap, PACKED_SIZE), np.uint8)
    node_entry = np.empty(node_cap, np.int32)
    node_depth = np.empty(node_cap, np.int32)
    return node_packed, node_entry, node_depth


@njit(**JIT)
def _restore(board, root, entry, ent_parent, ent_action, node_packed, node_depth, undo):
    """Set ``board`` to the position of ``entry``; returns its depth.

    An entry's position is its parent node's, played on by its action.
    """
    parent = ent_parent[entry]
    if parent < 0:
        board[:] = root
        return 0
    unpack(node_packed[parent], board)
    code = np.int32(ent_action[entry])
    apply_action(board, plain_action(code), undo)
    return node_depth[parent] + action_steps(code)


@njit(**JIT)
def _store_node(board, node, entry, depth, node_packed, node_entry, node_depth):
    """Record ``board`` as expanded node ``node``; returns the node arrays (grown if full)."""
    if node >= node_packed.shape[0]:
        grown = np.empty((node_packed.shape[0] * 2, PACKED_SIZE), np.uint8)
        grown[: node_packed.shape[0]] = node_packed
        node_packed = grown
        node_entry = grow(node_entry)
        node_depth = grow(node_depth)
    pack(board, node_packed[node])
    node_entry[node] = entry
    node_depth[node] = depth
    return node_packed, node_entry, node_depth


@njit(**JIT)
def _push_root(root, card_keys, parts, table, ent_lo, ent_hi, ent_parent, ent_action, heaps, sizes):
    """Make ``root`` entry 0 (in the table) and queue it on every row's heap."""
    col_lo = np.empty(N_COLS, np.uint64)
    col_hi = np.empty(N_COLS, np.uint64)
    column_hashes(root, card_keys, parts, 0, col_lo)
    column_hashes(root, card_keys, parts, 1, col_hi)
    ent_lo[0] = combine(col_lo, root, 0)
    ent_hi[0] = combine(col_hi, root, 1)
    tt_insert(table, ent_lo, ent_hi, 0)
    ent_parent[0] = -1
    ent_action[0] = 0
    level = root[NSTOCK] // N_COLS
    for k in range(sizes.shape[0] // DEAL_LEVELS):
        h = DEAL_LEVELS * k + level
        sizes[h] = heap_push(heaps[h], 0, heap_key(PRIORITY_OFFSET, 0))


@njit(**JIT)
def _start_result(result):
    """``result`` before the search: unknown, no winning node, no best entry."""
    result[RESULT_VERDICT] = UNKNOWN
    result[RESULT_WIN_NODE] = -1
    result[RESULT_WIN_ACTION] = -1
    result[RESULT_BEST_ENTRY] = -1
    result[RESULT_BEST_VALUE] = 1 << 40
    result[RESULT_LATE_ENTRY] = -1
    result[RESULT_LATE_KEY] = 1 << 62
    result[RESULT_LEAVES] = 0


@njit(**JIT)
def _end_result(result, verdict, nodes, n_entries):
    """The slots of ``result`` every end of the search writes."""
    result[RESULT_VERDICT] = verdict
    result[RESULT_NODES] = nodes
    result[RESULT_ENTRIES] = n_entries


@njit(**JIT)
def search(
    root,
    relaxed,
    node_limit,
    byte_limit,
    reveal_limit,
    weights,
    card_keys,
    stock_keys,
    result,
    stop,
):
    """Best-first search from ``root`` (a working board).

    ``weights[k]`` are the weights of heuristic k (``_terms.W_...``). Every
    generated position goes into one heap per heuristic, for its number of
    deals left: heap ``k * DEAL_LEVELS + deals_left``. Positions are taken
    from the heaps in turn, skipping empty heaps and positions another heap
    already gave out (alternation of heuristics).

    A row with ``weights[k, W_MACRO] > 0`` adds the macro moves of every
    expanded position to its children (``macro_moves``), for every row:
    ``1`` from the first node on, ``n > 1`` from node ``n`` (counted from 0)
    on, the least of the rows' if several. Before it the search is the one
    without macro moves, node for node.

    A row with ``weights[k, W_WIDTH] = w > 0`` is a beam: its heaps give
    out positions by depth first (then by value, ties newest first), and
    at most ``w`` of each depth per heap; the rest it drops. The same
    positions stay in the other rows' heaps, so with one row that is not a
    beam nothing is pruned; with beams only, a frontier that runs empty
    after a drop means unknown, not lost.

    Writes into ``result`` (int64[RESULT_SIZE]) the slots ``RESULT_...``.
    Returns (node_entry, ent_parent, ent_action) to rebuild the line.

    ``stop`` (int64[1]) is polled every ``STOP_EVERY`` nodes: another
    thread sets it to 1 to end the search early (Ctrl-C); the verdict is
    then UNKNOWN and ``result[RESULT_STOPPED]`` is ``STOPPED_BY_FLAG``.
    Polling reads one cell and changes nothing else, so a search that is
    not stopped is the same search.

    ``byte_limit`` > 0 caps the bytes the search's arrays may hold: when
    the next expansion would grow them past it, the search ends UNKNOWN with
    ``result[RESULT_STOPPED]`` = ``STOPPED_BY_MEMORY``, exactly as a node
    limit of the nodes expanded so far would have ended it (the order of
    expansion does not depend on either limit). 0: no cap.

    ``reveal_limit`` >= 0 searches only the positions reached with at most
    that many *reveals* (face-down cards turned up, and deals): a position
    one reveal past it is generated and valued but not expanded (a leaf,
    counted in ``result[RESULT_LEAVES]``), and a search that cut a leaf never
    says LOST. -1: no limit. The honest advisor uses it to value a table by
    what can be reached before more cards must be seen.
    """
    board = root.copy()
    undo = np.empty(UNDO_SIZE, np.int32)
    actions = np.empty(MAX_ACTIONS, np.int32)
    col_lo = np.empty(N_COLS, np.uint64)
    col_hi = np.empty(N_COLS, np.uint64)
    col_terms = np.empty((N_COLS, N_COL_TERMS), np.int64)
    node_terms = np.empty(N_WEIGHTS, np.int64)
    terms = np.empty(N_WEIGHTS, np.int64)
    deal_lo = np.empty(N_COLS, np.uint64)
    deal_hi = np.empty(N_COLS, np.uint64)
    parts = stock_parts(root, stock_keys)
    node_packed, node_entry, node_depth = _new_nodes(node_limit)
    ent_parent, ent_action, ent_lo, ent_hi, ent_done = _new_entries(1 << 16)
    n_heuristics = weights.shape[0]
    n_heaps = DEAL_LEVELS * n_heuristics
    heaps = [np.empty(1 << 12, np.int64) for _ in range(n_heaps)]
    sizes = np.zeros(n_heaps, np.int64)
    turn = 0
    table = np.full(1 << 17, -1, np.int32)
    widths, exhaustive = row_widths(weights)
    noisy = False  # some row adds noise to its values (``W_NOISE``)
    # the node macro moves start from (``W_MACRO``: 1 the first, n > 1 node n); a
    # search without them never reaches node_limit
    macro_from = node_limit
    for k in range(n_heuristics):
        noisy = noisy or weights[k, W_NOISE] > 0
        if weights[k, W_MACRO] > 0:
            first = 0 if weights[k, W_MACRO] == 1 else int(weights[k, W_MACRO])
            macro_from = min(macro_from, first)
    given = np.zeros((n_heaps, 256), np.int32)  # beam heaps: given out per depth
    dropped = False
    _push_root(root, card_keys, parts, table, ent_lo, ent_hi, ent_parent, ent_action, heaps, sizes)
    n_entries = 1
    # a child is a leaf when its hidden count (face-down cards + deals left) falls below this
    features(root, terms)
    leaf_below = (
        -1 if reveal_limit < 0 else terms[W_FACE_DOWN] + root[NSTOCK] // N_COLS - reveal_limit
    )
    waiting = n_heuristics
    nodes = 0
    _start_result(result)
    # the arrays' bytes, counted again whenever one grows (``shapes``: their sizes then)
    shapes = node_packed.shape[0] + ent_parent.shape[0] + table.shape[0] + given.size
    given_size = given.size
    held = _held_bytes(
        node_packed,
        node_entry,
        node_depth,
        ent_parent,
        ent_action,
        ent_lo,
        ent_hi,
        ent_done,
        table,
        heaps,
        given,
    )

    while True:
        entry, turn, waiting, given, drop = next_entry(
            heaps, sizes, turn, waiting, widths, given, ent_parent, ent_action, node_depth, ent_done
        )
        dropped = dropped or drop
        if entry < 0:
            break
        stopped = (nodes & (STOP_EVERY - 1)) == 0 and stop[0] != 0
        if given.size != given_size:  # next_entry widened it: count it now
            given_size = given.size
            held = _held_bytes(
                node_packed,
                node_entry,
                node_depth,
                ent_parent,
                ent_action,
                ent_lo,
                ent_hi,
                ent_done,
                table,
                heaps,
                given,
            )
        depth = _restore(board, root, entry, ent_parent, ent_action, node_packed, node_depth, undo)
        level = board[NSTOCK] // N_COLS
        full = False
        if byte_limit > 0:
            pending = _growth_bytes(
                nodes,
                node_packed,
                n_entries,
                ent_parent,
                table,
                heaps,
                sizes,
                level,
                n_heuristics,
                given,
            )
            full = held + pending > byte_limit
        if stopped or full or nodes >= node_limit or n_entries >= MAX_ENTRIES:
            result[RESULT_STOPPED] = (
                STOPPED_BY_FLAG if stopped else STOPPED_BY_MEMORY if full else 0
            )
            _end_result(result, UNKNOWN, nodes, n_entries)
            result[RESULT_BYTES] = held
            return node_entry[:nodes], ent_parent[:n_entries], ent_action[:n_entries]
        ent_done[entry] = 1
        turn = (turn + 1) % n_heaps
        node = nodes
        nodes += 1
        node_packed, node_entry, node_depth = _store_node(
            board, node, entry, depth, node_packed, node_entry, node_depth
        )
        ent_parent, ent_action, ent_lo, ent_hi, ent_done, table = _grow_entries(
            ent_parent, ent_action, ent_lo, ent_hi, ent_done, table, n_entries
        )
        grew = _heap_rows_room(heaps, sizes, level, n_heuristics)
        now_shapes = node_packed.shape[0] + ent_parent.shape[0] + table.shape[0] + given.size
        if grew or now_shapes != shapes:
            shapes = now_shapes
            held = _held_bytes(
                node_packed,
                node_entry,
                node_depth,
                ent_parent,
                ent_action,
                ent_lo,
                ent_hi,
                ent_done,
                table,
                heaps,
                given,
            )
        leaves = result[RESULT_LEAVES]
        macro_now = node >= macro_from
        won, now = _expand(
            board,
            node,
            depth,
            relaxed,
            actions,
            undo,
            ent_lo[entry],
            ent_hi[entry],
            card_keys,
            parts,
            table,
            ent_lo,
            ent_hi,
            ent_parent,
            ent_action,
            n_entries,
            heaps,
            sizes,
            weights,
            widths,
            result,
            col_lo,
            col_hi,
            col_terms,
            node_terms,
            terms,
            deal_lo,
            deal_hi,
            leaf_below,
            noisy,
            macro_now,
        )
        if won >= 0:
            _end_result(result, WON, nodes, now)
            result[RESULT_BYTES] = held
            result[RESULT_WIN_NODE] = node
            result[RESULT_WIN_ACTION] = won
            return node_entry[:nodes], ent_parent[:now], ent_action[:now]
        waiting += n_heuristics * (now - n_entries - (result[RESULT_LEAVES] - leaves))
        n_entries = now

    lost = (exhaustive or not dropped) and result[RESULT_LEAVES] == 0
    _end_result(result, LOST if lost else UNKNOWN, nodes, n_entries)
    result[RESULT_BYTES] = held
    return node_entry[:nodes], ent_parent[:n_entries], ent_action[:n_entries]
