"""perft speed of the numba kernels against the pure-Python reference rules.

Usage::

    python benchmarks/perft.py                  # both engines at depth 6
    python benchmarks/perft.py --depth 4 --reference-depth 3   # a quick run

For each fixed code it counts perft with both engines and prints leaves per
second and their ratio at equal depth. Both engines count the last level
without playing it (the number of legal actions), so the reference's depth 6
takes only seconds; ``--reference-depth`` runs it shallower if need be, and
the kernel is then also timed at that depth so the ratio stays like for
like. The depths used are printed on every row. Leaves per second is leaves
counted / wall seconds of one perft call (kernel calls shorter than 0.5 s
are repeated and averaged).

It then times starting up the kernels in fresh processes: once with an
empty NUMBA_CACHE_DIR (the one-time compile) and once more with that cache
warm (a second start), each from process start to the first kernel result:
``kernel.perft`` of depth 3 on the first code, and separately a 100-node
``solve`` (which also compiles the search kernels).

Targets: kernel >= 100x reference; cached start < 1 s.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

CODES = ("SP1-S1C-AAAAAAA", "SP1-S2C-AAAAAAD", "SP1-S4C-AAAAABA")
KERNEL_TARGET = 100.0
START_TARGET = 1.0

# Run in a fresh interpreter: prints seconds to import and to the first result.
START_SCRIPTS = {
    "perft": """
import time
t0 = time.perf_counter()
from spidersolve.state import GameCode
from spidersolve.state.kernel import perft
t1 = time.perf_counter()
leaves = perft(GameCode.parse({code!r}).position(), 3)
t2 = time.perf_counter()
print(t1 - t0, t2 - t1, leaves)
""",
    "solve": """
import time
t0 = time.perf_counter()
from spidersolve.search import solve
t1 = time.perf_counter()
result = solve({code!r}, nodes=100)
t2 = time.perf_counter()
print(t1 - t0, t2 - t1, result.verdict)
""",
}


def timed(function, *args, min_seconds: float = 0.0):
    """(result, seconds per call): repeated until ``min_seconds`` have passed."""
    calls = 0
    start = time.perf_counter()
    while True:
        result = function(*args)
        calls += 1
        seconds = time.perf_counter() - start
        if seconds >= min_seconds:
            return result, seconds / calls


def measure_start(script: str, code: str, cache_dir: str) -> tuple[float, float, float]:
    """(wall seconds from process start to exit, import seconds, first-call seconds)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    env.pop("NUMBA_BOUNDSCHECK", None)
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", START_SCRIPTS[script].format(code=code)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - start
    imported, first, _leaves = proc.stdout.split()
    return wall, float(imported), float(first)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=6, help="kernel perft depth (default 6)")
    parser.add_argument(
        "--reference-depth",
        type=int,
        default=None,
        help="reference perft depth (default: the same as --depth)",
    )
    parser.add_argument(
        "--no-start", action="store_true", help="skip the compile / cached-start timings"
    )
    args = parser.parse_args(argv)
    ref_depth = args.depth if args.reference_depth is None else args.reference_depth

    # Import (and warm) the kernels before timing anything: compile time is measured apart.
    from spidersolve.state import GameCode
    from spidersolve.state.kernel import perft as kernel_perft
    from spidersolve.state.perft import perft as reference_perft

    kernel_perft(GameCode.parse(CODES[0]).position(), 2)

    print(f"perft: kernel depth {args.depth}, reference depth {ref_depth}")
    print(
        f"{'code':<17} {'engine':<10} {'depth':>5} {'leaves':>12} {'seconds':>9} {'leaves/s':>13}"
    )
    ratios = []
    mismatch = False
    for code in CODES:
        pos = GameCode.parse(code).position()
        rates, counts = {}, {}
        runs = [("kernel", kernel_perft, args.depth), ("reference", reference_perft, ref_depth)]
        if ref_depth != args.depth:  # the kernel at the reference's depth too: like for like
            runs.insert(1, ("kernel", kernel_perft, ref_depth))
        for engine, function, depth in runs:
            # Short kernel runs are repeated for at least 0.5 s so the clock can see them.
            leaves, seconds = timed(
                function, pos, depth, min_seconds=0.5 if engine == "kernel" else 0.0
            )
            rates[engine, depth] = leaves / seconds
            counts.setdefault(depth, set()).add(leaves)
            print(
                f"{code:<17} {engine:<10} {depth:>5} {leaves:>12,} {seconds:>9.4f} "
                f"{rates[engine, depth]:>13,.0f}"
            )
        if len(counts[ref_depth]) != 1:
            print(f"{code:<17} MISMATCH: the engines count {sorted(counts[ref_depth])}")
            mismatch = True
        same = rates["kernel", ref_depth] / rates["reference", ref_depth]
        deep = rates["kernel", args.depth] / rates["reference", ref_depth]
        ratios.append(same)
        print(
            f"{code:<17} kernel/reference: {same:,.0f}x at depth {ref_depth}"
            + (
                f", {deep:,.0f}x kernel depth {args.depth} vs reference depth {ref_depth}"
                if ref_depth != args.depth
                else ""
            )
        )
    worst = min(ratios)
    print(
        f"kernel/reference leaves per second at equal depth {ref_depth}, worst code: "
        f"{worst:,.0f}x (target >= {KERNEL_TARGET:.0f}x: "
        f"{'met' if worst >= KERNEL_TARGET else 'NOT met'})"
    )

    if not args.no_start:
        for script, call in (("perft", "kernel.perft depth 3"), ("solve", "solve 100 nodes")):
            with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache_dir:
                cold = measure_start(script, CODES[0], cache_dir)
                warm = measure_start(script, CODES[0], cache_dir)
            for name, (wall, imported, first) in (
                (f"{script}: compile (empty cache)", cold),
                (f"{script}: cached start", warm),
            ):
                print(
                    f"{name:<29} {wall:6.2f} s process start to exit "
                    f"(import {imported:.2f} s, first {call} {first:.2f} s)"
                )
            print(
                f"{script}: cached start target < {START_TARGET:.0f} s: "
                f"{'met' if warm[0] < START_TARGET else 'NOT met'}"
            )
    return 1 if mismatch else 0


if __name__ == "__main__":
    sys.exit(main())
