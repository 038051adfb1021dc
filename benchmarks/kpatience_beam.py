"""KDE KPatience's beam search (spidersolver2) as its source describes it, on our rules.

    python benchmarks/kpatience_beam.py --width 150 SP1-S4C-AAAAAAA pysol:4:17
    python benchmarks/kpatience_beam.py --width 150 --sp1 4:0:99
    python benchmarks/kpatience_beam.py --width 500 --pysol 4:6401:8400 --out kp500.csv
    python benchmarks/kpatience_beam.py --width 300 --deal-list 6426,6497 --suits 4

A reference to measure against without building KDE: written from a reading
of KPatience's ``src/patsolve/spidersolver2.cpp`` (none of its code), so that
its strengths can be measured deal by deal beside ours (docs/tuning.md):

- **Layers.** One layer per action: every kept position is expanded, a
  child whose position was ever generated before (kept or dropped) is left
  out (a set of 64-bit hashes: ours, canonical up to column order), the
  children are sorted, and the best ``width`` are kept for each number of
  deals left. It stops at a win, at ``depth`` layers (KPatience: 230
  moves), when a layer has no new child, or past ``nodes`` expanded
  positions. It proves nothing: it drops positions.
- **Ranking** (``ranking``), lexicographic: the least *chaos*, then the most
  cards ready (``playable + removed + empty``: the cards of each column's
  same-suit run on top, 13 a removed run, an empty column 1), then, once
  the chaos is 0, more empty columns, then fewer cards removed, then the
  hash. A column's chaos is 1 for its bottom card and 1 for each card not
  on the next higher card of its suit face up (so each face-down card
  counts, as each break and mixed pair does); minus 1 for each column
  whose bottom card is a king or one rank below another column's top; then
  minus 1 for each empty column while the chaos is above 0.
- **Pruning** (``allowed``): a move that splits a same-suit run must make
  a longer same-suit run where it lands; once the stock is dealt, only the
  first empty column is tried, never with a whole column or a split run.
  While the stock lasts, every empty column is tried (each has its own
  future stock cards).

Each line printed is a deal: its source, ``won`` / ``unknown`` (the node
limit) / ``deep`` (the depth cap) / ``out`` (no new child), nodes expanded,
layers, seconds; a win's line is replayed with the reference rules first.
Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time

import numpy as np
from numba import njit

from spidersolve.files import write_atomic
from spidersolve.search._terms import follows, run_down
from spidersolve.state._board import (
    BOARD_SIZE,
    CAP,
    DEAL,
    FD,
    LEN,
    MAX_ACTIONS,
    N_COLS,
    NREMOVED,
    NSTOCK,
    UNDO_SIZE,
)
from spidersolve.state._hashing import canonical_hash
from spidersolve.state._kernels import apply_action, gen_actions, undo_action
from spidersolve.state.keys import load_keys

DEPTH = 230  # KPatience's MAX_MOVES
RUNS = 8  # runs removed in a won game
# the slots of a child's row in ``_expand``'s ``out_keys``
K_LEVEL, K_CHAOS, K_READY, K_FREE, K_OFF, K_HASH, N_KEYS = range(7)


@njit(cache=True)
def _run_of_suit(board, c, suit):
    """Cards of column c's same-suit face-up run on top if its top card is of
    ``suit``, else 0."""
    n = board[LEN + c]
    if n == 0 or (board[c * CAP + n - 1] >> 4) != suit:
        return 0
    return run_down(board, c, n - 1)


@njit(cache=True)
def ranking(board, out):
    """KPatience's keys of ``board`` into ``out``: chaos, ready, empty, cards removed."""
    chaos = 0
    free = 0
    playable = 0
    for c in range(N_COLS):
        n = board[LEN + c]
        if n == 0:
            free += 1
            continue
        chaos += 1
        for i in range(1, n):
            if i - 1 < board[FD + c] or not follows(board[c * CAP + i - 1], board[c * CAP + i]):
                chaos += 1
        playable += n if n < 2 else run_down(board, c, n - 1)
    for c in range(N_COLS):
        if board[LEN + c] == 0:
            continue
        bottom = board[c * CAP] & 15
        if bottom == 13:
            chaos -= 1
            continue
        for j in range(N_COLS):
            n = board[LEN + j]
            if j != c and n > 0 and bottom == (board[j * CAP + n - 1] & 15) - 1:
                chaos -= 1
                break
    chaos -= min(free, max(chaos, 0))
    off = board[NREMOVED] * 13
    out[0] = chaos
    out[1] = playable + off + free
    out[2] = free
    out[3] = off


