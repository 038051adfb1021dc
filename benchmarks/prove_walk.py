"""The exhaustive walk of ``solve --prove``: positions a second, and how soon it stops.

    python benchmarks/prove_walk.py                       # pysol:4:14934, 4,000,000 positions
    python benchmarks/prove_walk.py --source pysol:1:1748 --positions 2e6 --memory 2G

Runs the walk alone (``search.prove.walk``, no best-first search first) from
the start of SOURCE for --positions new positions with a seen set of
--memory, three times, and prints the positions entered, the CPU seconds and
the positions a CPU-second of each run and their median. Then it measures
how soon the walk answers a stop: a thread sets the stop flag at --stop-after
seconds into a walk with a fresh seen set (the first touch of its pages is
what makes a large set slow at the start) and prints the seconds from the
flag to the walk's return. Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time

from spidersolve.interrupt import new_flag, run_kernel
from spidersolve.search import _prove as P
from spidersolve.search import prove as W
from spidersolve.search.memory import parse_size, size_text
from spidersolve.state import as_game


def _walk_once(game, memory: int, positions: int) -> tuple[int, float]:
    started = time.process_time()
    _verdict, _line, result, _bytes, _stopped = W.walk(game, memory, nodes=positions)
    return int(result[P.P_NODES]), time.process_time() - started


def _stop_latency(game, memory: int, after: float) -> tuple[float, int]:
    """Seconds from setting the stop flag to the walk's return, and positions by then."""
    flag = {}

    def timed_run_kernel(kernel, *args):
        stop = new_flag()

        def set_stop():
            time.sleep(after)
            flag["at"] = time.perf_counter()
            stop[0] = 1

        threading.Thread(target=set_stop, daemon=True).start()
        return kernel(*args, stop)

    W.run_kernel = timed_run_kernel
    try:
        _verdict, _line, result, _bytes, _stopped = W.walk(game, memory)
    finally:
        W.run_kernel = run_kernel
    return time.perf_counter() - flag.get("at", time.perf_counter()), int(result[P.P_NODES])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default="pysol:4:14934")
    parser.add_argument("--positions", default="4e6")
    parser.add_argument("--memory", default="1G")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--stop-memory", default="8G")
    parser.add_argument("--stop-after", type=float, default=1.0)
    args = parser.parse_args()
    game = as_game(args.source)
    memory = parse_size(args.memory)
    positions = int(float(args.positions))
    _walk_once(game, memory, 1000)  # load (or compile) the kernel first
    rates = []
    for run in range(args.runs):
        n, cpu = _walk_once(game, memory, positions)
        rates.append(n / cpu)
        print(f"run {run + 1}: {n:,} positions, {cpu:.2f} CPU-s, {n / cpu / 1e6:.3f} M/CPU-s")
    print(f"median: {statistics.median(rates) / 1e6:.3f} million positions a CPU-second")
    stop_memory = parse_size(args.stop_memory)
    latency, n = _stop_latency(game, stop_memory, args.stop_after)
    print(
        f"stop: the flag set {args.stop_after:.1f} s into a walk with {size_text(stop_memory)} "
        f"answered in {latency:.3f} s ({n:,} positions entered)"
    )


if __name__ == "__main__":
    main()
