"""``spidersolve deal``: the start position of a game code, a PySolFC deal or a file."""

from __future__ import annotations

from pathlib import Path

import click

from ..state import load_source
from .options import echo_json, json_option, source_argument, words_option


def code_name(source: str, name: str) -> str | None:
    """The canonical game code or ``pysol:S:N`` name, or None for a file or stdin."""
    if name == "-" or (not name.lower().startswith("pysol:") and Path(source).is_file()):
        return None
    return name


@click.command("deal")
@source_argument
@words_option
@json_option
def deal(source, words, as_json):
    """Print the start position of SOURCE.

    SOURCE is a game code (SP1-S4C-AAAAAAD), a PySolFC deal (pysol:4:14934),
    a position file, or - for standard input.
    """
    position, name = load_source(source)
    if as_json:
        obj = {"source": source, "code": code_name(source, name), "position": position.to_text()}
        if words:
            obj["words"] = position.words()
        echo_json(obj)
    elif words:
        click.echo(position.words())
    else:
        click.echo(position.to_text(), nl=False)


COMMANDS = [deal]
