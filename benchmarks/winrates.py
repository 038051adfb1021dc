"""Win rates beside the anchor site's figures.

The anchor: 97% of 513 one-suit deals won within a million positions, and
87 of 100 within 167,000. The full benchmark takes hours:

    python benchmarks/winrates.py                     # 513 deals x 1, 2, 4 suits at 1,000,000

and a quick check that it works:

    python benchmarks/winrates.py --deals 0:6 --nodes 5000 --budget 1670 --first 4

One batch run at --nodes (default 1,000,000) over --deals (default 0:513).
The 167,000 figure is NOT a second run: it is computed from the nested
budgets of the same run, over its first --first deals (default 100). The
solver's search order does not depend on the limit, so a deal won with at
most 167,000 nodes in the big run is exactly a deal won by a run at 167,000
(and the rest are not). The anchor's 100-deal figure is taken to be for one
suit, like its 513-deal figure.

The results go to --out (default results/bench-winrates, resumable: run the
same command again after an interruption).
"""

from __future__ import annotations

import sys

import click
from tqdm import tqdm

from spidersolve.cli.options import parse_deals, parse_suits
from spidersolve.errors import SpiderError
from spidersolve.stats import load_results, make_backend, plan, render, run_batch
from spidersolve.stats.winrates import counts, verdicts_within

ANCHOR_FULL = {"suits": 1, "deals": 513, "nodes": 1_000_000, "rate": 0.97}
ANCHOR_SMALL = {"suits": 1, "deals": 100, "nodes": 167_000, "won": 87}


def pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def line(label: str, anchor: str, figures: dict) -> str:
    ours = (
        f"{figures['won']}/{figures['deals']} = {pct(figures['win_low'])} "
        f"[{pct(figures['win_low_ci_low'])} - {pct(figures['win_low_ci_high'])}], "
        f"lost {figures['lost']}, unknown {figures['unknown']}"
    )
    return f"{label:<34} {anchor:<14} {ours}"


@click.command()
@click.option("--suits", default="1,2,4", show_default=True)
@click.option("--deals", default="0:513", show_default=True)
@click.option("--nodes", default=1_000_000, show_default=True, type=int)
@click.option(
    "--budget",
    default=167_000,
    show_default=True,
    type=int,
    help="The smaller budget, computed from the same run.",
)
@click.option(
    "--first",
    default=100,
    show_default=True,
    type=int,
    help="How many of the first deals the smaller budget is measured on.",
)
@click.option("--out", default="results/bench-winrates", show_default=True)
@click.option("--workers", default=None, type=int)
@click.option(
    "--mixed-versions",
    "mixed",
    is_flag=True,
    help="Add rows to an --out whose rows another version of the code made.",
)
@click.option("--quiet", is_flag=True)
def main(suits, deals, nodes, budget, first, out, workers, mixed, quiet):
    suit_list, deal_list = parse_suits(suits), parse_deals(deals)
    if budget > nodes:
        raise click.BadParameter("--budget must be at most --nodes (it is nested in the run)")
    tasks = plan("code", suit_list, ["classic"], deal_list, nodes)
    bar = tqdm(total=len(tasks), unit="deal", file=sys.stderr, disable=quiet, desc="benchmark")

    def on_start(planned, skipped):
        bar.update(skipped)

    report = run_batch(
        tasks,
        out,
        make_backend(workers),
        settings_meta={
            "benchmark": "winrates",
            "deals": deals,
            "node_limit": nodes,
            "budget": budget,
            "first": first,
        },
        on_start=on_start,
        on_chunk=lambda rows: bar.update(len(rows)),
        mixed=mixed,
    )
    bar.close()
    frame = load_results(out)
    frame = frame[
        frame["deal"].isin(deal_list)
        & (frame["node_limit"] == nodes)
        & (frame["rules"] == "classic")
        & frame["suits"].isin(suit_list)
    ]
    click.echo(
        f"{report.planned} deals, {report.solved} solved in this run "
        f"({report.seconds:.0f} s), {report.skipped} already in {out}\n"
    )
    click.echo(render(frame, ["suits"], [budget]))
    click.echo("")
    first_deals = deal_list[:first]
    click.echo(f"{'':<34} {'anchor':<14} spidersolve (won/N [Wilson 95%])")
    for s in suit_list:
        rows = frame[frame["suits"] == s]
        full = counts(rows["verdict"])
        anchor = (
            f"{100 * ANCHOR_FULL['rate']:.0f}% of {ANCHOR_FULL['deals']}"
            if s == ANCHOR_FULL["suits"]
            else "-"
        )
        click.echo(
            line(
                f"{s} suit{'s' if s > 1 else ''}, {len(rows)} deals, {nodes:,} nodes", anchor, full
            )
        )
        small_rows = rows[rows["deal"].isin(first_deals)]
        small = counts(verdicts_within(small_rows, budget))
        anchor = (
            f"{ANCHOR_SMALL['won']} of {ANCHOR_SMALL['deals']}"
            if s == ANCHOR_SMALL["suits"]
            else "-"
        )
        click.echo(
            line(
                f"{s} suit{'s' if s > 1 else ''}, {len(small_rows)} deals, {budget:,} nodes*",
                anchor,
                small,
            )
        )
    click.echo(
        f"\n* from the node counts of the same run (nested budgets), deals "
        f"{first_deals[0]}..{first_deals[-1]}"
    )
    if (len(deal_list), nodes, budget, first) != (513, 1_000_000, 167_000, 100):
        click.echo("(a smaller run than the anchor's: the figures are not comparable)")


if __name__ == "__main__":
    try:
        main()
    except SpiderError as err:  # a results folder of another version, say: one line
        click.echo(f"error: {err}", err=True)
        sys.exit(2)
