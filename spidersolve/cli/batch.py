"""``spidersolve batch``: solve a range of deals, one Parquet row per deal and setting."""

from __future__ import annotations

import sys

import click

from ..board import plural
from ..errors import SpiderError
from ..stats.batch import (make_backend, parse_deals, parse_rules, parse_suits, plan,
                           run_batch, settings)
from ..search.honest import HONEST_SAMPLES
from ..search.solver import DEFAULT_NODES, MAX_NODES
from .options import announce_compile


def node_count(text: str, option: str = "--nodes") -> int:
    """``1000000``, ``1_000_000`` or ``1e6``."""
    token = str(text).strip().replace("_", "").replace(",", "")
    try:
        value = float(token) if any(c in token for c in ".eE") else int(token)
    except ValueError:
        raise SpiderError(f"{option}: '{text}' is not a node count") from None
    if not 1 <= value <= MAX_NODES or value != int(value):
        raise SpiderError(f"{option}: '{text}' is not a whole node count from 1 to {MAX_NODES}")
    return int(value)


@click.command("batch")
@click.option("--suits", default="1", show_default=True, metavar="LIST",
              help="Suit counts, comma-separated: 1, 2, 4.")
@click.option("--rules", default="classic", show_default=True, metavar="LIST",
              help="Rule variants, comma-separated: classic, relaxed (1 suit is always classic).")
@click.option("--deals", required=True, metavar="RANGES",
              help="Deal numbers: A:B (A up to B-1), N, or a comma list of both. With "
                   "--source pysol, PySolFC game numbers.")
@click.option("--source", type=click.Choice(["code", "pysol"]), default="code",
              show_default=True, help="SP1 game codes, or PySolFC games (classic rules).")
@click.option("--nodes", default=None, metavar="N",
              help="Node limit per deal (positions expanded) [default: 1000000; with "
                   "--player honest, per sample search, by suits].")
@click.option("--player", type=click.Choice(["solver", "honest"]), default="solver",
              show_default=True,
              help="solver: prove each deal with full knowledge. honest: play each deal with "
                   "the honest player, who sees only what a player sees (SPEC section 11).")
@click.option("--samples", type=click.IntRange(1, 10_000), default=None, metavar="N",
              help="--player honest: samples of the hidden cards per decision [default: 8].")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="--player honest: the seed of the samples.")
@click.option("--out", default="results", show_default=True, type=click.Path(file_okay=False),
              help="Results directory (created; a rerun skips deals already done).")
@click.option("--workers", type=int, default=None, metavar="N",
              help="Worker processes [default: the number of CPUs]; 1 solves in this process.")
@click.option("--scheduler", envvar="DASK_SCHEDULER_ADDRESS", default=None, metavar="ADDRESS",
              help="Run on the Dask cluster at ADDRESS (env DASK_SCHEDULER_ADDRESS).")
@click.option("--chunk", type=int, default=None, metavar="N",
              help="Deals per chunk (one part file each) [default: from deals and workers].")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no summary.")
def batch(suits, rules, deals, source, nodes, player, samples, seed, out, workers, scheduler,
          chunk, quiet):
    """Solve every deal of a range under each setting; write one row per deal.

    Rows go to Parquet files in OUT (see docs/batch.md). Run the same command
    again to finish an interrupted run: deals already done are skipped.
    """
    suit_list, rule_list = parse_suits(suits), parse_rules(rules)
    deal_list = parse_deals(deals)
    if nodes is None:
        limit = DEFAULT_NODES if player == "solver" else None
    else:
        limit = node_count(nodes)
    if chunk is not None and chunk < 1:
        raise SpiderError(f"--chunk: at least 1 deal per chunk, not {chunk}")
    if player == "solver" and (samples is not None or seed):
        raise SpiderError("--samples and --seed are for --player honest")
    samples = HONEST_SAMPLES if samples is None else samples
    tasks = plan(source, suit_list, rule_list, deal_list, limit, player, samples, seed)
    backend = make_backend(workers, scheduler)
    meta = {"command": "spidersolve " + " ".join(sys.argv[1:]) if sys.argv else "",
            "source": source, "suits": suit_list, "rules": rule_list, "deals": deals,
            "settings": [f"{s.suits} {s.rules}" for s in settings(source, suit_list, rule_list)],
            "node_limit": limit, "player": player,
            "samples": samples if player == "honest" else None,
            "seed": seed if player == "honest" else None, "backend": backend.name,
            "workers": getattr(backend, "slots", 1) if not scheduler else None,
            "scheduler": scheduler}

    from tqdm import tqdm

    bar = None

    def on_start(planned, skipped):
        nonlocal bar
        bar = tqdm(total=planned, initial=skipped, unit="deal", file=sys.stderr,
                   disable=quiet, dynamic_ncols=True, desc="batch")
        bar.set_postfix(tally)

    tally = {"won": 0, "lost": 0, "unknown": 0}

    def on_chunk(rows):
        for row in rows:
            tally[row["verdict"]] += 1
        bar.set_postfix(tally)
        bar.update(len(rows))

    if not quiet:
        announce_compile()
    try:
        report = run_batch(tasks, out, backend, chunk=chunk, settings_meta=meta,
                           on_start=on_start, on_chunk=on_chunk)
    finally:
        if bar is not None:
            bar.close()
    if quiet:
        return
    if not report.solved:
        click.echo(f"{plural(report.planned, 'deal')} planned, all already done -> {report.out}")
    else:
        click.echo(f"{plural(report.planned, 'deal')} planned, {report.skipped} already done, "
                   f"{report.solved} solved now: won {report.won}, lost {report.lost}, "
                   f"unknown {report.unknown} in {report.seconds:.1f} s -> {report.out}")


COMMANDS = [batch]
