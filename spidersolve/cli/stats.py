"""``spidersolve stats`` and ``spidersolve hints``: read batch results."""

from __future__ import annotations

import json
import logging
import sys

import click

from ..board import plural
from ..errors import SpiderError
from ..files import output_problem, write_asked
from ..stats.hint_table import hints_frame
from ..stats.honest import HONEST_BY, honest_flat, honest_render, honest_summary, split_players
from ..stats.store import load_results, load_results_and_runs
from ..stats.text import plain
from ..stats.winrates import DEFAULT_BY, render, settled, stats_flat, stats_json
from .options import (
    NodeCount,
    OutputPath,
    check_not_input,
    check_search_memory,
    parse_budgets,
    parse_by,
)

results_argument = click.argument("results", metavar="RESULTS")


def _missing_note(planned: tuple[int, int, int] | None) -> str | None:
    """What ``missing_count`` found missing, in words (None if nothing is)."""
    if not planned or not planned[1]:
        return None
    total, lacking, unstarted = planned
    lines = []
    if unstarted:
        lines.append(
            f"note: {unstarted:,} of the {total:,} deals planned by the runs that "
            "wrote these results are missing (an interrupted run?): the same batch "
            "command solves them"
        )
    if lacking > unstarted:
        lines.append(
            f"note: {lacking - unstarted:,} of the {total:,} deals planned have their "
            "first rows but not all the --retry rows planned for them (a stopped "
            "ladder?): the same batch command runs the rest"
        )
    return "\n".join(lines)


def _version_counts(frame, keys, honest_rows: bool) -> dict:
    """Rows by the version of the code that made them (``spidersolve.revision``),
    when there are several and a table does not keep them apart (``--by``
    groups the solver's rows only); else empty."""
    if frame.empty or ("version" in keys and not honest_rows):
        return {}
    counts = frame["version"].astype(str).value_counts().sort_index()
    return {str(v): int(n) for v, n in counts.items()} if len(counts) > 1 else {}


def _versions_note(counts: dict, solver_rows: bool) -> str | None:
    """The note that says the rows of ``counts`` come from several versions."""
    if not counts:
        return None
    listed = "; ".join(f"{version}: {plural(n, 'row')}" for version, n in counts.items())
    apart = ": --by version shows them apart" if solver_rows else ""
    return (
        f"note: these rows were made by {len(counts)} versions of the code ({listed}), "
        f"which may search differently{apart}"
    )


