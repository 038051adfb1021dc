"""Numba kernels on the working board: action generation, apply and undo,
hashing, perft.  Arrays and scalars only; outputs go into caller buffers.

The working board (``int16[BOARD_SIZE]``) is the unpacked form the kernels
play on; ``packed.py`` converts it to and from ``Position`` and to the
112-byte packed form that the search stores::

    index      what
    0..1039    cards: column c's cards bottom to top at [c*CAP, c*CAP + LEN[c])
    1040..1049 LEN: cards in each column (face down + face up)
    1050..1059 FD: face-down cards in each column (always the bottom FD[c])
    1060..1109 STOCK: the stock, right-aligned: the cards left are
               STOCK[50 - NSTOCK .. 49] in deal order
    1110       NSTOCK: cards left in the stock
    1111       NREMOVED: runs removed
    1112..1119 REMOVED: suit of each removed run, in order
    1120       MOVES
    1121       SCORE

A card is ``suit * 16 + rank`` (see ``cards.py``); 15 is an unknown card.

An action is an int: ``src << 12 | dst << 8 | n_cards`` for a move
(columns 0..9), ``DEAL`` (0xFFFF) for a deal.  The documented order of
``gen_actions`` is the reference order: src, then dst, then n_cards
ascending, then the deal.

The undo record of ``apply_action`` (``int32[UNDO_SIZE]``): [0] the action,
[1] the score before, [2] the number of events, then one event each:
``col << 3 | removal << 2 | suit`` (a removed run or a turned-up card), in
the order they happened; ``undo_action`` reverses them.
"""

import numpy as np
from numba import njit

# Numba flags live here. cache=True: compiled code is cached beside this file;
# numba's cache does not notice changes in other modules, and module globals
# used by a kernel are frozen into the compiled code at first compile.
JIT = dict(cache=True, nogil=True)

N_COLS = 10
CAP = 104
CARDS = 0
LEN = CAP * N_COLS
FD = LEN + N_COLS
STOCK = FD + N_COLS
NSTOCK = STOCK + 50
NREMOVED = NSTOCK + 1
REMOVED = NREMOVED + 1
MOVES = REMOVED + 8
SCORE = MOVES + 1
BOARD_SIZE = SCORE + 1

DEAL = 0xFFFF
MAX_ACTIONS = 1200
UNDO_SIZE = 64
UNKNOWN = 15


@njit(**JIT)
def action_code(src, dst, n_cards):
    return (src << 12) | (dst << 8) | n_cards


@njit(**JIT)
def _rank(card):
    return card & 15


@njit(**JIT)
def _suit(card):
    return card >> 4


@njit(**JIT)
def gen_actions(board, relaxed, out):
    """Write the legal actions of ``board`` into ``out``; return how many."""
    # the rank on top of each column, 0 for an empty one
    tops = np.empty(N_COLS, np.int64)
    for c in range(N_COLS):
        length = board[LEN + c]
        tops[c] = _rank(board[c * CAP + length - 1]) if length > 0 else 0
    k = 0
    for src in range(N_COLS):
        length = board[LEN + src]
        n_up = length - board[FD + src]
        if n_up == 0:
            continue
        base = src * CAP + length - 1
        top = tops[src]
        run = 1
        while run < n_up:
            lower = board[base - run]
            upper = board[base - run + 1]
            if _rank(lower) != _rank(upper) + 1:
                break
            if not relaxed and _suit(lower) != _suit(upper):
                break
            run += 1
        for dst in range(N_COLS):
            if dst == src:
                continue
            if tops[dst] == 0:
                for n in range(1, run + 1):
                    out[k] = action_code(src, dst, n)
                    k += 1
            else:
                n = tops[dst] - top
                if 1 <= n <= run:
                    out[k] = action_code(src, dst, n)
                    k += 1
    if board[NSTOCK] > 0:
        for c in range(N_COLS):
            if tops[c] == 0:
                return k
        out[k] = DEAL
        k += 1
    return k


