"""The heuristic's terms, as numba kernels over the working board of ``state/_board.py``.

A position's value, for one row of weights, is ``weights . terms``; lower is
better. ``terms[W_...]`` holds each term signed so (bonuses negative). Two
entries of a row are not terms of a position: ``W_DEPTH`` and ``W_SPARE``
weigh the path (the search adds them to the priority), and ``W_WIDTH`` is a
setting of the row (> 0 makes it a beam), as are ``W_NOISE`` and ``W_SEED``. ``heuristic.Weights`` names them.

Each column adds its own share (``column_terms``), so a move's child costs
only the two columns the move touched.
"""

import numpy as np

from .._jit import njit
from ..state._board import CAP, DEAL, FD, JIT, LEN, N_COLS, NREMOVED, NSTOCK

# weights[i] for the term terms[i]
W_FACE_DOWN = 0
W_BREAK = 1
W_MIXED = 2
W_EMPTY = 3
W_REMOVED = 4
W_DEPTH = 5  # the path: actions from the root
W_BURIED = 6
W_SPARE = 7  # the path: the last action was a spare one (is_spare, splits_run)
W_WIDTH = 8  # not a term: > 0 makes the row a beam of that width
W_NOISE = 9  # not a term: > 0 adds to a position's value a number 0..noise drawn from its hash
W_SEED = 10  # not a term: with noise, another draw of it for each seed (0: the first)
W_MACRO = 11  # not a term: > 0 in any row adds macro moves to the search (``macro_moves``): 1 from its first node, n > 1 once n nodes are expanded
N_WEIGHTS = 12

# column_terms(board, c)[COL_...]: one column's share of the terms
COL_FACE_DOWN = 0
COL_BREAK = 1
COL_MIXED = 2
COL_EMPTY = 3
COL_BURIED = 4
N_COL_TERMS = 5


@njit(**JIT)
def follows(lower, upper):
    """True if card ``upper`` lies on ``lower`` in a same-suit run."""
    return (lower >> 4) == (upper >> 4) and (lower & 15) == (upper & 15) + 1


@njit(**JIT)
def run_down(board, c, i):
    """How many face-up cards of column c, from index i down, form one same-suit run."""
    base = c * CAP
    k = 1
    while i - k >= board[FD + c] and follows(board[base + i - k], board[base + i - k + 1]):
        k += 1
    return k


@njit(**JIT)
def column_terms(board, c):
    """Column c's share of the terms of ``features``, signed as there.

    (face_down, breaks, mixed, -empty, buried), indexed by ``COL_...``:
    face-down cards; breaks and mixed pairs among its face-up cards; -1 if
    it is empty; face-down cards under several face-up runs are harder to
    reach (each run above them must move away first), so buried counts
    those runs.
    """
    length = board[LEN + c]
    if length == 0:
        return 0, 0, 0, -1, 0
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
        return fd, breaks, mixed, 0, 1 + breaks + mixed
    return 0, breaks, mixed, 0, 0


@njit(**JIT)
def column_terms_into(board, col_terms, terms):
    """Every column's ``column_terms`` into ``col_terms[c]``, and their sums into ``terms``.

    ``terms`` gets ``features(board)``: the removed runs too, 0 elsewhere.
    """
    terms[:] = 0
    for c in range(N_COLS):
        f, b, m, e, u = column_terms(board, c)
        col_terms[c, COL_FACE_DOWN] = f
        col_terms[c, COL_BREAK] = b
        col_terms[c, COL_MIXED] = m
        col_terms[c, COL_EMPTY] = e
        col_terms[c, COL_BURIED] = u
        terms[W_FACE_DOWN] += f
        terms[W_BREAK] += b
        terms[W_MIXED] += m
        terms[W_EMPTY] += e
        terms[W_BURIED] += u
    terms[W_REMOVED] = -board[NREMOVED]


