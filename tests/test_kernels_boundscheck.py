"""The kernels with numba's bounds checking on (NUMBA_BOUNDSCHECK=1).

Numba does not check array indices by default, so an out-of-range write
corrupts memory silently. This test compiles the kernels afresh with bounds
checks, in a subprocess with its own empty NUMBA_CACHE_DIR (so the cache of
normal runs is neither used nor overwritten), and runs a sample of the kernel
work there: actions, apply and undo of every legal action along a few walks
(won games included, so run removals and turn-ups are exercised), perft to
depth 3 for each suit count, and a short solver run. Compiling everything
with bounds checks takes most of the time (about a minute on two cores).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SCRIPT = textwrap.dedent("""
    import json, sys
    import numpy as np
    from numba import config, njit

    assert config.BOUNDSCHECK, "NUMBA_BOUNDSCHECK did not reach numba"

    @njit
    def past_the_end(a):
        return a[a.shape[0]]

    try:
        past_the_end(np.zeros(3, np.int16))
    except IndexError:
        pass
    else:
        sys.exit("bounds checking is not on")

    from spidersolve.state import Game, GameCode, legal_actions, parse_line
    from spidersolve.state import _board as B
    from spidersolve.state import _hashing as H
    from spidersolve.state import _kernels as K
    from spidersolve.state import _packing as P
    from spidersolve.state import kernel
    from spidersolve.state.packed import (action_to_code, from_board, from_packed, to_board,
                                          to_packed)

    def check_line(code, line):
        game = Game.start(GameCode.parse(code).position())
        board = to_board(game.position)
        out = np.empty(B.MAX_ACTIONS, np.int32)
        undo = np.zeros(B.UNDO_SIZE, np.int32)
        packed = np.zeros(P.PACKED_SIZE, np.uint8)
        for action in line:
            n = K.gen_actions(board, game.position.relaxed, out)
            assert n == len(legal_actions(game.position))
            for a in out[:n]:
                K.apply_action(board, a, undo)
                H.column_zobrist(board, 0, H.CARD_KEYS, 1)
                H.canonical_hash(board, H.CARD_KEYS, H.STOCK_KEYS, 0)
                H.zobrist_hash(board, H.CARD_KEYS, H.STOCK_KEYS, 1)
                K.undo_action(board, undo)
            K.apply_action(board, action_to_code(action), undo)
            game = game.play(action)
            P.pack(board, packed)
            P.unpack(packed, board)
            pos = game.position
            assert from_board(board, pos.suits, pos.rules) == pos
            assert from_packed(to_packed(pos), pos.suits, pos.rules) == pos
        return game

    vectors = sys.argv[1]
    rows = [json.loads(line) for name in ("wins", "walks")
            for line in open(f"{vectors}/{name}.jsonl") if line.strip()]
    for row in rows[:4] + rows[-3:]:
        game = check_line(row["code"], parse_line(row["line"]))
        assert game.position.to_text() == row["position"], row["code"]

    for row in (json.loads(line) for line in open(f"{vectors}/perft.jsonl")):
        if row["depth"] == 3 and row["code"] in (
                "SP1-S1C-AAAAAAA", "SP1-S2C-AAAAAAD", "SP1-S4C-AAAAABA", "SP1-S4R-7777777"):
            leaves = kernel.perft(GameCode.parse(row["code"]).position(), 3)
            assert leaves == row["leaves"], (row["code"], leaves)

    from spidersolve.search import solve
    result = solve("SP1-S1C-AAAAAAD", nodes=2000)
    assert result.verdict in ("won", "lost", "unknown"), result
    print("ok", result.verdict, result.nodes)
""")


@pytest.mark.slow
def test_kernels_run_clean_with_numba_bounds_checking(tmp_path):
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    env["SPIDERSOLVE_NATIVE"] = "0"  # the search too, not the compiled extension (no checks)
    vectors = Path(__file__).parent / "vectors"
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(vectors)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("ok "), proc.stdout
