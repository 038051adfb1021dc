"""Honest win rates (SPEC section 11) beside the full-knowledge verdicts of the same deals.

The honest player sees only what a player sees; it plays each deal to the
end with no undo (``batch --player honest``). The same deals are solved
with full knowledge at --full-nodes (``batch``) for comparison. Both sets
of rows go to --out (default results/bench-honest), so the run is
resumable: run the same command again after an interruption and only the
games not yet played are played.

    python benchmarks/honest_winrate.py                          # deals 0..99, 1, 2, 4 suits
    python benchmarks/honest_winrate.py --deals 0:200 --suits 4  # the floors' set
    python benchmarks/honest_winrate.py --deals 0:4 --suits 1 --samples 2   # a quick check

The anchors are for four suits without undo: a strong human, 149 of 306
games (48.7%); the best published program that does not peek, about 6%.
Seconds are per game on one core (one game per worker process).
"""

from __future__ import annotations

import sys

import click
from tqdm import tqdm

from spidersolve.cli.options import parse_deals, parse_suits
from spidersolve.errors import SpiderError
from spidersolve.search.honest import HONEST_NODES, HONEST_SAMPLES
from spidersolve.stats import load_results, make_backend, plan, run_batch
from spidersolve.stats.honest import honest_summary
from spidersolve.stats.winrates import wilson_interval

HUMAN = {"won": 149, "games": 306}  # 48.7%, four suits, no undo
PROGRAM = 0.06  # the best published Spider program that does not peek, four suits
FLOORS = {1: 0.90, 2: 0.60, 4: 0.40}  # issue 14, on SP1 deals 0..199, <= 60 s a game


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


@click.command()
@click.option("--suits", default="1,2,4", show_default=True)
@click.option("--deals", default="0:100", show_default=True)
@click.option("--samples", default=HONEST_SAMPLES, show_default=True, type=int)
@click.option(
    "--nodes",
    default=None,
    type=int,
    help="Nodes per sample search [default: by suits, search.honest.HONEST_NODES].",
)
@click.option("--seed", default=0, show_default=True, type=int)
@click.option(
    "--full-nodes",
    default=1_000_000,
    show_default=True,
    type=int,
    help="The full-knowledge solver's node limit on the same deals.",
)
@click.option("--out", default="results/bench-honest", show_default=True)
@click.option("--workers", default=None, type=int)
@click.option(
    "--mixed-versions",
    "mixed",
    is_flag=True,
    help="Add rows to an --out whose rows another version of the code made.",
)
@click.option("--quiet", is_flag=True)
def main(suits, deals, samples, nodes, seed, full_nodes, out, workers, mixed, quiet):
    suit_list, deal_list = parse_suits(suits), parse_deals(deals)
    known = plan("code", suit_list, ["classic"], deal_list, full_nodes)
    games = plan("code", suit_list, ["classic"], deal_list, nodes, "honest", samples, seed)
    bar = tqdm(
        total=len(known) + len(games), unit="deal", file=sys.stderr, disable=quiet, desc="benchmark"
    )
    meta = {
        "benchmark": "honest_winrate",
        "deals": deals,
        "samples": samples,
        "seed": seed,
        "nodes": nodes,
        "full_nodes": full_nodes,
    }
    for tasks in (known, games):  # the quick full-knowledge solves first
        run_batch(
            tasks,
            out,
            make_backend(workers),
            settings_meta=meta,
            on_start=lambda planned, skipped: bar.update(skipped),
            on_chunk=lambda rows: bar.update(len(rows)),
            mixed=mixed,
        )
    bar.close()
    frame = load_results(out)
    frame = frame[
        frame["deal"].isin(deal_list)
        & (frame["rules"] == "classic")
        & frame["suits"].isin(suit_list)
        & (
            ((frame["player"] == "solver") & (frame["node_limit"] == full_nodes))
            | (
                (frame["player"] == "honest")
                & (frame["samples"] == samples)
                & (frame["seed"] == seed)
            )
        )
    ]
    records = [
        r
        for r in honest_summary(frame)
        if nodes is None and r["node_limit"] == HONEST_NODES[r["suits"]] or r["node_limit"] == nodes
    ]
    click.echo(
        f"SP1 deals {deal_list[0]}..{deal_list[-1]}, classic, {samples} samples a "
        f"decision, seed {seed}; full knowledge at {full_nodes:,} nodes\n"
    )
    header = (
        f"{'suits':<6}{'games':>6}{'won':>6}  {'honest win':<11}{'95% interval':<17}"
        f"{'s mean':>7}{'s p95':>7}  {'full knowledge won':<20}floor"
    )
    click.echo(header)
    click.echo("-" * len(header))
    for r in records:
        floor = FLOORS.get(r["suits"])
        met = (
            ""
            if floor is None
            else (f">= {pct(floor)}: " + ("met" if r["win_rate"] >= floor else "not met"))
        )
        click.echo(
            f"{r['suits']:<6}{r['games']:>6}{r['won']:>6}  {pct(r['win_rate']):<11}"
            f"{pct(r['win_ci_low']) + ' - ' + pct(r['win_ci_high']):<17}"
            f"{r['seconds_mean']:>7.1f}{r['seconds_p95']:>7.1f}  "
            f"{str(r['known_won']) + ' of ' + str(r['known']):<20}{met}"
        )
    low, high = wilson_interval(HUMAN["won"], HUMAN["games"])
    click.echo(
        f"\nanchors, four suits, no undo: a strong human {HUMAN['won']} of "
        f"{HUMAN['games']} = {pct(HUMAN['won'] / HUMAN['games'])} "
        f"[{pct(low)} - {pct(high)}]; the best published program about {pct(PROGRAM)}"
    )
    for r in records:
        if r["won_known_lost_honestly"]:
            click.echo(
                f"{r['suits']} suits: won with full knowledge, lost honestly: "
                f"{len(r['won_known_lost_honestly'])} deals"
            )


if __name__ == "__main__":
    try:
        main()
    except SpiderError as err:  # a results folder of another version, say: one line
        click.echo(f"error: {err}", err=True)
        sys.exit(2)