@njit(**JIT)
def count_actions(board, relaxed):
    """How many legal actions ``board`` has (``gen_actions`` without the list).

    The run-length loop is written out here and in ``gen_actions`` on
    purpose: as a shared helper (even with numba's inline="always") perft
    ran at 31-35 million leaves a second instead of 50 million.
    """
    tops = np.empty(N_COLS, np.int64)
    empty = 0
    for c in range(N_COLS):
        length = board[LEN + c]
        if length > 0:
            tops[c] = _rank(board[c * CAP + length - 1])
        else:
            tops[c] = 0
            empty += 1
    k = 0
    for src in range(N_COLS):
        length = board[LEN + src]
        n_up = length - board[FD + src]
        if n_up == 0:
            continue
        base = src * CAP + length - 1
        run = 1
        while run < n_up:
            lower = board[base - run]
            upper = board[base - run + 1]
            if _rank(lower) != _rank(upper) + 1:
                break
            if not relaxed and _suit(lower) != _suit(upper):
                break
            run += 1
        k += run * empty
        for dst in range(N_COLS):
            if dst != src and tops[dst] != 0:
                n = tops[dst] - tops[src]
                if 1 <= n <= run:
                    k += 1
    if board[NSTOCK] > 0 and empty == 0:
        k += 1
    return k


@njit(**JIT)
def _complete_run_on_top(board, c):
    length = board[LEN + c]
    if length - board[FD + c] < 13:
        return False
    base = c * CAP + length - 1
    suit = _suit(board[base])
    for i in range(13):
        card = board[base - i]
        if _rank(card) != i + 1 or _suit(card) != suit:
            return False
    return True


@njit(**JIT)
def _settle(board, undo, low, high):
    """Remove complete runs and turn up cards until nothing changes.

    After a move only its two columns can change (every other column was
    already settled), so only columns ``low`` < ``high`` are looked at, in
    that order; ``low`` = -1 means all ten (a deal).

    Returns the number of runs removed, or -1 if an unknown card would be
    turned up (the board is then left part-settled; the caller undoes).
    """
    removed = 0
    changed = True
    while changed:
        changed = False
        for i in range(N_COLS if low < 0 else 2):
            c = i if low < 0 else (low if i == 0 else high)
            if _complete_run_on_top(board, c):
                suit = _suit(board[c * CAP + board[LEN + c] - 1])
                board[LEN + c] -= 13
                board[REMOVED + board[NREMOVED]] = suit
                board[NREMOVED] += 1
                undo[3 + undo[2]] = (c << 3) | 4 | suit
                undo[2] += 1
                removed += 1
                changed = True
            length = board[LEN + c]
            if length > 0 and board[FD + c] == length:
                if board[c * CAP + length - 1] == UNKNOWN:
                    return -1
                board[FD + c] -= 1
                undo[3 + undo[2]] = c << 3
                undo[2] += 1
                changed = True
    return removed


@njit(**JIT)
def apply_action(board, action, undo):
    """Play a legal ``action`` on ``board`` in place, recording ``undo``.

    Returns the number of runs removed, or -1 if it would turn up an unknown
    card (call ``undo_action`` then).
    """
    undo[0] = action
    undo[1] = board[SCORE]
    undo[2] = 0
    if action == DEAL:
        first = STOCK + 50 - board[NSTOCK]
        for c in range(N_COLS):
            board[c * CAP + board[LEN + c]] = board[first + c]
            board[LEN + c] += 1
        board[NSTOCK] -= 10
        removed = _settle(board, undo, -1, -1)
    else:
        src = action >> 12
        dst = (action >> 8) & 15
        n = action & 255
        s0 = src * CAP + board[LEN + src] - n
        d0 = dst * CAP + board[LEN + dst]
        for i in range(n):
            board[d0 + i] = board[s0 + i]
        board[LEN + src] -= n
        board[LEN + dst] += n
        removed = _settle(board, undo, min(src, dst), max(src, dst))
    board[MOVES] += 1
    if removed < 0:
        return -1
    score = board[SCORE] - 1
    if score < 0:
        score = 0
    board[SCORE] = score + 100 * removed
    return removed


@njit(**JIT)
def undo_action(board, undo):
    """Take back the action recorded in ``undo`` (the inverse of apply_action)."""
    for e in range(undo[2] - 1, -1, -1):
        event = undo[3 + e]
        c = event >> 3
        if event & 4:
            suit = event & 3
            base = c * CAP + board[LEN + c]
            for i in range(13):
                board[base + i] = suit * 16 + 13 - i
            board[LEN + c] += 13
            board[NREMOVED] -= 1
        else:
            board[FD + c] += 1
    action = undo[0]
    if action == DEAL:
        for c in range(N_COLS):
            board[LEN + c] -= 1
        board[NSTOCK] += 10
    else:
        src = action >> 12
        dst = (action >> 8) & 15
        n = action & 255
        s0 = src * CAP + board[LEN + src]
        d0 = dst * CAP + board[LEN + dst] - n
        for i in range(n):
            board[s0 + i] = board[d0 + i]
        board[LEN + src] += n
        board[LEN + dst] -= n
    board[MOVES] -= 1
    board[SCORE] = undo[1]


