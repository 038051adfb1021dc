"""The hard tail: won, lost and unknown per result set, at the base limit and after escalation.

    python benchmarks/tail.py                       # the committed result sets
    python benchmarks/tail.py results/main DIR ...  # any result folders

Reads result folders written by ``spidersolve batch`` (and ``batch
--retry``), and prints, for each source, suit count and rules: the deals,
won / lost / unknown at the smallest node limit the set was run at with
the default search (1,000,000), the same settled over every rung it was
run at (each deal once, at the first rung that decided it: a node limit
and a search, ``batch --retry 1e6@kp300,1e7``), the
bounds of the win rate with their 95% intervals (won is a lower bound;
everything not proven lost an upper one), the CPU seconds of the rows in
all (a row's ``cpu_seconds``, or its wall-clock ``seconds`` if it was
written before that column), and the largest search with its memory by the guard's model
(``search/memory.py``: rows do not record a measured peak). Then the
default with its tail phase over every deal of a set made before it
(``TAIL_PAIRS``), and the published figures these sets stand beside.
Nothing is solved here.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from spidersolve.search.heuristic import MACRO_FROM
from spidersolve.search.memory import needed_bytes, size_text
from spidersolve.search.solver import DEFAULT_NODES, TAIL_AFTER
from spidersolve.stats.schema import DEFAULT_SEARCH
from spidersolve.stats.store import load_results
from spidersolve.stats.winrates import counts, rung_text, settled

HERE = Path(__file__).resolve().parent
DEFAULT_SETS = ["sp1", "pysol-s1", "pysol-s2", "pysol-s4", "pysol-s4-tail", "relaxed-s4"]
KEYS = ["source", "suits", "rules"]

# A set solved before a tail phase (the six rows alone, or the default before its beams took
# macro moves), and the sets that solved its deals again with the default's tail phase
# (docs/solver.md), and the node where that tail phase starts: a deal the six rows won
# within it is won by the default with the same line and nodes (checked on 38 such deals
# of 1001..32000, docs/benchmarks.md); every other deal must be among the deals solved
# again. EARLIER_TAIL_AFTER: where it started before the back beams (2026-12-06).
EARLIER_TAIL_AFTER = 500_000
TAIL_PAIRS = [
    ("pysol-s1", ["pysol-s1-tail"], "the tail phase", EARLIER_TAIL_AFTER),
    ("pysol-s2", ["pysol-s2-tail"], "the tail phase", EARLIER_TAIL_AFTER),
    (
        "pysol-s4",
        ["pysol-s4-tail", "pysol-s4-tail32k"],
        "the tail phase before macro moves (2026-12-05)",
        EARLIER_TAIL_AFTER,
    ),
    # The tail beams with macro moves (2026-12-06): pysol-s4-tail-macro holds the deals of
    # 1..1000 the six rows did not win within 500,000 nodes (as pysol-s4-tail did not: its
    # first 500,000 nodes are the six rows'), pysol-s4-tail32k-macro those of 1001..32000
    (
        "pysol-s4-tail",
        ["pysol-s4-tail-macro"],
        "the macro tail phase (2026-12-06)",
        EARLIER_TAIL_AFTER,
    ),
    (
        "pysol-s4",
        ["pysol-s4-tail-macro", "pysol-s4-tail32k-macro"],
        "the macro tail phase (2026-12-06)",
        EARLIER_TAIL_AFTER,
    ),
    # The finisher (2026-12-06): only a deal that reaches the second beam's mark (995,000
    # nodes) can change, so pysol-s4-tail-finish holds the 39 tail deals of 1..1000 again
    # and pysol-s4-tail32k-finish the deals of 1001..32000 the macro tail phase left
    # unknown or won after that mark; the later sets' rows stand for the earlier ones
    ("pysol-s4-tail", ["pysol-s4-tail-finish"], "the finisher (2026-12-06)", EARLIER_TAIL_AFTER),
    (
        "pysol-s4",
        [
            "pysol-s4-tail-macro",
            "pysol-s4-tail32k-macro",
            "pysol-s4-tail-finish",
            "pysol-s4-tail32k-finish",
        ],
        "the finisher (2026-12-06)",
        EARLIER_TAIL_AFTER,
    ),
    # The back beams (2026-12-06): the tail phase starts at TAIL_AFTER = 450,000 nodes and
    # every later phase changed, so pysol-s4-back holds the 41 deals of 1..1000 the six rows
    # did not win within it, and pysol-s4-back32k those of 1001..32000
    # (pysol-s4-back-deals.txt)
    ("pysol-s4-tail", ["pysol-s4-back"], "the back beams (2026-12-06)", TAIL_AFTER),
    ("pysol-s4", ["pysol-s4-back", "pysol-s4-back32k"], "the back beams (2026-12-06)", TAIL_AFTER),
    # Back beams after each tail beam too (2026-12-06): the same deals again
    # (pysol-s4-beamback, pysol-s4-beamback32k)
    ("pysol-s4-tail", ["pysol-s4-beamback"], "the tail beams' back beams (2026-12-06)", TAIL_AFTER),
    (
        "pysol-s4",
        ["pysol-s4-beamback", "pysol-s4-beamback32k"],
        "the tail beams' back beams (2026-12-06)",
        TAIL_AFTER,
    ),
    # One and two suits with today's default (2026-12-06): the deals the six rows did not
    # win within TAIL_AFTER (pysol-s1-back-deals.txt, pysol-s2-back-deals.txt)
    ("pysol-s1", ["pysol-s1-beamback"], "the tail beams' back beams (2026-12-06)", TAIL_AFTER),
    ("pysol-s2", ["pysol-s2-beamback"], "the tail beams' back beams (2026-12-06)", TAIL_AFTER),
    # The finisher from every search's latest position (2026-12-06, evening): only a deal
    # that reaches the finisher can change, so the *-finish2 sets hold the deals the sets
    # above left unknown or won after 995,000 nodes; their rows stand for the earlier ones
    (
        "pysol-s4-tail",
        ["pysol-s4-beamback", "pysol-s4-finish2"],
        "the finisher from every search (2026-12-06)",
        TAIL_AFTER,
    ),
    (
        "pysol-s4",
        ["pysol-s4-beamback", "pysol-s4-beamback32k", "pysol-s4-finish2", "pysol-s4-finish2-32k"],
        "the finisher from every search (2026-12-06)",
        TAIL_AFTER,
    ),
    (
        "pysol-s1",
        ["pysol-s1-beamback", "pysol-s1-finish2"],
        "the finisher from every search (2026-12-06)",
        TAIL_AFTER,
    ),
    (
        "pysol-s2",
        ["pysol-s2-beamback", "pysol-s2-finish2"],
        "the finisher from every search (2026-12-06)",
        TAIL_AFTER,
    ),
    # Macro moves in the six rows from node 50,000 (2026-12-07): the search is the same up
    # to that node, so the *-macro50k sets hold every deal the first sets did not win
    # within it (the *-macro50k-deals.txt files); their rows stand for every earlier one.
    # Relaxed rules have no macro moves: relaxed-s4 stands as it is.
    ("sp1", ["sp1-macro50k"], "macro moves from node 50,000 (2026-12-07)", MACRO_FROM),
    (
        "pysol-s4-tail",
        ["pysol-s4-macro50k"],
        "macro moves from node 50,000 (2026-12-07)",
        MACRO_FROM,
    ),
    (
        "pysol-s4",
        ["pysol-s4-macro50k", "pysol-s4-macro50k-32k"],
        "macro moves from node 50,000 (2026-12-07)",
        MACRO_FROM,
    ),
    ("pysol-s1", ["pysol-s1-macro50k"], "macro moves from node 50,000 (2026-12-07)", MACRO_FROM),
    ("pysol-s2", ["pysol-s2-macro50k"], "macro moves from node 50,000 (2026-12-07)", MACRO_FROM),
]

PUBLISHED = [
    "plspider: PySolFC's 32,000 four-suit deals, 31,998 winnable (about a minute each);"
    " 14934 'appears to be unwinnable'",
    "Solvitaire (Blake & Gent 2026): 10,000 random four-suit deals, dealing onto empty"
    " columns allowed: 9,731 won, 0 lost, 269 unknown, 810 CPU-s a deal",
    "the solver site: 97% of 513 one-suit deals within 1,000,000 positions",
    "KDE KPatience's beam: wins 10 of the 20 PySolFC four-suit deals 1..1000 that"
    " spidersolve leaves unknown at 1,000,000 nodes (SOLVERS.md)",
]


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def _line(label: str, c: dict) -> str:
    return (
        f"  {label:<22} won {c['won']:>6,}  lost {c['lost']:>3}  unknown {c['unknown']:>4}  "
        f"win >= {_pct(c['win_low'])} [{_pct(c['win_low_ci_low'])}-{_pct(c['win_low_ci_high'])}]  "
        f"win <= {_pct(c['win_high'])} [{_pct(c['win_high_ci_low'])}-{_pct(c['win_high_ci_high'])}]"
    )


def cpu_hours(rows) -> str:
    """The hours the rows took: CPU time where a row has it (``cpu_seconds``), else its
    wall-clock ``seconds`` (rows written before that column), which a busy machine
    inflates; says how many rows had only the wall clock."""
    cpu = rows["cpu_seconds"].astype("float64")
    hours = cpu.fillna(rows["seconds"].astype("float64")).sum() / 3600
    wall = int(cpu.isna().sum())
    if not wall:
        return f"{hours:.2f} CPU-hours in the rows"
    rows_text = "1 row" if wall == 1 else f"{wall:,} rows"
    return f"{hours:.2f} CPU-hours in the rows ({rows_text} timed by the wall clock)"


def report(frame, name: str) -> list[str]:
    """The lines for one result set (every group of source, suits and rules in it)."""
    lines = []
    records = {tuple(str(r[k]) for k in KEYS): r for r in settled(frame, by=KEYS)}
    for key, rows in frame.groupby(KEYS, sort=True):
        plain = rows[rows["search"] == DEFAULT_SEARCH]  # the base: the default search's
        base_limit = int(plain["node_limit"].min())
        base = plain[plain["node_limit"] == base_limit]
        c = counts(base["verdict"])
        deals = rows[["source", "code"]].drop_duplicates().shape[0]
        largest = int(rows["nodes"].max())
        lines.append(
            f"{name}: {key[0]}, {key[1]} suit(s), {key[2]}: {deals:,} deals, "
            f"{cpu_hours(rows)}, largest search "
            f"{largest:,} nodes (about {size_text(needed_bytes(largest))} by the model)"
        )
        lines.append(_line(f"at {base_limit:,} nodes", c))
        record = records.get(tuple(str(k) for k in key))
        if record is not None:
            at = ", ".join(
                f"{a['won']:,} won / {a['lost']} lost / {a['unknown']} unknown at {rung_text(a)}"
                for a in record["at"]
            )
            lines.append(_line("settled", record))
            lines.append(f"  {'':<22} ({at})")
        else:
            lines.append(f"  {'settled':<22} not escalated (no second node limit)")
        decided = set(rows[rows["verdict"] != "unknown"]["code"])
        left = sorted(set(rows["code"]) - decided, key=lambda code: (len(code), code))
        if left and len(left) <= 12:
            lines.append(f"  {'still unknown':<22} {' '.join(left)}")
        elif left:
            lines.append(f"  {'still unknown':<22} {len(left)} deals")
    return lines


def _default_rows(frame):
    """The rows of the default search at the default node limit, by code."""
    rows = frame[(frame["search"] == DEFAULT_SEARCH) & (frame["node_limit"] == DEFAULT_NODES)]
    return rows.drop_duplicates("code", keep="last").set_index("code")


def with_tail(six, tails, after: int = TAIL_AFTER) -> tuple[dict, object, int]:
    """The default with its tail phase over every deal of ``six`` (rows solved before the
    phase): (counts, the rows of ``tails`` that solved its deals again, the number of
    deals that should have been solved again and were not).

    A deal of ``tails`` takes its verdict from there; a deal ``six`` won within
    ``after`` nodes (where that tail phase starts) keeps it; any other deal is missing,
    and left out of the counts.
    """
    before, again = _default_rows(six), _default_rows(tails)
    verdicts = []
    missing = 0
    for code, row in before.iterrows():
        if code in again.index:
            verdicts.append(again.at[code, "verdict"])
        elif row["verdict"] == "won" and row["nodes"] <= after:
            verdicts.append("won")
        else:
            missing += 1
    solved = again[again.index.isin(before.index)]
    return counts(pd.Series(verdicts, dtype="object")), solved, missing


def _results(folder: Path):
    """The rows of a result folder, or None if it holds none yet (a batch not begun);
    a damaged folder raises, as ``load_results`` does."""
    if not folder.is_dir():
        return None
    if not (folder / "results.parquet").exists() and not any(folder.glob("part-*.parquet")):
        return None
    return load_results(folder)


def tail_lines(root: Path) -> list[str]:
    """The lines of ``TAIL_PAIRS`` whose first set and some later set hold results under
    ``root`` (a later set not begun yet leaves its deals out, counted as not solved again)."""
    lines = []
    for six_name, tail_names, label, after in TAIL_PAIRS:
        folders = [root / six_name] + [root / t for t in tail_names]
        loaded = [_results(f) for f in folders]
        if loaded[0] is None or all(frame is None for frame in loaded[1:]):
            continue
        six = loaded[0]
        tails = pd.concat([f for f in loaded[1:] if f is not None], ignore_index=True)
        tails = tails[tails["player"] == "solver"]
        for key, rows in six[six["player"] == "solver"].groupby(KEYS, sort=True):
            c, again, missing = with_tail(rows, tails, after)
            lines.append(
                f"{six_name} with {label}: {key[0]}, {key[1]} suit(s), {key[2]}: "
                f"{c['deals']:,} deals ({len(again):,} solved again in {', '.join(tail_names)}, "
                f"{cpu_hours(again)}; the rest won by the six rows within {after:,} "
                "nodes" + (f"; {missing:,} not solved again yet, left out)" if missing else ")")
            )
            lines.append(_line(f"at {DEFAULT_NODES:,} nodes", c))
            if missing:
                lines.append(
                    f"  {'':<22} (partial, not a win rate of the set: it leaves out "
                    f"{missing:,} of its hardest deals)"
                )
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", help="result folders (default: the committed sets)")
    args = parser.parse_args(argv)
    folders = [Path(f) for f in args.folders] or [HERE / "results" / s for s in DEFAULT_SETS]
    shown = 0
    for folder in folders:
        if not folder.is_dir():
            print(f"{folder}: no such result folder", file=sys.stderr)
            continue
        frame = load_results(folder)
        frame = frame[frame["player"] == "solver"] if "player" in frame else frame
        if frame.empty:
            print(f"{folder}: no solver rows", file=sys.stderr)
            continue
        print("\n".join(report(frame, folder.name)))
        shown += 1
    if not args.folders:
        combined = tail_lines(HERE / "results")
        if combined:
            print("\n" + "\n".join(combined))
    print("\nPublished figures beside them:")
    for text in PUBLISHED:
        print(f"  - {text}")
    return 0 if shown else 2


if __name__ == "__main__":
    sys.exit(main())
