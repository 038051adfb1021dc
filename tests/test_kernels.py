"""The numba kernels against the reference rules: golden vectors and hypothesis walks.

The reference model (``rules.py``) is the oracle. Every vector line is played
through the kernels of ``state/_kernels.py`` on a working board (and through
``state/kernel.py``, their face under the reference's names), and random
legal walks compare the two models action by action: the legal list (as a
set and in the documented order), the position, move counter and score after
every legal action, undo byte for byte, the packed form, and the hashes.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from data import read_vectors, vector_id
from hypothesis import event, given, settings
from hypothesis import strategies as st
from strategies import codes, random_walk

from spidersolve.cli.main import cli
from spidersolve.state import (
    Action,
    Game,
    GameCode,
    IllegalAction,
    Position,
    apply,
    kernel,
    legal_actions,
    parse_line,
)
from spidersolve.state import _board as B
from spidersolve.state import _hashing as H
from spidersolve.state import _kernels as K
from spidersolve.state import _packing as P
from spidersolve.state.kernel import CARD_KEYS, STOCK_KEYS, canonical_hash
from spidersolve.state.packed import (
    PACKED_SIZE,
    action_from_code,
    action_to_code,
    from_board,
    from_packed,
    to_board,
    to_packed,
)
from spidersolve.state.perft import divide, perft

DEALS = read_vectors("deals")
PERFT = read_vectors("perft")
WALKS = read_vectors("walks")
WINS = read_vectors("wins")
POSITIONS = read_vectors("positions")


# -- helpers ---------------------------------------------------------------


def board_of(game: Game) -> np.ndarray:
    return to_board(game.position, game.moves, game.score)


def board_actions(board: np.ndarray, relaxed: bool) -> list[Action]:
    out = np.empty(B.MAX_ACTIONS, np.int32)
    n = K.gen_actions(board, relaxed, out)
    return [action_from_code(int(x)) for x in out[:n]]


def new_undo() -> np.ndarray:
    return np.zeros(B.UNDO_SIZE, np.int32)


def live(board: np.ndarray) -> np.ndarray:
    """The board with its dead cells zeroed.

    Dead cells are those no kernel reads: slots above a column's length, the
    stock already dealt, removed-run slots past the count. A move leaves its
    cards behind in the source's dead slots and undo leaves them in the
    destination's, so "undo restores the board" means: byte for byte on the
    live cells (and every header field, counters included).
    """
    out = board.copy()
    for c in range(B.N_COLS):
        out[c * B.CAP + int(board[B.LEN + c]) : (c + 1) * B.CAP] = 0
    out[B.STOCK : B.STOCK + 50 - int(board[B.NSTOCK])] = 0
    out[B.REMOVED + int(board[B.NREMOVED]) : B.REMOVED + 8] = 0
    return out


def assert_board_is(board: np.ndarray, game: Game) -> None:
    """The board holds the game's position, move counter and score."""
    pos = game.position
    assert from_board(board, pos.suits, pos.rules) == pos
    assert np.array_equal(live(board), to_board(pos, game.moves, game.score))
    assert int(board[B.MOVES]) == game.moves
    assert int(board[B.SCORE]) == game.score


def assert_same_actions(board: np.ndarray, pos: Position) -> list[Action]:
    reference = legal_actions(pos)
    kernel = board_actions(board, pos.relaxed)
    assert set(kernel) == set(reference)
    assert kernel == reference, f"order differs in\n{pos.to_text()}"
    return reference


def play_every_action(board: np.ndarray, game: Game, actions) -> None:
    """Apply each legal action on the board: it matches the reference; undo restores."""
    before = board.copy()
    undo = new_undo()
    for action in actions:
        child = game.play(action)
        removed = K.apply_action(board, action_to_code(action), undo)
        assert removed == len(child.position.removed) - len(game.position.removed), action
        assert_board_is(board, child)
        K.undo_action(board, undo)
        assert np.array_equal(live(board), live(before)), (
            f"undo of {action.text()} from\n{game.position.to_text()}"
        )


