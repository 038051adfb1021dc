"""``spidersolve play``: play a game in the terminal."""

from __future__ import annotations

import sys

import click

from ..errors import SpiderError
from ..play import PlaySession
from ..state import parse_line
from .options import after_option, fail, source_argument, start_game


@click.command("play")
@source_argument
@after_option
@click.option("--words", is_flag=True, help="Describe the table in plain words instead of "
                                              "drawing it (for a screen reader).")
def play(source, after, words):
    """Play SOURCE in the terminal: type 7>3, 7>3x2, 7, deal, undo, hint, help or quit.

    Commands are read from the keyboard, or line by line from stdin when it is
    not a terminal (each command is then echoed after '> '). Face-down cards
    stay hidden. At the end (quit, a win or the end of the input) the last line
    printed is 'line:' and the actions played, --after included, to replay them.
    """
    if source.strip() == "-":
        fail("play reads its commands from stdin, so SOURCE cannot be '-': "
             "give a game code or a position file")
    try:
        game, _name = start_game(source, after)
        session = PlaySession(game, parse_line(after), words=words)
    except SpiderError as err:
        fail(str(err))
    click.echo(session.start())
    stdin = sys.stdin
    interactive = stdin.isatty()
    try:
        while not session.finished:
            if interactive:
                try:
                    command = click.prompt("", prompt_suffix="> ", default="",
                                           show_default=False)
                except click.Abort:  # end of input (Ctrl-D) or Ctrl-C
                    click.echo()
                    break
            else:
                command = stdin.readline()
                if not command:
                    break
                command = command.strip()
                if command:
                    click.echo(f"> {command}")
            answer = session.handle(command)
            if answer:
                click.echo(answer)
    except KeyboardInterrupt:
        click.echo()
    click.echo(session.line_report())


COMMANDS = [play]
