"""``spidersolve actions``: the legal actions of a position, in notation and in words."""

from __future__ import annotations

import click

from ..state import legal_actions
from .options import after_option, echo_json, json_option, source_argument, start_game


def no_action_text(game) -> str:
    """Why a position has no legal action: won, or lost."""
    if game.won:
        return "no legal action: the game is won (all 8 runs removed)"
    runs = len(game.position.removed)
    return (
        f"no legal action: the game is lost ({runs} of 8 runs removed, "
        "nothing can move and no deal is possible)"
    )


@click.command("actions")
@source_argument
@after_option
@json_option
def actions(source, after, as_json):
    """List the legal actions of SOURCE: notation, a tab, then words.

    Moves come by source column, destination and size, then the deal.
    """
    game, _name = start_game(source, after)
    position = game.position
    legal = legal_actions(position)
    if as_json:
        echo_json(
            {
                "actions": [{"action": a.text(), "words": a.words(position)} for a in legal],
                "state": game.state,
            }
        )
        return
    if not legal:
        click.echo(no_action_text(game))
        return
    for action in legal:
        click.echo(f"{action.text()}\t{action.words(position)}")


COMMANDS = [actions]
