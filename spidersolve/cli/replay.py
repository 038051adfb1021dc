"""``spidersolve replay``: play a line and show where it ends."""

from __future__ import annotations

import click

from ..state import load_source, parse_line
from ..state import replay as replay_line
from ..state.words import line_sentences
from .options import echo_json, json_option, source_argument, words_option


@click.command("replay")
@source_argument
@click.argument("line", metavar="LINE")
@words_option
@json_option
def replay(source, line, words, as_json):
    """Replay LINE (actions separated by spaces, like '1>8 8>7x2 deal') from SOURCE.

    Prints the final position, then moves, score, runs removed and state
    (won, lost or playing). An illegal action is an error that names its
    index and the rule it breaks. --words first says each action, numbered.
    """
    position, _name = load_source(source)
    game = replay_line(position, line)
    final = game.position
    said = line_sentences(position, line) if words else None
    if as_json:
        obj = {
            "position": final.to_text(),
            "moves": game.moves,
            "score": game.score,
            "removed": len(final.removed),
            "state": game.state,
        }
        if words:
            obj["words"] = said
        echo_json(obj)
        return
    if words:
        for i, (action, text) in enumerate(zip(parse_line(line), said), start=1):
            click.echo(f"{i}. {action.text()}: {text}")
    click.echo(final.to_text(), nl=False)
    click.echo(f"moves: {game.moves}")
    click.echo(f"score: {game.score}")
    click.echo(f"removed: {len(final.removed)}")
    click.echo(f"state: {game.state}")


COMMANDS = [replay]
