"""``spidersolve solve`` and ``spidersolve hint``."""

from __future__ import annotations

import click

from ..search import DEFAULT_NODES, HINT_NODES, hint, solve
from ..search.honest import DEFAULT_SEED, HONEST_NODES, HONEST_SAMPLES, default_workers
from ..search.solver import MAX_NODES
from ..state import Game, line_text
from .options import (after_option, announce_compile, echo_json, json_option,
                      needs_full_knowledge, source_argument, start_game, words_option)


def _nodes_option(default):
    return click.option("--nodes", type=click.IntRange(min=1, max=MAX_NODES), default=default,
                        show_default=True, help="Node limit: positions expanded.")


def _prepare(source, after, shorten: bool = False) -> Game:
    game, _name = start_game(source, after)
    needs_full_knowledge(game.position, "solved")
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
@words_option
@click.option("--shorten", is_flag=True,
              help="Look for a shorter winning line after the search (a beam search seeded "
                   "with the line; typically half a second more).")
@json_option
def solve_command(source, after, nodes, words, shorten, as_json):
    """Prove SOURCE won (with a winning line), lost, or say unknown.

    SOURCE is a game code (SP1-S1C-AAAAAAD), pysol:SUITS:NUMBER, a position
    file or - for standard input. The line is replayed with the reference
    rules before it is printed.
    """
    game = _prepare(source, after, shorten)
    result = solve(game, nodes=nodes, shorten=shorten)
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
            for i, text in enumerate(line_in_words(game, result.line), start=1):
                click.echo(f"{i}. {text}")
    elif result.verdict == "lost":
        click.echo("no winning line exists: the search was exhaustive")
    else:
        click.echo(f"no proof within {nodes} nodes: try a larger --nodes")


def honest_options(fn):
    """--samples and --seed, shared by the honest commands."""
    fn = click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=DEFAULT_SEED,
                      show_default=True,
                      help="Seed of the samples of the hidden cards (honest play).")(fn)
    return click.option("--samples", type=click.IntRange(1, 10_000), default=HONEST_SAMPLES,
                        show_default=True,
                        help="Samples of the hidden cards per decision (honest play).")(fn)


@click.command("hint")
@source_argument
@after_option
@click.option("--nodes", type=click.IntRange(min=1, max=MAX_NODES), default=None,
              help=f"Node limit: positions expanded. [default: {HINT_NODES}; honest: per "
                   "sample, " + ", ".join(f"{n} for {s} suit{'s' if s > 1 else ''}"
                                          for s, n in HONEST_NODES.items()) + "]")
@click.option("--line", "show_line", is_flag=True, help="Print the whole winning line.")
@click.option("--honest", is_flag=True,
              help="Advise from what a player sees only: face-down and stock cards hidden. "
                   "Always on for a position with unknown cards (??).")
@honest_options
@json_option
def hint_command(source, after, nodes, show_line, honest, samples, seed, as_json):
    """The next action to play: the first action of a proven winning line.

    Use --after with the actions already played from SOURCE to get a hint in
    the middle of a game. With --honest, or for a position with unknown
    cards (??), the hint sees only what a player sees: it samples the hidden
    cards and solves the samples (status honest, with the share of samples
    won after the action).
    """
    game, _name = start_game(source, after)
    if honest or game.position.has_unknown:
        announce_compile()
        _honest_hint(game, nodes, samples, seed, as_json)
        return
    announce_compile()
    result = hint(game, nodes=nodes or HINT_NODES)
    if as_json:
        echo_json(result.as_dict())
        return
    status = result.status
    if status == "won":
        click.echo("the game is already won")
    elif status == "stuck":
        click.echo("no legal action is left: the game is lost")
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
        click.echo(f"unproven: no winning line found within {nodes or HINT_NODES} nodes; "
                   "this is the search's best guess. Try a larger --nodes.")


def _honest_hint(game, nodes, samples, seed, as_json) -> None:
    from ..search.honest import advise
    from ..state.visible import visible_of

    result = advise(visible_of(game.position), samples=samples, seed=seed, nodes=nodes,
                    workers=default_workers())
    if as_json:
        echo_json(result.as_dict())
        return
    if result.status == "won":
        click.echo("the game is already won")
        return
    if result.status == "stuck":
        click.echo("no legal action is left: the game is lost")
        return
    click.echo(f"{result.action.text()}: {result.words}")
    click.echo(f"honest: {result.wins} of {result.scored} samples won after it "
               f"({100 * result.win_estimate:.0f}%); {result.samples} samples of the hidden "
               f"cards, {result.candidates} candidate{'s' if result.candidates != 1 else ''}, "
               f"{result.nodes} nodes, {result.seconds:.2f} s")
    if len(result.plan) > 1:
        click.echo(f"plan: {line_text(result.plan)} (up to the first card it turns up)")


COMMANDS = [solve_command, hint_command]
