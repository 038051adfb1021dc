"""Shared test helpers: the golden vectors in tests/vectors/*.jsonl."""

from __future__ import annotations

import json
from pathlib import Path

VECTORS = Path(__file__).parent / "vectors"


def read_vectors(name: str) -> list[dict]:
    """Every line of ``tests/vectors/<name>.jsonl``, parsed.

    A missing or empty file is an error at collection time, never a skip:
    losing a golden file must fail the suite loudly.
    """
    path = VECTORS / f"{name}.jsonl"
    if not path.is_file():
        raise FileNotFoundError(f"golden vector file {path} is missing")
    rows = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as err:
                    raise ValueError(f"{path}:{number}: not JSON: {err}") from None
    if not rows:
        raise ValueError(f"golden vector file {path} is empty")
    return rows


def vector_id(row: dict) -> str:
    """A short readable test id for one vector line."""
    for key in ("name", "code", "source", "input"):
        if key in row:
            label = repr(row[key]) if key == "input" else str(row[key])
            return label + (f"-d{row['depth']}" if "depth" in row else "")
    return "row"


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


def pytest_sessionstart(session):
    """Compile (or load) the numba kernels once, before any test runs.

    The commands say on stderr when the kernels are not compiled yet; tests
    that check stderr should see what a user sees on every run after the
    first. (test_hint checks the first-run notice itself.)
    """
    from spidersolve.search import solve
    from spidersolve.state import GameCode
    from spidersolve.state.kernel import perft as kernel_perft

    position = GameCode.parse("SP1-S1C-AAAAAAD").position()
    kernel_perft(position, 2)
    solve(position, nodes=10)
