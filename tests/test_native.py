"""The compiled search kernel (``search/native.py``) against numba's, and when each runs.

``make setup`` builds the extension; these tests fail when it is missing or
was built from other kernel sources (run ``python -m spidersolve.search.build``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from click.testing import CliRunner

from spidersolve.cli.main import cli
from spidersolve.search import _kernels as K
from spidersolve.search import native, solve
from spidersolve.search.heuristic import weight_rows
from spidersolve.state import GameCode, load_source, replay
from spidersolve.state.kernel import CARD_KEYS, STOCK_KEYS
from spidersolve.state.packed import to_board

DEALS = [
    ("SP1-S1C-AAAAAAB", 1_000_000),
    ("SP1-S2C-AAAAAAD", 1_000_000),
    ("SP1-S4C-AAAAAAA", 1_000_000),
    ("SP1-S4C-AAAAAAE", 200_000),  # 161,258 nodes (macro moves from 50,000)
    ("SP1-S4R-AAAAAAA", 100_000),  # Relaxed
    ("SP1-S4C-AAAAAAM", 30_000),  # unknown at this limit
]


def _run(kernel, code, nodes, byte_limit=0, weights=None):
    position = GameCode.parse(code).position()
    result = np.zeros(K.RESULT_SIZE, np.int64)
    arrays = kernel(
        to_board(position),
        position.relaxed,
        nodes,
        byte_limit,
        -1,
        weight_rows(weights),
        CARD_KEYS,
        STOCK_KEYS,
        result,
        np.zeros(1, np.int64),
    )
    return result, arrays


# Without a C compiler make setup cannot build the extension, and numba's kernels serve.
needs_compiler = pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")


def _python(script: str) -> list[str]:
    """The words a fresh Python process running ``script`` prints (it must exit 0)."""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


@needs_compiler
def test_the_extension_is_built_from_these_sources():
    assert native.native_kernel("search") is not None, (
        "the native search kernel is missing or stale: python -m spidersolve.search.build"
    )


@needs_compiler
@pytest.mark.parametrize("code,nodes", DEALS)
def test_the_compiled_search_is_numbas_search(code, nodes):
    compiled = native.native_kernel("search")
    ours, our_arrays = _run(compiled, code, nodes)
    theirs, their_arrays = _run(K.search, code, nodes)
    assert ours.tolist() == theirs.tolist()
    for mine, other in zip(our_arrays, their_arrays, strict=True):
        assert mine.dtype == other.dtype and np.array_equal(mine, other)


@needs_compiler
@pytest.mark.parametrize("weights", ["beam_300_n7", "macro"])
def test_the_compiled_search_is_numbas_search_for_other_rows(weights):
    # a noisy beam, and the rows with macro moves
    ours, our_arrays = _run(native.native_kernel("search"), "SP1-S2C-AAAAAAD", 60_000, 0, weights)
    theirs, their_arrays = _run(K.search, "SP1-S2C-AAAAAAD", 60_000, 0, weights)
    assert ours.tolist() == theirs.tolist()
    for mine, other in zip(our_arrays, their_arrays, strict=True):
        assert np.array_equal(mine, other)


@needs_compiler
@pytest.mark.parametrize("code", ["SP1-S4C-AAAAAAA", "SP1-S1C-AAAAAAD"])
def test_the_compiled_search_stops_at_the_memory_cap_as_numbas_does(code):
    ours, our_arrays = _run(native.native_kernel("search"), code, 10**7, 6_000_000)
    theirs, their_arrays = _run(K.search, code, 10**7, 6_000_000)
    assert ours[K.RESULT_STOPPED] == K.STOPPED_BY_MEMORY
    assert ours.tolist() == theirs.tolist()
    for mine, other in zip(our_arrays, their_arrays, strict=True):
        assert np.array_equal(mine, other)


@needs_compiler
@pytest.mark.parametrize("code,nodes", DEALS[:3])
def test_solve_gives_the_same_result_either_way(code, nodes, monkeypatch):
    compiled = solve(code, nodes=nodes)
    monkeypatch.setenv(native.DISABLE, "0")
    jit = solve(code, nodes=nodes)
    assert compiled == jit
    assert replay(GameCode.parse(code).position(), compiled.line).won


@needs_compiler
def test_a_solve_process_does_not_load_numba():
    script = (
        "import sys\n"
        "from spidersolve import solve\n"
        "r = solve('SP1-S4C-AAAAAAA')\n"
        "assert r.verdict == 'won', r\n"
        "print('numba' in sys.modules, 'spidersolve._jit' in sys.modules)\n"
    )
    assert _python(script) == ["False", "True"]


@needs_compiler
def test_the_extension_says_nothing_of_compiling(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # numba's cache is empty
    out = CliRunner().invoke(cli, ["solve", "SP1-S1C-AAAAAAD", "--json"])
    assert out.exit_code == 0 and out.stderr == ""


@needs_compiler
def test_an_honest_hint_says_nothing_of_compiling_bug(tmp_path, monkeypatch):
    """It said "compiling" on every run: it looked for numba's search kernel in the
    cache, which the extension never writes."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # numba's cache is empty
    for args in (["SP1-S4C-AAAAAAD", "--honest"], ["SP1-S1C-AAAAAAD", "--honest"]):
        out = CliRunner().invoke(cli, ["hint", *args, "--samples", "2", "--json"])
        assert out.exit_code == 0 and out.stderr == ""
        assert json.loads(out.stdout)["status"] == "honest"
    assert not list(tmp_path.rglob("*.nbi"))  # and nothing was compiled


