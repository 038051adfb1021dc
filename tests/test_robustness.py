"""Issue 18: interruption, memory, data safety and input robustness."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

CLI = [sys.executable, "-c", "from spidersolve.cli.main import main; main()"]
# A deal whose search runs far past a few seconds (issue 18's example).
LONG = ["SP1-S4C-AAAAAFS", "--after", "deal deal deal", "--nodes", "3000000"]


def interrupt(args, cwd=None, wait=2.5):
    """Run the command, send it SIGINT after ``wait`` s; (status, stderr, seconds to exit)."""
    proc = subprocess.Popen(CLI + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=cwd, text=True)
    time.sleep(wait)
    assert proc.poll() is None, "the command ended before it could be interrupted"
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        _out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("still running 30 s after SIGINT")
    return proc.returncode, err, time.monotonic() - sent


@pytest.mark.parametrize("command", ["solve", "hint"])
def test_ctrl_c_stops_a_long_search_bug(command):
    status, err, seconds = interrupt([command] + LONG)
    assert status == 130
    assert err == "error: interrupted\n"
    assert seconds < 3  # within a second on an idle machine; slack for a loaded one


def test_ctrl_c_stops_a_batch_in_process_bug(tmp_path):
    out = tmp_path / "res"
    status, err, seconds = interrupt(["batch", "--suits", "4", "--deals", "0:40", "--nodes",
                                      "3000000", "--workers", "1", "--chunk", "1", "--quiet",
                                      "--out", str(out)], wait=4)
    assert status == 130
    assert err == "error: interrupted\n"
    assert seconds < 3
    # nothing half-written: no temporary file, every part file whole
    assert not [p for p in os.listdir(out) if p.endswith(".tmp")]
    from spidersolve.stats import load_results

    if any(out.glob("*.parquet")):
        load_results(out)


def test_a_set_stop_flag_ends_the_search_and_the_beam_at_once():
    import numpy as np

    from spidersolve.search import _kernels as K
    from spidersolve.search import _lines as L
    from spidersolve.search import solve
    from spidersolve.search.heuristic import DEFAULT_SCHEDULE, DEFAULT_WEIGHTS, beam_weights
    from spidersolve.state import GameCode
    from spidersolve.state.packed import CARD_KEYS, STOCK_KEYS, action_to_code, to_board

    position = GameCode.parse("SP1-S1C-AAAAAAD").position()
    weights = np.asarray(DEFAULT_WEIGHTS, np.int64)
    order = np.array([6 * k + level for k in range(len(weights)) for level in DEFAULT_SCHEDULE],
                     np.int64)
    result = np.zeros(8, np.int64)
    K.search(to_board(position), False, 100_000, weights, order, CARD_KEYS, STOCK_KEYS, result,
             np.ones(1, np.int64))
    assert (result[0], result[1], result[7]) == (K.UNKNOWN, 0, 1)

    line = solve(position).line
    codes = np.array([action_to_code(a) for a in line], np.int32)
    out = np.empty(len(codes), np.int32)
    stats = np.zeros(2, np.int64)
    n = L.beam(to_board(position), False, codes, 300, np.asarray(beam_weights(1), np.int64),
               CARD_KEYS, STOCK_KEYS, 1_000_000, True, out, stats, np.ones(1, np.int64))
    assert n == len(codes) and list(out[:n]) == list(codes)  # the known line, unchanged
    assert list(stats) == [0, 1]
