"""pytest hooks. Shared test data is in data.py, hypothesis strategies in strategies.py."""

from __future__ import annotations


def pytest_sessionstart(session):
    """Compile (or load) the numba kernels once, before any test runs.

    The commands say on stderr when the kernels are not compiled yet; tests
    that check stderr should see what a user sees on every run after the
    first. (test_hint checks the first-run notice itself.)
    """
    import pytest

    from spidersolve.search import solve
    from spidersolve.state import GameCode
    from spidersolve.state.kernel import perft as kernel_perft

    position = GameCode.parse("SP1-S1C-AAAAAAD").position()
    kernel_perft(position, 2)
    solve(position, nodes=10)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SPIDERSOLVE_NATIVE", "0")  # numba's search kernel too (threads use it)
        solve(position, nodes=10)