@njit(cache=True)
def allowed(board, action):
    """True unless KPatience's move generation leaves the legal ``action`` out."""
    if action == DEAL:
        return True
    src = action >> 12
    dst = (action >> 8) & 15
    moved = action & 255
    start = board[LEN + src] - moved  # where the moved cards start
    suit = board[src * CAP + board[LEN + src] - 1] >> 4
    splits = start > board[FD + src] and follows(
        board[src * CAP + start - 1], board[src * CAP + start]
    )
    if board[LEN + dst] > 0:
        if splits:
            return _run_of_suit(board, dst, suit) + moved > _run_of_suit(board, src, suit)
        return True
    if board[NSTOCK] > 0:
        return True
    if start == 0 or splits:
        return False
    for c in range(N_COLS):  # the first empty column only
        if c != src and board[LEN + c] == 0:
            return c == dst
    return True


@njit(cache=True)
def _insert(table, h):
    """Put ``h`` (not 0) into the open-addressing set; False if it was there."""
    mask = table.size - 1
    i = np.int64(h & np.uint64(mask))
    while table[i] != 0:
        if table[i] == h:
            return False
        i = (i + 1) & mask
    table[i] = h
    return True


@njit(cache=True)
def _expand(layer, n_layer, table, card_keys, stock_keys, out_parent, out_action, out_keys):
    """The new children of the layer's boards; (children, a won child or -1).

    Every child is put into ``table``; a child's row of ``out_keys`` holds
    its deals left and ``ranking`` and, for the order, its hash.
    """
    actions = np.empty(MAX_ACTIONS, np.int32)
    undo = np.empty(UNDO_SIZE, np.int32)
    keys = np.empty(4, np.int64)
    m = 0
    for p in range(n_layer):
        board = layer[p]
        for a in range(gen_actions(board, False, actions)):
            action = actions[a]
            if not allowed(board, action):
                continue
            apply_action(board, action, undo)
            h = canonical_hash(board, card_keys, stock_keys, 0) | np.uint64(1)
            won = board[NREMOVED] == RUNS
            if _insert(table, h):
                if m == out_parent.size:
                    return -1, -1  # more new children than the buffers hold
                out_parent[m] = p
                out_action[m] = action
                ranking(board, keys)
                out_keys[m, K_LEVEL] = board[NSTOCK] // 10
                out_keys[m, K_CHAOS] = keys[0]
                out_keys[m, K_READY] = -keys[1]
                out_keys[m, K_FREE] = -keys[2] if keys[0] == 0 else 0
                out_keys[m, K_OFF] = keys[3] if keys[0] == 0 else 0
                out_keys[m, K_HASH] = np.int64(h >> np.uint64(1))
                m += 1
                if won:
                    undo_action(board, undo)
                    return m, m - 1
            undo_action(board, undo)
    return m, -1


