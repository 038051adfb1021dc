"""benchmarks/kpatience_beam.py: KPatience's beam, its ranking and its pruning, on our rules."""

import random

import numpy as np
from data import load_benchmark

from spidersolve.state import GameCode
from spidersolve.state.actions import DEAL
from spidersolve.state.kernel import apply, legal_actions
from spidersolve.state.packed import action_to_code, to_board

KP = load_benchmark("kpatience_beam")


def _columns(position):
    """Each column's cards as (rank, suit, face up), bottom first."""
    return [
        [(card & 15, card >> 4, False) for card in down]
        + [(card & 15, card >> 4, True) for card in up]
        for down, up in zip(position.down, position.up)
    ]


def _on_next(lower, upper):
    return lower[2] and upper[2] and lower[1] == upper[1] and lower[0] == upper[0] + 1


def _top_run(cards):
    if not cards:
        return 0
    i = len(cards) - 1
    while i > 0 and _on_next(cards[i - 1], cards[i]):
        i -= 1
    return len(cards) - i


def reference_ranking(position):
    """KPatience's chaos and ready cards, as its source describes them, from a Position."""
    columns = _columns(position)
    chaos = sum(
        1 + sum(not _on_next(cards[i - 1], cards[i]) for i in range(1, len(cards)))
        for cards in columns
        if cards
    )
    for c, cards in enumerate(columns):
        if not cards:
            continue
        others = [col[-1][0] for j, col in enumerate(columns) if col and j != c]
        if cards[0][0] == 13 or cards[0][0] + 1 in others:
            chaos -= 1
    free = sum(not cards for cards in columns)
    chaos -= min(free, max(chaos, 0))
    playable = sum(len(cards) if len(cards) < 2 else _top_run(cards) for cards in columns)
    off = 13 * len(position.removed)
    return chaos, playable + off + free, free, off


def reference_allowed(position, action):
    """KPatience's move generation as a rule on one legal action."""
    if action == DEAL:
        return True
    columns = _columns(position)
    src, dst, n = action
    cards = columns[src]
    start = len(cards) - n
    suit = cards[-1][1]
    splits = start > 0 and _on_next(cards[start - 1], cards[start])

    def run_of(col):
        return _top_run(col) if col and col[-1][1] == suit else 0

    if columns[dst]:
        return not splits or run_of(columns[dst]) + n > run_of(cards)
    if position.stock:
        return True
    if start == 0 or splits:
        return False
    return dst == min(j for j, col in enumerate(columns) if not col and j != src)


def _positions(seed, count):
    """Positions met by random play on deals of 1, 2 and 4 suits."""
    rng = random.Random(seed)
    found = []
    for suits in (1, 2, 4):
        for deal in range(2):
            pos = GameCode(suits, "classic", deal).position()
            for _ in range(count):
                actions = legal_actions(pos)
                if not actions:
                    break
                found.append(pos)
                pos = apply(pos, rng.choice(actions))[0]
    return found


def test_ranking_and_pruning_match_a_reading_of_kpatience():
    out = np.empty(4, np.int64)
    checked = pruned = 0
    for pos in _positions(7, 150):
        board = to_board(pos)
        KP.ranking(board, out)
        assert tuple(out) == reference_ranking(pos)
        for action in legal_actions(pos):
            keep = KP.allowed(board, action_to_code(action))
            assert keep == reference_allowed(pos, action), (pos, action)
            checked += 1
            pruned += not keep
    assert checked > 1000 and 0 < pruned < checked


def test_a_won_line_replays_and_the_beam_is_deterministic():
    first = KP.run("SP1-S1C-AAAAAAD", 50, 200_000, KP.DEPTH)
    again = KP.run("SP1-S1C-AAAAAAD", 50, 200_000, KP.DEPTH)
    assert first["outcome"] == "won" and first["moves"] == first["layers"] > 0
    assert {k: v for k, v in first.items() if k != "cpu_seconds"} == {
        k: v for k, v in again.items() if k != "cpu_seconds"
    }


def test_the_node_limit_and_the_depth_cap_stop_it():
    board = to_board(GameCode(4, "classic", 0).position())
    outcome, nodes, layers, line = KP.kp_beam(board, 20, nodes=500)
    assert (outcome, line) == ("unknown", None) and 500 <= nodes < 500 + 20 * 6
    outcome, nodes, layers, line = KP.kp_beam(board, 20, depth=5)
    assert (outcome, layers, line) == ("deep", 5, None)