@njit(**JIT)
def features(board, out):
    """The heuristic's terms for ``board`` into ``out``, so that value = weights . out.

    ``out[W_DEPTH]``, ``out[W_SPARE]`` and ``out[W_WIDTH]`` are 0 (see the
    module docstring).
    """
    face_down = 0
    breaks = 0
    mixed = 0
    empty = 0
    buried = 0
    for c in range(N_COLS):
        f, b, m, e, u = column_terms(board, c)
        face_down += f
        breaks += b
        mixed += m
        empty += e
        buried += u
    out[:] = 0
    out[W_FACE_DOWN] = face_down
    out[W_BREAK] = breaks
    out[W_MIXED] = mixed
    out[W_EMPTY] = empty
    out[W_REMOVED] = -board[NREMOVED]
    out[W_BURIED] = buried


@njit(**JIT)
def moved_terms(parent_terms, parent_col_terms, board, action, out):
    """``features`` of ``board`` just after the move ``action``, into ``out``.

    ``parent_terms`` are the features before the move and
    ``parent_col_terms[c]`` column c's ``column_terms`` then: only the two
    columns the move touched are swapped.
    """
    out[:] = parent_terms
    for c in (action >> 12, (action >> 8) & 15):
        old = parent_col_terms[c]
        f, b, m, e, u = column_terms(board, c)
        out[W_FACE_DOWN] += f - old[COL_FACE_DOWN]
        out[W_BREAK] += b - old[COL_BREAK]
        out[W_MIXED] += m - old[COL_MIXED]
        out[W_EMPTY] += e - old[COL_EMPTY]
        out[W_BURIED] += u - old[COL_BURIED]
    out[W_REMOVED] = -board[NREMOVED]


@njit(**JIT)
def column_value(board, c, weights):
    """Column c's share of the value: its ``column_terms`` weighed by one row."""
    f, b, m, e, u = column_terms(board, c)
    return (
        weights[W_FACE_DOWN] * f
        + weights[W_BREAK] * b
        + weights[W_MIXED] * m
        + weights[W_EMPTY] * e
        + weights[W_BURIED] * u
    )


@njit(**JIT)
def value_of(weights, terms):
    """``weights . terms``: the value of a position whose ``features`` are ``terms``.

    Only the position's terms: ``features`` leaves the others (depth, spare,
    width, noise, seed) 0, so they are not summed.
    """
    return (
        weights[W_FACE_DOWN] * terms[W_FACE_DOWN]
        + weights[W_BREAK] * terms[W_BREAK]
        + weights[W_MIXED] * terms[W_MIXED]
        + weights[W_EMPTY] * terms[W_EMPTY]
        + weights[W_REMOVED] * terms[W_REMOVED]
        + weights[W_BURIED] * terms[W_BURIED]
    )


@njit(**JIT)
def evaluate(board, weights):
    """The heuristic: an int, lower for positions nearer a win (no depth term)."""
    terms = np.empty(N_WEIGHTS, np.int64)
    features(board, terms)
    return value_of(weights, terms)


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
    if i == board[FD + src] or not follows(board[src * CAP + i - 1], board[src * CAP + i]):
        return 0  # splits no same-suit run
    if length == 0 or not follows(board[dst * CAP + length - 1], board[src * CAP + i]):
        return 1  # the cards land in no same-suit run
    return 1 if run_down(board, dst, length - 1) <= run_down(board, src, i - 1) else 0


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
def hash_noise(lo, noise, seed):
    """A number 0..noise drawn from a position's hash ``lo``, one draw per ``noise`` and ``seed``.

    It breaks ties and near ties another way for each ``noise`` (``W_NOISE``)
    and, at the same noise, for each ``seed`` (``W_SEED``), so rows that
    differ in them alone are different beams; 0 for ``noise`` 0. Seed 0
    draws as the noise alone did before seeds were added.
    """
    if noise <= 0:
        return 0
    key = np.uint64(noise) + (np.uint64(seed) << np.uint64(32))
    h = (lo ^ key * np.uint64(0xD6E8FEB86659FD93)) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64((h >> np.uint64(33)) % np.uint64(noise + 1))
