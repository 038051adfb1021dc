"""A whole ``spidersolve solve`` process per deal, beside KPatience's whole process.

    python benchmarks/solve_process.py                     # four suits, SP1 deals 0..99
    python benchmarks/solve_process.py --suits 1 --deals 50
    python benchmarks/solve_process.py --deals 20 --engines native

Each deal is solved by a fresh ``spidersolve solve CODE --json`` process
(start, imports, search at the default 1,000,000 nodes, replay check,
output), once with the compiled search kernel (``search/native.py``, what
``make setup`` builds) and once with numba's kernels (``SPIDERSOLVE_NATIVE=0``,
what a solve did before). Prints, per engine: the median, mean and 90th
percentile of the process time, the median of the search's own clock, the
median of the rest (start-up and output), the peak resident memory of the
largest process, and the ratio of the median to KPatience's whole process on
the same deals (``SOLVERS.md``: 0.40 s for four suits 0..99, 1.29 s for one
suit 0..49, 0.71 s for two suits 0..49; the figures of another run, on
this kind of machine). Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from _commands import sp1_codes, spidersolve_exe

# KPatience's median whole process per deal (SOLVERS.md), SP1 deals 0..99 / 0..49
KPATIENCE = {4: 0.40, 1: 1.29, 2: 0.71}
ENGINES = {"native": {}, "numba": {"SPIDERSOLVE_NATIVE": "0"}}


def _time_one(exe: str, code: str, env: dict) -> tuple[float, dict, int]:
    """(seconds, the --json output, peak resident KB) of one whole process."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [exe, "solve", code, "--json"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
    )
    out = proc.stdout.read()
    _pid, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"spidersolve solve {code} exited {proc.returncode}")
    return seconds, json.loads(out), usage.ru_maxrss


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suits", type=int, default=4, choices=(1, 2, 4))
    parser.add_argument("--deals", type=int, default=100, help="SP1 deals 0..N-1")
    parser.add_argument("--engines", default="native,numba", help="native, numba or both")
    args = parser.parse_args(argv)
    exe = spidersolve_exe()
    codes = sp1_codes(exe, args.suits, args.deals)
    engines = [name.strip() for name in args.engines.split(",")]
    for name in engines:  # warm both: numba's cache, the extension's first load
        subprocess.run(
            [exe, "solve", codes[0]], capture_output=True, env=os.environ | ENGINES[name]
        )
    kpat = KPATIENCE[args.suits]
    print(f"{len(codes)} deals, {args.suits} suit(s), one process each, 1,000,000 nodes")
    medians = {}
    for name in engines:
        env = os.environ | ENGINES[name]
        times, search, peak, won = [], [], 0, 0
        for code in codes:
            seconds, data, peak_kb = _time_one(exe, code, env)
            times.append(seconds)
            search.append(data["seconds"])
            peak = max(peak, peak_kb)
            won += data["verdict"] == "won"
        rest = [t - s for t, s in zip(times, search, strict=True)]
        median = statistics.median(times)
        medians[name] = median
        p90 = statistics.quantiles(times, n=10)[-1] if len(times) > 1 else times[0]
        print(
            f"{name:<7} won {won}/{len(codes)}  process median {median:.3f} s  "
            f"mean {statistics.fmean(times):.3f} s  p90 {p90:.3f} s  "
            f"search median {statistics.median(search):.3f} s  "
            f"start-up and output median {statistics.median(rest):.3f} s  "
            f"peak {peak / 1024:.0f} MB  median/KPatience {median / kpat:.2f}"
        )
    if len(medians) == 2:
        print(f"numba/native medians: {medians['numba'] / medians['native']:.2f}x")
    print(f"KPatience's whole process, same deals (SOLVERS.md): median {kpat:.2f} s")


if __name__ == "__main__":
    main()
