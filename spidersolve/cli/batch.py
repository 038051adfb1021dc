"""``spidersolve batch``: solve a range of deals, one Parquet row per deal and setting."""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

import click

from ..board import plural
from ..errors import SpiderError, comma_items, shown
from ..search.honest import HONEST_NODES, HONEST_SAMPLES, KNOWN_NODES
from ..search.memory import (
    NODE_COST_TEXT,
    available_bytes,
    check_memory,
    needed_bytes,
    size_text,
    workers_that_fit,
)
from ..search.solver import DEFAULT_NODES, solve
from ..stats.backends import make_backend
from ..stats.batch import retry_plan, run_batch
from ..stats.plan import Rung, plan, retry_budgets, settings
from ..stats.schema import DEFAULT_SEARCH
from .options import (
    OutputPath,
    Whole,
    announce_compile,
    given_options,
    memory_option,
    node_count,
    parse_deals,
    parse_rules,
    parse_suits,
    search_memory_option,
)


def worker_count(
    workers: int | None,
    limit: int,
    memory: int | None,
    option: str = "--nodes",
    search_memory: int | None = None,
) -> int:
    """``--workers``, capped at the cores and at the memory the searches may need.

    A cap is said on stderr; a limit that does not fit even one search is an
    error that names ``option`` (where the limit was given). ``search_memory``
    (``--search-memory``) caps what each search holds, whatever its limit.
    """
    cores = os.cpu_count() or 1
    asked = cores if workers is None else workers
    if asked < 1:
        raise SpiderError(f"--workers: at least 1 worker, not {asked}")
    # one search must fit
    check_memory(limit, memory, option=option, search_memory=search_memory, cap_option=True)
    fit = min(asked, cores)
    if fit < asked:
        click.echo(f"note: --workers {asked} capped at {fit}, the number of cores", err=True)
    by_memory = workers_that_fit(limit, fit, memory, search_memory)
    if by_memory < fit:
        cap = memory if memory is not None else available_bytes()
        what = "the --memory cap" if memory is not None else "available"
        click.echo(
            f"note: --workers {fit} capped at {by_memory}: a search of {limit} nodes "
            f"may need {size_text(needed_bytes(limit, search_memory=search_memory))}, "
            f"{size_text(cap)} {what}",
            err=True,
        )
    return by_memory


