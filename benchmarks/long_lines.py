"""Replaying long lines: seconds per line length, and how they grow.

Usage::

    python benchmarks/long_lines.py              # lines of 1,000 .. 27,000 actions
    python benchmarks/long_lines.py --longest 9000

A position with a lone card and an empty column (5S on column 1, column 2
empty, the card going to and fro) replays ``1>2 2>1 ...`` with the reference rules
(``state.replay``, what ``show``, ``replay`` and ``solve --after`` do). Each
length is timed once (wall seconds); the ratio to the length before says how
the time grows: 3.0 for a tripled length is linear. Targets: linear growth,
and a 27,000-action line in a few seconds.
"""

from __future__ import annotations

import argparse
import time

from spidersolve.state import Position, replay

# a lone 5S in column 1 and column 2 empty; kings on the other columns, and
# the rest of the deck face down under column 10
_DOWN = " ".join(f"{rank}S " * (7 if rank == "5" else 8) for rank in "A23456789TJQ").split()
START = "\n".join(
    ["spider 1 classic", "removed:", "stock:", "1: | 5S", "2: |"]
    + [f"{c}: | KS" for c in range(3, 10)]
    + [f"10: {' '.join(_DOWN)} | KS"]
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--longest", type=int, default=27_000, help="the longest line (actions)")
    args = parser.parse_args()
    start = Position.from_text(START)
    lengths = [n for n in (1_000, 3_000, 9_000, 27_000, 81_000) if n <= args.longest]
    before = None
    print(f"{'actions':>8} {'seconds':>8} {'per action':>11} {'x before':>9}")
    for n in lengths:
        line = " ".join("1>2" if i % 2 == 0 else "2>1" for i in range(n))
        t = time.perf_counter()
        game = replay(start, line)
        seconds = time.perf_counter() - t
        assert game.moves == n
        ratio = f"{seconds / before:9.2f}" if before else f"{'':>9}"
        print(f"{n:>8,} {seconds:8.2f} {seconds / n * 1e6:8.0f} us {ratio}")
        before = seconds


if __name__ == "__main__":
    main()
