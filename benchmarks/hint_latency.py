"""Wall-clock time of a whole ``spidersolve hint`` command from the shell.

    python benchmarks/hint_latency.py               # 10 one-suit deals, warm cache
    python benchmarks/hint_latency.py --suits 2 --deals 5
    python benchmarks/hint_latency.py --suits 4 --deals 10 --honest   # honest hints

Runs the installed ``spidersolve`` console script once to warm numba's cache
(the first run after installation compiles and says so), then times the
command on each deal: process start, import, search within the hint budget,
line shortening and replay check, output. Prints each time, the median and
the largest, and the hint's status. Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from _commands import sp1_codes, spidersolve_exe


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suits", type=int, default=1)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument(
        "--honest",
        action="store_true",
        help="Honest hints (hint --honest): from what a player sees.",
    )
    args = parser.parse_args(argv)
    extra = ["--honest"] if args.honest else []
    exe = spidersolve_exe()
    codes = sp1_codes(exe, args.suits, args.deals)
    started = time.perf_counter()
    warm = subprocess.run([exe, "hint", codes[0], *extra], capture_output=True, text=True)
    print(
        f"warm-up run: {time.perf_counter() - started:.2f} s"
        + (" (compiled: " + warm.stderr.strip() + ")" if warm.stderr.strip() else "")
    )
    times = []
    for code in codes:
        started = time.perf_counter()
        out = subprocess.run(
            [exe, "hint", code, "--json", *extra], capture_output=True, text=True, check=True
        )
        seconds = time.perf_counter() - started
        data = json.loads(out.stdout)
        times.append(seconds)
        if args.honest:
            print(
                f"{code}  {seconds:6.3f} s  {data['status']:<9} {data['action']:<8} "
                f"nodes {data['nodes']:>7,}  won {data['wins']} of {data['scored']} samples"
            )
        else:
            print(
                f"{code}  {seconds:6.3f} s  {data['status']:<9} {data['action']:<8} "
                f"nodes {data['nodes']:>7,}  line {data['line_length']}"
            )
    print(
        f"{'honest ' if args.honest else ''}hint latency, {len(times)} deals with {args.suits} suit(s): median "
        f"{statistics.median(times):.3f} s, max {max(times):.3f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
