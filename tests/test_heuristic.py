"""The search's heuristic terms: the kernel against a pure-Python reading of them."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from strategies import random_walk

from spidersolve.cards import card_rank, card_suit
from spidersolve.search import _terms as SK
from spidersolve.search.heuristic import (
    DEFAULT_WEIGHTS,
    DIG,
    PLAIN,
    PRESETS,
    TERMS,
    Weights,
    is_preset,
    position_value,
    preset,
    weight_rows,
    weights_row,
)
from spidersolve.state import Game, GameCode, legal_actions, replay
from spidersolve.state.packed import to_board


def reference_terms(pos) -> dict[str, int]:
    """The terms as heuristic.py describes them, signed as the kernel stores them."""
    terms = dict.fromkeys(TERMS, 0)
    for c in range(10):
        down, up = pos.down[c], pos.up[c]
        if not down and not up:
            terms["empty"] -= 1
            continue
        terms["face_down"] += len(down)
        segments = 1
        for lower, upper in zip(up, up[1:]):
            if card_rank(lower) == card_rank(upper) + 1:
                if card_suit(lower) != card_suit(upper):
                    terms["mixed"] += 1
                    segments += 1
            else:
                terms["breaks"] += 1
                segments += 1
        if down:
            terms["buried"] += segments
    terms["removed"] = -len(pos.removed)
    return terms


def kernel_terms(pos) -> dict[str, int]:
    out = np.empty(SK.N_WEIGHTS, np.int64)
    SK.features(to_board(pos), out)
    return {name: int(out[index]) for name, index in TERMS.items()}


@settings(deadline=None, max_examples=40)
@given(st.sampled_from([1, 2, 4]), st.integers(0, 2**35 - 1), st.data())
def test_kernel_terms_equal_the_reference_along_random_walks(suits, deal, data):
    game = Game.start(GameCode(suits, "classic", deal).position())
    for _ in range(data.draw(st.integers(0, 120), label="steps")):
        assert kernel_terms(game.position) == reference_terms(game.position)
        actions = legal_actions(game.position)
        if not actions:
            break
        game = game.play(actions[data.draw(st.integers(0, len(actions) - 1))])


def test_value_is_the_weighted_sum_of_the_terms():
    pos = GameCode.parse("SP1-S4C-AAAAAAD").position()
    terms = reference_terms(pos)
    for row in DEFAULT_WEIGHTS + (weights_row(buried=2, removed=7),):
        expected = sum(row[TERMS[name]] * value for name, value in terms.items())
        assert SK.evaluate(to_board(pos), np.array(row, np.int64)) == expected


def test_the_python_value_equals_the_kernels_along_a_winning_line():
    """Runs removed and columns emptied too (a random walk rarely gets there)."""
    from spidersolve.search.solver import solve

    result = solve("SP1-S1C-AAAAAAD", after="10>2")
    game = replay("SP1-S1C-AAAAAAD", "10>2")
    row = weights_row(face_down=3, breaks=2, mixed=5, empty=7, removed=11, buried=1)
    seen = set()
    for action in result.line:
        board = to_board(game.position)
        assert position_value(game.position, row) == SK.evaluate(board, np.array(row, np.int64))
        seen.add((len(game.position.removed), sum(not u for u in game.position.up)))
        game = game.play(action)
    assert max(removed for removed, _ in seen) == 7 and max(empty for _, empty in seen) > 0


@settings(deadline=None, max_examples=30)
@given(st.sampled_from([1, 2, 4]), st.integers(0, 2**35 - 1), st.data())
def test_the_python_value_equals_the_kernels_along_random_walks(suits, deal, data):
    """``position_value`` (no numba, for the finisher's order) is the kernel's value."""
    rows = (PLAIN, *DEFAULT_WEIGHTS, weights_row(buried=2, removed=7, empty=5, mixed=1))
    game = Game.start(GameCode(suits, "classic", deal).position())
    for _ in range(data.draw(st.integers(0, 150), label="steps")):
        board = to_board(game.position)
        for row in rows:
            assert position_value(game.position, row) == SK.evaluate(board, np.array(row, np.int64))
        actions = legal_actions(game.position)
        if not actions:
            break
        game = game.play(actions[data.draw(st.integers(0, len(actions) - 1))])


@settings(deadline=None, max_examples=30)
@given(st.sampled_from([1, 2, 4]), st.integers(0, 2**35 - 1), st.data())
def test_spare_moves_are_moves_into_an_empty_column_but_the_first_while_stock_lasts(
    suits, deal, data
):
    from spidersolve.state.packed import action_to_code

    game = Game.start(GameCode(suits, "classic", deal).position())
    seen = 0
    for step in random_walk(data, game):
        pos, actions = step.position, legal_actions(step.position)
        board = to_board(pos)
        empty = [c for c in range(10) if not pos.down[c] and not pos.up[c]]
        first = SK.first_empty_column(board)
        assert first == (empty[0] if empty and pos.stock else -1)
        for action in actions:
            expected = bool(pos.stock) and action.n_cards > 0 and action.dst in empty[1:]
            assert SK.is_spare(board, action_to_code(action), first) == expected
            seen += expected
    event("a spare move met" if seen else "no spare move met")  # the hand-made test has many


SPARE_TEXT = """spider 1 classic
removed: S S S S S S
stock: AS 2S 3S 4S 5S 6S 7S 8S 9S TS
1: | KS QS JS
2: | KS QS JS
3: | TS 9S 8S
4: | 7S 6S 5S 4S 3S 2S AS
5: |
6: |
7: |
8: |
9: |
10: |
"""


def test_spare_moves_in_a_position_with_six_empty_columns():
    from spidersolve.state import Position
    from spidersolve.state.packed import action_to_code

    pos = Position.from_text(SPARE_TEXT)
    board = to_board(pos)
    assert SK.first_empty_column(board) == 4
    spare = {str(a) for a in legal_actions(pos) if SK.is_spare(board, action_to_code(a), 4)}
    assert "1>5" not in spare and "1>6" in spare and "4>10x7" in spare and "3>2" not in spare
    assert len(spare) == 5 * sum(n for n in (3, 3, 3, 7))  # every n into columns 6..10


@settings(deadline=None, max_examples=30)
@given(st.sampled_from([1, 2, 4]), st.integers(0, 2**35 - 1), st.data())
def test_the_line_beams_column_shares_add_up_to_the_value_along_random_walks(suits, deal, data):
    """_lines' per-column value shares add up to the value; it tells positions apart."""
    from spidersolve.search import _lines as L

    row = np.array(
        weights_row(face_down=5, breaks=4, mixed=3, empty=2, removed=30, buried=2), np.int64
    )
    game = Game.start(GameCode(suits, "classic", deal).position())
    node = np.zeros(L.PACKED_SIZE, np.uint8)
    for _ in range(data.draw(st.integers(0, 120), label="steps")):
        board = to_board(game.position)
        shares = np.array([L.column_value(board, c, row) for c in range(10)], np.int64)
        assert L._board_value(board, shares, row) == SK.evaluate(board, row)
        L.pack(board, node)
        assert L._same_position(node[None, :], 0, board, np.zeros(L.PACKED_SIZE, np.uint8))
        actions = legal_actions(game.position)
        if not actions:
            break
        game = game.play(actions[data.draw(st.integers(0, len(actions) - 1))])
        assert not L._same_position(
            node[None, :], 0, to_board(game.position), np.zeros(L.PACKED_SIZE, np.uint8)
        )


def _reference_splits_run(pos, action) -> bool:
    """A move that splits a same-suit run, the run no longer where the cards land."""

    def follows(lower, upper):
        return card_suit(lower) == card_suit(upper) and card_rank(lower) == card_rank(upper) + 1

    def run_down(cards):  # same-suit run at the end of a list of face-up cards
        k = 1
        while k < len(cards) and follows(cards[-k - 1], cards[-k]):
            k += 1
        return k

    if action.n_cards == 0:  # the deal
        return False
    up = pos.up[action.src]
    moved, rest = up[-action.n_cards :], up[: -action.n_cards]
    if not rest or not follows(rest[-1], moved[0]):
        return False
    target = pos.up[action.dst]
    if not target or not follows(target[-1], moved[0]):
        return True
    return run_down(target) <= run_down(rest)


def _reference_unpromising(pos, action) -> bool:
    """The line beam's move filter, from the Position: see ``_lines.unpromising``."""
    if action.n_cards == 0:  # the deal
        return False
    empty = [c for c in range(10) if not pos.down[c] and not pos.up[c]]
    if pos.stock and action.dst in empty[1:]:
        return True  # a spare move
    up, down = pos.up[action.src], pos.down[action.src]
    if action.dst in empty and not down and len(up) == action.n_cards:
        return True  # a whole face-up column into an empty one
    return _reference_splits_run(pos, action)


@settings(deadline=None, max_examples=40)
@given(
    st.sampled_from([1, 2, 4]),
    st.sampled_from(["classic", "relaxed"]),
    st.integers(0, 2**35 - 1),
    st.data(),
)
def test_run_splits_and_the_line_beams_move_filter_equal_the_reference_on_random_walks(
    suits, rules, deal, data
):
    from spidersolve.search import _lines as L
    from spidersolve.state.packed import action_to_code

    game = Game.start(GameCode(suits, rules, deal).position())
    for step in random_walk(data, game):
        pos, actions = step.position, legal_actions(step.position)
        board = to_board(pos)
        first = SK.first_empty_column(board)
        for action in actions:
            code = action_to_code(action)
            expected = _reference_unpromising(pos, action)
            assert L.unpromising(board, code, first) == expected, str(action)
            assert SK.splits_run(board, code) == _reference_splits_run(pos, action), str(action)


def test_named_configurations_are_the_kernels_rows():
    plain = PRESETS["plain"]
    assert isinstance(plain, Weights) and plain.face_down == 3 and plain.width == 0
    assert weight_rows().tolist() == [list(w) for w in DEFAULT_WEIGHTS]
    assert weight_rows("default").tolist() == weight_rows(None).tolist()
    assert weight_rows(plain).tolist() == weight_rows("plain").tolist() == [list(plain)]
    assert weight_rows({"breaks": 5, "width": 40}).tolist() == [list(Weights(breaks=5, width=40))]
    assert weight_rows([list(plain), "beam_40"]).shape == (2, SK.N_WEIGHTS)
    for bad in ("nothing", {"good": 1}, [[1, 2, 3]], [], [1] * (SK.N_WEIGHTS + 1)):
        with pytest.raises(ValueError, match="weights"):
            weight_rows(bad)


def _reference_hash_noise(lo: int, noise: int, seed: int = 0) -> int:
    """``_terms.hash_noise`` in Python integers (64-bit wrap-around)."""
    if noise <= 0:
        return 0
    mask = (1 << 64) - 1
    key = noise + (seed << 32)
    h = ((lo ^ (key * 0xD6E8FEB86659FD93 & mask)) * 0x9E3779B97F4A7C15) & mask
    return (h >> 33) % (noise + 1)


@given(st.integers(0, 2**64 - 1), st.integers(0, 9999), st.integers(0, 9999))
def test_hash_noise_equals_the_reference(lo, noise, seed):
    got = SK.hash_noise(np.uint64(lo), noise, seed)
    assert got == _reference_hash_noise(lo, noise, seed)
    assert 0 <= got <= noise


@given(st.integers(0, 2**64 - 1), st.integers(1, 9999))
def test_seed_0_draws_as_the_noise_alone_did(lo, noise):
    # the draw before seeds were added, so every row stored with _nN replays as it was
    mask = (1 << 64) - 1
    h = ((lo ^ (noise * 0xD6E8FEB86659FD93 & mask)) * 0x9E3779B97F4A7C15) & mask
    assert SK.hash_noise(np.uint64(lo), noise, 0) == (h >> 33) % (noise + 1)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_hash_noise_spreads_over_its_range(seed):
    # 6,000 hashes, noise 5: each of 0..5 about 1,000 times (chi-square, 5 degrees of freedom)
    rng = np.random.default_rng(7)
    hashes = rng.integers(0, 2**63, 6000, dtype=np.uint64)
    draws = [SK.hash_noise(np.uint64(x), 5, seed) for x in hashes]
    counts = np.bincount(draws, minlength=6)
    chi2 = float(((counts - 1000.0) ** 2 / 1000.0).sum())
    assert len(counts) == 6 and chi2 < 20.5  # p = 0.001


def test_seeds_draw_the_same_noise_independently():
    # the draws of seeds 0 and 1 (noise 5) on the same hashes: a 6 x 6 table
    # of about 1,000 / 6 each (chi-square of independence, 25 degrees of freedom)
    rng = np.random.default_rng(11)
    hashes = rng.integers(0, 2**63, 6000, dtype=np.uint64)
    table = np.zeros((6, 6))
    for x in hashes:
        table[SK.hash_noise(np.uint64(x), 5, 0), SK.hash_noise(np.uint64(x), 5, 1)] += 1
    expected = np.outer(table.sum(1), table.sum(0)) / table.sum()
    chi2 = float(((table - expected) ** 2 / expected).sum())
    assert chi2 < 52.6  # p = 0.001


def test_a_noisy_name_is_its_row_with_noise():
    assert preset("beam_1500_n5") == PRESETS["beam_1500"].replace(noise=5)
    assert preset("kp_beam_5000_n12").noise == 12
    assert preset("plain_n1") == PRESETS["plain"].replace(noise=1)
    assert weight_rows("beam_40_n3").tolist() == [list(PRESETS["beam_40"].replace(noise=3))]
    assert is_preset("beam_300_n9999") and is_preset("kp300")
    # a portfolio's name with _nN: every row of it with that noise
    assert preset("kp300_n2") == tuple(row.replace(noise=2) for row in PRESETS["kp300"])
    assert preset("default_n3") == tuple(row.replace(noise=3) for row in PRESETS["default"])
    assert weight_rows("kp300_n2")[:, SK.W_NOISE].tolist() == [2] * 6
    # _sS: the same noise drawn with seed S
    assert preset("kp300_n3_s2") == tuple(row.replace(noise=3, seed=2) for row in PRESETS["kp300"])
    assert preset("beam_1500_n5_s9999") == PRESETS["beam_1500"].replace(noise=5, seed=9999)
    assert weight_rows("kp300_n3_s2")[:, SK.W_SEED].tolist() == [2] * 6
    for bad in (
        "default_n",
        "kp300_n0",
        "beam_1500_n0",
        "beam_1500_n10000",
        "beam_1500_n",
        "beam_1500_n05",
        "nothing_n4",
        "BEAM_1500_n5",
        "beam_1500_s2",
        "beam_1500_n5_s0",
        "beam_1500_n5_s10000",
        "beam_1500_n5_s",
        "beam_1500_n5_s02",
        "beam_1500_n5_s2_s3",
        "beam_1500_s2_n5",
    ):
        assert not is_preset(bad), bad
        with pytest.raises(ValueError, match="_n1 .. _n9999"):
            preset(bad)


def test_a_noisy_beam_is_another_beam_and_its_wins_replay():
    from spidersolve.search import solve
    from spidersolve.search.verify import verify_win

    plain = solve("SP1-S2C-AAAAAAD", nodes=300_000, weights="beam_300")
    zero = solve("SP1-S2C-AAAAAAD", nodes=300_000, weights=PRESETS["beam_300"].replace(noise=0))
    assert zero == plain  # noise 0 is no noise
    lines = set()
    for n in (3, 7):
        once = solve("SP1-S2C-AAAAAAD", nodes=300_000, weights=f"beam_300_n{n}")
        again = solve("SP1-S2C-AAAAAAD", nodes=300_000, weights=f"beam_300_n{n}")
        assert once == again  # deterministic
        assert once.verdict == "won", n
        verify_win("SP1-S2C-AAAAAAD", once.line)
        lines.add(once.line)
    assert len(lines | {plain.line}) == 3  # each noise another beam, another line
    seeded = solve("SP1-S2C-AAAAAAD", nodes=300_000, weights="beam_300_n7_s1")
    assert seeded.verdict == "won"
    verify_win("SP1-S2C-AAAAAAD", seeded.line)
    zero = solve(
        "SP1-S2C-AAAAAAD", nodes=300_000, weights=PRESETS["beam_300"].replace(noise=7, seed=0)
    )
    assert zero == once  # seed 0 is the noise alone
    assert seeded.line not in lines | {plain.line}  # another seed, another beam


@pytest.mark.parametrize(
    "weights, words",
    [
        ([True] * 12, "a weight is a whole number, not True or False"),  # "12 integers, not 12"
        (Weights(face_down=2**70), "face_down 1180591620717411303424 is past"),  # OverflowError
        ({"breaks": "3"}, "breaks is a whole number, not '3'"),  # taken silently
        (Weights(width=-5), "width is 0 or more, not -5"),
        (Weights(noise=-1), "noise is 0 or more, not -1"),
    ],
)
def test_weights_that_are_no_weights_are_refused_by_name_bug(weights, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        weight_rows(weights)


def test_weights_as_a_numpy_array_are_its_rows_bug():
    # a 2-D array failed with numpy's "truth value ... is ambiguous"
    rows = np.array([list(PLAIN), list(DIG)])
    assert weight_rows(rows).tolist() == weight_rows([PLAIN, DIG]).tolist()
    assert weight_rows(np.array(list(PLAIN))).tolist() == weight_rows(PLAIN).tolist()
