"""Numba kernels of the rules on the working board (``_board.py``): the legal
actions, apply and undo, perft.  They mirror ``rules.py`` and ``perft.py``;
``kernel.py`` is their Python face, under the reference's names.

Arrays and scalars only; outputs go into caller buffers. The documented
order of ``gen_actions`` is the reference order: src, then dst, then
n_cards ascending, then the deal.
"""

import numpy as np

from .._jit import njit
from ._board import (
    CAP,
    DEAL,
    FD,
    JIT,
    LEN,
    MOVES,
    N_COLS,
    NREMOVED,
    NSTOCK,
    REMOVED,
    SCORE,
    STOCK,
    UNKNOWN,
)

# The helpers every kernel here uses stay in this file: numba's cache sees
# only this file, and as calls into another module perft ran slower.


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