@click.command("batch")
@click.option(
    "--suits",
    default="1",
    show_default=True,
    metavar="LIST",
    help="Suit counts, comma-separated: 1, 2, 4.",
)
@click.option(
    "--rules",
    default="classic",
    show_default=True,
    metavar="LIST",
    help="Rule variants, comma-separated: classic, relaxed (1 suit is always classic).",
)
@click.option(
    "--deals",
    required=True,
    metavar="RANGES",
    help="Deal numbers: A:B (A up to B-1), N, or a comma list of both. With "
    "--source pysol, PySolFC game numbers.",
)
@click.option(
    "--source",
    type=click.Choice(["code", "pysol"], case_sensitive=False),
    default="code",
    show_default=True,
    help="SP1 game codes, or PySolFC games (classic rules).",
)
@click.option(
    "--nodes",
    default=None,
    metavar="N",
    help=f"Node limit per deal (positions expanded; 1e6 works; {NODE_COST_TEXT}) "
    "[default: 1000000; with --player honest, per sample search, by suits].",
)
@click.option(
    "--retry",
    default=None,
    metavar="LIST",
    help="Solve again at this larger node limit the deals that OUT holds as "
    "unknown at --nodes, and only those; a comma list (1e7,1e8) is a ladder, "
    "each limit retrying what the one before left unknown. N@NAME runs the "
    "search configuration NAME at N nodes (1e6@kp300,1e7: docs/batch.md).",
)
@click.option(
    "--player",
    type=click.Choice(["solver", "honest"], case_sensitive=False),
    default="solver",
    show_default=True,
    help="solver: prove each deal with full knowledge. honest: play each deal with "
    "the honest player, who sees only what a player sees (SPEC section 11).",
)
@click.option(
    "--samples",
    type=Whole(1, 10_000),
    default=None,
    metavar="N",
    help="--player honest: samples of the hidden cards per decision [default: 8].",
)
@click.option(
    "--seed",
    type=Whole(0, 2**63 - 1),
    default=0,
    show_default=True,
    help="--player honest: the seed of the samples (up to 2**63 - 1: the results keep it).",
)
@click.option(
    "--out",
    default="results",
    show_default=True,
    type=OutputPath(folder=True, results=True),
    help="Results directory (created; a rerun skips deals already done).",
)
@click.option(
    "--workers",
    type=Whole(min=1, max=10**6),
    default=None,
    metavar="N",
    help="Worker processes [default: the number of CPUs]; 1 solves in this process. "
    "Capped at the number of CPUs and at what fits in memory (said on stderr).",
)
@click.option(
    "--scheduler",
    envvar="DASK_SCHEDULER_ADDRESS",
    default=None,
    metavar="ADDRESS",
    help="Run on the Dask cluster at ADDRESS (env DASK_SCHEDULER_ADDRESS).",
)
@click.option(
    "--chunk",
    type=Whole(),
    default=None,
    metavar="N",
    help="Deals per chunk (one part file each) [default: from deals and workers].",
)
@memory_option
@search_memory_option
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Draw a progress bar on stderr [default: only when stderr is a terminal].",
)
@click.option(
    "--repair",
    is_flag=True,
    help="First set aside (rename to NAME.damaged) every results file in OUT that "
    "fails its checks, then solve the deals it held again.",
)
@click.option(
    "--mixed-versions",
    "mixed",
    is_flag=True,
    help="Add rows to an OUT whose rows another version of the code made "
    "(without it, an error: its win rates would mix two searches).",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no summary.")
def batch(
    suits,
    rules,
    deals,
    source,
    nodes,
    retry,
    player,
    samples,
    seed,
    out,
    workers,
    scheduler,
    chunk,
    memory,
    search_memory,
    progress,
    repair,
    mixed,
    quiet,
):
    """Solve every deal of a range under each setting; write one row per deal.

    Rows go to Parquet files in OUT (see docs/batch.md). Run the same command
    again to finish an interrupted run: deals already done are skipped. With
    --retry, the deals left unknown at --nodes are solved again at each larger
    limit in turn (escalation); deals won or lost are never solved again.
    """
    suit_list, rule_list = parse_suits(suits), parse_rules(rules)
    deal_list = parse_deals(deals)
    if nodes is None:
        limit = DEFAULT_NODES if player == "solver" else None
    else:
        limit = node_count(nodes)
    if chunk is not None and chunk < 1:
        raise SpiderError(f"--chunk: at least 1 deal per chunk, not {chunk}")
    honest_only = given_options("samples", "seed")  # even --seed 0, as hint and autoplay
    if player == "solver" and honest_only:
        raise SpiderError(f"{' and '.join(honest_only)}: for --player honest")
    samples = HONEST_SAMPLES if samples is None else samples
    if search_memory is not None and player != "solver":
        raise SpiderError("--search-memory is for --player solver")
    rungs = []
    if retry is not None:
        if player != "solver":
            raise SpiderError("--retry is for --player solver")
        if repair:
            raise SpiderError("--retry and --repair: repair first, without --retry")
        try:
            items = comma_items(retry)
        except SpiderError:
            raise SpiderError(
                f"--retry: an empty rung in '{shown(retry)}' (rungs are N or N@NAME, "
                "joined by commas)"
            ) from None
        rungs = retry_budgets(limit, [_rung(t) for t in items])
    tasks = plan(source, suit_list, rule_list, deal_list, limit, player, samples, seed)
    if rungs:
        missing = retry_plan(out, tasks, rungs[0]).missing
        if len(missing) == len(tasks):
            raise SpiderError(
                f"--retry: none of the {plural(len(tasks), 'deal')} planned "
                f"has a row at {limit:,} nodes in '{out}': run without "
                "--retry first"
            )
        if missing:
            click.echo(
                f"note: {plural(len(missing), 'deal')} "
                f"{'has' if len(missing) == 1 else 'have'} no row at {limit:,} nodes "
                "(not solved): run without --retry first",
                err=True,
            )
    # the largest search one task may run: the solver's limit (the largest of
    # --retry); the honest player's limit per sample search (by suits when not
    # given), or KNOWN_NODES once no card is hidden (search/honest.py)
    search_nodes = max([limit, *(r.nodes for r in rungs)]) if player == "solver" else limit
    if player == "honest":
        search_nodes = max(limit or max(HONEST_NODES[s] for s in suit_list), KNOWN_NODES)
    option = "--retry" if rungs else "--nodes"
    if scheduler is not None and not scheduler.strip():
        from_env = (
            click.get_current_context().get_parameter_source("scheduler")
            == click.core.ParameterSource.ENVIRONMENT
        )
        named = "DASK_SCHEDULER_ADDRESS (for --scheduler)" if from_env else "--scheduler"
        raise SpiderError(f"{named}: an empty address")
    if scheduler:
        if memory is not None:  # the cluster's workers: only a cap given here
            check_memory(search_nodes, memory, option=option, search_memory=search_memory)
    else:
        workers = worker_count(workers, search_nodes, memory, option, search_memory)
    backend = make_backend(workers, scheduler)
    meta = _run_meta(
        source, suit_list, rule_list, deals, limit, player, samples, seed, backend, scheduler
    )
    if search_memory is not None:  # runs without it record their settings as before
        meta["search_memory"] = search_memory
    solver = None if search_memory is None else functools.partial(solve, memory=search_memory)

    if progress is None:
        progress = sys.stderr.isatty()  # a bar in a log file is noise
    draw = progress and not quiet
    if not quiet:
        announce_compile()
    if not rungs:
        report = _run(tasks, out, backend, chunk, meta, repair, draw, "batch", solver, mixed)
        if not quiet:
            click.echo(_summary(report))
        return
    below = Rung(limit)
    for rung in rungs:
        again, _missing, settled = retry_plan(out, tasks, rung)
        # the next rung's base: the deals left unknown below are all it can
        # plan (a deal won or lost at a rung is settled for the rungs above)
        tasks = again
        prefix = f"retry at {rung.nodes:,} nodes{rung.with_search}: "
        # deals unknown at the rung below but won or lost at another rung
        others = "other" if settled == 1 else "others"
        elsewhere = f" ({settled:,} {others} settled at other rungs)" if settled else ""
        if not again:
            if not quiet:
                click.echo(
                    f"{prefix}no deal left unknown at {below.text()}{elsewhere}: "
                    f"nothing to do -> {Path(out)}"
                )
            break  # nor at the larger limits
        rung_meta = dict(
            meta, node_limit=rung.nodes, retry_from=below.nodes, retry=[r.meta() for r in rungs]
        )
        if rung.search != DEFAULT_SEARCH:
            rung_meta["search"] = rung.search
        if below.search != DEFAULT_SEARCH:
            rung_meta["retry_from_search"] = below.search
        report = _run(
            again, out, backend, chunk, rung_meta, False, draw, f"at {rung.text()}", solver, mixed
        )
        if not quiet:
            click.echo(prefix + _summary(report, f"left unknown at {below.text()}{elsewhere}"))
        below = rung


def _rung(text: str) -> tuple[int, str]:
    """One rung of --retry: ``N`` or ``N@NAME`` (a node limit and a search configuration)."""
    nodes, _at, search = text.partition("@")
    return node_count(nodes, "--retry"), (search.strip().lower() if _at else DEFAULT_SEARCH)


def _run_meta(source, suits, rules, deals, limit, player, samples, seed, backend, scheduler):
    """The run's settings, as the results files record them (``settings_meta``)."""
    honest = player == "honest"
    return {
        "command": "spidersolve " + " ".join(sys.argv[1:]) if sys.argv else "",
        "source": source,
        "suits": suits,
        "rules": rules,
        "deals": deals,
        "settings": [f"{s.suits} {s.rules}" for s in settings(source, suits, rules)],
        "node_limit": limit,
        "player": player,
        "samples": samples if honest else None,
        "seed": seed if honest else None,
        "backend": backend.name,
        "workers": getattr(backend, "slots", 1) if not scheduler else None,
        "scheduler": scheduler,
    }


def _run(tasks, out, backend, chunk, meta, repair, draw, desc, solver=None, mixed=False):
    """``run_batch`` with the progress bar (when ``draw``) and the notes of a repair."""
    bar = None
    tally = {"won": 0, "lost": 0, "unknown": 0}

    def on_start(planned, skipped):
        nonlocal bar
        if draw and skipped < planned:  # nothing to do: no bar of zeros
            from tqdm import tqdm

            bar = tqdm(
                total=planned,
                initial=skipped,
                unit="deal",
                file=sys.stderr,
                dynamic_ncols=True,
                desc=desc,
            )
            bar.set_postfix(tally)

    def on_chunk(rows):
        for row in rows:
            tally[row["verdict"]] += 1
        if bar is not None:
            bar.set_postfix(tally)
            bar.update(len(rows))

    try:
        return run_batch(
            tasks,
            out,
            backend,
            chunk=chunk,
            settings_meta=meta,
            on_start=on_start,
            on_chunk=on_chunk,
            repair=repair,
            solver=solver,
            mixed=mixed,
            on_damaged=lambda path: click.echo(
                f"note: a damaged results file set aside as '{path}'; the deals of this "
                "run it held are solved again, and its rows of other runs are only there now",
                err=True,
            ),
        )
    finally:
        if bar is not None:
            bar.close()


def _summary(report, what: str = "") -> str:
    """The line a run ends with: what was planned, done before and solved now."""
    planned = plural(report.planned, "deal") + (f" {what}" if what else " planned")
    if not report.solved:
        return f"{planned}, all already done: nothing to do -> {report.out}"
    return (
        f"{planned}, {report.skipped} already done, {report.solved} solved now: "
        f"won {report.won}, lost {report.lost}, unknown {report.unknown} in "
        f"{report.seconds:.1f} s -> {report.out}"
    )


COMMANDS = [batch]
