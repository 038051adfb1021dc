"""``spidersolve autoplay``: play a whole game, honestly or with full knowledge."""

from __future__ import annotations

import click

from ..errors import SpiderError
from ..search import DEFAULT_NODES
from ..search.memory import NODE_COST_TEXT
from .options import (
    NodeCount,
    after_option,
    announce_compile,
    check_known_memory,
    check_search_memory,
    echo_json,
    honest_threads,
    json_option,
    memory_option,
    needs_full_knowledge,
    source_argument,
    start_game,
)
from .solve import honest_options, not_honest


@click.command("autoplay")
@source_argument
@after_option
@click.option(
    "--honest",
    is_flag=True,
    help="The honest player: it sees only what a player sees, cards turn up as "
    "they are uncovered, no undo.",
)
@honest_options
@click.option(
    "--nodes",
    type=NodeCount(),
    default=None,
    help=f"Node limit: with --honest per sample search (default by suits), "
    f"else the solver's (default {DEFAULT_NODES}); 1e6 works; "
    f"{NODE_COST_TEXT}.",
)
@memory_option
@json_option
def autoplay_command(source, after, honest, samples, seed, nodes, memory, as_json):
    """Play SOURCE to the end and print won or lost, the line, moves, score and seconds.

    With --honest the player is shown only the visible position before each
    decision (SPEC section 11): it samples the hidden cards, commits to a
    plan up to the next card it turns up, and plans again. Without it, the
    full-knowledge solver's line is played, for comparison. The line
    replays with the reference rules from SOURCE (after --after).
    """
    from ..search.honest_game import play_honest, play_known
    from ..search.verify import verify_line

    game, _name = start_game(source, after)
    if honest and game.position.has_unknown:
        raise SpiderError(
            "the position has unknown cards (??): an honest game is played on the whole "
            "deal, which shows each card as it turns up; give the game code (with --after "
            "LINE), or follow a game with unknown cards in play"
        )
    needs_full_knowledge(game.position, "played to the end")
    if not honest:
        not_honest(unknown_cards=False)
    if honest:
        from ..search.honest import HONEST_NODES

        check_known_memory(nodes, memory)  # once no card is hidden, one search decides
        workers = honest_threads(nodes or HONEST_NODES[game.position.suits], memory)
        announce_compile()
        result = play_honest(
            game.position, samples=samples, seed=seed, nodes=nodes, workers=workers, game=game
        )
    else:
        check_search_memory(nodes or DEFAULT_NODES, memory)
        announce_compile()
        result = play_known(game.position, nodes or DEFAULT_NODES, game=game)
    verify_line(game, result.line, result.result == "won")
    if as_json:
        echo_json(result.as_dict())
        return
    click.echo(f"result: {result.result}" + (f" ({result.reason})" if result.reason else ""))
    click.echo(f"player: {result.player}")
    click.echo(f"moves: {result.moves}")
    click.echo(f"score: {result.score}")
    click.echo(f"seconds: {result.seconds:.2f}")
    click.echo(f"line: {result.line_text}")


COMMANDS = [autoplay_command]