def column_features(pos: Position, c: int) -> set[tuple[int, int, int]]:
    """Column c as (slot, card, face_down) triples: what column_zobrist XORs."""
    cards = pos.down[c] + pos.up[c]
    fd = len(pos.down[c])
    return {(i, card, 1 if i < fd else 0) for i, card in enumerate(cards)}


def xor_keys(features, variant: int) -> int:
    h = 0
    for slot, card, face_down in features:
        h ^= int(CARD_KEYS[variant, slot, card, face_down])
    return h


def canonical_key(pos: Position):
    """What the canonical hash must see: columns with their future stock, unordered."""
    deals = len(pos.stock) // 10
    cols = sorted(
        (pos.down[c], pos.up[c], tuple(pos.stock[10 * k + c] for k in range(deals)))
        for c in range(10)
    )
    return len(pos.stock), tuple(cols)


def permuted(pos: Position, perm) -> Position:
    """Columns in the order ``perm``, each deal of the stock permuted the same way."""
    stock = []
    for k in range(len(pos.stock) // 10):
        deal = pos.stock[10 * k : 10 * k + 10]
        stock.extend(deal[perm[i]] for i in range(10))
    return Position.make(
        pos.suits,
        pos.rules,
        [pos.down[p] for p in perm],
        [pos.up[p] for p in perm],
        stock,
        pos.removed,
    )


# -- golden vectors ------------------------------------------------------


@pytest.mark.parametrize("row", DEALS, ids=vector_id)
def test_deal_packs_and_lists_actions_like_the_reference(row):
    pos = Position.from_text(row["position"])
    packed = to_packed(pos)
    assert packed.dtype == np.uint8 and packed.shape == (PACKED_SIZE,)
    assert not packed[106:].any()
    assert from_packed(packed, pos.suits, pos.rules) == pos
    board = np.zeros(B.BOARD_SIZE, np.int16)
    P.unpack(packed, board)
    assert np.array_equal(board, to_board(pos))
    assert kernel.legal_actions(pos) == legal_actions(pos)


def test_packed_offsets_follow_each_other_and_hold_104_cards():
    fields = [
        (P.PACKED_LEN, B.N_COLS),
        (P.PACKED_FD, B.N_COLS),
        (P.PACKED_NSTOCK, 1),
        (P.PACKED_NREMOVED, 1),
        (P.PACKED_REMOVED, 2),
        (P.PACKED_MOVES, 2),
        (P.PACKED_SCORE, 2),
        (P.PACKED_CARDS, (104 * 6 + 7) // 8),
    ]
    at = 0
    for offset, size in fields:
        assert offset == at
        at += size
    assert at == 106 <= P.PACKED_SIZE == PACKED_SIZE == 112


@pytest.mark.parametrize("row", PERFT, ids=vector_id)
def test_kernel_perft_counts_the_action_sequences(row):
    pos = GameCode.parse(row["code"]).position()
    leaves = kernel.perft(pos, row["depth"])
    if leaves != row["leaves"]:
        by_kernel = kernel.divide(pos, row["depth"])
        reference = dict(divide(pos, row["depth"]))
        split = "\n".join(
            f"{a.text()}: kernel {n}, reference {reference.get(a)}" for a, n in by_kernel
        )
        pytest.fail(f"{row['code']} depth {row['depth']}: {leaves} != {row['leaves']}\n{split}")


@pytest.mark.parametrize("row", [r for r in PERFT if r["depth"] == 3][:4], ids=vector_id)
def test_perft_command_default_engine_equals_the_reference_engine(row):
    runner = CliRunner()
    args = ["perft", row["code"], "3", "--json"]
    kernel = json.loads(runner.invoke(cli, args).stdout)
    reference = json.loads(runner.invoke(cli, args + ["--engine", "reference"]).stdout)
    assert kernel["engine"] == "kernel" and reference["engine"] == "reference"
    assert kernel["leaves"] == reference["leaves"] == row["leaves"]


@pytest.mark.parametrize("row", WALKS + WINS, ids=vector_id)
def test_vector_line_played_on_the_board_matches_the_reference_at_every_step(row):
    game = Game.start(GameCode.parse(row["code"]).position())
    board = board_of(game)
    undo = new_undo()
    for i, action in enumerate(parse_line(row["line"]), start=1):
        actions = assert_same_actions(board, game.position)
        assert action in actions, f"action {i}"
        before = board.copy()
        K.apply_action(board, action_to_code(action), undo)
        K.undo_action(board, undo)
        assert np.array_equal(live(board), live(before)), f"undo of action {i} ({action.text()})"
        K.apply_action(board, action_to_code(action), undo)
        game = game.play(action)
        assert_board_is(board, game)
    assert from_board(board, game.position.suits, game.position.rules).to_text() == row["position"]
    assert (int(board[B.MOVES]), int(board[B.SCORE]), int(board[B.NREMOVED])) == (
        row["moves"],
        row["score"],
        row["removed"],
    )
    assert_same_actions(board, game.position)


@pytest.mark.parametrize("row", POSITIONS, ids=vector_id)
def test_hand_made_position_through_the_kernels(row):
    pos = Position.from_text(row["position"])
    board = to_board(pos)
    assert sorted(a.text() for a in board_actions(board, pos.relaxed)) == row["legal"]
    assert_same_actions(board, pos)
    undo = new_undo()
    removed = K.apply_action(board, action_to_code(Action.parse(row["play"])), undo)
    assert removed == row["removed_after"]
    assert from_board(board, pos.suits, pos.rules).to_text() == row["after"]


@pytest.mark.parametrize("row", POSITIONS, ids=vector_id)
def test_kernel_refuses_to_turn_up_an_unknown_card_where_the_reference_raises(row):
    pos = Position.from_text(row["position"])
    board = to_board(pos)
    before = board.copy()
    undo = new_undo()
    refused = 0
    for action in legal_actions(pos):
        removed = K.apply_action(board, action_to_code(action), undo)
        try:
            after, runs = apply(pos, action)
        except IllegalAction:
            assert removed == -1, action.text()
            refused += 1
        else:
            assert removed == len(runs), action.text()
            assert from_board(board, pos.suits, pos.rules) == after
        K.undo_action(board, undo)
        assert np.array_equal(live(board), live(before)), action.text()
    assert refused == 0 or pos.has_unknown
    for action in legal_actions(pos) + [Action(0, 0, 1), Action(0, 1, 13)]:
        assert raised_by(kernel.apply, pos, action) == raised_by(apply, pos, action), action
    if pos.has_unknown:
        assert refused > 0  # the vector has moves that uncover a '??'
        with pytest.raises(IllegalAction):
            kernel.perft(pos, 3)


def raised_by(function, *args):
    """The type and text of what ``function(*args)`` raises, or its result."""
    try:
        return function(*args)
    except Exception as err:  # compared, never hidden
        return type(err), str(err)


@pytest.mark.parametrize("row", [r for r in PERFT if r["depth"] == 3][:6], ids=vector_id)
def test_kernel_divide_is_the_reference_divide(row):
    pos = GameCode.parse(row["code"]).position()
    for depth in (0, 1, 2):
        assert kernel.divide(pos, depth) == divide(pos, depth)
    assert sum(n for _action, n in kernel.divide(pos, 3)) == row["leaves"]
    for depth in (-1,):
        assert raised_by(kernel.perft, pos, depth) == raised_by(perft, pos, depth)
        assert raised_by(kernel.divide, pos, depth) == raised_by(divide, pos, depth)


# -- hypothesis: random codes and random legal walks ------------------------


def walk_comparing(board, game, data, max_steps):
    """A random legal walk on the board and the reference side by side.

    At every step both list the same actions, every action applied gives the
    same position, counters and score, and undo restores the board.
    """
    undo = new_undo()
    for _ in range(data.draw(st.integers(0, max_steps), label="steps")):
        actions = assert_same_actions(board, game.position)
        assert len(set(actions)) == len(actions)
        play_every_action(board, game, actions)
        if not actions:
            break
        action = actions[data.draw(st.integers(0, len(actions) - 1))]
        K.apply_action(board, action_to_code(action), undo)
        assert kernel.play(game, action) == game.play(action)
        assert kernel.apply(game.position, action) == apply(game.position, action)
        game = game.play(action)
        assert_board_is(board, game)
    return game


@settings(deadline=None, max_examples=40)
@given(codes, st.data())
def test_kernel_matches_the_reference_along_random_walks(code, data):
    game = Game.start(code.position())
    game = walk_comparing(board_of(game), game, data, 150)
    event(f"walk of {game.moves // 25 * 25}+ actions, {len(game.position.removed)} runs removed")


@settings(deadline=None, max_examples=30)
@given(st.sampled_from(WINS), st.data())
def test_kernel_matches_the_reference_near_run_removals(row, data):
    # Random walks seldom complete a run: start them from a point of a won game.
    line = parse_line(row["line"])
    cut = data.draw(st.integers(0, len(line)), label="cut")
    game = Game.start(GameCode.parse(row["code"]).position())
    for action in line[:cut]:
        game = game.play(action)
    board = board_of(game)
    game = walk_comparing(board, game, data, 20)
    assert_same_actions(board, game.position)
    event(f"{len(game.position.removed)} runs removed")


@settings(deadline=None, max_examples=60)
@given(codes, st.data(), st.integers(0, 32767), st.integers(0, 1300))
def test_pack_unpack_round_trips_with_moves_and_score(code, data, moves, score):
    game = random_walk(data, code)[-1]
    for m, s in ((game.moves, game.score), (moves, score)):
        packed = to_packed(game.position, m, s)
        board = np.zeros(B.BOARD_SIZE, np.int16)
        P.unpack(packed, board)
        assert np.array_equal(board, to_board(game.position, m, s))
        assert from_packed(packed, code.suits, code.rules) == game.position
        again = np.zeros(PACKED_SIZE, np.uint8)
        P.pack(board, again)
        assert np.array_equal(again, packed)


@settings(deadline=None, max_examples=60)
@given(codes, st.data())
def test_search_hash_from_stock_shares_is_the_canonical_hash(code, data):
    from spidersolve.search import _table as ST

    game = random_walk(data, code)[-1]
    parts = ST.stock_parts(to_board(Game.start(code.position()).position), STOCK_KEYS)
    board = to_board(game.position)
    cols = np.empty(10, np.uint64)
    for variant in (0, 1):
        ST.column_hashes(board, CARD_KEYS, parts, variant, cols)
        assert H.combine(cols, board, variant) == H.canonical_hash(
            board, CARD_KEYS, STOCK_KEYS, variant
        )


@settings(deadline=None, max_examples=60)
@given(codes, st.data(), st.permutations(range(10)))
def test_canonical_hash_ignores_column_order_with_the_stock(code, data, perm):
    pos = random_walk(data, code)[-1].position
    other = permuted(pos, perm)
    assert canonical_key(other) == canonical_key(pos)
    assert canonical_hash(other) == canonical_hash(pos)
    # The exact-position hash does see the order (unless the permutation changes nothing).
    exact = [int(H.zobrist_hash(to_board(p), CARD_KEYS, STOCK_KEYS, 0)) for p in (pos, other)]
    assert (exact[0] == exact[1]) == (other == pos)


@settings(deadline=None, max_examples=60)
@given(codes, st.data())
def test_canonical_hash_changes_with_every_action(code, data):
    pos = random_walk(data, code)[-1].position
    h = canonical_hash(pos)
    for action in legal_actions(pos):
        child = apply(pos, action)[0]
        # Equal only when the child is the same position up to column order (e.g. a
        # lone king moved to an empty column with the stock gone).
        same = canonical_key(child) == canonical_key(pos)
        if same:
            event("a child equal up to column order")
        hc = canonical_hash(child)
        assert (hc == h) == same, action.text()
        assert (hc[0] == h[0]) == same and (hc[1] == h[1]) == same


@settings(deadline=None, max_examples=40)
@given(codes, st.data())
def test_column_zobrist_changes_by_the_keys_of_the_cards_moved(code, data):
    game = random_walk(data, code)[-1]
    pos = game.position
    board = board_of(game)
    undo = new_undo()

    def zobrist(variant):
        return [int(H.column_zobrist(board, c, CARD_KEYS, variant)) for c in range(10)]

    before = {v: zobrist(v) for v in (0, 1)}
    for v in (0, 1):
        assert before[v] == [xor_keys(column_features(pos, c), v) for c in range(10)]
    for action in legal_actions(pos):
        child = apply(pos, action)[0]
        K.apply_action(board, action_to_code(action), undo)
        for v in (0, 1):
            after = zobrist(v)
            for c in range(10):  # in general: XOR of the (slot, card, face_down) that changed
                changed = column_features(pos, c) ^ column_features(child, c)
                assert after[c] == before[v][c] ^ xor_keys(changed, v), (action.text(), c)
            if action.is_deal or child.removed != pos.removed:
                continue
            # A plain move: the destination changes by exactly the keys of the cards moved.
            src, dst, n = action
            slot = len(pos.down[dst]) + len(pos.up[dst])
            moved = {(slot + i, card, 0) for i, card in enumerate(pos.up[src][-n:])}
            assert after[dst] == before[v][dst] ^ xor_keys(moved, v)
            if len(pos.up[src]) > n or not pos.down[src]:  # nothing turned up in src
                moved_from = {
                    (len(pos.down[src]) + len(pos.up[src]) - n + i, card, 0)
                    for i, card in enumerate(pos.up[src][-n:])
                }
                assert after[src] == before[v][src] ^ xor_keys(moved_from, v)
        K.undo_action(board, undo)


def test_canonical_hash_is_equal_after_a_whole_column_moves_to_an_empty_one():
    pos = Position.from_text("""\
spider 1 classic
removed: S S S S S S S
stock:
1: | KS
2: | QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS
3: |
4: |
5: |
6: |
7: |
8: |
9: |
10: |
""")
    h = canonical_hash(pos)
    for action in legal_actions(pos):
        child = apply(pos, action)[0]
        whole = action.n_cards == len(pos.up[action.src]) and not pos.up[action.dst]
        assert (canonical_hash(child) == h) == whole, action.text()


def test_action_codes_round_trip():
    for src in range(10):
        for dst in range(10):
            for n in range(1, 13):
                action = Action(src, dst, n)
                assert action_from_code(action_to_code(action)) == action
    assert action_from_code(B.DEAL).is_deal


@settings(deadline=None, max_examples=40)
@given(codes, st.data())
def test_a_moves_hash_terms_and_beam_key_updated_from_two_columns_equal_a_full_recount(code, data):
    """The search's and the line beam's child updates equal hashing the child afresh."""
    from spidersolve.search import _lines as L
    from spidersolve.search import _table as ST
    from spidersolve.search import _terms as SK
    from spidersolve.search.heuristic import weights_row

    root = to_board(Game.start(code.position()).position)
    parts = ST.stock_parts(root, STOCK_KEYS)
    row = np.array(
        weights_row(face_down=5, breaks=4, mixed=3, empty=2, removed=30, buried=2), np.int64
    )
    pos = random_walk(data, code)[-1].position
    board = to_board(pos)
    level = board[B.NSTOCK] // 10
    cols = np.array(
        [
            [H.column_zobrist(board, c, CARD_KEYS, v) ^ parts[v, level, c] for c in range(10)]
            for v in (0, 1)
        ],
        np.uint64,
    )
    col_terms = np.array([SK.column_terms(board, c) for c in range(10)], np.int64)
    terms = np.empty(SK.N_WEIGHTS, np.int64)
    SK.features(board, terms)
    hashes = np.empty(10, np.uint64)
    values = np.empty(10, np.int64)
    L._node_columns(board, -1, -1, hashes, values, CARD_KEYS, parts[0], row)
    key = np.uint64(H.combine_exact(hashes, board, 0))
    assert key == H.zobrist_hash(board, CARD_KEYS, STOCK_KEYS, 0)
    for action in legal_actions(pos):
        if action.n_cards == 0:
            continue  # a deal: the search and the beam hash the child afresh
        code_ = action_to_code(action)
        child = to_board(apply(pos, action)[0])
        for v in (0, 1):
            parent_hash = np.uint64(H.canonical_hash(board, CARD_KEYS, STOCK_KEYS, v))
            assert ST.moved_hash(
                parent_hash, cols[v], child, code_, CARD_KEYS, parts, v
            ) == H.canonical_hash(child, CARD_KEYS, STOCK_KEYS, v), action.text()
        moved = np.empty(SK.N_WEIGHTS, np.int64)
        SK.moved_terms(terms, col_terms, child, code_, moved)
        fresh = np.empty(SK.N_WEIGHTS, np.int64)
        SK.features(child, fresh)
        assert list(moved) == list(fresh), action.text()
        assert L._moved_key(key, hashes, child, code_, CARD_KEYS, parts[0]) == H.zobrist_hash(
            child, CARD_KEYS, STOCK_KEYS, 0
        ), action.text()


def test_kernel_divide_at_depth_0_bug():
    # `spidersolve perft CODE 0 --divide` raised ValueError with the kernel engine
    # (kernel_divide wanted a depth of at least 1); the reference gives no rows.
    runner = CliRunner()
    for engine in ("kernel", "reference"):
        out = runner.invoke(cli, ["perft", "SP1-S1C-AAAAAAA", "0", "--divide", "--engine", engine])
        assert out.exit_code == 0 and out.stdout == "1\n", engine


def _stale_cache_files(folder, age=-1000):
    """Cache files of a search kernel, older than every kernel source."""
    import os

    from spidersolve.search.compiled import kernel_sources

    oldest = min(path.stat().st_mtime for path in kernel_sources("search"))
    folder.mkdir(parents=True, exist_ok=True)
    files = [folder / "_kernels.search-1.py311.nbi", folder / "_kernels.search-1.py311.1.nbc"]
    for path in files:
        path.write_bytes(b"")
        os.utime(path, (oldest + age, oldest + age))
    return files


def test_importing_the_search_touches_no_cache_file_bug(tmp_path, monkeypatch):
    """The stale-cache check ran at import and broke a read-only install."""
    import os
    import subprocess
    import sys

    from spidersolve.search.compiled import cache_dir

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    env = dict(os.environ)
    files = _stale_cache_files(cache_dir("search"))  # NUMBA_CACHE_DIR/search_<sha1>
    subprocess.run(
        [sys.executable, "-c", "import spidersolve.search, spidersolve.state"], env=env, check=True
    )
    assert all(path.exists() for path in files)


def test_a_read_only_or_failing_cache_folder_stops_nothing_bug(tmp_path, monkeypatch):
    from pathlib import Path

    from spidersolve.search import compiled

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    files = _stale_cache_files(compiled.cache_dir("search"))
    monkeypatch.setattr(compiled.os, "access", lambda path, mode: False)  # read-only
    assert compiled.drop_stale_caches("search") == 0
    assert all(path.exists() for path in files)
    monkeypatch.undo()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))

    def refuse(self, missing_ok=False):
        raise PermissionError(f"read-only: {self}")

    monkeypatch.setattr(Path, "unlink", refuse)
    assert compiled.drop_stale_caches("search") == 0  # every file error is swallowed
    assert all(path.exists() for path in files)
    monkeypatch.undo()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert compiled.drop_stale_caches("search") == 2
    assert not any(path.exists() for path in files)