def kp_beam(board, width, nodes=1_000_000, depth=DEPTH, keys=None):
    """KPatience's beam from a working board; (outcome, nodes, layers, action codes).

    ``outcome`` is ``won``, ``unknown`` (past ``nodes``), ``deep`` (``depth``
    layers) or ``out`` (no new child). The codes are the winning line's.
    """
    card_keys, stock_keys = load_keys() if keys is None else keys
    table = np.zeros(1 << max(20, int(nodes * 12).bit_length()), np.uint64)
    cap = width * 6 * 64
    out_parent = np.empty(cap, np.int64)
    out_action = np.empty(cap, np.int64)
    out_keys = np.empty((cap, N_KEYS), np.int64)
    undo = np.empty(UNDO_SIZE, np.int32)
    _insert(table, canonical_hash(board, card_keys, stock_keys, 0) | np.uint64(1))  # the root
    layer = board[None, :].copy()
    paths: list[list[int]] = [[]]
    expanded = 0
    children = 0
    for layers in range(depth):
        m, won = _expand(
            layer, len(layer), table, card_keys, stock_keys, out_parent, out_action, out_keys
        )
        if m < 0 or (children := children + m) > 0.7 * table.size:
            raise RuntimeError(f"{'a layer' if m < 0 else 'the seen set'} outgrew its arrays")
        expanded += len(layer)
        if won >= 0:
            return "won", expanded, layers + 1, paths[out_parent[won]] + [int(out_action[won])]
        if expanded >= nodes:
            return "unknown", expanded, layers, None
        if m == 0:
            return "out", expanded, layers, None
        k = out_keys[:m]
        order = np.lexsort((k[:, K_HASH], k[:, K_OFF], k[:, K_FREE], k[:, K_READY], k[:, K_CHAOS]))
        taken: dict[int, int] = {}
        kept = []
        for j in order:
            level = int(k[j, K_LEVEL])
            if taken.get(level, 0) < width:
                taken[level] = taken.get(level, 0) + 1
                kept.append(j)
        new = np.empty((len(kept), BOARD_SIZE), np.int16)
        new_paths = []
        for i, j in enumerate(kept):
            new[i] = layer[out_parent[j]]
            apply_action(new[i], int(out_action[j]), undo)
            new_paths.append(paths[out_parent[j]] + [int(out_action[j])])
        layer, paths = new, new_paths
    return "deep", expanded, depth, None


def run(source, width, nodes, depth, keys=None):
    """One deal: a dict of the printed fields; a win is replayed first."""
    from spidersolve.search.verify import verify_win
    from spidersolve.state import as_game
    from spidersolve.state.packed import action_from_code, to_board

    game = as_game(source)
    started = time.process_time()
    outcome, expanded, layers, codes = kp_beam(to_board(game.position), width, nodes, depth, keys)
    moves = ""
    if codes is not None:
        verify_win(game, [action_from_code(c) for c in codes])  # raises unless it wins
        moves = len(codes)
    return dict(
        source=str(source),
        width=width,
        outcome=outcome,
        nodes=expanded,
        layers=layers,
        moves=moves,
        cpu_seconds=round(time.process_time() - started, 2),
    )


def _sources(args) -> list[str]:
    found = list(args.sources)
    if args.pysol:
        suits, lo, hi = args.pysol.split(":")
        found += [f"pysol:{suits}:{n}" for n in range(int(lo), int(hi) + 1)]
    if args.sp1:
        from spidersolve.state import GameCode

        suits, lo, hi = (int(x) for x in args.sp1.split(":"))
        found += [str(GameCode(suits, "classic", n)) for n in range(lo, hi + 1)]
    if args.deal_list:
        found += [f"pysol:{args.suits}:{n}" for n in args.deal_list.split(",")]
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sources", nargs="*", help="game codes, pysol:S:N or position files")
    parser.add_argument("--width", type=int, default=150, help="kept per layer and deals left")
    parser.add_argument("--nodes", type=int, default=1_000_000, help="most positions expanded")
    parser.add_argument("--depth", type=int, default=DEPTH, help="most layers (KPatience: 230)")
    parser.add_argument("--pysol", help="SUITS:FIRST:LAST, PySolFC deals FIRST..LAST")
    parser.add_argument("--sp1", help="SUITS:FIRST:LAST, SP1 Classic deals FIRST..LAST")
    parser.add_argument("--deal-list", help="PySolFC deal numbers N,M,... (with --suits)")
    parser.add_argument("--suits", type=int, default=4)
    parser.add_argument("--out", help="also write the rows to this CSV file")
    args = parser.parse_args(argv)
    sources = _sources(args)
    if not sources:
        parser.error("name some deals")
    keys = load_keys()
    rows = []
    for source in sources:
        row = run(source, args.width, args.nodes, args.depth, keys)
        rows.append(row)
        print(*row.values(), flush=True)
    won = sum(r["outcome"] == "won" for r in rows)
    print(
        f"width {args.width}: {won} won of {len(rows)}, "
        f"{sum(r['nodes'] for r in rows):,} nodes, "
        f"{sum(r['cpu_seconds'] for r in rows):.0f} CPU-s"
    )
    if args.out:

        def write(handle):
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)

        write_atomic(args.out, write, text=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