@njit(**JIT)
def _mix(z, variant):
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
    h = _mix(np.uint64(board[NSTOCK]) + np.uint64(0x5851F42D4C957F2D), variant)
    for c in range(N_COLS):
        h += _mix(col_hashes[c], variant)
    return h


@njit(**JIT)
def column_hash(board, c, card_keys, stock_keys, variant):
    """Column c's cards and the stock cards future deals will put on it."""
    return column_zobrist(board, c, card_keys, variant) ^ \
        column_stock_hash(board, c, stock_keys, variant)


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
    return _mix(col_hash + np.uint64(c + 1) * np.uint64(0x9E3779B97F4A7C15), variant)


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
    return combine_exact(_all_column_hashes(board, card_keys, stock_keys, variant), board,
                         variant)


# positions perft plays between two looks at its stop flag (a power of two)
PERFT_STOP_EVERY = 1 << 16


@njit(**JIT)
def perft(board, relaxed, depth, actions, undos, stop):
    """Count action sequences of length ``depth`` (no merging).

    ``actions`` is int32[depth, MAX_ACTIONS], ``undos`` int32[depth, UNDO_SIZE].
    Returns -1 if an unknown card would be turned up, -2 if ``stop``
    (int64[1], polled every ``PERFT_STOP_EVERY`` actions played) was set by
    another thread (Ctrl-C; ``spidersolve.interrupt``).
    """
    if depth == 0:
        return 1
    counts = np.zeros(depth, np.int64)
    index = np.zeros(depth, np.int64)
    counts[0] = gen_actions(board, relaxed, actions[0])
    if depth == 1:
        return counts[0]
    leaves = 0
    level = 0
    played = 0
    while True:
        if index[level] >= counts[level]:
            if level == 0:
                break
            level -= 1
            undo_action(board, undos[level])
            continue
        action = actions[level, index[level]]
        index[level] += 1
        played += 1
        if (played & (PERFT_STOP_EVERY - 1)) == 0 and stop[0] != 0:
            return -2
        if apply_action(board, action, undos[level]) < 0:
            return -1
        if level + 2 == depth:
            leaves += count_actions(board, relaxed)
            undo_action(board, undos[level])
        else:
            level += 1
            counts[level] = gen_actions(board, relaxed, actions[level])
            index[level] = 0
    return leaves


@njit(**JIT)
def pack(board, out):
    """Write the 112-byte packed form of ``board`` into ``out`` (uint8)."""
    for c in range(N_COLS):
        out[c] = board[LEN + c]
        out[10 + c] = board[FD + c]
    out[20] = board[NSTOCK]
    out[21] = board[NREMOVED]
    bits = 0
    for r in range(board[NREMOVED]):
        bits |= board[REMOVED + r] << (2 * r)
    out[22] = bits & 255
    out[23] = bits >> 8
    out[24] = board[MOVES] & 255
    out[25] = board[MOVES] >> 8
    out[26] = board[SCORE] & 255
    out[27] = board[SCORE] >> 8
    # the cards, 6 bits each from bit 0 of byte 28 on, streamed through an
    # accumulator, low bits first, a byte written at a time
    acc, n_bits, at = 0, 0, 28
    for c in range(N_COLS):
        acc, n_bits, at = _pack_cards(board, c * CAP, board[LEN + c], out, acc, n_bits, at)
    acc, n_bits, at = _pack_cards(board, STOCK + 50 - board[NSTOCK], board[NSTOCK], out, acc,
                                  n_bits, at)
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
    acc, n_bits, at = 0, 0, 28
    for c in range(N_COLS):
        board[LEN + c] = packed[c]
        board[FD + c] = packed[10 + c]
        acc, n_bits, at = _unpack_cards(packed, board, c * CAP, packed[c], acc, n_bits, at)
    n_stock = packed[20]
    board[NSTOCK] = n_stock
    _unpack_cards(packed, board, STOCK + 50 - n_stock, n_stock, acc, n_bits, at)
    board[NREMOVED] = packed[21]
    bits = np.int32(packed[22]) | (np.int32(packed[23]) << 8)
    for r in range(8):
        board[REMOVED + r] = (bits >> (2 * r)) & 3 if r < packed[21] else 0
    board[MOVES] = np.int32(packed[24]) | (np.int32(packed[25]) << 8)
    board[SCORE] = np.int32(packed[26]) | (np.int32(packed[27]) << 8)