def test_the_stale_cache_check_covers_every_kernel_file_of_state_and_search():
    from spidersolve.search.compiled import kernel_sources

    names = {(path.parent.name, path.name) for path in kernel_sources("search")}
    assert {
        ("state", "_kernels.py"),
        ("search", "_kernels.py"),
        ("search", "_lines.py"),
        ("search", "_terms.py"),
        ("search", "_table.py"),
        ("search", "_heap.py"),
    } <= names
    assert not {name for folder, name in names if name in ("solver.py", "compiled.py")}
    assert {path.parent.name for path in kernel_sources("state")} == {"state"}


def test_stale_state_caches_are_dropped_before_perft_and_the_first_search_bug(
    tmp_path, monkeypatch
):
    # After an edit to a state kernel file, the state kernels' cache files
    # were older than their sources: nothing dropped them, so every perft
    # run said "compiling the numba kernels" again.
    import os

    from spidersolve.cli.options import announce_compile
    from spidersolve.search import compiled

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    folder = compiled.cache_dir("state")
    folder.mkdir(parents=True, exist_ok=True)
    oldest = min(path.stat().st_mtime for path in compiled.kernel_sources("state"))
    stale = [folder / "_kernels.perft-1.py311.nbi", folder / "_kernels.perft-1.py311.1.nbc"]
    for path in stale:
        path.write_bytes(b"")
        os.utime(path, (oldest - 1000, oldest - 1000))
    announce_compile("state", "perft")
    assert not any(path.exists() for path in stale)
    for path in stale:
        path.write_bytes(b"")
        os.utime(path, (oldest - 1000, oldest - 1000))
    monkeypatch.setattr(compiled, "_checked", False)
    compiled.fresh_kernels()
    assert not any(path.exists() for path in stale)


