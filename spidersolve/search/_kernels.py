"""Numba best-first search over the working board of ``state/_kernels.py``.

Arrays the search keeps (all preallocated, doubled when full):

- expanded nodes: ``node_packed[n]`` the 112-byte packed position of the
  n-th position taken from the frontier, ``node_entry[n]`` its entry,
  ``node_depth[n]`` its number of actions from the root;
- entries (every distinct position generated): ``ent_parent[e]`` the
  expanded node it was generated from (-1 for the root), ``ent_action[e]``
  the action that made it;
- the frontier: a binary min-heap of int64 keys ``priority << 32 | entry``,
  so equal priorities leave newest first (deterministic);
- the transposition table: open addressing on the 128-bit canonical hash,
  whose slots hold entry numbers (the hashes are ``ent_lo[e]``,
  ``ent_hi[e]``), filled when a position is first generated, so each
  position up to column symmetry is queued once.

- per beam row (a row of weights with a width): ``given[h, d]``, how many
  positions of depth d heap h has given out.

Nothing is pruned but positions already generated: a beam row drops
positions from its own heaps only, and every position is also in the heaps
of the rows that are not beams. So when the frontier runs empty, every
position reachable from the root has been expanded, and the deal is lost.
The order of expansion does not depend on the node limit, so budgets nest.
"""

import numpy as np
from numba import njit

from ..state._board import CAP, DEAL, FD, JIT, LEN, MAX_ACTIONS, N_COLS, NREMOVED, NSTOCK, UNDO_SIZE
from ..state._hashing import _mix, column_stock_hash, column_zobrist, combine
from ..state._kernels import apply_action, gen_actions, undo_action
from ..state._packing import pack, unpack

PRIORITY_OFFSET = 1 << 30
ENTRY_MASK = 0xFFFFFFFF  # equal priorities: the newest entry first
# entry numbers are int32 in the table; a search that generates this many
# positions (tens of GB) stops as unknown
MAX_ENTRIES = (1 << 31) - 1 - 4096

# weights[i] for the terms of evaluate(), lower is better
W_FACE_DOWN = 0
W_BREAK = 1
W_MIXED = 2
W_EMPTY = 3
W_REMOVED = 4
W_DEAL_LEFT = 5
W_DEPTH = 6
W_BURIED = 7
W_LOOSE = 8
W_GOOD = 9
W_SPARE = 10
W_WIDTH = 11  # not a term: > 0 makes the row a beam of that width
N_WEIGHTS = 12
# a beam row's priority: depth first (this much a layer), then the value
BEAM_LAYER = 1 << 14

PACKED_SIZE = 112

WON, LOST, UNKNOWN = 1, 2, 0
# nodes between two looks at the stop flag (a power of two): about 10 ms
STOP_EVERY = 1024


@njit(**JIT)
def _follows(lower, upper):
    """True if card ``upper`` lies on ``lower`` in a same-suit run."""
    return (lower >> 4) == (upper >> 4) and (lower & 15) == (upper & 15) + 1


@njit(**JIT)
def _run_down(board, c, i):
    """How many face-up cards of column c, from index i down, form one same-suit run."""
    base = c * CAP
    k = 1
    while i - k >= board[FD + c] and _follows(board[base + i - k], board[base + i - k + 1]):
        k += 1
    return k


@njit(**JIT)
def _good_moves(board):
    """Columns whose same-suit run on top fits on another column's top card."""
    # per column: the top card, and the bottom card of the same-suit run on top
    top_card = np.zeros(N_COLS, np.int64)
    run_bottom = np.zeros(N_COLS, np.int64)
    for c in range(N_COLS):
        length = board[LEN + c]
        if length == 0:
            continue
        base = c * CAP
        top_card[c] = board[base + length - 1]
        run_bottom[c] = board[base + length - _run_down(board, c, length - 1)]
    good = 0
    for c in range(N_COLS):
        if top_card[c] == 0:
            continue
        for d in range(N_COLS):
            if d != c and top_card[d] == run_bottom[c] + 1:
                good += 1
                break
    return good


