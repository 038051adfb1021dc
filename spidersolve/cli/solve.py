"""``spidersolve solve`` and ``spidersolve hint``."""

from __future__ import annotations

import click

from ..search import DEFAULT_NODES, HINT_NODES, hint, solve
from ..search.memory import NODE_COST_TEXT
from ..state import Game, line_text
from .options import (NodeCount, after_option, announce_compile, check_search_memory,
                      echo_json, json_option, memory_option, needs_full_knowledge,
                      source_argument, start_game, words_option)


def _nodes_option(default):
    return click.option("--nodes", type=NodeCount(), default=default, show_default=True,
                        help=f"Node limit: positions expanded (1e6 works; {NODE_COST_TEXT}).")


def _prepare(source, after, nodes, memory, shorten: bool = False) -> Game:
    game, _name = start_game(source, after)
    needs_full_knowledge(game.position, "solved")
    check_search_memory(nodes, memory)
    announce_compile(shorten=shorten)
    return game


def line_in_words(game: Game, line) -> list[str]:
    words = []
    for action in line:
        words.append(action.words(game.position))
        game = game.play(action)
    return words


@click.command("solve")
@source_argument
@after_option
@_nodes_option(DEFAULT_NODES)
@memory_option
@words_option
@click.option("--shorten", is_flag=True,
              help="Look for a shorter winning line after the search (a beam search seeded "
                   "with the line; typically half a second more).")
@json_option
def solve_command(source, after, nodes, memory, words, shorten, as_json):
    """Prove SOURCE won (with a winning line), lost, or say unknown.

    SOURCE is a game code (SP1-S1C-AAAAAAD), pysol:SUITS:NUMBER, a position
    file or - for standard input. The line is replayed with the reference
    rules before it is printed.
    """
    game = _prepare(source, after, nodes, memory, shorten)
    result = solve(game, nodes=nodes, shorten=shorten)
    if as_json:
        obj = result.as_dict()
        if words:  # each action of the line in words, or null unless won
            obj["words"] = (line_in_words(game, result.line) if result.verdict == "won"
                            else None)
        echo_json(obj)
        return
    click.echo(f"verdict: {result.verdict}")
    click.echo(f"nodes: {result.nodes}")
    click.echo(f"seconds: {result.seconds:.3f}")
    if result.verdict == "won":
        click.echo(f"moves: {result.moves}")
        click.echo(f"score: {result.score}")
        click.echo(f"line: {result.line_text}")
        if words:
            for i, text in enumerate(line_in_words(game, result.line), start=1):
                click.echo(f"{i}. {text}")
    elif result.verdict == "lost":
        click.echo("no winning line exists: the search was exhaustive")
    else:
        click.echo(f"no proof within {nodes} nodes: try a larger --nodes")


@click.command("hint")
@source_argument
@after_option
@_nodes_option(HINT_NODES)
@memory_option
@click.option("--line", "show_line", is_flag=True, help="Print the whole winning line.")
@json_option
def hint_command(source, after, nodes, memory, show_line, as_json):
    """The next action to play: the first action of a proven winning line.

    Use --after with the actions already played from SOURCE to get a hint in
    the middle of a game.
    """
    game = _prepare(source, after, nodes, memory)
    result = hint(game, nodes=nodes)
    if as_json:
        echo_json(result.as_dict())
        return
    status = result.status
    if status == "won":
        click.echo("won: the game is already won")
    elif status == "stuck":
        click.echo("stuck: no legal action is left, so the game is lost")
    elif status == "lost":
        click.echo(f"lost: no winning line exists from here (searched all {result.nodes} "
                   "positions)")
    elif status == "proven":
        click.echo(f"{result.action.text()}: {result.words}")
        click.echo(f"proven: the first action of a winning line of {result.line_length} "
                   f"actions ({result.nodes} nodes)")
        if show_line:
            click.echo("line: " + line_text(result.line))
    else:
        click.echo(f"{result.action.text()}: {result.words}")
        click.echo(f"unproven: no winning line found within {nodes} nodes; this is the "
                   "search's best guess. Try a larger --nodes.")


COMMANDS = [solve_command, hint_command]