def test_the_hash_keys_on_disk_are_the_generated_ones_and_a_bad_copy_is_not_used(tmp_path):
    from spidersolve.state import keys
    from spidersolve.state.kernel import CARD_KEYS, STOCK_KEYS

    card, stock = keys.generate_keys()
    assert keys.keys_digest(card, stock) == keys.KEYS_SHA256
    assert (CARD_KEYS == card).all() and (STOCK_KEYS == stock).all()
    path = tmp_path / "keys.npy"
    keys.write_keys(path)
    loaded = keys.load_keys(path)
    assert all((a == b).all() and a.dtype == np.uint64 for a, b in zip(loaded, (card, stock)))
    # damaged, truncated, of another shape, or missing: generated again, the same keys
    flat = np.load(path)
    flat[7] ^= 1
    np.save(path, flat)
    bad = [path]
    (tmp_path / "short.npy").write_bytes(path.read_bytes()[:1000])
    bad.append(tmp_path / "short.npy")
    np.save(tmp_path / "shape.npy", flat[:100])
    bad += [tmp_path / "shape.npy", tmp_path / "missing.npy"]
    for where in bad:
        again = keys.load_keys(where)
        assert (again[0] == card).all() and (again[1] == stock).all(), where


def test_prove_announces_the_walk_it_compiles_not_the_search_bug(tmp_path, monkeypatch, capsys):
    # solve --prove looked for numba's search kernel, which the compiled extension
    # never writes, so it said "compiling" on every run, and never for the walk
    from spidersolve.cli.options import announce_compile
    from spidersolve.search import compiled, native

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(native, "native_kernel", lambda name: object())  # the extension runs
    folder = compiled.cache_dir("search")
    folder.mkdir(parents=True)
    announce_compile()
    assert capsys.readouterr().err == ""  # the search compiles nothing
    announce_compile(walk=True)
    assert capsys.readouterr().err.startswith("compiling the numba kernels")
    (folder / "_prove.prove-1.py311.nbi").write_bytes(b"")
    announce_compile(walk=True)
    assert capsys.readouterr().err == ""