@click.command("stats")
@results_argument
@click.option(
    "--by",
    "by",
    default=",".join(DEFAULT_BY),
    show_default=True,
    metavar="COLUMNS",
    help="Group by these columns (source, suits, rules, node_limit, search, version); "
    "the node limit is always one, and so is the search once a rung of --retry ran another.",
)
@click.option(
    "--budgets",
    default=None,
    metavar="LIST",
    help="Also give the win rate within these smaller node budgets, e.g. "
    "167000,500000 (from the node counts of the same run).",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print one JSON object: {"groups": [one object per group], "honest": [one '
    'object per honest setting], "planned": N, "missing": N}, "settled": '
    "[one object per setting] where a setting was run at several node limits, and "
    '"versions": {version: rows} where the rows come from several versions of the code.',
)
@click.option(
    "--csv",
    "as_csv",
    is_flag=True,
    help="Print CSV: one line per group (per honest setting when the results hold "
    "honest games only).",
)
@click.option(
    "--plot",
    type=OutputPath(),
    default=None,
    metavar="FILE.png",
    help="Draw win rate against node budget to FILE.png and the nodes per won "
    "deal to FILE-nodes.png (.svg and .pdf write those formats).",
)
def stats(results, by, budgets, as_json, as_csv, plot):
    """Win rates of the batch results in RESULTS (a directory or a .parquet file).

    Per group: deals, won, lost, unknown; the win rate's lower bound won/N
    with its Wilson 95% interval and its upper bound 1 - lost/N; median and
    95th percentile of nodes and seconds over all deals. Games of the honest
    player (batch --player honest) get their own table: the honest win rate
    with its Wilson interval beside the full-knowledge verdicts of the same
    deals, and the deals won with full knowledge but lost honestly.
    """
    if as_json and as_csv:
        raise SpiderError("--json and --csv: choose one")
    keys = parse_by(by)
    budget_list = parse_budgets(budgets)
    if plot:
        # matplotlib's own notes (a config folder it cannot make under an
        # unwritable HOME, a font cache being built) are not this command's output
        logging.getLogger("matplotlib").setLevel(logging.ERROR)
        from ..stats.plots import nodes_path, plot_format

        plot_format(plot)  # a bad extension is an error before anything is printed
        problem = output_problem(str(nodes_path(plot)))  # the second figure's file
        if problem:
            raise SpiderError(f"--plot: {problem}")
        for figure in (plot, str(nodes_path(plot))):
            check_not_input(figure, results, "--plot")
    everything, runs = load_results_and_runs(results)
    from ..stats.batch import missing_count

    planned = missing_count(everything, runs)
    note = _missing_note(planned)
    frame, honest = split_players(everything)
    versions = _version_counts(everything, keys, not honest.empty)
    mixed = _versions_note(versions, not frame.empty)
    if mixed:
        note = mixed if note is None else note + "\n" + mixed
    honest_only = frame.empty and not honest.empty
    if honest_only:  # the solver's options do nothing
        given = [
            name
            for name, used in (
                ("--by", by != ",".join(DEFAULT_BY)),
                ("--budgets", bool(budget_list)),
                ("--plot", plot is not None),
            )
            if used
        ]
        if given:
            raise SpiderError(
                f"{', '.join(given)}: the results hold honest games only, which are "
                f"grouped by {', '.join(HONEST_BY)}, with no node budgets and nothing to plot "
                "(run stats without them)"
            )
    # unknown before the node limit: a --search-memory cap stopped the search, a
    # beam (a --retry rung, the default's tail phase) had no position left, or
    # the default's phases left nodes unused (solver._phases)
    early = (
        int(((frame["verdict"] == "unknown") & (frame["nodes"] < frame["node_limit"])).sum())
        if not frame.empty
        else 0
    )
    if early:
        early_note = (
            f"note: {early:,} unknown {'row' if early == 1 else 'rows'} stopped before "
            "the node limit: a --search-memory cap (a larger cap goes further, "
            "with a larger --retry limit or into another --out), a beam with no "
            "position left to expand, or the default's phases (docs/solver.md)"
        )
        note = early_note if note is None else note + "\n" + early_note
    if plot:  # written first: a file that cannot be written is an error before any output
        from ..stats.plots import save_plots

        paths = save_plots(frame, plot, keys)
    if as_json:
        out = {
            "groups": stats_json(frame, keys, budget_list) if not frame.empty else [],
            "honest": honest_summary(everything) if not honest.empty else [],
            "planned": planned[0] if planned else None,
            "missing": planned[1] if planned else None,
        }
        if early:
            out["stopped_early"] = early
        if versions:
            out["versions"] = versions
        records = settled(frame, keys)
        if records:  # only where a setting was run at several limits (batch --retry)
            out["settled"] = [{k: plain(v) for k, v in r.items()} for r in records]
        click.echo(json.dumps(out, indent=1))
    elif as_csv:  # one table: the solver's groups, or the honest settings when only they ran
        if honest_only:
            click.echo(honest_flat(everything).to_csv(index=False), nl=False)
        else:
            click.echo(stats_flat(frame, keys, budget_list).to_csv(index=False), nl=False)
            if not honest.empty:
                left = (
                    f"note: the CSV leaves out the {len(honest):,} honest "
                    f"{'game' if len(honest) == 1 else 'games'}: run stats without --csv "
                    "(or with --json) for them"
                )
                note = left if note is None else note + "\n" + left
    else:
        parts = [render(frame, keys, budget_list)] if not frame.empty or honest.empty else []
        if not honest.empty:
            parts.append(honest_render(everything))
        click.echo("\n\n".join(parts))
    if note and not as_json:
        click.echo(note, err=as_csv)
    if plot:
        click.echo("plots: " + ", ".join(str(p) for p in paths), err=as_json or as_csv)


@click.command("hints")
@results_argument
@click.option(
    "--out",
    default="-",
    show_default=True,
    type=OutputPath(dash=True),
    help="CSV file to write ('-' for standard output).",
)
@click.option(
    "--suggest-nodes",
    type=NodeCount(low=0),
    default=10_000,
    show_default=True,
    help="For a deal not won, search this many nodes for an unproven suggestion (0: none).",
)
def hints(results, out, suggest_nodes):
    """First action of each deal's winning line, in notation and in words.

    One CSV row per solver result (honest games are left out: they prove
    nothing of the deal): code, suits, rules, node_limit, verdict, proven,
    first_action, first_action_words, moves. A deal not won within its limit
    has no proven hint: proven is false, and the action is the best first
    action of a --suggest-nodes search (empty for a lost deal, or with 0).
    """
    if out != "-":
        check_not_input(out, results, "--out")
    if suggest_nodes:
        check_search_memory(suggest_nodes, None, option="--suggest-nodes", memory_option=False)
    # the solver's rows only: an honest game's `lost` is the player's, not the deal's
    solver, honest = split_players(load_results(results))
    if solver.empty and not honest.empty:
        raise SpiderError(
            "the results hold honest games only, and hints are the first actions of "
            "the solver's lines: run batch without --player honest for them"
        )
    frame = hints_frame(solver, suggest_nodes)
    if out == "-":
        frame.to_csv(sys.stdout, index=False)
        return
    write_asked(out, lambda handle: frame.to_csv(handle, index=False), text=True)
    click.echo(f"{plural(len(frame), 'hint')} ({int(frame['proven'].sum())} proven) -> {out}")


COMMANDS = [stats, hints]