@njit(**JIT)
def column_terms(board, c):
    """Column c's share of the terms of ``features``, signed as there.

    (face_down, breaks, mixed, -empty, buried, loose): face-down cards;
    breaks and mixed pairs among its face-up cards; -1 if it is empty;
    face-down cards under several face-up runs are harder to reach (each
    run above them must move away first), so buried counts those runs;
    loose is 1 for a column with no face-down cards not founded on a king
    (it must move again).
    """
    length = board[LEN + c]
    if length == 0:
        return 0, 0, 0, -1, 0, 0
    fd = board[FD + c]
    base = c * CAP
    breaks = 0
    mixed = 0
    for i in range(length - 1, fd, -1):
        lower = board[base + i - 1]
        upper = board[base + i]
        if (lower & 15) == (upper & 15) + 1:
            if (lower >> 4) != (upper >> 4):
                mixed += 1
        else:
            breaks += 1
    if fd > 0:
        return fd, breaks, mixed, 0, 1 + breaks + mixed, 0
    return 0, breaks, mixed, 0, 0, 1 if (board[base] & 15) != 13 else 0


@njit(**JIT)
def features(board, need_good, out):
    """The heuristic's terms for ``board``, signed so that value = weights . out.

    ``out[W_...]`` holds each term (bonuses negative; ``out[W_DEPTH]`` and
    ``out[W_SPARE]`` are 0: the search adds the depth and the spare-move
    penalty, which belong to the path, not the position; ``out[W_WIDTH]``
    is 0: it is a setting of the row). ``need_good``: also count the
    good-move term, which looks at every pair of columns.
    """
    face_down = 0
    breaks = 0
    mixed = 0
    empty = 0
    buried = 0
    loose = 0
    for c in range(N_COLS):
        f, b, m, e, u, o = column_terms(board, c)
        face_down += f
        breaks += b
        mixed += m
        empty += e
        buried += u
        loose += o
    good = _good_moves(board) if need_good else 0
    out[W_FACE_DOWN] = face_down
    out[W_BREAK] = breaks
    out[W_MIXED] = mixed
    out[W_EMPTY] = empty
    out[W_REMOVED] = -board[NREMOVED]
    out[W_DEAL_LEFT] = board[NSTOCK] // 10
    out[W_DEPTH] = 0
    out[W_BURIED] = buried
    out[W_LOOSE] = loose
    out[W_GOOD] = -good
    out[W_SPARE] = 0
    out[W_WIDTH] = 0


@njit(**JIT)
def _value(weights, terms):
    value = 0
    for i in range(N_WEIGHTS):
        value += weights[i] * terms[i]
    return value


@njit(**JIT)
def evaluate(board, weights):
    """The heuristic: an int, lower for positions nearer a win (no depth term)."""
    terms = np.empty(N_WEIGHTS, np.int64)
    features(board, weights[W_GOOD] != 0, terms)
    return _value(weights, terms)


@njit(**JIT)
def first_empty_column(board):
    """The first empty column while the stock lasts; -1 if none or no stock."""
    if board[NSTOCK] > 0:
        for c in range(N_COLS):
            if board[LEN + c] == 0:
                return c
    return -1


@njit(**JIT)
def splits_run(board, action):
    """1 if the move splits a same-suit run and the run its cards are part of
    is not longer where they land (KPatience's beam leaves such moves out).

    The search ranks such a move later, as a spare one (``W_SPARE``);
    the line-shortening beam leaves it out.
    """
    if action == DEAL:
        return 0
    src = action >> 12
    dst = (action >> 8) & 15
    length = board[LEN + dst]
    i = board[LEN + src] - (action & 255)  # where the moved cards start
    if i == board[FD + src] or not _follows(board[src * CAP + i - 1], board[src * CAP + i]):
        return 0  # splits no same-suit run
    if length == 0 or not _follows(board[dst * CAP + length - 1], board[src * CAP + i]):
        return 1  # the cards land in no same-suit run
    return 1 if _run_down(board, dst, length - 1) <= _run_down(board, src, i - 1) else 0