def test_stale_sources_fall_back_to_numba(monkeypatch):
    monkeypatch.setattr(native, "_loaded", {})
    monkeypatch.setattr(native, "source_key", lambda: 12345)
    assert native.native_kernel("search") is None
    result = solve("SP1-S1C-AAAAAAD", nodes=100_000)
    assert result.verdict == "won"


@needs_compiler
def test_off_the_main_thread_the_extension_runs():
    box = []
    thread = threading.Thread(target=lambda: box.append(native.native_kernel("search")))
    thread.start()
    thread.join()
    assert box == [native.native_kernel("search")] and box[0] is not None


def test_when_disabled_numba_runs(monkeypatch):
    monkeypatch.setenv(native.DISABLE, "0")
    assert native.native_kernel("search") is None


def _unknown_search_args(nodes: int, source: str = "SP1-S4C-AAAAAAM"):
    """The kernel's arguments up to ``result`` for a deal unknown at ``nodes``."""
    position, _ = load_source(source)
    return (to_board(position), False, nodes, 0, -1, weight_rows(None), CARD_KEYS, STOCK_KEYS)


@needs_compiler
def test_the_stop_flag_reaches_the_compiled_kernel():
    """A flag already set stops the search at once (Ctrl-C: test_robustness.py)."""
    from spidersolve.interrupt import run_kernel

    compiled = native.native_kernel("search")
    args = _unknown_search_args(1_000_000)
    result = np.zeros(K.RESULT_SIZE, np.int64)
    stopped = np.ones(1, np.int64)
    compiled(*args, result, stopped)
    assert result[K.RESULT_STOPPED] == K.STOPPED_BY_FLAG and result[K.RESULT_NODES] == 0
    result[:] = 0
    run_kernel(compiled, *_unknown_search_args(50), result)  # a fresh flag, 0
    assert result[K.RESULT_STOPPED] == 0 and result[K.RESULT_NODES] == 50


@needs_compiler
def test_the_extension_lets_go_of_pythons_lock_while_it_searches():
    """The main thread sets the flag of a search running on another thread.

    Were the lock held, the main thread could not wake from its sleep before
    the search had used its whole budget (pysol:4:14934 is unknown at it).
    """
    compiled = native.native_kernel("search")
    args = _unknown_search_args(1_000_000, "pysol:4:14934")
    result = np.zeros(K.RESULT_SIZE, np.int64)
    stop = np.zeros(1, np.int64)
    thread = threading.Thread(target=lambda: compiled(*args, result, stop))
    thread.start()
    time.sleep(0.05)
    stop[0] = 1
    thread.join()
    assert result[K.RESULT_STOPPED] == K.STOPPED_BY_FLAG
    assert result[K.RESULT_NODES] < 1_000_000


@needs_compiler
def test_build_writes_the_extension_in_one_step(tmp_path):
    target = native.build(tmp_path)
    assert target.parent == tmp_path and target.stat().st_size > 0
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


@needs_compiler
def test_another_signal_does_not_cut_the_search_short():
    """A signal with a Python handler (not Ctrl-C) runs it; the search goes on."""
    script = (
        "import os, signal, subprocess, sys\n"
        "from spidersolve import solve\n"
        "seen = []\n"
        "signal.signal(signal.SIGUSR1, lambda *a: seen.append(1))\n"
        "cmd = f'sleep 0.3; kill -USR1 {os.getpid()}'\n"
        "killer = subprocess.Popen(['sh', '-c', cmd])\n"
        "r = solve('SP1-S4C-AAAAAAE', nodes=200_000)\n"
        "killer.wait()\n"
        "print(r.verdict, r.nodes, len(r.line), len(seen), 'numba' in sys.modules)\n"
    )
    words = _python(script)
    quiet = solve("SP1-S4C-AAAAAAE", nodes=200_000)
    # the handler ran mid-search, and the extension's search went on to the end
    assert words == ["won", str(quiet.nodes), str(len(quiet.line)), "1", "False"]


def test_an_extension_that_does_not_load_falls_back_to_numba(monkeypatch):
    """A damaged or foreign file (ImportError, OSError) means numba's kernel, not an error."""

    def broken(name):
        raise ImportError(f"{name}: invalid ELF header")

    monkeypatch.setattr(native, "_loaded", {})
    monkeypatch.setattr(native.importlib, "import_module", broken)
    assert native.native_kernel("search") is None
    assert solve("SP1-S1C-AAAAAAD", nodes=100_000).verdict == "won"


def test_an_extension_built_another_way_has_another_key(monkeypatch):
    """One built holding Python's lock (before ``BUILD``) is stale, not run on threads."""
    key = native.source_key()
    monkeypatch.setattr(native, "BUILD", "pycc")
    assert native.source_key() != key
