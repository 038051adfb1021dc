"""Issue 18: interruption, memory, data safety and input robustness."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from spidersolve.cli.main import cli

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


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input, prog_name="spidersolve")


def assert_error(result, *fragments):
    """One ``error:`` line on stderr, status 2, nothing on stdout, no traceback."""
    assert result.exit_code == 2, (result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


# -- memory ------------------------------------------------------------------

@pytest.mark.parametrize("command", ["solve", "hint"])
def test_a_node_limit_beyond_the_memory_cap_is_refused_bug(command):
    assert_error(run(command, "SP1-S4C-AAAAAFS", "--nodes", "50000000", "--memory", "1G"),
                 "--nodes 50000000 may need 71.7 GB", "1.5 KB", "--memory cap of 1.0 GB")


def test_a_node_limit_beyond_the_memory_available_is_refused_bug():
    assert_error(run("solve", "SP1-S4C-AAAAAFS", "--nodes", str(10**12)),
                 "may need", "of memory available")


def test_a_batch_beyond_the_memory_cap_is_refused_bug(tmp_path):
    assert_error(run("batch", "--deals", "0:2", "--nodes", "10000000", "--workers", "2",
                     "--memory", "10G", "--out", str(tmp_path / "r")),
                 "--nodes 10000000 may need 14.5 GB", "--memory cap of 10.0 GB")
    assert not (tmp_path / "r").exists()


def test_batch_workers_are_capped_at_the_cores_and_the_memory_bug(tmp_path):
    result = run("batch", "--deals", "0:2", "--nodes", "2000", "--workers", "1000",
                 "--out", str(tmp_path / "a"), "--quiet")
    assert result.exit_code == 0, result.output
    assert f"note: --workers 1000 capped at {os.cpu_count()}, the number of cores" in \
        result.stderr
    result = run("batch", "--deals", "0:2", "--nodes", "2000000", "--workers", "2",
                 "--memory", "4G", "--out", str(tmp_path / "b"), "--quiet")
    assert result.exit_code == 0, result.output
    assert "note: --workers 2 capped at 1: a search of 2000000 nodes may need 3.1 GB" in \
        result.stderr


@pytest.mark.parametrize("command", ["solve", "hint", "batch"])
def test_help_says_what_a_node_costs_bug(command):
    result = run(command, "--help")
    assert result.exit_code == 0
    assert "1.5 KB" in " ".join(result.stdout.split())


@pytest.mark.parametrize("text", ["lots", "-1G", "1Q", "nan", "1e999"])
def test_a_bad_memory_size_is_one_error_line(text):
    assert_error(run("solve", "SP1-S1C-AAAAAAD", "--memory", text), "--memory", repr(text))


def test_memory_sizes_and_the_estimate():
    from spidersolve.search.memory import BYTES_PER_NODE, needed_bytes, parse_size

    assert parse_size("500M") == 500 * 2**20
    assert parse_size("1.5GiB") == 3 * 2**29
    assert parse_size("4096") == 4096
    assert needed_bytes(1000, 2) - needed_bytes(0, 2) == 2000 * BYTES_PER_NODE


def test_a_huge_deal_range_is_refused_before_it_is_built_bug(tmp_path):
    assert_error(run("batch", "--deals", "0:34359738368", "--out", str(tmp_path / "r")),
                 "--deals", "34,359,738,368 deals", "at most 1,000,000")
    assert_error(run("batch", "--suits", "1,2,4", "--rules", "classic,relaxed", "--deals",
                     "0:300000", "--out", str(tmp_path / "r")),
                 "1,500,000 tasks", "at most 1,000,000")
