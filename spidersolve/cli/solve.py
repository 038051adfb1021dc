"""``spidersolve solve`` and ``spidersolve hint``."""

from __future__ import annotations

import click

from ..board import plural
from ..search import DEFAULT_NODES, HINT_NODES, hint, solve
from ..search.solver import MAX_NODES
from ..state import Game, line_text
from ..state.words import line_sentences
from .options import (after_option, announce_compile, echo_json, html_option, json_option,
                      needs_full_knowledge, source_argument, start_game, words_option)


def _nodes_option(default):
    return click.option("--nodes", type=click.IntRange(min=1, max=MAX_NODES), default=default,
                        show_default=True, help="Node limit: positions expanded.")


def _prepare(source, after, shorten: bool = False) -> tuple[Game, str]:
    game, name = start_game(source, after)
    needs_full_knowledge(game.position, "solved")
    announce_compile(shorten=shorten)
    return game, name


def _write_page(path, game: Game, line, name: str, after: str) -> str:
    """Write the solution page of a won line; the line to print about it."""
    from ..page import write_solution_page
    from ..show import line_steps

    where = name if name != "-" else "a position"
    if after.strip():
        where += " after " + after.strip()
    steps = line_steps(game, line, where)
    total = len(steps) - 1
    written = write_solution_page(path, steps,
                                  f"{where}: a winning line of {total} action"
                                  f"{'s' if total != 1 else ''}")
    return f"page: {written}"


@click.command("solve")
@source_argument
@after_option
@_nodes_option(DEFAULT_NODES)
@words_option
@html_option
@click.option("--shorten", is_flag=True,
              help="Look for a shorter winning line after the search (a beam search seeded "
                   "with the line; typically half a second more).")
@json_option
def solve_command(source, after, nodes, words, html_path, shorten, as_json):
    """Prove SOURCE won (with a winning line), lost, or say unknown.

    SOURCE is a game code (SP1-S1C-AAAAAAD), pysol:SUITS:NUMBER, a position
    file or - for standard input. The line is replayed with the reference
    rules before it is printed. --html FILE also writes the winning line as a
    solution page (see 'spidersolve show').
    """
    game, name = _prepare(source, after, shorten)
    result = solve(game, nodes=nodes, shorten=shorten)
    page = None
    if html_path and result.verdict == "won":
        page = _write_page(html_path, game, result.line, name, after)
    if as_json:
        echo_json(result.as_dict())
        return
    click.echo(f"verdict: {result.verdict}")
    click.echo(f"nodes: {result.nodes}")
    click.echo(f"seconds: {result.seconds:.3f}")
    if result.verdict == "won":
        click.echo(f"moves: {result.moves}")
        click.echo(f"score: {result.score}")
        click.echo(f"line: {result.line_text}")
        if words:
            for i, (action, text) in enumerate(zip(result.line, line_sentences(game, result.line)),
                                               start=1):
                click.echo(f"{i}. {action.text()}: {text}")
        if page:
            click.echo(page)
        return
    if result.verdict == "lost":
        click.echo("no winning line exists: the search was exhaustive")
    else:
        click.echo(f"no proof within {plural(nodes, 'node')}: try a larger --nodes")
    if html_path:
        click.echo("page: not written (no winning line)")


@click.command("hint")
@source_argument
@after_option
@_nodes_option(HINT_NODES)
@click.option("--line", "show_line", is_flag=True, help="Print the whole winning line.")
@json_option
def hint_command(source, after, nodes, show_line, as_json):
    """The next action to play: the first action of a proven winning line.

    Use --after with the actions already played from SOURCE to get a hint in
    the middle of a game.
    """
    game, _name = _prepare(source, after)
    result = hint(game, nodes=nodes)
    if as_json:
        echo_json(result.as_dict())
        return
    status = result.status
    if status == "won":
        click.echo("the game is already won")
    elif status == "stuck":
        click.echo("no legal action is left: the game is lost")
    elif status == "lost":
        click.echo("lost: no winning line exists from here (searched all "
                   f"{plural(result.nodes, 'position')})")
    elif status == "proven":
        click.echo(f"{result.action.text()}: {result.words}")
        click.echo(f"proven: the first action of a winning line of "
                   f"{plural(result.line_length, 'action')} ({result.nodes} nodes)")
        if show_line:
            click.echo("line: " + line_text(result.line))
    else:
        click.echo(f"{result.action.text()}: {result.words}")
        click.echo(f"unproven: no winning line found within {plural(nodes, 'node')}; this is the "
                   "search's best guess. Try a larger --nodes.")


COMMANDS = [solve_command, hint_command]