@njit(**JIT)
def is_spare(board, action, first_empty):
    """1 if ``action`` moves cards into an empty column other than ``first_empty``.

    While the stock lasts, such a move makes a position of its own (other
    cards will be dealt onto that column) but rarely a better one than the
    move into the first empty column: ``weights[k, W_SPARE]`` ranks it later,
    as it does moves that ``splits_run``. Nothing is pruned. ``first_empty``
    is ``first_empty_column(board)``.
    """
    if first_empty < 0 or action == DEAL:
        return 0
    dst = (action >> 8) & 15
    return 1 if dst != first_empty and board[LEN + dst] == 0 else 0


@njit(**JIT)
def stock_parts(root, stock_keys):
    """The stock's share of each column's hash, by hash variant and deals left.

    ``parts[v, k, c]`` is ``column_stock_hash`` of column c once k deals are
    left. Valid for ``root`` and every position played from it: deals take
    cards from the front of the stock, so what is left is always the tail of
    the root's stock. Levels above the root's stay 0.
    """
    parts = np.zeros((2, 6, N_COLS), np.uint64)
    board = root.copy()
    for k in range(root[NSTOCK] // 10 + 1):
        board[NSTOCK] = 10 * k
        for v in range(2):
            for c in range(N_COLS):
                parts[v, k, c] = column_stock_hash(board, c, stock_keys, v)
    return parts


@njit(**JIT)
def _column_hashes(board, card_keys, parts, variant, out):
    """Each column's ``column_hash`` (``variant``) into ``out``, the stock's
    shares taken from ``stock_parts``; ``combine`` makes the canonical hash."""
    level = board[NSTOCK] // 10
    for c in range(N_COLS):
        out[c] = column_zobrist(board, c, card_keys, variant) ^ parts[variant, level, c]


@njit(**JIT)
def _moved_hash(parent_hash, parent_cols, board, action, card_keys, parts, variant):
    """The canonical hash (``variant``) of ``board`` just after the move ``action``.

    ``parent_hash`` is the hash before the move and ``parent_cols`` the
    columns' hashes then (with their stock shares). The hash is a sum over
    columns, so only the two columns the move touched are swapped; a move
    leaves the stock as it was.
    """
    h = parent_hash
    level = board[NSTOCK] // 10
    for c in (action >> 12, (action >> 8) & 15):
        now = column_zobrist(board, c, card_keys, variant) ^ parts[variant, level, c]
        h += _mix(now, variant) - _mix(parent_cols[c], variant)
    return h


@njit(**JIT)
def _moved_terms(parent_terms, parent_col_terms, board, action, need_good, out):
    """``features`` of ``board`` just after the move ``action``, into ``out``.

    ``parent_terms`` are the features before the move and
    ``parent_col_terms[c]`` column c's ``column_terms`` then: only the two
    columns the move touched are swapped.
    """
    out[:] = parent_terms
    for c in (action >> 12, (action >> 8) & 15):
        old = parent_col_terms[c]
        f, b, m, e, u, o = column_terms(board, c)
        out[W_FACE_DOWN] += f - old[0]
        out[W_BREAK] += b - old[1]
        out[W_MIXED] += m - old[2]
        out[W_EMPTY] += e - old[3]
        out[W_BURIED] += u - old[4]
        out[W_LOOSE] += o - old[5]
    out[W_REMOVED] = -board[NREMOVED]
    if need_good:
        out[W_GOOD] = -_good_moves(board)


@njit(**JIT)
def _tt_slot(table, ent_lo, ent_hi, lo, hi):
    """The slot of the entry with hashes (lo, hi), or the free slot where it goes.

    The table holds entry numbers (-1 marks a free slot); the 128-bit hashes
    live in ``ent_lo``/``ent_hi``; open addressing, linear probing. The
    table must have a free slot.
    """
    mask = table.shape[0] - 1
    i = np.int64(lo & np.uint64(mask))
    while True:
        other = table[i]
        if other < 0 or (ent_lo[other] == lo and ent_hi[other] == hi):
            return i
        i = (i + 1) & mask


@njit(**JIT)
def _tt_insert(table, ent_lo, ent_hi, entry):
    """Put ``entry`` in the table unless a position with its hash is there.

    True if it was inserted. The table must have room.
    """
    slot = _tt_slot(table, ent_lo, ent_hi, ent_lo[entry], ent_hi[entry])
    if table[slot] >= 0:
        return False
    table[slot] = entry
    return True


@njit(**JIT)
def _tt_rebuild(ent_lo, ent_hi, n_entries, size):
    table = np.full(size, -1, np.int32)
    for entry in range(n_entries):
        _tt_insert(table, ent_lo, ent_hi, entry)
    return table


@njit(**JIT)
def _entry_depth(entry, ent_parent, node_depth):
    parent = ent_parent[entry]
    return 0 if parent < 0 else node_depth[parent] + 1


@njit(**JIT)
def _heap_push(heap, size, key):
    i = size
    heap[i] = key
    while i > 0:
        parent = (i - 1) >> 1
        if heap[parent] <= key:
            break
        heap[i] = heap[parent]
        i = parent
    heap[i] = key
    return size + 1


@njit(**JIT)
def _heap_pop(heap, size):
    top = heap[0]
    size -= 1
    last = heap[size]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and heap[child + 1] < heap[child]:
            child += 1
        if heap[child] >= last:
            break
        heap[i] = heap[child]
        i = child
    if size > 0:
        heap[i] = last
    return top


@njit(**JIT)
def _grow(arr):
    out = np.empty(arr.shape[0] * 2, arr.dtype)
    out[:arr.shape[0]] = arr
    return out


@njit(**JIT)
def search(root, relaxed, node_limit, weights, order, card_keys, stock_keys, result, stop):
    """Best-first search from ``root`` (a working board).

    ``weights[k]`` are the weights of heuristic k. Every generated position
    goes into one heap per heuristic, for its number of deals left: heap
    ``k * 6 + deals_left``. ``order`` lists heap numbers; positions are
    taken from the heaps in that order, in turn, skipping empty heaps and
    positions another heap already gave out (alternation of heuristics).

    A row with ``weights[k, W_WIDTH] = w > 0`` is a beam: its heaps give
    out positions by depth first (then by value, ties newest first), and
    at most ``w`` of each depth per heap; the rest it drops. The same
    positions stay in the other rows' heaps, so with one row that is not a
    beam nothing is pruned; with beams only, a frontier that runs empty
    after a drop means unknown, not lost.

    Writes into ``result`` (int64[8]): verdict (WON, LOST, UNKNOWN), nodes
    expanded, the expanded node the winning action was played from, that
    action, the entry with the best heuristic value generated and that value
    (for unproven hints), and the number of entries (distinct positions
    generated), then 1 if the search was stopped by ``stop``. Returns
    (node_entry, ent_parent, ent_action) to rebuild the line.

    ``stop`` (int64[1]) is polled every ``STOP_EVERY`` nodes: another
    thread sets it to 1 to end the search early (Ctrl-C); the verdict is
    then UNKNOWN and ``result[7]`` is 1. Polling reads one cell and changes
    nothing else, so a search that is not stopped is the same search.
    """
    board = root.copy()
    undo = np.empty(UNDO_SIZE, np.int32)
    actions = np.empty(MAX_ACTIONS, np.int32)
    col_lo = np.empty(N_COLS, np.uint64)
    col_hi = np.empty(N_COLS, np.uint64)
    col_terms = np.empty((N_COLS, 6), np.int64)
    deal_lo = np.empty(N_COLS, np.uint64)  # a deal's child: its columns' hashes
    deal_hi = np.empty(N_COLS, np.uint64)
    parts = stock_parts(root, stock_keys)

    node_cap = min(node_limit, 1 << 16) + 1
    node_packed = np.empty((node_cap, PACKED_SIZE), np.uint8)
    node_entry = np.empty(node_cap, np.int32)
    node_depth = np.empty(node_cap, np.int32)
    ent_parent = np.empty(1 << 16, np.int32)
    ent_action = np.empty(1 << 16, np.uint16)
    ent_lo = np.empty(1 << 16, np.uint64)
    ent_hi = np.empty(1 << 16, np.uint64)
    ent_done = np.zeros(1 << 16, np.uint8)  # 1 once expanded
    n_heuristics = weights.shape[0]
    terms = np.empty(N_WEIGHTS, np.int64)
    node_terms = np.empty(N_WEIGHTS, np.int64)
    need_good = False
    for k in range(n_heuristics):
        if weights[k, W_GOOD] != 0:
            need_good = True
    heaps = [np.empty(1 << 12, np.int64) for _ in range(6 * n_heuristics)]
    sizes = np.zeros(6 * n_heuristics, np.int64)
    turn = 0
    table = np.full(1 << 17, -1, np.int32)
    widths = np.zeros(n_heuristics, np.int64)
    exhaustive = False  # some row drops nothing
    for k in range(n_heuristics):
        widths[k] = weights[k, W_WIDTH]
        if widths[k] <= 0:
            exhaustive = True
    given = np.zeros((6 * n_heuristics, 256), np.int32)  # beam heaps: given out per depth
    dropped = False

    _column_hashes(board, card_keys, parts, 0, col_lo)
    _column_hashes(board, card_keys, parts, 1, col_hi)
    ent_lo[0] = combine(col_lo, board, 0)
    ent_hi[0] = combine(col_hi, board, 1)
    _tt_insert(table, ent_lo, ent_hi, 0)
    ent_parent[0] = -1
    ent_action[0] = 0
    n_entries = 1
    level = root[NSTOCK] // 10
    for k in range(n_heuristics):
        h = 6 * k + level
        sizes[h] = _heap_push(heaps[h], 0, (np.int64(PRIORITY_OFFSET) << 32) | ENTRY_MASK)
    waiting = n_heuristics
    nodes = 0
    result[0] = UNKNOWN
    result[2] = -1
    result[3] = -1
    result[4] = -1
    result[5] = 1 << 40

    while True:
        # the next position to expand: copies another heuristic's heap gave
        # out already are dropped first, so an exhausted frontier is seen as
        # such even when the limit is reached on the same step
        entry = -1
        while waiting > 0:
            h = order[turn]
            if sizes[h] == 0:
                turn = (turn + 1) % order.shape[0]
                continue
            key = _heap_pop(heaps[h], sizes[h])
            sizes[h] -= 1
            waiting -= 1
            candidate = ENTRY_MASK - (key & ENTRY_MASK)
            width = widths[h // 6]
            if width > 0:
                d = _entry_depth(candidate, ent_parent, node_depth)
                if d >= given.shape[1]:
                    wider = np.zeros((given.shape[0], 2 * d), np.int32)
                    wider[:, :given.shape[1]] = given
                    given = wider
                if given[h, d] >= width:
                    dropped = True
                    continue
                given[h, d] += 1
            if not ent_done[candidate]:
                entry = candidate
                break
        if entry < 0:
            break
        stopped = (nodes & (STOP_EVERY - 1)) == 0 and stop[0] != 0
        if stopped or nodes >= node_limit or n_entries >= MAX_ENTRIES:
            result[1] = nodes
            result[7] = 1 if stopped else 0
            result[6] = n_entries
            return node_entry[:nodes], ent_parent[:n_entries], ent_action[:n_entries]
        ent_done[entry] = 1
        turn = (turn + 1) % order.shape[0]
        parent = ent_parent[entry]
        if parent < 0:
            board[:] = root
            depth = 0
        else:
            unpack(node_packed[parent], board)
            apply_action(board, np.int32(ent_action[entry]), undo)
            depth = node_depth[parent] + 1
        node = nodes
        nodes += 1
        if node >= node_packed.shape[0]:
            grown = np.empty((node_packed.shape[0] * 2, PACKED_SIZE), np.uint8)
            grown[:node_packed.shape[0]] = node_packed
            node_packed = grown
            node_entry = _grow(node_entry)
            node_depth = _grow(node_depth)
        pack(board, node_packed[node])
        node_entry[node] = entry
        node_depth[node] = depth

        # the columns' hashes and terms, so that a move's child costs only
        # the two columns it touched
        node_level = board[NSTOCK] // 10
        _column_hashes(board, card_keys, parts, 0, col_lo)
        _column_hashes(board, card_keys, parts, 1, col_hi)
        node_terms[:] = 0  # features(board, False) from the columns' terms
        for c in range(N_COLS):
            f, b, m, e, u, o = column_terms(board, c)
            col_terms[c, 0] = f
            col_terms[c, 1] = b
            col_terms[c, 2] = m
            col_terms[c, 3] = e
            col_terms[c, 4] = u
            col_terms[c, 5] = o
            node_terms[W_FACE_DOWN] += f
            node_terms[W_BREAK] += b
            node_terms[W_MIXED] += m
            node_terms[W_EMPTY] += e
            node_terms[W_BURIED] += u
            node_terms[W_LOOSE] += o
        node_terms[W_REMOVED] = -board[NREMOVED]
        node_terms[W_DEAL_LEFT] = node_level
        node_lo = ent_lo[entry]
        node_hi = ent_hi[entry]
        count = gen_actions(board, relaxed, actions)
        first_empty = first_empty_column(board)
        for i in range(count):
            action = actions[i]
            spare = max(is_spare(board, action, first_empty), splits_run(board, action))
            apply_action(board, action, undo)
            if board[NREMOVED] == 8:
                result[0] = WON
                result[1] = nodes
                result[2] = node
                result[3] = action
                result[6] = n_entries
                return node_entry[:nodes], ent_parent[:n_entries], ent_action[:n_entries]
            if n_entries >= ent_parent.shape[0]:
                ent_parent = _grow(ent_parent)
                ent_action = _grow(ent_action)
                ent_lo = _grow(ent_lo)
                ent_hi = _grow(ent_hi)
                ent_done = _grow(ent_done)
                ent_done[n_entries:] = 0
            if 2 * (n_entries + 1) > table.shape[0]:
                table = _tt_rebuild(ent_lo, ent_hi, n_entries, 2 * table.shape[0])
            if action == DEAL:
                _column_hashes(board, card_keys, parts, 0, deal_lo)
                _column_hashes(board, card_keys, parts, 1, deal_hi)
                ent_lo[n_entries] = combine(deal_lo, board, 0)
                ent_hi[n_entries] = combine(deal_hi, board, 1)
            else:
                ent_lo[n_entries] = _moved_hash(node_lo, col_lo, board, action, card_keys,
                                                parts, 0)
                ent_hi[n_entries] = _moved_hash(node_hi, col_hi, board, action, card_keys,
                                                parts, 1)
            if _tt_insert(table, ent_lo, ent_hi, n_entries):
                ent_parent[n_entries] = node
                ent_action[n_entries] = action
                level = board[NSTOCK] // 10
                if action == DEAL:
                    features(board, need_good, terms)
                else:
                    _moved_terms(node_terms, col_terms, board, action, need_good, terms)
                for k in range(n_heuristics):
                    score = _value(weights[k], terms)
                    if k == 0 and score < result[5]:
                        result[4] = n_entries
                        result[5] = score
                    priority = score + weights[k, W_SPARE] * spare + PRIORITY_OFFSET
                    if widths[k] > 0:
                        priority = min(priority + BEAM_LAYER * (depth + 1), (1 << 31) - 1)
                    else:
                        priority += weights[k, W_DEPTH] * (depth + 1)
                    h = 6 * k + level
                    if sizes[h] >= heaps[h].shape[0]:
                        heaps[h] = _grow(heaps[h])
                    sizes[h] = _heap_push(heaps[h], sizes[h],
                                          (np.int64(priority) << 32) | (ENTRY_MASK - n_entries))
                waiting += n_heuristics
                n_entries += 1
            undo_action(board, undo)

    result[0] = LOST if exhaustive or not dropped else UNKNOWN
    result[1] = nodes
    result[6] = n_entries
    return node_entry[:nodes], ent_parent[:n_entries], ent_action[:n_entries]
