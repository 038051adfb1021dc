"""How strong and fast the solver is: the first K deals per suit count.

    python benchmarks/solve_power.py                 # K = 100, suits 1, 2, 4, 1,000,000 nodes
    python benchmarks/solve_power.py --deals 513     # the full run
    python benchmarks/solve_power.py --suits 1 --shorten     # lines as solve --shorten gives them
    python benchmarks/solve_power.py --suits 4 --deal-list 3,8 --weights plain,beam_40

Prints per suit count (Classic, SP1 deal numbers start..start+K-1): won / lost
/ unknown, win % within 167,000 and within the node limit (budgets nest, so
the smaller budget is read off the node counts of the same run), median and
95th-percentile nodes and seconds per deal, expanded nodes per second, the
median winning line length and the peak memory of a worker process. Deals
run in a pool of worker processes (--workers, default 2); seconds are each
deal's own search time. Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

HINT_BUDGET = 167_000


def _solve_one(job):
    suits, deal, nodes, weights, shorten = job
    from spidersolve.search import solve
    from spidersolve.state import GameCode

    result = solve(
        GameCode(suits, "classic", deal).position(), nodes=nodes, weights=weights, shorten=shorten
    )
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return suits, deal, result.verdict, result.nodes, result.seconds, result.moves, peak_mb


def _warm(_index=0):
    from spidersolve.search import solve

    solve("SP1-S1C-AAAAAAA", nodes=10)
    return os.getpid()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100, help="deals per suit count (K)")
    parser.add_argument("--start", type=int, default=0, help="first deal number")
    parser.add_argument("--suits", default="1,2,4")
    parser.add_argument("--nodes", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--weights",
        default=None,
        help="heuristics: preset names (heuristic.PRESETS), comma-separated, "
        "or a JSON list of names, {term: weight} objects or rows",
    )
    parser.add_argument("--rows", default=None, help="write one CSV row per deal here")
    parser.add_argument(
        "--shorten",
        action="store_true",
        help="shorten each winning line (solve --shorten); seconds include it",
    )
    parser.add_argument(
        "--deal-list",
        default=None,
        help="comma-separated deal numbers to run instead of --start/--deals",
    )
    args = parser.parse_args(argv)
    weights = None
    if args.weights:
        weights = (
            json.loads(args.weights)
            if args.weights.lstrip().startswith("[")
            else args.weights.split(",")
        )
    suit_counts = [int(s) for s in args.suits.split(",")]
    deals = (
        [int(d) for d in args.deal_list.split(",")]
        if args.deal_list
        else list(range(args.start, args.start + args.deals))
    )
    jobs = [(s, d, args.nodes, weights, args.shorten) for s in suit_counts for d in deals]
    started = time.time()
    with ProcessPoolExecutor(args.workers) as pool:
        list(pool.map(_warm, range(args.workers)))  # compile or load the cache first
        rows = list(pool.map(_solve_one, jobs, chunksize=1))
    wall = time.time() - started
    if args.rows:
        with open(args.rows, "w") as f:
            f.write("suits,deal,verdict,nodes,seconds,moves,peak_mb\n")
            for row in rows:
                f.write(",".join("" if x is None else str(x) for x in row) + "\n")
    from spidersolve.search.heuristic import TAIL_BEAMS, weight_rows
    from spidersolve.search.solver import (
        BACK_DEALS,
        BACK_NODES,
        BEAM_BACK_DEALS,
        FINISH_NODES,
        TAIL_AFTER,
        TAIL_NODES,
    )

    named = (
        f"{len(deals)} listed deals"
        if args.deal_list
        else f"deals {args.start}..{args.start + args.deals - 1}"
    )
    tail = ""
    if weights is None and args.nodes > TAIL_AFTER:  # the default's phases (solver._phases)
        beams = ", ".join(str(list(beam)) for beam in TAIL_BEAMS)
        tail = (
            f" for {TAIL_AFTER:,} nodes, then {BACK_NODES:,} for each of {BACK_DEALS} back"
            f" beams, {TAIL_NODES:,} for each tail beam and then {BACK_NODES:,} for each"
            f" back beam after it ({BEAM_BACK_DEALS} a beam): {beams},"
            f" {FINISH_NODES:,} for the finisher"
        )
    print(
        f"solve_power: {named}, node limit "
        f"{args.nodes:,}, weights {weights or 'default'} {weight_rows(weights).tolist()}{tail}, "
        f"{args.workers} workers, "
        f"{'lines shortened, ' if args.shorten else ''}"
        f"wall {wall:.0f} s"
    )
    header = (
        f"{'suits':>5} {'won':>5} {'lost':>5} {'unkn':>5} {'%<=167k':>8} {'%<=limit':>8} "
        f"{'med nodes':>10} {'p95 nodes':>10} {'med s':>7} {'p95 s':>7} {'nodes/s':>9} "
        f"{'med moves':>9} {'peak MB':>8}"
    )
    print(header)
    for suits in suit_counts:
        mine = [r for r in rows if r[0] == suits]
        n = len(mine)
        won = [r for r in mine if r[2] == "won"]
        lost = sum(r[2] == "lost" for r in mine)
        nodes = np.array([r[3] for r in mine])
        secs = np.array([r[4] for r in mine])
        within = sum(r[3] <= HINT_BUDGET for r in won)
        rate = nodes.sum() / max(secs.sum(), 1e-9)
        moves = np.median([r[5] for r in won]) if won else float("nan")
        peak = max(r[6] for r in mine)
        print(
            f"{suits:>5} {len(won):>5} {lost:>5} {n - len(won) - lost:>5} "
            f"{100 * within / n:>7.1f}% {100 * len(won) / n:>7.1f}% "
            f"{np.median(nodes):>10,.0f} {np.percentile(nodes, 95):>10,.0f} "
            f"{np.median(secs):>7.3f} {np.percentile(secs, 95):>7.3f} {rate:>9,.0f} "
            f"{moves:>9.1f} {peak:>8.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
